"""Issue 39, cause 8: meaningless values are refused in one line naming the value, never
read as something else: zero-valued abilities ([SPRAY 0] gave the numbers of [SPRAY 1]),
digits outside 0-9 and underscores in numbers (``--sweep models=٣``, ``--trials 1_0_0_0``,
``--seed 1_0``), an empty ``--sweep`` value, a checkpoint of 1.5 and a range past the
10,000 limit. (Pmfs, unknown weights and unordered collections: test_hostile_pmfs_weights_and_order.)
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from importlib import import_module

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.cli.options import non_negative_int, positive_int, trials_or_auto
from mathhammer.cli.compare import parse_sweep
from mathhammer.errors import MathhammerError, OptionError, ProfileError
from mathhammer.warmachine.parse import parse_attack, parse_target as wm_target
from mathhammer.wh40k.parse import parse_weapon
from tests.hostile import refused, run_cli
from tests.test_hostile_counts_kinds_and_outputs import BASE_SCENARIO

DUST_PARSE = import_module("mathhammer.dust.parse")

W40K = "Bolter: A2 BS3+ S4 AP0 D1"
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


# -- zero-valued abilities ------------------------------------------------------------------
#: Warmachine keywords that count what they add, and the least number that adds something.
COUNTING_KEYWORDS = {
    "SPRAY": 1, "CATCHES": 1, "DAMAGE BOOSTS": 1, "ATTACK BOOSTS": 1,
    "ADDITIONAL ATTACK DICE": 1, "ADDITIONAL DAMAGE DICE": 1, "ATTACK DROP LOWEST": 1,
    "DAMAGE DROP LOWEST": 1, "FEWER ATTACK DICE": 1, "FEWER DAMAGE DICE": 1,
    "CRITICAL DAMAGE DICE": 1, "CRITICAL DAMAGE MULTIPLIER": 2, "REROLL MISSES": 1,
    "REROLL MISSES OR NO CRIT": 1, "REROLL DAMAGE BELOW": 1, "DAMAGE REROLLS": 1,
    "EXTRA ATTACKS MAX": 1}
TARGET_KEYWORDS = {"DAMAGED": 1, "TRANSFER": 1, "TRANSFER BOXES": 1}
#: What each keyword needs beside it to be read at all.
COMPANIONS = {"CATCHES": "AOE, ", "ATTACK BOOSTS": "", "ATTACK DROP LOWEST":
              "ADDITIONAL ATTACK DIE, ", "DAMAGE DROP LOWEST": "ADDITIONAL DAMAGE DIE, ",
              "DAMAGE REROLLS": "REROLL DAMAGE BELOW 3, ",
              "EXTRA ATTACKS MAX": "EXTRA ATTACK ON HIT, "}


def test_spray_0_is_refused_and_spray_1_is_a_spray():
    with pytest.raises(ProfileError, match=r"SPRAY 0 at column \d+ adds nothing: write SPRAY 1"):
        parse_attack("Gun: RAT6 POW12 [SPRAY 0]")
    assert parse_attack("Gun: RAT6 POW12 [SPRAY 1]").spray == 1


@settings(max_examples=120, **SETTINGS)
@given(st.sampled_from(sorted(COUNTING_KEYWORDS)), st.integers(0, 3))
def test_a_warmachine_keyword_below_what_adds_something_is_refused(word, number):
    line = f"Gun: RAT6 POW12 [{COMPANIONS.get(word, '')}{word} {number}]"
    if number < COUNTING_KEYWORDS[word]:
        with pytest.raises(ProfileError, match=f"{word} {number} at column .* adds nothing"):
            parse_attack(line)
    else:
        try:
            parse_attack(line)
        except ProfileError as exc:   # refused for another reason, never as adding nothing
            assert "adds nothing" not in str(exc)


@pytest.mark.parametrize("word", sorted(TARGET_KEYWORDS))
def test_a_warmachine_target_keyword_of_0_is_refused(word):
    with pytest.raises(ProfileError, match=f"{word} 0 at column .* adds nothing"):
        wm_target(f"Jack: DEF12 ARM12 BOXES5 [{word} 0]")


def test_attack_objects_refuse_zero_rerolls_and_a_zero_cap():
    profiles = import_module("mathhammer.warmachine.profiles")
    for changes in ({"damage_rerolls": 0}, {"attack_rerolls": 0}, {"max_generated": 0}):
        with pytest.raises(ProfileError):
            profiles.Attack("Gun", stat=6, pow=12, **changes)


@pytest.mark.parametrize("tag, words", [("EXTRA DICE 0", "extra dice must be at least 1"),
                                        ("DICE X1", "must be at least 2"),
                                        ("DICE X0", "must be at least 2")])
def test_dust_pool_tags_that_add_nothing_are_refused(tag, words):
    with pytest.raises(ProfileError, match=words):
        DUST_PARSE.parse_weapon(f"Gun: 3/1 [{tag}]")
    DUST_PARSE.parse_weapon("Gun: 3/1 [EXTRA DICE 1, DICE X2]")


# -- digits 0-9, no underscores --------------------------------------------------------------
FOREIGN = ["\u0663", "\u00b2", "\uff13", "\U0001d7d1", "_", "\u200b"]


@st.composite
def spoiled_numbers(draw) -> str:
    """A whole number of digits 0-9 with an underscore or a digit of another script put in."""
    digits = draw(st.text("0123456789", min_size=1, max_size=6))
    at = draw(st.integers(0, len(digits)))
    return digits[:at] + draw(st.sampled_from(FOREIGN)) + digits[at:]


@settings(max_examples=200, **SETTINGS)
@given(spoiled_numbers())
def test_number_options_read_digits_0_to_9_only(text):
    for read in (positive_int, non_negative_int, trials_or_auto):
        with pytest.raises(argparse.ArgumentTypeError, match="digits 0-9"):
            read(text)


@settings(max_examples=100, **SETTINGS)
@given(st.integers(1, 10**9))
def test_plain_numbers_still_read(number):
    assert positive_int(str(number)) == trials_or_auto(f" {number} ") == number
    assert non_negative_int(str(number - 1)) == number - 1


@pytest.mark.parametrize("option, value", [("--trials", "_1000"), ("--trials", "1_0_0_0"),
                                           ("--seed", "1_0"), ("--trials", "\u0661\u0660")])
def test_the_command_line_refuses_underscores(option, value):
    line = refused(["simulate", W40K, "--target", "MEQ", option, value], f"argument {option}",
                   "digits 0-9")
    assert value in line


@settings(max_examples=25, **SETTINGS)
@given(spoiled_numbers(), st.sampled_from(["models", "save", "toughness", "wounds",
                                           "target_models"]))
def test_a_sweep_setting_reads_digits_0_to_9_only(text, parameter):
    with pytest.raises(OptionError, match=f"{parameter} value .* digits 0-9"):
        mh.sweep(W40K, "MEQ", parameter, [text], method="exact")


def test_a_foreign_digit_in_a_sweep_is_refused_on_the_command_line():
    refused(["compare", W40K, "--target", "MEQ", "--sweep", "models=\u0663", "--exact"],
            "models value '\u0663'", "digits 0-9")
    refused(["compare", W40K, "--target", "MEQ", "--sweep", "models=\u00b2", "--exact"],
            "digits 0-9")


@settings(max_examples=100, **SETTINGS)
@given(st.lists(st.sampled_from(["1", "2", "", " "]), min_size=2, max_size=5))
def test_an_empty_sweep_value_is_named(items):
    text = "models=" + ",".join(items)
    if all(item.strip() for item in items):
        assert parse_sweep(text) == ("models", [int(item) for item in items])
        return
    with pytest.raises(OptionError) as info:
        parse_sweep(text)
    if any(item.strip() for item in items):
        first = [item.strip() for item in items].index("") + 1
        assert f"value {first} of {len(items)} is empty" in str(info.value)


def test_an_empty_sweep_value_on_the_command_line():
    refused(["compare", W40K, "--target", "MEQ", "--sweep", "models=1,,2", "--exact"],
            "value 2 of 3 is empty")
    refused(["dust", "compare", "Gun: 6/1", "--target", "5x G: INFANTRY2", "--sweep",
             "distance=1,2,"], "value 3 of 3 is empty")


@pytest.mark.parametrize("argv", [
    ["--weight", "Gaunts=\u0661\u0660"], ["--weight", "Gaunts=1_0"], ["--weight", "Gaunts=inf"],
    ["--tolerance", "\u0663"], ["--tolerance", "1_0"]])
def test_optimise_numbers_read_digits_0_to_9_only(argv, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(BASE_SCENARIO, encoding="utf-8")
    status, _, err, _ = run_cli(["optimise", str(path), *argv])
    assert status == 2 and err.count("\n") == 1 and argv[0] in err


def test_a_library_file_reads_digits_0_to_9_only(tmp_path):
    targets = import_module("mathhammer.wh40k.targets")
    for field in ('T = "\u0663"', 'Sv = "\u0663+"', 'W = "\u00b2"'):
        path = tmp_path / "t.toml"
        fields = {"T": "T = 4", "Sv": 'Sv = "3+"', "W": "W = 2"}
        fields[field.split(" ")[0]] = field
        path.write_text("[Gunner]\n" + "\n".join(fields.values()) + "\n", encoding="utf-8")
        with pytest.raises(MathhammerError):
            targets.load_targets(path)


# -- checkpoints ----------------------------------------------------------------------------
_CACHE: dict = {}


def _scenario_result():
    """One scenario's result, run once for the tests that read its checkpoints."""
    if "result" not in _CACHE:
        _CACHE["result"] = mh.run(mh.parse_scenario(BASE_SCENARIO), trials=200)
    return _CACHE["result"]


