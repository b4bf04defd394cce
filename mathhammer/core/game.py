"""The contract every game meets, and the entry points core writes once for all of them.

A game (Warhammer 40,000, Warmachine, Dust Tactics) supplies a :class:`Game`: how to turn
attackers and targets (text or profile objects) into a compiled plan, a Monte Carlo runner
(plan, trials, seed -> :class:`Tallies`), an exact engine (plan -> :class:`Outcomes`), the
words of its outcomes and the headline metrics of its comparisons. Core writes on top of
it, once:

- :func:`simulate` and :func:`exact`: one attack sequence, a
  :class:`~mathhammer.core.result.Result` with the same provenance in every game
  (``trials``, ``seed`` as plain JSON values);
- :func:`compare`: cells (attacker x target x setting) to the tidy long frame of
  :mod:`mathhammer.core.frames` (with ``keep_results``, a
  :class:`~mathhammer.core.comparison.Comparison` of the frame and every cell's result),
  the same columns in every game, here or on a Dask
  cluster (``client``), exact cells one by one or by the game's engine for many cells at
  once (``solve_exact``: 40k's one-pass grids); :func:`sweep`: the same over the values of
  one parameter.

Each game's public ``simulate``, ``exact`` and ``compare`` are thin functions over these,
with keyword-only ``trials`` and ``seed`` (``int`` or :class:`numpy.random.SeedSequence`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar, Union

import numpy as np

from mathhammer.core import adaptive
from mathhammer.core.inputs import dask_client, refuse_unordered, switch, unordered
from mathhammer.core.progress import bar as progress_bar, check_progress
from mathhammer.core.result import Distribution, Result, seed_provenance
from mathhammer.core.signatures import EXACT, MONTE_CARLO, by_method, check_method
from mathhammer.core.trials import CHUNKS, as_seed_sequence, check_seed, check_trials
from mathhammer.errors import OptionError, UnsupportedError, within

#: The seeds every entry point takes: a non-negative int, or a SeedSequence (e.g. the child
#: spawned for one cell of a comparison grid); only its (entropy, spawn key) matter.
SeedLike = Union[int, np.random.SeedSequence]

Plan = TypeVar("Plan")


@dataclass(frozen=True)
class Tallies:
    """What a Monte Carlo run counted: a histogram per outcome and a count per event.

    Parameters
    ----------
    trials
        Trials run.
    histograms
        Outcome name -> ``counts[k]``, the trials that gave ``k``. A 2-D array holds one
        histogram per subject (each target of Dust's fire orders), see :meth:`subject`.
    events
        Event name -> trials in which it happened (``"unit_destroyed"``).

    Examples
    --------
    >>> t = Tallies(4, {"damage": np.array([1, 2, 1])}, {"unit_destroyed": 1})
    >>> t.distributions()["damage"].mean, t.probabilities()
    (1.0, {'unit_destroyed': 0.25})
    """

    trials: int
    histograms: dict[str, np.ndarray]
    events: dict[str, int] = field(default_factory=dict)

    def distributions(self) -> dict[str, Distribution]:
        """Every histogram as an estimated :class:`Distribution`."""
        return {k: Distribution.from_counts(v) for k, v in self.histograms.items()}

    def probabilities(self) -> dict[str, float]:
        """Every event's share of the trials."""
        return {k: float(v / self.trials) for k, v in self.events.items()}

    def subject(self, index: int) -> Tallies:
        """The tallies of one subject (row ``index`` of every 2-D histogram)."""
        return Tallies(self.trials, {k: v[index] if v.ndim == 2 else v
                                     for k, v in self.histograms.items()}, dict(self.events))


@dataclass(frozen=True)
class Outcomes:
    """What an engine found: distributions by outcome name, probabilities by event."""

    distributions: dict[str, Distribution]
    probabilities: dict[str, float] = field(default_factory=dict)


class Game(Generic[Plan]):
    """What a game supplies to core's :func:`simulate`, :func:`exact` and :func:`compare`.

    A subclass sets the class attributes and writes :meth:`compile`,
    :meth:`run_monte_carlo`, :meth:`run_exact`, :meth:`labels_of` and :meth:`inputs_of`;
    :meth:`monte_carlo_outcomes` has a default (histograms as distributions, events as
    probabilities) a game overrides for outcomes derived from others.

    Attributes
    ----------
    name
        The game's command name (``"warmachine"``).
    labels
        Outcome name -> words (``"damage"`` -> ``"boxes marked"``).
    metrics
        Comparison metric -> ``("mean", outcome)`` or ``("probability", event)``, in the
        order the frame lists them; a metric whose outcome a result lacks is left out.
    metric_labels
        Metric -> words, carried in each frame's ``attrs["labels"]`` (games share metric
        ids such as ``expected_damage`` but not their words).
    situation_columns
        Columns every comparison frame of the game has between ``target`` and ``metric``
        (the situation a cell was computed under).
    chunks
        Random-stream chunks of a Monte Carlo run (fixed: same seed, same bits).
    """

    name: str = ""
    labels: Mapping[str, str] = {}
    metrics: Mapping[str, tuple[str, str]] = {}
    metric_labels: Mapping[str, str] = {}
    situation_columns: tuple[str, ...] = ()
    chunks: int = CHUNKS

    def compile(self, attackers: Any, targets: Any, /, **options: Any) -> Plan:
        """Parse (text -> profiles) and compile (profiles -> arrays) one question (core
        passes the two positionally: a game names them as it likes)."""
        raise NotImplementedError

    def run_monte_carlo(self, plan: Plan, trials: int, seed: SeedLike, *,
                        progress: bool | None = None) -> Tallies:
        """Run the kernels for ``trials`` trials from ``seed`` (checked already)."""
        raise NotImplementedError

    def run_exact(self, plan: Plan) -> Outcomes:
        """Solve the plan exactly."""
        raise NotImplementedError

    def labels_of(self, plan: Plan) -> dict[str, str]:
        """Words for the plan's outcomes and events (default: :attr:`labels`)."""
        return dict(self.labels)

    def inputs_of(self, plan: Plan, method: str) -> dict[str, Any]:
        """The request behind a result, as plain JSON-ready values."""
        raise NotImplementedError

    def situation_of(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The values of :attr:`situation_columns` for a cell run with ``options`` (default:
        the option of the same name, ``None`` when not given)."""
        return {column: options.get(column) for column in self.situation_columns}

    def monte_carlo_outcomes(self, plan: Plan, tallies: Tallies) -> Outcomes:
        """The outcomes of a Monte Carlo run (default: its histograms and events as they
        are)."""
        return Outcomes(tallies.distributions(), tallies.probabilities())


# -- one question ----------------------------------------------------------------------------
def monte_carlo_result(game: Game[Plan], plan: Plan, *, trials: int, seed: SeedLike,
                       progress: bool | None = None) -> Result:
    """Run ``game``'s kernels on a compiled plan and name what they counted.

    ``trials``, ``seed`` and ``progress`` are checked here (see :func:`tallied_result`).
    """
    trials, seed = check_trials(trials), check_seed(seed)
    check_progress(progress)
    tallies = game.run_monte_carlo(plan, trials, seed, progress=progress)
    return tallied_result(game, plan, tallies, seed)


def tallied_result(game: Game[Plan], plan: Plan, tallies: Tallies, seed: SeedLike) -> Result:
    """The :class:`Result` of a Monte Carlo run of ``plan`` from ``seed``: its outcomes,
    labels and inputs, the trials, and the seed's entropy (a SeedSequence child's spawn key
    in ``inputs["seed_spawn_key"]``), plain JSON values whatever seed type was given."""
    outcomes = game.monte_carlo_outcomes(plan, tallies)
    entropy, spawn_key = seed_provenance(seed)
    inputs = {**game.inputs_of(plan, MONTE_CARLO), "chunks": game.chunks}
    if spawn_key:
        inputs["seed_spawn_key"] = spawn_key
    return Result(method=MONTE_CARLO, distributions=outcomes.distributions,
                  probabilities=outcomes.probabilities, trials=tallies.trials, seed=entropy,
                  inputs=inputs, labels=game.labels_of(plan), game=game.name)


def exact_result(game: Game[Plan], plan: Plan, outcomes: Outcomes | None = None) -> Result:
    """The exact :class:`Result` of a compiled plan: ``outcomes`` when the caller solved it
    already (several subjects at once), else ``game.run_exact(plan)``."""
    outcomes = game.run_exact(plan) if outcomes is None else outcomes
    return Result(method=EXACT, distributions=outcomes.distributions,
                  probabilities=outcomes.probabilities, inputs=game.inputs_of(plan, EXACT),
                  labels=game.labels_of(plan), game=game.name)


def simulate(game: Game[Any], attackers: Any, targets: Any, *, trials: int | str,
             seed: SeedLike, progress: bool | None = None, target_stderr: float | None = None,
             **options: Any) -> Result:
    """Monte Carlo estimate of what ``attackers`` do to ``targets`` in ``game``.

    Parameters
    ----------
    game
        The game's :class:`Game`.
    attackers, targets, options
        As the game's ``compile`` takes them (text or profiles; situation and rule switches).
    trials, seed
        Trials, split into ``game.chunks`` random-stream chunks, and the seed (an int or a
        :class:`numpy.random.SeedSequence`): the same seed gives the same bits on any
        number of threads. ``trials="auto"`` (or a ``target_stderr``) runs blocks until the
        headline figures are precise enough (:mod:`mathhammer.core.adaptive`); the result's
        ``inputs["precision"]`` says what was reached.
    progress
        A progress bar on stderr for a long run (``None``: when stderr is a terminal or in
        a notebook); it never changes the result.
    target_stderr
        The standard error to reach on the headline means (see :mod:`~.core.adaptive`).
    """
    if not adaptive.wants_adaptive(trials, target_stderr):
        trials, seed = check_trials(trials), check_seed(seed)
        check_progress(progress)
        plan = game.compile(attackers, targets, **options)
        return monte_carlo_result(game, plan, trials=trials, seed=seed, progress=progress)
    seed = check_seed(seed)
    check_progress(progress)
    plan = game.compile(attackers, targets, **options)
    tallies, precision = adaptive.run_until_precise(game, plan, seed, target_stderr, progress)
    result = tallied_result(game, plan, tallies, seed)
    return replace(result, inputs={**result.inputs, "precision": precision})


def exact(game: Game[Any], attackers: Any, targets: Any, **options: Any) -> Result:
    """Exact distributions of what ``attackers`` do to ``targets`` in ``game``."""
    return exact_result(game, game.compile(attackers, targets, **options))


# -- comparisons -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """One cell of a comparison: who attacks what, under which settings.

    Parameters
    ----------
    attacker, target
        The labels the frame prints.
    attackers, targets
        What the game's ``compile`` takes (text or profiles).
    options
        The game's situation and rule switches for this cell.
    columns
        Setting columns of this cell's rows (``{"save": 3}``), after the situation columns
        the game reads from ``options`` (:meth:`Game.situation_of`).
    """

    attacker: str
    target: str
    attackers: Any
    targets: Any
    options: Mapping[str, Any] = field(default_factory=dict)
    columns: Mapping[str, Any] = field(default_factory=dict)


def cell_seeds(seed: SeedLike, n_cells: int, *, common: bool = False) -> list[SeedLike]:
    """The seed of each cell: ``SeedSequence(seed).spawn(n_cells)[i]`` (a cell gives the
    numbers it gives alone, whatever else is in the grid), or with ``common`` the root seed
    for every cell (common random numbers: variants of one attack rolled on the same dice,
    so their differences are not noise)."""
    seed = check_seed(seed)
    if common:
        return [seed] * n_cells
    return list(as_seed_sequence(seed).spawn(n_cells))


class Answer(Protocol):
    """What a comparison reads of one cell's answer: a :class:`Result`, or a lighter object
    of a game's batched exact engine with the same figures and :meth:`result` for the
    whole :class:`Result` (e.g. 40k's :class:`~mathhammer.wh40k.exact_grid.ExactCell`)."""

    @property
    def outcomes(self) -> Any: ...
    @property
    def probabilities(self) -> Any: ...

    def mean(self, outcome: str) -> float: ...
    def stderr(self, outcome: str) -> float | None: ...
    def probability(self, event: str) -> float: ...
    def probability_stderr(self, event: str) -> float | None: ...


def full_result(answer: Answer | Result) -> Result:
    """The whole :class:`Result` of a cell's answer."""
    if isinstance(answer, Result):
        return answer
    whole: Result = getattr(answer, "result")()   # an engine's light answer builds it
    return whole


def headline(game: Game[Any], result: Answer | Result) -> list[tuple[str, float, float]]:
    """``(metric, value, stderr)`` of each of ``game.metrics`` the result has (stderr NaN
    for exact results)."""
    outcomes, events = result.outcomes, result.probabilities   # read once: a grid's cells
    rows = []
    for metric, (kind, name) in game.metrics.items():
        if kind == "mean":
            if name in outcomes:
                rows.append((metric, result.mean(name), _number(result.stderr(name))))
        elif name in events:
            rows.append((metric, result.probability(name),
                         _number(result.probability_stderr(name))))
    return rows


def _number(value: float | None) -> float:
    return math.nan if value is None else float(value)


#: A game's exact engine for many cells at once: ``(cells, done) -> answers`` in order,
#: calling ``done()`` after each cell (a progress bar step).
ExactSolver = Callable[[Sequence["Cell"], Callable[[], None]], Sequence[Answer]]


def compare(game: Game[Any], cells: Sequence[Cell], *, method: str, trials: int,
            seed: SeedLike, progress: bool | None = None, common_random_numbers: bool = False,
            situation: str = "", keep_results: bool = False, describe: str = "compare",
            unit: str = "cell", client: Any = None,
            solve_exact: ExactSolver | None = None) -> Any:
    """Every cell's headline metrics as one tidy frame (see :mod:`mathhammer.core.frames`).

    Parameters
    ----------
    game
        The game's :class:`Game`.
    cells
        The comparison's cells, in the frame's order.
    method
        ``"exact"`` (``stderr`` NaN), ``"monte-carlo"``, or ``"auto"``: exact for every cell
        the exact engine can follow, Monte Carlo for the others (each row's ``method``
        says which; the frame's ``attrs["method"]`` is ``"mixed"`` when both ran).
    trials, seed
        Monte Carlo trials per cell and the root seed (see :func:`cell_seeds`).
    progress
        A progress bar on stderr, one step per cell, for a long comparison.
    common_random_numbers
        Give every cell the root seed (see :func:`cell_seeds`).
    situation
        The situation shared by every cell, in words, for captions.
    keep_results
        Return a :class:`~mathhammer.core.comparison.Comparison`: the frame and each cell's
        whole :class:`Result`, keyed ``(attacker, target)``, then the values of the cell's
        setting columns (a sweep's setting) when it has some.
    describe, unit
        The progress bar's words and what it counts.
    client
        A ``dask.distributed.Client``: every cell runs as a task on the cluster's workers,
        seeded from its own ``SeedSequence`` child, so the frame is bit-identical to a local
        run (the workers need mathhammer installed).
    solve_exact
        The game's exact engine for all the cells at once (default: one exact answer per
        cell); used for exact comparisons run here (not on a ``client``).

    Returns
    -------
    pandas.DataFrame or Comparison
        Columns ``attacker, target``, the game's situation columns and the cells' setting
        columns, then ``metric, value, stderr, method``; with ``keep_results``, a
        :class:`~mathhammer.core.comparison.Comparison` holding that frame and the results.
    """
    method = check_method(method)
    if method != EXACT:
        trials = check_trials(trials)
    seed = check_seed(seed)
    check_progress(progress)
    keep_results = switch(keep_results, "keep_results")
    dask_client(client)   # a list or a text: named, at once
    # exact cells use no random stream: spawning one per cell would cost more than solving
    seeds: Sequence[SeedLike | None] = [None] * len(cells) if method == EXACT else \
        cell_seeds(seed, len(cells), common=common_random_numbers)
    with progress_bar(len(cells), describe, progress=progress, unit=unit) as bar:
        answers = _answers(game, cells, method, trials, seeds, client, bar, solve_exact)
    methods = [_method_of(answer) for answer in answers]
    used = methods[0] if len(set(methods)) == 1 else "mixed"
    results: dict[tuple[Any, ...], Result] | None = {} if keep_results else None
    frame = _frame(game, cells, answers, methods, results)
    ran_monte_carlo = used != EXACT
    frame.attrs.update(method=used, trials=trials if ran_monte_carlo else None,
                       seed=seed_provenance(seed)[0] if ran_monte_carlo else None)
    if situation:
        frame.attrs["situation"] = situation
    if game.metric_labels:
        frame.attrs["labels"] = dict(game.metric_labels)
    if results is None:
        return frame
    from mathhammer.core.comparison import Comparison

    return Comparison(frame, results)


def _answers(game: Game[Any], cells: Sequence[Cell], method: str, trials: int,
             seeds: Sequence[SeedLike | None], client: Any, bar: Any,
             solve_exact: ExactSolver | None) -> Sequence[Answer]:
    """Every cell's answer: the game's exact engine for all cells at once when it is asked
    for (or, with ``"auto"``, when it can follow them all), else cell by cell."""
    if method != MONTE_CARLO and client is None:
        try:
            return (solve_exact or _exact_answers(game))(cells, bar.update)
        except UnsupportedError:
            if method == EXACT:
                raise
            bar = _Recount(bar)   # the bar goes on from the cells already counted
    return _run_cells(game, cells, method, trials, seeds, client, bar)


class _Recount:
    """A progress bar counted again from zero that never moves back."""

    def __init__(self, bar: Any) -> None:
        self._bar, self._done, self.shown = bar, 0, bar.shown

    def update(self, n: int = 1) -> None:
        self._done += n
        self._bar.update_to(self._done)


def _method_of(answer: Answer) -> str:
    return getattr(answer, "method", EXACT)   # batched exact answers carry no method


def _exact_answers(game: Game[Any]) -> ExactSolver:
    def solve(cells: Sequence[Cell], done: Callable[[], None]) -> list[Answer]:
        answers: list[Answer] = []
        for cell in cells:
            answers.append(_run_cell(game, cell, EXACT, 0, None))
            done()
        return answers
    return solve


def _run_cells(game: Game[Any], cells: Sequence[Cell], method: str, trials: int,
               seeds: Sequence[SeedLike | None], client: Any, bar: Any) -> list[Answer]:
    """Every cell's result, in order: here, or as Dask tasks; ``bar`` counts finished cells."""
    if client is None:
        out: list[Answer] = []
        for cell, cell_seed in zip(cells, seeds):
            out.append(_run_cell(game, cell, method, trials, cell_seed))
            bar.update()
        return out
    # One task per cell; each carries its own SeedSequence child, so the cluster returns the
    # same bits as a local run whatever worker runs it.
    futures = [client.submit(_run_cell, game, cell, method, trials, cell_seed, pure=False)
               for cell, cell_seed in zip(cells, seeds)]
    if bar.shown:
        from distributed import as_completed

        # distributed's as_completed carries no annotations
        for _ in as_completed(futures):  # type: ignore[no-untyped-call]
            bar.update()
    answers: list[Answer] = client.gather(futures)
    return answers


def _frame(game: Game[Any], cells: Sequence[Cell], answers: Sequence[Answer],
           methods: Sequence[str], results: dict[tuple[Any, ...], Result] | None) -> Any:
    """The tidy frame of the cells' answers, built column by column (a comparison's label
    columns repeat a few strings; row dicts cost more than the answers)."""
    from mathhammer.core.frames import frame_from_columns, string_columns

    middle = list(game.situation_columns)
    settings = []
    if middle or any(cell.columns for cell in cells):   # else no column between the labels
        for cell in cells:
            columns = {**game.situation_of(cell.options), **cell.columns} if middle \
                else cell.columns
            if columns:
                middle += [c for c in columns if c not in middle]
            settings.append(columns)
    table = getattr(answers, "headlines", None)
    if table is not None and results is None:
        # a game's batched answers may give every cell's figures at once (40k's exact grid)
        counts, metrics, values = table(game.metrics)
        errors = np.full(len(metrics), math.nan)
    else:
        counts, metrics, values, errors = _headline_rows(game, cells, answers, results)
    attacker, target, metric, method_column = string_columns(
        ([c.attacker for c in cells], counts), ([c.target for c in cells], counts),
        (metrics, None), (methods, counts))
    data: dict[str, Any] = {"attacker": attacker, "target": target}
    for column in middle:
        data[column] = [setting.get(column) for setting, n in zip(settings, counts)
                        for _ in range(n)]
    data["metric"] = metric
    data["value"] = np.asarray(values, dtype=float)
    data["stderr"] = errors
    data["method"] = method_column
    return frame_from_columns(data)


def _headline_rows(game: Game[Any], cells: Sequence[Cell], answers: Sequence[Answer],
                   results: dict[tuple[Any, ...], Result] | None
                   ) -> tuple[list[int], list[str], np.ndarray, np.ndarray]:
    """Each cell's number of headline rows, and each row's metric, value and stderr (each
    cell's Result stored in ``results`` on the way)."""
    per_cell = []
    for cell, answer in zip(cells, answers):
        if results is not None:
            answer = full_result(answer)   # the rows then read the Result stored
            results[(cell.attacker, cell.target, *cell.columns.values())] = answer
        # a light answer may give its figures at once (40k's ExactCell: a grid's cells)
        figures = getattr(answer, "headline", None)
        per_cell.append(figures(game.metrics) if figures is not None
                        else headline(game, answer))
    rows = [row for cell_rows in per_cell for row in cell_rows]
    return ([len(cell_rows) for cell_rows in per_cell], [row[0] for row in rows],
            np.array([row[1] for row in rows], dtype=float),
            np.array([row[2] for row in rows], dtype=float))


def sweep_values(parameter: str, values: Any) -> list[Any]:
    """The settings of a sweep over ``parameter`` as a list, or a one-line refusal when
    ``values`` is not a non-empty list of them (a string or a mapping is one value, not a
    list)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise OptionError(f"sweep over '{parameter}' takes a list of values, not "
                          f"{type(values).__name__} {values!r:.60}")
    refuse_unordered(values, f"the values of a sweep over '{parameter}'")
    listed = list(values)
    if not listed:
        raise OptionError(f"sweep over '{parameter}' needs at least one value")
    return listed


def sweep(game: Game[Any], attackers: Sequence[tuple[str, Any]],
          targets: Sequence[tuple[str, Any]], parameter: str, values: Any, *,
          options: Mapping[str, Any], method: str, trials: int, seed: SeedLike,
          progress: bool | None = None, situation: str = "", keep_results: bool = False,
          setting: Callable[[Any], Mapping[str, Any]] | None = None) -> Any:
    """:func:`compare` repeated for each value of one parameter: a column named
    ``parameter`` after the situation columns (unless it is one of them).

    Parameters
    ----------
    attackers, targets
        ``(label, spec)`` pairs (see :func:`labelled`); cells run attackers outermost, then
        targets, then values, each seeded as in :func:`cell_seeds`.
    parameter, values
        What varies, and its settings in order.
    options
        The options every cell shares.
    setting
        The options one value sets (default ``{parameter: value}``).
    method, trials, seed, progress, situation, keep_results
        As for :func:`compare`.
    """
    values = sweep_values(parameter, values)
    setting = setting or (lambda value: {parameter: value})
    column: dict[str, Any] | None = {} if parameter in game.situation_columns else None
    cells = [Cell(a_label, t_label, a_spec, t_spec, {**options, **setting(value)},
                  column if column is not None else {parameter: value})
             for a_label, a_spec in attackers for t_label, t_spec in targets
             for value in values]
    return compare(game, cells, method=method, trials=trials, seed=seed, progress=progress,
                   situation=situation, keep_results=keep_results,
                   describe=f"sweep {parameter}")


def _run_cell(game: Game[Any], cell: Cell, method: str, trials: int,
              seed: SeedLike | None) -> Result:
    """One cell's result by ``method``; ``"auto"`` falls back to Monte Carlo when the
    exact engine cannot follow the cell."""
    try:
        plan = game.compile(cell.attackers, cell.targets, **cell.options)
        return by_method(method, lambda: exact_result(game, plan),
                         lambda: monte_carlo_result(game, plan, trials=trials,
                                                    seed=check_seed(seed)))
    except UnsupportedError as exc:
        raise within(f"{cell.attacker} against {cell.target}", exc,
                     (cell.attacker, cell.target)) from None


def labelled(specs: Any, single: tuple[type, ...], missing: str,
             label_of: Callable[[Any], str]) -> list[tuple[str, Any]]:
    """``(label, spec)`` pairs of a comparison's attackers or targets.

    A dict gives the labels; a list (or one spec of the ``single`` types) is labelled by
    ``label_of``; labels that repeat get ``" (2)"``, ``" (3)"``... An empty or unreadable
    argument is an :class:`OptionError` that says ``missing``.

    Examples
    --------
    >>> labelled(["a: 1", "a: 2"], (str,), "give one", lambda s: s.split(":")[0])
    [('a', 'a: 1'), ('a (2)', 'a: 2')]
    """
    if isinstance(specs, Mapping):
        items = [(str(k), v) for k, v in specs.items()]
    else:
        if isinstance(specs, single):
            specs = [specs]
        if unordered(specs):
            raise OptionError(f"{missing}, in a list or tuple (their order matters); got "
                              f"{type(specs).__name__} {specs!r:.60}")
        if isinstance(specs, (str, bytes, bytearray)) or not isinstance(specs, Sequence):
            raise OptionError(f"{missing}; got {type(specs).__name__} {specs!r:.60}")
        items = [(label_of(v), v) for v in specs]
    if not items:
        raise OptionError(missing)
    seen: dict[str, int] = {}
    out = []
    for label, spec in items:
        seen[label] = seen.get(label, 0) + 1
        out.append((label if seen[label] == 1 else f"{label} ({seen[label]})", spec))
    return out
