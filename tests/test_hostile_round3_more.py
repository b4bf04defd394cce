"""Issue 22, what round 3 left: work bounds of Warmachine exact sprays and Dust exchanges,
0-point units in per-points tables, ``digits=`` in Python, chart output paths, and a roster
unit number in Arabic-Indic digits."""

from __future__ import annotations

import sys
import time

import pytest

from mathhammer.errors import UnsupportedError
from mathhammer.warmachine.api import exact as wm_exact, plan as wm_plan
from tests.hostile import refused

WM_EXACT = sys.modules["mathhammer.warmachine.exact"]


# -- 1. Warmachine exact: sprays and AOEs over many models -------------------------------------
@pytest.mark.parametrize("attack, target", [
    ("Flamer: RAT5 POW14 [SPRAY 14]", "14x Trooper: DEF12 ARM13 BOXES1"),
    ("Flamer: RAT5 POW14 [SPRAY 12]", "12x Trooper: DEF12 ARM13 BOXES1"),
    ("Flamer: RAT5 POW14 [SPRAY 5]", "5x Trooper: DEF12 ARM13 BOXES28"),
    ("Flamer: RAT5 POW14 [SPRAY 6]", "6x Trooper: DEF12 ARM18 BOXES5 [TOUGH]"),
    ("2x Flamer: RAT5 POW14 [SPRAY 3]", "3x Trooper: DEF12 ARM13 BOXES28"),
    ("2x Mortar: RAT5 POW14 [AOE, CATCHES 4]", "10x Trooper: DEF12 ARM13 BOXES5"),
    ("Mortar: RAT5 POW14 [AOE, CATCHES 9]", "10x Trooper: DEF12 ARM16 BOXES8"),
])
def test_an_exact_spray_too_big_is_refused_up_front(attack, target):
    start = time.perf_counter()
    with pytest.raises(UnsupportedError, match=r"joint outcomes \(limit 2,000,000.*simulate"):
        wm_exact(attack, target)
    assert time.perf_counter() - start < 1.0


def test_the_cli_refuses_spray_14_over_14_models_naming_the_figure_and_simulate():
    refused(["warmachine", "exact", "Flamer: RAT5 POW14 [SPRAY 14]", "--target",
             "14x Trooper: DEF12 ARM13 BOXES1"], "66,961,566", "limit 2,000,000", "simulate",
            seconds=2.0)


@pytest.mark.parametrize("attack, target", [
    ("Flamer: RAT5 POW14 [SPRAY 8]", "8x Trooper: DEF12 ARM13 BOXES1"),
    ("Flamer: RAT5 POW14 [SPRAY 4]", "4x Trooper: DEF12 ARM18 BOXES5 [TOUGH]"),
    ("Mortar: RAT5 POW14 [AOE, CATCHES 4]", "10x Trooper: DEF12 ARM13 BOXES5"),
    ("4x Hammer: MAT7 POW16", "Jack: DEF12 ARM10 BOXES30 [GRID --AL/-----/------/---C--/-----/RRRR]"),
    ("10x Rifle: RAT5 POW10", "3x Trooper: DEF12 ARM13 BOXES5 [TOUGH]"),
])
def test_exact_cases_within_the_bound_still_run_and_quickly(attack, target):
    assert WM_EXACT.estimate_combinations(wm_plan(attack, target)) <= WM_EXACT.MAX_COMBINATIONS
    start = time.perf_counter()
    result = wm_exact(attack, target)
    assert time.perf_counter() - start < 5.0
    assert result.pmf("damage").sum() == pytest.approx(1.0)


def test_the_estimate_is_the_exact_count_for_one_spray_of_one_box_models():
    # each model: missed, or hit or crit and destroyed -> 3 joint results; 3**8 * 8 models
    assert WM_EXACT.estimate_combinations(
        wm_plan("Flamer: RAT5 POW14 [SPRAY 8]", "8x Trooper: DEF12 ARM13 BOXES1")) == 3**8 * 8
