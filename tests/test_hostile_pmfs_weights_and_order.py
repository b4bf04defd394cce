"""Issue 39, cause 8: what has no meaning is refused, not read as something else: a pmf that
is not one (``from_counts([-1, 2])`` gave negative probabilities, ``from_pmf([nan, 1])``
``[nan]``, ``from_pmf([0.5, 0.6])`` was renormalised, a 2-D pmf taken), a weight in
``optimise(weights=...)`` for a unit the scenario lacks (ignored), and weapon lines (or
targets, attackers, sweep settings, scripted faces) in a set, a dict view or a generator,
where their order matters.
"""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.core.result import Distribution
from mathhammer.errors import OptionError
from tests.test_hostile_counts_kinds_and_outputs import BASE_SCENARIO

WM_API = import_module("mathhammer.warmachine.api")
DUST_API = import_module("mathhammer.dust.api")

W40K = "Bolter: A2 BS3+ S4 AP0 D1"
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


# -- pmfs and histograms ---------------------------------------------------------------------
def test_the_issue_pmfs_and_counts_are_refused():
    with pytest.raises(OptionError, match="negative count, not -1"):
        Distribution.from_counts([-1, 2])
    with pytest.raises(OptionError, match="finite probabilities, not nan"):
        Distribution.from_pmf([float("nan"), 1])
    with pytest.raises(OptionError, match="sum to 1, not 1.1"):
        Distribution.from_pmf([0.5, 0.6])
    with pytest.raises(OptionError, match=r"one row of numbers .* shape \(1, 2\)"):
        Distribution.from_pmf([[0.5, 0.5]])
    with pytest.raises(OptionError, match="whole numbers, not 1.5"):
        Distribution.from_counts([1.5, 2])


@settings(max_examples=150, **SETTINGS)
@given(st.lists(st.integers(0, 50), min_size=1, max_size=8).filter(any))
def test_a_pmf_that_sums_to_1_is_taken_and_nothing_else(weights):
    pmf = [w / sum(weights) for w in weights]
    assert np.allclose(Distribution.from_pmf(pmf).probabilities, np.trim_zeros(
        np.array(pmf), "b"))
    assert np.allclose(Distribution.from_counts(weights).probabilities,
                       Distribution.from_pmf(pmf).probabilities)
    for spoiled in ([p * 1.01 for p in pmf], [p * 0.5 for p in pmf], pmf + [1e-6],
                    [-p for p in pmf], [pmf], pmf[:-1] + [float("nan")]):
        with pytest.raises(OptionError):
            Distribution.from_pmf(spoiled)
    with pytest.raises(OptionError):
        Distribution.from_counts([-w - 1 for w in weights])


def test_rounding_drift_is_still_renormalised():
    dist = Distribution.from_pmf([1 / 3, 1 / 3, 1 / 3 + 1e-12])
    assert abs(dist.probabilities.sum() - 1) < 1e-15


# -- optimise weights ------------------------------------------------------------------------
OPEN_SCENARIO = """
[units.Marines]
models = [{ name = "Marine", count = 2, profile = "T4 Sv3+ W2",
            weapons = ['Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'] }]
[units.Gaunts]
models = [{ name = "Gaunt", count = 1, profile = "T3 Sv5+ W1", points = 10 }]
[units.Warrior]
models = [{ name = "Warrior", count = 1, profile = "T5 Sv4+ W3", points = 30 }]
[[activations]]
phase = "shooting"
attacker = "Marines"
targets = ["Gaunts", "Warrior"]
"""


@settings(max_examples=40, **SETTINGS)
@given(st.text(min_size=1, max_size=12).filter(
    lambda name: name not in ("Marines", "Gaunts", "Warrior")),
    st.sampled_from(["expected_models_destroyed", "expected_points_destroyed"]))
def test_a_weight_for_a_unit_the_scenario_lacks_is_refused(name, objective):
    scenario = mh.parse_scenario(OPEN_SCENARIO, open_choices=True)
    with pytest.raises(OptionError) as info:
        mh.optimise(scenario, objective, weights={name: 5})
    assert f"unknown unit '{name}'" in str(info.value)
    assert "the scenario's units: Marines, Gaunts, Warrior" in str(info.value)


# -- order matters ---------------------------------------------------------------------------
LINES = ["Gun: A1 BS3+ S4 AP0 D1", W40K]


def _unordered():
    return st.sampled_from(["set", "frozenset", "keys", "generator"]).map(lambda kind: {
        "set": set(LINES), "frozenset": frozenset(LINES), "keys": dict.fromkeys(LINES).keys(),
        "generator": (line for line in LINES)}[kind])


ORDERED_ENTRIES = [
    ("40k exact", lambda lines: mh.exact(lines, "MEQ")),
    ("40k simulate", lambda lines: mh.simulate(lines, "MEQ", trials=100)),
    ("40k compare attacker", lambda lines: mh.compare([lines], "MEQ", method="exact")),
    ("40k compare attackers", lambda lines: mh.compare(lines, "MEQ", method="exact")),
    ("40k compare targets", lambda lines: mh.compare(W40K, set(["MEQ", "GEQ"]), method="exact")),
    ("40k sweep values", lambda lines: mh.sweep(W40K, "MEQ", "save", {2, 3}, method="exact")),
    ("warmachine attacks", lambda lines: WM_API.exact(
        {"Fist: MAT6 POW12", "Axe: MAT7 POW13"}, "Jack: DEF13 ARM14 BOXES30")),
    ("dust weapons", lambda lines: DUST_API.exact({"Gun: 6/1", "Rifle: 3/1"},
                                                  "5x G: INFANTRY2")),
    ("scripted faces", lambda lines: mh.wh40k.run_scripted(mh.parse_scenario(BASE_SCENARIO),
                                                     (f for f in [6] * 100))),
    ("dust fire orders", lambda lines: DUST_API.fire_orders(
        {("Gun: 6/1", "5x G: INFANTRY2"), ("Rifle: 3/1", "2x H: INFANTRY1")})),
]


@settings(max_examples=60, **SETTINGS)
@given(st.sampled_from(ORDERED_ENTRIES), _unordered())
def test_an_unordered_collection_is_refused_where_order_matters(entry, lines):
    name, call = entry
    with pytest.raises(OptionError, match="order matters") as info:
        call(lines)
    assert "\n" not in str(info.value), name


def test_lists_and_tuples_keep_their_order():
    first = mh.exact(list(LINES), "MEQ")
    assert mh.exact(tuple(LINES), "MEQ").mean("damage") == first.mean("damage")
    assert mh.compare([tuple(LINES)], "MEQ", method="exact")["value"].iloc[0] == first.mean(
        "damage")
