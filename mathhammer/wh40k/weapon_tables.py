"""Settle one weapon profile against one defender: its hit, wound and save tables, its
dice and its damage maps (:func:`batch_tables`).

Every rule that can be settled before the dice are rolled is settled here: ability scoping
and duplicates (24.01-24.02), the ballistic-skill clamp and the +-1 roll-modifier cap
(02.02.01), the wound table (05.02), the best of armour and invulnerable saves (05.04), the
order of damage modifiers (02.02.01), [BLAST]/[CLEAVE]/[RAPID FIRE] dice and [MELTA] damage.
What is left for the engines is a table per roll: for each D6 face, its outcome and whether
it is re-rolled.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from mathhammer.core.dice import DiceExpr
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.dice_laws import (
    check_damage_roll_size, face_probabilities, outcome_probabilities, raw_damage_pmf, reroll_below
)
from mathhammer.wh40k.plan_columns import (
    AUTO_HIT, A_CONST, A_COUNT, A_REROLL_BELOW, A_SIDES, BATCH_COLUMNS, COMMAND_DAMAGE_BELOW,
    COMMAND_ONE_DIE, CRITICAL, DEVASTATING, D_CONST, D_COUNT, D_SIDES, D_TABLE, EXTRA_CRIT, FAIL,
    FNP_COLUMN, FNP_MORTAL_COLUMN, G_FNP, G_FNP_MORTAL, G_FNP_PSYCHIC, G_FNP_PSYCHIC_MORTAL,
    LETHAL, MORTAL_DAMAGE, NORMAL_DAMAGE, NO_FNP, N_WEAPONS, RF_CONST, RF_COUNT, RF_SIDES, SUCCESS,
    SUS_CONST, SUS_COUNT, SUS_SIDES
)
from mathhammer.wh40k.profiles import Ability, Modifiers, Rules, Situation, TargetProfile, Weapon


#: One number per face 0..6 of a D6 roll (0 unused): an outcome, a re-roll mask, a fail.
Face = Sequence[int]

#: X of an ability a weapon lacks (no extra dice, no extra damage).
_NONE = DiceExpr.fixed(0)


def wound_threshold(strength: int, toughness: int) -> int:
    """The wound roll needed for S against T (05.02)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength > toughness:
        return 5
    return 6


def _cap(value: int, rules: Rules) -> int:
    return max(-1, min(1, value)) if rules.roll_mod_cap else value


def _best(instances: tuple[Ability, ...]) -> Ability | None:
    """24.02: duplicates never stack; keep the instance worth the most."""
    if not instances:
        return None
    if len(instances) == 1:
        return instances[0]
    return max(instances, key=lambda a: a.value.mean if a.value is not None else 1)


@dataclass(frozen=True, slots=True)
class Defender:
    """What the tables need to know about the unit being attacked.

    Parameters
    ----------
    keywords
        The unit's keywords (every model's, 19.03): scoped abilities and [ANTI].
    stealth
        Every model has Stealth (cover against ranged attacks).
    toughness_values
        Each T the unit's wound rolls may use (one wound table per value).
    groups
        Per allocation group: (Sv, InSv or None, InSv scope).
    damage_minus, damage_halved, reroll_saves
        The defender's rules (from the unit, or the run's modifiers).
    fnp, fnp_mortal, wounds
        Feel No Pain against all damage and against mortal wounds (7 for none) and W of the
        first allocation group, for the [LETHAL HITS] ``ev`` policy.
    fnp_psychic
        Feel No Pain against psychic attacks only (7 for none).
    """

    keywords: frozenset[str]
    stealth: bool
    toughness_values: tuple[int, ...]
    groups: tuple[tuple[int, int | None, str], ...]
    damage_minus: int = 0
    damage_halved: bool = False
    reroll_saves: str = "none"
    fnp: int = NO_FNP
    fnp_mortal: int = NO_FNP
    wounds: int = 1
    fnp_psychic: int = NO_FNP

    @classmethod
    def of_target(cls, target: TargetProfile, modifiers: Modifiers) -> Defender:
        fnp_all, fnp_mortal = feel_no_pain(target, modifiers)
        return cls(target.keywords, target.has_stealth, (target.toughness,),
                   ((target.save, target.invuln, target.invuln_scope),),
                   modifiers.damage_minus, modifiers.damage_halved, modifiers.reroll_saves,
                   fnp_all, fnp_mortal, target.wounds, psychic_feel_no_pain(target, modifiers))


