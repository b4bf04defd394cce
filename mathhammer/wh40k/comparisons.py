"""Comparison grids and one-parameter sweeps as tidy pandas frames.

:func:`compare` runs every attacker against every target under the same situation and
returns one row per (attacker, target, metric), the frame every game's ``compare`` returns
(:mod:`mathhammer.core.frames`, which also holds :func:`to_json_dict` and
:func:`per_points`; its tables :func:`pivot`, :func:`table` and :func:`to_markdown` are
:mod:`mathhammer.report.frame_tables`'s; all re-exported here)::

    attacker  target  metric                       value   stderr  method
    Lascannon MEQ     expected_damage              1.31    0.0023  monte-carlo
    Lascannon MEQ     expected_models_destroyed    0.66    0.0011  monte-carlo
    Lascannon MEQ     p_unit_destroyed             0.00    0.0000  monte-carlo
    ...

Metrics: ``expected_damage`` (wounds the target lost), ``expected_models_destroyed``,
``p_unit_destroyed``, ``expected_attacker_mortal_wounds`` (only when a weapon is
[HAZARDOUS]), and, when ``points`` are given, ``damage_per_100pts`` and
``models_destroyed_per_100pts`` (the expectation divided by the attacker's points, times
100). ``stderr`` is the Monte Carlo standard error (NaN for exact cells).

:func:`sweep` varies one parameter (range band, a modifier, the number of models, the
target's save...) and returns the same frame with one more column, named after the
parameter, right after ``target``.

Reproducibility: cell ``i`` (attackers outermost, then targets, then sweep values) is seeded
with ``numpy.random.SeedSequence(seed).spawn(n_cells)[i]``, so a cell gives the same numbers
as ``mh.simulate(..., seed=that_child)`` on its own, whatever else is in the grid.
"""

from __future__ import annotations

import dataclasses
import functools
import numbers
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from mathhammer.core.frames import COLUMNS, per_points, to_json_dict
from mathhammer.core import game as contract
from mathhammer.core.comparison import Comparison, results_out_deprecated
from mathhammer.core.game import SeedLike, sweep_values
from mathhammer.core.inputs import points_cost, refuse_unordered, switch
from mathhammer.report.frame_tables import pivot, table, to_markdown
from mathhammer.report.labels import register_metric_labels
from mathhammer.core.result import Result, situation_text
from mathhammer.core.signatures import AUTO, exact_as_method, old_spellings
from mathhammer.core.trials import DEFAULT_GRID_TRIALS, check_seed
from mathhammer.errors import OptionError, did_you_mean
from mathhammer.wh40k import api
from mathhammer.wh40k.exact_grid import ExactCells, solve_cells
from mathhammer.wh40k.metric_words import METRIC_LABELS
from mathhammer.wh40k.profiles import (NO_SAVE, Modifiers, Rules, Situation, TargetProfile,
                                       Weapon)
from mathhammer.wh40k.targets import TargetLibrary, check_library, resolve_target

METRICS = ("expected_damage", "expected_models_destroyed", "p_unit_destroyed",
           "expected_attacker_mortal_wounds", "damage_per_100pts",
           "models_destroyed_per_100pts")
register_metric_labels(METRIC_LABELS)

#: Sweep parameters that change the target profile or the attackers rather than an option.
TARGET_PARAMETERS = ("save", "toughness", "wounds", "invuln", "target_models")
ATTACKER_PARAMETERS = ("models",)
RANGE_PARAMETER = "range"

AttackerLike = str | Weapon | Sequence[str | Weapon]


@dataclasses.dataclass(frozen=True)
class _Attacker:
    label: str
    weapons: tuple[Weapon, ...]


@dataclasses.dataclass(frozen=True)
class _Target:
    label: str
    profile: TargetProfile


