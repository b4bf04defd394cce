"""Buffs on an army list (issue 35): ``Roster.compare(..., buffs=[...])`` and
``Roster.against(..., buffs=[...])``, and what each buff is worth on the list.

A buff (:mod:`mathhammer.wh40k.buffs`) applies to every unit of the attacking list:

- weapon abilities and characteristics (``[LETHAL HITS]``, ``+1 strength``...) go on the
  weapon lines of each model group its weapon scope picks (``to RANGED weapons``,
  ``to PISTOL weapons``), by :func:`~mathhammer.wh40k.buffs.apply_buffs`, as if typed there;
- roll modifiers, re-rolls and critical thresholds go on the options of each cell whose
  phase its weapon scope names (``to MELEE weapons``: the fight; no scope: both phases);
- ``to KEYWORD`` names the units that receive it: a list's model groups carry their
  keywords, so a buff ``to INFANTRY`` changes only the INFANTRY groups' lines (and the
  options of a unit whose every group has the keyword);
- a condition (``when stationary``) is read from the analysis's situation; a shooting-only
  one (stationary, half range, ...) holds in the shooting phase only.

Defensive grants (FNP, invulnerable save, ``-1 damage``, halved damage) protect a list's
units when they are the targets: ``Roster.against(other, other_buffs=[...])`` gives them to
the other list's units (each model group whose keywords ``to KEYWORD`` names), by
:func:`defended`; offensive grants there are left out (that list does not attack).

Not on a list yet, each refused in one line: a defensive grant among the attacking list's
buffs, a defensive grant scoped to weapons, a unit-wide one (``-1 damage``, cover, ``+1 to
save``) for some model groups of a unit, ``against KEYWORD`` on anything but an ability
(write ``[LETHAL HITS: VEHICLE]``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.wh40k.buff_attribution import (ALL_BUFFS, attribution_table,  # noqa: F401
                                                grid_attribution)  # ALL_BUFFS: said here too
from mathhammer.wh40k.buff_reader import DEFENSIVE_KINDS
from mathhammer.wh40k.buffs import (LINE_KINDS, Buff, apply_buffs, load_buff_file,
                                    resolve_buffs)
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Situation
from mathhammer.wh40k.roster.analysis_options import SHOOTING_ONLY
from mathhammer.wh40k.roster.analysis_options import AnalysisOptions as _Options
from mathhammer.wh40k.scenario.units import ModelGroup, Unit

__all__ = ["BuffedList", "DefendedList", "buffed", "defended", "list_buffs", "offensive",
           "per_unit_options", "unit_rolls", "with_buffs"]

#: A stand-in line for the options' grants (its phase is what a weapon scope reads).
_RANGED = parse_weapon('24" A1 BS4+ S4 AP0 D1')
_MELEE = parse_weapon("Melee A1 WS4+ S4 AP0 D1")
_ANY_TARGET = parse_target("T4 Sv4+ W1")


def list_buffs(buffs: Any, buff_file: str | Path | Mapping[str, Buff] | None = None
               ) -> tuple[Buff, ...]:
    """The buffs of a list's analysis: texts, :class:`Buff` objects or names of
    ``buff_file`` (a path of a TOML buff file, or its loaded mapping).

    Raises
    ------
    OptionError
        In one line: an unknown name, a grant a list does not take yet (defensive grants,
        ``against KEYWORD`` on anything but an ability), or a text that does not read
        (:class:`~mathhammer.errors.ProfileError`, naming the token).
    """
    library = load_buff_file(buff_file) if isinstance(buff_file, (str, Path)) else buff_file
    resolved = resolve_buffs(buffs, library)
    for buff in resolved:
        for grant in buff.grants:
            if grant.kind in DEFENSIVE_KINDS:
                raise OptionError(f"buff '{buff.name}': '{grant}' is a defensive grant: it "
                                  "protects this list's units, which are not the targets here; "
                                  "give it to the other list (other_buffs=, --buff-other)",
                                  token=buff.name)
            if buff.against and grant.kind != "ability":
                raise OptionError(f"buff '{buff.name}': '{grant}' against "
                                  f"{'/'.join(buff.against)} is not applied on a list yet "
                                  "(an ability takes it: [LETHAL HITS: VEHICLE])",
                                  token=buff.name)
    return resolved


def with_buffs(kwargs: dict[str, Any], buffs: Any, buff_file: Any) -> dict[str, Any]:
    """The keywords of :func:`~mathhammer.wh40k.roster.analyse.analyse` with ``buffs`` read
    (nothing added without buffs; a buff file alone is refused)."""
    if buffs is None or (isinstance(buffs, (list, tuple)) and not buffs):
        if buff_file is not None:
            raise OptionError("buff_file= names buffs for buffs=[...]; give buffs too",
                              token="buff_file")
        return kwargs
    return {**kwargs, "buffs": list_buffs(buffs, buff_file)}


@dataclasses.dataclass
class BuffedList:
    """A list with buffs on its units' weapon lines (what the analysis reads of a
    :class:`~mathhammer.wh40k.roster.api.Roster`)."""

    source: str
    faction: str
    edition: int
    points: float
    entries: Any
    units: Any
    attachments: Any
    roster: Any

    def defense_of(self, name: str) -> dict[str, int | bool]:
        """The unbuffed list's defensive rules of ``name``."""
        return dict(self.roster.defense_of(name))

    def entry_groups(self, name: str) -> tuple[ModelGroup, ...]:
        """The unbuffed list's model groups of the entry ``name``."""
        return tuple(self.roster.entry_groups(name))


