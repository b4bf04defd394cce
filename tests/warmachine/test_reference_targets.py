"""Reference targets (mathhammer/warmachine/reference_targets.py, data/targets.toml): the built-in file,
names wherever a target line goes, hand-derived results against archetypes, user files and
hostile files answered in one line."""

from __future__ import annotations

import doctest
import importlib
import json
import subprocess
import sys
import tomllib
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from mathhammer.errors import ProfileError
from mathhammer.warmachine import attacks_to_kill, compare, compare_focus, exact, simulate
from mathhammer.warmachine.profiles import Target
from mathhammer.warmachine.reference_targets import (BUILTIN_SOURCE, TargetLibrary, UnknownTargetError,
                                           load_targets, read_targets_file, resolve_target,
                                           split_name_line, targets)

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "mathhammer" / "warmachine" / "data" / "targets.toml"
TWO_D6 = list(product(range(1, 7), repeat=2))


def _p_hit(need: int) -> Fraction:
    """2d6 attack roll by hand: all 1s miss, all 6s hit, otherwise sum >= need (rules 2)."""
    hits = sum(1 for a, b in TWO_D6 if (a, b) != (1, 1) and ((a, b) == (6, 6) or a + b >= need))
    return Fraction(hits, 36)


def _damage_pmf(pow_minus_arm: int) -> dict[int, Fraction]:
    """max(0, 2d6 + POW - ARM), by enumeration."""
    pmf: dict[int, Fraction] = {}
    for a, b in TWO_D6:
        value = max(0, a + b + pow_minus_arm)
        pmf[value] = pmf.get(value, Fraction(0)) + Fraction(1, 36)
    return pmf


# -- the built-in file -----------------------------------------------------------------------
def test_every_builtin_entry_reads_and_says_where_its_numbers_come_from():
    raw = tomllib.loads(DATA.read_text(encoding="utf-8"))
    assert list(targets) == list(raw)
    for entry in targets.entries():
        assert entry.data, entry.key
        assert entry.source == BUILTIN_SOURCE and entry.line > 0
        assert "placeholder" in entry.data or entry.data.startswith("rules"), entry.key
    expected = {"LIGHT_JACK", "HEAVY_JACK", "COLOSSAL", "SOLO", "INFANTRY", "HEAVY_INFANTRY",
                "TOUGH_INFANTRY", "WARCASTER", "WARLOCK", "LIGHT_BEAST", "HEAVY_BEAST"}
    assert expected <= set(targets)


def test_builtin_values_are_the_files():
    assert targets["HEAVY_JACK"] == Target(name="Heavy warjack", defense=12, armor=19, boxes=30)
    assert targets["TOUGH_INFANTRY"] == Target(name="Tough trooper", count=10, defense=12,
                                               armor=14, boxes=1, tough=True)
    grid = targets["HEAVY_JACK_GRID"]
    assert [len(lane) for lane in grid.grid] == [4, 5, 6, 6, 5, 4]  # rules 7.2's lanes
    assert set(grid.systems) == {"L", "M", "C", "R"}
    spiral = targets["HEAVY_BEAST_SPIRAL"]
    assert spiral.spiral and [set(lane) - {"-"} for lane in spiral.grid] == [
        {"M"}, {"M"}, {"B"}, {"B"}, {"S"}, {"S"}]  # Mind 1-2, Body 3-4, Spirit 5-6


def test_the_library_is_read_on_first_use_only():
    calls = []

    def loader():
        calls.append(1)
        return targets.entries()[:2]

    library = TargetLibrary(loader=loader)
    assert not library.is_loaded
    # a target line (it has a ':') never opens the library
    assert resolve_target("Jack: DEF12 ARM19 BOXES30", library).boxes == 30
    assert calls == [] and not library.is_loaded
    assert "infantry" in library and library["tough trooper"].tough
    assert calls == [1] and library.is_loaded


