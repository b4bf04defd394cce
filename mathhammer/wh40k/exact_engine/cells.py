"""The compiled tables of many (weapon line, target) cells from a few shared compilations.

:func:`~mathhammer.wh40k.compile.compile_plan` settles one weapon against one target. In a
grid the same weapon meets several targets whose tables differ only in a few places: the
wound table by the target's T, the save table by its Sv and invulnerable save, the attack
dice by its size ([BLAST]). :func:`cell_tables` compiles each weapon once per *class* of
targets (:func:`defender_class`) against a :class:`~mathhammer.wh40k.weapon_tables.Defender`
that lists every toughness and every save of the class (the tables the compiler builds for a
unit of several statlines), then gives each cell its own rows of those tables: the same
tables ``compile_plan`` gives that cell alone (``tests/wh40k/exact_engine/test_batches.py``
compares them on generated grids).

A cell this cannot settle (several weapon lines, a Command Re-roll, a rule that raised an
error) is returned as None: the caller solves it the ordinary way, where any refusal is
raised with the cell's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.compile import (BONUS_COUNT, BONUS_DICE, BONUS_SIDES, FNP_COLUMN,
                                      FNP_MORTAL_COLUMN, MORTAL_DAMAGE, NORMAL_DAMAGE, Defender,
                                      batch_tables, dw_at_unit_end, dw_spill, feel_no_pain,
                                      hazard_mortals, psychic_feel_no_pain)
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation, TargetProfile, Weapon
from mathhammer.wh40k.weapon_tables import BatchTables

__all__ = ["CellTables", "cell_tables", "defender_class"]


class CellTables(NamedTuple):
    """What the batched exact engine reads of one (weapon line, target) cell.

    Attributes
    ----------
    row
        The batch row (``CompiledPlan.batch[0]``), [BLAST] dice included.
    tables, wound_row, save_row
        The weapon's :class:`~mathhammer.wh40k.weapon_tables.BatchTables` against the
        cell's class of targets (shared by its cells) and the cell's rows of its wound and
        save tables: see :attr:`hit`, :attr:`wound` and :attr:`save`.
    normal_damage, mortal_damage
        Pmfs (lists) of the final damage of an unsaved wound and of a [DEVASTATING WOUNDS] critical
        wound (the raw Damage roll's law through the damage maps).
    damage_max
        The largest final damage (as ``CompiledPlan.damage_maps.max()``).
    fnp, fnp_mortal
        Feel No Pain the batch's damage and its mortal wounds face (7: none).
    models, wounds
        The target unit.
    hazard_rolls, hazard_mortals, hazard_fail_max
        As :class:`~mathhammer.wh40k.compile.CompiledPlan`.
    spill, at_unit_end
        [DEVASTATING WOUNDS] mortal wounds spill over; they wait for the end of the attacks.
    """

    row: list[int]
    tables: BatchTables
    wound_row: int
    save_row: int
    normal_damage: list[float]
    mortal_damage: list[float]
    damage_max: int
    fnp: int
    fnp_mortal: int
    models: int
    wounds: int
    hazard_rolls: int
    hazard_mortals: int
    hazard_fail_max: int
    spill: bool
    at_unit_end: bool

    @property
    def hit(self) -> np.ndarray:
        """``int64[2, 7]``: hit outcome per face and re-roll (``CompiledPlan.rolls[0, :2]``)."""
        return self.tables.hit

    @property
    def wound(self) -> np.ndarray:
        """``int64[2, 7]``: wound outcome per face and re-roll (``CompiledPlan.rolls[0, 2:]``)."""
        return self.tables.wound[self.wound_row]

    @property
    def save(self) -> np.ndarray:
        """``int64[2, 7]``: save fails per face and re-roll (``CompiledPlan.saves[0, 0]``)."""
        return self.tables.saves[self.save_row]


#: ``CellTables(*fields)`` without the Python-level ``__new__`` a NamedTuple generates (one
#: call per cell of a grid).
_new_cell = tuple.__new__


def defender_class(weapon: Weapon, target: TargetProfile, modifiers: Modifiers,
                   rules: Rules) -> tuple:
    """The key of the targets that ``weapon``'s tables may share (one compilation each).

    A weapon's tables read the defender's T (wound table), saves (save table), Stealth (hit
    roll, cover) and the run's damage and save re-roll rules; its keywords only when an
    ability is scoped or is [ANTI-X]; the whole profile when [LETHAL HITS] is taken or
    declined by its expected value (that choice weighs the target's wounds and Feel No Pain).
    """
    whole, keyed = _reads_of(weapon, rules)
    return _class_key(whole, keyed, target)


def _reads_of(weapon: Weapon, rules: Rules) -> tuple[bool, bool]:
    """Whether ``weapon``'s tables read the whole target profile, and its keywords."""
    whole = rules.lethal_policy == "ev" and rules.edition != 10 and weapon.has(ab.LETHAL_HITS)
    return whole, any(a.scope or a.anti_keyword is not None for a in weapon.abilities)


def _class_key(whole: bool, keyed: bool, target: TargetProfile) -> tuple:
    if whole:
        return ("whole", target)
    return (target.keywords if keyed else None, target.has_stealth)


def _class_defender(targets: Sequence[TargetProfile], modifiers: Modifiers
                    ) -> tuple[Defender, dict[int, int], dict[tuple, int]]:
    """One defender listing every T and save of ``targets`` (which share a class), with the
    index of each T among its wound tables and of each save among its save tables."""
    toughness: dict[int, int] = {}
    saves: dict[tuple, int] = {}
    for target in targets:
        toughness.setdefault(target.toughness, len(toughness))
        saves.setdefault((target.save, target.invuln, target.invuln_scope), len(saves))
    first = targets[0]   # as Defender.of_target, with every T and save of the class
    fnp_all, fnp_mortal = feel_no_pain(first, modifiers)
    return (Defender(first.keywords, first.has_stealth, tuple(toughness), tuple(saves),
                     modifiers.damage_minus, modifiers.damage_halved, modifiers.reroll_saves,
                     fnp_all, fnp_mortal, first.wounds, psychic_feel_no_pain(first, modifiers)),
            toughness, saves)


def _damage_pmfs(tables) -> tuple[list[float], list[float], int]:
    """Final damage pmfs (normal, mortal) of a weapon's tables, and the largest damage (a
    few values: Python floats, cheaper than numpy calls)."""
    raw, maps = tables.damage_pmf.tolist(), tables.damage_maps.tolist()
    top = max(max(maps[NORMAL_DAMAGE]), max(maps[MORTAL_DAMAGE]))
    out = []
    for which in (NORMAL_DAMAGE, MORTAL_DAMAGE):
        pmf = [0.0] * (top + 1)
        for value, p in zip(maps[which], raw):
            if p > 0:
                pmf[value] += p
        out.append(pmf)
    return out[0], out[1], top


def cell_tables(cells: Sequence[tuple[Sequence[Weapon], TargetProfile]],
                setting: tuple[Situation, Modifiers, Rules, bool]) -> list[CellTables | None]:
    """Each cell's :class:`CellTables` under one setting (None for a cell to solve alone).

    Parameters
    ----------
    cells
        ``(weapon lines, target profile)`` per cell; only one-line cells are settled here.
    setting
        The situation, modifiers, rules and attacker MONSTER/VEHICLE switch of every cell.
    """
    situation, modifiers, rules, monster_vehicle = setting
    out: list[CellTables | None] = [None] * len(cells)
    if modifiers.command_reroll != "none" or modifiers.reroll_damage == "best":
        return out   # solved cell by cell
    classes: dict[tuple, list[int]] = {}
    reads: dict[int, tuple[bool, bool]] = {}
    class_keys: dict[tuple, tuple] = {}   # a target's class key per way of reading it
    for i, (weapons, target) in enumerate(cells):
        if len(weapons) == 1:
            weapon = weapons[0]
            read = reads.get(id(weapon))
            if read is None:
                read = reads[id(weapon)] = _reads_of(weapon, rules)
            target_key = class_keys.get((read, id(target)))
            if target_key is None:
                target_key = class_keys[read, id(target)] = _class_key(*read, target)
            members = classes.get((id(weapon), target_key))
            if members is None:
                classes[id(weapon), target_key] = [i]
            else:
                members.append(i)
    units: dict[int, list[int]] = {}
    mortals_per_fail, fail_max = (hazard_mortals(rules, monster_vehicle),
                                  1 if rules.edition == 10 else 2)
    spill, at_unit_end = bool(dw_spill(rules)), bool(dw_at_unit_end(rules))
    defenders: dict[tuple, tuple[Defender, list[tuple[int, int]]]] = {}
    for members in classes.values():
        weapon = cells[members[0]][0][0]
        targets = [cells[i][1] for i in members]
        # weapons of one class of the same targets share the defender and its table rows
        defender_key = tuple(map(id, targets))
        known = defenders.get(defender_key)
        if known is None:
            defender, toughness, saves = _class_defender(targets, modifiers)
            known = defenders[defender_key] = (defender, [
                (toughness[t.toughness], saves[(t.save, t.invuln, t.invuln_scope)])
                for t in targets])
        defender, places = known
        try:
            tables = batch_tables(weapon, defender, situation, modifiers, rules)
        except Exception:   # each cell then raises its own error, named, when solved alone
            continue
        normal, mortal, top = _damage_pmfs(tables)
        hazard = weapon.count if weapon.has(ab.HAZARDOUS) else 0
        blast = tables.blast_per_five + tables.cleave_per_five
        bonus = tables.blast_dice[0] + tables.cleave_dice[0]
        row: list[int] = tables.row
        fnp_column, fnp_mortal_column = row[FNP_COLUMN], row[FNP_MORTAL_COLUMN]
        for i, target, (wound_row, save_row) in zip(members, targets, places):
            unit = units.get(id(target))
            if unit is None:
                unit = units[id(target)] = _unit_groups(target, modifiers)
            if blast or bonus:   # [BLAST]/[CLEAVE] dice per five models of the target
                row = list(tables.row)
                fives = target.count // 5
                row[BONUS_DICE], row[BONUS_COUNT] = blast * fives, bonus * fives
                row[BONUS_SIDES] = (max(tables.blast_dice[1], tables.cleave_dice[1])
                                    if row[BONUS_COUNT] else 0)
            out[i] = _new_cell(CellTables, (
                row, tables, wound_row, save_row, normal, mortal,
                top, unit[fnp_column], unit[fnp_mortal_column], unit[0], unit[1], hazard,
                mortals_per_fail, fail_max, spill, at_unit_end))
    return out


def _unit_groups(target: TargetProfile, modifiers: Modifiers) -> list[int]:
    """The target's row of ``CompiledPlan.groups`` (models, W and its Feel No Pains)."""
    fnp_all, fnp_mortal = feel_no_pain(target, modifiers)
    psychic = psychic_feel_no_pain(target, modifiers)
    return [target.count, target.wounds, fnp_all, fnp_mortal, min(fnp_all, psychic),
            min(fnp_mortal, psychic)]
