"""Compile profiles, situation and modifiers into the flat arrays both engines read.

The rules a weapon's tables settle live in :mod:`.weapon_tables`, the column layout in
:mod:`.plan_columns`, the dice laws in :mod:`.dice_laws` and the Monte Carlo sampling
tables in :mod:`.sampling_tables`; this module stacks them into one :class:`CompiledPlan`.
The Monte Carlo kernel and the exact engine read the same plan, so a disagreement between
them points at one engine, never at two interpretations. The names of those modules stay
importable from here, where the engines and tests have always found them.

One weapon line is one batch of identical attacks (04.03.01), resolved in the order given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from mathhammer.core.sampling import draw_thresholds, guide_tables
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.dice_laws import max_attack_dice
from mathhammer.wh40k.plan_columns import (AUTO_HIT, BONUS_COUNT, BONUS_DICE, BONUS_SIDES, CHAIN,
                                           COMMAND_CODES, COUNT_TABLES, D_TABLE, DAMAGE_ROLLS,
                                           DEVASTATING, DICE_TABLE, FIXED_DICE, G_MODELS,
                                           G_WOUNDS, NO_CHAIN, SHORTCUT_COLUMNS, Sampling)
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation, TargetProfile, Weapon
from mathhammer.wh40k.sampling_tables import batch_shortcuts, count_tables, table_size
from mathhammer.wh40k.weapon_tables import Defender, batch_tables
# Every public name of the modules this one was split into, importable from here as before.
from mathhammer.wh40k.dice_laws import *  # noqa: E402,F401,F403
from mathhammer.wh40k.plan_columns import *  # noqa: E402,F401,F403
from mathhammer.wh40k.sampling_tables import *  # noqa: E402,F401,F403
from mathhammer.wh40k.weapon_tables import *  # noqa: E402,F401,F403


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
    weapons
        The weapon profile of each batch (:attr:`labels` writes them out).
    dw_spill
        1 when [DEVASTATING WOUNDS] mortal wounds spill from model to model (10e launch
        text); 0 when each critical wound damages one model at most.
    count_cdfs
        Binomial CDF tables the Monte Carlo kernel samples outcome counts from.
    shortcuts
        Per batch, which sampling shortcuts are exact for it (see :func:`batch_shortcuts`).
    use_counts
        How pools are resolved (:class:`~.plan_columns.Sampling`): every exact shortcut
        (the default), one count per roll (hit, wound, save), or every die one at a time.
    """

    batch: np.ndarray
    rolls: np.ndarray
    saves: np.ndarray
    damage_maps: np.ndarray
    groups: np.ndarray
    hazard_rolls: int
    hazard_mortals: int
    dw_at_unit_end: int
    weapons: tuple[Weapon, ...]
    count_cdfs: np.ndarray   # float64[B, COUNT_TABLES, N + 1, N + 1], see count_tables()
    shortcuts: np.ndarray    # int64[B, SHORTCUT_COLUMNS], see batch_shortcuts()
    damage_pmfs: np.ndarray  # float64[B, Dmax + 1], see raw_damage_pmf()
    use_counts: Sampling = Sampling.EVERY_SHORTCUT
    hazard_fail_max: int = 2
    dw_spill: int = 0
    edition: int = 11
    command_reroll: int = 0         # COMMAND_CODES; the kernel then rolls every die

    @property
    def labels(self) -> tuple[str, ...]:
        """Each batch's weapon line, as written by the profile."""
        return tuple(str(w) for w in self.weapons)

    @cached_property
    def count_thresholds(self) -> np.ndarray:
        """``int64``, the shape of :attr:`count_cdfs`: its entries as the integers the Monte
        Carlo kernel compares a draw's random bits with
        (:func:`~mathhammer.core.sampling.draw_thresholds`), built on first use."""
        return draw_thresholds(self.count_cdfs)

    @cached_property
    def count_guides(self) -> np.ndarray:
        """``uint8[B, COUNT_TABLES, N + 1, GUIDE_BUCKETS]``: where the Monte Carlo kernel's
        search of each row of :attr:`count_cdfs` starts
        (:func:`~mathhammer.core.sampling.guide_tables`), built on first use."""
        return guide_tables(self.count_cdfs)

    @property
    def chains_only(self) -> bool:
        """Whether every batch takes a chain shortcut (``CHAIN`` of :attr:`shortcuts`), its
        attack dice fixed within the tables or drawn from them, against one group with every
        shortcut allowed, no Command Re-roll and no [DEVASTATING WOUNDS] mortal wounds held
        to the end of the attacks: then the Monte Carlo kernel's short trial loop
        (``run_chain_chunks``) resolves the plan as the whole one would, bit for bit."""
        if (self.use_counts != Sampling.EVERY_SHORTCUT or self.command_reroll
                or self.groups.shape[0] != 1):
            return False
        if self.dw_at_unit_end and self.batch[:, DEVASTATING].any():
            return False
        fixed = self.shortcuts[:, FIXED_DICE]
        dice_known = np.where(fixed >= 0, fixed <= self.count_limit,
                              self.shortcuts[:, DICE_TABLE] == 1)
        return bool((dice_known & (self.shortcuts[:, CHAIN] != NO_CHAIN)).all())

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

    def kernel_arrays(self) -> KernelArrays:
        """What the Monte Carlo kernel reads, as one argument: copies of the tables (each
        thread gets its own) and the switches as int64."""
        return KernelArrays(
            batch=self.batch.copy(), shortcuts=self.shortcuts.copy(), rolls=self.rolls.copy(),
            saves=self.saves.copy(), damage_maps=self.damage_maps.copy(),
            groups=self.groups.copy(), thresholds=self.count_thresholds.copy(),
            guides=self.count_guides.copy(),
            hazard_rolls=int(self.hazard_rolls), hazard_mortals=int(self.hazard_mortals),
            hazard_fail_max=int(self.hazard_fail_max),
            dw_at_unit_end=int(self.dw_at_unit_end), dw_spill=int(self.dw_spill),
            use_counts=int(self.use_counts), command_reroll=int(self.command_reroll))


