"""Hostile and broken files: one RosterError naming the file, raised before any large read."""

import json
import tracemalloc
import zipfile

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import RosterError
from mathhammer.wh40k.roster import read

from .conftest import FILES


def _error(path) -> str:
    with pytest.raises(RosterError) as info:
        mh.load_roster(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    return message


def test_billion_laughs_is_refused_without_expanding():
    mh.load_roster(FILES / "marines_10e.ros")  # imports done before measuring
    tracemalloc.start()
    try:
        message = _error(FILES / "billion_laughs.ros")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "entities" in message
    assert peak < 8 * 2**20  # nine levels of ten would be a gigabyte of 'lol'


def test_zip_bomb_is_stopped_while_unpacking(tmp_path):
    bomb = tmp_path / "bomb.rosz"
    block = b"<" * 2**20
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("army.ros", "w") as member:
            for _ in range(read.MAX_XML_BYTES // len(block) + 8):
                member.write(block)
    assert bomb.stat().st_size < 2**20  # small on disk, 40 MiB unpacked
    mh.load_roster(FILES / "marines_10e.rosz")  # imports done before measuring
    tracemalloc.start()
    try:
        message = _error(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "zip bomb" in message
    assert peak < 3 * read.MAX_XML_BYTES


def test_truncated_zip(tmp_path):
    data = (FILES / "marines_10e.rosz").read_bytes()
    broken = tmp_path / "cut.rosz"
    broken.write_bytes(data[: len(data) // 2])
    assert "truncated or corrupt" in _error(broken)


def test_damaged_member_inside_a_zip(tmp_path):
    data = bytearray((FILES / "marines_10e.rosz").read_bytes())
    data[60:80] = b"\xff" * 20  # inside the compressed stream of the only member
    broken = tmp_path / "damaged.rosz"
    broken.write_bytes(bytes(data))
    message = _error(broken)
    assert "damaged" in message or "corrupt" in message or "not well-formed" in message


def test_zip_with_two_rosters(tmp_path):
    path = tmp_path / "two.rosz"
    text = (FILES / "marines_10e.ros").read_text()
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.ros", text)
        archive.writestr("b.ros", text)
    assert "exactly one roster" in _error(path)


def test_ninth_edition_names_the_edition():
    message = _error(FILES / "ninth_edition.ros")
    assert "9th Edition" in message and "28ec-711c-d87f-3aeb" in message


def test_json_that_is_not_a_roster():
    assert "not a New Recruit roster" in _error(FILES / "not_a_roster.json")


@pytest.mark.parametrize("content, expected", [
    ("<roster>not a real one</roster>", "no gameSystemId"),
    ('<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>', "not a roster"),
    ("<roster", "not well-formed XML"),
    ("", "empty"),
    ("hello", "neither XML"),
    ('{"roster": [1, 2]}', "not a New Recruit roster"),
    ('{"roster": ', "not valid JSON"),
    ('<roster gameSystemId="sys-352e-adc2-7639-d6a9" '
     'xmlns="http://www.battlescribe.net/schema/rosterSchema"/>', "no forces"),
])
def test_broken_files(tmp_path, content, expected):
    path = tmp_path / "army.ros"
    path.write_text(content)
    assert expected in _error(path)


def test_deep_nesting_is_refused(tmp_path):
    path = tmp_path / "deep.ros"
    depth = read.MAX_DEPTH + 50
    path.write_text('<roster gameSystemId="sys-352e-adc2-7639-d6a9">' + "<a>" * depth
                    + "</a>" * depth + "</roster>")
    assert "nested" in _error(path)


def test_deep_json_is_refused(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"roster": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "nested" in _error(path)


@pytest.mark.parametrize("path_in_file, value, written", [
    (("forces", 0, "selections", 1, "costs"), "x", '"x"'),
    (("forces", 0, "selections", 1, "profiles"), 2**63, "9223372036854775808"),
    (("forces", 0, "selections", 1, "selections", 0, "selections", 0, "costs"), {"a": 1},
     "an object {...}"),
    (("costs",), 12, "12"),
])
def test_one_value_where_the_format_has_a_list_is_refused(tmp_path, path_in_file, value,
                                                          written):
    """ "costs": "x" read as no costs gave the unit 0 points; "profiles": 9 as no profiles gave
    a placeholder statline and a note hiding the damage."""
    data = json.loads((FILES / "real_10e.json").read_text(encoding="utf-8"))
    node = data["roster"]
    for step in path_in_file[:-1]:
        node = node[step]
    node[path_in_file[-1]] = value
    path = tmp_path / "list.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    owner = {1: "'Test list'", 5: "unit 'Warded Sentinels'",
             9: "'Ward carbine' in unit 'Warded Sentinels'"}[len(path_in_file)]
    key = path_in_file[-1]
    assert _error(path) == (f'{path}: "{key}" of {owner} is {written}, not a list [...]; a '
                            f'BattleScribe / New Recruit file writes "{key}" as a list: '
                            "export the list again")


def test_a_null_list_is_an_empty_one(tmp_path):
    data = json.loads((FILES / "real_10e.json").read_text(encoding="utf-8"))
    data["roster"]["forces"][0]["selections"][1]["rules"] = None
    path = tmp_path / "list.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert mh.load_roster(path).entries[0].name == "Warded Sentinels"


@pytest.mark.parametrize("text, expected", [
    ("[" * 100_000, "JSON nested too deeply; a roster is far shallower"),
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply; a roster is far shallower"),
    ("[1, 2]", 'JSON but not a New Recruit roster: expected an object {"roster": {...}}, '
     "found list"),
])
def test_a_json_array_is_read_as_json_not_as_an_unknown_file(tmp_path, text, expected):
    """100,000 '[' said 'neither XML, a zip nor New Recruit JSON' when the problem is the
    nesting."""
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="utf-8")
    assert _error(path) == f"{path}: {expected}"


def test_oversized_file_is_refused_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(read, "MAX_FILE_BYTES", 1000)
    assert "at most" in _error(FILES / "marines_10e.ros")


def test_missing_file():
    with pytest.raises(RosterError, match="cannot read roster file"):
        mh.load_roster(FILES / "nope.ros")


def test_absurd_model_count(tmp_path):
    text = (FILES / "marines_10e.ros").read_text().replace('number="4" type="model"',
                                                            'number="4000000000" type="model"')
    path = tmp_path / "huge.ros"
    path.write_text(text)
    assert "4000000000" in _error(path)


@pytest.mark.parametrize("name", ["billion_laughs.ros", "ninth_edition.ros", "not_a_roster.json"])
def test_cli_one_line_and_exit_2(name, capsys):
    assert main(["roster", str(FILES / name), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and name in lines[0] and "Traceback" not in lines[0]


def test_container_is_recognised_by_content(tmp_path):
    # a zipped roster under a .ros name and JSON under a .ros name read the same
    zipped = tmp_path / "army.ros"
    zipped.write_bytes((FILES / "marines_10e.rosz").read_bytes())
    as_json = tmp_path / "army2.ros"
    as_json.write_text((FILES / "leaders_11e.json").read_text())
    assert mh.load_roster(zipped).to_dict() == mh.load_roster(FILES / "marines_10e.ros").to_dict()
    assert mh.load_roster(as_json).edition == 11


def test_json_and_xml_trees_match():
    root = read.read_tree(FILES / "leaders_11e.json")
    assert root.tag == "roster"
    force = root.list("forces")[0]
    captain = force.list("selections")[1]
    assert captain.get("name") == "Captain"
    assert captain.list("profiles")[0].list("characteristics")[1].text == "4"
    assert captain.list("associations")[0].get("name") == "Leading"


@pytest.mark.parametrize("name", ["marines_10e.ros", "orks_11e.ros", "leaders_11e.json"])
def test_damaged_files_give_mathhammer_errors_only(tmp_path, name):
    """Random cuts and insertions: every outcome is a roster or a one-line error."""
    import random

    from mathhammer.errors import MathhammerError

    rng = random.Random(name)
    original = (FILES / name).read_bytes()
    path = tmp_path / f"damaged.{name.rsplit('.', 1)[1]}"
    for _ in range(150):
        data = bytearray(original)
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(data))
            if rng.random() < 0.5:
                del data[pos:pos + rng.randint(1, 40)]
            else:
                data[pos:pos] = rng.choice([b'"', b"<", b">", b"-", b"99999", b"{", b"]", b"N/A",
                                            b"[", b":", b'number="-3" ', b"encoding='x'"])
        path.write_bytes(bytes(data))
        try:
            army = mh.load_roster(path)
            army.to_dict()
        except MathhammerError as exc:
            assert "\n" not in str(exc)


def _catalogue_with_repeat(modifier_extra: dict) -> bytes:
    """A catalogue (BSData's 11th-edition JSON shape) with one modifier that repeats."""
    repeat = {"value": 1, "repeats": 1, "field": "selections", "scope": "roster",
              "childId": "a1", "shared": True, "roundUp": False}
    group = {"type": "and", "repeats": 2, "field": "selections", "scope": "roster",
             "conditions": [{"type": "atLeast", "value": 1, "field": "selections",
                             "scope": "roster", "childId": "a1"}]}
    modifier = {"type": "increment", "value": 5, "field": "points",
                "repeats": [repeat], "localConditionGroups": [group], **modifier_extra}
    entry = {"id": "e1", "name": "Champion", "type": "model", "modifiers": [modifier]}
    return json.dumps({"catalogue": {"id": "c1", "name": "Xenos - Test", "type": "catalogue",
                                     "sharedSelectionEntries": [entry]}}).encode()


def test_a_repeats_count_is_an_attribute_of_its_repeat():
    # BSData's wh40k-11e writes a modifier's "repeats" list of repeat objects, each with a
    # "repeats" count of its own (as the XML's <repeat repeats="1">), and a local condition
    # group's "repeats" count: read, not refused (2,062 of them in that checkout).
    from mathhammer.wh40k.bsdata.files import CATALOGUE

    root = read.tree_from_bytes(_catalogue_with_repeat({}), "c.json", CATALOGUE)
    [entry] = root.list("sharedSelectionEntries")
    [modifier] = entry.list("modifiers")
    [repeat] = modifier.list("repeats")
    [group] = modifier.list("localConditionGroups")
    assert repeat.tag == "repeat" and repeat.get("repeats") == "1"
    assert group.tag == "localConditionGroup" and group.get("repeats") == "2"


def test_a_repeats_number_on_a_modifier_is_still_refused():
    from mathhammer.wh40k.bsdata.files import CATALOGUE

    data = json.loads(_catalogue_with_repeat({}))
    data["catalogue"]["sharedSelectionEntries"][0]["modifiers"][0]["repeats"] = 1
    with pytest.raises(RosterError, match='"repeats" of .* is 1, not a list'):
        read.tree_from_bytes(json.dumps(data).encode(), "c.json", CATALOGUE)
