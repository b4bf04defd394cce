"""A whole shooting phase of one army list against another, as an optimisation.

:func:`shooting_phase` makes the scenario: every unit of the list with a ranged weapon
shoots (its default weapons, 04.01), each weapon at any unit of the other list;
:func:`optimise_shooting` finds who should shoot what (by default the points destroyed).
The other list's units keep their statlines, invulnerable saves, Feel No Pain, keywords,
attached Leaders and damage reduction; roll penalties it imposes (Stealth and the like)
are not applied here (the roster analysis applies them per cell). Situation, modifier and
rule options (``half_range=True``...) apply to every activation.

Buffs (issue 35) apply as ``Roster.against`` applies them (:mod:`mathhammer.wh40k.roster.buffed`):
the list's buffs and what its Leaders grant (:meth:`Roster.granted_buffs`) put their abilities
and characteristics on the weapon lines of the units they pick and their roll modifiers,
re-rolls and critical thresholds on those units' activations; the other list's buffs
(``other_buffs``) give its units their Feel No Pain, invulnerable saves and damage reduction.
Their benefit of cover and ``+1 to save`` go on every activation, since an activation's
situation holds for whichever target it picks: when they protect some of the other list's
units but not all they are refused in one line.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mathhammer.errors import MathhammerError, OptionError
from mathhammer.wh40k.optimise.api import SEARCH_KEYWORDS, optimise
from mathhammer.wh40k.optimise.settings import DEFAULT_OPTIMISE_TRIALS, SearchOptions
from mathhammer.wh40k.optimise.result import OptimiseResult
from mathhammer.wh40k.api import build_options
from mathhammer.wh40k.scenario.activations import Activation
from mathhammer.wh40k.scenario.model import OpenChoices, Scenario

#: Side names of the two lists in the scenario.
LIST_SIDE, ENEMY_SIDE = "list", "enemy"


def shooting_phase(army: Any, other: Any, *, edition: int | None = None,
                   options: dict[str, Any] | None = None, buffs: Any = None,
                   other_buffs: Any = None, buff_file: Any = None
                   ) -> tuple[Scenario, list[str]]:
    """The shooting phase of ``army`` against ``other`` (two :class:`~mathhammer.Roster`
    s) with every target left open, and notes on units left out. ``buffs`` (the list's),
    ``other_buffs`` (the other list's defensive ones) and ``buff_file`` as for
    :meth:`Roster.against <mathhammer.wh40k.roster.api.Roster.against>`; what the list's
    Leaders grant is applied with or without them.

    Raises
    ------
    OptionError
        When no unit of ``army`` can shoot or ``other`` has no unit to shoot at; a buff a
        list does not take, or the other list's cover or ``+1 to save`` for some of its
        units but not all (one line).
    """
    from mathhammer.wh40k.roster.analysis_options import AnalysisOptions
    from mathhammer.wh40k.roster.buffed import buffed, defended, list_buffs

    options = dict(options or {})
    if edition is not None:
        options["edition"] = edition
    options.setdefault("edition", army.edition)
    situation, modifiers, rules, _ = build_options(options)
    mine = list_buffs(buffs, buff_file) if buffs else ()
    other = defended(other, other_buffs, buff_file, situation) if other_buffs else other
    situation, modifiers = _unit_wide(other, situation, modifiers)
    granted = army.granted_buffs() if hasattr(army, "granted_buffs") else {}
    checked = AnalysisOptions(situation, modifiers, rules)
    if mine or any(granted.values()):
        army, checked = buffed(army, checked, mine, granted)
    ours = {u.name: u for u in army.units}
    theirs = {}
    for unit in other.targets:
        name = unit.name if unit.name not in ours else f"{unit.name} ({ENEMY_SIDE})"
        theirs[name] = dataclasses.replace(unit, name=name)
    if not theirs:
        raise OptionError(f"{other.source}: no unit of this list has a statline to shoot at")
    units = {**ours, **theirs}
    sides = {**{n: LIST_SIDE for n in ours}, **{n: ENEMY_SIDE for n in theirs}}
    targets = tuple(theirs)
    activations, notes = [], []
    for name, unit in ours.items():
        if not any(not w.melee for g in unit.groups for w in g.weapons):
            continue
        own = checked.for_cell(unit, (), "shooting").modifiers   # with its buffs' rolls
        activation = Activation("shooting", name, target=targets[0], situation=situation,
                                modifiers=own)
        try:  # a unit whose weapons cannot be selected (04.01) is left out, with the reason
            Scenario(units, (activation,), sides=sides, rules=rules,
                     open_choices=(OpenChoices(targets),))
        except MathhammerError as exc:
            notes.append(f"{name} left out: {exc}")
            continue
        activations.append(activation)
    if not activations:
        raise OptionError(f"{army.source}: no unit of this list has a ranged weapon to shoot")
    scenario = Scenario(units, tuple(activations), sides=sides, rules=rules,
                        open_choices=tuple(OpenChoices(targets) for _ in activations))
    return scenario, notes


def _unit_wide(other: Any, situation: Any, modifiers: Any) -> tuple[Any, Any]:
    """The situation and modifiers of every activation with the other list's buffs' benefit
    of cover and save modifier, which must then protect all its units alike."""
    extra = getattr(other, "extra", {})
    if not extra:
        return situation, modifiers
    wide = {repr(sorted(extra.get(u.name, {}).items())) for u in other.targets}
    if len(wide) > 1:
        some = next(iter(extra))
        raise OptionError(f"the other list's buffs give the benefit of cover or +1 to save to "
                          f"some of its units ({some}...) but not all: an activation's "
                          "situation holds for whichever target it picks, so this is not "
                          "applied to --optimise (give it to every unit)", token=some)
    given = extra[other.targets[0].name]
    if given.get("cover"):
        situation = dataclasses.replace(situation, cover=True)
    if given.get("save_mod"):
        modifiers = dataclasses.replace(modifiers,
                                        save_mod=modifiers.save_mod + int(given["save_mod"]))
    return situation, modifiers


def optimise_shooting(army: Any, other: Any, *, objective: str | None = None,
                      edition: int | None = None, split: bool = False,
                      trials: int = DEFAULT_OPTIMISE_TRIALS, seed: int = 1,
                      options: dict[str, Any] | None = None, buffs: Any = None,
                      other_buffs: Any = None, buff_file: Any = None, **settings: Any
                      ) -> OptimiseResult:
    """Who in ``army`` should shoot what in ``other``: the orders maximising ``objective``
    (default: expected points destroyed when ``other`` has points, else expected models
    destroyed) over the other list's units. ``split`` lets a model group's weapons split
    between targets (many more sets of orders); ``options`` are situation, modifier and rule
    options for every activation (as :func:`mathhammer.simulate` takes them); ``buffs``,
    ``other_buffs`` and ``buff_file`` as :func:`shooting_phase`; ``settings`` as
    :func:`~.api.optimise`."""
    scenario, notes = shooting_phase(army, other, edition=edition, options=options,
                                     buffs=buffs, other_buffs=other_buffs,
                                     buff_file=buff_file)
    if objective is None:
        priced = all(g.points is not None for u in other.targets for g in u.groups)
        objective = "expected_points_destroyed" if priced else "expected_models_destroyed"
    search = SearchOptions(split=split, **{k: settings.pop(k) for k in (
        *SEARCH_KEYWORDS, "max_orders") if k in settings})  # max_plans: SearchOptions warns
    result = optimise(scenario, objective, side=ENEMY_SIDE, trials=trials, seed=seed,
                      options=search, **settings)
    result.notes.extend(notes)
    return result