class KernelArrays(NamedTuple):
    """A :class:`CompiledPlan` as the Monte Carlo kernel takes it: one argument (numba
    passes a named tuple of arrays as it passes the arrays). Fields as in
    :class:`CompiledPlan` (``thresholds`` is its ``count_thresholds``, ``guides`` its
    ``count_guides``); built by :meth:`CompiledPlan.kernel_arrays`."""

    batch: np.ndarray
    shortcuts: np.ndarray
    rolls: np.ndarray
    saves: np.ndarray
    damage_maps: np.ndarray
    groups: np.ndarray
    thresholds: np.ndarray
    guides: np.ndarray
    hazard_rolls: int
    hazard_mortals: int
    hazard_fail_max: int
    dw_at_unit_end: int
    dw_spill: int
    use_counts: int
    command_reroll: int


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
    defender = Defender.of_target(target, modifiers)
    fnp_all, fnp_mortal, fnp_psychic = defender.fnp, defender.fnp_mortal, defender.fnp_psychic
    groups = np.array([[target.count, target.wounds, fnp_all, fnp_mortal,
                        min(fnp_all, fnp_psychic), min(fnp_mortal, fnp_psychic)]],
                      dtype=np.int64)
    tables = [batch_tables(w, defender, situation, modifiers, rules) for w in weapons]
    rows = []
    for w, t in zip(weapons, tables):
        row = list(t.row)
        fives = target.count // 5
        row[BONUS_DICE] = (t.blast_per_five + t.cleave_per_five) * fives
        row[BONUS_COUNT] = (t.blast_dice[0] + t.cleave_dice[0]) * fives
        row[BONUS_SIDES] = max(t.blast_dice[1], t.cleave_dice[1]) if row[BONUS_COUNT] else 0
        rows.append(row)
    if len(tables) == 1:   # one batch (the common question): its tables as they are
        damage_maps, damage_pmfs = tables[0].damage_maps[None], tables[0].damage_pmf[None]
        rolls = np.concatenate([tables[0].hit, tables[0].wound[0]])[None]
        saves = tables[0].saves[None]
    else:
        width = max(t.damage_maps.shape[1] for t in tables)
        damage_maps = np.ones((len(weapons), 2, width), dtype=np.int64)
        damage_pmfs = np.zeros((len(weapons), width))
        for b, t in enumerate(tables):
            damage_maps[b, :, : t.damage_maps.shape[1]] = t.damage_maps
            damage_pmfs[b, : len(t.damage_pmf)] = t.damage_pmf
        rolls = np.array([np.concatenate([t.hit, t.wound[0]]) for t in tables], dtype=np.int64)
        saves = np.array([t.saves for t in tables], dtype=np.int64)
    hazard_rolls = sum(w.count for w in weapons if w.has(ab.HAZARDOUS))
    if sampling_tables:
        mortals_at_once = not dw_at_unit_end(rules) and not dw_spill(rules)
        cdfs, shortcuts = _sampling_tables(rows, rolls, saves, damage_maps, damage_pmfs, groups,
                                           mortals_at_once)
    else:
        cdfs, shortcuts = (_NO_SAMPLING if len(rows) == 1 else
                           (np.ones((len(rows), COUNT_TABLES, 1, 1)),
                            np.zeros((len(rows), SHORTCUT_COLUMNS), dtype=np.int64)))
    return CompiledPlan(
        batch=np.array(rows, dtype=np.int64),
        rolls=rolls,
        saves=saves,
        damage_maps=damage_maps,
        groups=groups,
        hazard_rolls=hazard_rolls,
        hazard_mortals=hazard_mortals(rules, attacker_monster_vehicle),
        dw_at_unit_end=dw_at_unit_end(rules),
        weapons=tuple(weapons),
        count_cdfs=cdfs,
        shortcuts=shortcuts,
        hazard_fail_max=1 if rules.edition == 10 else 2,
        dw_spill=dw_spill(rules),
        edition=rules.edition,
        damage_pmfs=damage_pmfs,
        command_reroll=command_reroll_code(weapons, rows, situation, modifiers),
        use_counts=Sampling.EVERY_DIE if modifiers.command_reroll != "none"
        else Sampling.EVERY_SHORTCUT,
    )