# -- public ---------------------------------------------------------------------------------
@results_out_deprecated
@old_spellings(exact=exact_as_method)
def compare(attackers: AttackerLike | Mapping[str, AttackerLike],
            targets: str | TargetProfile | Iterable[str | TargetProfile]
            | Mapping[str, str | TargetProfile], *,
            method: str = AUTO, trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
            points: float | Sequence[float] | Mapping[str, float] | None = None,
            library: TargetLibrary | None = None, keep_results: bool = False,
            client: Any = None, edition: int | None = None, progress: bool | None = None,
            unit_sizes: bool = True, buffs: Sequence[Any] = (), attribution: bool = False,
            **options: Any) -> pd.DataFrame | Comparison:
    """Every attacker against every target, under the same situation: a tidy frame.

    Parameters
    ----------
    attackers
        A weapon line, or a list whose items are each one attacker: a weapon line, a
        :class:`Weapon`, or a list of them (a unit's weapons, resolved in order). A dict
        gives the attackers their labels; otherwise the label is the weapon's name (with
        its count), e.g. ``"10x Bolt rifle"``.
    targets
        Target lines, reference names (``"MEQ"``, ``"10x GEQ"``) or profiles; a dict gives
        labels. The label of a reference name is the name as written. A dict label that
        states no number gets the unit's model count when it has more than one model
        (``{"Terminator Squad": "5x Terminator: ..."}`` is labelled
        ``"Terminator Squad (5)"``); ``unit_sizes=False`` keeps dict labels as given (a
        roster's cells, whose tables name the unit sizes elsewhere).
    method
        ``"auto"`` (default): the exact engine for every cell it can follow, Monte Carlo
        for the others; ``"exact"`` (``stderr`` is NaN) or ``"monte-carlo"`` to insist.
        Each row's ``method`` column says which engine answered it.
    trials, seed
        Monte Carlo trials per cell and the root seed (cell ``i`` uses
        ``SeedSequence(seed).spawn(n_cells)[i]``).
    points
        Points cost of each attacker (a number for one attacker, a list in attacker order,
        or a dict by label) to add the per-100-points metrics.
    library
        Reference-profile library for names (default: the built-in one; see
        :func:`mathhammer.wh40k.targets.load_targets`).
    keep_results
        Return a :class:`~mathhammer.core.comparison.Comparison` instead of the frame: the
        same frame (``.frame``) and each cell's whole :class:`Result` (``.results``, keyed
        ``(attacker, target)``), e.g. for :func:`mathhammer.charts.overlay`. The old
        ``results_out=`` dict still works for one release, with a DeprecationWarning.
    client
        A ``dask.distributed.Client``: every cell runs as a task on the cluster's workers,
        seeded from its own ``SeedSequence`` child, so the frame is bit-identical to a local
        run. The workers need mathhammer installed.
    edition
        The rules edition, 11 or 10 (see :class:`~mathhammer.wh40k.profiles.Rules`); by
        default the edition of the BSData data an ``@Name`` attacker or target comes from,
        else 11.
    progress
        A progress bar on stderr, one step per cell, for a grid that runs longer than about
        2 s: ``None`` (default) when stderr is a terminal or in a notebook, ``True``/``False``
        to force it. It never changes the frame.
    buffs
        Named buffs applied to every cell, as for :func:`mathhammer.simulate` (a buff's
        condition is read from each cell's situation).
    attribution
        Return what each buff is worth instead of the grid: the grid with every buff, with
        each removed and with none, each run with the same engine, trials and seeds
        (:func:`~mathhammer.wh40k.buff_attribution.grid_attribution`: one row per buff,
        attacker, target and metric, ``with_buffs`` the grid's value, ``gain`` and
        ``gain_per_cost``). Needs ``buffs``.
    **options
        Situation, modifier and rule switches, as for :func:`mathhammer.simulate`.

    Returns
    -------
    pandas.DataFrame or Comparison
        Columns ``attacker, target, metric, value, stderr, method``; ``attrs`` holds ``method``,
        ``trials`` and ``seed``, and ``situation`` (the options that differ from their
        defaults, in words, for captions) when there are any. With ``keep_results=True``, a
        :class:`~mathhammer.core.comparison.Comparison` of that frame and the results.

    Examples
    --------
    >>> import mathhammer as mh
    >>> df = mh.compare(['Lascannon: 48" A1 BS3+ S12 AP-3 D6+1'], ["MEQ", "VEQ"])
    >>> df.query("metric == 'expected_damage'")["value"].round(3).tolist()
    [0.926, 1.667]
    """
    if switch(attribution, "attribution"):
        return _attribution(functools.partial(
            compare, attackers, targets, method=method, trials=trials, seed=seed,
            points=points, library=library, client=client, edition=edition,
            progress=progress, unit_sizes=unit_sizes, **options), buffs, keep_results)
    edition = _edition_of(attackers, targets) if edition is None else edition
    options["edition"] = edition
    attacker_list = _attackers(attackers)
    target_list = _targets(targets, library, edition,
                           unit_sizes=switch(unit_sizes, "unit_sizes"))
    costs = _points(points, attacker_list)
    api.build_options(options)  # fail fast on a bad option, before any cell runs
    cells = _buffed([_cell(a, t, options) for a in attacker_list for t in target_list], buffs)
    return _run(cells, costs, options, trials=trials, seed=seed, method=method,
                keep_results=keep_results, client=client, progress=progress)


