"""Compile profiles, situation and modifiers into the flat arrays both engines read.

Every rule that can be settled before the dice are rolled is settled here: ability scoping and
duplicates (24.01-24.02), the ballistic-skill clamp and the +-1 roll-modifier cap (02.02.01),
the wound table (05.02), the best of armour and invulnerable saves (05.04), the order of
damage modifiers (02.02.01), [BLAST]/[CLEAVE]/[RAPID FIRE] dice and [MELTA] damage. What is
left for the engines is a table per roll: for each D6 face, its outcome and whether it is
re-rolled. The Monte Carlo kernel and the exact engine read the same :class:`CompiledPlan`,
so a disagreement between them points at one engine, never at two interpretations.

One weapon line is one batch of identical attacks (04.03.01), resolved in the order given.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from mathhammer.core.dice import DiceExpr
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.profiles import (
    Ability,
    Modifiers,
    Rules,
    Situation,
    TargetProfile,
    Weapon,
)

# Outcome codes in the hit and wound tables.
FAIL, SUCCESS, CRITICAL = 0, 1, 2

# Columns of CompiledPlan.batch.
(N_WEAPONS, A_COUNT, A_SIDES, A_CONST, BONUS_DICE, RF_COUNT, RF_SIDES, RF_CONST, AUTO_HIT,
 SUS_COUNT, SUS_SIDES, SUS_CONST, LETHAL, EXTRA_CRIT, DEVASTATING, D_COUNT, D_SIDES,
 D_CONST) = range(18)
# Appended columns (rules added later; zero when unused so the hot paths never look at them):
# D_TABLE 1 when the raw Damage roll is drawn from ``damage_pmfs`` (a re-rolled Damage roll,
# a random [MELTA X]); D_COUNT is then -1 so no fixed-damage shortcut applies.
# A_REROLL_BELOW: an Attacks roll below this is re-rolled (0: never). BONUS_COUNT,
# BONUS_SIDES: random [BLAST X] dice per weapon (BONUS_DICE keeps the fixed part).
# FNP_COLUMN, FNP_MORTAL_COLUMN: the CompiledPlan.groups columns holding the Feel No Pain
# this batch's damage and mortal wounds face (the psychic ones for a [PSYCHIC] weapon).
# COMMAND_DAMAGE_BELOW: a Damage roll below this may take the Command Re-roll (its average).
# COMMAND_ONE_DIE: 1 when that re-roll takes only the lowest of the Damage roll's dice.
(D_TABLE, A_REROLL_BELOW, BONUS_COUNT, BONUS_SIDES, FNP_COLUMN, FNP_MORTAL_COLUMN,
 COMMAND_DAMAGE_BELOW, COMMAND_ONE_DIE) = range(18, 26)
BATCH_COLUMNS = 26
# CompiledPlan.command_reroll: the roll a Command Re-roll is spent on (0: none).
COMMAND_CODES = {"none": 0, "hit": 1, "wound": 2, "damage": 3, "save": 4}

# Rows of CompiledPlan.rolls (each indexed by the D6 face 1..6; column 0 unused). Table rows
# handed to kernel helpers are numpy integers: numba would compile a helper once per row
# given as a Python int (see mathhammer.core.jit).
HIT_CLASS, HIT_REROLL, WOUND_CLASS, WOUND_REROLL = np.arange(4, dtype=np.int64)
# Rows of CompiledPlan.saves[b, g].
SAVE_FAILS, SAVE_REROLL = range(2)
# Rows of CompiledPlan.damage_maps[b].
NORMAL_DAMAGE, MORTAL_DAMAGE = range(2)
# Columns of CompiledPlan.groups.
# G_FNP_PSYCHIC, G_FNP_PSYCHIC_MORTAL: the best Feel No Pain against a psychic attack's
# damage and mortal wounds (FNP (psychic) counted with the others).
G_MODELS, G_WOUNDS, G_FNP, G_FNP_MORTAL, G_FNP_PSYCHIC, G_FNP_PSYCHIC_MORTAL = range(6)
NO_FNP = 7


@dataclass(frozen=True, eq=False)
class CompiledPlan:
    """Flat arrays for one attacking unit's batches against one target unit.

    Attributes
    ----------
    batch
        ``int64[B, BATCH_COLUMNS]``: dice, abilities and flags per batch (see the column
        constants of this module).
    rolls
        ``int64[B, 4, 7]``: hit and wound outcome and re-roll tables by D6 face.
    saves
        ``int64[B, G, 2, 7]``: per target group, whether each save face lets damage through
        and whether the defender re-rolls it.
    damage_maps
        ``int64[B, 2, Dmax + 1]``: the final damage of a raw damage roll, for normal damage
        and for [DEVASTATING WOUNDS] mortal wounds.
    damage_pmfs
        ``float64[B, Dmax + 1]``: the law of the raw damage roll (the index of
        ``damage_maps``): the D characteristic, after any Damage re-roll, plus a random
        [MELTA X].
    groups
        ``int64[G, 6]``: models, W, FNP and mortal-wound FNP per target group (7 = none),
        and the same two against psychic attacks.
    hazard_rolls, hazard_mortals
        Hazard rolls the attacking unit makes afterwards, and mortal wounds per failed roll.
    hazard_fail_max
        A hazard roll fails on this face or lower: 2 in 11e (06.03), 1 in 10e ([HAZARDOUS]
        final text).
    dw_at_unit_end
        1 when [DEVASTATING WOUNDS] mortal wounds wait for the end of all batches.
    dw_spill
        1 when [DEVASTATING WOUNDS] mortal wounds spill from model to model (10e launch
        text); 0 when each critical wound damages one model at most.
    count_cdfs
        Binomial CDF tables the Monte Carlo kernel samples outcome counts from.
    shortcuts
        Per batch, which sampling shortcuts are exact for it (see :func:`batch_shortcuts`).
    use_counts
        2: every exact shortcut; 1: one count per roll (hit, wound, save) only; 0: every die
        rolled one at a time. All three are the same law; the tests compare them.
    """

    batch: np.ndarray
    rolls: np.ndarray
    saves: np.ndarray
    damage_maps: np.ndarray
    groups: np.ndarray
    hazard_rolls: int
    hazard_mortals: int
    dw_at_unit_end: int
    labels: tuple[str, ...]
    count_cdfs: np.ndarray = None  # float64[B, COUNT_TABLES, N + 1, N + 1], see count_tables()
    shortcuts: np.ndarray = None   # int64[B, SHORTCUT_COLUMNS], see batch_shortcuts()
    use_counts: int = 2
    hazard_fail_max: int = 2
    dw_spill: int = 0
    edition: int = 11
    damage_pmfs: np.ndarray = None  # float64[B, Dmax + 1], see raw_damage_pmf()
    command_reroll: int = 0         # COMMAND_CODES; the kernel then rolls every die

    @property
    def count_limit(self) -> int:
        return self.count_cdfs.shape[2] - 1

    @property
    def n_batches(self) -> int:
        return self.batch.shape[0]

    @property
    def total_models(self) -> int:
        return int(self.groups[:, G_MODELS].sum())

    @property
    def total_wounds(self) -> int:
        return int((self.groups[:, G_MODELS] * self.groups[:, G_WOUNDS]).sum())

    @property
    def max_hazard_mortals(self) -> int:
        return self.hazard_rolls * self.hazard_mortals

    def max_dice(self, b: int) -> int:
        """Most attack dice batch ``b`` can gather."""
        return max_attack_dice(self.batch[b])


def max_attack_dice(row) -> int:
    """Most attack dice a batch row can gather (every A and [RAPID FIRE] die at its top)."""
    per_weapon = (row[A_COUNT] * row[A_SIDES] + row[A_CONST] + row[BONUS_DICE]
                  + row[BONUS_COUNT] * row[BONUS_SIDES]
                  + row[RF_COUNT] * row[RF_SIDES] + row[RF_CONST])
    return int(row[N_WEAPONS] * per_weapon)


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
    damage_pmf: np.ndarray = None   # float64[Dmax + 1]: law of the raw damage roll
    blast_dice: tuple[int, int] = (0, 0)   # random [BLAST X]: (dice, sides) per five models
    cleave_dice: tuple[int, int] = (0, 0)  # random [CLEAVE X], the same way


def compile_plan(weapons: Sequence[Weapon], target: TargetProfile,
                 situation: Situation = Situation(), modifiers: Modifiers = Modifiers(),
                 rules: Rules = Rules(), attacker_monster_vehicle: bool = False,
                 sampling_tables: bool = True) -> CompiledPlan:
    """Settle every rule that does not depend on the dice.

    Parameters
    ----------
    weapons
        One :class:`Weapon` per batch, in the order they are resolved.
    target
        The target unit (identical models).
    situation, modifiers, rules
        See :mod:`mathhammer.wh40k.profiles`.
    attacker_monster_vehicle
        Every model of the attacking unit is a MONSTER or VEHICLE: a failed hazard roll
        then costs 3 mortal wounds instead of 1 (06.03).
    sampling_tables
        Build the binomial tables the Monte Carlo kernel samples counts from (the exact
        engine does not need them).

    Raises
    ------
    OptionError
        For a situation that the weapons cannot be in (melee weapons in overwatch, indirect
        fire from a weapon without [INDIRECT FIRE]...).
    """
    if not weapons:
        raise OptionError("give at least one weapon line")
    fnp_all, fnp_mortal = feel_no_pain(target, modifiers)
    fnp_psychic = psychic_feel_no_pain(target, modifiers)
    groups = np.array([[target.count, target.wounds, fnp_all, fnp_mortal,
                        min(fnp_all, fnp_psychic), min(fnp_mortal, fnp_psychic)]],
                      dtype=np.int64)
    defender = Defender.of_target(target, modifiers)
    tables = [batch_tables(w, defender, situation, modifiers, rules) for w in weapons]
    rows = []
    for w, t in zip(weapons, tables):
        row = list(t.row)
        fives = target.count // 5
        row[BONUS_DICE] = (t.blast_per_five + t.cleave_per_five) * fives
        row[BONUS_COUNT] = (t.blast_dice[0] + t.cleave_dice[0]) * fives
        row[BONUS_SIDES] = max(t.blast_dice[1], t.cleave_dice[1]) if row[BONUS_COUNT] else 0
        rows.append(row)
    width = max(t.damage_maps.shape[1] for t in tables)
    damage_maps = np.ones((len(weapons), 2, width), dtype=np.int64)
    damage_pmfs = np.zeros((len(weapons), width))
    for b, t in enumerate(tables):
        damage_maps[b, :, : t.damage_maps.shape[1]] = t.damage_maps
        damage_pmfs[b, : len(t.damage_pmf)] = t.damage_pmf
    rolls = np.array([np.concatenate([t.hit, t.wound[0]]) for t in tables], dtype=np.int64)
    hazard_rolls = sum(w.count for w in weapons if w.has(ab.HAZARDOUS))
    saves = np.array([t.saves for t in tables], dtype=np.int64)
    if sampling_tables:
        cdfs, shortcuts = _sampling_tables(rows, rolls, saves, damage_maps, damage_pmfs, groups)
    else:
        cdfs = np.ones((len(rows), COUNT_TABLES, 1, 1))
        shortcuts = np.zeros((len(rows), SHORTCUT_COLUMNS), dtype=np.int64)
    return CompiledPlan(
        batch=np.array(rows, dtype=np.int64),
        rolls=rolls,
        saves=saves,
        damage_maps=damage_maps,
        groups=groups,
        hazard_rolls=hazard_rolls,
        hazard_mortals=hazard_mortals(rules, attacker_monster_vehicle),
        dw_at_unit_end=dw_at_unit_end(rules),
        labels=tuple(str(w) for w in weapons),
        count_cdfs=cdfs,
        shortcuts=shortcuts,
        hazard_fail_max=1 if rules.edition == 10 else 2,
        dw_spill=dw_spill(rules),
        edition=rules.edition,
        damage_pmfs=damage_pmfs,
        command_reroll=command_reroll_code(weapons, rows, situation, modifiers),
        use_counts=0 if modifiers.command_reroll != "none" else 2,
    )


def _sampling_tables(rows: list[list[int]], rolls: np.ndarray, saves: np.ndarray,
                     damage_maps: np.ndarray, damage_pmfs: np.ndarray, groups: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The count-sampling CDFs and exact shortcuts of every batch (see :func:`count_tables`)."""
    width = damage_maps.shape[2]
    n_max = table_size(rows)
    if any(row[D_TABLE] for row in rows):
        n_max = max(n_max, width - 1)   # the DAMAGE_ROLLS tables hold every raw value
    shortcuts = batch_shortcuts(rows, groups, n_max)
    cdfs = count_tables(rows, rolls, saves, damage_maps, groups, shortcuts, n_max)
    for b, row in enumerate(rows):
        if row[D_TABLE]:
            cdfs[b, DAMAGE_ROLLS, 0, :width] = np.minimum(np.cumsum(damage_pmfs[b]), 1.0)
    return cdfs, shortcuts


