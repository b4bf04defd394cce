"""Smoke tests for benchmarks/: every baseline, on a tiny trial count, answers like exact.

No timing is asserted anywhere. icepool is an optional ``bench`` extra: its test is skipped
when it is not installed (``pip install ".[bench]"``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import mathhammer as mh
from benchmarks.baselines import dice_floor, numpy_mc
from benchmarks.scenarios import BY_KEY, SCENARIOS

TRIALS = 20_000
IDS = [s.key for s in SCENARIOS]


@pytest.fixture(scope="module")
def exact_damage():
    """Exact pmf of wounds lost per scenario, padded to the target's total wounds."""
    out = {}
    for s in SCENARIOS:
        pmf = mh.exact(list(s.weapons), s.target, **s.options).pmf("damage").to_numpy()
        padded = np.zeros(s.models * s.wounds + 1)
        padded[: len(pmf)] = pmf
        out[s.key] = padded
    return out


def _mean_se(hist):
    values = np.arange(len(hist))
    n = hist.sum()
    mean = (hist * values).sum() / n
    return mean, math.sqrt((hist * (values - mean) ** 2).sum() / n / n)


@pytest.mark.parametrize("key", IDS)
def test_numpy_baseline_matches_exact(key, exact_damage):
    s = BY_KEY[key]
    hist = numpy_mc.simulate(s, TRIALS, seed=3)
    assert hist.sum() == TRIALS
    exact_mean = float(np.dot(np.arange(len(exact_damage[key])), exact_damage[key]))
    mean, se = _mean_se(hist)
    assert abs(mean - exact_mean) < 5 * se


def test_numpy_baseline_blocks_cover_all_trials(monkeypatch):
    monkeypatch.setattr(numpy_mc, "BLOCK", 1000)
    assert numpy_mc.simulate(SCENARIOS[0], 2500, seed=1).sum() == 2500


@pytest.mark.parametrize("key", IDS)
def test_icepool_baseline_equals_exact(key, exact_damage):
    pytest.importorskip("icepool")
    from benchmarks.baselines import icepool_exact

    s = BY_KEY[key]
    pmf = icepool_exact.pmf(icepool_exact.wounds_lost(s), s.models * s.wounds + 1)
    np.testing.assert_allclose(pmf, exact_damage[key], rtol=0, atol=1e-12)


@pytest.mark.parametrize("variant", dice_floor.VARIANTS)
def test_dice_floor_rolls_fair_dice(variant):
    dice = SCENARIOS[0].d6_per_trial()
    hist = dice_floor.roll_floor(dice, TRIALS, seed=5, variant=variant)
    assert hist.sum() == TRIALS
    assert abs(dice_floor.check_floor(hist, dice, TRIALS)) < 5
    # Every trial rolled floor(m) or ceil(m) dice, so every sum lies in their range.
    assert hist[: math.floor(dice)].sum() == 0


def test_dice_floor_rolls_the_expected_number_of_dice():
    dice = 4.25
    assert dice_floor.dice_rolled(dice, 6400) == 6400 * 4.25


def test_dice_floor_is_reproducible():
    a = dice_floor.roll_floor(10.5, 5000, seed=9)
    b = dice_floor.roll_floor(10.5, 5000, seed=9)
    np.testing.assert_array_equal(a, b)


def test_expected_dice_formula_by_hand():
    rifle = BY_KEY["rifle_geq"]
    # 20 hit rolls, 20 * 2/3 wound rolls, 20 * 2/3 * 2/3 save rolls.
    assert sum(rifle.expected_d6().values()) == 20 + Fraction(40, 3) + Fraction(80, 9)
    horde = BY_KEY["horde_fnp"]
    parts = horde.expected_d6()
    assert parts["attack count"] == 10 and parts["hit"] == 0 and parts["wound"] == 35
    assert parts["fnp"] == 35 * Fraction(2, 3) * Fraction(5, 6)
    hammers = BY_KEY["hammers_teq"]
    # Devastating (6) wounds skip the save roll: saves only for wounds on 3-5.
    assert hammers.expected_d6()["save"] == 10 * Fraction(3, 6)


def test_shoot_then_fight_row_is_na_without_the_scenario_engine(monkeypatch):
    # The real row runs issue 3's engine (compiling its kernels); here only the fallback.
    from benchmarks import run

    monkeypatch.setattr(run, "scenario_engine", lambda: None)
    row = run.bench_shoot_then_fight(200, 1)
    assert row.check == "n/a (scenario engine pending)"


def test_startup_rows_name_a_previous_figure_for_every_row_and_a_runnable_program():
    import os

    from benchmarks import startup_rows

    labels = {(label, "cold") for label, *_ in startup_rows.COLD_COMMANDS}
    labels |= {(label, "warm") for label, _, _ in startup_rows.WARM_COMMANDS}
    assert labels == set(startup_rows.PREVIOUS)
    assert os.access(startup_rows.program()[0], os.X_OK)