@results_out_deprecated
@old_spellings(exact=exact_as_method)
def sweep(attackers: AttackerLike | Mapping[str, AttackerLike],
          targets: str | TargetProfile | Iterable[str | TargetProfile]
          | Mapping[str, str | TargetProfile],
          parameter: str, values: Iterable[Any], *,
          method: str = AUTO, trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
          points: float | Sequence[float] | Mapping[str, float] | None = None,
          library: TargetLibrary | None = None, keep_results: bool = False,
          client: Any = None, edition: int = 11, progress: bool | None = None,
          buffs: Sequence[Any] = (), **options: Any) -> pd.DataFrame | Comparison:
    """:func:`compare` repeated for each value of one parameter (``client``, ``edition``,
    ``progress`` and ``buffs`` as there; ``"edition"`` can also be the parameter swept,
    e.g. ``[10, 11]``).

    Parameters
    ----------
    parameter
        ``"range"`` (values ``"full"``/``"half"``), ``"models"`` (number of models carrying
        each weapon line), ``"target_models"``, ``"save"`` (2..6, or 7/``"-"`` for none),
        ``"toughness"``, ``"wounds"``, ``"invuln"`` (``None`` for none), or any option of
        :func:`mathhammer.simulate` (``"hit_mod"``, ``"ap_mod"``, ``"half_range"``,
        ``"cover"``, ``"reroll_hits"``...).
    values
        The settings, in the order they should appear.

    Returns
    -------
    pandas.DataFrame or Comparison
        The frame of :func:`compare` with a column named ``parameter`` after ``target``
        (``keep_results=True``: a :class:`~mathhammer.core.comparison.Comparison`, its
        results keyed ``(attacker, target, value)``).

    Examples
    --------
    >>> import mathhammer as mh
    >>> df = mh.sweep("Bolter: A1 BS3+ S4 AP0 D1", "T4 Sv3+ W1", "save", [2, 7])
    >>> df.query("metric == 'expected_damage'")[["save", "value"]].round(4).to_dict("records")
    [{'save': 2, 'value': 0.0556}, {'save': 7, 'value': 0.3333}]
    """
    values = sweep_values(parameter, values)
    _check_parameter(parameter)
    options["edition"] = edition
    attacker_list = _attackers(attackers)
    # a sweep over the unit size names it in each setting, not in the label
    target_list = _targets(targets, library, edition, unit_sizes=parameter != "target_models")
    costs = _points(points, attacker_list)
    api.build_options(options)
    cells = []
    for a in attacker_list:
        for t in target_list:
            for value in values:
                attacker, target, overrides = _apply(parameter, value, a, t)
                cells.append(_cell(attacker, target, options, overrides, {parameter: value}))
    return _run(_buffed(cells, buffs), costs, options, trials=trials, seed=seed,
                method=method, keep_results=keep_results, client=client, progress=progress,
                describe=f"sweep {parameter}")