def command_reroll_code(weapons: Sequence[Weapon], rows: list[list[int]],
                        situation: Situation, modifiers: Modifiers) -> int:
    """The kernel's code for the Command Re-roll, refusing the cases it cannot model.

    With it the kernel rolls every die one at a time (the counts it otherwise samples do not
    say which roll failed first)."""
    return checked_command_code(modifiers.command_reroll, situation, rows,
                                [str(w) for w in weapons],
                                lambda kind: f"--command-reroll {kind}")


def checked_command_code(kind: str, situation: Situation, rows: Sequence[Sequence[int]],
                         names: Sequence[str], setting: Callable[[str], str]) -> int:
    """:data:`COMMAND_CODES` of ``kind``, refusing a hit re-roll in overwatch or indirect
    shooting (unless no batch rolls to hit: [TORRENT]) and a Damage re-roll on a Damage roll
    already re-rolled or with a random [MELTA X]. ``setting(kind)`` names the option in the
    message (the command-line flag, or the scenario activation's key)."""
    if kind == "hit" and (situation.overwatch or situation.indirect) \
            and any(not row[AUTO_HIT] for row in rows):
        raise OptionError(f"{setting(kind)}: hit rolls cannot be re-rolled in overwatch or "
                          "indirect shooting; choose wound, damage or save")
    if kind == "damage":
        for row, name in zip(rows, names):
            if row[D_TABLE]:
                raise UnsupportedError(
                    f"{setting(kind)} with a Damage roll already re-rolled (reroll_damage) "
                    f"or a random [MELTA X] ('{name}') is not modelled; drop one of the two")
    return COMMAND_CODES[kind]