@dataclasses.dataclass(frozen=True)
class _BuffedOptions(_Options):
    """The analysis's options plus the buffs' roll modifiers, re-rolls and critical
    thresholds, added cell by cell (phase and unit)."""

    buffs: tuple[Buff, ...] = ()
    per_unit: tuple[tuple[str, tuple[Buff, ...]], ...] = ()

    def for_cell(self, unit: Unit, defense: Iterable[tuple[str, Any]], phase: str) -> _Options:
        base = super().for_cell(unit, defense, phase)
        own = dict(self.per_unit).get(unit.name, ())
        mine = [b for b in self.buffs + own if _receives(b, unit.groups)]
        if not mine:
            return base
        line = _MELEE if phase == "fight" else _RANGED
        done = apply_buffs(mine, [line], _ANY_TARGET, base.situation, base.modifiers)
        return _Options(base.situation, done.modifiers, base.rules, base.monster_vehicle)


def buffed(roster: Any, options: _Options, buffs: Sequence[Buff],
           per_unit: Mapping[str, Sequence[Buff]] | None = None) -> tuple[BuffedList, _Options]:
    """``roster`` with the buffs' weapon grants on its units' lines, and ``options`` that add
    their roll modifiers, re-rolls and critical thresholds to each cell (see the module);
    ``per_unit`` adds buffs to the units it names (what their Leaders grant)."""
    situation = options.situation
    per_unit = {k: tuple(v) for k, v in (per_unit or {}).items()}
    units = tuple(_buffed_unit(u, _lines(list(buffs) + list(per_unit.get(u.name, ()))),
                               situation) for u in roster.units)
    rolls = _rolls(buffs)
    for buff in rolls + tuple(b for v in per_unit.values() for b in _rolls(v)):
        if buff.weapons not in (None, "MELEE", "RANGED"):
            raise OptionError(f"buff '{buff.name}': a roll grant to {buff.weapons} weapons "
                              "holds for whole activations, and a unit's activation has "
                              "other weapons too; not applied on a list (to MELEE or "
                              "RANGED weapons, or no scope, are)", token=buff.name)
    for buff in rolls:
        for unit in units:
            has = [_receives(buff, [g]) for g in unit.groups]
            if any(has) and not all(has):
                raise OptionError(
                    f"buff '{buff.name}': '{buff.grants[0]}' holds for whole activations, and "
                    f"to {'/'.join(buff.recipients)} picks {sum(has)} of {len(has)} model "
                    f"groups of {unit.name}; not applied on a list", token=buff.name)
    out = BuffedList(roster.source, roster.faction, roster.edition, roster.points,
                     roster.entries, units, roster.attachments, roster)
    fields = {f.name: getattr(options, f.name) for f in dataclasses.fields(_Options)}
    return out, _BuffedOptions(**fields, buffs=rolls, per_unit=tuple(
        (name, _rolls(found)) for name, found in per_unit.items()))


def per_unit_options(options: _Options, per_unit: Mapping[str, Sequence[Buff]]) -> _Options:
    """``options`` that add to the cells of each unit ``per_unit`` names the roll modifiers,
    re-rolls and critical thresholds of its buffs (as :func:`buffed`'s options do); the
    meta matrix's chunks give each pairing its own."""
    if not any(per_unit.values()):
        return options
    fields = {f.name: getattr(options, f.name) for f in dataclasses.fields(_Options)}
    return _BuffedOptions(**fields, per_unit=tuple((name, _rolls(found))
                                                   for name, found in per_unit.items()))


def unit_rolls(options: _Options, name: str) -> tuple[Buff, ...]:
    """The roll grants that ``options`` (from :func:`buffed`) add to the cells of the unit
    ``name``: the list's and its own (its Leader's)."""
    if not isinstance(options, _BuffedOptions):
        return ()
    return options.buffs + dict(options.per_unit).get(name, ())