@dataclass(frozen=True, eq=False)
class BatchTables:
    """Everything settled for one weapon profile against one defender."""

    row: list[int]
    hit: np.ndarray            # int64[2, 7]: outcome, re-roll
    wound: np.ndarray          # int64[n_toughness, 2, 7]
    saves: np.ndarray          # int64[n_groups, 2, 7]
    damage_maps: np.ndarray    # int64[2, Dmax + 1]
    blast_per_five: int
    cleave_per_five: int
    damage_pmf: np.ndarray          # float64[Dmax + 1]: law of the raw damage roll
    blast_dice: tuple[int, int] = (0, 0)   # random [BLAST X]: (dice, sides) per five models
    cleave_dice: tuple[int, int] = (0, 0)  # random [CLEAVE X], the same way


def feel_no_pain(profile: TargetProfile, modifiers: Modifiers) -> tuple[int, int]:
    """(FNP against all damage, FNP against mortal wounds), 7 for none; the best applies."""
    fnp = modifiers.fnp if modifiers.fnp is not None else profile.fnp
    mortal_only = (modifiers.fnp_mortal if modifiers.fnp_mortal is not None
                   else profile.fnp_mortal)
    fnp_all = fnp if fnp is not None else NO_FNP
    return fnp_all, min(fnp_all, mortal_only if mortal_only is not None else NO_FNP)


def psychic_feel_no_pain(profile: TargetProfile, modifiers: Modifiers) -> int:
    """Feel No Pain against psychic attacks only (7 for none); the run's value overrides."""
    value = modifiers.fnp_psychic if modifiers.fnp_psychic is not None else profile.fnp_psychic
    return value if value is not None else NO_FNP


