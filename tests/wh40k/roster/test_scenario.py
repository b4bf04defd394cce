"""A list written out as a scenario file (wh40k/roster/scenario.py), checked against what the
test list marines_10e.ros holds (read by hand from the file)."""

import tomllib

import mathhammer as mh
from mathhammer.wh40k.roster.scenario import roster_toml
from mathhammer.wh40k.scenario.reader import parse_scenario

from .conftest import FILES


def test_the_toml_holds_the_lists_units_points_and_edition():
    text = roster_toml(mh.load_roster(FILES / "marines_10e.ros"))
    data = tomllib.loads(text)
    assert data["rules"]["edition"] == 10 and data["rounds"] == 1
    units = data["units"]
    # the file: a 90-point Captain, 80-point Intercessors (4 + a sergeant), 85-point
    # Devastators (3 without a weapon profile, 2 with lascannons)
    assert {name: units[name]["points"] for name in ("Captain", "Intercessor Squad",
                                                     "Devastator Squad")} == {
        "Captain": 90, "Intercessor Squad": 80, "Devastator Squad": 85}
    squad = units["Intercessor Squad"]["models"]
    assert [(m["name"], m["count"]) for m in squad] == [("Intercessor", 4),
                                                        ("Intercessor Sergeant", 1)]
    assert squad[1]["weapons"][1] == "Power fist: Melee A3 WS3+ S8 AP-2 D2"
    assert units["Devastator Squad"]["models"][1]["weapons"] == [
        'Lascannon: 48" A1 BS3+ S12 AP-3 D6+1 [HEAVY]']
    # what the file lacks is said, never dropped silently
    assert "'Artificer Armour' has no profile in the file" in text


def test_the_toml_reads_back_as_the_same_units():
    army = mh.load_roster(FILES / "marines_10e.ros")
    scenario = parse_scenario(roster_toml(army))
    for unit in army.units:
        assert scenario.units[unit.name].groups == unit.groups