@old_spellings(exact=exact_as_method)
def results(attackers: AttackerLike | Mapping[str, AttackerLike],
            targets: str | TargetProfile | Iterable[str | TargetProfile]
            | Mapping[str, str | TargetProfile], *,
            method: str = AUTO, trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
            library: TargetLibrary | None = None, progress: bool | None = None,
            **options: Any) -> dict[tuple[str, str], Result]:
    """The full :class:`Result` of every cell of :func:`compare` (same seeding, same
    ``progress``), keyed by ``(attacker label, target label)``; handy for overlay charts of
    whole distributions (``compare(..., keep_results=True).results`` gives the same)."""
    attacker_list = _attackers(attackers)
    target_list = _targets(targets, library, options.get("edition", 11), unit_sizes=True)
    kept = _run([_cell(a, t, options) for a in attacker_list for t in target_list], {},
                options, trials=trials, seed=seed, method=method, keep_results=True,
                client=None, progress=progress)
    return dict(kept.results)


# -- cells ----------------------------------------------------------------------------------
def _cell(attacker: _Attacker, target: _Target, options: Mapping[str, Any],
          overrides: Mapping[str, Any] | None = None,
          columns: Mapping[str, Any] | None = None) -> contract.Cell:
    """One cell of a grid or sweep for core's :func:`~mathhammer.core.game.compare`."""
    return contract.Cell(attacker.label, target.label, attacker.weapons, target.profile,
                         {**options, **overrides} if overrides else options, columns or {})


def _attribution(run: Callable[..., Any], buffs: Sequence[Any], keep_results: bool
                 ) -> pd.DataFrame:
    """What each of ``buffs`` is worth over the grid ``run(buffs=...)`` answers."""
    from mathhammer.wh40k.buff_attribution import grid_attribution
    from mathhammer.wh40k.buffs import resolve_buffs

    resolved = resolve_buffs(buffs)
    if not resolved:
        raise OptionError("attribution=True tells what each buff is worth: give buffs=[...]",
                          token="attribution")
    if keep_results:
        raise OptionError("attribution=True answers the attribution frame; drop "
                          "keep_results=True", token="keep_results")
    return grid_attribution(lambda subset: run(buffs=subset), resolved,
                            ("attacker", "target"))


def _buffed(cells: list[contract.Cell], buffs: Sequence[Any]) -> list[contract.Cell]:
    """The cells with ``buffs`` applied to each one's lines, target and options (a
    condition read from each cell's own situation, so a sweep over ``stationary`` turns a
    ``when stationary`` buff on and off)."""
    if not buffs:
        return cells
    from mathhammer.wh40k.buffs import apply_buffs, resolve_buffs

    resolved = resolve_buffs(buffs)
    out = []
    for cell in cells:
        situation, modifiers, rules, monster_vehicle = api.build_options(dict(cell.options))
        target = api.parse_target(cell.targets, rules.edition)
        done = apply_buffs(resolved, api.parse_weapons(cell.attackers), target, situation,
                           modifiers)
        options = {"situation": done.situation, "modifiers": done.modifiers, "rules": rules,
                   "attacker_monster_vehicle": monster_vehicle}
        out.append(dataclasses.replace(cell, attackers=done.weapons, targets=done.target,
                                       options=options))
    return out


