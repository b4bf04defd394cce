"""Activations and weapon choices (wh40k/scenario/activations.py): what they accept."""

import pytest

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.profiles import Situation
from mathhammer.wh40k.scenario.activations import Activation, WeaponChoice


def test_labels_name_attacker_phase_and_target():
    assert Activation("shooting", "Squad", "Orks").label == "Squad shoots Orks"
    assert Activation("fight", "Squad").label == "Squad fights"
    assert Activation("shooting", "Squad", "Orks", label="volley").label == "volley"


def test_overwatch_sets_the_overwatch_situation():
    act = Activation("overwatch", "Squad", "Orks")
    assert act.situation.overwatch and act.label == "Squad fires overwatch at Orks"
    assert Activation("shooting", "S", "T", situation=Situation(cover=True)).situation == \
        Situation(cover=True)


@pytest.mark.parametrize("kwargs, message", [
    (dict(phase="charge", attacker="S"), "phase 'charge' must be one of"),
    (dict(phase="shooting", attacker=5), "attacker = 5 must be text"),
    (dict(phase="shooting", attacker="S", weapons=("Bolter",)), "must be a tuple of "
                                                                 "WeaponChoice"),
    (dict(phase="shooting", attacker="S", order=["Bolter"]), "must be a tuple of weapon names"),
    (dict(phase="shooting", attacker="S", situation={"cover": True}), "situation must be a "
                                                                      "Situation"),
])
def test_activation_refusals(kwargs, message):
    with pytest.raises(ScenarioError, match=message):
        Activation(**kwargs)


@pytest.mark.parametrize("kwargs, message", [
    (dict(name="Choppa", split=(("Boyz", "2"),)), "must be pairs"),
    (dict(name="Plasma", count=0), "count = 0 must be a whole number of models, at least 1"),
    (dict(name="Plasma", count=True), "must be a whole number of models"),
    (dict(name="Choppa", count=2, split=(("Boyz", 2),)), "cannot be combined with split"),
    (dict(name="Plasma", models=3), "models = 3 must be text"),
])
def test_weapon_choice_refusals(kwargs, message):
    with pytest.raises(ScenarioError, match=message):
        WeaponChoice(**kwargs)


def test_weapon_choice_keeps_its_fields():
    choice = WeaponChoice("Plasma gun - supercharge", target="Orks", models="Marine", count=2)
    assert (choice.name, choice.target, choice.models, choice.count) == (
        "Plasma gun - supercharge", "Orks", "Marine", 2)