def offensive(buffs: Sequence[Buff]) -> tuple[Buff, ...]:
    """The buffs' grants to the attacks (defensive grants left out; buffs with none
    dropped).

    Examples
    --------
    >>> from mathhammer.wh40k.buffs import resolve_buffs
    >>> [str(g) for b in offensive(resolve_buffs(["Tough: FNP 5+, +1 to hit"])) for g in b.grants]
    ['+1 to hit']
    """
    return tuple(b for b in (dataclasses.replace(
        b, grants=tuple(g for g in b.grants if g.kind not in DEFENSIVE_KINDS)) for b in buffs)
        if b.grants)


_ROLL_KINDS = frozenset({"hit", "wound", "reroll", "crit_hits", "crit_wounds"})


def _lines(buffs: Sequence[Buff]) -> list[Buff]:
    """The buffs' abilities and characteristics (those that have any)."""
    return [b for b in (_only(b, LINE_KINDS) for b in buffs) if b.grants]


def _rolls(buffs: Sequence[Buff]) -> tuple[Buff, ...]:
    """The buffs' roll modifiers, re-rolls and critical thresholds (those that have any)."""
    return tuple(b for b in (_only(b, _ROLL_KINDS) for b in buffs) if b.grants)


def _only(buff: Buff, kinds: frozenset[str]) -> Buff:
    return dataclasses.replace(buff, grants=tuple(g for g in buff.grants if g.kind in kinds))


def _receives(buff: Buff, groups: Sequence[ModelGroup]) -> bool:
    """Whether every group (a unit) or the group holds a keyword of ``to KEYWORD``."""
    if not buff.recipients:
        return True
    return all(any(k in g.profile.keywords for k in buff.recipients) for g in groups)


def _buffed_unit(unit: Unit, buffs: Sequence[Buff], situation: Situation) -> Unit:
    groups = []
    for group in unit.groups:
        mine = [_shooting_only(b) for b in buffs
                if b.active(situation) and _receives(b, [group])]
        weapons = []
        for carried in group.weapons:
            done = apply_buffs(mine, carried.profiles, _ANY_TARGET, situation, Modifiers())
            weapons.append(dataclasses.replace(carried, profiles=done.weapons))
        groups.append(dataclasses.replace(group, weapons=tuple(weapons)))
    return dataclasses.replace(unit, groups=tuple(groups))


def _shooting_only(buff: Buff) -> Buff:
    """A buff whose condition holds in the shooting phase only changes ranged lines."""
    if any(c in SHOOTING_ONLY for c in buff.conditions) and buff.weapons is None:
        return dataclasses.replace(buff, weapons="RANGED")
    return buff


# -- what each buff is worth on the list ------------------------------------------------------
#: The figures the attribution sums over the list's units.
LIST_METRICS = ("expected_damage", "expected_models_destroyed")


def list_attribution(roster: Any, targets: Any, buffs: Any, *, against: bool = False,
                     buff_file: Any = None, **kwargs: Any) -> Any:
    """What each buff is worth on a list: the analysis with every buff, then with each buff
    removed (and with none), each metric summed over the list's units per target and phase.

    Parameters
    ----------
    roster
        The attacking :class:`~mathhammer.wh40k.roster.api.Roster`.
    targets
        As for :meth:`Roster.compare`, or the other Roster with ``against=True``.
    buffs, buff_file
        As for :meth:`Roster.compare` (at least one buff).
    **kwargs
        The analysis's other keywords (``method``, ``trials``, ``seed``, options); every run
        uses them, so Monte Carlo cells share their seeds (common random numbers) and exact
        cells are exact in every run.

    Returns
    -------
    pandas.DataFrame
        One row per (buff, target, phase, metric): ``buff, target, phase, metric, cost,
        cost_unit, with_buffs, without_buff, gain, gain_per_cost, method`` with ``gain =
        with_buffs - without_buff`` and ``gain_per_cost = gain / cost`` (NaN without a
        cost); the rows of buff ``"(all buffs)"`` remove them all.
    """
    resolved = list_buffs(buffs, buff_file)
    if not resolved:
        raise OptionError("attribution needs at least one buff", token="buffs")
    if kwargs.get("keep_results"):
        raise OptionError("attribution takes no keep_results", token="keep_results")
    run = roster.against if against else roster.compare
    return grid_attribution(lambda subset: run(targets, buffs=list(subset), **kwargs),
                            resolved, ("target", "phase"), LIST_METRICS)


def list_attribution_text(frame: Any, metric: str = "expected_damage", digits: int = 2) -> str:
    """The frame of :func:`list_attribution` as a table: per phase and buff, the gain in
    ``metric`` (summed over the list's units) against each target and, with several, all of
    them; per point of cost, the gain against all the targets."""
    words = metric.replace("expected_", "").replace("_", " ")
    return attribution_table(frame, "phase", f"{words} summed over the list's units, with "
                             "every buff minus without it", metric, digits, " on the list")


