"""Dust tables and fire orders (dust/plans.py), worked out by hand: a die hits on the hit
symbol (1/3); soft cover saves a hit on a hit (1/3), hard cover on a blank (2/3)."""

import pytest

from mathhammer.dust.plans import best_fire_orders, losses_table, weapon_breakdown
from mathhammer.errors import OptionError


def test_weapon_breakdown():
    table = weapon_breakdown("Gun: 6/1", "5x G: INFANTRY2")
    assert table.loc["Gun"].tolist() == [6, pytest.approx(2.0), pytest.approx(2.0), 0.0]


def test_losses_of_one_model_squads():
    # P(one model lost) = 1 - P(no hit gets through) over six dice
    table = losses_table("Gun: 6/1", models=1)
    infantry = table.loc[("infantry", 1)]
    assert infantry["open"] == pytest.approx(1 - (2 / 3) ** 6)
    assert infantry["soft"] == pytest.approx(1 - (1 - 1 / 3 * 2 / 3) ** 6)
    assert infantry["hard"] == pytest.approx(1 - (1 - 1 / 3 * 1 / 3) ** 6)


def test_best_fire_orders_spreads_single_shots():
    # two one-die weapons at two one-model squads: apart, each squad falls with 1/3
    # (2/3 expected losses); together, one squad falls with 1 - (2/3)^2 = 5/9 and a second
    # hit is wasted with 1/9
    plans = best_fire_orders(["Gun: 1/1", "Rifle: 1/1"], ["A: INFANTRY1", "B: INFANTRY1"])
    best, worst = plans.iloc[0], plans.iloc[-1]
    assert {best["Gun"], best["Rifle"]} == {"A", "B"}
    assert best["expected_losses"] == pytest.approx(2 / 3)
    assert worst["expected_losses"] == pytest.approx(5 / 9)
    assert worst["expected_overkill"] == pytest.approx(1 / 9)
    with pytest.raises(OptionError, match="objective must be"):
        best_fire_orders(["Gun: 1/1"], ["A: INFANTRY1"], objective="most_dice")
    with pytest.raises(OptionError, match="distinct names"):
        best_fire_orders(["Gun: 1/1"], ["A: INFANTRY1", "A: INFANTRY1"])