def batch_tables(weapon: Weapon, defender: Defender, situation: Situation,
                 modifiers: Modifiers, rules: Rules) -> BatchTables:
    """Outcome and re-roll tables, dice and damage maps of one weapon against a defender."""
    keywords = defender.keywords
    ranged = not weapon.melee
    check_situation(weapon, situation)
    check_edition(weapon, situation, rules)
    if modifiers.reroll_damage == "best":
        raise UnsupportedError("reroll_damage = best is found by the exact engine against "
                               "one statline of identical models (mathhammer exact, the "
                               "optimiser's exact evaluation), not by Monte Carlo or against "
                               "a unit of several statlines; here use low or ones")

    # the instances that apply against this defender, by name (one pass over the abilities)
    applying: dict[str, tuple[Ability, ...]] = {}
    for ability in weapon.abilities:
        if ability.applies_to(keywords):
            applying[ability.name] = applying.get(ability.name, ()) + (ability,)

    # the instance that counts of each (24.02); ``active(name)`` is None for an absent one
    active = {name: _best(instances) for name, instances in applying.items()}.get

    # Attack dice (24.05, 24.06, 24.30): per weapon, from the target at Select Targets.
    blast = active(ab.BLAST)
    cleave = active(ab.CLEAVE)
    rapid = active(ab.RAPID_FIRE) if (situation.half_range and ranged) else None
    rf = rapid.value if rapid is not None and rapid.value is not None else _NONE
    overwatch = situation.overwatch and ranged
    auto_hit = weapon.auto_hits and not (overwatch and not rules.torrent_in_snap)
    hit = _hit_table(weapon, defender, situation, modifiers, rules, active)
    wound_tables = _wound_tables(weapon, defender, situation, modifiers, rules, active)
    save_tables = _save_tables(weapon, defender, situation, modifiers, rules, active)
    melta = active(ab.MELTA) if (situation.half_range and not weapon.melee) else None
    melta_x = melta.value if melta is not None and melta.value is not None else \
        (DiceExpr.fixed(melta.number) if melta is not None else _NONE)
    damage_pmf = raw_damage_pmf(weapon, melta_x, modifiers.reroll_damage)
    check_damage_roll_size(weapon, len(damage_pmf) - 1)
    maps = _damage_maps(weapon, defender, melta_x, modifiers, rules, len(damage_pmf) - 1)

    sustained = active(ab.SUSTAINED_HITS)
    sus = sustained.value if sustained is not None and sustained.value is not None else _NONE
    devastating = active(ab.DEVASTATING_WOUNDS) is not None
    first_wound, first_save = wound_tables[0], save_tables[0]
    psychic = active(ab.PSYCHIC) is not None
    if psychic:   # the best Feel No Pain that applies, per wound
        defender = replace(defender, fnp=min(defender.fnp, defender.fnp_psychic),
                           fnp_mortal=min(defender.fnp_mortal, defender.fnp_psychic))
    lethal = active(ab.LETHAL_HITS) is not None and not auto_hit
    if lethal and rules.edition != 10:   # mandatory in 10e
        wound_class, wound_reroll = np.array(first_wound, dtype=np.int64)
        save_fails, save_reroll = np.array(first_save, dtype=np.int64)
        lethal = _take_lethal(rules, wound_class, wound_reroll, save_fails, save_reroll, maps,
                              damage_pmf, devastating, defender)
    row = [0] * BATCH_COLUMNS
    row[N_WEAPONS] = weapon.count
    row[A_COUNT], row[A_SIDES], row[A_CONST] = (weapon.attacks.count, weapon.attacks.sides,
                                                weapon.attacks.constant)
    row[RF_COUNT], row[RF_SIDES], row[RF_CONST] = rf.count, rf.sides, rf.constant
    row[AUTO_HIT] = int(auto_hit)
    row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST] = sus.count, sus.sides, sus.constant
    row[LETHAL] = int(lethal)
    row[EXTRA_CRIT] = int(rules.sustained_extra_are_crit)
    row[DEVASTATING] = int(devastating)
    row[D_COUNT], row[D_SIDES], row[D_CONST] = (weapon.damage.count, weapon.damage.sides,
                                                weapon.damage.constant)
    if melta_x.is_random or reroll_below(weapon.damage, modifiers.reroll_damage):
        row[D_TABLE], row[D_COUNT] = 1, -1
    row[A_REROLL_BELOW] = reroll_below(weapon.attacks, modifiers.reroll_attacks)
    row[FNP_COLUMN] = G_FNP_PSYCHIC if psychic else G_FNP
    row[COMMAND_DAMAGE_BELOW] = reroll_below(weapon.damage, "low")
    row[COMMAND_ONE_DIE] = int(weapon.damage.count > 1
                               and rules.cmd_reroll_multi_dice == "one_die")
    row[FNP_MORTAL_COLUMN] = G_FNP_PSYCHIC_MORTAL if psychic else G_FNP_MORTAL
    blast_dice, cleave_dice = _random_bonus_dice(weapon, blast, cleave)
    return BatchTables(row=row, hit=hit, wound=np.array(wound_tables, dtype=np.int64),
                       saves=np.array(save_tables, dtype=np.int64), damage_maps=maps,
                       blast_per_five=blast.number if blast is not None else 0,
                       cleave_per_five=cleave.number if cleave is not None else 0,
                       damage_pmf=damage_pmf, blast_dice=blast_dice, cleave_dice=cleave_dice)


def _random_bonus_dice(weapon: Weapon, blast: Ability | None, cleave: Ability | None
                       ) -> tuple[tuple[int, int], tuple[int, int]]:
    """(dice, sides) per five models of a random [BLAST X] and a random [CLEAVE X] ((0, 0)
    when fixed or absent). Both random must roll the same kind of die: the kernels add them
    up as one pool per weapon."""
    pairs = []
    for ability in (blast, cleave):
        x = ability.value if ability is not None else None
        pairs.append((x.count, x.sides) if x is not None and x.is_random else (0, 0))
    if pairs[0][1] and pairs[1][1] and pairs[0][1] != pairs[1][1]:
        raise UnsupportedError(f"'{weapon.name or weapon}': [{blast}] and [{cleave}] roll "
                               "different dice, which is not modelled; write one of them as a "
                               "whole number (its average)")
    return pairs[0], pairs[1]


