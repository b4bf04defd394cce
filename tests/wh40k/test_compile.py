"""``wh40k.compile``: the tables the engines read, against values worked out by hand from
the rules (05.01 hit roll, 05.02 wound roll table, 05.04 saves, 02.02.01 damage order)."""

import numpy as np
import pytest

from mathhammer.wh40k.compile import (CRITICAL, FAIL, G_FNP, G_MODELS, G_WOUNDS, HIT_CLASS,
                                      MORTAL_DAMAGE, NORMAL_DAMAGE, SAVE_FAILS, SUCCESS,
                                      WOUND_CLASS, WOUND_REROLL, attack_dice_pmf, compile_plan,
                                      final_damage, wound_threshold)
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Situation

RIFLE = parse_weapon('Bolt rifle: 24" A2 BS3+ S4 AP-1 D1')
MARINES = parse_target("5x Intercessor: T4 Sv3+ W2 [INFANTRY]")


def faces(row) -> list[int]:
    return [int(v) for v in row[1:]]


@pytest.mark.parametrize("strength,toughness,need", [
    (8, 4, 2), (5, 4, 3), (4, 4, 4), (4, 5, 5), (4, 8, 6), (3, 7, 6), (10, 5, 2), (1, 1, 4)])
def test_wound_threshold_follows_the_wound_roll_table(strength, toughness, need):
    assert wound_threshold(strength, toughness) == need


def test_hit_wound_and_save_tables_of_a_bolt_rifle_against_marines():
    plan = compile_plan([RIFLE], MARINES)
    assert faces(plan.rolls[0, HIT_CLASS]) == [FAIL, FAIL, SUCCESS, SUCCESS, SUCCESS, CRITICAL]
    assert faces(plan.rolls[0, WOUND_CLASS]) == [FAIL, FAIL, FAIL, SUCCESS, SUCCESS, CRITICAL]
    assert faces(plan.rolls[0, WOUND_REROLL]) == [0] * 6
    # Sv3+ against AP-1 saves on 4+: faces 1-3 let the damage through
    assert faces(plan.saves[0, 0, SAVE_FAILS]) == [1, 1, 1, 0, 0, 0]
    assert plan.groups[0, G_MODELS] == 5 and plan.groups[0, G_WOUNDS] == 2
    assert plan.groups[0, G_FNP] == 7


def test_cover_makes_a_3_plus_hit_on_4_plus():
    plan = compile_plan([RIFLE], MARINES, situation=Situation(cover=True))
    assert faces(plan.rolls[0, HIT_CLASS]) == [FAIL, FAIL, FAIL, SUCCESS, SUCCESS, CRITICAL]


def test_anti_lowers_the_critical_wound_threshold_for_matching_keywords_only():
    anti = parse_weapon('Rifle: 24" A1 BS3+ S4 AP0 D1 [ANTI-INFANTRY 4+]')
    plan = compile_plan([anti], parse_target("T8 Sv3+ W2 [INFANTRY]"))
    assert faces(plan.rolls[0, WOUND_CLASS]) == [FAIL, FAIL, FAIL, CRITICAL, CRITICAL, CRITICAL]
    plan = compile_plan([anti], parse_target("T8 Sv3+ W2 [VEHICLE]"))
    assert faces(plan.rolls[0, WOUND_CLASS]) == [FAIL, FAIL, FAIL, FAIL, FAIL, CRITICAL]


def test_invulnerable_save_ignores_ap():
    melta = parse_weapon('Meltagun: 12" A1 BS3+ S9 AP-4 DD6 [MELTA 2]')
    plan = compile_plan([melta], parse_target("T5 Sv2+ InSv4+ W3"))
    assert faces(plan.saves[0, 0, SAVE_FAILS]) == [1, 1, 1, 0, 0, 0]


def test_damage_maps_add_then_subtract_and_never_go_below_one():
    melta = parse_weapon('Meltagun: 12" A1 BS3+ S9 AP-4 DD6 [MELTA 2]')
    plan = compile_plan([melta], parse_target("T10 Sv3+ W12 [VEHICLE]"),
                        situation=Situation(half_range=True))
    assert [int(v) for v in plan.damage_maps[0, NORMAL_DAMAGE, 1:7]] == [3, 4, 5, 6, 7, 8]
    assert final_damage(1, 0, False, 1) == 1
    assert final_damage(3, 0, True, 0) == 2       # halved, rounded up
    assert final_damage(6, 2, True, 1) == 3       # (6 + 2) / 2 - 1
    reduced = compile_plan([RIFLE], MARINES, modifiers=Modifiers(damage_plus=2))
    assert int(reduced.damage_maps[0, MORTAL_DAMAGE, 1]) == 3


def test_attack_dice_pmf_is_the_convolution_of_every_weapons_dice():
    two_d6 = compile_plan([parse_weapon('2x Gun: 24" AD6 BS4+ S4 AP0 D1')], MARINES)
    pmf = attack_dice_pmf(two_d6.batch[0].tolist())
    assert len(pmf) == 13 and pmf[:2].sum() == 0
    assert pmf[7] == pytest.approx(6 / 36)
    assert pmf[2] == pytest.approx(1 / 36)
    assert (np.arange(len(pmf)) * pmf).sum() == pytest.approx(7.0)
