"""Exact answers for many cells at once: comparison grids, sweeps and roster matrices.

:func:`solve_cells` answers every (weapons, target, options) cell with the same pmfs as
:func:`mathhammer.wh40k.api.exact` cell by cell (to 1e-12), without its per-answer overhead:

- the options of each distinct setting are read once, each target profile once per edition;
- at least :data:`MIN_BATCH_CELLS` one-line cells of one setting are solved together: each
  weapon compiled once per class of targets (:mod:`mathhammer.wh40k.exact_engine.cells`),
  then every cell's chain by numpy over the stacked cells
  (:mod:`mathhammer.wh40k.exact_engine.batches`);
- the other cells (several weapon lines, a Command Re-roll, a large unit, 10th-edition
  spilling [DEVASTATING WOUNDS], a small grid) are solved one by one: each plan compiled once
  (:func:`~mathhammer.wh40k.exact_engine.chains.compiled_plan`), its tables from the memoised
  ones of :mod:`mathhammer.wh40k.exact_engine.tables`; a refusal names its cell;
- no :class:`~mathhammer.core.result.Result` is built: the answers come back as
  :class:`ExactCells`, which gives every cell's headline figures at once (computed as a
  Result computes them) and a cell's :class:`ExactCell` (its pmfs) when asked, which builds
  the full Result only when asked in turn (:meth:`ExactCell.result`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

import numpy as np

from mathhammer.core.result import EXACT, Distribution, Result
from mathhammer.errors import UnsupportedError, within
from mathhammer.wh40k import api
from mathhammer.wh40k.exact_engine import chains as engine, command, policies
from mathhammer.wh40k.exact_engine.batches import SolvedTables, batchable, most_hits, solve_tables
from mathhammer.wh40k.exact_engine.cells import CellTables, cell_tables
from mathhammer.wh40k.profiles import TargetProfile, Weapon, field_values

__all__ = ["MIN_BATCH_CELLS", "ExactCell", "ExactCells", "exact_mean", "solve_cells"]


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
    means
        The pmfs' means when already known (as :func:`exact_mean` gives them).
    """

    def __init__(self, pmfs: Mapping[str, np.ndarray], total_models: int, hazard: bool,
                 request: tuple[Sequence[Weapon], TargetProfile, tuple],
                 means: Mapping[str, float] | None = None) -> None:
        self.pmfs = pmfs
        self._means = means
        self.outcomes = (("damage", "models_destroyed", "attacker_mortal_wounds") if hazard
                         else ("damage", "models_destroyed"))
        self._destroyed = float(pmfs["models_destroyed"][total_models])
        self.probabilities = {"unit_destroyed": self._destroyed}
        self._request = request
        self._result: Result | None = None

    def mean(self, outcome: str) -> float:
        """Expected value of ``outcome`` (as ``Result.mean``)."""
        if self._means is not None:
            return self._means[outcome]
        return exact_mean(self.pmfs[outcome])

    def figures(self) -> tuple[float, float, float, float | None]:
        """Mean damage, mean models destroyed, P(unit destroyed) and the mean hazard mortal
        wounds (None without a [HAZARDOUS] weapon): the figures of a comparison frame."""
        hazard = self.mean("attacker_mortal_wounds") if len(self.outcomes) == 3 else None
        return self.mean("damage"), self.mean("models_destroyed"), self._destroyed, hazard

    def headline(self, metrics: Mapping[str, tuple[str, str]]
                 ) -> list[tuple[str, float, float]]:
        """``(metric, value, nan)`` of each of ``metrics`` (``metric -> (kind, outcome or
        event)``) this cell has: :func:`mathhammer.core.game.headline` of its Result, read
        from the figures in hand."""
        damage, models, destroyed, hazard = self.figures()
        values = {"damage": damage, "models_destroyed": models,
                  "unit_destroyed": destroyed, "attacker_mortal_wounds": hazard}
        return [(metric, value, math.nan) for metric, (_, name) in metrics.items()
                if (value := values.get(name)) is not None]

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
                                  inputs=inputs, labels=api.LABELS, game=api.GAME.name)
        return self._result


