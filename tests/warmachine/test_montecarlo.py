"""Monte Carlo kernel against the exact engine, and determinism across thread counts."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest

from mathhammer.warmachine import Rules, exact, simulate
from tests.agreement import pooled_chisquare_pvalue

TRIALS = 200_000

SCENARIOS = {
    "charge heavy vs heavy": (["3x Fist: MAT6 POW12 [CHARGE]"], ["Heavy: DEF12 ARM13 BOXES30"],
                              Rules()),
    "tough troopers, crit knockdown": (["4x Gore: MAT6 POW12 [CRITICAL KNOCKDOWN]"],
                                       ["4x Trooper: DEF13 ARM12 BOXES1 [TOUGH]"], Rules()),
    "aoe with coverage and boosts": (["2x Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 2, "
                                      "DAMAGE BOOSTS 1]"],
                                     ["5x Trooper: DEF12 ARM13 BOXES2 [TOUGH]"],
                                     Rules(aoe_miss_coverage=0.5)),
    "spray, rerolls, decapitation": (["Flamer: RAT5 POW12 [SPRAY 3, REROLL MISSES, "
                                      "CRITICAL DECAPITATION, CRITICAL FIRE]",
                                      "2x Axe: MAT6 POW10 [EXTRA ATTACK ON KILL, "
                                      "ADDITIONAL ATTACK DIE, ATTACK DROP LOWEST]"],
                                     ["5x Grunt: DEF13 ARM13 BOXES1 [TOUGH]"], Rules()),
    "on-hit chain, damage rerolls, two units": (
        ["3x Claw: MAT7 POW11 [EXTRA ATTACK ON HIT, EXTRA ATTACKS MAX 2, "
         "REROLL DAMAGE BELOW 3, CRITICAL DAMAGE MULTIPLIER 2]"],
        ["2x Grunt: DEF14 ARM14 BOXES5", "Solo: DEF13 ARM15 BOXES8 [TOUGH 4+]"], Rules()),
    "knocked down, roll vs auto hit": (["2x Hammer: MAT5 POW15 [CRITICAL ARMOR-PIERCING, "
                                        "CRITICAL DAMAGE DIE, DAMAGE BOOSTS 2]"],
                                       ["Jack: DEF13 ARM18 BOXES28 [KNOCKED DOWN, DAMAGED 6]"],
                                       Rules(roll_vs_auto_hit=True)),
    "grid, chosen and rolled lanes, crippled attacker": (
        ["Fist: MAT7 POW15 [CRIPPLED WEAPON]", "2x Axe: MAT6 POW14 [LANE 3]"],
        ["Jack: DEF12 ARM14 [GRID -L/-LL/MCC/CM/R-R/-R]"], Rules(apply_crippling=True)),
    "spiral with Tough and transfer, lethal policy": (
        ["3x Claw: MAT7 POW13"],
        ["Lock: DEF13 ARM13 BOXES8 [SPIRAL B/M/S/BB/MM/S, TRANSFER 1, TRANSFER BOXES 3, TOUGH]"],
        Rules(transfer_policy="lethal")),
    "transfer under an AOE": (
        ["2x Bomb: RAT6 POW14 [BLAST POW 8, CATCHES 2]"],
        ["Lock: DEF12 ARM13 BOXES5 [TRANSFER 2, TRANSFER BOXES 4]",
         "2x Guard: DEF12 ARM13 BOXES2"], Rules(aoe_miss_coverage=0.25)),
}


@pytest.fixture(scope="module", params=sorted(SCENARIOS))
def pair(request):
    attacks, targets, rules = SCENARIOS[request.param]
    seed = 1000 + sorted(SCENARIOS).index(request.param)
    return (exact(attacks, targets, rules=rules),
            simulate(attacks, targets, trials=TRIALS, seed=seed, rules=rules))


def test_means_within_five_standard_errors(pair):
    ex, mc = pair
    assert set(ex.outcomes) == set(mc.outcomes)
    for outcome in ex.outcomes:
        se = mc.stderr(outcome)
        if ex.distributions[outcome].std == 0:
            assert mc.mean(outcome) == ex.mean(outcome)
            continue
        assert abs(mc.mean(outcome) - ex.mean(outcome)) <= 5 * se, outcome


def test_probabilities_within_tolerance(pair):
    ex, mc = pair
    for event, p in ex.probabilities.items():
        tolerance = 5 * math.sqrt(p * (1 - p) / TRIALS)
        assert abs(mc.probability(event) - p) <= max(tolerance, 1e-12), event


def test_whole_pmfs_chi_square(pair):
    ex, mc = pair
    for outcome in ex.outcomes:
        p_exact = ex.distributions[outcome].probabilities
        p_mc = mc.distributions[outcome].probabilities
        size = max(len(p_exact), len(p_mc))
        expected = np.pad(p_exact, (0, size - len(p_exact))) * TRIALS
        observed = np.rint(np.pad(p_mc, (0, size - len(p_mc))) * TRIALS)
        assert observed.sum() == TRIALS
        p_value = pooled_chisquare_pvalue(observed, expected)
        assert p_value > 1e-3, (outcome, p_value)


LINES = ["3x Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 2, DAMAGE BOOSTS 1]",
         "2x Axe: MAT6 POW12 [CHARGE, CRITICAL KNOCKDOWN]"]
TARGETS = ["5x Trooper: DEF12 ARM13 BOXES1 [TOUGH]"]


def test_same_seed_same_bits_on_any_thread_count():
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs at least two numba threads")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(LINES, TARGETS, trials=50_001, seed=7).to_dict()
        numba.set_num_threads(2)
        two = simulate(LINES, TARGETS, trials=50_001, seed=7).to_dict()
    finally:
        numba.set_num_threads(before)
    assert one == two


def test_seed_changes_the_stream():
    a = simulate(LINES, TARGETS, trials=20_000, seed=1).to_dict()
    b = simulate(LINES, TARGETS, trials=20_000, seed=2).to_dict()
    again = simulate(LINES, TARGETS, trials=20_000, seed=1).to_dict()
    assert a == again
    assert a != b


def test_result_records_provenance():
    result = simulate(LINES, TARGETS, trials=1_000, seed=3)
    assert result.trials == 1_000 and result.seed == 3
    assert result.inputs["attacks"][0].startswith("3x Mortar")
    assert result.inputs["rules"]["aoe_miss_coverage"] == 0.0
    assert result.inputs["chunks"] == 64


def test_fewer_trials_than_chunks():
    result = simulate("Axe: MAT6 POW12", "Grunt: DEF12 ARM12", trials=5, seed=1)
    assert result.distributions["damage"].trials == 5
