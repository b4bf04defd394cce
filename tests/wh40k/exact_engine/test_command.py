"""The exact engine with a Command Re-roll in hand (wh40k/exact_engine/command.py), on cases worked
out by hand."""

import numpy as np

from mathhammer.wh40k.exact_engine.chains import compiled_plan
from mathhammer.wh40k.exact_engine.command import roll_split, solve
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation


def plan(weapon, target, **modifiers):
    return compiled_plan([parse_weapon(weapon)], parse_target(target), Situation(),
                         Modifiers(**modifiers), Rules())


def test_one_attack_with_its_hit_re_rolled():
    # hits 3+: 2/3, or 1/3 x 2/3 after a re-roll: 8/9; wounds 4+ (S4 vs T4): 1/2 -> 4/9
    out = solve(plan('Bolter: 24" A1 BS3+ S4 AP0 D1', "T4 Sv7+ W1", command_reroll="hit"))
    assert np.allclose(out["damage"], [5 / 9, 4 / 9])


def test_one_attack_with_its_wound_re_rolled():
    # hits 3+: 2/3; wounds 4+ with one re-roll: 1/2 + 1/2 x 1/2 = 3/4 -> 1/2
    out = solve(plan('Bolter: 24" A1 BS3+ S4 AP0 D1', "T4 Sv7+ W1", command_reroll="wound"))
    assert np.allclose(out["damage"], [1 / 2, 1 / 2])


def test_roll_split_of_a_hit_roll():
    # faces 1-2 miss (class 0), 3-5 hit (1), 6 critical (2); a failed roll may be re-rolled
    classes = np.array([0, 0, 0, 1, 1, 1, 2])
    reroll = np.zeros(7, dtype=bool)
    eligible = classes == 0
    law = roll_split(classes, reroll, eligible, 3)
    assert np.allclose(law.fresh, [2 / 6, 3 / 6, 1 / 6])
    assert np.allclose(law.normal, [2 / 6, 3 / 6, 1 / 6])
    assert law.p_eligible == 2 / 6
    # faces kept when the re-roll is not spent on them: the hits and the critical
    assert np.allclose(law.kept, [0, 3 / 6, 1 / 6])
