"""Exact engine: a Markov chain for sequences of attacks.

Single attack and damage rolls come from :mod:`mathhammer.warmachine.rolls`. A sequence of
attacks is a Markov chain over the joint state of the target
models (boxes marked, knocked down) plus the attacker's bookkeeping (damage boosts left and
spent, attacks generated, whether any Tough roll succeeded). The chain reads the same
:class:`~mathhammer.warmachine.compile.CompiledPlan` as the Monte Carlo kernel.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from typing import NamedTuple

import numpy as np

from mathhammer.errors import UnsupportedError
from mathhammer.warmachine.compile import (
    M_ARM, M_BOXES, M_DEF, M_KD, M_MARKED, M_STATIONARY, M_TOUGH, M_TOUGH_THR, R_AOE,
    R_BUDGET, R_CATCHES, R_CHARGE, R_CRIT_CONT, R_CRIT_KD, R_CRIT_NO_TOUGH, R_DMG_BOOSTED,
    R_FIRST, R_GEN, R_GEN_CAP, R_SPRAY, RU_AOE_BOOST_ALL, RU_TOUGH_ALLOWED, FLAG_CONTINUOUS,
    FLAG_TOUGH_SAVED, FLAG_HIT_SHIFT, M_BEAST, M_GRID, M_TRANSFERS, R_LANE, RU_TRANSFER_LETHAL,
    CompiledPlan)
from mathhammer.warmachine.grid import fill_lanes
from mathhammer.warmachine.profiles import N_LANES
from mathhammer.warmachine.rolls import hit_crit, row_damage_pmf

#: Most chain states the engine carries into another attack when a target has a damage grid
#: or spiral: every lane pattern is its own state, and the next attack costs about a
#: millisecond per state (3 attacks on a 36-box heavy grid: 11,000 states, 2 s; a 4th
#: attack would take 20 s more).
MAX_GRID_STATES = 10_000

#: Largest number of distinct chain states the exact engine accepts before giving up.
MAX_STATES = 200_000
#: Most attack lines times target boxes the chain may walk (each pair costs tens of
#: microseconds in Python; 200,000 is a few seconds).
MAX_CHAIN_WORK = 200_000
#: Most outcome combinations (one per hit model, summed over states and attack lines) the
#: chain may enumerate: a [SPRAY N] or an AOE rolls every covered model at once, so one
#: attack has (hit kinds x damage outcomes) ** N joint outcomes. A unit costs about 1.3
#: microseconds: 2,000,000 is at most a few seconds ([SPRAY 11] over eleven 1-box models is
#: accepted, [SPRAY 12] is not). A plan without generated attacks is checked from the plan
#: before any work (:func:`estimate_combinations` is then a close bound); attacks that
#: generate attacks merge into far fewer states than any bound from the plan, so the chain
#: counts what it enumerates and stops at the limit.
MAX_COMBINATIONS = 2_000_000


def check_chain_size(plan: CompiledPlan) -> None:
    """Refuse up front a sequence too long for the chain, naming the figures and simulate."""
    attacks = int(plan.rows.shape[0])
    boxes = int(plan.models[:, M_BOXES].sum()) + 1
    if attacks * boxes > MAX_CHAIN_WORK:
        raise UnsupportedError(f"the exact engine would walk {attacks:,} attacks over "
                               f"{boxes:,} boxes of state ({attacks * boxes:,}; limit "
                               f"{MAX_CHAIN_WORK:,}); use simulate instead")


# -- the chain ----------------------------------------------------------------------------------
# state = (models, budget_left, boosts_spent, generated, flags)
#   models = (ModelState, ...) in targeting order
#   flags = FLAG_TOUGH_SAVED | FLAG_CONTINUOUS bits of events seen so far, and (when the plan
#           has an AOE or a spray) bit FLAG_HIT_SHIFT + j once model j has been hit


class ModelState(NamedTuple):
    """What the chain tracks of one target model."""

    marked: int
    knocked: bool
    lanes: tuple[int, ...] = ()  # boxes marked per lane of a grid or spiral
    transfers: int = 0  # damage transfers left
    beast: int = 0  # boxes marked on the warbeast that takes transferred damage


def _last_lane(before: tuple[int, ...], after: tuple[int, ...], start: int) -> int:
    """The lane (0-based) of the last box marked when filling from ``start`` on."""
    last = start
    for step in range(N_LANES):
        lane = (start + step) % N_LANES
        if after[lane] != before[lane]:
            last = lane
    return last


class Chain:
    """The Markov chain over target states of one compiled plan.

    A state is a tuple of per-model states plus the plan's counters (boosts, attacks
    generated, events seen). :meth:`initial` is the start, :meth:`step` resolves one attack
    row on a distribution ``{state: probability}``, :meth:`run` resolves the whole plan, and
    :meth:`all_destroyed` tells whether a state has every target model destroyed.
    Transitions are cached per chain.
    """

    def __init__(self, plan: CompiledPlan) -> None:
        self.plan = plan
        self.models = plan.models
        self.rules = plan.rules
        self.cache: dict[tuple, list] = {}
        self.mark_cache: dict[tuple, tuple] = {}
        self.lane_cache: dict[tuple, tuple] = {}   # (grid, start, damage, lanes) -> placed
        self.hit_bits = plan.per_model_hits
        self.lane_lengths = [tuple(int(n) for n in lanes) for lanes in plan.grid_lanes]
        self.work = 0   # outcome combinations enumerated so far (see MAX_COMBINATIONS)

    def hit_scenarios(self, row, models, covered, primary):
        """[(p, [(model, kind 1|2, direct)], primary_hit)] for one attack row."""
        static = self.models
        rules = self.rules
        out = []
        if row[R_AOE]:
            probs = hit_crit(row, static[primary, M_DEF], models[primary].knocked,
                             static[primary, M_STATIONARY], rules)
            for kind in (1, 2):
                if probs[kind] > 0:
                    out.append((probs[kind], [(j, kind, j == primary) for j in covered], True))
            c = self.plan.coverage
            if probs[0] > 0:
                if c == 0.0:
                    out.append((probs[0], [], False))
                else:
                    for mask in itertools.product((False, True), repeat=len(covered)):
                        p = probs[0]
                        for inside in mask:
                            p *= c if inside else 1.0 - c
                        if p > 0:
                            out.append((p, [(j, 1, False) for j, inside in zip(covered, mask)
                                            if inside], False))
            return out
        per_model = [hit_crit(row, static[j, M_DEF], models[j].knocked,
                              static[j, M_STATIONARY], rules) for j in covered]
        for kinds in itertools.product((0, 1, 2), repeat=len(covered)):
            p = 1.0
            for probs, kind in zip(per_model, kinds):
                p *= probs[kind]
            if p > 0:
                out.append((p, [(j, kind, True) for j, kind in zip(covered, kinds) if kind],
                            kinds[0] > 0))
        return out

    def outcomes(self, row, j, model, crit, direct, boosted):
        """Cached :meth:`mark` of one damage roll against model ``j`` in state ``model``."""
        key = (row.tobytes(), j, model, crit, direct, boosted)
        found = self.mark_cache.get(key)
        if found is None:
            pmf = row_damage_pmf(row, int(self.models[j, M_ARM]), crit, direct, boosted)
            found = tuple(self.mark(row, j, model, pmf, crit))
            self.mark_cache[key] = found
        return found

    def mark(self, row, j, model, pmf, crit):
        """[(p, ModelState, tough_saved)] after one damage roll (transfer, marking, Tough)."""
        static = self.models[j]
        room = int(static[M_BOXES]) - model.marked
        if model.transfers:
            room += int(static[M_BEAST]) - model.beast
        out: dict[tuple, float] = defaultdict(float)
        folded = np.bincount(np.minimum(np.arange(len(pmf)), room), weights=pmf)
        for value, p in enumerate(folded):
            if p > 0:
                for q, new, saved in self.land(row, j, model, value, crit):
                    out[(new, saved)] += float(p) * q
        return [(p, new, saved) for (new, saved), p in out.items()]

    def land(self, row, j, model, value, crit):
        """[(p, ModelState, tough_saved)] when ``value`` damage reaches model ``j``."""
        static = self.models[j]
        boxes = int(static[M_BOXES])
        transfers, beast = model.transfers, model.beast
        if value > 0 and transfers and beast < static[M_BEAST] and (
                not self.rules[RU_TRANSFER_LETHAL] or model.marked + value >= boxes):
            taken = min(value, int(static[M_BEAST]) - beast)
            beast, value, transfers = beast + taken, value - taken, transfers - 1
        grid = int(static[M_GRID])
        if grid < 0 or value == 0:
            placed = [(1.0, min(boxes, model.marked + value), model.lanes, -1)]
        else:
            lengths = self.lane_lengths[grid]
            starts = [int(row[R_LANE]) - 1] if row[R_LANE] else range(N_LANES)
            placed = []
            for start in starts:
                # the same damage on the same lanes recurs across states: placed once
                key = (grid, start, value, model.lanes)
                lanes_last = self.lane_cache.get(key)
                if lanes_last is None:
                    lanes = fill_lanes(lengths, start + 1, value, model.lanes)
                    lanes_last = self.lane_cache[key] = (lanes, _last_lane(model.lanes, lanes,
                                                                           start))
                lanes, last = lanes_last
                placed.append((1.0 / len(starts), sum(lanes), lanes, last))
        out = []
        for p, marked, lanes, last in placed:
            new = ModelState(marked, model.knocked, lanes, transfers, beast)
            tough = (marked >= boxes and static[M_TOUGH] and self.rules[RU_TOUGH_ALLOWED]
                     and not model.knocked and not (crit and row[R_CRIT_NO_TOUGH]))
            if tough:
                p_save = (7 - int(static[M_TOUGH_THR])) / 6
                if lanes:
                    lanes = tuple(n - (lane == last) for lane, n in enumerate(lanes))
                out.append((p * p_save, new._replace(marked=boxes - 1, knocked=True,
                                                     lanes=lanes), True))
                p *= 1 - p_save
            out.append((p, new, False))
        return out

    def apply(self, row, state, generated):
        key = (row.tobytes(), state, generated)
        cached = self.cache.get(key)
        if cached is None:
            cached = self._apply(row, state, generated)
            self.cache[key] = cached
        return cached

    def _apply(self, row, state, generated):
        models, budget, spent, gen, flags = state
        boxes = self.models[:, M_BOXES]
        alive = [i for i, m in enumerate(models) if m.marked < boxes[i]]
        if not alive:
            return [(1.0, state, False)]
        primary = alive[0]
        if row[R_SPRAY]:
            covered = alive[:int(row[R_SPRAY])]
        elif row[R_AOE]:
            covered = alive[:1 + int(row[R_CATCHES])]
        else:
            covered = [primary]
        static_boost = bool(row[R_DMG_BOOSTED]) or (bool(row[R_CHARGE]) and not generated)
        results: dict[tuple, float] = defaultdict(float)
        for p_hit, hits, primary_hit in self.hit_scenarios(row, models, covered, primary):
            left = budget
            bought_direct = False
            boosts: list[bool | None] = []
            for j, kind, direct in hits:
                if direct:
                    boosted = static_boost
                    if not boosted and left > 0:
                        boosted, left = True, left - 1
                        bought_direct = True
                    boosts.append(boosted)
                else:
                    boosts.append(None)
            aoe_bonus = bought_direct and bool(self.rules[RU_AOE_BOOST_ALL])
            chosen = [static_boost or aoe_bonus if b is None else b for b in boosts]
            event = FLAG_CONTINUOUS if row[R_CRIT_CONT] and any(k == 2 for _, k, _ in hits) \
                else 0
            if self.hit_bits:
                for j, _, _ in hits:
                    event |= 1 << (FLAG_HIT_SHIFT + j)
            per_model = []
            for (j, kind, direct), boost in zip(hits, chosen):
                model = models[j]
                crit = kind == 2
                if crit and row[R_CRIT_KD]:
                    model = model._replace(knocked=True)
                per_model.append(self.outcomes(row, j, model, crit, direct, boost))
            spent_now = spent + (budget - left)
            gen_mode = int(row[R_GEN])
            self._count_work(math.prod(len(outcomes) for outcomes in per_model) * len(hits))
            for combo in itertools.product(*per_model):
                p = p_hit
                new_models = list(models)
                events = flags | event
                killed = False
                for (j, _, _), (q, new_model, tough_saved) in zip(hits, combo):
                    p *= q
                    new_models[j] = new_model
                    if tough_saved:
                        events |= FLAG_TOUGH_SAVED
                    if new_model.marked >= boxes[j]:
                        killed = True
                trig = primary_hit if gen_mode == 1 else killed if gen_mode == 2 else False
                results[((tuple(new_models), left, spent_now, gen, events), trig)] += p
        return [(p, s, t) for (s, t), p in results.items()]

    def _count_work(self, combinations: int) -> None:
        self.work += combinations
        if self.work > MAX_COMBINATIONS:
            raise UnsupportedError(_too_much_work(self.work, "more than "))

    def initial_models(self) -> tuple[ModelState, ...]:
        """Every model as listed."""
        return tuple(ModelState(int(m[M_MARKED]), bool(m[M_KD]),
                                (0,) * N_LANES if m[M_GRID] >= 0 else (),
                                int(m[M_TRANSFERS]), 0)
                     for m in self.plan.models)

    def initial(self) -> dict[tuple, float]:
        """The starting state: every model as listed, nothing spent."""
        return {(self.initial_models(), 0, 0, 0, 0): 1.0}

    def step(self, dist: dict[tuple, float], row: np.ndarray) -> dict[tuple, float]:
        """Apply one attack row (and any attacks it generates) to a state distribution."""
        if self.lane_lengths and len(dist) > MAX_GRID_STATES:
            raise UnsupportedError(
                f"the exact engine follows at most {MAX_GRID_STATES:,} damage-grid states into "
                f"another attack and has {len(dist):,} here (each lane pattern is a state); "
                "use simulate for longer sequences against a grid or spiral")
        if row[R_FIRST]:
            reset: dict[tuple, float] = defaultdict(float)
            for (models, _, spent, _, flags), p in dist.items():
                reset[(models, int(row[R_BUDGET]), spent, 0, flags)] += p
            dist = reset
        cap = int(row[R_GEN_CAP])
        pending, generated = dist, False
        done: dict[tuple, float] = defaultdict(float)
        while pending:
            new_pending: dict[tuple, float] = defaultdict(float)
            for state, p in pending.items():
                for q, new_state, trig in self.apply(row, state, generated):
                    if trig and (cap < 0 or new_state[3] < cap):
                        models, left, spent, gen, flags = new_state
                        new_pending[(models, left, spent, gen + 1, flags)] += p * q
                    else:
                        done[new_state] += p * q
            pending = {s: p for s, p in new_pending.items() if p > 0}
            generated = True
            if len(done) + len(pending) > MAX_STATES:
                raise UnsupportedError(
                    f"the exact engine's state space grew past {MAX_STATES:,} states (many "
                    "multi-box models under areas or sprays, or long sequences against a "
                    "damage grid); use simulate instead")
        return done

    def run(self) -> dict[tuple, float]:
        dist = self.initial()
        for row in self.plan.rows:
            dist = self.step(dist, row)
        return dist

    def all_destroyed(self, state: tuple) -> bool:
        boxes = self.models[:, M_BOXES]
        return all(m.marked >= boxes[i] for i, m in enumerate(state[0]))


def _boost_choices(plan: CompiledPlan, row: np.ndarray) -> tuple[bool, ...]:
    """Whether a damage roll of ``row`` can be boosted, not boosted, or either."""
    if row[R_DMG_BOOSTED]:
        return (True,)
    return (False, True) if plan.max_boosts or row[R_CHARGE] else (False,)


def _model_outcomes(chain: Chain, row: np.ndarray, j: int, direct: bool
                    ) -> tuple[set[int], int, int]:
    """``(hit kinds, damage outcomes, most boxes marked)`` of one row against fresh model
    ``j``: the kinds (0 miss, 1 hit, 2 crit) the attack roll can give, and the most
    distinct outcomes one damage roll can give."""
    static = chain.models[j]
    model = chain.initial_models()[j]
    kinds = set()
    for knocked in (False, True):
        probs = hit_crit(row, int(static[M_DEF]), knocked, bool(static[M_STATIONARY]),
                         chain.rules)
        kinds |= {kind for kind in (0, 1, 2) if probs[kind] > 0}
    outcomes, most = 1, 0
    for crit in (False, True):
        for boosted in _boost_choices(chain.plan, row):
            found = chain.outcomes(row, j, model, crit, direct, boosted)
            outcomes = max(outcomes, len(found))
            most = max([most] + [new.marked - model.marked for _, new, _ in found])
    return kinds, outcomes, most


def _attack_combinations(chain: Chain, row: np.ndarray, covered: range
                         ) -> tuple[int, list[int]]:
    """``(combinations, most boxes marked per covered model)`` of one attack of ``row``
    from one state: a spray rolls each covered model, an AOE rolls once and deviates."""
    found = [_model_outcomes(chain, row, j, not row[R_AOE] or j == 0) for j in covered]
    most = [m for _, _, m in found]
    if row[R_AOE]:
        kinds = found[0][0]
        on_hit = len(kinds - {0}) * int(np.prod([n for _, n, _ in found], dtype=float))
        on_miss = int(np.prod([1 + n for _, n, _ in found], dtype=float)) if 0 in kinds else 0
        return on_hit + on_miss, most
    combos = 1
    for kinds, outcomes, _ in found:
        combos *= int(0 in kinds) + len(kinds - {0}) * outcomes
    return max(combos, 1), most


def _covered(plan: CompiledPlan, row: np.ndarray) -> range:
    """The models (0-based, targeting order) one attack of ``row`` can reach at most."""
    if row[R_SPRAY]:
        return range(min(int(row[R_SPRAY]), plan.n_models))
    if row[R_AOE]:
        return range(min(1 + int(row[R_CATCHES]), plan.n_models))
    return range(1)


def _repeats(plan: CompiledPlan, row: np.ndarray) -> int:
    """How many times an attack of ``row`` can be resolved (itself and those it generates)."""
    if not row[R_GEN]:
        return 1
    cap = int(row[R_GEN_CAP])
    return cap + 1 if cap >= 0 else plan.n_models + 1


def _state_bound(plan: CompiledPlan, reach: list[int]) -> int:
    """A bound on the chain's distinct states when model ``j`` can have ``reach[j]`` marked
    values: times knocked down, a hit flag, boosts spent and the events seen."""
    models = plan.models
    knocks = bool(plan.rows[:, R_CRIT_KD].any()) or bool(models[:, M_TOUGH].any())
    bound = (plan.max_boosts + 1) * (2 if models[:, M_TOUGH].any() else 1)
    bound *= 2 if plan.rows[:, R_CRIT_CONT].any() else 1
    for j, values in enumerate(reach):
        per = values * (2 if knocks else 1) * (int(models[j, M_BEAST]) + 1)
        bound *= per + int(plan.per_model_hits)
        if bound > MAX_STATES:
            return MAX_STATES
    return bound


def estimate_combinations(plan: CompiledPlan) -> int:
    """Outcome combinations (times the models each one marks) the chain would enumerate,
    estimated from the plan before any work.

    One attack of a row makes the product over the models it covers of (hit kinds x damage
    outcomes) combinations from each state it meets. The states met are at most those the
    rows before could make, the distinct states the models can be in, and
    :data:`MAX_STATES`.
    """
    chain = Chain(plan)
    room = [int(m[M_BOXES] - m[M_MARKED]) for m in plan.models]
    reach = [1] * plan.n_models
    states, work = 1, 0
    for row in plan.rows:
        covered = _covered(plan, row)
        combos, most = _attack_combinations(chain, row, covered)
        for j, marked in zip(covered, most):
            reach[j] = min(room[j] + 1, reach[j] + marked * _repeats(plan, row))
        combos = combos ** _repeats(plan, row)
        work += states * combos * len(covered)
        if work > MAX_COMBINATIONS:
            return work
        states = min(states * combos, _state_bound(plan, reach))
    return work


def check_chain_work(plan: CompiledPlan) -> None:
    """Refuse up front a plan without generated attacks whose joint outcomes grow past
    :data:`MAX_COMBINATIONS` (with generated attacks, :class:`Chain` counts as it goes)."""
    if plan.rows[:, R_GEN].any():
        return
    work = estimate_combinations(plan)
    if work > MAX_COMBINATIONS:
        raise UnsupportedError(_too_much_work(work, "about "))


def _too_much_work(work: int, how: str) -> str:
    return (f"the exact engine would enumerate {how}{work:,} joint outcomes (limit "
            f"{MAX_COMBINATIONS:,}; a [SPRAY N] or AOE rolls every covered model at once, so "
            "the outcomes multiply per model); use simulate instead, or fewer covered models")


def first_roll(plan: CompiledPlan) -> np.ndarray:
    """``[P(miss), P(hit, no crit), P(crit)]`` of the first attack roll of the first line."""
    model = plan.models[0]
    return hit_crit(plan.rows[0], int(model[M_DEF]), bool(model[M_KD]),
                    bool(model[M_STATIONARY]), plan.rules)


def solve(plan: CompiledPlan) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Solve a compiled plan exactly: ``(pmfs, probabilities)``.

    Returns
    -------
    pmfs
        ``damage`` (boxes marked), ``models_destroyed``; when damage boosts were bought,
        ``boosts_spent``; with damage transfer, ``damage_transferred`` (boxes marked on the
        warbeasts). Each indexed by value.
    probabilities
        ``hit``, ``crit`` (first attack roll of the first line), ``unit_destroyed`` (every
        target model destroyed) and ``tough_saved`` (at least one Tough roll succeeded);
        for weapons with a critical continuous effect, ``continuous_effect`` (at least one
        critical hit applied it); with an AOE or a spray, ``hit_model_<i>`` and
        ``destroyed_model_<i>`` for every target model ``i`` (1-based, targeting order);
        with damage transfer, ``beast_destroyed``; for each system of a grid or spiral,
        ``crippled_<letter>`` (``crippled_<letter>_model_<i>`` when several models have one).

    Raises
    ------
    UnsupportedError
        When the chain's state space is too large to enumerate.
    """
    check_chain_size(plan)
    check_chain_work(plan)
    final = Chain(plan).run()
    boxes = plan.models[:, M_BOXES]
    initial = int(plan.models[:, M_MARKED].sum())
    damage = np.zeros(plan.max_damage + 1)
    destroyed = np.zeros(plan.n_models + 1)
    spent_pmf = np.zeros(plan.max_boosts + 1)
    transferred = np.zeros(plan.max_transferred + 1)
    events: dict[str, float] = defaultdict(float)
    names = outcome_names(plan)
    for (models, _, spent, _, flags), p in final.items():
        damage[sum(m.marked for m in models) - initial] += p
        destroyed[sum(1 for i, m in enumerate(models) if m.marked >= boxes[i])] += p
        spent_pmf[spent] += p
        transferred[sum(m.beast for m in models)] += p
        for name, happened in _events(plan, models, flags, names):
            if happened:
                events[name] += p
    roll = first_roll(plan)
    pmfs = {"damage": damage, "models_destroyed": destroyed}
    if plan.max_boosts:
        pmfs["boosts_spent"] = spent_pmf
    if plan.max_transferred:
        pmfs["damage_transferred"] = transferred
    probabilities = {"hit": float(roll[1] + roll[2]), "crit": float(roll[2]),
                     "unit_destroyed": float(destroyed[-1])}
    probabilities.update({name: float(min(1.0, events[name])) for name in names})
    return pmfs, probabilities


