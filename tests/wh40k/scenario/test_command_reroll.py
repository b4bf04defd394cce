"""The Command Re-roll in scenarios: one per activation, on the first roll of its kind that
fails (a Damage roll below its average), across every batch of the activation.

Forced dice show which die is rolled again and that the re-roll is spent once per
activation; Monte Carlo agrees with the independent oracle, which walks every dice path
(``tests/wh40k/oracle.py``), and with a hand-derived mean over two battle rounds.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Rules
from mathhammer.wh40k.scenario.api import run, run_scripted
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.model import Activation, Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit
from tests.wh40k.oracle import reference_pmfs
from tests.wh40k.scenario.test_monte_carlo import assert_matches

TRIALS = 200_000


def scenario(weapons: list[str], target: str, command: str, rounds: int = 1,
             phase: str = "shooting", rules: Rules = Rules(), **modifiers) -> Scenario:
    """One attacking model per weapon line (so different lines make different batches)
    against ``target`` (a counted target line), with a Command Re-roll for ``command``."""
    groups = tuple(ModelGroup(f"Model {i}", 1, parse_target("T4 Sv3+ W2"),
                              (CarriedWeapon.single(parse_weapon(w)),))
                   for i, w in enumerate(weapons))
    defenders = parse_target(target)
    foes = Unit("Foes", (ModelGroup("Foe", defenders.count, defenders, ()),))
    activation = Activation(phase, "Squad", "Foes",
                            modifiers=Modifiers(command_reroll=command, **modifiers))
    return Scenario({"Squad": Unit("Squad", groups), "Foes": foes}, (activation,),
                    rounds=rounds, rules=rules)


def test_hit_re_roll_is_spent_once_per_activation_across_batches() -> None:
    two_guns = scenario(['Gun A: 24" A2 BS4+ S10 AP0 D1', 'Gun B: 24" A2 BS4+ S9 AP0 D1'],
                        "10x T1 Sv- W1", "hit", rounds=2)
    assert compile_scenario(two_guns).batches.shape[0] == 2
    # each round: gun A's first hit die (a 2, or a 3) fails and is rolled again (a 5, or a
    # 4), its second hits; 2 wound and 2 save dice; gun B's two failed hit dice stay failed
    round_1 = [2, 5, 5] + [4, 4] + [1, 1] + [2, 2]
    round_2 = [3, 4, 6] + [4, 4] + [1, 1] + [1, 1]
    out = run_scripted(two_guns, round_1 + round_2)
    assert out["dice_used"] == 18
    assert out["units"]["Foes"]["models_destroyed"] == 4
    # (had the re-roll been per batch, gun B would re-roll its first die: 19 dice or more)


def test_wound_save_and_damage_re_rolls_take_the_first_failure() -> None:
    # wound: the 3 (fails against T4) is rolled again (a 4); the later 2 stays
    out = run_scripted(scenario(['Gun: 24" A2 BSN/A S4 AP0 D1 [TORRENT]'], "10x T4 Sv- W1",
                                "wound"), [3, 4, 2] + [1])
    assert out["dice_used"] == 4 and out["units"]["Foes"]["models_destroyed"] == 1
    # save (the defender's): the first failed save (a 2) is rolled again and saved (a 5);
    # the second failure (a 3) stands
    out = run_scripted(scenario(['Gun: 24" A2 BSN/A S10 AP0 D1 [TORRENT]'], "10x T1 Sv4+ W1",
                                "save"), [4, 4] + [2, 5, 3])
    assert out["dice_used"] == 5 and out["units"]["Foes"]["models_destroyed"] == 1
    # damage: the first D6 below 3.5 (a 2) is rolled again (a 5); the later 1 stays: 5 + 1
    out = run_scripted(scenario(['Gun: 24" A2 BSN/A S10 AP0 DD6 [TORRENT]'], "1x T1 Sv- W20",
                                "damage"), [4, 4] + [1, 1] + [2, 5, 1])
    assert out["dice_used"] == 7 and out["units"]["Foes"]["wounds_lost"] == 6


def test_damage_re_roll_takes_one_die_of_several() -> None:
    # 2D6 Damage 1 + 4 = 5, below 7: only the 1 is rolled again (a 6): 10. With the whole
    # roll re-rolled (cmd_reroll_multi_dice="all") both dice are (6 + 6): 12.
    gun = ['Gun: 24" A1 BSN/A S10 AP0 D2D6 [TORRENT]']
    out = run_scripted(scenario(gun, "1x T1 Sv- W20", "damage"), [4] + [1] + [1, 4, 6])
    assert out["dice_used"] == 5 and out["units"]["Foes"]["wounds_lost"] == 10
    whole = scenario(gun, "1x T1 Sv- W20", "damage", rules=Rules(cmd_reroll_multi_dice="all"))
    out = run_scripted(whole, [4] + [1] + [1, 4, 6, 6])
    assert out["dice_used"] == 6 and out["units"]["Foes"]["wounds_lost"] == 12


def test_hand_derived_mean_over_two_rounds() -> None:
    # 3 attacks hitting on 4+, wounding on 2+, each wound a kill: per activation
    # 5/6 x (3/2 + (1 - 1/8) x 1/2), and the re-roll comes back in the second round.
    expected = 2 * Fraction(5, 6) * (Fraction(3, 2) + Fraction(7, 8) * Fraction(1, 2))
    result = run(scenario(['Gun: 24" A3 BS4+ S10 AP0 D1'], "10x T1 Sv- W1", "hit", rounds=2),
                 trials=TRIALS, seed=41)
    dist = result.models_destroyed("Foes")
    assert abs(dist.mean - float(expected)) < 5 * dist.stderr
    no_reroll = 2 * Fraction(5, 6) * Fraction(3, 2)
    assert dist.mean - float(no_reroll) > 10 * dist.stderr   # the test can tell them apart


CASES = {
    "hit, once across two batches": (['Gun A: 24" A1 BS4+ S4 AP0 D1',
                                      'Gun B: 24" A1 BS4+ S5 AP0 D1'],
                                     "3x T4 Sv- W1", "hit", {}),
    "wound with devastating": (['Gun: 24" A2 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS]'],
                               "2x T4 Sv5+ W2", "wound", {}),
    "save against two batches": (['Gun A: 24" A1 BSN/A S4 AP-1 D1 [TORRENT]',
                                  'Gun B: 24" A1 BSN/A S4 AP0 D2 [TORRENT]'],
                                 "2x T4 Sv4+ W2", "save", {}),
    "damage D3, devastating": (['Gun: 24" A2 BSN/A S4 AP0 DD3 [TORRENT, DEVASTATING WOUNDS]'],
                               "2x T4 Sv- W3", "damage", {"crit_wounds": 5}),
    "save, kept past a save that cannot pass": (['Gun A: 24" A1 BSN/A S4 AP-4 D1 [TORRENT]',
                                                 'Gun B: 24" A1 BSN/A S4 AP0 D1 [TORRENT]'],
                                                "2x T4 Sv4+ W1", "save", {}),
    "damage, devastating held to the end, a later batch first": (
        ['Gun A: 24" A1 BSN/A S4 AP0 DD3 [TORRENT, DEVASTATING WOUNDS]',
         'Gun B: 24" A1 BSN/A S4 AP0 DD6 [TORRENT]'],
        "2x T4 Sv- W4", "damage", {"crit_wounds": 5, "dw_timing": "unit_end"}),
    "save, 10th edition": (['Gun A: 24" A1 BSN/A S4 AP-1 D1 [TORRENT]',
                            'Gun B: 24" A1 BSN/A S4 AP0 D2 [TORRENT]'],
                           "2x T4 Sv4+ W2", "save", {"edition": 10}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_monte_carlo_matches_brute_force(name: str) -> None:
    weapons, target, command, options = CASES[name]
    rules = Rules(**{k: v for k, v in options.items() if k in Rules.__dataclass_fields__})
    modifiers = {k: v for k, v in options.items() if k not in Rules.__dataclass_fields__}
    result = run(scenario(weapons, target, command, rules=rules, **modifiers),
                 trials=TRIALS, seed=50 + list(CASES).index(name))
    expected = reference_pmfs([parse_weapon(w) for w in weapons], parse_target(target),
                              command_reroll=command, **options)
    for outcome, dist in (("damage", result.wounds_lost("Foes")),
                          ("models_destroyed", result.models_destroyed("Foes"))):
        pmf = np.zeros(max(expected[outcome]) + 1)
        for k, p in expected[outcome].items():
            pmf[k] = float(p)
        assert_matches(dist, pmf, TRIALS)


def test_refusals_name_the_activation() -> None:
    overwatch = scenario(['Gun: 24" A2 BS4+ S4 AP0 D1'], "5x T4 Sv- W1", "hit",
                         phase="overwatch")
    with pytest.raises(OptionError, match="activation 'Squad fires overwatch at Foes': "
                                          "command_reroll = 'hit'"):
        compile_scenario(overwatch)
