"""The scenario kernel (wh40k/scenario/kernels.py): one trial on forced dice, each die read by
hand in the kernel's order (hit rolls, wound rolls of the hits, saves of the wounds), in both
of its versions (with and without the rare rules' code)."""

import pytest

from mathhammer.core.rng import scripted_dice_used, scripted_stream
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.chunks import Histograms, scratch_arrays
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.layout import U_MODEL_BINS
from mathhammer.wh40k.scenario.kernels import scenario_trials
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def one_trial(faces, weapon='Bolter: 24" A2 BS3+ S4 AP0 D1', target="T4 Sv3+ W1"):
    answers = {rare_rules: _one_trial(faces, weapon, target, rare_rules)
               for rare_rules in (None, True)}
    assert answers[None] == answers[True]
    return answers[None]


def _one_trial(faces, weapon, target, rare_rules):
    gun = CarriedWeapon.single(parse_weapon(weapon))
    shooter = Unit("Shooter", (ModelGroup("Gunner", 1, parse_target("T4 Sv3+ W2"), (gun,)),))
    targets = Unit("Targets", (ModelGroup("Trooper", 5, parse_target(target)),))
    plan = compile_scenario(Scenario({"Shooter": shooter, "Targets": targets},
                                     (Activation("shooting", "Shooter", "Targets"),)))
    out = Histograms.zeros(plan)
    scratch = scratch_arrays(plan, 1)
    stream = scripted_stream(faces)
    scenario_trials(stream, 1, plan.kernel_arrays(use_counts=0), scratch.losses, scratch.batch,
                    scratch.trial, out, rare_rules)
    start = plan.units[1, U_MODEL_BINS]
    destroyed = int(out.models[0, start:start + 6].argmax())
    return destroyed, scripted_dice_used(stream)


@pytest.mark.parametrize("faces, expected", [
    ([3, 1, 4, 2], (1, 4)),     # one hit (3+), it wounds (4+), the 3+ save fails on a 2
    ([3, 1, 4, 3], (0, 4)),     # ... and is saved on a 3
    ([3, 5, 4, 6, 1, 1], (2, 6)),  # two hits, two wounds, two failed saves
    ([1, 2], (0, 2)),           # no hit: nothing more is rolled
    ([6, 6, 3, 3], (0, 4)),     # two hits, no wound (4+ needed): no save is rolled
])
def test_one_bolter_trial(faces, expected):
    assert one_trial(faces) == expected


def test_damage_above_one_wound_takes_one_model():
    # D3 fixed against W1: the wound takes one model, the rest of the damage is lost
    assert one_trial([3, 1, 4, 2], weapon='Gun: 24" A2 BS3+ S4 AP0 D 3') == (1, 4)