def hazard_mortals(rules: Rules, all_monster_vehicle: bool) -> int:
    """Mortal wounds per failed hazard roll: 1, or 3 for an all-MONSTER/VEHICLE unit (06.03);
    always 3 under the 10th-edition [HAZARDOUS] final text."""
    return 3 if rules.edition == 10 or all_monster_vehicle else 1


def dw_at_unit_end(rules: Rules) -> int:
    """1 when [DEVASTATING WOUNDS] mortal wounds wait for the end of the unit's attacks: the
    ``dw_timing`` switch in 11e, always under the 10th-edition final text."""
    if rules.edition == 10 and rules.devastating_text == "final":
        return 1
    return int(rules.dw_timing == "unit_end")


def dw_spill(rules: Rules) -> int:
    """1 when [DEVASTATING WOUNDS] mortal wounds spill over (10th-edition launch text)."""
    return int(rules.edition == 10 and rules.devastating_text == "launch")


# Rows of CompiledPlan.count_cdfs[b]: binomial CDFs for sampling outcome counts.
(CRIT_HITS, HITS_OF_REST, CRIT_WOUNDS, WOUNDS_OF_REST, FAILED_SAVES, KILLS_OF_FAILED,
 KILLS_OF_ATTACKS, ATTACK_DICE, DEV_OF_DICE, FAILED_OF_REST, WOUND_DICE) = np.arange(
    11, dtype=np.int64)
