"""Exact answers for many cells at once: comparison grids, sweeps and roster matrices.

:func:`solve_cells` answers every (weapons, target, options) cell with the same pmfs as
:func:`mathhammer.wh40k.api.exact` cell by cell, without its per-answer overhead:

- the options of each distinct setting are read once, each target profile once per edition;
- each cell's plan is compiled once (:func:`~mathhammer.wh40k.exact.compiled_plan`) and its
  hit/wound/save generating functions, damage laws and Markov steps come from the memoised
  tables of :mod:`mathhammer.wh40k.exact_tables`, so cells sharing a weapon's attack dice
  and roll tables, or a damage law and a unit, share them;
- no :class:`~mathhammer.core.result.Result` is built: an :class:`ExactCell` holds the pmfs
  and gives the headline figures (computed as a Result computes them), and builds the full
  Result only when asked (:meth:`ExactCell.result`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from mathhammer.core.result import EXACT, Distribution, Result
from mathhammer.errors import UnsupportedError
from mathhammer.wh40k import api, exact as engine, exact_command
from mathhammer.wh40k.profiles import TargetProfile, Weapon, field_values

__all__ = ["ExactCell", "exact_mean", "solve_cells"]


def exact_mean(pmf: np.ndarray) -> float:
    """The mean of an exact pmf exactly as :class:`~mathhammer.core.result.Distribution`
    computes it (clipped at 0, renormalised, trailing zeros trimmed)."""
    pmf = np.maximum(np.asarray(pmf, dtype=np.float64), 0.0)
    pmf = pmf / pmf.sum()
    nonzero = np.flatnonzero(pmf > 0)
    end = int(nonzero[-1]) + 1 if len(nonzero) else 1
    return float(np.dot(np.arange(end), pmf[:end]))


class ExactCell:
    """One cell's exact pmfs, with the methods of a :class:`Result` that a comparison frame
    reads (:meth:`mean`, :meth:`probability`, their standard errors, :attr:`outcomes`).

    Parameters
    ----------
    pmfs
        ``"damage"``, ``"models_destroyed"`` (and ``"attacker_mortal_wounds"``) pmfs from the
        exact engine.
    total_models
        Models in the target unit.
    hazard
        Whether a weapon is [HAZARDOUS] (the hazard outcome is then part of the answer).
    request
        The cell's weapons, target profile and option objects (situation, modifiers, rules,
        ...), to build the full :class:`Result`.
    """

    def __init__(self, pmfs: Mapping[str, np.ndarray], total_models: int, hazard: bool,
                 request: tuple[Sequence[Weapon], TargetProfile, tuple]) -> None:
        self.pmfs = pmfs
        self.outcomes = (("damage", "models_destroyed", "attacker_mortal_wounds") if hazard
                         else ("damage", "models_destroyed"))
        self._destroyed = float(pmfs["models_destroyed"][total_models])
        self._request = request
        self._result: Result | None = None

    def mean(self, outcome: str) -> float:
        """Expected value of ``outcome`` (as ``Result.mean``)."""
        return exact_mean(self.pmfs[outcome])

    def stderr(self, outcome: str) -> None:
        """None: an exact answer has no standard error."""
        return None

    def probability(self, event: str) -> float:
        """P(``event``); the only event is ``"unit_destroyed"``."""
        if event != "unit_destroyed":
            raise KeyError(event)
        return self._destroyed

    def probability_stderr(self, event: str) -> None:
        """None: an exact answer has no standard error."""
        return None

    def result(self) -> Result:
        """The full :class:`Result`, as :func:`mathhammer.wh40k.api.exact` gives it (built
        once, from these pmfs)."""
        if self._result is None:
            weapons, profile, setting = self._request
            distributions = {name: Distribution.from_pmf(self.pmfs[name])
                             for name in self.outcomes}
            inputs = {"weapons": [str(w) for w in weapons], "target": str(profile),
                      **{name: field_values(value) for name, value in
                         zip(("situation", "modifiers", "rules"), setting)}}
            self._result = Result(method=EXACT, distributions=distributions,
                                  probabilities={"unit_destroyed": self._destroyed},
                                  inputs=inputs, labels=api.LABELS)
        return self._result


def solve_cells(cells: Iterable[tuple[Sequence[Weapon], TargetProfile, dict[str, Any]]],
                step: Callable[[], None] | None = None,
                names: Sequence[str] | None = None) -> list[ExactCell]:
    """Every cell's exact answer, in order.

    Parameters
    ----------
    cells
        ``(weapons, target profile, options)`` per cell; options as for
        :func:`mathhammer.wh40k.api.exact`.
    step
        Called after each cell (a progress bar's update).
    names
        A name per cell (``"Lascannon against MEQ"``) that a refusal starts with.

    Raises
    ------
    UnsupportedError, OptionError
        As :func:`mathhammer.wh40k.api.exact` for the first cell that raises (an
        UnsupportedError names the cell).
    """
    built: dict[Any, tuple] = {}
    profiles: dict[tuple[int, int], TargetProfile] = {}
    out = []
    for i, (weapons, target, options) in enumerate(cells):
        key = _options_key(options)
        setting = built.get(key) if key is not None else None
        if setting is None:
            setting = api.build_options(options)
            if key is not None:
                built[key] = setting
        situation, modifiers, rules, monster_vehicle = setting
        profile_key = (id(target), rules.edition)
        profile = profiles.get(profile_key)
        if profile is None:
            profile = profiles[profile_key] = api.parse_target(target, rules.edition)
        try:
            plan = engine.compiled_plan(list(weapons), profile, situation, modifiers, rules,
                                        attacker_monster_vehicle=monster_vehicle)
            pmfs = (exact_command if plan.command_reroll else engine).solve(plan)
        except UnsupportedError as exc:
            if names is None:
                raise
            raise UnsupportedError(f"{names[i]}: {exc}") from None
        out.append(ExactCell(pmfs, plan.total_models, bool(plan.hazard_rolls),
                             (weapons, profile, setting)))
        if step is not None:
            step()
    return out


def _options_key(options: Mapping[str, Any]) -> tuple | None:
    """A hashable key of ``options`` (None when a value is unhashable)."""
    try:
        key = tuple(sorted((k, type(v), v) for k, v in options.items()))
        hash(key)
    except TypeError:
        return None
    return key