def _run(cells: list[contract.Cell], costs: dict[str, float], options: Mapping[str, Any], *,
         trials: int, seed: SeedLike, method: str, keep_results: bool, client: Any,
         progress: bool | None, describe: str = "compare") -> Any:
    """Core's comparison of the cells (exact cells solved in one pass, see
    :func:`_exact_answers`), with the per-100-points rows of ``costs``: the frame, or with
    ``keep_results`` a :class:`Comparison`."""
    answer = contract.compare(api.GAME, cells, method=method, trials=trials, seed=seed,
                              progress=progress, situation=situation_words(options),
                              keep_results=keep_results, describe=describe, client=client,
                              solve_exact=_exact_answers)
    if not costs:
        return answer
    if isinstance(answer, Comparison):
        return Comparison(per_points(answer.frame, costs), answer.results)
    return per_points(answer, costs)


def _exact_answers(cells: Sequence[contract.Cell], done: Callable[[], None]
                   ) -> ExactCells:
    """Every cell's exact answer in one pass (:func:`exact_grid.solve_cells`: options, plans
    and tables shared across cells, no per-cell Result); the first refusal names its cell."""
    return solve_cells([(cell.attackers, cell.targets, cell.options) for cell in cells],
                       done, _CellNames(cells))


class _CellNames(Sequence[str]):
    """``"<attacker> against <target>"`` per cell, written only when a refusal needs one."""

    def __init__(self, cells: Sequence[contract.Cell]) -> None:
        self.cells = cells

    def __len__(self) -> int:
        return len(self.cells)

    def __getitem__(self, i):
        return f"{self.cells[i].attacker} against {self.cells[i].target}"


#: The default situation, modifiers and rules (frozen: built once, compared with each run's).
_DEFAULT_SETTING = (Situation(), Modifiers(), Rules())


def situation_words(options: Mapping[str, Any]) -> str:
    """The situation, modifiers and rule switches that differ from their defaults, in words
    (``"half range, stationary, hit mod -1"``), for captions."""
    situation, modifiers, rules, monster_vehicle = api.build_options(dict(options))
    changed: dict[str, Any] = {}
    chosen_setting: tuple[Any, ...] = (situation, modifiers, rules)
    for chosen, default in zip(chosen_setting, _DEFAULT_SETTING):
        if chosen == default:   # the usual case: nothing to name
            continue
        for field in dataclasses.fields(chosen):
            value = getattr(chosen, field.name)
            if value != getattr(default, field.name):
                changed[field.name] = value
    if monster_vehicle:
        changed["attacker_monster_vehicle"] = True
    return situation_text(changed)


# -- inputs ---------------------------------------------------------------------------------
def labelled_specs(specs: Any, single: tuple[type, ...], missing: str
                   ) -> list[tuple[str | None, Any]]:
    """(label or None, spec) pairs from a dict, a list, or one spec of the ``single`` types;
    anything else (None, a number, a set or a generator, whose order is not the caller's,
    an empty list) an :class:`OptionError` that says ``missing``."""
    items: list[tuple[str | None, Any]]
    if isinstance(specs, Mapping):
        items = [(str(k), v) for k, v in specs.items()]
    else:
        if isinstance(specs, single) or api.names_datasheet(specs):
            specs = [specs]
        if isinstance(specs, (bytes, bytearray)) or not isinstance(specs, Iterable):
            raise OptionError(f"{missing}; got {type(specs).__name__} {specs!r:.60}")
        refuse_unordered(specs, "attackers" if "attacker" in missing else "targets")
        items = [(None, v) for v in specs]
    if not items:
        raise OptionError(missing)
    return items


def _attackers(attackers) -> list[_Attacker]:
    items = labelled_specs(attackers, (str, Weapon), "give at least one attacker (a weapon line)")
    out = []
    for label, spec in items:
        weapons = tuple(api.parse_weapons(spec))
        if label is None and api.names_datasheet(spec):
            label = _named_label(spec)
        out.append(_Attacker(label or " + ".join(_weapon_label(w) for w in weapons), weapons))
    return _unique(out)


def _named_label(spec: Any) -> str:
    """``"@Necron Warriors:20"`` as ``Necron Warriors (20)``; a Datasheet by its name."""
    if not isinstance(spec, str):
        return f"{spec.name} ({spec.size})"
    text = spec.strip()[1:]
    name, _, rest = text.partition(":")
    return f"{name.strip()} ({rest.strip()})" if rest else name.strip()