# Row 0 of DAMAGE_ROLLS: the CDF of the raw damage roll of a D_TABLE batch.
DAMAGE_ROLLS = np.int64(11)
COUNT_TABLES = 12

# Columns of CompiledPlan.shortcuts[b].
FIXED_DICE, CHAIN, DICE_TABLE = range(3)
SHORTCUT_COLUMNS = 3
# Values of the CHAIN column.
NO_CHAIN, CHAIN_KILLS, CHAIN_SPLIT, CHAIN_SUSTAINED = range(4)


def table_size(rows: list[list[int]]) -> int:
    """Largest pool the count tables cover: every batch's most attack dice times
    (1 + most [SUSTAINED HITS] extra hits), at most ``TABLE_LIMIT``."""
    from mathhammer.core.sampling import TABLE_LIMIT

    sizes = [max_attack_dice(row) * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1)
                                     + row[SUS_CONST]) for row in rows]
    return int(min(TABLE_LIMIT, max(sizes + [1])))


def count_tables(rows: list[list[int]], rolls: np.ndarray, saves: np.ndarray,
                 damage_maps: np.ndarray, groups: np.ndarray, shortcuts: np.ndarray,
                 n_max: int) -> np.ndarray:
    """CDF tables so the kernel can sample outcome counts instead of rolling dice.

    Per batch, for one count per roll (``use_counts`` 1): critical hits among n dice,
    ordinary hits among the rest, the same for wound rolls, failed saves against the first
    allocation group, and, for one-wound models hit by fixed damage through Feel No Pain,
    models killed among n failed saves (each kills unless Feel No Pain stops every point of
    its damage). Each die's probabilities come from the same per-face tables (re-rolls
    included) the dice-by-dice path reads.

    Only for the shortcuts a batch takes (``shortcuts``, see :func:`batch_shortcuts`):
    ``DEV_OF_DICE`` and ``FAILED_OF_REST``, mortal wounds among n dice and failed saves among
    the rest (:func:`split_probabilities`; thinning a binomial by independent per-die steps
    is again binomial); ``KILLS_OF_ATTACKS``, models killed among n attack dice; row 0 of
    ``ATTACK_DICE``, the CDF of the batch's total attack dice (:func:`attack_dice_pmf`); row
    0 of ``WOUND_DICE``, the CDF of the wound dice of fixed [SUSTAINED HITS X].
    """
    from mathhammer.core.sampling import binomial_cdf_rows

    def ratio(a: float, rest: float) -> float:
        return a / rest if rest > 1e-15 else 0.0

    def cdf(pmf: np.ndarray) -> np.ndarray:
        return np.minimum(np.cumsum(pmf), 1.0)

    out = np.ones((len(rows), COUNT_TABLES, n_max + 1, n_max + 1))
    for b, row in enumerate(rows):
        _, hit, crit = outcome_probabilities(rolls[b, HIT_CLASS], rolls[b, HIT_REROLL])
        _, wound, crit_wound = outcome_probabilities(rolls[b, WOUND_CLASS],
                                                     rolls[b, WOUND_REROLL])
        faces = face_probabilities(saves[b, 0, SAVE_REROLL])
        failed = float(faces[saves[b, 0, SAVE_FAILS] == 1].sum())
        for index, p in ((CRIT_HITS, crit), (HITS_OF_REST, ratio(hit, 1.0 - crit)),
                         (CRIT_WOUNDS, crit_wound),
                         (WOUNDS_OF_REST, ratio(wound, 1.0 - crit_wound)),
                         (FAILED_SAVES, failed)):
            out[b, index] = binomial_cdf_rows(p, n_max)
        killed = 0.0
        fnp = groups[0, row[FNP_COLUMN]]
        if groups[0, G_WOUNDS] == 1 and row[D_COUNT] == 0 and fnp < NO_FNP:
            damage = int(damage_maps[b, NORMAL_DAMAGE, row[D_CONST]])
            killed = 1.0 - ((NO_FNP - fnp) / 6.0) ** damage
            out[b, KILLS_OF_FAILED] = binomial_cdf_rows(killed, n_max)
        chain = shortcuts[b, CHAIN]
        dev, rest = split_probabilities(row, hit, crit, wound, crit_wound, failed)
        if chain == CHAIN_KILLS:
            out[b, KILLS_OF_ATTACKS] = binomial_cdf_rows(rest * killed, n_max)
        if chain in (CHAIN_SPLIT, CHAIN_SUSTAINED):
            if row[DEVASTATING]:
                out[b, DEV_OF_DICE] = binomial_cdf_rows(dev, n_max)
            out[b, FAILED_OF_REST] = binomial_cdf_rows(ratio(rest, 1.0 - dev), n_max)
        if shortcuts[b, DICE_TABLE]:
            totals = attack_dice_pmf(row)
            out[b, ATTACK_DICE, 0, : len(totals)] = cdf(totals)
        if chain == CHAIN_SUSTAINED:
            # Wound dice per attack die: 0, 1 or 1 + X.
            per_die = np.zeros(2 + row[SUS_CONST])
            per_die[0], per_die[1], per_die[-1] = 1.0 - hit - crit, hit, crit
            wound_dice = np.array([1.0])
            for _ in range(shortcuts[b, FIXED_DICE]):
                wound_dice = np.convolve(wound_dice, per_die)
            out[b, WOUND_DICE, 0, : len(wound_dice)] = cdf(wound_dice)
    return out


