"""Scenarios (wh40k/scenario/model.py): units, script, rounds and switches, checked once."""

import pytest

from mathhammer.errors import MathhammerError, ScenarioError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.model import (MAX_ROUNDS, Scenario, ScenarioRules,
                                             check_precision_pick)
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit

BOLTER = CarriedWeapon.single(parse_weapon('Bolter: 24" A2 BS3+ S4 AP0 D1'))


def units():
    marines = Unit("Marines", (ModelGroup("Marine", 5, parse_target("T4 Sv3+ W2"), (BOLTER,)),
                               ModelGroup("Captain", 1,
                                          parse_target("T4 Sv2+ W5 [INFANTRY, CHARACTER]"),
                                          (BOLTER,))))
    orks = Unit("Orks", (ModelGroup("Boy", 10, parse_target("T5 Sv5+ W1"), (BOLTER,)),))
    return {"Marines": marines, "Orks": orks}


def test_a_scenario_selects_its_attacks_and_sides_once():
    sc = Scenario(units(), (Activation("shooting", "Marines", "Orks"),
                            Activation("shooting", "Orks", "Marines")), rounds=2)
    # both groups of the marines fire their bolters at the orks
    assert [(a.group, a.target) for a in sc.attacks[0]] == [("Marine", "Orks"),
                                                            ("Captain", "Orks")]
    assert sc.sides == {"Marines": "A", "Orks": "B"}


@pytest.mark.parametrize("kwargs, message", [
    (dict(rounds=0), f"from 1 to {MAX_ROUNDS}"),
    (dict(rounds=True), "rounds = True"),
    (dict(activations=()), "no activations"),
    (dict(activations=(Activation("shooting", "Marines", "Orcs"),)),
     "unknown unit 'Orcs'; did you mean 'Orks'"),
    (dict(switches={"retarget_on_destroyed": "retarget"}), "give a ScenarioRules"),
    (dict(sides={"Marines": "A"}), "unit 'Orks' has no side"),
])
def test_scenario_refusals(kwargs, message):
    arguments = dict(units=units(), activations=(Activation("shooting", "Marines", "Orks"),))
    arguments.update(kwargs)
    with pytest.raises(ScenarioError, match=message):
        Scenario(**arguments)


def test_scenario_rules_and_precision_picks():
    assert ScenarioRules().retarget_on_destroyed == "lost"
    with pytest.raises(ScenarioError, match="retarget_on_destroyed = 'maybe'"):
        ScenarioRules(retarget_on_destroyed="maybe")
    check_precision_pick(units(), "first")
    check_precision_pick(units(), "captain")  # a CHARACTER group, any case
    with pytest.raises(ScenarioError, match=r"the name of a CHARACTER model group \(Captain\)"):
        check_precision_pick(units(), "Marine")


def test_locate_names_the_file_line_of_an_activation():
    act = Activation("shooting", "Marines", "Orks")
    sc = Scenario(units(), (act,), origins=("army.toml:12",))
    error = ScenarioError(f"activation '{act.label}': bad", activation=act.label)
    assert str(sc.locate(error)) == "army.toml:12: activation 'Marines shoots Orks': bad"
    assert error.location is None   # the error itself is left as it was
    elsewhere = ScenarioError("elsewhere")
    assert sc.locate(elsewhere) is elsewhere
    with pytest.raises(MathhammerError, match="locate takes a MathhammerError"):
        sc.locate("activation 'Marines shoots Orks': bad")   # a message is not read
