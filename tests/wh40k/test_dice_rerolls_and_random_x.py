"""Damage and Attacks re-rolls, random [BLAST X] and [MELTA X]: hand-derived expectations.

Every expected value below is worked out by hand from the rules (the comment beside it shows
the sum); the exact engine must give it to 1e-12 and the Monte Carlo engine within 5
standard errors. The weapons hit automatically ([TORRENT]) and wound on 2+ (S10 against T1)
so each attack's damage is only scaled by 5/6, and the target has enough wounds that no
damage is lost to a destroyed model.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import mathhammer as mh
from mathhammer.errors import OptionError, ProfileError, UnsupportedError
from mathhammer.wh40k.compile import reroll_below, rerolled_pmf
from mathhammer.core.dice import DiceExpr
from mathhammer.wh40k.parse import parse_weapon

WOUNDS_ON_2 = Fraction(5, 6)
BIG = "T1 Sv- W200"   # one model that soaks every point of damage


def _damage_of(weapon: str, target: str = BIG, **options) -> float:
    return mh.exact(weapon, target, **options).mean("damage")


@pytest.mark.parametrize("damage, policy, mean", [
    ("D6", "ones", Fraction(47, 12)),          # 3.5 + (1/6)(3.5 - 1)
    ("D6", "low", Fraction(17, 4)),            # 1/2 * 3.5 + 1/2 * 5 (4-6 kept)
    ("D3", "ones", Fraction(7, 3)),            # 2 + (1/3)(2 - 1)
    ("D3", "low", Fraction(7, 3)),             # below 2 is only the 1
    ("D6+1", "low", Fraction(21, 4)),          # 1/2 * 4.5 + 1/2 * 6 (5-7 kept)
    ("2D6", "ones", 7 + Fraction(5, 36)),      # only the 2 (both 1s) is re-rolled
    ("2D6", "low", Fraction(7) + Fraction(15, 36) * 7 - Fraction(70, 36)),  # see below
    ("3", "ones", Fraction(3)),                # fixed damage: nothing to re-roll
])
def test_damage_reroll_expectation(damage: str, policy: str, mean: Fraction) -> None:
    # 2D6 low: re-roll 2..6 (P 15/36, their sum-weighted mean 70/15): 7 - 70/36 + 15/36 * 7.
    weapon = f"A1 BSN/A S10 AP0 D {damage} [TORRENT]"
    assert _damage_of(weapon, reroll_damage=policy) == pytest.approx(
        float(WOUNDS_ON_2 * mean), abs=1e-12)


def test_reroll_thresholds_and_pmf() -> None:
    assert reroll_below(DiceExpr.parse("D6"), "ones") == 2
    assert reroll_below(DiceExpr.parse("D6"), "low") == 4
    assert reroll_below(DiceExpr.parse("2D6"), "low") == 7
    assert reroll_below(DiceExpr.parse("4"), "low") == 0
    pmf = rerolled_pmf([0] + [1 / 6] * 6, 2)
    assert pmf[1] == pytest.approx(1 / 36) and pmf[6] == pytest.approx(7 / 36)


@pytest.mark.parametrize("attacks, policy, mean", [
    ("D6", "ones", Fraction(47, 12)),
    ("D6+3", "low", Fraction(1, 2) * Fraction(13, 2) + Fraction(1, 2) * 8),  # 4-6 re-rolled
    ("2D3", "ones", 4 + Fraction(1, 9) * 2),   # only the 2 (both 1s), mean 4
])
def test_attacks_reroll_expectation(attacks: str, policy: str, mean: Fraction) -> None:
    weapon = f"2x A{attacks} BSN/A S10 AP0 D1 [TORRENT]"     # two weapons, each re-rolls
    assert _damage_of(weapon, reroll_attacks=policy) == pytest.approx(
        float(2 * WOUNDS_ON_2 * mean), abs=1e-12)


def test_blast_random_x_rolls_once_per_five_models() -> None:
    # A2 against 10 models: 2 + 2D3 attacks (mean 6); 9 models: 2 + D3 (mean 4).
    weapon = "A2 BSN/A S10 AP0 D1 [BLAST D3, TORRENT]"
    assert mh.exact(weapon, "10x T1 Sv- W9").mean("damage") == pytest.approx(
        float(6 * WOUNDS_ON_2), abs=1e-12)
    assert mh.exact(weapon, "9x T1 Sv- W9").mean("damage") == pytest.approx(
        float(4 * WOUNDS_ON_2), abs=1e-12)
    # two weapons against 5 models: each rolls its own D3+1 (the +1 is fixed per five)
    pmf = mh.exact("2x A1 BSN/A S10 AP0 D1 [BLAST D3+1, TORRENT]",
                   "5x T1 Sv- W20").distributions["damage"].probabilities
    assert sum(k * p for k, p in enumerate(pmf)) == pytest.approx(
        float(2 * (1 + 3) * WOUNDS_ON_2), abs=1e-12)
    assert len(pmf) - 1 == 2 * (1 + 4)     # at most 2 x (A1 + D3 + 1) = 10 attacks


def test_cleave_random_x_rolls_once_per_five_models() -> None:
    # 24.06 with X = D3: A3 against 16 models gets 3 + 3D3 dice (mean 9); against 4, none.
    weapon = "A3 BSN/A S10 AP0 D1 [CLEAVE D3, TORRENT]"
    assert mh.exact(weapon, "16x T1 Sv- W9").mean("damage") == pytest.approx(
        float(9 * WOUNDS_ON_2), abs=1e-12)
    assert mh.exact(weapon, "4x T1 Sv- W9").mean("damage") == pytest.approx(
        float(3 * WOUNDS_ON_2), abs=1e-12)
    # with [BLAST D3+1] too, against 10 models: 1 + 2 x (D3 + 1) + 2 x D3 (mean 11)
    both = mh.exact("A1 BSN/A S10 AP0 D1 [BLAST D3+1, CLEAVE D3, TORRENT]",
                    "10x T1 Sv- W9").distributions["damage"].probabilities
    assert sum(k * p for k, p in enumerate(both)) == pytest.approx(
        float(11 * WOUNDS_ON_2), abs=1e-12)
    assert len(both) - 1 == 1 + 2 * 4 + 2 * 3
    with pytest.raises(UnsupportedError, match=r"\[BLAST D6\] and \[CLEAVE D3\] roll different"):
        mh.exact("A1 BSN/A S10 AP0 D1 [BLAST D6, CLEAVE D3, TORRENT]", "10x T1 Sv- W9")


def test_melta_random_x_is_rolled_per_attack_at_half_range() -> None:
    weapon = "A2 BSN/A S10 AP0 D1 [MELTA D6, TORRENT]"
    assert _damage_of(weapon, half_range=True) == pytest.approx(
        float(2 * WOUNDS_ON_2 * Fraction(9, 2)), abs=1e-12)         # 2 x (1 + 3.5)
    assert _damage_of(weapon) == pytest.approx(float(2 * WOUNDS_ON_2), abs=1e-12)
    # per attack, not once per weapon: one attack's damage 1 + D6 takes every value 2..7
    pmf = mh.exact("A1 BSN/A S10 AP0 D1 [MELTA D6, TORRENT]", BIG,
                   half_range=True).distributions["damage"].probabilities
    assert pmf[2:8] == pytest.approx([float(WOUNDS_ON_2 / 6)] * 6, abs=1e-12)


def test_melta_random_x_with_reroll_and_halving() -> None:
    # D3 re-rolled on a 1 (P 1/9, 4/9, 4/9 for 1, 2, 3) plus a D3 from [MELTA]; then halved,
    # -1, rounded up, at least 1 (02.02.01): the 3 x 3 sums v + x give ceil((v + x) / 2) - 1.
    d = {1: Fraction(1, 9), 2: Fraction(4, 9), 3: Fraction(4, 9)}
    mean = sum(pd * Fraction(1, 3) * max(1, -(-(v + x) // 2) - 1)
               for v, pd in d.items() for x in (1, 2, 3))
    got = _damage_of("A1 BSN/A S10 AP0 DD3 [MELTA D3, TORRENT]", half_range=True,
                     reroll_damage="ones", damage_halved=True, damage_minus=1)
    assert got == pytest.approx(float(WOUNDS_ON_2 * mean), abs=1e-12)


@pytest.mark.parametrize("weapon, target, options", [
    ("3x AD6 BS3+ S10 AP-1 DD6 [MELTA D3]", "T10 Sv3+ W30",
     {"half_range": True, "reroll_damage": "ones", "reroll_attacks": "low"}),
    ("2x AD3 BS3+ S4 AP0 D1 [BLAST D3]", "10x T4 Sv5+ W1", {"reroll_attacks": "ones"}),
    ("3x Melee A2 WS3+ S4 AP-1 DD3 [CLEAVE D3+1]", "12x T4 Sv4+ W2", {}),
    ("2x A1 BS3+ S4 AP0 D1 [BLAST D3, CLEAVE 2D3]", "10x T4 Sv5+ W1", {}),
])
def test_monte_carlo_mean_agrees(weapon: str, target: str, options: dict) -> None:
    mc = mh.simulate(weapon, target, trials=200_000, seed=15, **options)
    ex = mh.exact(weapon, target, **options)
    assert abs(mc.mean("damage") - ex.mean("damage")) < 5 * mc.stderr("damage")


def test_parse_round_trip_and_refusals() -> None:
    w = parse_weapon('Thermal cannon: 24" A2 BS3+ S12 AP-4 DD6 [BLAST D3, MELTA D6]')
    assert parse_weapon(str(w)) == w
    assert "[BLAST D3, MELTA D6]" in str(w)
    cleave = parse_weapon("Melee A2 WS3+ S4 AP0 D1 [CLEAVE D3+1]")
    assert parse_weapon(str(cleave)) == cleave and "[CLEAVE D3+1]" in str(cleave)
    with pytest.raises(OptionError, match="reroll_damage='failed' is not a re-roll policy.*none, ones, low"):
        mh.exact("A1 BS3+ S4 AP0 DD6", BIG, reroll_damage="failed")


def test_command_line_flags(capsys) -> None:
    import json

    from mathhammer.cli import main

    code = main(["exact", "A1 BSN/A S10 AP0 DD6 [TORRENT]", "--target", BIG,
                 "--reroll-damage", "ones", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    assert json.loads(out)["damage"]["mean"] == pytest.approx(float(WOUNDS_ON_2 * 47 / 12))
    code = main(["exact", "2x AD6 BSN/A S10 AP0 D1 [TORRENT]", "--target", BIG,
                 "--reroll-attacks", "low", "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["damage"]["mean"] == pytest.approx(
        float(2 * WOUNDS_ON_2 * Fraction(17, 4)))
    code = main(["exact", "A1 BS3+ S4 AP0 DD6", "--target", BIG, "--reroll-damage", "failed"])
    assert code == 2 and "--reroll-damage" in capsys.readouterr().err


def test_scenarios_refuse_a_command_re_roll_of_a_table_damage_roll() -> None:
    from mathhammer.errors import UnsupportedError
    from mathhammer.wh40k.parse import parse_target
    from mathhammer.wh40k.profiles import Modifiers, Situation
    from mathhammer.wh40k.scenario.compile import compile_scenario
    from mathhammer.wh40k.scenario.model import Activation, Scenario
    from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit

    melta = parse_weapon('Meltagun: 12" A1 BS3+ S9 AP-4 DD6 [MELTA D3]')
    squad = Unit("Squad", (ModelGroup("Melta", 1, parse_target("T4 Sv3+ W2"),
                                      (CarriedWeapon.single(melta),)),))
    tank = Unit("Tank", (ModelGroup("Tank", 1, parse_target("T10 Sv3+ W12 [VEHICLE]"), ()),))
    scenario = Scenario({"Squad": squad, "Tank": tank},
                        (Activation("shooting", "Squad", "Tank",
                                    situation=Situation(half_range=True),
                                    modifiers=Modifiers(command_reroll="damage")),))
    with pytest.raises(UnsupportedError, match="command_reroll = 'damage' with a Damage roll "
                                               "already re-rolled.*or a random \\[MELTA X\\]"):
        compile_scenario(scenario)


# -- Feel No Pain against psychic attacks --------------------------------------------------
PSYCHIC = "A1 BSN/A S10 AP0 D 6 [TORRENT, PSYCHIC]"
PLAIN = "A1 BSN/A S10 AP0 D 6 [TORRENT]"


@pytest.mark.parametrize("weapon, target, through", [
    (PSYCHIC, "T1 Sv- W50 FNP4+(psychic)", Fraction(1, 2)),      # 4+ stops half
    (PLAIN, "T1 Sv- W50 FNP4+(psychic)", Fraction(1)),           # not a psychic attack
    (PSYCHIC, "T1 Sv- W50 FNP5+ FNP3+(psychic)", Fraction(1, 3)),  # the best: 3+
    (PSYCHIC, "T1 Sv- W50 FNP4+ FNP6+(psychic)", Fraction(1, 2)),  # the best: 4+
    (PLAIN, "T1 Sv- W50 FNP5+ FNP3+(psychic)", Fraction(2, 3)),    # only FNP5+ applies
])
def test_psychic_feel_no_pain(weapon: str, target: str, through: Fraction) -> None:
    # 6 damage per wound, wounding on 2+: 5/6 * 6 * P(a wound gets through)
    assert mh.exact(weapon, target).mean("damage") == pytest.approx(
        float(WOUNDS_ON_2 * 6 * through), abs=1e-12)


def test_psychic_feel_no_pain_on_devastating_mortal_wounds() -> None:
    # Criticals on 5+ with [DEVASTATING WOUNDS]: D2 mortal wounds facing the best of
    # FNP5+(mortal) and FNP3+(psychic); the other wounds (2+ to 4+) face FNP3+(psychic) only.
    weapon = "A1 BSN/A S10 AP0 D2 [TORRENT, PSYCHIC, DEVASTATING WOUNDS]"
    target = "T1 Sv- W50 FNP5+(mortal) FNP3+(psychic)"
    expected = Fraction(2, 6) * 2 * Fraction(1, 3) + Fraction(3, 6) * 2 * Fraction(1, 3)
    assert mh.exact(weapon, target, crit_wounds=5).mean("damage") == pytest.approx(
        float(expected), abs=1e-12)
    # the option overrides the line
    assert mh.exact(PSYCHIC, "T1 Sv- W50", fnp_psychic=4).mean("damage") == pytest.approx(
        float(WOUNDS_ON_2 * 3), abs=1e-12)


def test_psychic_feel_no_pain_line_round_trip_and_errors() -> None:
    from mathhammer.wh40k.parse import parse_target

    t = parse_target("3x Warden: T5 Sv3+ W3 FNP6+ FNP4+(psychic) FNP5+(mortal)")
    assert (t.fnp, t.fnp_mortal, t.fnp_psychic) == (6, 5, 4)
    assert parse_target(str(t)) == t
    with pytest.raises(ProfileError, match="FNP5\\+\\(psychic\\) for one against psychic"):
        parse_target("T5 Sv3+ W3 FNP4+(psyker)")
    with pytest.raises(ProfileError, match="FNP \\(psychic\\) 8\\+"):
        parse_target("T5 Sv3+ W3 FNP8+(psychic)")


@pytest.mark.parametrize("options", [{}, {"dw_timing": "unit_end"}])
def test_psychic_feel_no_pain_monte_carlo(options: dict) -> None:
    weapons = ["3x A3 BS3+ S5 AP-1 DD3 [PSYCHIC, DEVASTATING WOUNDS]",
               "2x A3 BS3+ S5 AP-1 D2 [DEVASTATING WOUNDS]"]
    target = "5x T5 Sv4+ W3 FNP6+ FNP5+(mortal) FNP4+(psychic)"
    mc = mh.simulate(weapons, target, trials=200_000, seed=16, crit_wounds=5, **options)
    ex = mh.exact(weapons, target, crit_wounds=5, **options)
    assert abs(mc.mean("damage") - ex.mean("damage")) < 5 * mc.stderr("damage")


def test_random_strength_is_refused_with_the_reason() -> None:
    with pytest.raises(ProfileError, match="'SD6\\+2' at column 9: a random Strength is not "
                                           "modelled"):
        parse_weapon("A1 BS3+ SD6+2 AP0 D1")
    with pytest.raises(ProfileError, match="is not a number"):
        parse_weapon("A1 BS3+ Sx AP0 D1")