def split_probabilities(row: list[int], hit: float, crit: float, wound: float,
                        crit_wound: float, failed: float) -> tuple[float, float]:
    """Per die: P(it becomes a [DEVASTATING WOUNDS] mortal wound), P(it becomes a failed save).

    For ``CHAIN_SPLIT`` and ``CHAIN_KILLS`` the die is an attack die: [LETHAL HITS] turns a
    critical hit into an automatic wound that must be saved (never a critical wound); under
    [TORRENT] it hits automatically. For ``CHAIN_SUSTAINED`` the die is a wound die (hits
    and critical hits already counted), so the hit roll drops out.
    """
    devastating = bool(row[DEVASTATING])
    dev_wound = crit_wound if devastating else 0.0
    saved_wound = wound + (0.0 if devastating else crit_wound)
    if row[SUS_COUNT] or row[SUS_CONST] or row[AUTO_HIT]:
        return dev_wound, saved_wound * failed
    if row[LETHAL]:
        return hit * dev_wound, (crit + hit * saved_wound) * failed
    return (hit + crit) * dev_wound, (hit + crit) * saved_wound * failed


def dice_pmf(count: int, sides: int, constant: int) -> np.ndarray:
    """Dense pmf of a dice expression, indexed by value."""
    if count == 0 and sides == 0:
        pmf = np.zeros(constant + 1)
        pmf[constant] = 1.0
        return pmf
    return np.array(DiceExpr(count, sides, constant).probabilities())


def reroll_below(dice: DiceExpr, policy: str) -> int:
    """Results of ``dice`` below this are re-rolled under a Damage or Attacks re-roll
    ``policy`` (0: none). ``ones``: the lowest result (every die a 1); ``low``: a result
    below the expression's average (1-3 on a D6, 2-6 on 2D6).

    >>> reroll_below(DiceExpr.parse("D6+1"), "low"), reroll_below(DiceExpr.parse("D3"), "ones")
    (5, 2)
    """
    if policy == "none" or not dice.is_random:
        return 0
    if policy == "ones":
        return dice.minimum + 1
    return math.ceil(dice.mean)


