"""A whole shooting phase of one army list against another, as an optimisation.

:func:`shooting_phase` makes the scenario: every unit of the list with a ranged weapon
shoots (its default weapons, 04.01), each weapon at any unit of the other list;
:func:`optimise_shooting` finds who should shoot what (by default the points destroyed).
The other list's units keep their statlines, invulnerable saves, Feel No Pain, keywords,
attached Leaders and damage reduction; roll penalties it imposes (Stealth and the like)
are not applied here (the roster analysis applies them per cell). Situation, modifier and
rule options (``half_range=True``...) apply to every activation.
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
                   options: dict[str, Any] | None = None) -> tuple[Scenario, list[str]]:
    """The shooting phase of ``army`` against ``other`` (two :class:`~mathhammer.Roster`
    s) with every target left open, and notes on units left out.

    Raises
    ------
    OptionError
        When no unit of ``army`` can shoot or ``other`` has no unit to shoot at.
    """
    options = dict(options or {})
    if edition is not None:
        options["edition"] = edition
    options.setdefault("edition", army.edition)
    situation, modifiers, rules, _ = build_options(options)
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
        activation = Activation("shooting", name, target=targets[0], situation=situation,
                                modifiers=modifiers)
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


def optimise_shooting(army: Any, other: Any, *, objective: str | None = None,
                      edition: int | None = None, split: bool = False,
                      trials: int = DEFAULT_OPTIMISE_TRIALS, seed: int = 1,
                      options: dict[str, Any] | None = None, **settings: Any
                      ) -> OptimiseResult:
    """Who in ``army`` should shoot what in ``other``: the orders maximising ``objective``
    (default: expected points destroyed when ``other`` has points, else expected models
    destroyed) over the other list's units. ``split`` lets a model group's weapons split
    between targets (many more sets of orders); ``options`` are situation, modifier and rule
    options for every activation (as :func:`mathhammer.simulate` takes them); ``settings`` as
    :func:`~.api.optimise`."""
    scenario, notes = shooting_phase(army, other, edition=edition, options=options)
    if objective is None:
        priced = all(g.points is not None for u in other.targets for g in u.groups)
        objective = "expected_points_destroyed" if priced else "expected_models_destroyed"
    search = SearchOptions(split=split, **{k: settings.pop(k) for k in (
        *SEARCH_KEYWORDS, "max_orders") if k in settings})  # max_plans: SearchOptions warns
    result = optimise(scenario, objective, side=ENEMY_SIDE, trials=trials, seed=seed,
                      options=search, **settings)
    result.notes.extend(notes)
    return result
