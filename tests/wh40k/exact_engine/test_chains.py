"""The exact engine (wh40k/exact_engine/chains.py) on plans small enough to enumerate by hand."""

import numpy as np
import pytest

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.exact_engine.chains import compiled_plan, hazard_pmf, inflict_pending, solve
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation


def plan(weapon, target, **modifiers):
    return compiled_plan([parse_weapon(weapon)], parse_target(target), Situation(),
                         Modifiers(**modifiers), Rules())


def test_two_attacks_into_one_wound_models():
    # A2 BS3+ S4 vs T4 Sv7+ (no save) W1: each attack wounds with 2/3 x 1/2 = 1/3
    out = solve(plan('Bolter: 24" A2 BS3+ S4 AP0 D1', "3x T4 Sv7+ W1"))
    assert np.allclose(out["damage"], [4 / 9, 4 / 9, 1 / 9, 0])
    assert np.allclose(out["models_destroyed"], [4 / 9, 4 / 9, 1 / 9, 0])
    assert np.allclose(out["attacker_mortal_wounds"], [1.0])


def test_damage_is_capped_by_the_models_wounds():
    # one attack, hits 2+ (5/6), S8 vs T4 wounds 2+ (5/6), Sv3+ AP-2 -> 5+ fails 4/6, D3
    # fixed against W2 models: a wound takes one model and its 2 wounds, never 3
    p = 5 / 6 * 5 / 6 * 4 / 6
    out = solve(plan("Fist: Melee A1 WS2+ S8 AP-2 D 3", "2x T4 Sv3+ W2"))
    assert np.allclose(out["damage"], [1 - p, 0, p, 0, 0])
    assert np.allclose(out["models_destroyed"], [1 - p, p, 0])


def test_a_wound_roll_modifier_changes_the_wound_chance():
    # +1 to wound: S4 vs T4 wounds on 3+ (2/3); one attack hitting on 3+: 2/3 x 2/3
    out = solve(plan('Bolter: 24" A1 BS3+ S4 AP0 D1', "T4 Sv7+ W1", wound_mod=1))
    assert np.allclose(out["damage"], [5 / 9, 4 / 9])


def test_hazard_pmf():
    # two hazard rolls failing on 1-2 (1/3 each), 3 mortal wounds per fail
    assert np.allclose(hazard_pmf(2, 3), [4 / 9, 0, 0, 4 / 9, 0, 0, 1 / 9])
    # 10th edition fails on a 1 only
    assert np.allclose(hazard_pmf(1, 1, fail_max=1), [5 / 6, 1 / 6])


def test_inflict_pending_resolves_pending_critical_wounds():
    # state[lost, k]: k critical wounds pending; each one, inflicted, costs one more wound
    state = np.zeros((4, 3))
    state[0, 0], state[0, 1], state[0, 2] = 0.25, 0.25, 0.5
    step = np.zeros((4, 4))
    for lost in range(4):
        step[lost, min(lost + 1, 3)] = 1.0
    assert np.allclose(inflict_pending(state, step), [0.25, 0.25, 0.5, 0])


def test_a_command_reroll_is_left_to_exact_command():
    with pytest.raises(UnsupportedError, match="Command Re-roll"):
        solve(plan('Bolter: 24" A1 BS3+ S4 AP0 D1', "T4 Sv3+ W1", command_reroll="hit"))