def rerolled_pmf(pmf: np.ndarray, below: int) -> np.ndarray:
    """The law of a roll with law ``pmf`` (indexed by value) re-rolled once when below
    ``below``: the second result stands."""
    if below <= 0:
        return pmf
    out = np.array(pmf, dtype=float)
    p_reroll = float(out[:below].sum())
    out[:below] = 0.0
    return out + p_reroll * np.asarray(pmf, dtype=float)


#: Most values the raw index of a re-rolled Damage roll, or of a Damage roll with a random
#: [MELTA X] (D roll and X roll together), may take: the Monte Carlo kernel keeps a sampling
#: table that size per batch.
MAX_DAMAGE_ROLL_INDEX = 1_000


def check_damage_roll_size(weapon: Weapon, largest_index: int) -> None:
    """Refuse a Damage roll whose raw index (see :func:`raw_damage_pmf`) could not be tabled."""
    if largest_index > MAX_DAMAGE_ROLL_INDEX:
        raise OptionError(f"'{weapon}': its Damage roll with a random [MELTA X] or a Damage "
                          f"re-roll has {largest_index + 1:,} outcomes to table (limit "
                          f"{MAX_DAMAGE_ROLL_INDEX + 1:,}): use smaller dice for D or X")


def raw_damage_pmf(weapon: Weapon, melta: DiceExpr, policy: str) -> np.ndarray:
    """Law of the raw damage index: the D roll (re-rolled under ``policy``); with a random
    [MELTA X], the pair (D roll d, X roll x) as the index ``d + (Dmax + 1) * x``, because
    10e halves D before adding X (a fixed X is added by the damage map instead)."""
    d = weapon.damage
    pmf = rerolled_pmf(dice_pmf(d.count, d.sides, d.constant), reroll_below(d, policy))
    if melta.is_random:
        x_pmf = dice_pmf(melta.count, melta.sides, melta.constant)
        pmf = np.outer(x_pmf, np.pad(pmf, (0, d.maximum + 1 - len(pmf)))).ravel()
    return pmf


def attack_dice_pmf(row: Sequence[int]) -> np.ndarray:
    """Exact pmf of a batch's total attack dice: every weapon's A (re-rolled below
    ``A_REROLL_BELOW``), bonus and [RAPID FIRE] dice.

    Used by the exact engine and for the Monte Carlo kernel's ``ATTACK_DICE`` tables."""
    per_weapon = rerolled_pmf(dice_pmf(row[A_COUNT], row[A_SIDES], row[A_CONST]),
                              row[A_REROLL_BELOW])
    per_weapon = np.concatenate([np.zeros(row[BONUS_DICE]), per_weapon])
    if row[BONUS_COUNT]:
        per_weapon = np.convolve(per_weapon, dice_pmf(row[BONUS_COUNT], row[BONUS_SIDES], 0))
    if row[RF_COUNT] or row[RF_CONST]:
        per_weapon = np.convolve(per_weapon, dice_pmf(row[RF_COUNT], row[RF_SIDES],
                                                      row[RF_CONST]))
    total = np.array([1.0])
    for _ in range(row[N_WEAPONS]):
        total = np.convolve(total, per_weapon)
    return total