def _weapon_label(weapon: Weapon) -> str:
    if not weapon.name:
        return str(weapon)
    return f"{weapon.count}x {weapon.name}" if weapon.count != 1 else weapon.name


def _edition_of(attackers: Any, targets: Any) -> int:
    """The edition of the data the first ``@Name`` attacker or target comes from, else 11."""
    groups = attackers.values() if isinstance(attackers, Mapping) else [attackers]
    spec_list = targets if isinstance(targets, (list, tuple)) else [targets]
    for group in groups:
        found = api.datasheet_edition(group, None)
        if found is not None:
            return found
    for spec in spec_list:
        found = api.datasheet_edition([], spec)
        if found is not None:
            return found
    return 11


def _targets(targets, library, edition: int = 11, unit_sizes: bool = False) -> list[_Target]:
    """Labelled targets; ``unit_sizes`` adds the model count to dict labels that lack one
    (see :func:`with_unit_size`; a roster's unit names are left as its list gives them)."""
    check_library(library)
    items = labelled_specs(targets, (str, TargetProfile),
                      "give at least one target (a target line or a name such as MEQ)")
    out = []
    for label, spec in items:
        if label is None and api.names_datasheet(spec):
            label = _named_label(spec)
        spec = api.named_target(spec)  # "@Name": a datasheet's target line
        profile = resolve_target(spec, library, edition)
        if label is None:
            if isinstance(spec, str) and ":" not in spec and (library or _builtin()).knows(
                    spec):
                label = " ".join(spec.split())
            elif profile.name:
                label = f"{profile.count}x {profile.name}" if profile.count != 1 \
                    else profile.name
            else:
                label = str(profile)
        elif unit_sizes:
            label = with_unit_size(label, profile.count)
        out.append(_Target(label, profile))
    return _unique(out)


def with_unit_size(label: str, models: int) -> str:
    """``label`` with the unit's model count, ``"Terminator Squad (5)"``, unless it already
    states a number (``"5 Terminators"``, ``"Squad of 10"``) or the unit is one model.

    Examples
    --------
    >>> with_unit_size("Terminator Squad", 5), with_unit_size("10 Boyz", 10)
    ('Terminator Squad (5)', '10 Boyz')
    """
    if models <= 1 or re.search(r"\d", label):
        return label
    return f"{label} ({models})"


@functools.cache
def _builtin() -> TargetLibrary:
    """The built-in reference library (imported when first asked: it reads its data file)."""
    from mathhammer.wh40k.targets import targets

    return targets


def _unique(items):
    seen: dict[str, int] = {}
    out = []
    for item in items:
        n = seen.get(item.label, 0) + 1
        seen[item.label] = n
        out.append(item if n == 1 else dataclasses.replace(item, label=f"{item.label} ({n})"))
    return out


def _points(points, attackers: list[_Attacker]) -> dict[str, float]:
    if points is None:
        return {}
    labels = [a.label for a in attackers]
    if isinstance(points, Mapping):
        unknown = [k for k in points if k not in labels]
        if unknown:
            raise OptionError(f"points given for '{unknown[0]}', which is not an attacker; "
                              f"attackers: {', '.join(labels)}")
        costs = {str(k): v for k, v in points.items()}
    elif isinstance(points, numbers.Real) and not isinstance(points, bool):
        if len(labels) != 1:
            raise OptionError(f"one points value for {len(labels)} attackers: give a list "
                              "in attacker order or a dict by attacker")
        costs = {labels[0]: points}
    else:
        if isinstance(points, (bool, str, bytes)) or not isinstance(points, Iterable):
            raise OptionError(f"points must be a number, a list in attacker order or a dict "
                              f"by attacker, not {type(points).__name__} {points!r:.40}")
        refuse_unordered(points, "points (one per attacker, in attacker order)")
        points = list(points)
        if len(points) != len(labels):
            raise OptionError(f"{len(points)} points values for {len(labels)} attackers; "
                              "give one per attacker, in order")
        costs = dict(zip(labels, points))
    return {label: points_cost(cost, f"points for '{label}'") for label, cost in costs.items()}