def _hit_table(weapon: Weapon, defender: Defender, situation: Situation, modifiers: Modifiers,
               rules: Rules, active) -> np.ndarray:
    """Hit roll (05.01, 02.02.01): ``[outcome per face, re-roll mask]``."""
    ranged = not weapon.melee
    tenth = rules.edition == 10
    psychic = active(ab.PSYCHIC) is not None
    indirect = situation.indirect and ranged
    overwatch = situation.overwatch and ranged
    cover = _has_cover(weapon, defender, situation, rules, active)
    skill_change = modifiers.skill_mod - (1 if cover and not tenth else 0)
    if psychic and not tenth:  # 24.29: drop the harmful BS modifiers, keep helpful ones
        skill_change = max(modifiers.skill_mod, 0)
    skill = weapon.skill if weapon.skill is not None else 2
    skill_eff = min(6, max(2, skill - skill_change))
    heavy = (active(ab.HEAVY) is not None and situation.stationary and ranged
             and not overwatch)
    hit_mod = modifiers.hit_mod + (1 if heavy else 0)
    if psychic and not tenth:
        hit_mod = max(modifiers.hit_mod, 0) + (1 if heavy else 0)
    if tenth and ranged:  # 10e: Stealth and unseen indirect targets are -1 to hit
        hit_mod -= int(defender.stealth) + int(indirect)
    hit_mod = _cap(hit_mod, rules)
    crit_hit = 6 if overwatch else modifiers.crit_hits
    if (tenth and situation.beyond_12 and ranged and not overwatch
            and active(ab.CONVERSION) is not None):
        crit_hit = min(crit_hit, 4)
    fails_below = 0  # raw results up to this fail outright (indirect fire)
    if indirect:
        fails_below = 3 if (tenth or (situation.stationary and situation.spotted)) else 5
    if not overwatch and not fails_below:   # the common case: two thresholds
        outcomes = _class_row(skill_eff - hit_mod, crit_hit)
        return np.array([outcomes, _reroll_mask(modifiers.reroll_hits, outcomes)],
                        dtype=np.int64)
    hit_class: list[int] = [0] * 7
    for face in range(1, 7):
        if face == 1:
            outcome = FAIL
        elif overwatch:
            outcome = CRITICAL if face == 6 else FAIL
        elif face <= fails_below and rules.indirect_fail_beats_crit:
            outcome = FAIL
        elif face >= crit_hit:
            outcome = CRITICAL
        elif face <= fails_below:
            outcome = FAIL
        elif face + hit_mod >= skill_eff:
            outcome = SUCCESS
        else:
            outcome = FAIL
        hit_class[face] = outcome
    hit_reroll = _reroll_mask(modifiers.reroll_hits, hit_class)
    if (overwatch or indirect) and not tenth:
        hit_reroll = [0] * 7  # 10.07, 15.09: hit re-rolls are not allowed (none such in 10e)
    return np.array([hit_class, hit_reroll], dtype=np.int64)


def _has_cover(weapon: Weapon, defender: Defender, situation: Situation, rules: Rules,
               active) -> bool:
    """Benefit of cover against this weapon's attacks. 11e: terrain, Stealth or indirect fire,
    a BS step (13.08). 10e: terrain or indirect fire, +1 to the armour save; Stealth is a -1
    to hit there instead (Appendix A). Never for melee; [IGNORES COVER] cancels it."""
    if weapon.melee or active(ab.IGNORES_COVER) is not None:
        return False
    stealth = defender.stealth and rules.edition != 10
    return situation.cover or situation.indirect or stealth