def batch_shortcuts(rows: list[list[int]], groups: np.ndarray, limit: int) -> np.ndarray:
    """Which exact shortcuts the Monte Carlo kernel may take, per batch.

    ``FIXED_DICE``: the batch's attack dice when no A or [RAPID FIRE] characteristic is
    random, else -1. ``DICE_TABLE``: 1 when random attack dice are drawn from the
    ``ATTACK_DICE`` CDF (the total fits the tables). ``CHAIN``, only against one allocation
    group (every save uses the same table, so the order of the save dice cannot matter):

    - ``CHAIN_SPLIT``: no [SUSTAINED HITS]. Each attack die independently becomes a
      [DEVASTATING WOUNDS] mortal wound, a failed save or nothing, so two binomial draws
      replace the hit, wound and save rolls (one draw without [DEVASTATING WOUNDS]).
    - ``CHAIN_KILLS``: the same when no critical hit or wound matters and the target has
      one-wound models, fixed damage and Feel No Pain: models killed is one binomial draw.
    - ``CHAIN_SUSTAINED``: [SUSTAINED HITS X] with X fixed, no [LETHAL HITS], no [TORRENT]
      and fixed attacks: the number of wound dice (0, 1 or 1 + X per attack die) is drawn
      from its exact distribution, then the wound dice split as in ``CHAIN_SPLIT``.
    """
    out = np.zeros((len(rows), SHORTCUT_COLUMNS), dtype=np.int64)
    one_group = groups.shape[0] == 1
    for b, row in enumerate(rows):
        random_dice = row[A_COUNT] > 0 or row[RF_COUNT] > 0 or row[BONUS_COUNT] > 0
        out[b, FIXED_DICE] = -1 if random_dice else row[N_WEAPONS] * (
            row[A_CONST] + row[BONUS_DICE] + row[RF_CONST])
        if random_dice:
            out[b, DICE_TABLE] = int(max_attack_dice(row) <= limit)
        if not one_group:
            continue
        sustained = row[SUS_COUNT] > 0 or row[SUS_CONST] > 0
        if not sustained:
            crit_free = not row[LETHAL] and not row[DEVASTATING]
            fnp_kills = (groups[0, G_WOUNDS] == 1 and row[D_COUNT] == 0
                         and groups[0, row[FNP_COLUMN]] < NO_FNP)
            out[b, CHAIN] = CHAIN_KILLS if crit_free and fnp_kills else CHAIN_SPLIT
        elif row[SUS_COUNT] == 0 and not row[LETHAL] and not row[AUTO_HIT]:
            most = (1 + row[SUS_CONST]) * out[b, FIXED_DICE]
            if 0 <= most <= limit:
                out[b, CHAIN] = CHAIN_SUSTAINED
    return out


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

    def active(name: str) -> Ability | None:
        return _best(weapon.active(name, keywords))

    # Attack dice (24.05, 24.06, 24.30): per weapon, from the target at Select Targets.
    blast = active(ab.BLAST)
    cleave = active(ab.CLEAVE)
    rapid = active(ab.RAPID_FIRE) if (situation.half_range and ranged) else None
    rf = rapid.value if rapid is not None else DiceExpr.fixed(0)
    overwatch = situation.overwatch and ranged
    auto_hit = weapon.auto_hits and not (overwatch and not rules.torrent_in_snap)
    hit = _hit_table(weapon, defender, situation, modifiers, rules, active)
    wound_tables = _wound_tables(weapon, defender, situation, modifiers, rules, active)
    save_tables = _save_tables(weapon, defender, situation, modifiers, rules, active)
    melta = active(ab.MELTA) if (situation.half_range and not weapon.melee) else None
    melta_x = melta.value if melta is not None and melta.value is not None else \
        DiceExpr.fixed(melta.number if melta is not None else 0)
    damage_pmf = raw_damage_pmf(weapon, melta_x, modifiers.reroll_damage)
    check_damage_roll_size(weapon, len(damage_pmf) - 1)
    maps = _damage_maps(weapon, defender, melta_x, modifiers, rules, len(damage_pmf) - 1)

    sustained = active(ab.SUSTAINED_HITS)
    sus = sustained.value if sustained is not None else DiceExpr.fixed(0)
    devastating = active(ab.DEVASTATING_WOUNDS) is not None
    first_wound, first_save = wound_tables[0], save_tables[0]
    psychic = active(ab.PSYCHIC) is not None
    if psychic:   # the best Feel No Pain that applies, per wound
        defender = replace(defender, fnp=min(defender.fnp, defender.fnp_psychic),
                           fnp_mortal=min(defender.fnp_mortal, defender.fnp_psychic))
    lethal = (active(ab.LETHAL_HITS) is not None and not auto_hit
              and (rules.edition == 10  # mandatory in 10e
                   or _take_lethal(rules, first_wound[0], first_wound[1], first_save[0],
                                   first_save[1], maps, damage_pmf, devastating, defender)))
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
    hit_class = np.zeros(7, dtype=np.int64)
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
        hit_reroll[:] = 0  # 10.07, 15.09: hit re-rolls are not allowed (no such ban in 10e)
    return np.stack([hit_class, hit_reroll])


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
                  modifiers: Modifiers, rules: Rules, active) -> list[np.ndarray]:
    """Wound roll (05.02): one ``[outcome, re-roll mask]`` table per toughness the unit may
    present."""
    strength = max(1, weapon.strength + modifiers.strength_mod)
    lance = active(ab.LANCE) is not None and situation.charged
    wound_mod = _cap(modifiers.wound_mod + (1 if lance else 0), rules)
    crit_wound = modifiers.crit_wounds
    for anti in weapon.active(ab.ANTI, defender.keywords):
        crit_wound = min(crit_wound, anti.threshold)
    twin = active(ab.TWIN_LINKED) is not None
    tables = []
    for toughness in defender.toughness_values:
        need = wound_threshold(strength, toughness)
        wound_class = np.zeros(7, dtype=np.int64)
        for face in range(2, 7):
            if face >= crit_wound:
                wound_class[face] = CRITICAL
            elif face + wound_mod >= need:
                wound_class[face] = SUCCESS
        wound_reroll = _reroll_mask(modifiers.reroll_wounds, wound_class)
        if twin:
            wound_reroll |= _reroll_mask("failed", wound_class)
        tables.append(np.stack([wound_class, wound_reroll]))
    return tables


