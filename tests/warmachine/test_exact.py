"""Warmachine's exact engine (warmachine/exact.py): attack and damage rolls counted by hand."""

import numpy as np
import pytest

from mathhammer.warmachine.exact import (attack_roll_counts, damage_pmf, kept_sum_pmf, reroll,
                                         solve)
from mathhammer.warmachine.compile import compile_plan
from mathhammer.warmachine.parse import parse_attack, parse_target
from mathhammer.warmachine.profiles import Rules


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


def test_solve_one_attack_into_one_box():
    # MAT7 vs DEF13: need 6 on 2d6, 26 of 36 hit; POW12 vs ARM13 on 2d6: damage >= 1 unless
    # the dice show 2 (1-1 never hits anyway): every hit takes the one box
    plan = compile_plan([parse_attack("Sword: MAT7 POW12")],
                        [parse_target("Grunt: DEF13 ARM13 BOXES1")], Rules())
    pmfs, _ = solve(plan)
    assert np.allclose(pmfs["damage"][:2], [10 / 36, 26 / 36])