def _wound_tables(weapon: Weapon, defender: Defender, situation: Situation,
                  modifiers: Modifiers, rules: Rules, active) -> list[tuple[Face, Face]]:
    """Wound roll (05.02): one ``[outcome, re-roll mask]`` table per toughness the unit may
    present."""
    strength = max(1, weapon.strength + modifiers.strength_mod)
    lance = active(ab.LANCE) is not None and situation.charged
    wound_mod = _cap(modifiers.wound_mod + (1 if lance else 0), rules)
    crit_wound = modifiers.crit_wounds
    for anti in weapon.active(ab.ANTI, defender.keywords):
        if anti.threshold is not None:   # always for ANTI (Ability refuses it without)
            crit_wound = min(crit_wound, anti.threshold)
    twin = active(ab.TWIN_LINKED) is not None
    policy = modifiers.reroll_wounds
    tables: list[tuple[Face, Face]] = []
    for toughness in defender.toughness_values:
        wound_class = _class_row(wound_threshold(strength, toughness) - wound_mod, crit_wound)
        wound_reroll = _reroll_mask(policy, wound_class)
        if twin:
            wound_reroll = tuple(a | b for a, b in zip(wound_reroll,
                                                       _reroll_mask("failed", wound_class)))
        tables.append((wound_class, wound_reroll))
    return tables


def _save_tables(weapon: Weapon, defender: Defender, situation: Situation,
                 modifiers: Modifiers, rules: Rules, active) -> list[tuple[Face, Face]]:
    """Saving throw (05.04), one ``[fails, re-roll mask]`` table per allocation group; AP never
    touches the invulnerable save; an unmodified 1 always fails."""
    ranged = not weapon.melee
    ap = min(0, weapon.ap - modifiers.ap_mod)
    tenth = rules.edition == 10
    cover = tenth and _has_cover(weapon, defender, situation, rules, active)
    tables: list[tuple[Face, Face]] = []
    for save, invuln, scope in defender.groups:
        armour_mod, invuln_mod = save_modifiers(save, ap, cover, modifiers.save_mod, tenth)
        # a face saves from the lower of the armour and the (usable) invulnerable threshold
        saved_from = save - armour_mod - ap
        if invuln is not None and scope in ("all", "ranged" if ranged else "melee"):
            saved_from = min(saved_from, invuln - invuln_mod)
        save_fails = _FAILS_BELOW[min(7, max(2, saved_from))]
        policy = defender.reroll_saves
        save_reroll = (save_fails if policy == "failed" else
                       _SAVE_REROLLS.get(policy, _NO_REROLL))
        tables.append((save_fails, save_reroll))
    return tables


def _damage_maps(weapon: Weapon, defender: Defender, melta: DiceExpr, modifiers: Modifiers,
                 rules: Rules, raw_max: int) -> np.ndarray:
    """Final damage of every raw damage index 0..``raw_max``, as normal damage and as mortal
    wounds (see :func:`final_damage` for the order of each edition). A fixed [MELTA X] is
    added here; with a random one the index encodes the pair (D roll, X roll), see
    :func:`raw_damage_pmf`."""
    d_span = weapon.damage.maximum + 1
    fixed_add = (0 if melta.is_random else melta.constant) + modifiers.damage_plus
    # In 10e a [DEVASTATING WOUNDS] attack is still allocated, so the defender's reductions
    # apply to it whatever their trigger.
    defender_vs_mortals = (rules.defender_dmg_mods_vs_dw == "always"
                           or (rules.defender_dmg_mods_vs_dw == "by_trigger"
                               and (rules.edition == 10 or rules.damage_mod_trigger == "target")))
    if not melta.is_random and not defender.damage_halved:
        # every index is the D roll itself: final_damage without halving, as one list each
        normal = _at_least_one(fixed_add - defender.damage_minus, raw_max + 1)
        mortal = normal if defender_vs_mortals else _at_least_one(fixed_add, raw_max + 1)
        return np.array([normal, mortal], dtype=np.int64)
    maps = [[1] * (raw_max + 1), [1] * (raw_max + 1)]
    for index in range(raw_max + 1):
        raw, melta_roll = index % d_span, index // d_span
        damage_add = fixed_add + melta_roll
        maps[NORMAL_DAMAGE][index] = final_damage(raw, damage_add, defender.damage_halved,
                                                  defender.damage_minus, rules.edition)
        if defender_vs_mortals:
            maps[MORTAL_DAMAGE][index] = maps[NORMAL_DAMAGE][index]
        else:
            maps[MORTAL_DAMAGE][index] = final_damage(raw, damage_add, False, 0, rules.edition)
    return np.array(maps, dtype=np.int64)


