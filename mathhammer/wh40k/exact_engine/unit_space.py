"""The states of a target unit of several statlines, for the mixed-unit exact engine.

Allocation (05.03), as the scenario kernel's ``allocation_order`` reads it: a group holding a
wounded model first, every non-CHARACTER group before any CHARACTER group (a wounded one
first), otherwise the declared order; within a group, models leave sub-group by sub-group.

- Without [PRECISION] the only wounded model is always in the group at the front, so the
  models die in one fixed order: the state is one number, the wounds the unit has lost (one
  *component*, the whole unit's :class:`UnitChain`).
- With [PRECISION] an attack may go to a CHARACTER group before the bodyguard is gone
  (24.28). The non-CHARACTER groups still die in one fixed order (nothing skips them), and a
  CHARACTER group's own models die in order, so the smallest exact state is the wounds lost
  by the non-CHARACTER groups and by each CHARACTER group: one component each. Which group
  a normal attack, a [PRECISION] attack or a mortal wound goes to is then a function of that
  state (:func:`allocation_order`, :func:`precision_group`, replicas of the kernel's).

A state is numbered in mixed radix over the components (the first fastest); the last state
is the unit destroyed. :func:`damage_matrix` is the Markov step of one allocation of damage
to the group a per-state table names.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mathhammer.wh40k.exact_engine.tables import binomial_rows
from mathhammer.wh40k.scenario.layout import (A_CHARACTER, A_FIRST_SUB, A_N_SUBS, A_POINTS,
                                              A_WOUNDS, PICK_FIRST, S_BODYGUARD, S_KEYWORDS,
                                              S_MODELS, S_REPORT, S_TOUGHNESS, U_FIRST_T,
                                              U_N_ALLOCS, U_N_T, U_ORDER, CompiledScenario)


class UnitChain(NamedTuple):
    """Some of the target's groups in the order their models die, as tables over the wounds
    they have lost.

    ``group[L]`` and ``sub[L]``: allocation group and sub-group of the model being damaged;
    ``left[L]``: its wounds left; ``models[L]``: models destroyed; the last state (every
    model destroyed) has group and sub -1."""

    group: np.ndarray
    sub: np.ndarray
    left: np.ndarray
    models: np.ndarray


def declared_groups(plan: CompiledScenario, u: int) -> list[int]:
    """Unit ``u``'s allocation groups in their declared order."""
    units = plan.units
    return [int(plan.orders[units[u, U_ORDER] + i]) for i in range(units[u, U_N_ALLOCS])]


def group_chain(plan: CompiledScenario, groups: list[int]) -> UnitChain:
    """The models of ``groups``, dying group after group in that order."""
    allocs, subs = plan.allocs, plan.subs
    group, sub, left, models = [], [], [], []
    destroyed = 0
    for a in groups:
        wounds = int(allocs[a, A_WOUNDS])
        for s in range(allocs[a, A_FIRST_SUB], allocs[a, A_FIRST_SUB] + allocs[a, A_N_SUBS]):
            for _ in range(int(subs[s, S_MODELS])):
                group += [a] * wounds
                sub += [s] * wounds
                left += list(range(wounds, 0, -1))
                models += [destroyed] * wounds
                destroyed += 1
    return UnitChain(np.array(group + [-1]), np.array(sub + [-1]), np.array(left + [0]),
                     np.array(models + [destroyed]))


def unit_chain(plan: CompiledScenario, u: int) -> UnitChain:
    """The death order of unit ``u``'s models without [PRECISION]: non-CHARACTER groups,
    then CHARACTER groups, each in the declared order."""
    declared = declared_groups(plan, u)
    return group_chain(plan, [a for a in declared if not plan.allocs[a, A_CHARACTER]]
                       + [a for a in declared if plan.allocs[a, A_CHARACTER]])


class UnitSpace(NamedTuple):
    """The states of unit ``u`` (see the module docstring), with per-state tables.

    ``position[state, c]``: wounds lost by component ``c`` (chain ``chains[c]``, index
    stride ``strides[c]``); ``lost``, ``models``: the unit's wounds lost and models destroyed;
    ``group_alive[state, a]``, ``current[state, a]``: models left in allocation group ``a``
    and wounds left on its model being damaged (W when none is wounded), as the kernel keeps
    them; ``front[state]``: the group at the front of the allocation order (-1: destroyed);
    ``component[a]``: the component holding group ``a`` (-1: another unit's)."""

    u: int
    chains: tuple[UnitChain, ...]
    strides: np.ndarray
    position: np.ndarray
    lost: np.ndarray
    models: np.ndarray
    alive: np.ndarray
    group_alive: np.ndarray
    current: np.ndarray
    front: np.ndarray
    component: np.ndarray

    @property
    def size(self) -> int:
        return len(self.lost)