def solve_cells(cells: Iterable[tuple[Sequence[Weapon], TargetProfile, Mapping[str, Any]]],
                step: Callable[[], None] | None = None,
                names: Sequence[str] | None = None) -> ExactCells:
    """Every cell's exact answer, in order.

    Cells of one weapon line against a unit of identical models are solved together
    (:mod:`mathhammer.wh40k.exact_engine.cells` and :mod:`mathhammer.wh40k.exact_engine.batches`);
    the others (several lines, a Command Re-roll, a large unit...) one by one.

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
    cells = list(cells)
    requests = _requests(cells)
    batched = _batched_tables(requests)
    alone: dict[int, ExactCell] = {}
    for i, (weapons, profile, setting) in enumerate(requests):
        if batched[i] is None:
            alone[i] = _solve_alone(weapons, profile, setting, names[i] if names else None)
            if step is not None:
                step()
    chosen = [i for i, tables in enumerate(batched) if tables is not None]
    solved = solve_tables([cast(CellTables, batched[i]) for i in chosen])
    if step is not None:
        for _ in chosen:
            step()
    return ExactCells(requests, alone, chosen, solved,
                      [cast(CellTables, batched[i]).hazard_rolls > 0 for i in chosen])


class ExactCells(Sequence[ExactCell]):
    """The answers of :func:`solve_cells`, in order: ``cells[i]`` is an :class:`ExactCell`
    (a batched cell's built when first asked), and :meth:`headlines` gives every cell's
    figures at once, as a comparison frame reads them."""

    def __init__(self, requests: Sequence[tuple[Sequence[Weapon], TargetProfile, tuple]],
                 alone: dict[int, ExactCell], chosen: list[int], solved: SolvedTables,
                 hazardous: list[bool]) -> None:
        self._requests, self._cells = requests, cast(list[ExactCell | None], [None] *
                                                      len(requests))
        for i, cell in alone.items():
            self._cells[i] = cell
        self._alone = list(alone)
        self._chosen, self._solved, self._hazardous = chosen, solved, hazardous
        self._slot = {i: j for j, i in enumerate(chosen)}

    def __len__(self) -> int:
        return len(self._cells)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        cell = self._cells[i]
        if cell is None:
            j = self._slot[i if i >= 0 else i + len(self)]
            pmfs, means = self._solved[j]
            cell = self._cells[i] = ExactCell(pmfs, int(self._solved.models[j]),
                                              self._hazardous[j], self._requests[i], means)
        return cell

    def headlines(self, metrics: Mapping[str, tuple[str, str]]
                  ) -> tuple[list[int], list[str], np.ndarray]:
        """Every cell's :meth:`ExactCell.headline` rows at once: the number of rows of each
        cell, each row's metric and each row's value (the same figures)."""
        n = len(self._cells)
        figures = np.full((4, n), np.nan)
        if self._chosen:
            solved = self._solved
            figures[:, self._chosen] = (solved.damage_mean, solved.killed_mean,
                                        solved.destroyed, solved.hazard_mean)
        for i in self._alone:
            damage, models, destroyed, hazard = cast(ExactCell, self._cells[i]).figures()
            figures[:, i] = (damage, models, destroyed, math.nan if hazard is None else hazard)
        rows = [(metric, _FIGURE_ROWS[name]) for metric, (_, name) in metrics.items()
                if name in _FIGURE_ROWS]
        values = figures[[row for _, row in rows]].T   # [cells, metrics]
        present = ~np.isnan(values)
        kept = present.any(axis=0)   # a metric no cell has (no [HAZARDOUS]): its column out
        if present[:, kept].all():   # every cell the same rows: the usual grid
            names = [metric for (metric, _), keep in zip(rows, kept.tolist()) if keep]
            return [len(names)] * n, names * n, values[:, kept].ravel()
        names_array = np.array([metric for metric, _ in rows], dtype=object)
        return (present.sum(axis=1).tolist(),
                np.broadcast_to(names_array, values.shape)[present].tolist(), values[present])


#: The row of :meth:`ExactCells.headlines`'s figures that holds each outcome or event.
_FIGURE_ROWS = {"damage": 0, "models_destroyed": 1, "unit_destroyed": 2,
                "attacker_mortal_wounds": 3}


def _requests(cells: Sequence[tuple[Sequence[Weapon], TargetProfile, Mapping[str, Any]]]
              ) -> list[tuple[Sequence[Weapon], TargetProfile, tuple]]:
    """Each cell's weapons, target profile (read for its edition) and option objects; the
    options of each distinct setting read once, each target once per edition."""
    built: dict[Any, tuple] = {}
    profiles: dict[tuple[int, int], TargetProfile] = {}
    out = []
    last: tuple[Any, tuple] = (None, ())
    setting: tuple | None
    for weapons, target, options in cells:
        if options is last[0]:   # one options dict shared by every cell of a grid
            setting = last[1]
        else:
            key = _options_key(options)
            setting = built.get(key) if key is not None else None
            if setting is None:
                setting = api.build_options(options)
                if key is not None:
                    built[key] = setting
            last = (options, setting)
        profile_key = (id(target), setting[2].edition)
        profile = profiles.get(profile_key)
        if profile is None:
            profile = profiles[profile_key] = api.parse_target(target, setting[2].edition)
        out.append((weapons, profile, setting))
    return out


#: Fewest cells of one setting solved as a batch: below this the batch's fixed cost (about
#: 0.2 ms of numpy calls) exceeds solving the cells one by one from memoised tables.
MIN_BATCH_CELLS = 6


def _batched_tables(requests: Sequence[tuple[Sequence[Weapon], TargetProfile, tuple]]
                    ) -> list[CellTables | None]:
    """Each cell's tables for the batched engine, or None for a cell solved alone."""
    by_setting: dict[int, list[int]] = {}
    for i, (_, _, setting) in enumerate(requests):
        by_setting.setdefault(id(setting), []).append(i)
    out: list[CellTables | None] = [None] * len(requests)
    for members in by_setting.values():
        if len(members) < MIN_BATCH_CELLS:
            continue
        setting = requests[members[0]][2]
        tables = cell_tables([requests[i][:2] for i in members], setting)
        hits: dict[int, tuple[int, int]] = {}   # a weapon's row is shared by its cells
        for i, cell in zip(members, tables):
            if cell is not None:
                known = hits.get(id(cell.row))
                if known is None:
                    known = hits[id(cell.row)] = most_hits(cell.row)
                if batchable(cell, known):
                    out[i] = cell
    return out


def _solve_alone(weapons: Sequence[Weapon], profile: TargetProfile, setting: tuple,
                 name: str | None) -> ExactCell:
    """One cell by the cell-by-cell engine (a refusal starts with ``name``)."""
    situation, modifiers, rules, monster_vehicle = setting
    best = modifiers.reroll_damage == "best" or modifiers.command_reroll == "damage_best"
    try:
        plan = engine.compiled_plan(list(weapons), profile, situation, replace(
            modifiers, reroll_damage="none", command_reroll="none") if best else modifiers,
            rules, attacker_monster_vehicle=monster_vehicle)
        if best:   # the state-dependent Damage re-roll (exact_engine.policies)
            pmfs = policies.solve_best(plan, modifiers.reroll_goal,
                                       command=modifiers.command_reroll != "none").pmfs
        else:
            pmfs = (command if plan.command_reroll else engine).solve(plan)
    except UnsupportedError as exc:
        if name is None:
            raise
        raise within(name, exc) from None
    return ExactCell(pmfs, plan.total_models, bool(plan.hazard_rolls),
                     (weapons, profile, setting))


def _options_key(options: Mapping[str, Any]) -> tuple | None:
    """A hashable key of ``options`` (None when a value is unhashable)."""
    try:
        key = tuple(sorted((k, type(v), v) for k, v in options.items()))
        hash(key)
    except TypeError:
        return None
    return key
