"""``mh.optimise``: the best orders for what a scenario leaves open."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mathhammer.core.inputs import real_number, text
from mathhammer.core.progress import check_progress
from mathhammer.core.signatures import AUTO, check_method, moved_into, old_spellings, renamed
from mathhammer.core.trials import check_seed, check_trials
from mathhammer.errors import OptionError, UnsupportedError, did_you_mean
from mathhammer.wh40k.optimise.branch_bound import bound_obstacle, branch_and_bound
from mathhammer.wh40k.optimise.evaluate import (ExactEvaluator, MonteCarloEvaluator, NotExact,
                                                exact_obstacle)
from mathhammer.wh40k.optimise.objectives import Objective, units_measured, value_of
from mathhammer.wh40k.optimise.result import OptimiseResult
from mathhammer.wh40k.optimise.search import Scored, Search, enumerate_orders, local_search
from mathhammer.wh40k.optimise.settings import DEFAULT_OPTIMISE_TRIALS, SearchOptions
from mathhammer.wh40k.optimise.space import Orders, Space, build_space
from mathhammer.wh40k.scenario.model import Scenario

#: Sets of orders enumerated at most, by engine; beyond them the search is greedy + local.
MAX_ENUMERATED = {"exact": 200_000, "monte-carlo": 256}
#: Sets of orders scored at most by a local search, by engine.
SEARCH_BUDGET = {"exact": 20_000, "monte-carlo": 400}

ObjectiveLike = str | Objective | tuple

#: optimise's keywords that :class:`SearchOptions` holds now (max_plans as max_orders).
SEARCH_KEYWORDS = {"split": "split", "open_profiles": "open_profiles",
                   "activation_order": "activation_order", "max_plans": "max_orders",
                   "budget": "budget"}


@moved_into("options", SearchOptions, SEARCH_KEYWORDS)
@old_spellings(engine=renamed("method"))
def optimise(scenario: Scenario | str | Path,
             objective: ObjectiveLike | Sequence[ObjectiveLike] = "expected_models_destroyed",
             *, unit: str | None = None, side: str | None = None, k: int | None = None,
             weights: Mapping[str, float] | None = None, method: str = AUTO,
             trials: int = DEFAULT_OPTIMISE_TRIALS, seed: int = 1, tolerance: float = 0.0,
             progress: bool | None = None,
             options: SearchOptions | None = None) -> OptimiseResult:
    """The orders that maximises ``objective`` over the choices ``scenario`` leaves open.

    Open choices: each weapon's target among its activation's ``targets`` (a model group's
    models may split between them, unless ``options`` says not to), the profile of each
    multi-profile weapon the activation names by its weapon name or selects by default, and
    the values listed in an activation's ``choose`` table (re-roll policies, where the
    Command Re-roll goes, [LETHAL HITS] use); optionally the order of the activations too
    (:class:`~.settings.SearchOptions`).

    Parameters
    ----------
    scenario
        A :class:`~mathhammer.wh40k.scenario.model.Scenario` (its ``open_choices``) or the
        path of a scenario file, read with ``open_choices=True``.
    objective
        An objective kind (see :data:`~.objectives.KINDS`), measured on ``unit``, on
        ``side`` or (neither) on every unit a weapon may aim at; or an
        :class:`~.objectives.Objective`; or a list of them, lexicographic (the first decides,
        the next breaks ties, e.g. "destroy A, then as much of B as possible"). A tuple
        ``(kind, unit)`` is short for ``Objective(kind, unit=unit)``.
    k, weights
        For ``p_at_least`` (models) and ``expected_points_destroyed`` (points per model by
        unit, overriding the scenario's points).
    method
        The engine that scores the orders: ``"auto"`` (exact when the scenario allows it, else
        Monte Carlo), ``"exact"`` (refused with the reason when it cannot) or
        ``"monte-carlo"``. (``engine=`` is its old spelling.)
    trials, seed
        Monte Carlo trials per set of orders and the seed every set of orders shares (common
        random numbers).
    tolerance
        With several objectives: orders within ``tolerance`` of the best on an objective
        (plus two standard errors of the difference, by Monte Carlo) count as tied on it and
        are ranked by the next; e.g. 0.05 for "P(kill A) within 5 points of the best, then
        as much of B as possible".
    progress
        A progress bar on stderr for a long search: ``None`` (default) when stderr is a
        terminal or in a notebook, ``True``/``False`` to force it.
    options
        The choices besides targets and listed values, and how many sets of orders are scored
        (:class:`~.settings.SearchOptions`: ``split``, ``open_profiles``,
        ``activation_order``, ``max_orders``, ``budget``; given as keywords of their own
        before, which still works for one release with a DeprecationWarning).

    Returns
    -------
    OptimiseResult
        Orders best first with their values, the orders that put everything at one target,
        the method and whether the best is proven optimal (exact and every set of orders scored).

    Examples
    --------
    >>> import mathhammer as mh
    >>> text = '''
    ... [units.Marines]
    ... models = [{ name = "Marine", count = 2, profile = "T4 Sv3+ W2",
    ...             weapons = ['Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'] }]
    ... [units.Gaunts]
    ... models = [{ name = "Gaunt", count = 1, profile = "T3 Sv5+ W1" }]
    ... [units.Warrior]
    ... models = [{ name = "Warrior", count = 1, profile = "T5 Sv4+ W3" }]
    ... [[activations]]
    ... phase = "shooting"
    ... attacker = "Marines"
    ... targets = ["Gaunts", "Warrior"]
    ... '''
    >>> best = mh.optimise(mh.parse_scenario(text, open_choices=True))
    >>> best.method, best.optimal, len(best.ranked)
    ('enumeration', True, 3)
    """
    if not isinstance(scenario, Scenario):
        from mathhammer.wh40k.scenario.reader import load_scenario

        scenario = load_scenario(scenario, open_choices=True)
    unit, side = text(unit, "unit", optional=True), text(side, "side", optional=True)
    objectives = _objectives(objective, unit, side, k, weights)
    _check_weights(objectives, scenario)
    engine = check_method(method)
    trials, seed = check_trials(trials), check_seed(seed)
    check_progress(progress)
    tolerance = _number(tolerance, f"tolerance={tolerance!r:.30}")
    if options is None:
        options = SearchOptions()
    elif not isinstance(options, SearchOptions):
        raise OptionError(f"options must be a SearchOptions (or None), not "
                          f"{type(options).__name__} {options!r:.40}")
    space = build_space(scenario, open_profiles=options.open_profiles, split=options.split,
                        choose_order=options.activation_order)
    max_orders, budget = options.max_orders, options.budget
    measured = [units_measured(o, scenario.sides, space.targets()) for o in objectives]
    _check_points(scenario, objectives, measured)
    obstacle = exact_obstacle(space)
    if engine == "exact" and obstacle:
        raise UnsupportedError(f"the exact evaluation cannot follow this scenario: {obstacle}; "
                               "use method='auto' (no --exact) for Monte Carlo")
    notes = [f"Monte Carlo: {obstacle}"] if engine == "auto" and obstacle else []
    use = "monte-carlo" if engine == "monte-carlo" or obstacle else "exact"
    try:
        return _solve(space, objectives, measured, use, trials, seed, (max_orders, budget),
                      tolerance, progress, notes)
    except NotExact as exc:
        if engine == "exact":
            raise UnsupportedError(f"the exact evaluation cannot follow these orders: {exc}; use "
                                   "method='auto' (no --exact) for Monte Carlo") from None
        return _solve(space, objectives, measured, "monte-carlo", trials, seed,
                      (max_orders, budget), tolerance, progress, [f"Monte Carlo: {exc}"])


#: What ``reroll_damage = "best"`` maximises for each first objective (points: per model).
REROLL_GOAL_OF = {"expected_damage": "damage", "p_unit_destroyed": "unit_destroyed",
                  "expected_models_destroyed": "models_destroyed",
                  "expected_points_destroyed": "models_destroyed"}


#: Branch and bound is tried on exact spaces up to this many times the enumeration limit.
BOUND_FACTOR = 10


def _solve(space: Space, objectives: list[Objective], measured: list[list[str]], use: str,
           trials: int, seed: int, limits: tuple[int | None, int | None],
           tolerance: float, progress: bool | None, notes: list[str]) -> OptimiseResult:
    evaluator: Any = ExactEvaluator(space, REROLL_GOAL_OF.get(objectives[0].kind)) \
        if use == "exact" else \
        MonteCarloEvaluator(space, trials, seed)

    def score(orders: Orders, orders_trials: int | None) -> Scored:
        outcome = evaluator.outcome(orders) if use == "exact" else \
            evaluator.outcome(orders, orders_trials)
        values = [value_of(o, outcome, units) for o, units in zip(objectives, measured)]
        return Scored(orders, values, outcome, orders_trials)

    limit = _limit(limits[0], "max_orders", MAX_ENUMERATED[use])
    search = Search(score, _limit(limits[1], "budget", SEARCH_BUDGET[use]),
                    max(float(tolerance), 1e-9))
    size = space.size()
    mc_trials = trials if use == "monte-carlo" else None
    obstacle = bound_obstacle(space, objectives) if use == "exact" else "Monte Carlo"
    proven = True
    if size <= limit:
        ranked, method = enumerate_orders(space, search, mc_trials, progress), "enumeration"
    elif obstacle is None and size <= BOUND_FACTOR * limit:
        nodes = BOUND_FACTOR * limit
        ranked, proven = branch_and_bound(space, search, objectives[0], measured[0], nodes,
                                          progress)
        method = "branch and bound"
        if not proven:
            notes.append(f"branch and bound stopped after {nodes:,} bounds: the best found "
                         "is not proven optimal")
    else:
        why = f"; branch and bound: {obstacle}" if obstacle and use == "exact" else ""
        notes.append(f"{size:,} sets of orders (more than {limit:,}{why}): greedy + local "
                     "search")
        ranked, method = local_search(space, search, mc_trials, progress), "search"
    naive = [(f"everything at {t}", search.get(space.focused(t, space.as_written())))
             for t in space.targets()]
    return OptimiseResult(space=space, objectives=objectives, engine=use, method=method,
                          optimal=use == "exact" and method != "search" and proven,
                          orders_in_space=size,
                          evaluated=len(search.seen), ranked=ranked, naive=naive,
                          notes=notes + search.notes, trials=mc_trials, seed=seed)


def _check_weights(objectives: list[Objective], scenario: Scenario) -> None:
    """Refuse a weight for a unit the scenario does not have, whatever the objective (a
    misspelt name would be ignored), naming it and the units there are."""
    for objective in objectives:
        for name, _ in objective.weights:
            if name not in scenario.units:
                raise OptionError(f"weights: unknown unit '{name}'"
                                  f"{did_you_mean(name, scenario.units)}; the scenario's "
                                  f"units: {', '.join(scenario.units)}")


def _check_points(scenario: Scenario, objectives: list[Objective],
                  measured: list[list[str]]) -> None:
    """A points objective needs points (or a weight) for every unit it measures."""
    for objective, units in zip(objectives, measured):
        if objective.kind != "expected_points_destroyed":
            continue
        weights = dict(objective.weights)   # every name a unit (_check_weights)
        for name in units:
            if name not in weights and any(g.points is None
                                           for g in scenario.units[name].groups):
                raise OptionError(f"unit '{name}' has no points: give it points = N in the "
                                  f"scenario file, or a weight (--weight '{name}=N')")


def _number(value: Any, shown: str) -> float:
    """A tolerance or weight: a finite number from 0 to 1e9 (``10**400`` would not fit a
    float), else an :class:`OptionError` starting with ``shown``."""
    try:
        return real_number(value, "", 0.0, 1e9)
    except OptionError:
        raise OptionError(f"{shown} must be a finite number from 0 to 1,000,000,000") from None


def _limit(value: int | None, name: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000_000:
        raise OptionError(f"{name}={value!r:.30} must be a whole number from 1 to 10,000,000")
    return value


def _objectives(objective: Any, unit: str | None, side: str | None, k: int | None,
                weights: Mapping[str, float] | None) -> list[Objective]:
    """The objectives as a list (lexicographic order)."""
    items = list(objective) if isinstance(objective, list) else [objective]
    if not items:
        raise OptionError("objective = []: give at least one objective")
    if weights is not None and not isinstance(weights, Mapping):
        raise OptionError(f"weights={weights!r:.40} must be a dict unit -> points per model")
    extra = tuple(sorted((str(name), _number(value, f"weights[{name!r:.40}] = {value!r:.20}"))
                         for name, value in (weights or {}).items()))
    out = []
    for i, item in enumerate(items):
        if isinstance(item, Objective):
            out.append(item)
        elif isinstance(item, str):
            first = i == 0
            out.append(Objective(item, unit=unit if first else None,
                                 side=side if first else None, k=k if first else None,
                                 weights=extra))
        elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(x, str)
                                                                for x in item):
            out.append(Objective(item[0], unit=item[1], weights=extra))
        else:
            raise OptionError(f"objective {item!r:.60}: give a name such as "
                              "'expected_models_destroyed', (name, unit) or an Objective")
    return out
