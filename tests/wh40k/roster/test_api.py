"""Reading a list (wh40k/roster/api.py), checked against what leaders_11e.json holds: a
Captain (80 pts) and an Ancient (45 pts) recorded as leading a 5-model Intercessor Squad
(80 pts), and a 2-model Hellblaster Squad (40 pts); 245 points in all."""

import pytest

from mathhammer.errors import OptionError, RosterError
from mathhammer.wh40k.roster.api import example, load_roster, parse_roster

from .conftest import FILES


@pytest.fixture(scope="module")
def army():
    return load_roster(FILES / "leaders_11e.json")


def test_units_points_and_attachments(army):
    assert (army.edition, army.points) == (11, 245)
    assert [u.name for u in army.units] == ["Intercessor Squad", "Hellblaster Squad"]
    # the leaders' points count with the squad they lead: 80 + 80 + 45
    assert army.unit_points() == {"Intercessor Squad": 205.0, "Hellblaster Squad": 40.0}
    assert army.attached_to("Captain") == army.attached_to("Ancient") == "Intercessor Squad"
    squad = army.unit("Intercessor Squad")
    assert squad.models == 7 and squad.leaders == ("Captain", "Ancient")


def test_listing(army):
    frame = army.to_frame()
    captain = frame[frame["unit"] == "Captain"]["weapon"].tolist()
    assert captain == ['1x Master-crafted bolter: 24" A2 BS2+ S4 AP-1 D2',
                       "1x Power weapon: Melee A5 WS2+ S5 AP-2 D2"]
    assert "Hellblaster Squad" in army.to_text()


def test_the_same_list_from_memory(army):
    data = (FILES / "leaders_11e.json").read_bytes()
    again = parse_roster(data, "upload.json")
    assert [u.name for u in again.units] == [u.name for u in army.units]
    assert again.source == "upload.json"
    with pytest.raises(RosterError, match="upload.txt"):
        parse_roster(b"not a roster", "upload.txt")
    # the old name reads the same bytes, once more, with a DeprecationWarning naming the new
    from mathhammer.wh40k.roster.api import roster_from_bytes

    with pytest.warns(DeprecationWarning, match=r"use parse_roster\(data, name\)"):
        old = roster_from_bytes(data, "upload.json")
    assert [u.name for u in old.units] == [u.name for u in again.units]


def test_unknown_units_and_examples(army):
    with pytest.raises(RosterError, match="no analysed unit 'Intercesor Squad'; did you mean "
                                          "'Intercessor Squad'"):
        army.unit("Intercesor Squad")
    assert army.unit(" hellblaster squad ").name == "Hellblaster Squad"
    assert example("marines").name.endswith(".ros")
    with pytest.raises(OptionError, match="no example list 'eldar'"):
        example("eldar")


def test_attach_and_assume_are_keywords():
    with pytest.raises(TypeError):
        load_roster(FILES / "leaders_11e.json", "Captain=Intercessor Squad")


def test_the_old_reader_name_still_loads_a_list_for_one_release():
    # issue 40, item 7: load_* reads a path; mh.roster(path) is its old name
    import mathhammer as mh

    with pytest.warns(DeprecationWarning, match=r"use load_roster\(path\)"):
        old = mh.wh40k.roster.api.roster(example("marines"))
    with pytest.warns(DeprecationWarning, match="use mathhammer.load_roster"):
        top = mh.roster
    assert top is mh.load_roster is mh.wh40k.load_roster
    assert old.points == load_roster(example("marines")).points
