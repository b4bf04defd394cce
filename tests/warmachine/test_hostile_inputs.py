"""Issue 13: hostile Warmachine lines are refused in one line, at once."""

from __future__ import annotations

import pytest

from tests.hostile import refused

WEAPON = "Battle hammer: MAT7 POW16"
TARGET = "Heavy warjack: DEF12 ARM19 BOXES30"


@pytest.mark.parametrize("weapon, target, fragment", [
    (WEAPON, "Heavy: DEF12 ARM19 BOXES9223372036854775808", "'9223372036854775808'"),
    ("99999999999999999999x " + WEAPON, TARGET, "'99999999999999999999'"),
    ("Battle hammer: MAT\u0667 POW16", TARGET, "\u0667"),
    (WEAPON + " [CHARGE, ,]", TARGET, "empty keyword"),
])
def test_broken_lines_are_refused(weapon, target, fragment):
    refused(["warmachine", "exact", weapon, "--target", target], fragment)


@pytest.mark.parametrize("weapon, target, column", [
    ("Ri\x1bfle: RAT6 POW12", TARGET, 3), (WEAPON, "Heavy\u202e warjack: DEF12 ARM19 BOXES30", 6)])
def test_control_characters_in_a_name_are_refused_as_escapes(weapon, target, column):
    char = "\x1b" if "\x1b" in weapon else "\u202e"
    line = refused(["warmachine", "exact", weapon, "--target", target],
                   f"'{ascii(char)[1:-1]}' (", f"at column {column}: a line is plain text: "
                   "delete it")
    assert char not in line


def test_exact_refuses_a_chain_too_long_and_points_to_simulate():
    refused(["warmachine", "exact", "10000x Battle hammer: MAT7 POW12", "--target",
             "Heavy: DEF12 ARM14 BOXES10000"], "10,000 attacks", "limit 200,000", "simulate")


def test_digits_in_a_name_are_part_of_the_name_but_counts_are_checked():
    import pytest

    from mathhammer.errors import ProfileError
    from mathhammer.warmachine.parse import parse_target

    assert parse_target("Unit 1234567: DEF13 ARM13 BOXES1").name == "Unit 1234567"
    with pytest.raises(ProfileError, match="'123456'"):
        parse_target("123456x Unit: DEF13 ARM13 BOXES1")


@pytest.mark.parametrize("argv, fragments", [
    # 100,000,000 boxes: the damage histograms alone would need 48 GiB
    (["warmachine", "simulate", "10000x " + WEAPON, "--target",
      "10000x Trencher: DEF13 ARM13 BOXES10000"], ["100,000,000", "limit 100,000"]),
    (["warmachine", "simulate", "10000x " + WEAPON, "--target",
      "10x Trencher: DEF13 ARM13 BOXES10", "--trials", "10000000000"],
     ["10,000,000,000 trials", "100,000 attack rolls", "lower --trials"]),
])
def test_runs_too_large_to_finish_are_refused_before_any_work(argv, fragments):
    refused(argv, *fragments, seconds=5)


@pytest.mark.parametrize("mode", ["exact", "simulate"])
def test_a_huge_stationary_def_is_refused(mode):
    # overflowed numpy's int64 (an OverflowError traceback)
    refused(["warmachine", mode, WEAPON, "--target", TARGET, "--stationary-def",
             "99999999999999999999"], "--stationary-def 99999999999999999999", "0 to 10,000")


@pytest.mark.parametrize("value", [True, 2.5, 10**30, -1])
def test_rules_refuse_a_stationary_def_that_is_not_a_small_whole_number(value):
    from mathhammer.errors import OptionError
    from mathhammer.warmachine.profiles import Rules

    with pytest.raises(OptionError, match="stationary_base_def"):
        Rules(stationary_base_def=value)
