"""Dust comparisons as tidy frames (dust/comparisons.py), checked on Binomial counts by hand: six
dice hitting on the hit symbol (2 faces of 6) at five one-point infantry in the open."""

import pytest

from mathhammer.dust.comparisons import compare, sweep


def values(frame, **where):
    rows = frame
    for column, value in where.items():
        rows = rows[rows[column] == value]
    return dict(zip(rows["metric"], rows["value"]))


def test_a_grid_cell_by_hand():
    frame = compare({"Gun": "Gun: 6/1"}, {"G": "5x G: INFANTRY2"})
    got = values(frame)
    # hits X ~ Binomial(6, 1/3): mean 2; five models: min(X, 5); all five when X >= 5
    assert got["expected_hits"] == pytest.approx(2.0)
    assert got["expected_models_destroyed"] == pytest.approx(2 - 1 / 729)
    assert got["p_unit_destroyed"] == pytest.approx(13 / 729)
    assert got["p_damage_wasted"] == pytest.approx(1 / 729)   # six hits on five models
    assert list(frame.columns[:4]) == ["attacker", "target", "sustained", "distance"]


def test_sweep_over_sustained_fire():
    # sustained: a miss is rolled again, 1/3 + 2/3 x 1/3 = 5/9 a die
    frame = sweep("Gun: 6/1", "5x G: INFANTRY2", "sustained", [False, True])
    assert values(frame, sustained=True)["expected_hits"] == pytest.approx(6 * 5 / 9)
    p = 5 / 9
    assert values(frame, sustained=True)["p_unit_destroyed"] == pytest.approx(
        6 * p ** 5 * (1 - p) + p ** 6)


def test_variants_share_their_dice():
    frame = compare({"normal": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2"),
                     "sustained": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2",
                                       sustained=True)}, method="monte-carlo", trials=20_000, seed=3)
    normal, sustained = values(frame, attacker="normal"), values(frame, attacker="sustained")
    # on the same dice a re-rolled miss can only add hits
    assert sustained["expected_hits"] > normal["expected_hits"]
    row = frame[(frame["attacker"] == "normal") & (frame["metric"] == "expected_hits")]
    assert abs(row["value"].iloc[0] - 2.0) < 5 * row["stderr"].iloc[0]
