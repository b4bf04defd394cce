"""Warmachine comparisons as tidy frames (warmachine/comparisons.py), on cells worked out by hand:
a MAT7 sword hits DEF13 with 26/36, and every hit (POW12 + 2d6 against ARM13) takes a
one-box model."""

import math

import pytest

from mathhammer.warmachine.comparisons import compare, sweep


def values(frame, **where):
    rows = frame
    for column, value in where.items():
        rows = rows[rows[column] == value]
    return dict(zip(rows["metric"], rows["value"]))


def test_compare_cells_by_hand():
    frame = compare({"Swords": "2x Sword: MAT7 POW12"}, {"Grunts": "3x Grunt: DEF13 ARM13 BOXES1"})
    got = values(frame)
    # two attacks, each destroying a model with 13/18: mean 13/9; never all three
    assert got["expected_models_destroyed"] == pytest.approx(26 / 18)
    assert got["p_hit"] == pytest.approx(26 / 36)
    assert got["p_unit_destroyed"] == 0.0
    assert frame.attrs["method"] == "exact" and math.isnan(frame["stderr"].iloc[0])
    assert frame.attrs["labels"]["expected_damage"] == "expected boxes marked"


def test_sweep_over_a_rule_switch():
    # Tough 5+: a destroyed model stays with 1/3, so P(destroyed) = 26/36 x 2/3 = 13/27
    frame = sweep("Sword: MAT7 POW12", "Grunt: DEF13 ARM13 BOXES1 [TOUGH]", "tough_allowed",
                  [True, False])
    assert list(frame.columns[:3]) == ["attacker", "target", "tough_allowed"]
    assert values(frame, tough_allowed=True)["p_unit_destroyed"] == pytest.approx(13 / 27)
    assert values(frame, tough_allowed=False)["p_unit_destroyed"] == pytest.approx(26 / 36)


def test_monte_carlo_cells_agree():
    frame = compare("Sword: MAT7 POW12", "Grunt: DEF13 ARM13 BOXES1", method="monte-carlo",
                    trials=40_000, seed=2)
    row = frame[frame["metric"] == "p_unit_destroyed"].iloc[0]
    assert abs(row["value"] - 26 / 36) < 5 * row["stderr"]
    assert frame.attrs["method"] == "monte-carlo"