def _at_least_one(add: int, count: int) -> list[int]:
    """``[max(1, raw + add) for raw in range(count)]``, as a run of ones and a range."""
    ones = min(count, max(0, 1 - add))
    return [1] * ones + list(range(add + ones, add + count))


def final_damage(raw: int, add: int, halved: bool, minus: int, edition: int = 11) -> int:
    """Damage after modifiers, rounded up once at the end, at least 1.

    11e order (02.02.01): add, halve, subtract. 10e order (Appendix A): halve, add, subtract.

    >>> final_damage(5, 2, True, 1)   # Appendix C15: (5 + 2) / 2 - 1 = 2.5 -> 3
    3
    >>> final_damage(5, 2, True, 1, edition=10)   # 5 / 2 + 2 - 1 = 3.5 -> 4
    4
    """
    if not halved:
        return max(1, raw + add - minus)
    if edition == 10:
        return max(1, math.ceil((raw + 2 * (add - minus)) / 2))
    return max(1, math.ceil((raw + add - 2 * minus) / 2))


def save_modifiers(save: int, ap: int, cover: bool, save_mod: int,
                   tenth: bool) -> tuple[int, int]:
    """Net modifiers to the armour and the invulnerable save roll.

    11e: only the run's ``save_mod`` (cover is a BS change, 13.08). 10e: ``cover`` adds 1 to
    the armour save only, not for a model with Sv 3+ or better against AP 0, and a save roll
    is never improved by more than +1 in total (Appendix A).
    """
    if not tenth:
        return save_mod, save_mod
    armour = save_mod + (1 if cover and not (save <= 3 and ap == 0) else 0)
    return min(1, armour), min(1, save_mod)


def _outcome_row(success_from: int, crit_from: int) -> tuple[int, ...]:
    """Outcome per face 0..6 of a roll that succeeds from ``success_from`` and is critical
    from ``crit_from`` (both within 2..7); an unmodified 1 (and the unused 0) fails."""
    return (FAIL, FAIL) + tuple(CRITICAL if face >= crit_from else
                                SUCCESS if face >= success_from else FAIL
                                for face in range(2, 7))


#: Outcome rows by (success from, critical from), for the thresholds rolls meet (-1..9;
#: any other is clamped to 2..7 first): d6 faces only.
_OUTCOME_ROWS = {(s, c): _outcome_row(min(7, max(2, s)), min(7, max(2, c)))
                 for s in range(-1, 10) for c in range(-1, 10)}
#: Save fails per face 0..6 when faces below ``k`` fail (a 1 always fails), by ``k`` 2..7.
_FAILS_BELOW = {k: (1,) * k + (0,) * (7 - k) for k in range(2, 8)}
_NO_REROLL = (0,) * 7
#: Defender's save re-roll masks by policy ("failed" is the fails row itself).
_SAVE_REROLLS = {"ones": (0, 1, 0, 0, 0, 0, 0), "all": (0,) + (1,) * 6}


def _class_row(success_from: int, crit_from: int) -> tuple[int, ...]:
    """:func:`_outcome_row` with any thresholds (a face meets ``face >= threshold``)."""
    row = _OUTCOME_ROWS.get((success_from, crit_from))
    if row is None:
        row = _OUTCOME_ROWS[min(7, max(2, success_from)), min(7, max(2, crit_from))]
    return row


def _reroll_mask(policy: str, classes: Face) -> Face:
    """Per face 0..6 (0 unused), 1 when ``policy`` re-rolls it."""
    if policy == "ones":
        return [0, 1, 0, 0, 0, 0, 0]
    if policy == "failed":
        return [0] + [int(classes[face] == FAIL) for face in range(1, 7)]
    if policy == "noncrit":
        return [0] + [int(classes[face] != CRITICAL) for face in range(1, 7)]
    if policy == "all":
        return [0] + [1] * 6
    return [0] * 7