def test_importing_and_using_lines_does_not_read_the_file():
    code = ("from mathhammer.warmachine import exact, targets\n"
            "exact('Fist: MAT6 POW12', 'J: DEF12 ARM12 BOXES2')\n"
            "print(targets.is_loaded)\n"
            "exact('Fist: MAT6 POW12', 'SOLO')\n"
            "print(targets.is_loaded)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "True"]


def test_the_file_ships_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = config["tool"]["setuptools"]["package-data"]
    assert "data/*.toml" in package_data["mathhammer.warmachine"]


# -- names wherever a target line goes -------------------------------------------------------
@pytest.mark.parametrize("text", ["HEAVY_JACK", "heavy jack", "Heavy-Warjack", "  heavy  "])
def test_names_and_aliases_ignore_case_spaces_hyphens_underscores(text):
    assert resolve_target(text) == targets["HEAVY_JACK"]


def test_a_count_and_keywords_after_a_name():
    assert resolve_target("3x LIGHT_JACK").count == 3
    assert resolve_target("3 x light jack") == resolve_target("3x LIGHT_JACK")
    downed = resolve_target("2x SOLO [KNOCKED DOWN, DAMAGED 3]")
    assert (downed.count, downed.knocked_down, downed.damaged, downed.boxes) == (2, True, 3, 8)
    assert resolve_target("10x INFANTRY [TOUGH 4+]").tough_threshold == 4
    assert split_name_line("3x SOLO [TOUGH]") == ("3", "SOLO", "TOUGH")
    assert split_name_line("Jack: DEF12 ARM19") is None


def test_target_lines_and_objects_are_unchanged():
    line = "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"
    assert str(resolve_target(line)) == line
    assert resolve_target(targets["SOLO"]) is targets["SOLO"]
    assert resolve_target("DEF13 ARM13").defense == 13  # a nameless line is still a line


def test_names_work_in_every_entry_point():
    sword = "Sword: MAT7 POW14"
    by_name = exact(sword, "SOLO")
    by_line = exact(sword, "Solo: DEF15 ARM14 BOXES8")
    assert by_name.mean("damage") == pytest.approx(by_line.mean("damage"), abs=1e-12)
    assert simulate(sword, "SOLO", trials=2000, seed=3).inputs["targets"] == \
        simulate(sword, "Solo: DEF15 ARM14 BOXES8", trials=2000, seed=3).inputs["targets"]
    frame = compare(sword, ["SOLO", "3x INFANTRY"])
    assert set(frame["target"]) == {"Solo", "3x Trooper"}
    assert not compare_focus(sword, "LIGHT_JACK", 1).empty
    assert attacks_to_kill(sword, "SOLO").mean("attacks") > 1


# -- values derived by hand against archetypes ------------------------------------------------
def test_heavy_jack_battle_hammer_by_hand():
    # MAT7 against DEF12: need 5; POW16 against ARM19: damage max(0, 2d6 - 3) per hit
    p_hit = _p_hit(5)
    damage = _damage_pmf(16 - 19)
    assert p_hit == Fraction(30, 36)
    mean = p_hit * sum(k * p for k, p in damage.items())
    result = exact("Battle hammer: MAT7 POW16", "HEAVY_JACK")
    assert result.mean("damage") == pytest.approx(float(mean), abs=1e-12)  # 30/36 * 145/36
    assert result.pmf("damage")[0] == pytest.approx(float(1 - p_hit + p_hit * damage[0]))
    assert result.probability("unit_destroyed") == 0.0  # 9 boxes at most of 30


def test_tough_trooper_by_hand():
    # RAT5 against DEF12: need 7; POW12 against ARM14: disabled when 2d6 - 2 >= 1
    disabled = _p_hit(7) * sum(p for k, p in _damage_pmf(12 - 14).items() if k >= 1)
    assert disabled == Fraction(21, 36) * Fraction(35, 36)
    result = exact("Rifle: RAT5 POW12", "1x TOUGH_INFANTRY")
    assert result.probability("unit_destroyed") == pytest.approx(float(disabled * 2 / 3))
    assert result.probability("tough_saved") == pytest.approx(float(disabled / 3))  # 5+


def test_solo_eight_boxes_by_hand():
    # MAT7 against DEF15: need 8; POW14 against ARM14: destroyed when 2d6 >= 8
    destroyed = _p_hit(8) * sum(p for k, p in _damage_pmf(0).items() if k >= 8)
    assert destroyed == Fraction(15, 36) ** 2
    result = exact("Sword: MAT7 POW14", "SOLO")
    assert result.probability("unit_destroyed") == pytest.approx(float(destroyed))


def test_a_counted_unit_of_troopers_by_hand():
    # MAT7 against DEF13: need 6, and POW13 against ARM13 always deals 2+: a hit kills; the
    # second attack moves on to the next trooper, so each attack kills with 26/36
    kill = _p_hit(6)
    result = exact("2x Fist: MAT7 POW13", "3x INFANTRY")
    assert result.mean("models_destroyed") == pytest.approx(float(2 * kill))
    assert result.pmf("models_destroyed")[2] == pytest.approx(float(kill ** 2))


# -- unknown names ----------------------------------------------------------------------------
@pytest.mark.parametrize("text, suggestion", [("LIGHT_JAK", "LIGHT_JACK"),
                                              ("3x COLOSAL", "COLOSSAL"),
                                              ("heavy warjak", "heavy warjack")])
def test_an_unknown_name_gets_a_did_you_mean(text, suggestion):
    with pytest.raises(ProfileError) as error:
        resolve_target(text)
    message = str(error.value)
    assert "\n" not in message and f"did you mean '{suggestion}'" in message
    assert "unknown Warmachine target" in message


def test_a_line_like_text_keeps_the_line_error():
    with pytest.raises(ProfileError, match="needs DEF"):
        resolve_target("Jack: ARM19 BOXES30")
    with pytest.raises(ProfileError, match="ARM"):
        resolve_target("DEF12 ARN19")


def test_library_lookups_refuse_unknown_names_as_key_errors():
    with pytest.raises(KeyError) as error:
        targets["WARJAK"]
    assert isinstance(error.value, UnknownTargetError)
    assert str(error.value).startswith("unknown reference target 'WARJAK'")
    with pytest.raises(UnknownTargetError, match="strings"):
        targets.info(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("text, words", [
    ("0x SOLO", "at least 1"),
    ("99999999x SOLO", "too large"),
    ("3x WARLOCK", "single model"),
    ("SOLO [TOUGH, TOUGH]", "given twice"),
    ("SOLO [TOUGHH]", "did you mean 'TOUGH'"),
    ("SOLO [DAMAGED 8]", "every one of the 8"),
])
def test_impossible_counts_and_keywords_after_a_name(text, words):
    with pytest.raises(ProfileError) as error:
        resolve_target(text)
    assert words in str(error.value) and "\n" not in str(error.value)


# -- user files -------------------------------------------------------------------------------
def _write(tmp_path, text, name="mine.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_user_file_adds_and_overrides(tmp_path):
    path = _write(tmp_path, '[Bane]\naliases = ["banes"]\nline = "5x Bane: DEF12 ARM15 BOXES1 '
                            '[TOUGH]"\n\n[heavy-jack]\nDEF = 13\nARM = 20\nBOXES = 34\n'
                            'data = "my card"\n')
    library = load_targets(path)
    assert str(library["banes"]) == "5x Bane: DEF12 ARM15 BOXES1 [TOUGH]"
    assert library["HEAVY_JACK"].armor == 20 and library.info("heavy jack").data == "my card"
    assert list(library)[:len(targets)] == list(targets)  # the override keeps its place
    assert resolve_target("2x Bane", library).count == 2
    assert targets["HEAVY_JACK"].armor == 19  # the built-in library is untouched
    later = _write(tmp_path, '[Bane]\nline = "Bane: DEF14 ARM15 BOXES1"\n', "later.toml")
    assert load_targets(path, later)["Bane"].defense == 14


HOSTILE = [
    ("[A]\nDEF = 13\nARM = \n", "line 3, column 7: malformed TOML"),
    ("[A]\nDEF = 13\nARM = 13\nDEFF = 2\n", "line 4: [A] unknown field 'DEFF'; did you mean 'DEF'?"),
    ("[A]\nDEF = -1\nARM = 13\n", "line 2: [A] DEF -1 at column"),
    ("[A]\nDEF = 13\nARM = 13\nBOXES = 0\n", "line 4: [A] BOXES 0"),
    ("[A]\nmodels = 0\nDEF = 13\nARM = 13\n", "line 2: [A] model/attack count '0x'"),
    ("[A]\nDEF = true\nARM = 13\n", "line 2: [A] DEF = True must be a whole number"),
    ("[A]\nDEF = \"13\"\nARM = 13\n", "line 2: [A] DEF = '13' must be a whole number"),
    ("[A]\nDEF = 1000000000000\nARM = 13\n", "line 2: [A] "),
    ("[A]\nARM = 13\n", "line 1: [A] missing DEF"),
    ("[A]\nDEF = 13\nARM = 13\nkeywords = [\"TUFF\"]\n", "line 4: [A] unknown keyword 'TUFF'"),
    ("[A]\nDEF = 13\nARM = 13\nkeywords = \"TOUGH\"\n", "line 4: [A] keywords must be a list"),
    ("[A]\nDEF = 13\nARM = 13\nBOXES = 5\ngrid = \"-/-/-/-/-/-\"\n",
     "line 5: [A] the GRID has 6 boxes but BOXES5"),
    ("[A]\nDEF = 13\nARM = 13\ngrid = \"-/-\"\nspiral = \"-/-\"\n", "line 5: [A] give a grid"),
    ("[A]\nline = \"A: DEF13 ARM13\"\nDEF = 13\n", "line 3: [A] give either line"),
    ("[A]\nline = \"A: DEF13\"\n", "line 2: [A] target line needs ARM"),
    ("[A]\nname = \"A: B\"\nDEF = 13\nARM = 13\n", "line 2: [A] name 'A: B' must not hold"),
    ("A = 3\n", "line 1: 'A' must be a table"),
    ("[A]\nDEF = 13\nARM = 13\n[B]\naliases = [\"a\"]\nDEF = 13\nARM = 13\n",
     "line 4: [B] name 'a' is already [A]'s"),
    ("[\"A:B\"]\nDEF = 13\nARM = 13\n", "line 1: [A:B] a target's name needs letters"),
    ("x = " + "[" * 60 + "]" * 60 + "\n", "line 1: arrays or tables nested more than 50 deep"),
]


@pytest.mark.parametrize("text, words", HOSTILE)
def test_a_broken_file_is_one_line_naming_file_and_line(tmp_path, text, words):
    path = _write(tmp_path, text)
    with pytest.raises(ProfileError) as error:
        read_targets_file(path)
    message = str(error.value)
    assert "\n" not in message and message.startswith(f"{path}, ")
    assert words in message, message


def test_unreadable_files_are_one_line(tmp_path):
    binary = tmp_path / "latin1.toml"
    binary.write_bytes(b"[A]\nname = \"caf\xe9\"\n")
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"# " + b"x" * (5 * 2**20))
    for path, words in ((binary, "line 2: not UTF-8"), (huge, "larger than 4 MiB"),
                        (tmp_path, "a folder"), (tmp_path / "missing.toml", "No such file")):
        with pytest.raises(ProfileError) as error:
            load_targets(path)
        assert words in str(error.value) and "\n" not in str(error.value)


# -- the command line -------------------------------------------------------------------------
def _run(cli_main, capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_targets_lists_every_entry(cli_main, capsys):
    code, out, err = _run(cli_main, capsys, "warmachine", "targets")
    assert code == 0 and err == ""
    listed = [line.split()[0] for line in out.splitlines()[1:len(targets) + 1]]
    assert listed == list(targets)
    assert str(targets["HEAVY_JACK"]) in out


def test_targets_json_and_a_targets_file(cli_main, capsys, tmp_path):
    path = _write(tmp_path, '[Bane]\nline = "5x Bane: DEF12 ARM15 BOXES1 [TOUGH]"\n')
    code, out, err = _run(cli_main, capsys, "warmachine", "targets", "--json",
                          "--targets-file", str(path))
    assert code == 0
    rows = json.loads(out)["targets"]
    assert [row["name"] for row in rows] == [*targets, "Bane"]
    assert rows[-1]["line"] == "5x Bane: DEF12 ARM15 BOXES1 [TOUGH]"


def test_a_name_on_the_command_line_gives_the_lines_numbers(cli_main, capsys, tmp_path):
    attack = "2x Battle hammer: MAT7 POW16 [CHARGE]"
    _, by_line, _ = _run(cli_main, capsys, "warmachine", "exact", attack, "--target",
                         "1x Heavy warjack: DEF12 ARM19 BOXES30", "--json")
    code, by_name, err = _run(cli_main, capsys, "warmachine", "exact", attack, "--target",
                              "heavy warjack", "--json")
    assert code == 0 and err == "" and json.loads(by_name) == json.loads(by_line)
    code, out, _ = _run(cli_main, capsys, "warmachine", "exact", attack, "--target", "3x SOLO")
    assert code == 0 and "Target: 3x SOLO = 3x Solo: DEF15 ARM14 BOXES8" in out
    path = _write(tmp_path, '[Bane]\nline = "5x Bane: DEF12 ARM15 BOXES1 [TOUGH]"\n')
    code, out, _ = _run(cli_main, capsys, "warmachine", "simulate", attack, "--target", "Bane",
                        "--targets-file", str(path), "--trials", "2000")
    assert code == 0 and "Target: Bane = 5x Bane: DEF12 ARM15 BOXES1 [TOUGH]" in out


@pytest.mark.parametrize("argv, words", [
    (["--target", "HEAVY_JAK"], "did you mean 'HEAVY_JACK'?"),
    (["--target", "0x SOLO"], "at least 1"),
    (["--target", "Bane", "--targets-file", "{bad}"], "line 2: [Bane] unknown field"),
])
def test_bad_names_and_files_exit_2_in_one_line(cli_main, capsys, tmp_path, argv, words):
    bad = _write(tmp_path, "[Bane]\nDEFENCE = 3\n")
    argv = [a.replace("{bad}", str(bad)) for a in argv]
    code, out, err = _run(cli_main, capsys, "warmachine", "exact", "Fist: MAT6 POW12", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


_STATS = "DEF = 12\nARM = 18\nBOXES = 10\n"
_RLO = "(right-to-left override, a text-direction control)"


@pytest.mark.parametrize("text, line, message", [
    ('["Jack\\u001b"]\n' + _STATS, 1,
     "the table name 'Jack\\x1b' holds '\\x1b' (a control character): delete it"),
    ("[Jack]\n" + _STATS + 'aliases = ["heavy", "he\u202eavy"]\n', 5,
     f"[Jack] an alias 'he\\u202eavy' holds '\\u202e' {_RLO}: delete it"),
    ('[Jack]\nname = "Heavy\\u001b]0;x\\u0007 jack"\n' + _STATS, 2,
     "[Jack] name 'Heavy\\x1b]0;x\\x07 jack' holds '\\x1b' (a control character): delete it"),
    ("[Jack]\n" + _STATS + 'keywords = ["TOUGH\u202e"]\n', 5,
     f"[Jack] a keyword 'TOUGH\\u202e' holds '\\u202e' {_RLO}: delete it"),
    ("[Jack]\n" + _STATS + 'data = "rules\\u001b"\n', 5,
     "[Jack] data 'rules\\x1b' holds '\\x1b' (a control character): delete it"),
    ("[Jack]\n" + _STATS + 'note = "a\\tb"\n', 5,
     "[Jack] note 'a\\tb' holds '\\t' (a control character): delete it"),
    ("[Jack]\n" + _STATS + 'grid = "-/-/-/-/-/\\u001b"\n', 5,
     "[Jack] grid '-/-/-/-/-/\\x1b' holds '\\x1b' (a control character): delete it"),
    ("[Jack]\n" + _STATS + '"X\u202e" = 1\n', 5,
     f"[Jack] a field name 'X\\u202e' holds '\\u202e' {_RLO}: delete it"),
])
def test_control_characters_in_a_targets_file_are_refused_as_escapes(cli_main, capsys, tmp_path,
                                                                     text, line, message):
    """Names, aliases, keywords, data and notes were listed raw by `warmachine targets`."""
    path = _write(tmp_path, text)
    code, out, err = _run(cli_main, capsys, "warmachine", "targets", "--targets-file", str(path))
    assert (code, out) == (2, "")
    assert err == f"mathhammer: error: {path}, line {line}: {message}\n"
    assert err[:-1].isprintable()


def test_the_modules_examples_run():
    module = importlib.import_module("mathhammer.warmachine.reference_targets")
    failures, tried = doctest.testmod(module)
    assert tried > 0 and failures == 0
