"""Branch and bound over the orders, for spaces too large to score every set of orders.

The slots are decided one after another (depth first); a partial set of orders is dropped
when an upper bound of everything that completes it is below the best value found so far.

The bound (:class:`OrderFreeBound`). A target of one statline of N models of W wounds loses
L wounds; one allocation of damage d takes at most min(d after Feel No Pain, W) of them
(excess damage is lost; mortal wounds that spill, at most d), so L <= S = min(NW, the sum of
these over every unsaved wound and critical wound of every batch), path by path, in whatever
order the batches come. The objective is a sum over targets of E g(L) with g nondecreasing
(wounds lost, models destroyed floor(L / W), or their points); g is below its least concave
majorant h (the upper hull of the points (kW, g(kW))), so E g(L) <= E h(S). S needs only
each weapon line's own law, and E h(S) of independent nonnegative lines is submodular (h is
concave): adding several lines gains at most the sum of what each gains alone. So the bound
of a partial set of orders is E h(S) of the lines placed, plus, for each free slot, the most
its models could gain over those lines (the best way to share them between its cells, by
dynamic programming over the cells). :func:`bound_obstacle` checks what the bound needs:
one objective that is such a mean, targets of one statline, no Command Re-roll or choice of
Damage re-roll, no buffs, no activation order to choose. Every set of orders not scored is
then proven no better than the best, so the answer is optimal as an enumeration's is.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from mathhammer.core.progress import bar
from mathhammer.wh40k.optimise.evaluate import one_profile
from mathhammer.wh40k.optimise.objectives import Objective
from mathhammer.wh40k.optimise.search import Scored, Search
from mathhammer.wh40k.optimise.space import Allocation, Orders, Space

#: Objectives whose value is a sum over targets of a mean that more attacks never lower.
MONOTONE_KINDS = ("expected_models_destroyed", "expected_damage", "expected_points_destroyed")
#: A partial set of orders is dropped when its bound is below the best by more than this
#: (relative): bounds and values come from the same engine, so only rounding separates them.
BOUND_MARGIN = 1e-9


def bound_obstacle(space: Space, objectives: Sequence[Objective]) -> str | None:
    """Why branch and bound cannot prove an optimum here, or None when it can."""
    scenario = space.scenario
    if len(objectives) != 1 or objectives[0].kind not in MONOTONE_KINDS:
        return "one objective that is a mean (models destroyed, wounds lost or points) is needed"
    if space.choose_order:
        return "the activation order is chosen"
    for target in space.targets():
        if one_profile(scenario.units[target]) is None:
            return f"'{target}' has several statlines"
    for k, act in enumerate(scenario.activations):
        chosen = [o.name for o in space.options if o.activation == k]
        if act.modifiers.command_reroll != "none" or \
                {"command_reroll", "reroll_damage"} & set(chosen):
            return "a Command Re-roll or a choice of Damage re-roll"
        if act.modifiers.reroll_damage == "best" or act.buffs:
            return "a state-dependent re-roll or buffs"
    return None


class OrderFreeBound:
    """The bound of the module docstring for partial sets of orders of ``space`` and the
    objective ``objective`` measured on ``units``; each weapon line's law is computed once."""

    def __init__(self, space: Space, objective: Objective, units: Sequence[str]) -> None:
        self.space = space
        self.curves = {t: _majorant(space.scenario.units[t], objective, t in units)
                       for t in space.targets()}
        self.lines: dict[tuple, np.ndarray] = {}

    def __call__(self, orders: Orders, free: Sequence[int]) -> float:
        """The bound for every set of orders equal to ``orders`` outside the slots ``free``."""
        rules = self.space.rules_of(orders)
        base: dict[str, np.ndarray] = {t: np.ones(1) for t in self.curves}
        for i, slot in enumerate(self.space.slots):
            if i not in free:
                for (target, index), models in orders.allocations[i]:
                    base[target] = _sum_law(base[target], self._line(
                        slot, target, index, models, orders, rules))
        value = sum(self._mean(t, law) for t, law in base.items())
        return value + sum(self._slot_gain(self.space.slots[i], base, orders, rules)
                           for i in free)

    def _mean(self, target: str, law: np.ndarray) -> float:
        return float(law @ self.curves[target][:len(law)])

    def _slot_gain(self, slot: Any, base: dict[str, np.ndarray], orders: Orders,
                   rules: Any) -> float:
        """The most ``slot``'s models may add to ``base`` (each part alone over the base)."""
        best = np.full(slot.models + 1, -np.inf)
        best[0] = 0.0
        counts = range(1, slot.models + 1) if self.space.split else (slot.models,)
        for target, index in slot.cells:
            here = self._mean(target, base[target])
            gains = {n: self._mean(target, _sum_law(base[target], self._line(
                slot, target, index, n, orders, rules))) - here for n in counts}
            best = np.maximum(best, [max([best[m]] + [best[m - n] + g for n, g in gains.items()
                                                     if n <= m]) for m in range(len(best))])
        return float(best[slot.models])

    def _line(self, slot: Any, target: str, index: int, models: int, orders: Orders,
              rules: Any) -> np.ndarray:
        setting = (self.space.scenario.activations[slot.activation].situation,
                   self.space.modifiers_of(orders, slot.activation), rules)
        weapon, count = slot.profile(index), models * slot.weapon.per_model
        key = (target, weapon, count, setting)
        if key not in self.lines:
            self.lines[key] = _line_law(self.space.scenario.units[target], weapon, count,
                                        setting)
        return self.lines[key]


