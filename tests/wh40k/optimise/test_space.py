"""The optimiser's choice space (wh40k/optimise/space.py): plans counted by hand."""

from mathhammer.wh40k.optimise.space import build_space, concrete_scenario, normal_order
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.model import OpenChoices, Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def scenario():
    gun = CarriedWeapon.single(parse_weapon('Bolter: 24" A2 BS3+ S4 AP0 D1'))
    shooter = Unit("S", (ModelGroup("G", 2, parse_target("T4 Sv3+ W2"), (gun,)),))
    a = Unit("A", (ModelGroup("M", 5, parse_target("T4 Sv3+ W1")),))
    b = Unit("B", (ModelGroup("M", 5, parse_target("T4 Sv3+ W1")),))
    return Scenario({"S": shooter, "A": a, "B": b}, (Activation("shooting", "S", "A"),),
                    sides={"S": "x", "A": "y", "B": "y"},
                    open_choices=(OpenChoices(("A", "B"), (("reroll_hits", ("none", "ones")),)),))


def test_plans_counted_by_hand():
    # the group fires at A or at B (2) times two hit re-roll choices: 4 plans
    assert len(list(build_space(scenario(), split=False).every_orders())) == 4
    # splitting its two models: 2-0, 1-1, 0-2 (3) times 2: 6 plans
    plans = list(build_space(scenario(), split=True).every_orders())
    assert len(plans) == 6 and len(set(plans)) == 6


def test_the_plan_as_written_and_its_scenario():
    space = build_space(scenario())
    written = space.as_written()
    assert written.allocations == (((("A", 0), 2),),) and written.options == ("none",)
    sc = concrete_scenario(space, written)
    assert not sc.open_choices
    assert [(a.target, a.group) for a in sc.attacks[0]] == [("A", "G")]


def test_normal_order():
    assert normal_order((0, 1, 2)) == () and normal_order((1, 0)) == (1, 0)