# -- the other list's defensive buffs -----------------------------------------------------------
#: The defensive grants a list's targets take.
TARGET_KINDS = frozenset({"fnp", "invuln", "damage_minus", "damage_halved", "cover", "save"})


@dataclasses.dataclass
class DefendedList:
    """The other list of :meth:`Roster.against` with its buffs' defensive grants on its units
    (what the analysis reads of a list of targets)."""

    source: str
    entries: Any
    targets: list[Unit]
    roster: Any
    extra: dict[str, dict[str, int | bool]] = dataclasses.field(default_factory=dict)

    def defense_of(self, name: str) -> dict[str, int | bool]:
        """The unbuffed list's defensive rules of ``name``, with the buffs' benefit of cover
        (``cover``) and save modifier (``save_mod``) of that unit."""
        return {**self.roster.defense_of(name), **self.extra.get(name, {})}


def defended(other: Any, buffs: Any, buff_file: Any = None,
             situation: Situation | None = None) -> Any:
    """``other`` (a Roster) with the defensive grants of ``buffs`` on its target units: FNP
    and invulnerable saves on each model group ``to KEYWORD`` picks (the best of its own and
    the buff's); ``-N damage``, halved damage, the benefit of cover (against the shooting
    phase's attacks) and ``+1 to save`` on each unit whose every group it picks (the cells
    attacking that unit take them as ``--cover`` / ``save_mod`` given for it alone);
    ``other`` itself without buffs.

    Raises
    ------
    OptionError
        In one line: a defensive grant scoped to weapons, a unit-wide grant (``-N damage``,
        cover, ``+1 to save``...) for some groups of a unit but not all.
    """
    if buffs is None or (isinstance(buffs, (list, tuple)) and not buffs):
        return other
    library = load_buff_file(buff_file) if isinstance(buff_file, (str, Path)) else buff_file
    situation = situation or Situation()
    mine = []
    for buff in resolve_buffs(buffs, library):
        kept = _only(buff, TARGET_KINDS)
        if kept.grants and kept.weapons is not None:
            raise OptionError(f"buff '{buff.name}': a defensive grant to {kept.weapons} "
                              "weapons is not applied on a list yet", token=buff.name)
        if kept.grants:
            mine.append(kept)
    units, extra = [], {}
    for unit in other.targets:
        done, wide = _defended_unit(unit, mine, situation)
        units.append(done)
        if wide:
            extra[unit.name] = wide
    return DefendedList(other.source, other.entries, units, other, extra)


#: Keywords of the analysis that are not situation, modifier or rule options.
_ANALYSIS_KEYS = frozenset({"method", "trials", "seed", "profiles", "phases", "library",
                            "progress", "keep_results", "exact", "results_out", "buffs"})


def situation_of(kwargs: Mapping[str, Any]) -> Situation:
    """The situation of an analysis's keywords (what a defensive buff's condition reads)."""
    from mathhammer.wh40k import api

    options = {k: v for k, v in kwargs.items()
               if k not in _ANALYSIS_KEYS and not (k == "edition" and v is None)}
    return api.build_options(options)[0]


def _defended_unit(unit: Unit, buffs: Sequence[Buff], situation: Situation
                   ) -> tuple[Unit, dict[str, int | bool]]:
    """The unit with its groups' FNP and invulnerable saves and its damage reduction, and
    its unit-wide cover and save modifier (for the cells that attack it)."""
    groups, unit_wide = [], []
    for group in unit.groups:
        done = apply_buffs(buffs, [_RANGED], group.profile, situation, Modifiers())
        fnp = done.modifiers.fnp if done.modifiers.fnp is not None else done.target.fnp
        profile = dataclasses.replace(done.target, fnp=fnp)   # no FNP buff: keep its own
        groups.append(dataclasses.replace(group, profile=profile))
        unit_wide.append((done.modifiers.damage_minus, done.modifiers.damage_halved,
                          done.situation.cover and not situation.cover,
                          done.modifiers.save_mod))
    if len(set(unit_wide)) > 1:
        raise OptionError(f"a buff's -N damage, halved damage, cover or +1 to save picks some "
                          f"model groups of {unit.name} but not all (it holds for a unit); "
                          "not applied on a list", token=unit.name)
    minus, halved, cover, save = unit_wide[0]
    wide: dict[str, int | bool] = {**({"cover": True} if cover else {}),
                                   **({"save_mod": save} if save else {})}
    return dataclasses.replace(unit, groups=tuple(groups),
                               damage_minus=max(unit.damage_minus, minus),
                               damage_halved=unit.damage_halved or halved), wide
