"""Seeded answers do not change when code moves: Monte Carlo counts and exact figures saved
from the engines before they moved into their subpackages (issue 40), checked to the count
and to 1e-12.

A change here means an engine's answer changed: say why in the commit, then save the new
figures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import mathhammer as mh

BOLT = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY, SUSTAINED HITS 1]'
LASCANNON = "Lascannon: A1 BS3+ S12 AP-3 D D6+1 [DEVASTATING WOUNDS]"
GRAVIS = "3x Gravis: T6 Sv3+ W3"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def counts(result: mh.Result, outcome: str, trials: int) -> list[int]:
    return (result.pmf(outcome).to_numpy() * trials).round().astype(int).tolist()


@pytest.mark.parametrize("seed,options,expected", [
    (7, {}, [56, 179, 285, 684, 138, 129, 459, 7, 11, 52]),
    (9, {"command_reroll": "wound"}, [42, 152, 268, 646, 177, 147, 479, 13, 7, 69]),
])
def test_simulate_counts(seed, options, expected):
    result = mh.simulate([BOLT, LASCANNON], GRAVIS, trials=2000, seed=seed, **options)
    assert counts(result, "damage", 2000) == expected


@pytest.mark.parametrize("options,expected", [
    ({}, (3.7083035918154543, 1.0444718234507269)),
    ({"command_reroll": "wound"}, (3.8739375222447574, 1.0997275011329966)),
])
def test_exact_means(options, expected):
    result = mh.exact([BOLT, LASCANNON], GRAVIS, **options)
    got = (result.mean("damage"), result.mean("models_destroyed"))
    assert got == pytest.approx(expected, rel=1e-12)


def test_compare_monte_carlo_values():
    frame = mh.compare({"a": BOLT, "b": LASCANNON}, ["GEQ", "MEQ"], method="monte-carlo", trials=2000, seed=3)
    assert frame["value"].tolist() == pytest.approx(
        [8.5345, 8.5345, 0.4535, 4.2, 1.8595, 0.009, 0.5515, 0.5515, 0.0, 0.999, 0.4995, 0.0],
        rel=1e-12, abs=1e-15)


def test_compare_exact_values():
    # the batched grid (exact_engine.batches) and the one-by-one cells (several lines)
    frame = mh.compare({"a": BOLT, "b": LASCANNON, "c": [BOLT, LASCANNON]},
                       ["GEQ", "MEQ", "TEQ", "VEQ", GRAVIS], method="exact")
    damage = frame[frame["metric"] == "expected_damage"].set_index(["attacker", "target"])
    expected = {("a", "GEQ"): 8.531374, ("a", "MEQ"): 4.163982, ("a", "TEQ"): 1.851852,
                ("a", "VEQ"): 1.388889, ("a", "3x Gravis"): 2.777395,
                ("b", "VEQ"): 1.75, ("b", "3x Gravis"): 1.364198,
                ("c", "3x Gravis"): 3.7083035918154543}
    for cell, value in expected.items():
        assert damage.loc[cell, "value"] == pytest.approx(value, rel=1e-6), cell


def test_scenario_run_counts():
    result = mh.run(EXAMPLES / "shoot_charge_fight.toml", trials=1000, seed=4)
    assert counts(result, "Intercessors: models_destroyed", 1000) == [
        23, 96, 146, 195, 174, 310, 56]
    assert counts(result, "Boyz: wounds_lost", 1000) == [
        0, 4, 5, 11, 23, 34, 38, 41, 80, 87, 9, 668]


@pytest.mark.parametrize("options,expected", [
    ({"method": "exact"}, 8.447587568099575),  # the mixed-unit exact engine
    ({"method": "monte-carlo", "trials": 4000, "seed": 5}, 8.42925),
])
def test_optimise_values(options, expected):
    result = mh.optimise(EXAMPLES / "optimise_shooting.toml", **options)
    assert result.value == pytest.approx(expected, rel=1e-12)
