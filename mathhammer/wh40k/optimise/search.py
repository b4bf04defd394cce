"""Finding the best plan: every plan when there are few, greedy + local search when not.

Both score plans with an evaluator (:mod:`.evaluate`) and rank them lexicographically
(:func:`~.objectives.lexicographic_best`). With Monte Carlo, plans are first scored with a
fraction of the trials; a plan whose value is more than :data:`PRUNE_Z` standard errors of
the difference below the best is dropped (a bound, not a proof), and the rest are scored
again with every trial, all with the same seed.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mathhammer.core.progress import bar
from mathhammer.wh40k.optimise.objectives import lexicographic_best
from mathhammer.wh40k.optimise.space import Allocation, Plan, Space, normal_order

#: Standard errors of the difference below the best at which a plan is pruned.
PRUNE_Z = 4.0
#: A Monte Carlo optimisation scores plans with trials // this first (at least 1,000 trials).
FIRST_PASS_SHARE = 8

Values = list[tuple[float, float]]


@dataclass
class Scored:
    """A plan, its objective values (value, stderr) and its outcome."""

    plan: Plan
    values: Values
    outcome: Any
    trials: int | None = None


@dataclass
class Search:
    """Scores plans (memoised) and counts the work; ``score(plan, trials)`` is given."""

    score: Callable[[Plan, int | None], Scored]
    budget: int
    tolerance: float = 1e-9
    seen: dict[Plan, Scored] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def get(self, plan: Plan, trials: int | None = None) -> Scored:
        known = self.seen.get(plan)
        if known is None or (trials is None and known.trials is not None):
            known = self.seen[plan] = self.score(plan, trials)
        return known

    def ranked(self, items: Sequence[Scored]) -> list[Scored]:
        order = lexicographic_best([s.values for s in items], self.tolerance)
        return [items[i] for i in order]

    def better(self, new: Scored, current: Scored) -> bool:
        return self.ranked([current, new])[0] is new and new.plan != current.plan


def enumerate_plans(space: Space, search: Search, monte_carlo_trials: int | None,
                    progress: bool | None) -> list[Scored]:
    """Every plan, ranked (Monte Carlo: a first pass, pruning, then every trial)."""
    plans = list(space.plans())
    first = None
    if monte_carlo_trials is not None and len(plans) > 2:
        first = max(1_000, monte_carlo_trials // FIRST_PASS_SHARE)
        first = first if first < monte_carlo_trials else None
    with bar(len(plans), "optimise", progress=progress, unit="plan") as shown:
        scored = []
        for plan in plans:
            scored.append(search.get(plan, first))
            shown.update()
    if first is None:
        return search.ranked(scored)
    kept = prune(search.ranked(scored))
    search.notes.append(f"{len(plans) - len(kept)} of {len(plans)} plans dropped after "
                        f"{first:,} trials each (more than {PRUNE_Z:g} standard errors below "
                        "the best)")
    final = [search.get(s.plan) for s in kept]
    dropped = {id(s) for s in kept}
    return search.ranked(final) + [s for s in scored if id(s) not in dropped]


def prune(ranked: list[Scored]) -> list[Scored]:
    """The plans not clearly worse than the best on the first objective."""
    best, best_se = ranked[0].values[0]
    return [s for s in ranked
            if best - s.values[0][0] <= PRUNE_Z * math.hypot(best_se, s.values[0][1])]


def local_search(space: Space, search: Search, monte_carlo_trials: int | None,
                 progress: bool | None) -> list[Scored]:
    """Greedy + local search: start from the best of the plan as written and the focused
    plans, improve one slot or option at a time, then (when splitting) move models
    between cells; stop at a local optimum or when the evaluation budget is spent."""
    trials = None
    if monte_carlo_trials is not None:
        trials = max(1_000, monte_carlo_trials // FIRST_PASS_SHARE)
        trials = trials if trials < monte_carlo_trials else None
    base = space.as_written()
    starts = [base] + [space.focused(t, base) for t in space.targets()]
    with bar(search.budget, "optimise", progress=progress, unit="plan") as shown:
        current = search.ranked([search.get(p, trials) for p in dict.fromkeys(starts)])[0]
        improved = True
        while improved and len(search.seen) < search.budget:
            improved = False
            for neighbour in _neighbours(space, current.plan):
                if len(search.seen) >= search.budget:
                    search.notes.append(f"stopped after {search.budget:,} plans (the "
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
    final = [search.get(s.plan) for s in top]
    rescored = {id(s) for s in top}
    return search.ranked(final) + [s for s in ranked if id(s) not in rescored]


def _neighbours(space: Space, plan: Plan):
    """Plans one change away: a slot's models all to another cell, an option's other value,
    then (when splitting) one or half of a cell's models moved to another cell."""
    for i, slot in enumerate(space.slots):
        for cell in slot.cells:
            allocation: Allocation = ((cell, slot.models),)
            if allocation != plan.allocations[i]:
                yield _with_allocation(plan, i, allocation)
    for j, option in enumerate(space.options):
        for value in option.candidates:
            if value != plan.options[j]:
                yield dataclasses.replace(
                    plan, options=plan.options[:j] + (value,) + plan.options[j + 1:])
    if space.orders:  # two neighbouring activations swapped
        order = space.activation_order(plan)
        for j in range(len(order) - 1):
            swapped = order[:j] + (order[j + 1], order[j]) + order[j + 2:]
            yield dataclasses.replace(plan, order=normal_order(swapped))
    if not space.split:
        return
    for i, slot in enumerate(space.slots):
        current = dict(plan.allocations[i])
        for source, n in plan.allocations[i]:
            for cell in slot.cells:
                if cell == source:
                    continue
                for moved in sorted({1, n // 2, n} - {0}):
                    shares = dict(current)
                    shares[source] -= moved
                    shares[cell] = shares.get(cell, 0) + moved
                    allocation = tuple((c, shares[c]) for c in slot.cells if shares.get(c))
                    yield _with_allocation(plan, i, allocation)


def _with_allocation(plan: Plan, i: int, allocation: Allocation) -> Plan:
    return dataclasses.replace(
        plan, allocations=plan.allocations[:i] + (allocation,) + plan.allocations[i + 1:])