def space_size(plan: CompiledScenario, u: int, split_characters: bool) -> int:
    """How many states :func:`unit_space` would have (checked before building it)."""
    declared = declared_groups(plan, u)
    chars = [a for a in declared if plan.allocs[a, A_CHARACTER]] if split_characters else []
    sizes = [len(group_chain(plan, [a for a in declared if a not in chars]).left)]
    sizes += [len(group_chain(plan, [a]).left) for a in chars]
    return int(np.prod(sizes))


def unit_space(plan: CompiledScenario, u: int, split_characters: bool) -> UnitSpace:
    """The states of unit ``u``: one chain over its wounds lost, or (``split_characters``,
    for [PRECISION]) the non-CHARACTER groups' chain and one chain per CHARACTER group."""
    allocs = plan.allocs
    declared = declared_groups(plan, u)
    if split_characters:
        chars = [a for a in declared if allocs[a, A_CHARACTER]]
        chains = [group_chain(plan, [a for a in declared if a not in chars])]
        chains += [group_chain(plan, [a]) for a in chars]
    else:
        chains = [unit_chain(plan, u)]
    lengths = [len(chain.left) for chain in chains]
    strides = np.cumprod([1] + lengths[:-1]).astype(np.int64)
    size = int(np.prod(lengths))
    index = np.arange(size)
    position = np.stack([(index // stride) % n for stride, n in zip(strides, lengths)], axis=1)
    component = np.full(allocs.shape[0], -1, dtype=np.int64)
    lost = np.zeros(size, dtype=np.int64)
    models = np.zeros(size, dtype=np.int64)
    alive = np.zeros((size, plan.subs.shape[0]), dtype=np.int64)
    current = np.tile(allocs[:, A_WOUNDS].astype(np.int64), (size, 1))
    for c, chain in enumerate(chains):
        groups = sorted({int(a) for a in chain.group if a >= 0})
        component[groups] = c
        per_position = np.zeros((len(chain.left), plan.subs.shape[0]), dtype=np.int64)
        for a in groups:
            for s in range(allocs[a, A_FIRST_SUB], allocs[a, A_FIRST_SUB] + allocs[a, A_N_SUBS]):
                per_position[:, s] = plan.subs[s, S_MODELS]
        for step, s in enumerate(chain.sub[:-1]):   # a model of sub s dies on this step
            if chain.models[step + 1] > chain.models[step]:
                per_position[step + 1:, s] -= 1
        at = position[:, c]
        lost += at
        models += chain.models[at]
        alive += per_position[at]
        wounded = chain.group[at] >= 0
        current[index[wounded], chain.group[at][wounded]] = chain.left[at][wounded]
    group_alive = np.zeros((size, allocs.shape[0]), dtype=np.int64)
    for a in declared:
        first = allocs[a, A_FIRST_SUB]
        group_alive[:, a] = alive[:, first : first + allocs[a, A_N_SUBS]].sum(axis=1)
    space = UnitSpace(u, tuple(chains), strides, position, lost, models, alive, group_alive,
                      current, np.zeros(size, dtype=np.int64), component)
    front = np.array([(order[0] if order else -1) for order in
                      (allocation_order(plan, space, state) for state in range(size))])
    return space._replace(front=front)


def allocation_order(plan: CompiledScenario, space: UnitSpace, state: int) -> list[int]:
    """The kernel's ``allocation_order`` in ``state``: groups holding a wounded model first,
    non-CHARACTER groups before CHARACTER groups, otherwise declared; living groups only."""
    allocs = plan.allocs
    order = []
    for step in range(4):
        want_character, want_wounded = step >= 2, step % 2 == 0
        for a in declared_groups(plan, space.u):
            if space.group_alive[state, a] == 0:
                continue
            wounded = space.current[state, a] < allocs[a, A_WOUNDS]
            if bool(allocs[a, A_CHARACTER]) == want_character and wounded == want_wounded:
                order.append(a)
    return order


def precision_group(plan: CompiledScenario, space: UnitSpace, state: int, pick: int) -> int:
    """The kernel's ``precision_group`` in ``state``: the CHARACTER group [PRECISION] makes
    current for pick code ``pick`` (first; a report group; else the best: highest points per
    model over wounds left, ties to the earlier), -1 when none is left."""
    allocs, subs, current = plan.allocs, plan.subs, space.current[state]
    best = -1
    for a in allocation_order(plan, space, state):
        if not allocs[a, A_CHARACTER]:
            continue
        if pick == PICK_FIRST or (pick >= 0 and subs[allocs[a, A_FIRST_SUB], S_REPORT] == pick):
            return a
        if best < 0 or allocs[a, A_POINTS] * current[best] > allocs[best, A_POINTS] * current[a]:
            best = a
    return best


def routed(space: UnitSpace, group: int) -> np.ndarray:
    """Per state, the group an attack goes to while ``group`` (-1: none) stands, else the
    front: [PRECISION]'s "until that group is destroyed; then the normal order resumes"."""
    if group < 0:
        return space.front
    return np.where(space.group_alive[:, group] > 0, group, space.front)


def keyword_masks(plan: CompiledScenario, space: UnitSpace) -> np.ndarray:
    """Per state, the keyword bits (``S_KEYWORDS``) the models still in the unit carry
    (19.03); every bit of the first state in the last (destroyed: no batch is resolved)."""
    out = np.zeros(space.size, dtype=np.int64)
    for s in range(plan.subs.shape[0]):
        out |= np.where(space.alive[:, s] > 0, int(plan.subs[s, S_KEYWORDS]), 0)
    out[-1] = out[0]
    return out


def toughness_index(plan: CompiledScenario, space: UnitSpace) -> np.ndarray:
    """Per state, the index of the Toughness the unit presents (19.02: the bodyguard's
    highest while any remains, else the highest left); 0 when destroyed."""
    units, subs, u = plan.units, plan.subs, space.u
    values = [int(plan.toughness[units[u, U_FIRST_T] + k]) for k in range(units[u, U_N_T])]
    out = np.zeros(space.size, dtype=np.int64)
    for state in range(space.size - 1):
        alive = np.flatnonzero(space.alive[state] > 0)
        guard = [subs[s, S_TOUGHNESS] for s in alive if subs[s, S_BODYGUARD]]
        best = int(max(guard) if guard else max(subs[s, S_TOUGHNESS] for s in alive))
        out[state] = values.index(best) if best in values else 0
    return out


def damage_matrix(space: UnitSpace, target: np.ndarray, damage_pmf: np.ndarray,
                  fnp_by_sub: np.ndarray) -> np.ndarray:
    """Markov matrix of one allocation of ``damage_pmf`` damage to the model being damaged in
    group ``target[state]`` (-1: nothing happens): each point of damage may be stopped by its
    sub-group's Feel No Pain, and the model loses at most the wounds it has left (excess
    lost)."""
    size = space.size
    matrix = np.zeros((size, size))
    cache: dict[int, np.ndarray] = {}
    pmf = np.asarray(damage_pmf, dtype=float)
    for state in range(size):
        a = int(target[state])
        if a < 0:
            matrix[state, state] = 1.0
            continue
        c = int(space.component[a])
        chain, stride = space.chains[c], int(space.strides[c])
        at = int(space.position[state, c])
        fnp = int(fnp_by_sub[chain.sub[at]])
        if fnp not in cache:
            through = 1.0 - (7 - fnp) / 6.0 if fnp < 7 else 1.0
            cache[fnp] = pmf @ binomial_rows(len(pmf) - 1, through) if through < 1.0 else pmf
        through_pmf = cache[fnp]
        left = int(chain.left[at])
        kept = min(left, len(through_pmf))
        matrix[state, state + stride * np.arange(kept)] = through_pmf[:kept]
        matrix[state, state + stride * left] += through_pmf[left:].sum()
    return matrix


__all__ = ["UnitChain", "UnitSpace", "allocation_order", "damage_matrix", "declared_groups",
           "group_chain", "keyword_masks", "precision_group", "routed", "space_size",
           "toughness_index", "unit_chain", "unit_space"]