def _read_only(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


#: The sampling tables of a one-batch plan without them (the exact engine's): placeholders
#: of the right rank, shared and read-only.
_NO_SAMPLING = (_read_only(np.ones((1, COUNT_TABLES, 1, 1))),
                _read_only(np.zeros((1, SHORTCUT_COLUMNS), dtype=np.int64)))


def _sampling_tables(rows: list[list[int]], rolls: np.ndarray, saves: np.ndarray,
                     damage_maps: np.ndarray, damage_pmfs: np.ndarray, groups: np.ndarray,
                     mortals_at_once: bool) -> tuple[np.ndarray, np.ndarray]:
    """The count-sampling CDFs and exact shortcuts of every batch (see :func:`count_tables`
    and :func:`batch_shortcuts`)."""
    width = damage_maps.shape[2]
    n_max = table_size(rows)
    if any(row[D_TABLE] for row in rows):
        n_max = max(n_max, width - 1)   # the DAMAGE_ROLLS tables hold every raw value
    shortcuts = batch_shortcuts(rows, groups, n_max, damage_maps, mortals_at_once)
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
    if modifiers.command_reroll == "none":
        return COMMAND_CODES["none"]
    return checked_command_code(modifiers.command_reroll, situation, rows,
                                [str(w) for w in weapons],
                                lambda kind: "{--command_reroll}")


def checked_command_code(kind: str, situation: Situation, rows: Sequence[Sequence[int]],
                         names: Sequence[str], setting: Callable[[str], str]) -> int:
    """:data:`COMMAND_CODES` of ``kind``, refusing a hit re-roll in overwatch or indirect
    shooting (unless no batch rolls to hit: [TORRENT]) and a Damage re-roll on a Damage roll
    already re-rolled or with a random [MELTA X]. ``setting(kind)`` names the option in the
    message (a ``{--command_reroll}`` slot for the interface's own words, or the scenario
    activation's key)."""
    options = {"command_reroll": kind}
    if kind == "damage_best":
        raise UnsupportedError(f"{setting(kind)} is found by the exact engine against one "
                               "statline of identical models (mathhammer exact, the "
                               "optimiser's exact evaluation), not by Monte Carlo or against "
                               "a unit of several statlines; here use damage",
                               options=options)
    if kind == "hit" and (situation.overwatch or situation.indirect) \
            and any(not row[AUTO_HIT] for row in rows):
        raise OptionError(f"{setting(kind)}: hit rolls cannot be re-rolled in overwatch or "
                          "indirect shooting; choose wound, damage or save", options=options)
    if kind == "damage":
        for row, name in zip(rows, names):
            if row[D_TABLE]:
                raise UnsupportedError(
                    f"{setting(kind)} with a Damage roll already re-rolled (reroll_damage) "
                    f"or a random [MELTA X] ('{name}') is not modelled; drop one of the two",
                    options=options)
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
