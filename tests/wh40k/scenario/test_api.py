"""Running scenarios (wh40k/scenario/api.py): forced dice and Monte Carlo against answers
worked out by hand, and the work limits checked before anything runs."""

import numpy as np
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.api import (activation_dice, check_scenario_work, max_pending,
                                           run, run_scripted)
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def scenario(weapon='Flamer: 12" A1 BSN/A S4 AP0 D1 [TORRENT]', shooters=1, rounds=1,
             targets=10):
    gun = CarriedWeapon.single(parse_weapon(weapon))
    shooter = Unit("Shooter", (ModelGroup("Gunner", shooters, parse_target("T4 Sv3+ W2"),
                                          (gun,)),))
    target = Unit("Targets", (ModelGroup("Trooper", targets, parse_target("T4 Sv7+ W1")),))
    return Scenario({"Shooter": shooter, "Targets": target},
                    (Activation("shooting", "Shooter", "Targets"),), rounds=rounds)


def test_forced_dice():
    # the flamer hits automatically: a wound roll (4+) and, if it wounds, a save roll that
    # cannot succeed (Sv7+: even a 6 fails)
    out = run_scripted(scenario(), [4, 6])
    assert out["units"]["Targets"]["models_destroyed"] == 1 and out["dice_used"] == 2
    out = run_scripted(scenario(), [3])
    assert out["units"]["Targets"]["models_destroyed"] == 0 and out["dice_used"] == 1
    with pytest.raises(IndexError, match="ran out"):
        run_scripted(scenario(shooters=2), [4])
    with pytest.raises(OptionError, match="faces must be a list"):
        run_scripted(scenario(), "44")


def test_monte_carlo_mean_by_hand():
    # three rounds of one auto-hit wounding on 4+: Binomial(3, 1/2), mean 1.5
    result = run(scenario(rounds=3), trials=40_000, seed=2)
    lost = result.models_destroyed("Targets")
    assert abs(lost.mean - 1.5) < 5 * lost.stderr
    same = run(scenario(rounds=3), trials=40_000, seed=2)
    assert np.array_equal(same.models_destroyed("Targets").probabilities, lost.probabilities)


def test_work_bounds():
    plan = compile_scenario(scenario(weapon='Bolter: 24" A2 BS3+ S4 AP0 D1', shooters=5))
    # five models with A2: at most 10 wound dice in the activation
    assert activation_dice(plan) == [10]
    assert max_pending(plan) == 10
    check_scenario_work(plan, 1000)
    with pytest.raises(OptionError, match="lower --trials"):
        check_scenario_work(plan, 10**11)


def test_trials_and_seed_are_keywords():
    with pytest.raises(TypeError):
        run(scenario(), 1000)  # as every game's simulate: trials=, seed=