def _seed(seed: Any) -> SeedLike:
    return check_seed(seed)


# -- sweeps ---------------------------------------------------------------------------------
def _option_names() -> set[str]:
    return set(api.SITUATION_FIELDS | api.MODIFIER_FIELDS | api.RULE_FIELDS
               | api.OTHER_OPTIONS)


def _check_parameter(parameter: str) -> None:
    if not isinstance(parameter, str):
        raise OptionError(f"the parameter to sweep must be a name such as 'save' or 'hit_mod', "
                          f"not {type(parameter).__name__} {parameter!r:.40}")
    known = _option_names() | set(TARGET_PARAMETERS) | set(ATTACKER_PARAMETERS) | {
        RANGE_PARAMETER}
    if parameter not in known:
        hint = did_you_mean(parameter, known).lower()
        raise OptionError(f"cannot sweep over '{parameter}'{hint}; choose range, models, "
                          "target_models, save, toughness, wounds, invuln or an option of "
                          "mathhammer.simulate such as hit_mod")


def _apply(parameter: str, value: Any, attacker: _Attacker, target: _Target
           ) -> tuple[_Attacker, _Target, dict[str, Any]]:
    if parameter == RANGE_PARAMETER:
        return attacker, target, {"half_range": _half_range(value)}
    if parameter == "models":
        count = _whole(parameter, value, minimum=1)
        return (dataclasses.replace(attacker, weapons=tuple(w.with_count(count)
                                                            for w in attacker.weapons)),
                target, {})
    if parameter in TARGET_PARAMETERS:
        field = {"target_models": "count"}.get(parameter, parameter)
        if parameter == "save":
            new = _save(value)
        elif parameter == "invuln" and (value is None or str(value).strip() in ("-", "")):
            new = None
        else:
            new = _whole(parameter, value, minimum=1)
        changes: dict[str, Any] = {field: new}
        profile = dataclasses.replace(target.profile, **changes)
        return attacker, dataclasses.replace(target, profile=profile), {}
    return attacker, target, {parameter: value}


def _half_range(value: Any) -> bool:
    """A range band: ``'half'``/``'full'`` (any case), or True/False as ``half_range`` takes
    them (``--sweep range=yes,no``); 1, ``'1'`` or ``'true'`` are not bands."""
    if isinstance(value, bool):
        return value
    band = value.strip().lower() if isinstance(value, str) else None
    if band not in ("half", "full"):
        raise OptionError(f"range band {value!r:.40} must be 'full' or 'half'")
    return band == "half"


def _whole(parameter: str, value: Any, minimum: int) -> int:
    """A sweep setting as a whole number of at least ``minimum``: an int, or text of the
    digits 0-9 (``'٣'``, ``'²'`` and ``'1_0'`` are not; ``'3+'`` is a save of 3)."""
    text = value.strip().rstrip("+") if isinstance(value, str) else None
    if isinstance(value, bool) or not (isinstance(value, numbers.Integral) or (
            text is not None and re.fullmatch(r"-?[0-9]{1,40}", text))):
        raise OptionError(f"{parameter} value {value!r:.40} must be a whole number written "
                          "with the digits 0-9")
    number = int(value) if text is None else int(text)
    if number < minimum:
        raise OptionError(f"{parameter} value {number} must be at least {minimum}")
    return number


def _save(value: Any) -> int:
    if value is None or str(value).strip() in ("-", "none"):
        return NO_SAVE
    return _whole("save", value, minimum=2)


__all__ = [
    "COLUMNS",
    "METRICS",
    "METRIC_LABELS",
    "compare",
    "per_points",
    "pivot",
    "results",
    "sweep",
    "table",
    "to_json_dict",
    "to_markdown",
]
