"""Scenarios with Damage and Attacks re-rolls, random [MELTA X], [BLAST X] and [CLEAVE X], and
Feel No Pain against psychic attacks.

One attacking unit against one target of identical models must agree with the single-target
exact engine (means within 5 standard errors, chi-square on the whole pmf, fixed seeds);
forced dice and hand-derived means check what the comparison cannot see (which dice are
rolled, that [CLEAVE] needs one target, that hazard mortal wounds are not psychic).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

import mathhammer as mh
from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation
from mathhammer.wh40k.scenario.api import (ScenarioResult, run, run_scenario_monte_carlo,
                                           run_scripted)
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.model import Activation, Scenario, WeaponChoice
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit
from tests.wh40k.scenario.test_monte_carlo import assert_matches

TRIALS = 150_000


def unit(name: str, count: int, profile: str, *weapons: str) -> Unit:
    group = ModelGroup(name, count, parse_target(profile),
                       tuple(CarriedWeapon.single(parse_weapon(w)) for w in weapons))
    return Unit(name, (group,))


def duel(attackers: int, weapon: str, defenders: int, profile: str, phase: str = "shooting",
         rules: Rules = Rules(), rounds: int = 1, **options) -> Scenario:
    """``attackers`` models with ``weapon`` attack ``defenders`` models of ``profile`` once;
    ``options`` are Situation or Modifiers fields."""
    situation = {k: v for k, v in options.items() if k in Situation.__dataclass_fields__}
    modifiers = {k: v for k, v in options.items() if k not in situation}
    activation = Activation(phase, "Attackers", "Target", situation=Situation(**situation),
                            modifiers=Modifiers(**modifiers))
    return Scenario({"Attackers": unit("Attackers", attackers, "T4 Sv3+ W2", weapon),
                     "Target": unit("Target", defenders, profile)}, (activation,),
                    rounds=rounds, rules=rules)


def assert_agrees_with_exact(scenario: Scenario, weapon: str, target: str, seed: int,
                             use_counts: int = 1, **options) -> None:
    plan = dataclasses.replace(compile_scenario(scenario), use_counts=use_counts)
    result = ScenarioResult.from_histograms(plan, TRIALS, seed,
                                            *run_scenario_monte_carlo(plan, TRIALS, seed))
    exact = mh.exact(weapon, target, **options).distributions
    assert_matches(result.wounds_lost("Target"), exact["damage"].probabilities, TRIALS)
    assert_matches(result.models_destroyed("Target"), exact["models_destroyed"].probabilities,
                   TRIALS)


CASES = {
    "damage re-roll ones": ('Gun: 24" A2 BS3+ S5 AP-1 DD6', 5, "T4 Sv4+ W3", 6,
                            {"reroll_damage": "ones"}),
    "damage re-roll low, 10e": ('Gun: 24" A2 BS3+ S5 AP-1 DD3+1', 5, "T4 Sv4+ W3", 6,
                                {"reroll_damage": "low", "edition": 10}),
    "melta D3 at half range, damage re-roll": (
        'Melta: 12" A1 BS3+ S9 AP-4 DD3 [MELTA D3]', 4, "T6 Sv3+ W5", 3,
        {"half_range": True, "reroll_damage": "ones"}),
    "attacks re-roll low": ('Gun: 24" AD6 BS4+ S4 AP0 D1', 3, "T4 Sv5+ W1", 12,
                            {"reroll_attacks": "low"}),
    "random blast": ('Gun: 24" A2 BS4+ S5 AP0 D1 [BLAST D3]', 2, "T4 Sv5+ W1", 10, {}),
    "random cleave": ("Axe: Melee AD3 WS3+ S5 AP-1 D1 [CLEAVE D3+1]", 3, "T4 Sv5+ W1", 12,
                      {"reroll_attacks": "ones"}),
    "psychic Feel No Pain": ('Smite: 18" A3 BS3+ S6 AP-1 DD3 [PSYCHIC]', 3,
                             "T4 Sv4+ W2 FNP6+ FNP5+(psychic)", 6, {}),
    "psychic Feel No Pain, devastating, held to the end": (
        'Smite: 18" A2 BSN/A S4 AP0 D2 [TORRENT, PSYCHIC, DEVASTATING WOUNDS]', 2,
        "T4 Sv5+ W2 FNP5+(mortal) FNP4+(psychic)", 4,
        {"crit_wounds": 5, "dw_timing": "unit_end"}),
    "psychic Feel No Pain, devastating spilling, 10e launch text": (
        'Smite: 18" A2 BSN/A S4 AP0 D 3 [TORRENT, PSYCHIC, DEVASTATING WOUNDS]', 2,
        "T4 Sv5+ W2 FNP4+(psychic)", 4,
        {"crit_wounds": 5, "edition": 10, "devastating_text": "launch"}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_one_unit_against_one_unit_agrees_with_the_exact_engine(name: str) -> None:
    weapon, attackers, target, defenders, options = CASES[name]
    rule_fields = {k: v for k, v in options.items() if k in Rules.__dataclass_fields__}
    others = {k: v for k, v in options.items() if k not in rule_fields}
    phase = "fight" if "Melee" in weapon else "shooting"
    scenario = duel(attackers, weapon, defenders, target, phase, Rules(**rule_fields), **others)
    seed = 100 + list(CASES).index(name)
    assert_agrees_with_exact(scenario, f"{attackers}x {weapon}", f"{defenders}x {target}", seed,
                             **options)


def test_rolling_every_die_agrees_too() -> None:
    weapon, attackers, target, defenders, options = CASES["melta D3 at half range, damage re-roll"]
    assert_agrees_with_exact(duel(attackers, weapon, defenders, target, **options),
                             f"{attackers}x {weapon}", f"{defenders}x {target}", 5,
                             use_counts=0, **options)


def test_attacks_re_roll_threshold_follows_each_weapon_in_one_batch() -> None:
    # An AD6 and an AD3 gun are identical attacks (A is not part of identity) and form one
    # batch; each re-rolls its own low results (D6: 1-3, D3: 1). W1 targets, so batching
    # cannot change the law of models destroyed.
    squad = Unit("Attackers", (
        ModelGroup("Heavy", 2, parse_target("T4 Sv3+ W2"),
                   (CarriedWeapon.single(parse_weapon('Gun: 24" AD6 BS4+ S4 AP0 D1')),)),
        ModelGroup("Light", 2, parse_target("T4 Sv3+ W2"),
                   (CarriedWeapon.single(parse_weapon('Gun: 24" AD3 BS4+ S4 AP0 D1')),))))
    scenario = Scenario({"Attackers": squad, "Target": unit("Target", 20, "T4 Sv6+ W1")},
                        (Activation("shooting", "Attackers", "Target",
                                    modifiers=Modifiers(reroll_attacks="low")),))
    assert compile_scenario(scenario).batches.shape[0] == 1
    result = run(scenario, trials=TRIALS, seed=21)
    exact = mh.exact(['2x Gun: 24" AD6 BS4+ S4 AP0 D1', '2x Gun: 24" AD3 BS4+ S4 AP0 D1'],
                     "20x T4 Sv6+ W1", reroll_attacks="low")
    assert_matches(result.models_destroyed("Target"),
                   exact.distributions["models_destroyed"].probabilities)


# -- hand-derived values ---------------------------------------------------------------------
def _mean_within(result_dist, expected: Fraction) -> None:
    assert abs(result_dist.mean - float(expected)) < 5 * result_dist.stderr


def test_damage_re_roll_of_ones_on_a_d6_averages_47_12() -> None:
    # One model, one automatic hit wounding on 2+ against a W50 model with no save: the
    # wounds lost are 5/6 x 47/12 on average (a D6 with its 1s re-rolled: 3.5 + 2.5/6).
    scenario = duel(1, 'Gun: 24" A1 BSN/A S10 AP0 DD6 [TORRENT]', 1, "T1 Sv- W50",
                    reroll_damage="ones")
    _mean_within(run(scenario, trials=TRIALS, seed=31).wounds_lost("Target"),
                 Fraction(5, 6) * Fraction(47, 12))


def test_melta_d6_adds_its_roll_per_attack() -> None:
    # D1 + D6 per attack at half range: 5/6 x 4.5 per attack, two attacks.
    scenario = duel(1, 'Melta: 12" A2 BSN/A S10 AP0 D1 [MELTA D6, TORRENT]', 1, "T1 Sv- W50",
                    half_range=True)
    _mean_within(run(scenario, trials=TRIALS, seed=32).wounds_lost("Target"),
                 2 * Fraction(5, 6) * Fraction(9, 2))


def test_attacks_re_roll_of_ones_on_a_d6_averages_47_12() -> None:
    scenario = duel(1, 'Gun: 24" AD6 BSN/A S10 AP0 D1 [TORRENT]', 1, "T1 Sv- W50",
                    reroll_attacks="ones")
    _mean_within(run(scenario, trials=TRIALS, seed=33).wounds_lost("Target"),
                 Fraction(5, 6) * Fraction(47, 12))


def test_blast_d3_gives_two_plus_2d3_dice_against_ten_models() -> None:
    # A2 [BLAST D3] against 10 models: 2 + 2D3 attacks, at most 8 (no model is spared).
    weapon = 'Gun: 24" A2 BSN/A S10 AP0 D1 [BLAST D3, TORRENT]'
    _mean_within(run(duel(1, weapon, 10, "T1 Sv- W1"), trials=TRIALS,
                     seed=34).models_destroyed("Target"), Fraction(5, 6) * 6)
    # forced dice: the two D3 (faces 6 and 1: 3 + 1) come right after A; 6 hits, 6 wound
    # dice, 6 save dice (Sv- fails all), D1 damage: 6 models destroyed, 14 dice
    out = run_scripted(duel(1, weapon, 10, "T1 Sv- W1"), [6, 1] + [4] * 6 + [1] * 6)
    assert out["units"]["Target"]["models_destroyed"] == 6 and out["dice_used"] == 14
    # 9 models: one D3 only
    out = run_scripted(duel(1, weapon, 9, "T1 Sv- W1"), [6] + [4] * 5 + [1] * 5)
    assert out["units"]["Target"]["models_destroyed"] == 5 and out["dice_used"] == 11


def test_cleave_d3_needs_every_attack_at_one_target() -> None:
    axe = "Axe: Melee A2 WS3+ S10 AP0 D1 [CLEAVE D3]"
    # one target of 10: 2 + 2D3 dice; faces: D3s 6, 6 (3 + 3), 8 hits on 4s, 8 wounds, 8 saves
    out = run_scripted(duel(1, axe, 10, "T1 Sv- W1", phase="fight"), [6, 6] + [4] * 16 + [1] * 8)
    assert out["units"]["Target"]["models_destroyed"] == 8 and out["dice_used"] == 26
    # split one and one between two units of 10: no [CLEAVE] dice at all (24.06)
    mob = unit("Mob", 1, "T4 Sv3+ W2", axe)
    split = Activation("fight", "Mob", weapons=(WeaponChoice("Axe", split=(("A", 1), ("B", 1))),))
    scenario = Scenario({"Mob": mob, "A": unit("A", 10, "T1 Sv- W1"),
                         "B": unit("B", 10, "T1 Sv- W1")}, (split,),
                        sides={"Mob": "x", "A": "y", "B": "y"})
    out = run_scripted(scenario, [4, 4, 1, 4, 4, 1])
    assert out["dice_used"] == 6
    assert out["units"]["A"]["models_destroyed"] == out["units"]["B"]["models_destroyed"] == 1


def test_blast_and_cleave_with_different_dice_are_refused() -> None:
    scenario = duel(1, "Axe: Melee A2 WS3+ S4 AP0 D1 [BLAST D6, CLEAVE D3]", 10, "T4 Sv- W1",
                    phase="fight")
    with pytest.raises(UnsupportedError, match=r"\[BLAST D6\] and \[CLEAVE D3\] roll different"):
        compile_scenario(scenario)


def test_psychic_feel_no_pain_halves_a_psychic_attack_only() -> None:
    # D 6 automatic hits wounding on 2+ against a W50 model with FNP4+(psychic): half of
    # 5/6 x 6 = 2.5 for the [PSYCHIC] gun; the plain gun's 5 is untouched.
    for weapon, expected in (('Smite: 18" A1 BSN/A S10 AP0 D 6 [TORRENT, PSYCHIC]', 2.5),
                             ('Gun: 18" A1 BSN/A S10 AP0 D 6 [TORRENT]', 5)):
        result = run(duel(1, weapon, 1, "T1 Sv- W50 FNP4+(psychic)"), trials=TRIALS, seed=35)
        _mean_within(result.wounds_lost("Target"), Fraction(expected))


def test_hazard_mortal_wounds_are_not_psychic() -> None:
    # 11e: one hazard roll, failing on 1-2, costs 1 mortal wound: 1/3 on average, which a
    # FNP4+(psychic) on the bearer does not touch (FNP5+(mortal) would: 1/3 x 2/3).
    weapon = 'Smite: 18" A1 BSN/A S1 AP0 D1 [TORRENT, PSYCHIC, HAZARDOUS]'
    for profile, expected in (("T4 Sv- W10 FNP4+(psychic)", Fraction(1, 3)),
                              ("T4 Sv- W10 FNP5+(mortal)", Fraction(2, 9))):
        scenario = Scenario({"Attackers": unit("Attackers", 1, profile, weapon),
                             "Target": unit("Target", 1, "T12 Sv2+ W50")},
                            (Activation("shooting", "Attackers", "Target"),))
        _mean_within(run(scenario, trials=TRIALS, seed=36).wounds_lost("Attackers"), expected)