def outcome_names(plan: CompiledPlan) -> list[str]:
    """Names of the event probabilities a plan reports beyond hit, crit and unit_destroyed
    (the same in both engines, in this order)."""
    names = ["tough_saved"]
    if plan.rows[:, R_CRIT_CONT].any():
        names.append("continuous_effect")
    if plan.per_model_hits:
        for i in range(plan.n_models):
            names += [f"hit_model_{i + 1}", f"destroyed_model_{i + 1}"]
    if plan.max_transferred:
        names.append("beast_destroyed")
    gridded = [i for i in range(plan.n_models) if plan.models[i, M_GRID] >= 0]
    for i in gridded:
        suffix = f"_model_{i + 1}" if len(gridded) > 1 else ""
        names += [f"crippled_{letter}{suffix}"
                  for letter in plan.grid_systems[plan.models[i, M_GRID]]]
    return names


def _events(plan: CompiledPlan, models, flags: int, names: list[str]):
    """(name, happened) for each event of :func:`outcome_names` in one final state."""
    boxes = plan.models[:, M_BOXES]
    happened = {"tough_saved": bool(flags & FLAG_TOUGH_SAVED),
                "continuous_effect": bool(flags & FLAG_CONTINUOUS),
                "beast_destroyed": any(m.beast and m.beast >= plan.models[i, M_BEAST]
                                       for i, m in enumerate(models))}
    gridded = [i for i in range(plan.n_models) if plan.models[i, M_GRID] >= 0]
    for i, m in enumerate(models):
        happened[f"hit_model_{i + 1}"] = bool(flags >> (FLAG_HIT_SHIFT + i) & 1)
        happened[f"destroyed_model_{i + 1}"] = m.marked >= boxes[i]
        if i in gridded:
            grid = plan.models[i, M_GRID]
            suffix = f"_model_{i + 1}" if len(gridded) > 1 else ""
            for s, letter in enumerate(plan.grid_systems[grid]):
                happened[f"crippled_{letter}{suffix}"] = all(
                    mark >= need for mark, need in zip(m.lanes, plan.grid_need[grid, s]))
    return [(name, happened[name]) for name in names]
