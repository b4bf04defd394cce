"""Finding the best orders: every set of orders when there are few, greedy + local search
when not.

Both score orders with an evaluator (:mod:`.evaluate`) and rank them lexicographically
(:func:`~.objectives.lexicographic_best`). With Monte Carlo, orders are first scored with a
fraction of the trials; a set of orders whose value is more than :data:`PRUNE_Z` standard
errors of the difference below the best is dropped (a bound, not a proof), and the rest are scored
again with every trial, all with the same seed.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mathhammer.core.progress import bar
from mathhammer.wh40k.optimise.objectives import lexicographic_best
from mathhammer.wh40k.optimise.space import Allocation, Orders, Space, normal_order

#: Standard errors of the difference below the best at which a set of orders is pruned.
PRUNE_Z = 4.0
#: A Monte Carlo optimisation scores orders with trials // this first (at least 1,000 trials).
FIRST_PASS_SHARE = 8

Values = list[tuple[float, float]]


@dataclass
class Scored:
    """A set of orders, its objective values (value, stderr) and its outcome."""

    orders: Orders
    values: Values
    outcome: Any
    trials: int | None = None

    @property
    def plan(self) -> Orders:
        """The old name of :attr:`orders` ("plan" is kept for a compiled plan): it answers
        for one release with a DeprecationWarning."""
        warnings.warn("Scored.plan is deprecated and will be removed; use Scored.orders",
                      DeprecationWarning, stacklevel=2)
        return self.orders


@dataclass
class Search:
    """Scores orders (memoised) and counts the work; ``score(orders, trials)`` is given."""

    score: Callable[[Orders, int | None], Scored]
    budget: int
    tolerance: float = 1e-9
    seen: dict[Orders, Scored] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def get(self, orders: Orders, trials: int | None = None) -> Scored:
        known = self.seen.get(orders)
        if known is None or (trials is None and known.trials is not None):
            known = self.seen[orders] = self.score(orders, trials)
        return known

    def ranked(self, items: Sequence[Scored]) -> list[Scored]:
        order = lexicographic_best([s.values for s in items], self.tolerance)
        return [items[i] for i in order]

    def better(self, new: Scored, current: Scored) -> bool:
        return self.ranked([current, new])[0] is new and new.orders != current.orders


def enumerate_orders(space: Space, search: Search, monte_carlo_trials: int | None,
                    progress: bool | None) -> list[Scored]:
    """Every set of orders, ranked (Monte Carlo: a first pass, pruning, then every trial)."""
    candidates = list(space.every_orders())
    first = None
    if monte_carlo_trials is not None and len(candidates) > 2:
        first = max(1_000, monte_carlo_trials // FIRST_PASS_SHARE)
        first = first if first < monte_carlo_trials else None
    with bar(len(candidates), "optimise", progress=progress, unit="orders") as shown:
        scored = []
        for orders in candidates:
            scored.append(search.get(orders, first))
            shown.update()
    if first is None:
        return search.ranked(scored)
    kept = prune(search.ranked(scored))
    search.notes.append(f"{len(candidates) - len(kept)} of {len(candidates)} sets of orders "
                        f"dropped after {first:,} trials each (more than {PRUNE_Z:g} standard "
                        "errors below the best)")
    final = [search.get(s.orders) for s in kept]
    dropped = {id(s) for s in kept}
    return search.ranked(final) + [s for s in scored if id(s) not in dropped]


def prune(ranked: list[Scored]) -> list[Scored]:
    """The orders not clearly worse than the best on the first objective."""
    best, best_se = ranked[0].values[0]
    return [s for s in ranked
            if best - s.values[0][0] <= PRUNE_Z * math.hypot(best_se, s.values[0][1])]


def local_search(space: Space, search: Search, monte_carlo_trials: int | None,
                 progress: bool | None) -> list[Scored]:
    """Greedy + local search: start from the best of the orders as written and the focused
    orders, improve one slot or option at a time, then (when splitting) move models
    between cells; stop at a local optimum or when the evaluation budget is spent."""
    trials = None
    if monte_carlo_trials is not None:
        trials = max(1_000, monte_carlo_trials // FIRST_PASS_SHARE)
        trials = trials if trials < monte_carlo_trials else None
    base = space.as_written()
    starts = [base] + [space.focused(t, base) for t in space.targets()]
    with bar(search.budget, "optimise", progress=progress, unit="orders") as shown:
        current = search.ranked([search.get(p, trials) for p in dict.fromkeys(starts)])[0]
        improved = True
        while improved and len(search.seen) < search.budget:
            improved = False
            for neighbour in _neighbours(space, current.orders):
                if len(search.seen) >= search.budget:
                    search.notes.append(f"stopped after {search.budget:,} sets of orders (the "
                                        "evaluation budget)")
                    break
                candidate = search.get(neighbour, trials)
                shown.update_to(len(search.seen))
                if search.better(candidate, current):
                    current, improved = candidate, True
    ranked = search.ranked(list(search.seen.values()))
    if trials is None:
        return ranked
    top = prune(ranked)[:8]
    final = [search.get(s.orders) for s in top]
    rescored = {id(s) for s in top}
    return search.ranked(final) + [s for s in ranked if id(s) not in rescored]


def _neighbours(space: Space, orders: Orders):
    """Orders one change away: a slot's models all to another cell, an option's other value,
    then (when splitting) one or half of a cell's models moved to another cell."""
    for i, slot in enumerate(space.slots):
        for cell in slot.cells:
            allocation: Allocation = ((cell, slot.models),)
            if allocation != orders.allocations[i]:
                yield _with_allocation(orders, i, allocation)
    for j, option in enumerate(space.options):
        for value in option.candidates:
            if value != orders.options[j]:
                yield dataclasses.replace(
                    orders, options=orders.options[:j] + (value,) + orders.options[j + 1:])
    if space.choose_order:  # two neighbouring activations swapped
        order = space.activation_order(orders)
        for j in range(len(order) - 1):
            swapped = order[:j] + (order[j + 1], order[j]) + order[j + 2:]
            yield dataclasses.replace(orders, order=normal_order(swapped))
    if not space.split:
        return
    for i, slot in enumerate(space.slots):
        current = dict(orders.allocations[i])
        for source, n in orders.allocations[i]:
            for cell in slot.cells:
                if cell == source:
                    continue
                for moved in sorted({1, n // 2, n} - {0}):
                    shares = dict(current)
                    shares[source] -= moved
                    shares[cell] = shares.get(cell, 0) + moved
                    allocation = tuple((c, shares[c]) for c in slot.cells if shares.get(c))
                    yield _with_allocation(orders, i, allocation)


def _with_allocation(orders: Orders, i: int, allocation: Allocation) -> Orders:
    return dataclasses.replace(
        orders, allocations=orders.allocations[:i] + (allocation,) + orders.allocations[i + 1:])