@settings(max_examples=60, **SETTINGS)
@given(st.floats(-3, 3) | st.sampled_from([np.float64(0.0), "0.5", [0], Fraction(1, 2)]))
def test_a_checkpoint_is_a_whole_number(checkpoint):
    result = _scenario_result()
    if isinstance(checkpoint, str):   # a name: refused unless it names a round's end
        with pytest.raises(OptionError, match="checkpoint"):
            result.models_destroyed("Mob", checkpoint)
        return
    with pytest.raises(OptionError, match="checkpoint .* whole number"):
        result.models_destroyed("Mob", checkpoint)


def test_whole_checkpoints_still_read():
    result = _scenario_result()
    assert result.models_destroyed("Mob", np.int64(0)).mean == result.models_destroyed(
        "Mob", 0).mean == result.models_destroyed("Mob", "end").mean


# -- ranges ----------------------------------------------------------------------------------
@settings(max_examples=60, **SETTINGS)
@given(st.integers(1, 10**30))
def test_a_range_past_the_limit_is_refused_naming_its_token(inches):
    line = f'Gun: {inches}" A1 BS3+ S4 AP0 D1'
    if inches <= 10_000:
        assert parse_weapon(line).range_inches == inches
        return
    with pytest.raises(ProfileError) as info:
        parse_weapon(line)
    assert f"'{inches}\"' at column 6" in str(info.value) and "at most 10,000" in str(
        info.value)


def test_the_issue_range_and_a_thousand_digits():
    refused(["exact", 'Gun: 99999999999999999999" A1 BS3+ S4 AP0 D1', "--target", "MEQ"],
            "'99999999999999999999\"'", "at most 10,000")
    with pytest.raises(ProfileError, match="at most 10,000"):
        parse_weapon("Gun: " + "9" * 5000 + '" A1 BS3+ S4 AP0 D1')
