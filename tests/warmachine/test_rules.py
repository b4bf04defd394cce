"""Reference values of the Warmachine MkIV rules spec (section 13 and friends).

Expected numbers come from the spec's tables or are derived here by hand / by brute-force
enumeration over dice in plain Python, never from the engine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from mathhammer.warmachine import Rules, attack_roll_counts, damage_pmf, exact, \
    mark_lanes
from mathhammer.warmachine.rolls import kept_sum_pmf
from mathhammer.warmachine.parse import parse_attack, parse_target

F = Fraction
BIG = "Wall: DEF12 ARM{arm} BOXES200"


def approx(x, rel=1e-12, abs=1e-12):
    return pytest.approx(float(x), rel=rel, abs=abs)


# -- brute-force oracle for one attack roll (plain Python, independent of the engine) --------
def oracle_roll(n, drop, need, all_ones_miss=True, kept_only=True):
    miss = hit = crit = 0
    for dice in itertools.product(range(1, 7), repeat=n):
        ordered = sorted(dice)
        kept = ordered[drop:]
        checked = kept if kept_only else ordered
        if all_ones_miss and all(d == 1 for d in checked):
            miss += 1
            continue
        if (len(kept) >= 2 and all(d == 6 for d in checked)) or sum(kept) >= need:
            if len(set(kept)) < len(kept):
                crit += 1
            else:
                hit += 1
        else:
            miss += 1
    return miss, hit, crit


# -- 13.1 raw sums -----------------------------------------------------------------------------
SUM_2D6 = {2: 36, 3: 35, 4: 33, 5: 30, 6: 26, 7: 21, 8: 15, 9: 10, 10: 6, 11: 3, 12: 1}
SUM_3D6 = {3: 216, 4: 215, 5: 212, 6: 206, 7: 196, 8: 181, 9: 160, 10: 135, 11: 108, 12: 81,
           13: 56, 14: 35, 15: 20, 16: 10, 17: 4, 18: 1}
DROP_3D6 = dict(zip(range(5, 13), [94.91, 89.35, 80.56, 68.06, 52.31, 35.65, 19.91, 7.41]))
DROP_4D6 = dict(zip(range(7, 17), [97.22, 94.29, 89.51, 82.48, 73.07, 61.65, 48.77, 35.49,
                                   23.15, 13.04]))


@pytest.mark.parametrize("n, table, total", [(2, SUM_2D6, 36), (3, SUM_3D6, 216)])
def test_raw_sums(n, table, total):
    pmf = kept_sum_pmf(n)
    for k, count in table.items():
        assert pmf[k:].sum() == approx(F(count, total))


@pytest.mark.parametrize("n, table", [(3, DROP_3D6), (4, DROP_4D6)])
def test_drop_lowest_sums(n, table):
    pmf = kept_sum_pmf(n, 1)
    for k, percent in table.items():
        assert 100 * pmf[k:].sum() == pytest.approx(percent, abs=0.005)


# -- 13.2 hit and crit counts ------------------------------------------------------------------
# need: (2d6 of 36, 3d6 boosted of 216, 3d6 drop 1 of 216, 4d6 drop 1 of 1296), each hit/crit
TABLE_13_2 = {
    3: ((35, 5), (215, 95), (215, 50), (1295, 695)),
    4: ((33, 5), (215, 95), (212, 50), (1295, 695)),
    5: ((30, 4), (212, 92), (205, 46), (1291, 691)),
    6: ((26, 4), (206, 86), (193, 46), (1281, 681)),
    7: ((21, 3), (196, 82), (174, 39), (1260, 672)),
    8: ((15, 3), (181, 73), (147, 39), (1222, 646)),
    9: ((10, 2), (160, 64), (113, 29), (1160, 608)),
    10: ((6, 2), (135, 57), (77, 29), (1069, 577)),
    11: ((3, 1), (108, 48), (43, 16), (947, 515)),
    12: ((1, 1), (81, 39), (16, 16), (799, 451)),
    13: ((1, 1), (56, 32), (16, 16), (632, 392)),
    14: ((1, 1), (35, 23), (16, 16), (460, 316)),
    16: ((1, 1), (10, 10), (16, 16), (169, 169)),
    19: ((1, 1), (1, 1), (16, 16), (21, 21)),
}
COLUMNS = [(2, 0), (3, 0), (3, 1), (4, 1)]


@pytest.mark.parametrize("need", sorted(TABLE_13_2))
def test_hit_crit_table(need):
    for (n, drop), (hits, crits) in zip(COLUMNS, TABLE_13_2[need]):
        miss, hit, crit = attack_roll_counts(n, drop, need)
        assert (hit + crit, crit) == (hits, crits), (n, drop, need)
        assert (miss, hit, crit) == oracle_roll(n, drop, need)


@pytest.mark.parametrize("need", [-3, 0, 1, 2, 3])
def test_low_needs_match_the_first_row(need):
    assert [attack_roll_counts(n, d, need)[1:] for n, d in COLUMNS] == \
        [attack_roll_counts(n, d, 3)[1:] for n, d in COLUMNS]


@pytest.mark.parametrize("need", [19, 25, 40])
def test_high_needs_match_the_last_row(need):
    for (n, drop), (hits, crits) in zip(COLUMNS, TABLE_13_2[19]):
        miss, hit, crit = attack_roll_counts(n, drop, need)
        assert (hit + crit, crit) == (hits, crits)


def test_worked_percentages_through_the_engine():
    # need 7: MAT5 against DEF12
    two = exact("Fist: MAT5 POW12", BIG.format(arm=12))
    three = exact("Fist: MAT5 POW12 [BOOSTED ATTACK]", BIG.format(arm=12))
    four_drop = exact("Fist: MAT5 POW12 [ADDITIONAL ATTACK DICE 2, ATTACK DROP LOWEST]",
                      BIG.format(arm=12))
    assert two.probability("hit") == approx(F(21, 36))
    assert two.probability("crit") == approx(F(3, 36))
    assert three.probability("hit") == approx(F(196, 216))
    assert three.probability("crit") == approx(F(82, 216))
    assert 100 * four_drop.probability("crit") == pytest.approx(51.85, abs=0.005)
    # need 10: MAT2
    three10 = exact("Fist: MAT2 POW12 [BOOSTED ATTACK]", BIG.format(arm=12))
    four10 = exact("Fist: MAT2 POW12 [ADDITIONAL ATTACK DICE 2, ATTACK DROP LOWEST]",
                   BIG.format(arm=12))
    assert 100 * three10.probability("crit") == pytest.approx(26.39, abs=0.005)
    assert 100 * four10.probability("crit") == pytest.approx(44.52, abs=0.005)


@pytest.mark.parametrize("need", range(-1, 10))
def test_single_die(need):
    result = exact(f"Stab: MAT{12 - need} POW12 [FEWER ATTACK DICE 1]", BIG.format(arm=12))
    expected = F(5, 6) if need <= 2 else F(max(0, 7 - need), 6)
    assert result.probability("hit") == approx(expected)
    assert result.probability("crit") == 0


def test_all_ones_and_kept_dice_switches():
    assert sum(attack_roll_counts(2, 0, 2, all_ones_miss=False)[1:]) == 36
    assert sum(attack_roll_counts(2, 0, 2)[1:]) == 35
    assert sum(attack_roll_counts(3, 1, 13)[1:]) == 16
    assert sum(attack_roll_counts(3, 1, 13, special_on_kept_dice=False)[1:]) == 1
    result = exact("Gun: RAT0 POW12 [ADDITIONAL ATTACK DIE, ATTACK DROP LOWEST]",
                   BIG.format(arm=12).replace("DEF12", "DEF13"),
                   rules=Rules(special_on_kept_dice=False))
    assert result.probability("hit") == approx(F(1, 216))


# -- section 3: automatic hits and misses ----------------------------------------------------------
def test_auto_miss_wins_over_auto_hit():
    assert exact("Fist: MAT9 POW12 [AUTO HIT, AUTO MISS]", BIG.format(arm=1)).probability(
        "hit") == 0


def test_zero_dice_is_an_automatic_miss_even_against_an_automatic_hit():
    result = exact("Fist: MAT9 POW12 [AUTO HIT, FEWER ATTACK DICE 2]", BIG.format(arm=1))
    assert result.probability("hit") == 0
    assert result.mean("damage") == 0


def test_automatic_hit_is_a_hit_without_a_critical():
    result = exact("Fist: MAT0 POW12", "Jack: DEF20 ARM12 BOXES40 [KNOCKED DOWN]")
    assert result.probability("hit") == 1
    assert result.probability("crit") == 0
    assert result.mean("damage") == approx(7)


def test_rolling_against_an_automatic_hit_rolls_at_def_5():
    rules = Rules(roll_vs_auto_hit=True)
    result = exact("Fist: MAT6 POW12", "Jack: DEF20 ARM12 BOXES40 [STATIONARY]", rules=rules)
    assert result.probability("hit") == approx(F(35, 36))
    assert result.probability("crit") == approx(F(5, 36))
    low = exact("Fist: MAT0 POW12", "Jack: DEF20 ARM12 BOXES40 [KNOCKED DOWN]", rules=rules)
    assert low.probability("hit") == approx(F(30, 36))  # need 5


def test_ranged_attack_against_knocked_down_model_rolls_at_def_5():
    result = exact("Gun: RAT0 POW12", "Jack: DEF20 ARM12 BOXES40 [KNOCKED DOWN]")
    assert result.probability("hit") == approx(F(30, 36))  # need 5


# -- section 4: rerolls -------------------------------------------------------------------------
def test_one_reroll_on_a_miss_reference():
    result = exact("Fist: MAT5 POW12 [REROLL MISSES]", BIG.format(arm=12))
    assert result.probability("hit") == approx(F(119, 144))
    assert result.probability("crit") == approx(F(17, 144))


def test_reroll_until_crit():
    # reroll a miss or a plain hit once: P(crit) = 3/36 + (33/36)(3/36)
    result = exact("Fist: MAT5 POW12 [REROLL MISSES OR NO CRIT]", BIG.format(arm=12))
    assert result.probability("crit") == approx(F(3, 36) + F(33, 36) * F(3, 36))
    assert result.probability("hit") == approx(F(3, 36) + F(33, 36) * F(21, 36))


# -- 13.3 expected damage -------------------------------------------------------------------
DAMAGE_2D6 = {-12: (F(0), 0.0), -11: (F(1, 36), 2.78), -10: (F(1, 9), 8.33),
              -9: (F(5, 18), 16.67), -8: (F(5, 9), 27.78), -7: (F(35, 36), 41.67),
              -6: (F(14, 9), 58.33), -5: (F(41, 18), 72.22), -4: (F(28, 9), 83.33),
              -3: (F(145, 36), 91.67), -2: (F(5), 97.22), -1: (F(6), 100), 0: (F(7), 100),
              3: (F(10), 100)}
DAMAGE_3D6 = {-12: (F(7, 12), 25.93), -11: (F(23, 24), 37.50), -10: (F(35, 24), 50.00),
              -9: (F(25, 12), 62.50), -8: (F(305, 108), 74.07), -7: (F(791, 216), 83.80),
              -6: (F(329, 72), 90.74), -5: (F(1193, 216), 95.37), -4: (F(1405, 216), 98.15),
              -3: (F(15, 2), 99.54), -2: (F(17, 2), 100), -1: (F(19, 2), 100),
              2: (F(25, 2), 100)}


def _auto_hit_damage(d, extra=""):
    pow_, arm = (0, -d) if d < -10 else (10 + d, 10)
    return exact(f"Axe: MAT0 POW{pow_} [AUTO HIT{extra}]", BIG.format(arm=arm))


@pytest.mark.parametrize("d", sorted(DAMAGE_2D6))
def test_expected_damage_2d6(d):
    mean, percent = DAMAGE_2D6[d]
    result = _auto_hit_damage(d)
    assert result.mean("damage") == approx(mean)
    assert 100 * (1 - result.pmf("damage").iloc[0]) == pytest.approx(percent, abs=0.005)


@pytest.mark.parametrize("d", sorted(DAMAGE_3D6))
def test_expected_damage_3d6(d):
    mean, percent = DAMAGE_3D6[d]
    result = _auto_hit_damage(d, ", BOOSTED DAMAGE")
    assert result.mean("damage") == approx(mean)
    assert 100 * (1 - result.pmf("damage").iloc[0]) == pytest.approx(percent, abs=0.005)


def test_expected_damage_4d6():
    result = _auto_hit_damage(-12, ", BOOSTED DAMAGE, ADDITIONAL DAMAGE DIE")
    assert result.mean("damage") == approx(F(70, 27))
    assert 100 * (1 - result.pmf("damage").iloc[0]) == pytest.approx(66.44, abs=0.005)


def test_zero_damage_dice_deal_pow_minus_arm():
    assert list(damage_pmf(0, 0, 15, 12)) == [0, 0, 0, 1]
    result = exact("Axe: MAT0 POW15 [AUTO HIT, FEWER DAMAGE DICE 2]", BIG.format(arm=12))
    assert result.mean("damage") == approx(3)


def test_armor_piercing_halves_base_armor_rounding_up():
    result = exact("Axe: MAT0 POW10 [AUTO HIT, ARMOR-PIERCING]", BIG.format(arm=19))
    assert result.mean("damage") == approx(7 + 10 - 10)


def test_critical_armor_piercing_only_on_crits():
    # need 7: a crit (3/36) rolls a fresh 2d6 against ARM ceil(19/2) = 10 (mean 7); a plain hit
    # (18/36) rolls 2d6 + 10 - 19, whose clipped mean is 5/18 (table 13.3, d = -9)
    result = exact("Axe: MAT5 POW10 [CRITICAL ARMOR-PIERCING]", BIG.format(arm=19))
    assert result.mean("damage") == approx(F(18, 36) * F(5, 18) + F(3, 36) * 7)


def test_continuous_effects_are_counted_not_added():
    fire = exact("2x Torch: MAT5 POW12 [CRITICAL FIRE]", BIG.format(arm=12))
    plain = exact("2x Torch: MAT5 POW12", BIG.format(arm=12))
    assert fire.probability("continuous_effect") == approx(1 - F(33, 36) ** 2)
    assert fire.mean("damage") == approx(plain.mean("damage"))
    assert "continuous_effect" not in plain.probabilities


def test_blast_pow_default_is_half_pow_rounded_up():
    assert [parse_attack(f"Mortar: RAT5 POW{p} [AOE]").effective_blast_pow
            for p in (13, 15, 17)] == [7, 8, 9]
    assert parse_attack("Mortar: RAT5 POW14 [BLAST POW 8]").effective_blast_pow == 8


# -- section 5.2 and the seed's Tough example -----------------------------------------------
def test_critical_knockdown_denies_tough():
    # need 7, POW >= ARM: a crit knocks down before damage, so no Tough roll
    kd = exact("Gore: MAT5 POW13 [CRITICAL KNOCKDOWN]", "Trooper: DEF12 ARM13 BOXES1 [TOUGH]")
    plain = exact("Gore: MAT5 POW13", "Trooper: DEF12 ARM13 BOXES1 [TOUGH]")
    assert kd.probability("unit_destroyed") == approx(F(5, 12))
    assert plain.probability("unit_destroyed") == approx(F(7, 18))


def test_seed_example_tarrasque_gore_on_a_knocked_down_tough_model():
    """Seed 004: a crit knockdown lands before damage, so a disabled Tough model gets no roll.

    Five-box Tough model, POW far above ARM (any hit disables): P(destroyed) = P(crit) +
    P(plain hit) * 2/3, and Tough saves only on plain hits.
    """
    result = exact("Gore: MAT5 POW30 [CRITICAL KNOCKDOWN]", "Solo: DEF12 ARM10 BOXES5 [TOUGH]")
    assert result.probability("unit_destroyed") == approx(F(3, 36) + F(18, 36) * F(2, 3))
    assert result.probability("tough_saved") == approx(F(18, 36) * F(1, 3))


def test_critical_decapitation_denies_tough():
    result = exact("Blade: MAT5 POW30 [CRITICAL DECAPITATION]", "Solo: DEF12 ARM10 BOXES5 [TOUGH]")
    assert result.probability("unit_destroyed") == approx(F(3, 36) + F(18, 36) * F(2, 3))


def test_tough_trooper_reference():
    result = exact("Spear: MAT4 POW12", "Trooper: DEF12 ARM13 BOXES1 [TOUGH]")
    assert result.probability("unit_destroyed") == approx(F(5, 18))
    assert result.probability("tough_saved") == approx(F(5, 36))
    four = exact("Spear: MAT4 POW12", "Trooper: DEF12 ARM13 BOXES1 [TOUGH 4+]")
    assert four.probability("unit_destroyed") == approx(F(5, 24))
    banned = exact("Spear: MAT4 POW12", "Trooper: DEF12 ARM13 BOXES1 [TOUGH]",
                   rules=Rules(tough_allowed=False))
    assert banned.probability("unit_destroyed") == approx(F(15, 36))


def test_knocked_down_after_tough_loses_tough():
    # auto-hit POW well above ARM: first attack disables, Tough saves 1/3 and knocks down; the
    # second attack is then an automatic melee hit on a model without Tough.
    result = exact("2x Maul: MAT0 POW30 [AUTO HIT]", "Trooper: DEF12 ARM10 BOXES1 [TOUGH]")
    assert result.probability("unit_destroyed") == approx(1)
    assert result.probability("tough_saved") == approx(F(1, 3))


# -- 13.4 scenarios ------------------------------------------------------------------------------
HEAVY = "Heavy: DEF12 ARM13 BOXES30"


def test_charge_heavy_against_heavy():
    charge = exact("2x Fist: MAT6 POW12 [CHARGE]", HEAVY)
    assert charge.mean("damage") == approx(F(403, 36))
    assert charge.distributions["damage"].probability_at_least(15) == approx(0.32241, abs=5e-6)
    assert charge.distributions["damage"].probability_at_least(20) == approx(0.07929, abs=5e-6)
    bought = exact("3x Fist: MAT6 POW12 [CHARGE]", HEAVY)
    # the reference mean is of raw damage: 30 boxes cap it, so read it off a bigger target
    raw = exact("3x Fist: MAT6 POW12 [CHARGE]", "Wall: DEF12 ARM13 BOXES200")
    assert raw.mean("damage") == approx(F(559, 36))
    assert bought.distributions["damage"].probability_at_least(20) == approx(0.29731, abs=5e-6)
    assert bought.distributions["damage"].probability_at_least(30) == approx(0.01426, abs=5e-6)
    plain = exact("2x Fist: MAT6 POW12", HEAVY)
    assert plain.mean("damage") == approx(F(26, 3))
    assert plain.distributions["damage"].probability_at_least(15) == approx(0.12477, abs=5e-6)


def test_charge_boost_is_only_the_first_attack_and_stacks_with_additional_dice():
    # generated or later attacks get no charge bonus; additional dice still add
    one = exact("Fist: MAT0 POW12 [AUTO HIT, CHARGE, ADDITIONAL DAMAGE DIE]", BIG.format(arm=12))
    assert one.mean("damage") == approx(14)  # 4d6
    two = exact("2x Fist: MAT0 POW12 [AUTO HIT, CHARGE]", BIG.format(arm=12))
    assert two.mean("damage") == approx(F(21, 2) + 7)


def test_unit_of_four_against_a_solo():
    lines = ["Sword: MAT5 POW10"] * 4
    raw = exact(lines, "Solo: DEF12 ARM13 BOXES200")
    assert raw.mean("damage") == approx(F(1015, 108))
    solo = exact(lines, "Solo: DEF12 ARM13 BOXES8")
    assert solo.probability("unit_destroyed") == approx(0.61054, abs=5e-6)
    assert raw.distributions["damage"].probability_at_least(8) == approx(0.61054, abs=5e-6)


AOE = "Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 1]"
PAIR = "2x Trooper: DEF12 ARM13 BOXES1"


@pytest.mark.parametrize("c, bystander", [(0.0, F(49, 144)), (0.5, F(133, 288)),
                                          (1.0, F(7, 12))])
def test_aoe_reference(c, bystander):
    result = exact(AOE, PAIR, rules=Rules(aoe_miss_coverage=c))
    blast_kill = F(21, 36)  # 2d6 + 7 - 13 >= 1
    target = F(7, 12) + F(5, 12) * F(c) * blast_kill
    assert result.mean("models_destroyed") == approx(target + bystander)
    both = F(7, 12) * blast_kill + F(5, 12) * (F(c) * blast_kill) ** 2
    assert result.probability("unit_destroyed") == approx(both)


def test_aoe_at_zero_coverage_target_is_removed_on_hits_only():
    result = exact(AOE, "Trooper: DEF12 ARM13 BOXES1")
    assert result.probability("unit_destroyed") == approx(F(7, 12))


def test_aoe_damage_boost_reaches_blast_rolls():
    boosted = exact("Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 1, DAMAGE BOOSTS 1]",
                    "2x Trooper: DEF12 ARM15 BOXES1")
    # direct: 3d6 - 1 always kills; blast: 3d6 + 7 - 15 >= 1, i.e. 3d6 >= 9: 160/216
    assert boosted.mean("models_destroyed") == approx(F(7, 12) * (1 + F(160, 216)))
    off = exact("Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 1, DAMAGE BOOSTS 1]",
                "2x Trooper: DEF12 ARM15 BOXES1", rules=Rules(aoe_boost_all=False))
    assert off.mean("models_destroyed") == approx(F(7, 12) * (1 + F(10, 36)))


def test_spray_rolls_separately_against_each_model():
    # need 7 against each of three single-box models, POW >= ARM + 1
    result = exact("Flamer: RAT5 POW14 [SPRAY 3]", "3x Trooper: DEF12 ARM13 BOXES1")
    p = F(21, 36)
    assert result.mean("models_destroyed") == approx(3 * p)
    assert result.probability("unit_destroyed") == approx(p ** 3)


def test_seed_example_spray_is_simultaneous():
    """Seed 004 (Jackal's spray): all rolls of one attack resolve before targets' own rules.

    Each sprayed Tough model resolves independently, so the count of destroyed models is
    Binomial(3, p) with p = P(hit) * 2/3.
    """
    result = exact("Flamer: RAT5 POW14 [SPRAY 3]", "3x Trooper: DEF12 ARM13 BOXES1 [TOUGH]")
    p = F(21, 36) * F(2, 3)
    binomial = [F(1 if k in (0, 3) else 3) * p ** k * (1 - p) ** (3 - k) for k in range(4)]
    assert list(result.pmf("models_destroyed")) == [approx(b) for b in binomial]


def test_attack_generation_chains_and_caps():
    # auto-hit POW far above ARM: every attack kills, and each kill generates one attack
    chain = exact("Sword: MAT0 POW30 [AUTO HIT, EXTRA ATTACK ON KILL]", "3x Grunt: DEF12 ARM10")
    assert chain.probability("unit_destroyed") == approx(1)
    capped = exact("Sword: MAT0 POW30 [AUTO HIT, EXTRA ATTACK ON KILL, EXTRA ATTACKS MAX 1]",
                   "3x Grunt: DEF12 ARM10")
    assert capped.mean("models_destroyed") == approx(2)
    on_hit = exact("Sword: MAT5 POW30 [EXTRA ATTACK ON HIT, EXTRA ATTACKS MAX 2]",
                   "5x Grunt: DEF12 ARM10")
    p = F(21, 36)
    assert on_hit.mean("models_destroyed") == approx(p + p * p + p * p * p)


def test_retargeting_moves_on_after_a_kill_and_across_units():
    result = exact("3x Sword: MAT0 POW30 [AUTO HIT]", ["Grunt: DEF12 ARM10", "Grunt: DEF12 ARM10",
                                                       "Jack: DEF12 ARM10 BOXES50"])
    assert result.mean("models_destroyed") == approx(2)
    assert result.mean("damage") == approx(2 + 7 + 20)


def test_damage_never_carries_over():
    result = exact("Cannon: RAT0 POW40 [AUTO HIT]", "2x Grunt: DEF12 ARM10 BOXES3")
    assert result.mean("damage") == approx(3)
    assert result.mean("models_destroyed") == approx(1)


def test_grid_lanes():
    assert mark_lanes([4, 5, 6, 6, 5, 4], 6, 7) == (3, 0, 0, 0, 0, 4)
    assert mark_lanes([4, 5, 6, 6, 5, 4], 2, 12) == (0, 5, 6, 1, 0, 0)
    assert mark_lanes([4, 5, 6, 6, 5, 4], 1, 99) == (4, 5, 6, 6, 5, 4)
    assert mark_lanes([1, 1, 1, 1, 1, 1], 3, 2, marked=[0, 0, 1, 0, 0, 0]) == (0, 0, 1, 1, 1, 0)


# -- per-model hit probability under an AOE (section 10: "for an AOE, P(hit) per model") -----
@pytest.mark.parametrize("c", [0.0, 0.5, 1.0])
def test_aoe_hit_and_removal_per_model(c):
    # need 7: the attack hits on 21/36 = 7/12. The target is hit then, or, after a miss,
    # when the deviated area still covers it (c); so is the bystander. Removal: direct hits
    # always kill (POW 14 vs ARM 13); blast 2d6 + 7 - 13 >= 1 on 21/36 (the 13.4 figures).
    result = exact(AOE, PAIR, rules=Rules(aoe_miss_coverage=c))
    hit = F(7, 12) + F(5, 12) * F(c)
    assert result.probability("hit_model_1") == approx(hit)
    assert result.probability("hit_model_2") == approx(hit)
    assert result.probability("destroyed_model_1") == approx(F(7, 12)
                                                            + F(5, 12) * F(c) * F(7, 12))
    bystander = {0.0: F(49, 144), 0.5: F(133, 288), 1.0: F(7, 12)}[c]
    assert result.probability("destroyed_model_2") == approx(bystander)


def test_spray_hit_per_model_and_models_out_of_reach():
    # SPRAY 2 against three models: the third is never hit by the first attack
    result = exact("Flamer: RAT5 POW14 [SPRAY 2]", "3x Trooper: DEF12 ARM13 BOXES1")
    assert result.probability("hit_model_1") == approx(F(7, 12))
    assert result.probability("hit_model_2") == approx(F(7, 12))
    assert result.probability("hit_model_3") == 0
    plain = exact("Sword: MAT5 POW14", "3x Trooper: DEF12 ARM13 BOXES1")
    assert not any(k.startswith("hit_model") for k in plain.probabilities)


# -- damage transfer (seed 004's King of Nothing example; target rules after the rolls) ------
LOCK = "Lock: DEF12 ARM12 BOXES5 [TRANSFER 1, TRANSFER BOXES 3]"
SPEAR = "Spear: MAT7 POW12"  # need 5: 2d6 >= 5 hits on 30/36; damage = 2d6


def test_transfer_moves_damage_to_the_beast_and_returns_the_excess():
    result = exact(SPEAR, LOCK)
    hit = F(30, 36)
    # the beast keeps min(2d6, 3); the lock is destroyed when 2d6 - 3 >= 5, i.e. 2d6 >= 8
    assert result.probability("unit_destroyed") == approx(hit * F(15, 36))
    assert exact(SPEAR, "Lock: DEF12 ARM12 BOXES5").probability("unit_destroyed") == \
        approx(hit * F(30, 36))
    assert result.mean("damage_transferred") == approx(hit * (2 * F(1, 36) + 3 * F(35, 36)))
    assert result.probability("beast_destroyed") == approx(hit * F(35, 36))
    # what the lock keeps: max(0, 2d6 - 3), capped at its 5 boxes
    kept = sum(F(c, 36) * min(5, max(0, s - 3))
               for s, c in zip(range(2, 13), (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)))
    assert result.mean("damage") == approx(hit * kept)


def test_transfer_lethal_policy_keeps_fury_for_killing_blows():
    lethal = exact(SPEAR, LOCK, rules=Rules(transfer_policy="lethal"))
    hit = F(30, 36)
    # transfers only damage that would disable (2d6 >= 5); then the beast takes 3
    assert lethal.probability("beast_destroyed") == approx(hit * F(30, 36))
    assert lethal.probability("unit_destroyed") == approx(hit * F(15, 36))
    with pytest.raises(Exception, match="transfer_policy"):
        Rules(transfer_policy="never")


def test_transfer_runs_out_of_fury():
    # two automatic hits of exactly 4 damage: the first goes to the beast (3) and 1 back,
    # the second finds no fury left: 1 + 4 = 5 boxes, the lock is destroyed
    result = exact("2x Axe: MAT0 POW16 [AUTO HIT, FEWER DAMAGE DICE 2]", LOCK)
    assert result.probability("unit_destroyed") == 1
    assert result.mean("damage_transferred") == 3


# -- grids, spirals and crippling (sections 7.2 and 7.3) ------------------------------------
# An automatic hit with no damage dice deals exactly POW - ARM (zero_damage_dice): 7 here.
SEVEN = "Cannon: RAT0 POW17 [AUTO HIT, FEWER DAMAGE DICE 2, LANE {lane}]"
JACK = "Jack: DEF12 ARM10 BOXES30 [GRID --AL/-----/------/---C--/-----/RRRR]"


def test_chosen_lane_marks_the_reference_boxes():
    # lane 6 with 7 damage -> marks per lane [3, 0, 0, 0, 0, 4]: the R column (lane 6) and the
    # third box of lane 1 (A) are marked, the fourth (L) and lane 4's C are not
    result = exact(SEVEN.format(lane=6), JACK)
    assert result.probability("crippled_R") == 1
    assert result.probability("crippled_A") == 1
    assert result.probability("crippled_L") == 0
    assert result.probability("crippled_C") == 0
    assert result.mean("damage") == 7


def test_rolled_lane_cripples_by_counting_start_lanes():
    # one box per lane; 3 damage from lane l marks l, l+1, l+2 (wrapping): each system is
    # crippled by 3 of the 6 start lanes
    result = exact("Cannon: RAT0 POW13 [AUTO HIT, FEWER DAMAGE DICE 2]",
                   "Jack: DEF12 ARM10 BOXES6 [GRID A/C/G/H/M/F]")
    for letter in "ACGHMF":
        assert result.probability(f"crippled_{letter}") == approx(F(1, 2))


def test_spiral_aspects_and_tough_unmarks_the_last_box():
    # Branches 1 and 2 hold one box each (B, M); 3-6 are empty. 2 damage always disables.
    # From branch 1 the order is B, M; from 2 it is M, then round to B; from 3-6 it wraps to
    # B, M. Tough (5+) unmarks the box marked last: M with 5/6, B with 1/6.
    spiral = "Beast: DEF12 ARM10 BOXES2 [SPIRAL B/M////, TOUGH]"
    result = exact("Claw: MAT0 POW12 [AUTO HIT, FEWER DAMAGE DICE 2]", spiral)
    assert result.probability("tough_saved") == approx(F(1, 3))
    assert result.probability("crippled_B") == approx(F(2, 3) + F(1, 3) * F(5, 6))
    assert result.probability("crippled_M") == approx(F(2, 3) + F(1, 3) * F(1, 6))
    assert result.mean("damage") == approx(F(2, 3) * 2 + F(1, 3))


def test_grid_needs_matching_boxes_and_no_damaged_marks():
    with pytest.raises(Exception, match="has 5 boxes but BOXES6"):
        parse_target("Jack: DEF12 ARM10 BOXES6 [GRID A/C/G/H/M/]")
    with pytest.raises(Exception, match="DAMAGED"):
        parse_target("Jack: DEF12 ARM10 BOXES6 [GRID A/C/G/H/M/F, DAMAGED 2]")
    with pytest.raises(Exception, match="not blank"):
        parse_target("Jack: DEF12 ARM10 BOXES6 [SPIRAL A/C/G/H/M/F]")


def test_crippled_attacker_loses_dice():
    on = Rules(apply_crippling=True)
    # CRIPPLED WEAPON: one attack die (hit on 4+ at need 4, never a crit), one damage die
    weapon = exact("Sword: MAT6 POW12 [CRIPPLED WEAPON]", "Solo: DEF10 ARM10 BOXES20", rules=on)
    assert weapon.probability("hit") == approx(F(1, 2))
    assert weapon.probability("crit") == 0
    assert weapon.mean("damage") == approx(F(1, 2) * (F(7, 2) + 2))
    # CRIPPLED MIND: one attack die, two damage dice; CRIPPLED BODY: the other way round
    mind = exact("Sword: MAT6 POW12 [CRIPPLED MIND]", "Solo: DEF10 ARM10 BOXES20", rules=on)
    assert mind.mean("damage") == approx(F(1, 2) * (7 + 2))
    body = exact("Sword: MAT6 POW12 [CRIPPLED BODY]", "Solo: DEF10 ARM10 BOXES20", rules=on)
    assert body.probability("hit") == approx(F(33, 36))
    assert body.mean("damage") == approx(F(33, 36) * (F(7, 2) + 2))


def test_crippling_needs_the_switch_and_blocks_spending():
    with pytest.raises(Exception, match="apply_crippling"):
        exact("Sword: MAT6 POW12 [CRIPPLED MIND]", "Solo: DEF10 ARM10 BOXES20")
    with pytest.raises(Exception, match="DAMAGE BOOSTS is impossible"):
        exact("Sword: MAT6 POW12 [CRIPPLED CORTEX, DAMAGE BOOSTS 1]",
              "Solo: DEF10 ARM10 BOXES20", rules=Rules(apply_crippling=True))
    with pytest.raises(Exception, match="CHARGE is impossible"):
        exact("Sword: MAT6 POW12 [CRIPPLED SPIRIT, CHARGE]", "Solo: DEF10 ARM10 BOXES20",
              rules=Rules(apply_crippling=True))


def test_long_sequences_against_a_grid_are_refused_with_the_limit():
    grid = "Jack: DEF12 ARM18 [GRID -----L/----LL/---MCC/---MCC/----RR/-----R]"
    assert exact("3x Fist: MAT7 POW18", grid).probability("crippled_M") > 0
    with pytest.raises(Exception, match="at most 10,000 damage-grid states"):
        exact("4x Fist: MAT7 POW18", grid)
