"""Allocation and damage steps of a scenario trial (wh40k/scenario/damage_steps.py): the steps
are kernel helpers without Python entry points, so each rule is checked on one forced trial,
die by die (wound roll, save, then a Feel No Pain roll per damage point), read by hand."""

import pytest

from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.api import run_scripted
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def trial(weapon, target, faces, count=5):
    gun = CarriedWeapon.single(parse_weapon(weapon))
    shooter = Unit("S", (ModelGroup("G", 1, parse_target("T4 Sv3+ W2"), (gun,)),))
    targets = Unit("T", (ModelGroup("M", count, parse_target(target)),))
    out = run_scripted(Scenario({"S": shooter, "T": targets},
                                (Activation("shooting", "S", "T"),)), faces)
    return out["units"]["T"]["models_destroyed"], out["units"]["T"]["wounds_lost"], \
        out["dice_used"]


def flamer(attacks=1, damage="1", extra=""):
    return f'Flamer: 12" A{attacks} BSN/A S4 AP0 D {damage} [TORRENT{extra}]'


@pytest.mark.parametrize("faces, expected", [
    ([4, 1, 5], (0, 0, 3)),   # wounds, save fails, Feel No Pain 5+ passes: nothing lost
    ([4, 1, 4], (1, 1, 3)),   # ... Feel No Pain fails: the one-wound model is destroyed
])
def test_feel_no_pain_per_damage_point(faces, expected):
    assert trial(flamer(), "T4 Sv7+ W1 FNP5+", faces) == expected


@pytest.mark.parametrize("faces, expected", [
    ([4, 1, 5, 5], (0, 0, 4)),   # D2: both points stopped
    ([4, 1, 5, 4], (0, 1, 4)),   # one point gets through: the W2 model is wounded
    ([4, 1, 1, 1], (1, 2, 4)),   # both: the model is destroyed
])
def test_each_point_of_damage_rolls_its_own_feel_no_pain(faces, expected):
    assert trial(flamer(damage="2"), "T4 Sv7+ W2 FNP5+", faces) == expected


def test_a_wounded_model_takes_the_next_attack():
    # two D1 wounds into W2 models: the second must go to the model the first wounded
    assert trial(flamer(attacks=2), "T4 Sv7+ W2", [4, 4, 1, 1]) == (1, 2, 4)


def test_devastating_wounds_skip_the_save():
    # a critical wound (6) becomes a mortal wound: no save die against a 2+ save
    assert trial(flamer(extra=", DEVASTATING WOUNDS"), "T4 Sv2+ W1", [6]) == (1, 1, 1)