def _take_lethal(rules: Rules, wound_class, wound_reroll, save_fails, save_reroll, maps,
                 d_pmf: np.ndarray, devastating: bool, defender: Defender) -> bool:
    """[LETHAL HITS] is optional in 11e: decide once per batch by the chosen policy (9.4)."""
    if rules.lethal_policy == "always":
        return True
    if rules.lethal_policy == "never":
        return False
    # Wounds one allocation can take from a model: Feel No Pain per wound (whichever instance
    # applies), then the model's W (excess damage is lost; devastating mortal wounds damage
    # one model at most, 8.3).
    through_normal = (defender.fnp - 1) / 6.0 if defender.fnp < NO_FNP else 1.0
    through_mortal = (defender.fnp_mortal - 1) / 6.0 if defender.fnp_mortal < NO_FNP else 1.0
    mean_normal = sum(p * _capped_mean(maps[NORMAL_DAMAGE, v], through_normal, defender.wounds)
                      for v, p in enumerate(d_pmf) if p)
    mean_mortal = sum(p * _capped_mean(maps[MORTAL_DAMAGE, v], through_mortal, defender.wounds)
                      for v, p in enumerate(d_pmf) if p)
    unsaved = face_probabilities(save_reroll)[save_fails == 1].sum()
    fail, wound, crit = outcome_probabilities(wound_class, wound_reroll)
    auto_value = unsaved * mean_normal
    crit_value = mean_mortal if devastating else unsaved * mean_normal
    roll_value = wound * unsaved * mean_normal + crit * crit_value
    return auto_value >= roll_value


def _capped_mean(damage: int, through: float, cap: int) -> float:
    """E[min(Binomial(damage, through), cap)]: wounds a model loses from one allocation."""
    pmf = [1.0]
    for _ in range(damage):
        pmf = [a * (1 - through) + b * through for a, b in zip(pmf + [0.0], [0.0] + pmf)]
    return sum(min(k, cap) * p for k, p in enumerate(pmf))


def check_edition(weapon: Weapon, situation: Situation, rules: Rules) -> None:
    """Refuse abilities the chosen edition does not have, and 10e's ban on indirect [TORRENT]."""
    label = weapon.name or str(weapon)
    for ability in weapon.abilities:
        edition = ab.EDITION_ONLY.get(ability.name)
        if edition is not None and edition != rules.edition:
            raise OptionError(f"'{label}' has [{ability.name}], which does not exist in "
                              f"{rules.edition}th edition; use edition={edition} or remove it")
    if (rules.edition == 10 and situation.indirect and not weapon.melee
            and weapon.has(ab.TORRENT)):
        raise OptionError(f"'{label}' has [TORRENT], which cannot shoot indirectly in 10th "
                          "edition; {drop indirect} or the weapon", options={"indirect": True})


def check_situation(weapon: Weapon, situation: Situation) -> None:
    """Refuse situations a weapon cannot be in."""
    label = weapon.name or str(weapon)
    if situation.advanced and not weapon.melee and not weapon.has(ab.ASSAULT):
        raise OptionError(f"'{label}' has no [ASSAULT]: after advancing, a unit shoots only "
                          "[ASSAULT] weapons (10.05); {drop advanced} or the weapon",
                          options={"advanced": True})
    if weapon.melee and situation.overwatch:
        raise OptionError(f"'{label}' is a melee weapon: overwatch is snap shooting with ranged "
                          "weapons; {drop overwatch} or the melee line",
                          options={"overwatch": True})
    if situation.indirect and not weapon.melee and not weapon.has(ab.INDIRECT_FIRE):
        raise OptionError(f"'{label}' has no [INDIRECT FIRE]: only such weapons can shoot "
                          "indirectly; {drop indirect} or add the ability",
                          options={"indirect": True})
    if situation.indirect and weapon.melee:
        raise OptionError(f"'{label}' is a melee weapon and cannot shoot indirectly")

__all__ = [
    "wound_threshold", "Defender", "BatchTables", "feel_no_pain", "psychic_feel_no_pain",
    "batch_tables", "final_damage", "save_modifiers", "check_edition", "check_situation"
]
