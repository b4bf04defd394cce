"""A list written as a scenario (``mathhammer roster FILE --to-scenario OUT.toml``,
``Roster.to_toml``, the web page's battle of two lists) escapes every text it writes (issue
39, round 4): a file name, faction or unit name holding a newline, a carriage return, another
line break, quotes, backslashes or ``\"\"\"`` stays inside its comment or string, and the file
reads back as the same units with no key of its own."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.wh40k.roster.scenario import toml_comment, toml_string
from mathhammer.wh40k.scenario.reader import parse_scenario
from tests.hostile import run_cli
from tests.wh40k.roster import builder as b

#: Every way out of a comment or a string: line breaks of TOML and of editors, quotes,
#: backslashes, a multi-line string's quotes, a table header and a key.
HOSTILE = ('Evil\n[rules]\nedition = 1\r\n"""\'\'\'\\ "x" \u2028y\u2029\x85z\x0b\x0c\x1c'
           '\t\x7f\x00 # A placeholder target')
#: What a name in a list file may hold of that: the reader refuses a control character that is
#: not a space or line break (DEL, NUL: test_convert), so only a file name keeps them.
NAME = HOSTILE.replace("\x7f\x00", "")
KEYS = {"rounds", "rules", "units", "activations"}


def hostile_roster(name: str) -> dict:
    """An 11th-edition list whose faction, units, models, weapons and wargear are named
    ``name`` (the reader keeps what a list file can hold)."""
    rifle = b.selection(f"Rifle {name}", number=5, profiles=[
        b.ranged(f"Rifle {name}", '24"', "2", "3+", "4", "-1", "1")])
    squad = b.selection(f"Squad {name}", "unit", pts=80, categories=["Infantry"],
                        profiles=[b.statline("Trooper", 11, 4, "3+", 2)],
                        selections=[b.selection(f"Trooper {name}", "model", 5,
                                                selections=[rifle, b.selection(f"Gear {name}")])])
    lone = b.selection(f"A placeholder target {name}", "unit", pts=5)
    return b.roster(11, f"Faction {name}", [squad, lone])


def write_roster(folder: Path, file_name: str, name: str = NAME) -> Path:
    path = folder / f"{file_name}.json"
    path.write_text(b.to_json(hostile_roster(name)), encoding="utf-8")
    return path


def one_break(text: str) -> bool:
    """Whether ``text`` breaks lines at "\\n" only (none of U+2028, CR, VT, NEL...)."""
    return text.splitlines() == text.removesuffix("\n").split("\n")


def check_scenario(text: str, army) -> dict:
    """The scenario text read back: only the scenario's keys, the list's units (and the
    placeholder enemy) with their model groups, every line a line of its own."""
    assert one_break(text)
    data = tomllib.loads(text)
    assert set(data) == KEYS and data["rules"] == {"edition": army.edition}
    assert set(data["units"]) == {e.name for e in army.entries} | {"Enemy"}
    for unit in army.units:
        models = data["units"][unit.name]["models"]
        assert [(m["name"], m["count"]) for m in models] == [(g.name, g.count)
                                                             for g in unit.groups]
    if any(g.weapons for unit in army.units for g in unit.groups):
        # (a list without a weapon cannot run: its example activation is refused by name)
        scenario = parse_scenario(text)
        for unit in army.units:
            assert scenario.units[unit.name].groups == unit.groups
    for line in text.splitlines():
        assert not line.startswith("#") or line.startswith("# "), line
    return data


def test_a_file_name_with_line_breaks_stays_in_its_comment(tmp_path):
    path = write_roster(tmp_path, HOSTILE.replace("\x00", ""))
    army = mh.load_roster(path)
    text = army.to_toml()
    check_scenario(text, army)
    first = text.splitlines()[0]
    assert first.startswith("# Scenario written from ") and first.endswith(" points.")
    assert "Evil\\n[rules]\\nedition = 1\\r\\n" in first and "\\u2028y\\u2029\\x85z" in first


def test_names_keep_their_quotes_and_backslashes(tmp_path):
    army = mh.load_roster(write_roster(tmp_path, "army"))
    data = check_scenario(army.to_toml(), army)
    squad = next(e.name for e in army.entries if e.name.startswith("Squad"))
    assert '"""\'\'\'\\ "x"' in squad  # what the reader kept
    assert data["units"][squad]["models"][0]["name"] == squad.replace("Squad", "Trooper", 1)
    assert data["activations"][0]["attacker"] == squad


def test_the_command_line_writes_the_same_escaped_scenario(tmp_path):
    path = write_roster(tmp_path, "list\n[units.Injected]\nside = 'x'\r\u2028")
    out = tmp_path / "battle.toml"
    status, _, err, _ = run_cli(["roster", str(path), "--to-scenario", str(out)])
    assert status == 0, err
    text = out.read_text(encoding="utf-8")
    assert "Injected" not in tomllib.loads(text)["units"]
    check_scenario(text, mh.load_roster(path))


def test_the_web_pages_battle_of_two_hostile_lists(tmp_path):
    from mathhammer.web.battle import two_lists

    first = mh.load_roster(write_roster(tmp_path, "ours\n[rules]"))
    second = mh.load_roster(write_roster(tmp_path, "theirs\r\n[[activations]]\u2028"))
    text = two_lists(first, second)
    assert one_break(text)
    data = tomllib.loads(text)
    assert set(data) == KEYS
    enemy = {e.name + " (enemy)" for e in second.entries}
    assert set(data["units"]) == {e.name for e in first.entries} | enemy
    assert all(data["units"][name]["side"] == "enemy" for name in enemy)
    scenario = parse_scenario(text)
    assert {a.target for a in scenario.activations} <= set(scenario.units)


# -- the writers' properties -----------------------------------------------------------------
TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from('"\\\n\r\x85\u2028\x7f\x00'),
               max_size=40)


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_any_text_reads_back_from_its_toml_string(text):
    written = toml_string(text)
    assert len(written.splitlines()) == 1
    assert tomllib.loads(f"key = {written}") == {"key": text}


@settings(max_examples=300, deadline=None)
@given(text=TEXT | st.text(max_size=40))
def test_any_text_stays_in_its_comment(text):
    comment = toml_comment(text)
    assert len(comment.splitlines()) == 1 and comment.startswith("# ")
    assert tomllib.loads(f"{comment}\nkey = 1") == {"key": 1}


def test_a_lone_surrogate_is_written_as_a_replacement_character():
    written = toml_string("a\ud800b")
    assert tomllib.loads("key = " + written) == {"key": "a\ufffdb"}


FILE_NAME = st.text(st.characters(codec="utf-8", exclude_characters="/\x00"), min_size=1,
                    max_size=30)
#: Any name a list file may hold: no control character but white space (read as a space), no
#: text-direction override or isolate (the reader refuses those: test_convert).
UNIT_NAME = st.text(st.characters(codec="utf-8", exclude_categories=("Cc",),
                                  exclude_characters="\u202a\u202b\u202c\u202d\u202e"
                                                     "\u2066\u2067\u2068\u2069")
                    | st.sampled_from("\t\n\r\x0b\x0c\x1c\x1f\x85"), min_size=1, max_size=30)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file_name=FILE_NAME, name=UNIT_NAME)
def test_any_file_and_unit_name_round_trips(tmp_path, file_name, name):
    army = mh.load_roster(write_roster(tmp_path, file_name, name))
    check_scenario(army.to_toml(), army)
