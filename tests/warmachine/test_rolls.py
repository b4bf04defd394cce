"""Single attack and damage rolls (warmachine/rolls.py), counted by hand."""

import numpy as np
import pytest

from mathhammer.warmachine.compile import compile_plan
from mathhammer.warmachine.parse import parse_attack, parse_target
from mathhammer.warmachine.rolls import (attack_roll_counts, damage_pmf, hit_crit, kept_sum_pmf,
                                         reroll, row_damage_pmf)


@pytest.mark.parametrize("args, expected", [
    # 2d6 >= 7: 21 of 36 rolls; doubles among them (4-4, 5-5, 6-6) are critical
    ((2, 0, 7), (15, 18, 3)),
    # 2d6 >= 13 is impossible, but two sixes always hit (and are a pair)
    ((2, 0, 13), (35, 0, 1)),
    # need 2: only 1-1 misses (all ones miss); the other five doubles are critical
    ((2, 0, 2), (1, 30, 5)),
    # 3 dice, lowest dropped, need 12: two sixes among three dice, 3 x 5 + 1 = 16 rolls
    ((3, 1, 12), (200, 0, 16)),
    ((0, 0, 5), (1, 0, 0)),  # no die kept: an automatic miss
])
def test_attack_roll_counts(args, expected):
    assert attack_roll_counts(*args) == expected
    assert sum(expected) in (6 ** args[0], 1)


def test_all_ones_switch():
    # without the all-ones rule 1-1 reaches 2 and hits, and is a double
    assert attack_roll_counts(2, 0, 2, all_ones_miss=False) == (0, 30, 6)


def test_kept_sums_and_damage():
    assert np.allclose(kept_sum_pmf(1), [0] + [1 / 6] * 6)
    # the higher of two dice: P(k) = (2k - 1)/36
    assert np.allclose(kept_sum_pmf(2, 1)[1:], [(2 * k - 1) / 36 for k in range(1, 7)])
    # 1d6 + POW 10 - ARM 12: 0 on a 1 or 2, then 1..4
    assert np.allclose(damage_pmf(1, 0, 10, 12), [2 / 6, 1 / 6, 1 / 6, 1 / 6, 1 / 6])
    assert float(damage_pmf(2, 0, 10, 12) @ np.arange(11)) == pytest.approx(5.0)


def test_reroll_replaces_the_result():
    assert np.allclose(reroll(np.array([0.5, 0.5]), np.array([True, False]), 1), [0.25, 0.75])
    assert np.allclose(reroll(np.array([0.5, 0.5]), np.array([True, False]), 2),
                       [0.125, 0.875])


def _row_and_rules(attack, target="Grunt: DEF14 ARM13 BOXES5"):
    plan = compile_plan([parse_attack(attack)], [parse_target(target)])
    return plan.rows[0], plan.rules


def test_hit_crit_of_a_row_with_and_without_a_reroll():
    # MAT7 against DEF14: 2d6 >= 7, 15 misses, 18 hits, 3 criticals of 36
    row, rules = _row_and_rules("Sword: MAT7 POW12")
    assert np.allclose(hit_crit(row, 14, False, False, rules), [15 / 36, 18 / 36, 3 / 36])
    # a miss rolled again once: each outcome gains P(miss) times its own chance
    row, rules = _row_and_rules("Sword: MAT7 POW12 [REROLL MISSES]")
    miss = 15 / 36
    assert np.allclose(hit_crit(row, 14, False, False, rules),
                       [miss * miss, 18 / 36 * (1 + miss), 3 / 36 * (1 + miss)])
    # a knocked-down target is hit automatically in melee
    row, rules = _row_and_rules("Sword: MAT7 POW12")
    assert hit_crit(row, 14, True, False, rules).tolist() == [0.0, 1.0, 0.0]


def test_row_damage_pmf_with_and_without_armor_piercing():
    # 2d6 + POW12 - ARM13: 2d6 - 1, mean 6
    row, _ = _row_and_rules("Sword: MAT7 POW12")
    pmf = row_damage_pmf(row, 13, False, True, False)
    assert float(pmf @ np.arange(len(pmf))) == pytest.approx(6.0)
    # armour-piercing halves ARM 13, rounding up, to 7: 2d6 + 5, mean 12
    row, _ = _row_and_rules("Sword: MAT7 POW12 [ARMOR-PIERCING]")
    pmf = row_damage_pmf(row, 13, False, True, False)
    assert float(pmf @ np.arange(len(pmf))) == pytest.approx(12.0)
    # a boosted roll adds a die: 3d6 - 1, mean 9.5
    row, _ = _row_and_rules("Sword: MAT7 POW12")
    pmf = row_damage_pmf(row, 13, False, True, True)
    assert float(pmf @ np.arange(len(pmf))) == pytest.approx(9.5)
