"""Fire orders → flat integer arrays shared by the exact engine and the numba kernels.

One row per declared weapon. Every probability is a number of faces out of six (a
*threshold*: a die succeeds when ``d6 <= threshold``), so the kernels sample symbol dice
exactly in law and the exact engine reads the same integers as fractions ``t/6``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mathhammer.core.inputs import whole_number
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.dust.profiles import (
    AIRCRAFT, HARD, INFANTRY, OPEN, SAVE_FACES, SOFT, SUCCESS_FACES, Rules, Target, Weapon,
)
from mathhammer.errors import OptionError

# Column layout of CompiledPlan.rows
N_DICE, THR, REROLL, KIND, SUB_N, SUB_THR, SUB_REROLL, DEPTH, EVADE, COVER, PER_POINT, \
    DAMAGE, DR, TARGET = range(14)
N_COLUMNS = 14

NORMAL, PHASER, LASER = 0, 1, 2
#: Laser generations the Monte Carlo kernel follows when the depth is unbounded. A chain
#: this long has probability (1/3)**64 < 1e-30 per die, far below anything a run can see.
UNBOUNDED_LASER_GENERATIONS = 64

HIT_FACES = 2  # the hit (or army) symbol: 2 faces of 6


@dataclass(frozen=True, eq=False)
class CompiledPlan:
    """Fire orders as arrays.

    Attributes
    ----------
    rows
        ``int64`` array ``(n_weapons, N_COLUMNS)``; see the column constants.
    targets
        The distinct targets, in order of first declaration.
    capacity
        Damage points each target can absorb.
    max_hits, max_damage
        Upper bounds of hits and of damage before saves, per target (histogram sizes).
    weapon_names
        Names of the declared weapons, row by row.
    """

    rows: np.ndarray
    targets: tuple[Target, ...]
    capacity: np.ndarray
    max_hits: np.ndarray
    max_damage: np.ndarray
    weapon_names: tuple[str, ...]

    @property
    def unbounded_laser(self) -> bool:
        return bool(np.any((self.rows[:, KIND] == LASER) & (self.rows[:, DEPTH] < 0)))


def cover_save_faces(target: Target, rules: Rules, ignores_cover: bool, sniper: bool) -> int:
    """Faces of six that save one hit, from cover (or the Dust 1947 infantry save)."""
    if rules.ruleset == "dust1947":
        if sniper:
            return 0
        if target.cover == OPEN:
            return 2 if target.unit_class == INFANTRY else 0
        if ignores_cover:
            return 2 if target.unit_class == INFANTRY else 0
        return 4 if target.unit_class == INFANTRY else 2
    if target.cover == OPEN or ignores_cover:
        return 0
    infantry = target.unit_class == INFANTRY
    if target.cover == SOFT:
        kind = target.soft_save or (rules.infantry_soft_save if infantry
                                    else rules.vehicle_soft_save)
    else:
        assert target.cover == HARD
        kind = target.hard_save or (rules.infantry_hard_save if infantry
                                    else rules.vehicle_hard_save)
    return SAVE_FACES[kind]


def compile_plan(orders: Sequence[tuple[Weapon, Target]], *, sustained: bool = False,
                 rules: Rules = Rules(), distance: int | None = None) -> CompiledPlan:
    """Check fire orders against the rules and lay them out as arrays.

    Parameters
    ----------
    orders
        ``[(weapon, target), ...]``, fixed before any die is rolled.
    sustained
        The attack is a sustained attack (failed dice rerolled once).
    rules
        Rule switches.
    distance
        Squares to every target, if range should be checked (line of sight is the
        caller's business).

    Raises
    ------
    OptionError
        A weapon cannot attack its target ('-' cell, out of range, aircraft without a
        sustained attack), or one weapon line is split across targets while
        ``rules.split_weapon_line`` is False.
    """
    if not orders:
        raise OptionError("the fire orders are empty: declare at least one weapon")
    if not isinstance(sustained, (bool, np.bool_)):
        raise OptionError(f"sustained must be True or False, not {sustained!r:.60}")
    targets: list[Target] = []
    index: dict[int, int] = {}
    aimed: dict[int, int] = {}
    rows = np.zeros((len(orders), N_COLUMNS), dtype=np.int64)
    names = []
    for i, (weapon, target) in enumerate(orders):
        key = id(target)
        if key not in index:
            index[key] = len(targets)
            targets.append(target)
        t = index[key]
        if not rules.split_weapon_line:
            previous = aimed.setdefault(id(weapon), t)
            if previous != t:
                raise OptionError(f"weapon {weapon.name!r} is declared against two targets; a "
                                  "weapon line fires at one target (set split_weapon_line=True "
                                  "to allow splitting its carriers)")
        rows[i] = compile_row(weapon, target, t, sustained, rules, distance)
        names.append(weapon.name)
    capacity = np.array([t.capacity for t in targets], dtype=np.int64)
    max_hits = np.zeros(len(targets), dtype=np.int64)
    max_damage = np.zeros(len(targets), dtype=np.int64)
    for row in rows:
        hits = _row_max_hits(row)
        max_hits[row[TARGET]] += hits
        max_damage[row[TARGET]] += hits * row[DAMAGE]
    return CompiledPlan(rows, tuple(targets), capacity, max_hits, max_damage, tuple(names))


def _row_max_hits(row: np.ndarray) -> int:
    n = int(row[N_DICE])
    if row[KIND] == PHASER:
        return n * int(row[SUB_N])
    if row[KIND] == LASER:
        depth = int(row[DEPTH]) if row[DEPTH] >= 0 else UNBOUNDED_LASER_GENERATIONS
        return n * (depth + 1)
    return n


def compile_row(weapon: Weapon, target: Target, t: int, sustained: bool, rules: Rules,
                distance: int | None) -> np.ndarray:
    """One declared weapon against one target as a kernel row (faces out of six per step).

    Parameters
    ----------
    weapon, target
        The weapon line with its carriers, and the target it is declared against.
    t
        The target's index in the plan (the row's ``TARGET`` column).
    sustained, rules, distance
        As in :func:`compile_plan`.

    Raises
    ------
    OptionError
        When the weapon cannot attack this target (a ``-`` cell, out of range, aircraft
        rules).
    """
    line = weapon.line
    where = f"weapon {weapon.name!r} against {target.name!r}"
    if target.unit_class == AIRCRAFT and target.armour > rules.aircraft_levels:
        raise OptionError(f"{target.name!r}: aircraft armour {target.armour} is above "
                          f"aircraft_levels={rules.aircraft_levels}")
    if target.hero_boxes and not rules.hero_joined:
        raise OptionError(f"{target.name!r} has a joined hero (HERO{target.hero_boxes}); "
                          "joined heroes are modelled only with hero_joined=True")
    cell = line.cell_for(target.unit_class, target.armour)
    if cell is None:
        raise OptionError(f"{where}: its line shows '-' for {target.unit_class} armour "
                          f"{target.armour}, so it cannot attack this target; leave it out")
    if distance is not None:
        distance = whole_number(distance, "distance (squares)", 0, MAX_NUMBER)
        if line.range is not None and distance > line.range:
            raise OptionError(f"{where}: target is {distance} squares away but the range is "
                              f"{line.range}")
    reroll = sustained
    if target.unit_class == AIRCRAFT:
        if rules.aircraft_needs_sustained and not sustained:
            raise OptionError(f"{where}: aircraft can be attacked only with a sustained attack "
                              "(use {--sustained}, or aircraft_needs_sustained=False)",
                              options={"sustained": True})
        if rules.aircraft_no_reroll:
            reroll = False
    if line.is_phaser and "LASER" in line.tags:
        raise OptionError(f"weapon {weapon.name!r} cannot be both a phaser and a laser")
    row = np.zeros(N_COLUMNS, dtype=np.int64)
    row[N_DICE] = cell.dice * weapon.carriers * weapon.multiplier + weapon.extra_dice
    row[THR] = SUCCESS_FACES[weapon.success_rule]
    row[REROLL] = int(reroll)
    if cell.phaser:
        row[KIND], row[SUB_N], row[SUB_THR] = PHASER, cell.phaser, HIT_FACES
    elif "LASER" in line.tags:
        row[KIND], row[SUB_THR] = LASER, HIT_FACES
        row[SUB_REROLL] = int(reroll and rules.laser_extra_rerolled)
        row[DEPTH] = -1 if rules.laser_chain_depth is None else rules.laser_chain_depth
    row[EVADE] = {"none": 0, "evade": 2, "improved": 4}[target.evade]
    row[COVER] = cover_save_faces(target, rules, line.ignores_cover, "SNIPER" in line.tags)
    row[PER_POINT] = int(rules.cover_save_per == "damage_point")
    row[DAMAGE] = cell.damage
    row[DR] = HIT_FACES if target.damage_resilient else 0
    row[TARGET] = t
    return row
