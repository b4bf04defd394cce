"""``mh.optimise`` (wh40k/optimise/api.py) on a choice worked out by hand: two bolter models
(A2, BS3+, S4) may fire at A (T4) or B (T3), both Sv3+ W1, re-rolling hit rolls of 1 or not.
An attack destroys a model with P(hit) x P(wound) x 1/3 (the 3+ save fails on 1-2):
re-rolling 1s makes P(hit) 2/3 + 1/6 x 2/3 = 7/9; against B it wounds on 3+ (2/3), against
A on 4+ (1/2). Best: all four attacks at B re-rolling 1s, 4 x 7/9 x 2/3 x 1/3 = 56/81."""

import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.optimise.api import optimise
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.model import OpenChoices, Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def scenario():
    gun = CarriedWeapon.single(parse_weapon('Bolter: 24" A2 BS3+ S4 AP0 D1'))
    shooter = Unit("S", (ModelGroup("G", 2, parse_target("T4 Sv3+ W2"), (gun,)),))
    a = Unit("A", (ModelGroup("M", 5, parse_target("T4 Sv3+ W1")),))
    b = Unit("B", (ModelGroup("M", 5, parse_target("T3 Sv3+ W1")),))
    return Scenario({"S": shooter, "A": a, "B": b}, (Activation("shooting", "S", "A"),),
                    sides={"S": "x", "A": "y", "B": "y"},
                    open_choices=(OpenChoices(("A", "B"), (("reroll_hits", ("none", "ones")),)),))


def test_the_best_plan_by_hand():
    result = optimise(scenario(), "expected_models_destroyed")
    assert result.engine == "exact" and result.optimal and result.orders_in_space == 6
    assert result.value == pytest.approx(56 / 81)
    assert result.best.orders.allocations == (((("B", 0), 2),),)
    assert result.best.orders.options == ("ones",)
    # the orders as written (both at A, no re-roll): 4 x 2/3 x 1/2 x 1/3 = 4/9
    written = dict(result.naive)["everything at A"]
    assert written.values[0][0] <= result.value


def test_monte_carlo_agrees():
    result = optimise(scenario(), "expected_models_destroyed", method="monte-carlo",
                      trials=20_000, seed=3)
    value, se = result.best.values[0]
    assert abs(value - 56 / 81) < 5 * se


def test_bad_objectives_are_one_line():
    with pytest.raises(OptionError, match="objective 'kills' is unknown"):
        optimise(scenario(), "kills")
