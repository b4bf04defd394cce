"""Issue 22: the causes a 5,200-case fuzz still found, each refused in one line or answered
right, in all three games and through the Python API."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.core.dice import DiceExpr
from mathhammer.core.numbers import malformed_count
from mathhammer.dust.parse import parse_target as dust_target, parse_weapon as dust_weapon
from mathhammer.errors import MathhammerError, ProfileError
from mathhammer.warmachine.parse import parse_attack, parse_target as wm_target
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.targets import resolve_target
from tests.hostile import refused

BAD_COUNTS = ["1e3x", "1.5x", "nanx", "NaNx", "infx", "1_0x", "+2x", "-x", ".5x", "1\u200bx",
              "\u200b5x", "5x\u200b", "5\u2060x", "\ufeff5x", "\u0663x", "\uff13x", "1E3X",
              "2\u00d7\u200b", "0x10x"]
LINES = {
    "40k target": (parse_target, "{} Guardsman: T3 Sv- W1"),
    "40k weapon": (parse_weapon, "{} Gun: A1 BS3+ S4 AP0 D1"),
    "40k reference": (resolve_target, "{} MEQ"),
    "warmachine attack": (parse_attack, "{} Rifle: RAT6 POW12"),
    "warmachine target": (wm_target, "{} Trencher: DEF13 ARM13 BOXES1"),
    "dust weapon": (dust_weapon, "{} Shotgun: 3/1"),
    "dust target": (dust_target, "{} Grenadier: INFANTRY2"),
}


@pytest.mark.parametrize("count", BAD_COUNTS)
@pytest.mark.parametrize("kind", sorted(LINES))
def test_a_malformed_count_is_refused_never_part_of_the_name(kind, count):
    parse, template = LINES[kind]
    with pytest.raises(ProfileError, match=r"count .* e\.g\.|not a digit 0-9"):
        parse(template.format(count))


@pytest.mark.parametrize("kind", sorted(LINES))
def test_names_ending_in_x_and_plain_counts_still_read(kind):
    parse, template = LINES[kind]
    if kind != "40k reference":
        assert "Onyx" in parse(template.format("Onyx")).name
    parse(template.format("3x"))


def test_the_cli_names_the_count_and_its_column():
    refused(["exact", "1e3x Gun: A1 BS3+ S4 AP0 D1", "--target", "MEQ"], "'1e3x'", "column 1",
            "digits 0-9")
    refused(["warmachine", "exact", "Rifle: RAT6 POW12", "--target",
             "nanx Trencher: DEF13 ARM13 BOXES1"], "'nanx'")
    refused(["dust", "exact", "1.5x Shotgun: 3/1", "--target", "Luther: VEHICLE6 BOXES4"],
            "'1.5x'")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(prefix=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6))
def test_any_first_word_ending_in_x_is_a_clean_count_a_name_or_refused(prefix):
    word = prefix + "x"
    line = f"{word} Gun: A1 BS3+ S4 AP0 D1"
    found = malformed_count(line)
    if found is not None:
        with pytest.raises(ProfileError):
            parse_weapon(line)
        return
    try:
        weapon = parse_weapon(line)
    except MathhammerError:
        return
    # read as a count only when it is plain digits 0-9; otherwise the word is in the name
    if weapon.name == "Gun":
        assert prefix.strip().isascii() and prefix.strip().isdigit()


@pytest.mark.parametrize("ability", ["SUSTAINED HITS 2 3", "SUSTAINED HITS 1 D6",
                                     "SUSTAINED HITS D 6", "RAPID FIRE 1 2", "MELTA 2 2"])
def test_a_space_inside_an_abilitys_number_is_refused(ability):
    with pytest.raises(ProfileError, match="space inside dice expression"):
        parse_weapon(f"Gun: A1 BS3+ S4 AP0 D1 [{ability}]")


def test_dice_expressions_spaces_only_around_signs():
    assert DiceExpr.parse(" D6 + 1 ") == DiceExpr(1, 6, 1)
    assert DiceExpr.parse("2D3 - 1") == DiceExpr(2, 3, -1)
    for text in ("1 D6", "2 3", "D 6", "2D 6", "D6+1 2"):
        with pytest.raises(ProfileError, match="space"):
            DiceExpr.parse(text)


@pytest.mark.parametrize("kwargs", [{"count": 2.5, "sides": 6}, {"count": True, "sides": 6},
                                    {"constant": "3"}, {"sides": 6.0, "count": 1}])
def test_dice_expression_fields_must_be_whole_numbers(kwargs):
    with pytest.raises(ProfileError, match="whole number"):
        DiceExpr(**kwargs)


@pytest.mark.parametrize("value", [2.5, None, b"D6", ["D6"], True])
def test_dice_parse_refuses_other_objects(value):
    with pytest.raises(ProfileError):
        DiceExpr.parse(value)


W40K = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
FOREIGN_NUMBERS = ["\u0663", "\uff13", "\U0001d7d1", "1_0", "1e3", "nan", "inf", "-inf", "0x10",
                   "1.5", " ", ""]
INT_OPTIONS = ["--hit-mod", "--wound-mod", "--skill-mod", "--strength-mod", "--crit-hits",
               "--crit-wounds", "--ap-mod", "--save-mod", "--damage-plus", "--damage-minus",
               "--fnp", "--fnp-mortal", "--fnp-psychic"]


@pytest.mark.parametrize("value", FOREIGN_NUMBERS)
@pytest.mark.parametrize("option", INT_OPTIONS)
def test_whole_number_options_read_digits_0_to_9_only(option, value):
    refused(["exact", W40K, "--target", "MEQ", option, value], f"argument {option}")


@pytest.mark.parametrize("value", ["\u0661\u0660", "\uff11\uff10", "1_0", "10.0", "1e1"])
def test_edition_reads_digits_0_to_9_only(value):
    refused(["exact", W40K, "--target", "MEQ", "--edition", value], "--edition")


@pytest.mark.parametrize("argv", [
    ["simulate", W40K, "--target", "MEQ", "--target-stderr", "inf", "--json"],
    ["simulate", W40K, "--target", "MEQ", "--target-stderr", "\u0663"],
    ["compare", W40K, "--target", "MEQ", "--points", "inf"],
    ["compare", W40K, "--target", "MEQ", "--points", "nan"],
    ["compare", W40K, "--target", "MEQ", "--points", "-5"],
    ["compare", W40K, "--target", "MEQ", "--points", "\u0661\u0660\u0660"],
    ["compare", W40K, "--target", "MEQ", "--points", "0"],
    ["compare", W40K, "--target", "MEQ", "--sweep", "hit_mod=\u0663", "--exact"],
    ["warmachine", "exact", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1",
     "--stationary-def", "\u0663"],
    ["warmachine", "exact", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1",
     "--aoe-miss-coverage", "nan"],
])
def test_number_options_refuse_what_python_would_read(argv):
    refused(argv)


@pytest.mark.parametrize("value", [float("inf"), float("nan"), -1.0, 0, True, "0.1"])
def test_target_stderr_must_be_positive_and_finite(value):
    with pytest.raises(MathhammerError, match="target_stderr"):
        mh.simulate(W40K, "MEQ", target_stderr=value)


OUTPUT_COMMANDS = [
    ["exact", W40K, "--target", "MEQ"],
    ["compare", W40K, "--target", "MEQ", "--exact"],
    ["dust", "exact", "Shotgun: 3/1", "--target", "Luther: VEHICLE6 BOXES4"],
    ["warmachine", "exact", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1"],
]


@pytest.mark.parametrize("option, name", [("--csv", "out.csv"), ("--plot", "out.png"),
                                          ("--plot", "out.svg")])
@pytest.mark.parametrize("argv", OUTPUT_COMMANDS)
def test_an_output_that_is_a_named_pipe_is_refused_at_once(tmp_path, argv, option, name):
    import os

    pipe = tmp_path / name
    os.mkfifo(pipe)
    refused([*argv, option, str(pipe)], f"argument {option}", "named pipe", seconds=5)


@pytest.mark.parametrize("path, fragment", [("/dev/null", "device"), ("/tmp", "folder"),
                                            ("/no/such/folder/out.csv", "does not exist")])
def test_outputs_are_regular_or_new_files(path, fragment):
    refused([*OUTPUT_COMMANDS[0], "--csv", path], fragment)


def test_to_scenario_refuses_a_pipe_from_the_cli_and_python(tmp_path):
    import os

    pipe = tmp_path / "out.toml"
    os.mkfifo(pipe)
    roster_file = "tests/wh40k/roster/files/marines_10e.ros"
    refused(["roster", roster_file, "--to-scenario", str(pipe)], "named pipe")
    with pytest.raises(MathhammerError, match="named pipe"):
        mh.roster(roster_file).to_toml(pipe)
    written = tmp_path / "fine.toml"
    assert mh.roster(roster_file).to_toml(written) == written.read_text(encoding="utf-8")