def _save_tables(weapon: Weapon, defender: Defender, situation: Situation,
                 modifiers: Modifiers, rules: Rules, active) -> list[np.ndarray]:
    """Saving throw (05.04), one ``[fails, re-roll mask]`` table per allocation group; AP never
    touches the invulnerable save; an unmodified 1 always fails."""
    ranged = not weapon.melee
    ap = min(0, weapon.ap - modifiers.ap_mod)
    tenth = rules.edition == 10
    cover = tenth and _has_cover(weapon, defender, situation, rules, active)
    tables = []
    for save, invuln, scope in defender.groups:
        armour_mod, invuln_mod = save_modifiers(save, ap, cover, modifiers.save_mod, tenth)
        has_invuln = invuln is not None and scope in ("all", "ranged" if ranged else "melee")
        save_fails = np.ones(7, dtype=np.int64)
        for face in range(2, 7):
            saved = face + armour_mod + ap >= save or (has_invuln and face + invuln_mod >= invuln)
            save_fails[face] = int(not saved)
        save_reroll = np.zeros(7, dtype=np.int64)
        if defender.reroll_saves == "ones":
            save_reroll[1] = 1
        elif defender.reroll_saves == "failed":
            save_reroll[:] = save_fails
        elif defender.reroll_saves == "all":
            save_reroll[1:] = 1
        tables.append(np.stack([save_fails, save_reroll]))
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
    maps = np.ones((2, raw_max + 1), dtype=np.int64)
    for index in range(raw_max + 1):
        raw, melta_roll = index % d_span, index // d_span
        damage_add = fixed_add + melta_roll
        maps[NORMAL_DAMAGE, index] = final_damage(raw, damage_add, defender.damage_halved,
                                                  defender.damage_minus, rules.edition)
        if defender_vs_mortals:
            maps[MORTAL_DAMAGE, index] = maps[NORMAL_DAMAGE, index]
        else:
            maps[MORTAL_DAMAGE, index] = final_damage(raw, damage_add, False, 0, rules.edition)
    return maps


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


def _reroll_mask(policy: str, classes: np.ndarray) -> np.ndarray:
    mask = np.zeros(7, dtype=np.int64)
    for face in range(1, 7):
        if policy == "ones":
            mask[face] = face == 1
        elif policy == "failed":
            mask[face] = classes[face] == FAIL
        elif policy == "noncrit":
            mask[face] = classes[face] != CRITICAL
        elif policy == "all":
            mask[face] = 1
    return mask


def face_probabilities(reroll: np.ndarray) -> np.ndarray:
    """P(final face = f) for f = 1..6 (index 0 unused) under a per-face re-roll mask."""
    p_reroll = reroll[1:7].sum() / 6.0
    probs = np.zeros(7)
    for face in range(1, 7):
        probs[face] = (0.0 if reroll[face] else 1.0 / 6.0) + p_reroll / 6.0
    return probs


def outcome_probabilities(classes: np.ndarray, reroll: np.ndarray) -> np.ndarray:
    """P(fail), P(success), P(critical) of one roll under a table and its re-roll mask."""
    faces = face_probabilities(reroll)
    out = np.zeros(3)
    for face in range(1, 7):
        out[classes[face]] += faces[face]
    return out


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
                          "edition; drop --indirect or the weapon")


def check_situation(weapon: Weapon, situation: Situation) -> None:
    """Refuse situations a weapon cannot be in."""
    label = weapon.name or str(weapon)
    if situation.advanced and not weapon.melee and not weapon.has(ab.ASSAULT):
        raise OptionError(f"'{label}' has no [ASSAULT]: after advancing, a unit shoots only "
                          "[ASSAULT] weapons (10.05); drop --advanced or the weapon")
    if weapon.melee and situation.overwatch:
        raise OptionError(f"'{label}' is a melee weapon: overwatch is snap shooting with ranged "
                          "weapons; drop --overwatch or the melee line")
    if situation.indirect and not weapon.melee and not weapon.has(ab.INDIRECT_FIRE):
        raise OptionError(f"'{label}' has no [INDIRECT FIRE]: only such weapons can shoot "
                          "indirectly; drop --indirect or add the ability")
    if situation.indirect and weapon.melee:
        raise OptionError(f"'{label}' is a melee weapon and cannot shoot indirectly")
