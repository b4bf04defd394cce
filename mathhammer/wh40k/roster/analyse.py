"""Every unit of an army list against every target, in the shooting and the fight phase.

One cell is (attacking unit, target, phase). Its weapons follow 04.01 as the whole-unit
engine reads it (:func:`~mathhammer.wh40k.scenario.weapon_rules.weapon_slots`):

- shooting: every ranged weapon of every model; a model's [PISTOL] / [CLOSE-QUARTERS]
  weapons only when it has no other ranged weapon (MONSTERs and VEHICLEs use all); with
  ``advanced`` only [ASSAULT] weapons, with ``indirect`` only [INDIRECT FIRE] weapons;
- fight: each model's one melee weapon plus all its [EXTRA ATTACKS] weapons;
- where a model has several melee weapons, or a weapon several profiles, the one with the
  highest expected damage against that target (exact engine) is taken, or with
  ``profiles="first"`` the one listed first (the whole-unit engine's default). The choices
  made are in ``frame.attrs["choices"]``. The situation, modifier and rule options are
  split and checked once, when the analysis starts; each cell gets them as checked objects.

A target with one statline (a target line, a reference name, or a unit whose models all
share one profile) gives exactly the rows ``mh.compare`` gives for the same weapon lines:
exact wherever the exact engine covers the cell, every such cell of the matrix solved in one
:func:`~mathhammer.wh40k.exact_grid.solve_cells` pass, Monte Carlo elsewhere. A unit of several
statlines or with attached Leaders is a target for the whole-unit engine: unless
``method="monte-carlo"``, its one activation is solved by
:mod:`mathhammer.wh40k.exact_engine.mixed` ([PRECISION] and Command Re-rolls included) unless
that engine refuses it (too many states), else by :func:`mathhammer.run` (Monte Carlo).
The ``method`` column says which engine made each row, and ``frame.attrs["notes"]`` why a
cell asked to be exact ran Monte Carlo.

Cell ``i`` (attackers outermost, then targets, then phases) is seeded from
``SeedSequence(seed).spawn(n_cells)[i]`` (the whole-unit engine takes that child, the grid
the first 32-bit word it generates), so a cell's numbers do not depend on the other cells.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Iterable, Mapping
from functools import cached_property, lru_cache
from typing import Any, cast

import numpy as np
import pandas as pd

from mathhammer.core.comparison import Comparison, results_out_deprecated
from mathhammer.core.game import headline
from mathhammer.core.inputs import switch, texts
from mathhammer.core.progress import bar as progress_bar, check_progress
from mathhammer.core.result import Distribution, Result, binomial_stderr, seed_provenance
from mathhammer.core.signatures import (AUTO, EXACT, MONTE_CARLO, check_method,
                                        exact_as_method, old_spellings)
from mathhammer.core.trials import (DEFAULT_GRID_TRIALS, as_seed_sequence, check_seed,
                                    check_trials)
from mathhammer.errors import OptionError, UnsupportedError, within
from mathhammer.wh40k import api, comparisons as grid
from mathhammer.wh40k.profiles import TargetProfile, Weapon
from mathhammer.wh40k.scenario.units import (CarriedWeapon, ModelGroup, Unit,
                                             allocation_groups, declared_order)
from mathhammer.wh40k.scenario.weapon_rules import Choice, Slot, weapon_slots
from mathhammer.wh40k.roster.analysis_options import SHOOTING_ONLY as SHOOTING_ONLY
from mathhammer.wh40k.roster.analysis_options import AnalysisOptions as _Options
from mathhammer.wh40k.roster.convert import RosterLike


PHASES = ("shooting", "fight")
COLUMNS = ["attacker", "target", "phase", "metric", "value", "stderr", "method"]
PROFILE_CHOICES = ("best", "first")

@dataclasses.dataclass(frozen=True)
class _Target:
    label: str
    profile: TargetProfile | None  # one statline: the compare grid
    unit: Unit | None              # several statlines: the whole-unit engine
    defense: tuple[tuple[str, Any], ...] = ()  # the unit's damage_minus / damage_halved

    @cached_property   # read by every cell of the target
    def choice_profile(self) -> TargetProfile:
        """The profile weapon choices are judged against: the models attacked first."""
        if self.profile is not None:
            return self.profile
        unit = self.unit
        if unit is None:   # never: a target has one statline or a unit
            raise ValueError(f"target '{self.label}' has neither a profile nor a unit")
        groups = allocation_groups(unit)
        first = groups[declared_order(unit)[0]]
        index = first.parts[0][0]
        return unit.groups[index].profile.with_count(first.models)


@results_out_deprecated
@old_spellings(exact=functools.partial(exact_as_method, if_true=AUTO, if_none=AUTO))
def analyse(roster: RosterLike, targets: Any, *, method: str = AUTO,
            trials: int = DEFAULT_GRID_TRIALS, seed: int = 1, profiles: str = "best",
            phases: Iterable[str] = PHASES, library: Any = None,
            progress: bool | None = None, keep_results: bool = False, buffs: Any = None,
            **options: Any) -> pd.DataFrame | Comparison:
    """Every analysed unit of ``roster`` against every target, in each phase.

    Parameters
    ----------
    roster
        The attacking list.
    targets
        Target lines, reference names, :class:`TargetProfile` s or :class:`Unit` s (a list,
        one of them, or a dict by label).
    method
        ``"auto"`` (default): the exact engine wherever it covers a cell, Monte Carlo
        elsewhere (each such cell named with the reason in ``attrs["notes"]``);
        ``"exact"``: every cell exact, or an :class:`UnsupportedError` naming the first
        it does not cover; ``"monte-carlo"``: Monte Carlo throughout.
    trials, seed
        Monte Carlo trials per cell and the root seed.
    profiles
        ``"best"`` (the melee weapon / weapon profile with the highest expected damage
        against each target) or ``"first"`` (the one listed first).
    phases
        Any of ``"shooting"`` and ``"fight"``.
    library
        Reference-profile library for target names (default: the built-in one).
    progress
        A progress bar on stderr, one step per (unit, target, phase) cell, for an analysis
        longer than about 2 s: ``None`` (default) when stderr is a terminal or in a notebook,
        ``True``/``False`` to force it. It never changes the frame.
    keep_results
        Return a :class:`~mathhammer.core.comparison.Comparison`: the frame and each cell's
        :class:`~mathhammer.core.result.Result`, keyed ``(attacker, target, phase)`` (the
        whole-unit engine's for a target of several statlines; ``results_out=`` deprecated).
    **options
        Situation, modifier and rule options of :func:`mathhammer.simulate`; the
        shooting-only ones (half range, cover, indirect, overwatch, advanced, stationary)
        are dropped in the fight phase.

    Returns
    -------
    pandas.DataFrame or Comparison
        Columns ``attacker, target, phase, metric, value, stderr, method``; when any unit
        has points, every unit has ``damage_per_100pts`` and
        ``models_destroyed_per_100pts`` rows, with no value (NaN) for a unit of 0 points
        (tables show ``-``); ``attrs`` holds
        ``method`` (``exact``, ``monte-carlo`` or ``mixed``), ``trials``, ``seed``,
        ``edition``, ``notes`` and ``choices``.
    """
    if profiles not in PROFILE_CHOICES:
        raise OptionError(f"profiles='{profiles}' must be 'best' or 'first'")
    method, phases = check_method(method), tuple(texts(phases, "phases"))
    for phase in phases:
        if phase not in PHASES:
            raise OptionError(f"phase '{phase}' must be shooting or fight")
    if method != EXACT:
        trials = check_trials(trials)
    seed = check_seed(seed)
    check_progress(progress)
    edition = options.pop("edition", None) or roster.edition
    checked = _Options.build({**options, "edition": edition})
    granted = roster.granted_buffs() if hasattr(roster, "granted_buffs") else {}
    if buffs or granted:   # issue 35: buffs read by roster.buffed.with_buffs; Leaders' grants
        from mathhammer.wh40k.roster.buffed import buffed
        roster, checked = buffed(roster, checked, buffs or (), granted)
    target_list = _targets(targets, library)
    if not roster.units:
        raise OptionError(f"{roster.source}: no unit of this list has a statline to analyse")
    notes = [f"{e.name}: no statline in the file: it attacks, but is never a target"
             for e in roster.entries if not e.has_statline]
    if hasattr(targets, "targets") and hasattr(targets, "entries"):  # another Roster
        notes += [f"{e.name} ({targets.source}): no statline in the file: not a target"
                  for e in targets.entries if not e.has_statline]
    cells = [(u, t, p) for u in roster.units for t in target_list for p in phases]
    kept: dict | None = {} if switch(keep_results, "keep_results") else None
    run_cells = dict(cells=cells, seed=seed, trials=trials, profiles=profiles, options=checked,
                     kept=kept, progress=progress)
    exact = {AUTO: True, EXACT: "every", MONTE_CARLO: False}[method]
    try:
        frame, choices, monte_carlo = _run_cells(exact=exact, **run_cells)
    except _NotEveryCell as exc:
        raise UnsupportedError(f"the exact engine does not cover {exc}; method='auto' runs "
                               "Monte Carlo there") from None
    if frame is None:
        raise OptionError("no unit of the list has a weapon to use in "
                          f"{' or '.join(phases)}")
    out = _with_unpriced(frame[COLUMNS], roster.units)
    methods = set(out["method"])
    out.attrs.update(method=methods.pop() if len(methods) == 1 else "mixed",
                     trials=trials if (out["method"] == "monte-carlo").any() else None,
                     seed=seed_provenance(seed)[0],
                     edition=edition, notes=notes + monte_carlo, choices=choices)
    # what each per-100-points row was divided by, for tables and charts (issue 41)
    costs = {u.name: float(u.points) for u in roster.units if u.points}
    if costs:
        out.attrs["points"] = costs
    return out if kept is None else Comparison(out, kept)


class _NotEveryCell(Exception):
    """A cell the exact engine does not cover, met while trying every cell exactly."""


def _run_cells(cells, seed, trials, profiles, options, kept, progress, exact):
    """The whole matrix's frame (None when no cell has a weapon), the weapon choices made
    and why cells ran Monte Carlo.

    ``exact``: False, True (exact wherever covered), or ``"every"`` (exact or
    :class:`_NotEveryCell` at the first cell it does not cover, before any Monte Carlo)."""
    children = as_seed_sequence(seed).spawn(len(cells))
    choices: list[str] = []
    monte_carlo: list[str] = []
    with progress_bar(len(cells), "roster", progress=progress) as bar:
        if exact:
            frame = _exact_matrix(_plan_cells(cells, children, profiles, options, choices,
                                              bar), exact, trials, kept, monte_carlo,
                                  bar)
            return frame, choices, monte_carlo
        frames: list[pd.DataFrame] = []
        for (unit, target, phase), child in zip(cells, children):
            cell_frame = _cell(unit, target, phase, child, choices, monte_carlo, exact=exact,
                               trials=trials, profiles=profiles, options=options,
                               kept=kept)
            if cell_frame is not None:
                frames.append(cell_frame)
            bar.update()
    return (pd.concat(frames, ignore_index=True) if frames else None), choices, monte_carlo


#: The per-100-points metrics and the expectation each one scales.
PER_POINTS = {"damage_per_100pts": "expected_damage",
              "models_destroyed_per_100pts": "expected_models_destroyed"}
#: The expectations and the per-100-points metric of each, in the order of the rows.
PER_POINTS_OF = {expectation: metric for metric, expectation in PER_POINTS.items()}


def _with_unpriced(frame: pd.DataFrame, units: Iterable[Unit]) -> pd.DataFrame:
    """When some unit of the list has points, give each unit without any (0 points) its
    per-100-points rows too, with no value (NaN; tables show ``-``), right after its own
    rows: it keeps its place in every table instead of vanishing from the per-points ones.
    """
    present = [m for m in PER_POINTS if (frame["metric"] == m).any()]
    unpriced = [u.name for u in units if not u.points]
    if not present or not unpriced:
        return frame
    order = pd.Series(np.arange(len(frame), dtype=float), index=frame.index)
    added = []
    for rank, metric in enumerate(present, start=1):
        source = frame["metric"].eq(PER_POINTS[metric]) & frame["attacker"].isin(unpriced)
        rows = frame[source].assign(metric=metric, value=np.nan, stderr=np.nan)
        added.append((rows, order[source] + rank / (len(present) + 1)))
    out = pd.concat([frame] + [rows for rows, _ in added], ignore_index=True)
    keys = pd.concat([order] + [keys for _, keys in added], ignore_index=True)
    return out.iloc[np.argsort(keys.to_numpy(), kind="stable")].reset_index(drop=True)


# -- targets --------------------------------------------------------------------------------
def _targets(targets: Any, library: Any) -> list[_Target]:
    from mathhammer.wh40k.targets import resolve_target

    defenses: dict[str, dict] = {}
    if hasattr(targets, "targets") and hasattr(targets, "entries"):  # another Roster
        defenses = {unit.name: targets.defense_of(unit.name) for unit in targets.targets}
        targets = {unit.name: unit for unit in targets.targets}
    items = grid.labelled_specs(targets, (str, TargetProfile, Unit), "give at least one "
                                "target (a target line, a name such as MEQ, or another list)")
    out: list[_Target] = []
    for label, spec in items:
        if isinstance(spec, Unit):
            out.append(_unit_target(label or spec.name, spec, defenses.get(spec.name, {})))
            continue
        profile = resolve_target(spec, library)
        if label is None:
            if isinstance(spec, str) and ":" not in spec and profile.name:
                label = " ".join(spec.split())
            elif profile.name:
                label = f"{profile.count}x {profile.name}" if profile.count != 1 \
                    else profile.name
            else:
                label = str(profile)
        out.append(_Target(label, profile, None))
    seen: dict[str, int] = {}
    unique = []
    for t in out:
        n = seen.get(t.label, 0) + 1
        seen[t.label] = n
        unique.append(t if n == 1 else dataclasses.replace(t, label=f"{t.label} ({n})"))
    return unique


def _unit_target(label: str, unit: Unit, extra: Mapping[str, Any] | None = None) -> _Target:
    """A unit as a target; ``extra`` adds its roster's hit and wound roll penalties."""
    first = unit.groups[0].profile
    same = all(dataclasses.replace(g.profile, name="", count=1)
               == dataclasses.replace(first, name="", count=1) for g in unit.groups)
    found = {"damage_minus": unit.damage_minus, "damage_halved": unit.damage_halved,
             **{k: v for k, v in (extra or {}).items()
                if k.startswith(("hit_", "wound_")) or k in ("cover", "save_mod")}}
    defense = tuple((k, v) for k, v in found.items() if v)
    if same and unit.reroll_saves == "none":
        profile = dataclasses.replace(first, name="", count=unit.models)
        return _Target(label, profile, None, defense)
    return _Target(label, None, unit, defense)


# -- weapon selection (04.01) ---------------------------------------------------------------
def select_weapons(unit: Unit, phase: str, target: TargetProfile, options: _Options,
                   profiles: str = "best", choices: list[str] | None = None
                   ) -> list[tuple[ModelGroup, CarriedWeapon, Weapon, int]]:
    """The weapons each model group uses in ``phase`` against ``target``: of each of its
    :func:`~mathhammer.wh40k.scenario.weapon_rules.weapon_slots`, the choice with the
    highest expected damage (``profiles="best"``) or the one listed first (``"first"``).

    Returns
    -------
    list
        ``(group, carried weapon, chosen profile, models using it x weapons each)``; a model
        uses one of its melee weapons, so a melee pick counts the group's models.
    """
    picks = []
    for group in unit.groups:
        for slot in weapon_slots(group, phase, options.situation):
            first = slot.default[0]
            n = group.count * first.per_model if slot.kind == "ranged" else group.count
            carried, index = _choose(slot, n, target, options, profiles)
            chosen = carried.profiles[index]
            if len(slot.choices) > 1 and slot.kind != "extra attacks" and choices is not None:
                what = "profiles" if slot.kind == "ranged" else "melee weapons/profiles"
                verb = "shoots" if slot.kind == "ranged" else "fights with"
                choices.append(f"{unit.name}: {group.name} {verb} "
                               f"{chosen.name or carried.name} ({_how(profiles)} of "
                               f"{len(slot.choices)} {what})")
            picks.append((group, carried, chosen, n))
    return picks


def _how(profiles: str) -> str:
    return "highest expected damage" if profiles == "best" else "listed first"


def _choose(slot: Slot, count: int, target: TargetProfile, options: _Options,
            profiles: str) -> Choice:
    if len(slot.choices) == 1 or profiles == "first":
        return slot.default
    scores = [_expected_damage(carried.profiles[index].with_count(count), target, options)
              for carried, index in slot.choices]
    return slot.choices[int(np.argmax(scores))]


@lru_cache(maxsize=4096)
def _expected_damage(weapon: Weapon, target: TargetProfile, options: _Options) -> float:
    try:
        return api.exact(weapon, target, **options.keywords()).mean("damage")
    except UnsupportedError:
        return api.simulate(weapon, target, trials=4_000, seed=0,
                            **options.keywords()).mean("damage")
    except OptionError:
        return -1.0


# -- every exact cell in one pass -----------------------------------------------------------
@dataclasses.dataclass
class _Planned:
    """A cell with weapons, as the exact matrix solves it: its checked options and weapon
    picks, then its answer (an :class:`~mathhammer.wh40k.exact_grid.ExactCell` for one
    statline, a Result for several), why the exact engine refused it, or its Monte Carlo
    frame and result."""

    unit: Unit
    target: _Target
    phase: str
    child: np.random.SeedSequence
    options: _Options
    picks: list
    answer: Any = None
    why: str = ""
    frame: pd.DataFrame | None = None

    @property
    def name(self) -> str:
        return f"{self.unit.name} against {self.target.label}"


def _plan_cells(cells, children, profiles, options, choices, bar) -> list[_Planned]:
    """Every cell's options and weapons, in order (a cell without weapons is left out)."""
    planned = []
    for (unit, target, phase), child in zip(cells, children):
        cell_options = options.for_cell(unit, target.defense, phase)
        made: list[str] = []
        picks = select_weapons(unit, phase, target.choice_profile, cell_options, profiles,
                               made)
        choices += [f"{text} against {target.label}" for text in made]
        if picks:
            planned.append(_Planned(unit, target, phase, child, cell_options, picks))
        else:
            bar.update()
    return planned


def _exact_matrix(planned: list[_Planned], exact: bool | str, trials: int,
                  kept: dict | None, monte_carlo: list[str], bar
                  ) -> pd.DataFrame | None:
    """The matrix's frame with every cell solved exactly where covered: the one-statline
    cells in one :func:`~mathhammer.wh40k.exact_grid.solve_cells` call, the others by
    :mod:`~mathhammer.wh40k.exact_engine.mixed`; the refused ones by Monte Carlo
    (``method="auto"``) or :class:`_NotEveryCell` at the first (``"every"``)."""
    if not planned:
        return None
    every = exact == "every"
    _solve_statlines([c for c in planned if c.target.profile is not None], every, bar)
    first = next((i for i, c in enumerate(planned) if c.why), len(planned))
    for i, cell in enumerate(planned):
        if every and i > first:
            break
        if cell.target.profile is None:
            _solve_unit(cell)
            bar.update()
            if cell.why and every:
                break
    refused = [c for c in planned if c.why]
    if every and refused:
        cell = refused[0]
        raise _NotEveryCell(f"{cell.name} ({cell.phase}): {cell.why}")
    for cell in refused:
        points = {cell.unit.name: cell.unit.points} if cell.unit.points else None
        results: dict = {}
        try:   # Monte Carlo refuses what no engine takes: say for which cell
            if cell.target.profile is not None:
                weapons = [p.with_count(n) for _, _, p, n in cell.picks]
                cell.frame = _grid_cell(cell.unit.name, weapons, cell.target, cell.child,
                                        False, trials, points, cell.options, results)[0]
            else:
                cell.frame = _unit_cell(cell.unit, cell.picks, cell.target, cell.phase,
                                        cell.child, trials, points, cell.options, results)[0]
        except UnsupportedError as exc:
            raise within(f"{cell.name} ({cell.phase})", exc) from None
        cell.answer = next(iter(results.values()))
        monte_carlo.append(f"{cell.name} ({cell.phase}): Monte Carlo, {cell.why}")
    return _matrix_frame(planned, kept)


def _solve_statlines(planned: list[_Planned], every: bool, bar) -> None:
    """The one-statline cells' exact answers in one pass; when the engine refuses one,
    each cell alone (in order, stopping at the first refusal with ``every``)."""
    from mathhammer.wh40k.exact_grid import solve_cells

    requests = [([p.with_count(n) for _, _, p, n in c.picks],
                 cast(TargetProfile, c.target.profile), c.options.keywords()) for c in planned]
    try:
        answers = solve_cells(requests, bar.update, [c.name for c in planned])
    except UnsupportedError:
        for cell, request in zip(planned, requests):
            try:
                cell.answer = solve_cells([request], names=[cell.name])[0]
            except UnsupportedError as exc:
                cell.why = exc.reason
                if every:
                    return
        return
    for cell, answer in zip(planned, answers):
        cell.answer = answer


def _solve_unit(cell: _Planned) -> None:
    """A target of several statlines, by :mod:`mathhammer.wh40k.exact_engine.mixed`."""
    from mathhammer.wh40k.exact_engine.mixed import solve_activation
    from mathhammer.wh40k.scenario.compile import compile_scenario

    scenario = _unit_scenario(cell.unit, cell.picks, cell.target, cell.phase, cell.options)
    try:
        cell.answer = exact_result(solve_activation(compile_scenario(scenario)))
    except UnsupportedError as exc:
        cell.why = str(exc)


def _matrix_frame(planned: list[_Planned], kept: dict | None) -> pd.DataFrame:
    """Every cell's rows as one frame, as the cells' own frames concatenated would be
    (``attrs`` kept only when every cell's are the same, as :func:`pandas.concat` does)."""
    columns: dict[str, list] = {c: [] for c in COLUMNS}
    cell_attrs: list[dict] = []
    words: dict[_Options, str] = {}
    for cell in planned:
        answer, attrs = cell.answer, {}
        if cell.frame is not None:
            frame = cell.frame
            rows = list(zip(frame["metric"].tolist(), frame["value"].tolist(),
                            frame["stderr"].tolist()))
            method, attrs = "monte-carlo", frame.attrs
        else:
            method = "exact"
            if isinstance(answer, Result):   # several statlines
                rows = headline(api.GAME, answer)
            else:
                if kept is not None:   # the rows then read the Result stored
                    answer = answer.result()
                    rows = headline(api.GAME, answer)
                else:
                    rows = answer.headline(api.GAME.metrics)
                situation = words.get(cell.options)
                if situation is None:
                    situation = words[cell.options] = grid.situation_words(
                        cell.options.keywords())
                attrs = {"method": EXACT, "trials": None, "seed": None,
                         **({"situation": situation} if situation else {})}
            if cell.unit.points:
                factor = 100.0 / float(cell.unit.points)
                rows += [(name, value * factor, err * factor) for metric, name in
                         PER_POINTS_OF.items() for m, value, err in rows if m == metric]
                attrs = {**attrs, "points": {str(cell.unit.name): float(cell.unit.points)}}
        if kept is not None:
            kept[(cell.unit.name, cell.target.label, cell.phase)] = answer
        cell_attrs.append(attrs)
        for metric, value, err in rows:
            columns["metric"].append(metric)
            columns["value"].append(float(value))
            columns["stderr"].append(float(err))
        n = len(rows)
        columns["attacker"] += [cell.unit.name] * n
        columns["target"] += [cell.target.label] * n
        columns["phase"] += [cell.phase] * n
        columns["method"] += [method] * n
    out = pd.DataFrame(columns)
    if all(cell_attrs) and all(a == cell_attrs[0] for a in cell_attrs[1:]):
        out.attrs = copy.deepcopy(cell_attrs[0])
    return out


# -- one cell -------------------------------------------------------------------------------
def _cell(unit: Unit, target: _Target, phase: str, child: np.random.SeedSequence,
          choices: list[str], monte_carlo: list[str] | None = None, *, exact: bool | str,
          trials: int, profiles: str, options: _Options,
          kept: dict | None = None) -> pd.DataFrame | None:
    """One cell's frame; ``monte_carlo`` collects why a cell asked to be exact is not (the
    Monte Carlo matrix; exact, the cell-by-cell reference the one-pass matrix is tested on)."""
    options = options.for_cell(unit, target.defense, phase)
    made: list[str] = []
    picks = select_weapons(unit, phase, target.choice_profile, options, profiles, made)
    choices += [f"{text} against {target.label}" for text in made]
    if not picks:
        return None
    points = {unit.name: unit.points} if unit.points else None
    results: dict = {}
    if target.profile is not None:
        weapons = [p.with_count(n) for _, _, p, n in picks]
        frame, method, why = _grid_cell(unit.name, weapons, target, child, exact, trials,
                                        points, options, results)
    else:
        frame, method, why = _unit_cell(unit, picks, target, phase, child, trials, points,
                                        options, results, exact=exact)
    if why and exact == "every":
        raise _NotEveryCell(f"{unit.name} against {target.label} ({phase}): {why}")
    if why and exact and monte_carlo is not None:
        monte_carlo.append(f"{unit.name} against {target.label} ({phase}): Monte Carlo, "
                           f"{why}")
    if kept is not None:
        kept[(unit.name, target.label, phase)] = next(iter(results.values()))
    frame.insert(2, "phase", phase)
    frame["method"] = method
    return frame


def _grid_cell(label, weapons, target, child, exact, trials, points, options, results):
    kwargs = dict(points=points, seed=int(child.generate_state(1)[0]), unit_sizes=False,
                  keep_results=True, **options.keywords())
    why = ""
    if exact:
        try:
            both = grid.compare({label: weapons}, {target.label: target.profile},
                                method=EXACT, **kwargs)
            results.update(both.results)
            return both.frame, "exact", ""
        except UnsupportedError as exc:
            why = exc.reason
            if exact == "every":
                return None, "monte-carlo", why
    both = grid.compare({label: weapons}, {target.label: target.profile}, trials=trials,
                        method=MONTE_CARLO, **kwargs)
    results.update(both.results)
    return both.frame, "monte-carlo", why


def _unit_cell(unit, picks, target, phase, child, trials, points, options, results,
               exact: bool | str = False) -> tuple[pd.DataFrame | None, str, str]:
    """A target of several statlines: one activation, solved exactly when ``exact`` and the
    exact engine covers it (:mod:`mathhammer.wh40k.exact_engine.mixed`), else by the whole-unit
    Monte Carlo engine. Returns the frame, the method and why Monte Carlo ran ("" if not)."""
    from mathhammer.wh40k.exact_engine.mixed import solve_activation
    from mathhammer.wh40k.scenario.api import run
    from mathhammer.wh40k.scenario.compile import compile_scenario

    scenario = _unit_scenario(unit, picks, target, phase, options)
    why = "" if exact else "not asked for the exact engine"
    if exact:
        try:
            pmfs = solve_activation(compile_scenario(scenario))
        except UnsupportedError as exc:
            why = str(exc)
            if exact == "every":
                return None, "monte-carlo", why
        else:
            result = exact_result(pmfs)
            results[(unit.name, target.label)] = result
            return _unit_frame(unit, target, headline(api.GAME, result), points), "exact", ""
    whole = run(scenario, trials=trials, seed=child)
    results[(unit.name, target.label)] = whole
    wounds, models = whole.wounds_lost("target"), whole.models_destroyed("target")
    p = whole.destroyed("target")
    rows = [("expected_damage", wounds.mean, wounds.stderr),
            ("expected_models_destroyed", models.mean, models.stderr),
            ("p_unit_destroyed", p, binomial_stderr(p, trials))]
    return _unit_frame(unit, target, rows, points), "monte-carlo", why


def _unit_scenario(unit, picks, target, phase, options):
    """The one activation of ``unit``'s picked weapons on the target unit."""
    from mathhammer.wh40k.scenario.model import Activation, Scenario

    situation, modifiers, rules = options.situation, options.modifiers, options.rules
    groups = []
    for group in unit.groups:
        mine = [(c, p, n) for g, c, p, n in picks if g is group]
        if mine:
            weapons = tuple(CarriedWeapon(p.name or c.name, (p,),
                                          per_model=max(n // group.count, 1))
                            for c, p, n in mine)
            groups.append(dataclasses.replace(group, weapons=weapons, role="bodyguard"))
    attacker = Unit(name="attacker", groups=tuple(groups))
    defender = dataclasses.replace(target.unit, name="target",
                                   damage_minus=modifiers.damage_minus,
                                   damage_halved=modifiers.damage_halved)
    return Scenario(units={"attacker": attacker, "target": defender},
                    activations=(Activation(phase=phase, attacker="attacker",
                                            target="target", situation=situation,
                                            modifiers=modifiers),),
                    rules=rules)


def exact_result(pmfs: Mapping[str, np.ndarray]) -> Result:
    """A cell's exact :class:`~mathhammer.core.result.Result` from the pmfs of wounds lost
    and models destroyed."""
    models = pmfs["models_destroyed"]
    return Result(method=EXACT, distributions={
        "damage": Distribution.from_pmf(pmfs["damage"]),
        "models_destroyed": Distribution.from_pmf(models)},
        probabilities={"unit_destroyed": float(models[-1])}, labels=api.LABELS)


def _unit_frame(unit, target, rows, points) -> pd.DataFrame:
    frame = pd.DataFrame([{"attacker": unit.name, "target": target.label, "metric": m,
                           "value": float(v), "stderr": float(s)} for m, v, s in rows])
    if points:
        frame = grid.per_points(frame, points, by="attacker")
    return frame


# The meta matrix (issue 36) solves these cells in chunks of its own, with these names:
analysis_targets, analysis_options, plan_cells = _targets, _Options.build, _plan_cells
cell_frame, exact_matrix, NotEveryCell = _cell, _exact_matrix, _NotEveryCell
