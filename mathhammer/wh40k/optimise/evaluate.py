"""The outcome of a set of orders: exact, target by target, or by Monte Carlo on the whole
scenario.

Exact: when no targeted unit attacks, each target's fate depends only on the weapons aimed
at it, so the orders' outcome is, per target, one call of the exact engine
(:func:`mathhammer.exact`) on those weapons in the order the scenario engine resolves the
orders' own scenario (:func:`~.space.concrete_scenario`, gathered as the kernel gathers it:
targets in the order first named, batches in their order at each target); the calls are
cached on everything they read, so orders that aim the same weapons at a target in the same
order share the work. One activation's Command Re-roll is one for all its targets: the
first target whose roll fails takes it, and the targets after it go without
(:func:`mathhammer.wh40k.exact_engine.command.solve_by_hand` splits each target's law by
where the re-roll ends). :func:`exact_obstacle` names what keeps a scenario from this.

Monte Carlo: the orders as a scenario (:func:`~.space.concrete_scenario`) run by
:func:`mathhammer.run` with the same seed for every set of orders (common random numbers).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mathhammer.core.result import binomial_stderr
from mathhammer.errors import UnsupportedError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.optimise.space import Orders, Space, concrete_scenario
from mathhammer.wh40k.profiles import TargetProfile
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import Unit, allocation_groups, declared_order

#: Most distinct exact-engine calls one optimisation may make.
MAX_EXACT_CALLS = 20_000
#: Orders' gathered loads remembered at once (enumeration meets a set of orders' option values in a
#: row, so a few suffice).
MAX_GATHERED = 256


def exact_obstacle(space: Space) -> str | None:
    """Why the exact evaluation cannot follow this scenario, or None when it can."""
    scenario = space.scenario
    if scenario.rounds > 1:
        return f"{scenario.rounds} battle rounds (the exact evaluation covers one)"
    attackers = {a.attacker for a in scenario.activations}
    with_slots = {slot.activation for slot in space.slots}
    for k, act in enumerate(scenario.activations):
        if k not in with_slots:
            return f"activation '{act.label}' splits a melee weapon's attacks by hand"
    for target in space.targets():
        if target in attackers:
            return f"'{target}' is attacked and attacks too"
    if scenario.switches.retarget_on_destroyed == "retarget" and len(scenario.activations) > 1:
        return "weapons may turn to another target (retarget_on_destroyed = retarget)"
    deferred = scenario.rules.dw_timing == "unit_end" or scenario.rules.edition == 10
    for slot in space.slots:
        for _, index in slot.cells:
            weapon = slot.profile(index)
            if deferred and weapon.has(ab.DEVASTATING_WOUNDS) and len(attackers) > 1:
                return "[DEVASTATING WOUNDS] resolved at the end of each unit's attacks"
            if not weapon.name:
                return f"a profile of '{slot.weapon.name}' has no name"
    return None


def one_profile(unit: Unit) -> TargetProfile | None:
    """The unit as one group of identical models (its profile with the unit's model count),
    or None when its groups differ in profile or include a CHARACTER."""
    bare = {dataclasses.replace(g.profile, name="", count=1) for g in unit.groups}
    if len(bare) != 1 or any(g.is_character for g in unit.groups):
        return None
    return bare.pop().with_count(sum(g.count for g in unit.groups))


def removal_points(unit: Unit, weights: Mapping[str, float]) -> np.ndarray:
    """Points of the first k models removed, k = 0..models: allocation group by allocation
    group in the declared order (CHARACTERs last), each group's models in listed order; the
    order in which models die when nothing ([PRECISION]) skips it. Read-only, remembered
    per unit object and weight (an optimisation asks for it once per set of orders)."""
    key = (id(unit), unit.name, float(weights[unit.name]) if unit.name in weights else None)
    known = _REMOVAL_POINTS.get(key)
    if known is not None and known[0] is unit:
        return known[1]
    if len(_REMOVAL_POINTS) > 1024:
        _REMOVAL_POINTS.clear()
    points = _removal_points(unit, weights)
    points.setflags(write=False)
    _REMOVAL_POINTS[key] = (unit, points)
    return points


_REMOVAL_POINTS: dict[tuple[int, str, float | None], tuple[Unit, np.ndarray]] = {}


def _removal_points(unit: Unit, weights: Mapping[str, float]) -> np.ndarray:
    if unit.name in weights:
        return float(weights[unit.name]) * np.arange(sum(g.count for g in unit.groups) + 1)
    groups = allocation_groups(unit)
    each = [(unit.groups[i].points or 0.0) / unit.groups[i].count
            for a in declared_order(unit) for i, n in groups[a].parts for _ in range(n)]
    return np.concatenate([[0.0], np.cumsum(each)])


class NotExact(UnsupportedError):
    """Orders the exact evaluation cannot follow (the caller falls back to Monte Carlo)."""


Pmfs = tuple[np.ndarray, np.ndarray]   # (models destroyed, wounds lost), by outcome


class ExactOutcome:
    """Per-unit exact distributions of one set of orders (units no weapon aims at lose nothing).

    ``groups``: independent groups of units, each a list of terms whose sum is the group's
    joint law, each term a product of per-unit sub-probability pmfs ({unit: (models
    destroyed, wounds lost)}). Units share a group when one activation's Command Re-roll
    may go to any of them (the first to fail a roll takes it); otherwise a group is one unit
    and one term.
    """

    def __init__(self, groups: list[list[dict[str, Pmfs]]], units: Mapping[str, Unit]) -> None:
        self._groups, self._units = groups, units
        self._models: dict[str, np.ndarray] = {}
        self._wounds: dict[str, np.ndarray] = {}
        for terms in groups:
            for unit in terms[0]:
                self._models[unit] = _marginal(terms, unit, 0)
                self._wounds[unit] = _marginal(terms, unit, 1)

    def _pmf(self, table: dict[str, np.ndarray], unit: str) -> np.ndarray:
        return table.get(unit, np.ones(1))

    def models(self, unit: str) -> tuple[float, float]:
        pmf = self._pmf(self._models, unit)
        return float(np.arange(len(pmf)) @ pmf), 0.0

    def wounds(self, unit: str) -> tuple[float, float]:
        pmf = self._pmf(self._wounds, unit)
        return float(np.arange(len(pmf)) @ pmf), 0.0

    def p_at_least(self, unit: str, k: int) -> tuple[float, float]:
        return float(self._pmf(self._models, unit)[k:].sum()), 0.0

    def p_destroyed(self, units: Sequence[str]) -> tuple[float, float]:
        wanted = set(units)
        p = 1.0
        for unit in wanted - set(self._models):   # nothing aims at it: it stands
            p *= self.p_at_least(unit, self._units[unit].models)[0]
        for terms in self._groups:
            if wanted & set(terms[0]):
                total = 0.0
                for term in terms:
                    part = 1.0
                    for unit, (models, _) in term.items():
                        everyone = self._units[unit].models
                        part *= float(models[everyone:].sum() if unit in wanted
                                      else models.sum())
                    total += part
                p *= total
        return p, 0.0

    def points(self, unit: str, weights: Mapping[str, float]) -> tuple[float, float]:
        pmf = self._pmf(self._models, unit)
        return float(pmf @ removal_points(self._units[unit], weights)[:len(pmf)]), 0.0

    def pmf(self, unit: str) -> np.ndarray:
        """The pmf of models destroyed of ``unit``."""
        return self._pmf(self._models, unit)


def _marginal(terms: list[dict[str, Pmfs]], unit: str, which: int) -> np.ndarray:
    """``unit``'s pmf (``which`` 0: models destroyed, 1: wounds lost) from a sum of terms."""
    out = np.zeros(max(len(term[unit][which]) for term in terms))
    for term in terms:
        weight = 1.0
        for other, pmfs in term.items():
            if other != unit:
                weight *= float(pmfs[0].sum())
        out[:len(term[unit][which])] += weight * term[unit][which]
    return out


class ExactEvaluator:
    """Exact outcomes of orders, one cached exact-engine call per distinct target load.

    A set of orders is first made into its scenario (:func:`~.space.concrete_scenario`), and each
    activation's batches are read from it as the scenario engine gathers them
    (:func:`~mathhammer.wh40k.scenario.compile.activation_batches`): targets in the order
    first named, batches within a target in the order the kernel resolves them. A target's
    load is those batches in that order; the cache is keyed on the load (weapons, counts and
    order), the situation, the modifiers and the rules, everything an exact call reads. The
    gathered loads of the last orders are remembered by allocations and activation order (all
    the gathering reads: option values change only modifiers and rules), so orders that
    differ only in option values build their scenario once.
    """

    method = "exact"

    def __init__(self, space: Space, reroll_goal: str | None = None) -> None:
        self.space = space
        self.reroll_goal = reroll_goal
        self.cache: dict[Any, Any] = {}
        self.gathered: dict[Any, list[dict[str, list[tuple[Any, int]]]]] = {}

    def _loads(self, orders: Orders) -> list[dict[str, list[tuple[Any, int]]]]:
        """Per activation of the orders' scenario (in the orders' order), its loads by target
        (:func:`_target_loads`)."""
        key = (orders.allocations, orders.order)
        if key not in self.gathered:
            if len(self.gathered) >= MAX_GATHERED:
                self.gathered.clear()
            concrete = concrete_scenario(self.space, orders)
            self.gathered[key] = [_target_loads(concrete, i)
                                  for i in range(len(concrete.activations))]
        return self.gathered[key]

    def outcome(self, orders: Orders) -> ExactOutcome:
        """Raises :class:`NotExact` when activations of different modifiers or situations
        (or a [BLAST]/[CLEAVE] weapon of a later activation, or two activations one of which
        has a Command Re-roll) aim at one target, or when an activation's Command Re-roll is
        shared by targets the exact engine cannot split it between."""
        scenario = self.space.scenario
        loads: dict[str, list[tuple[Any, int]]] = {}
        settings: dict[str, set] = {}
        sources: dict[str, list[int]] = {}
        shared: list[list[str]] = []
        order = self.space.activation_order(orders)
        for k, per_target in enumerate(self._loads(orders)):
            situation = scenario.activations[order[k]].situation
            modifiers = self.space.modifiers_of(orders, order[k])
            if self.reroll_goal and "best" in (modifiers.reroll_damage,   # for the objective
                                               modifiers.command_reroll[-4:]):
                modifiers = dataclasses.replace(modifiers, reroll_goal=self.reroll_goal)
            for target, lines in per_target.items():
                blast = any(w.has(ab.BLAST) or w.has(ab.CLEAVE) for w, _ in lines)
                if target in loads and blast:
                    raise NotExact(f"a [BLAST] weapon of a later activation aims at {target}")
                loads.setdefault(target, []).extend(lines)
                settings.setdefault(target, set()).add((situation, modifiers))
                sources.setdefault(target, []).append(k)
            if modifiers.command_reroll != "none" and len(per_target) > 1:
                shared.append(list(per_target))
        rules = self.space.rules_of(orders)
        keys = {}
        for target, load in loads.items():
            if len(settings[target]) > 1:
                raise NotExact(f"activations of different modifiers aim at {target}")
            (situation, modifiers), = settings[target]
            if len(sources[target]) > 1 and modifiers.command_reroll != "none":
                raise NotExact(f"several activations with a Command Re-roll each aim at "
                               f"{target}")
            keys[target] = (target, tuple(load), situation, modifiers, rules)
        groups: list[list[dict[str, Pmfs]]] = []
        in_shared = {t for targets in shared for t in targets}
        for target in loads:
            if target not in in_shared:
                groups.append([{target: self._cached(keys[target], "whole", orders,
                                                     sources[target])}])
        for targets in shared:
            groups.append(self._shared_terms(targets, keys))
        return ExactOutcome(groups, self.space.scenario.units)

    def _cached(self, key: tuple, mode: str, orders: Orders | None, sources: list[int]):
        full = key + (mode,)
        if full not in self.cache:
            if len(self.cache) >= MAX_EXACT_CALLS:
                raise UnsupportedError(f"more than {MAX_EXACT_CALLS:,} distinct exact "
                                       "evaluations: fewer open choices, or split=False")
            self.cache[full] = self._solve(key, mode, orders, sources)
        return self.cache[full]

    def _shared_terms(self, targets: list[str], keys: dict[str, tuple]) -> list[dict[str, Pmfs]]:
        """One activation's Command Re-roll over its targets in the order they are
        attacked: the first target whose roll fails takes it, the later ones go without
        (sum over which target spends it, or none)."""
        normal, kept, spent = {}, {}, {}
        for t in targets:
            key = keys[t]
            target, load, situation, modifiers, rules = key
            without = dataclasses.replace(modifiers, command_reroll="none")
            normal[t] = self._cached((target, load, situation, without, rules), "whole",
                                     None, [])
            kept[t], spent[t] = self._cached(key, "by hand", None, [])
        terms = [{t: (spent[t] if i == j else kept[t] if i < j else normal[t])
                  for i, t in enumerate(targets)} for j in range(len(targets))]
        terms.append(dict(kept))
        return terms

    def _solve(self, key: tuple, mode: str, orders: Orders | None, sources: list[int]):
        """(models destroyed pmf, wounds lost pmf) of one target's load; in mode "by hand",
        the pair of them with the Command Re-roll kept and spent (sub-probabilities)."""
        target, lines, situation, modifiers, rules = key
        unit = self.space.scenario.units[target]
        profile = one_profile(unit)
        if profile is None:
            if mode != "whole" or orders is None:
                raise NotExact(f"a Command Re-roll shared with a unit of several statlines "
                               f"({target})")
            return self._solve_mixed(target, concrete_scenario(self.space, orders), sources)
        modifiers = with_unit_defense(unit, modifiers)
        weapons = [w.with_count(n) for w, n in lines]
        if mode == "by hand":
            from mathhammer.wh40k.exact_engine.chains import compiled_plan
            from mathhammer.wh40k.exact_engine.command import solve_by_hand

            try:
                kept, spent = solve_by_hand(compiled_plan(weapons, profile, situation,
                                                          modifiers, rules))
            except UnsupportedError as exc:
                raise NotExact(f"{target}: {exc}") from None
            return ((kept["models_destroyed"], kept["damage"]),
                    (spent["models_destroyed"], spent["damage"]))
        from mathhammer.wh40k.api import exact

        result = exact(weapons, profile, situation=situation, modifiers=modifiers, rules=rules)
        return (result.distribution("models_destroyed").probabilities,
                result.distribution("damage").probabilities)

    def _solve_mixed(self, target: str, concrete: Scenario, sources: list[int]):
        """A target of several statlines: its one activation of the orders, alone, by the
        mixed-unit exact engine (:mod:`mathhammer.wh40k.exact_engine.mixed`)."""
        from mathhammer.wh40k.exact_engine.mixed import solve_activation
        from mathhammer.wh40k.scenario.compile import compile_scenario

        if len(sources) > 1:
            raise NotExact(f"several activations aim at {target}, which has several "
                           "statlines")
        act = concrete.activations[sources[0]]
        act = dataclasses.replace(act, target=target, weapons=tuple(
            w for w in act.weapons if w.target == target))
        units = {act.attacker: concrete.units[act.attacker], target: concrete.units[target]}
        alone = Scenario(units=units, activations=(act,),
                         sides={act.attacker: "attacker", target: "target"},
                         rules=concrete.rules, switches=concrete.switches)
        try:
            pmfs = solve_activation(compile_scenario(alone))
        except UnsupportedError as exc:
            raise NotExact(f"{target}: {exc}") from None
        return pmfs["models_destroyed"], pmfs["damage"]


def _target_loads(concrete: Scenario, k: int) -> dict[str, list[tuple[Any, int]]]:
    """Activation ``k``'s weapons by target, targets in the order the scenario engine
    attacks them and each target's (profile, weapons firing) in the order its batches
    resolve."""
    from mathhammer.wh40k.scenario.compile import activation_batches

    attacker = concrete.units[concrete.activations[k].attacker]
    out: dict[str, list[tuple[Any, int]]] = {}
    for target, members in activation_batches(concrete, k):
        lines: dict[Any, int] = {}
        for attack in members:
            group = attacker.group(attack.group)
            models = group.count - attack.models_skipped
            if attack.models_cap is not None:
                models = min(models, attack.models_cap)
            lines[attack.weapon] = lines.get(attack.weapon, 0) + max(models, 0) * attack.per_model
        out.setdefault(target, []).extend((w, n) for w, n in lines.items() if n)
    return out


def with_unit_defense(unit: Unit, modifiers):
    """The activation's modifiers with the target unit's own defensive rules."""
    own = {"damage_minus": unit.damage_minus, "damage_halved": unit.damage_halved,
           "reroll_saves": unit.reroll_saves}
    own = {k: v for k, v in own.items() if v not in (0, False, "none")}
    for name, value in own.items():
        if getattr(modifiers, name) not in (0, False, "none", value):
            raise NotExact(f"'{unit.name}' has its own {name} and the activation another")
    return dataclasses.replace(modifiers, **own) if own else modifiers


class MonteCarloOutcome:
    """The outcome of a set of orders read from a
    :class:`~mathhammer.wh40k.scenario.api.ScenarioResult`."""

    def __init__(self, result: Any, scenario: Any) -> None:
        self.result, self.scenario = result, scenario

    def models(self, unit: str) -> tuple[float, float]:
        dist = self.result.models_destroyed(unit)
        return dist.mean, dist.stderr or 0.0

    def wounds(self, unit: str) -> tuple[float, float]:
        dist = self.result.wounds_lost(unit)
        return dist.mean, dist.stderr or 0.0

    def p_at_least(self, unit: str, k: int) -> tuple[float, float]:
        p = self.result.models_destroyed(unit).probability_at_least(k)
        return p, binomial_stderr(p, self.result.trials)

    def p_destroyed(self, units: Sequence[str]) -> tuple[float, float]:
        if len(units) == 1:
            p = self.result.destroyed(units[0])
        else:  # every unit of a side: the side wiped out
            frame = self.result.wiped_out()
            side = self.scenario.sides[units[0]]
            p = float(frame[frame.side == side].p_wiped_out.sum())
        return p, binomial_stderr(p, self.result.trials)

    def points(self, unit: str, weights: Mapping[str, float]) -> tuple[float, float]:
        total, variance = 0.0, 0.0
        for group in self.scenario.units[unit].groups:
            dist = self.result.group_models_destroyed(unit, group.name)
            per_model = float(weights[unit]) if unit in weights else (
                group.points / group.count if group.points is not None else 1.0)
            total += dist.mean * per_model
            variance += ((dist.stderr or 0.0) * per_model) ** 2
        return total, math.sqrt(variance)

    def pmf(self, unit: str) -> np.ndarray:
        return self.result.models_destroyed(unit).probabilities


class MonteCarloEvaluator:
    """Monte Carlo outcomes of orders: every set of orders run with the same seed."""

    method = "monte-carlo"

    def __init__(self, space: Space, trials: int, seed: int) -> None:
        self.space, self.trials, self.seed = space, trials, seed

    def outcome(self, orders: Orders, trials: int | None = None) -> MonteCarloOutcome:
        from mathhammer.wh40k.scenario.api import run

        scenario = concrete_scenario(self.space, orders)
        result = run(scenario, trials=trials or self.trials, seed=self.seed, progress=False)
        return MonteCarloOutcome(result, scenario)