def _majorant(unit: Any, objective: Objective, measured: bool) -> np.ndarray:
    """h over wounds lost 0..NW: the least concave majorant of the objective's g (zero for
    a unit the objective does not measure)."""
    from mathhammer.wh40k.optimise.evaluate import removal_points

    profile = _profile(unit)
    wounds, models = int(profile.wounds), int(unit.models)
    lost = np.arange(models * wounds + 1, dtype=float)
    if not measured:
        return np.zeros(len(lost))
    if objective.kind == "expected_damage":
        return lost
    points = np.arange(models + 1, dtype=float) if objective.kind == \
        "expected_models_destroyed" else removal_points(unit, dict(objective.weights))
    return _upper_hull(np.arange(models + 1) * wounds, points, lost)


def _profile(unit: Any) -> Any:
    """The one statline of a target (:func:`bound_obstacle` has checked there is one)."""
    profile = one_profile(unit)
    if profile is None:
        raise ValueError(f"'{unit.name}' has several statlines: no bound")
    return profile


def _upper_hull(xs: np.ndarray, ys: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The least concave majorant of the points (xs, ys) (xs increasing), at ``at``."""
    hull: list[tuple[float, float]] = []
    for x, y in zip(xs.tolist(), ys.tolist()):
        while len(hull) >= 2 and (hull[-1][1] - hull[-2][1]) * (x - hull[-2][0]) <= \
                (y - hull[-2][1]) * (hull[-1][0] - hull[-2][0]):
            hull.pop()
        hull.append((x, y))
    return np.interp(at, [h[0] for h in hull], [h[1] for h in hull])


def _sum_law(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The law of min(X + Y, top) for independent X, Y capped at the same top."""
    top = max(len(a), len(b)) - 1
    return _truncated(np.convolve(a, b), top)


def _line_law(unit: Any, weapon: Any, count: int, setting: tuple) -> np.ndarray:
    """The law of one line's capped wounds S (module docstring), up to the unit's wounds."""
    from mathhammer.wh40k.compile import (FNP_COLUMN, FNP_MORTAL_COLUMN, G_WOUNDS,
                                          MORTAL_DAMAGE, NORMAL_DAMAGE)
    from mathhammer.wh40k.exact_engine.chains import (compiled_plan,
                                                      unsaved_and_devastating_pmf)
    from mathhammer.wh40k.exact_engine.tables import mapped_pmf, passed_damage_pmf
    from mathhammer.wh40k.optimise.evaluate import with_unit_defense

    situation, modifiers, rules = setting
    profile = _profile(unit)
    plan = compiled_plan([weapon.with_count(count)], profile, situation,
                         with_unit_defense(unit, modifiers), rules)
    group, row = plan.groups[0].tolist(), plan.batch[0].tolist()
    wounds, top = group[G_WOUNDS], plan.total_wounds
    raw, maps = plan.damage_pmfs[0], plan.damage_maps[0]
    normal = _capped(passed_damage_pmf(mapped_pmf(raw, maps[NORMAL_DAMAGE]),
                                       group[row[FNP_COLUMN]]), wounds)
    mortal = _capped(passed_damage_pmf(mapped_pmf(raw, maps[MORTAL_DAMAGE]),
                                       group[row[FNP_MORTAL_COLUMN]]),
                     top if plan.dw_spill else wounds)
    joint = unsaved_and_devastating_pmf(plan, 0)
    total = np.zeros(top + 1)
    mortal_power = np.ones(1)
    for k in range(joint.shape[1]):
        power = mortal_power
        for u in range(joint.shape[0]):
            if joint[u, k] > 0:
                total[:len(power)] += joint[u, k] * power[:top + 1]
                total[-1] += joint[u, k] * power[top + 1:].sum()
            power = _truncated(np.convolve(power, normal), top)
        mortal_power = _truncated(np.convolve(mortal_power, mortal), top)
    return total


def _capped(pmf: np.ndarray, cap: int) -> np.ndarray:
    return _truncated(np.asarray(pmf, dtype=float), cap)


def _truncated(pmf: np.ndarray, top: int) -> np.ndarray:
    """``pmf`` of min(X, top)."""
    if len(pmf) <= top + 1:
        return pmf
    out = pmf[:top + 1].copy()
    out[top] += pmf[top + 1:].sum()
    return out


def branch_and_bound(space: Space, search: Search, objective: Objective,
                     units: Sequence[str], nodes: int,
                     progress: bool | None) -> tuple[list[Scored], bool]:
    """The best orders, depth first with bounds; returns (ranked scored orders, proven).

    ``objective`` (measured on ``units``) is the only one; ``nodes`` caps the partial sets
    of orders bounded (past it, the best so far is returned, not proven).
    """
    start = [space.as_written()] + [space.focused(t, space.as_written())
                                    for t in space.targets()]
    best = max(search.get(o).values[0][0] for o in dict.fromkeys(start))
    free_all = list(range(len(space.slots)))
    budget = [nodes]
    choices = [slot.allocations(space.split) for slot in space.slots]
    bound = OrderFreeBound(space, objective, units)
    with bar(nodes, "optimise (branch and bound)", progress=progress, unit="bounds") as shown:
        for options in itertools.product(*(o.candidates for o in space.options)):
            base = Orders(space.as_written().allocations, tuple(options))
            best = _descend(space, search, bound, choices, base, 0, free_all, best, budget,
                            shown)
    return search.ranked(list(search.seen.values())), budget[0] > 0


def _descend(space: Space, search: Search, bound: OrderFreeBound,
             choices: list[list[Allocation]], orders: Orders, depth: int, free: list[int],
             best: float, budget: list[int], shown: Any) -> float:
    """Decide slot ``depth`` and below; returns the best value known after."""
    if depth == len(space.slots):
        return max(best, search.get(orders).values[0][0])
    for allocation in choices[depth]:
        candidate = Orders(orders.allocations[:depth] + (allocation,)
                           + orders.allocations[depth + 1:], orders.options)
        if budget[0] <= 0:
            return best
        budget[0] -= 1
        shown.update()
        rest = free[depth + 1:]
        if rest and bound(candidate, rest) < best - BOUND_MARGIN * max(abs(best), 1.0):
            continue
        best = _descend(space, search, bound, choices, candidate, depth + 1, free, best,
                        budget, shown)
    return best
