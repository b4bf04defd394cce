"""Exact distributions for batches of identical attacks against one unit of identical models.

The method, per batch (one weapon line):

1. The number of attack dice is a convolution of the per-weapon A, [BLAST]/[CLEAVE] and
   [RAPID FIRE] pmfs.
2. Each die becomes a small bivariate generating function over (u, k): u = unsaved ordinary
   wounds, k = [DEVASTATING WOUNDS] critical wounds. Hits, [SUSTAINED HITS] extra hits,
   [LETHAL HITS] automatic wounds, wound and save rolls (with their re-roll masks) all come
   from the same tables the Monte Carlo kernel reads. Raising it to the power n and mixing
   over n gives the joint pmf of (U, K) for the batch.
3. The target is a Markov chain over L, the wounds it has lost (with one group of identical
   models, L fixes both the models destroyed and the wounds left on the wounded model). Each
   unsaved wound moves L by min(damage after FNP, wounds left on the model); each
   [DEVASTATING WOUNDS] critical wound does the same with mortal-wound FNP, after the batch's
   ordinary damage. Once every model is destroyed the chain stays put: later attacks are lost.

With one group of identical models the order of save rolls does not change the law of the
outcome, so sorting saves (05.04) needs no modelling here. A plan against several allocation
groups is refused with :class:`~mathhammer.errors.UnsupportedError`; a whole-unit activation
against a unit of several statlines is solved by :mod:`mathhammer.wh40k.exact_engine.mixed`.

Speed (issue 24). Every table above is a pure function of a few small integer tables of the
plan, so :mod:`mathhammer.wh40k.exact_engine.tables` memoises them on their bytes (and
:func:`compiled_plan` the plan itself): a repeated or overlapping question rebuilds nothing.
Powers of a generating function are taken by Horner's scheme on a table allocated once, or by
squaring (one weapon's table to the number of weapons); the states after u unsaved wounds by
squaring the Markov step for small units. When a [DEVASTATING WOUNDS] critical wound takes
the same step as an unsaved wound (same damage and Feel No Pain, no spilling: the usual
case), only their total matters and the batch needs its one-dimensional pmf
(:func:`~mathhammer.wh40k.exact_engine.tables.wound_total_pmf`). A lone model hit by a few wounds
needs no Markov matrix: its wounds lost are min(W, L + K1 + ... + Ku), a few capped
convolutions (:func:`~mathhammer.wh40k.exact_engine.tables.lone_model_states`). Only non-negative
numbers are multiplied and added, so each probability keeps its relative precision.
:func:`clear_caches` forgets it all.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Literal, overload

import numpy as np

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.compile import (DEVASTATING, FNP_COLUMN, FNP_MORTAL_COLUMN, G_MODELS,
                                      G_WOUNDS, MORTAL_DAMAGE, NORMAL_DAMAGE, SUS_CONST,
                                      SUS_COUNT, SUS_SIDES, CompiledPlan, compile_plan,
                                      max_attack_dice)
from mathhammer.wh40k.exact_engine.tables import (CACHE_SIZE, MAX_CACHED_STATES, Memo, add_padded,
                                                  clear_caches as clear_table_caches, convolve,
                                                  damage_transition, frozen, joint_pmf,
                                                  lone_model_states, mapped_pmf, passed_damage_pmf,
                                                  spill_step, wound_total_pmf)
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation, TargetProfile, Weapon

__all__ = ["MAX_EXACT_DAMAGE", "MAX_EXACT_STATES", "MAX_EXACT_WORK", "MAX_LONE_MODEL_WOUNDS",
           "MAX_PENDING_CELLS", "add_padded", "apply_batch", "batch_steps", "check_exact_size",
           "check_pending_size", "clear_caches", "compiled_plan", "convolve",
           "critical_like_unsaved", "damage_transition", "hazard_pmf", "inflict_pending",
           "lone_model_damage", "mapped_pmf", "mortal_step", "pmfs_of", "solve",
           "states_after_wounds", "unsaved_and_devastating_pmf"]


def compiled_plan(weapons: Sequence[Weapon], target: TargetProfile, situation: Situation,
                  modifiers: Modifiers, rules: Rules, attacker_monster_vehicle: bool = False,
                  sampling_tables: bool = False) -> CompiledPlan:
    """:func:`~mathhammer.wh40k.compile.compile_plan` for the exact engine, remembered.

    Profiles and options are frozen, so the same inputs always compile to the same plan; the
    plan's arrays are made read-only (the exact engine only reads them). Monte Carlo runs
    compile their own (they need the sampling tables).
    """
    if sampling_tables:
        return compile_plan(weapons, target, situation, modifiers, rules,
                            attacker_monster_vehicle=attacker_monster_vehicle)
    return _compiled(tuple(weapons), target, situation, modifiers, rules,
                     bool(attacker_monster_vehicle))


@lru_cache(maxsize=CACHE_SIZE)
def _compiled(weapons: tuple[Weapon, ...], target: TargetProfile, situation: Situation,
              modifiers: Modifiers, rules: Rules, monster_vehicle: bool) -> CompiledPlan:
    plan = compile_plan(list(weapons), target, situation, modifiers, rules,
                        attacker_monster_vehicle=monster_vehicle, sampling_tables=False)
    for table in (plan.batch, plan.rolls, plan.saves, plan.damage_maps, plan.groups,
                  plan.damage_pmfs, plan.count_cdfs, plan.shortcuts):   # every array it holds
        table.setflags(write=False)
    return plan


def solve(plan: CompiledPlan) -> dict[str, np.ndarray]:
    """Exact pmfs of wounds lost, models destroyed and hazard mortal wounds.

    Returns
    -------
    dict
        ``"damage"``, ``"models_destroyed"`` and ``"attacker_mortal_wounds"`` pmfs, each
        indexed by outcome.

    Raises
    ------
    UnsupportedError
        For a target with several allocation groups, or [DEVASTATING WOUNDS] deferred to the
        end of the attacks with more pending critical wounds than ``MAX_PENDING_CELLS`` allows,
        or a Command Re-roll (:func:`mathhammer.wh40k.exact_engine.command.solve` follows it).

    Notes
    -----
    [DEVASTATING WOUNDS] deferred to the end of the attacks (``dw_timing="unit_end"``, or the
    10th-edition final text) add one axis to the state per such batch: how many of its
    critical wounds are pending. Their damage is rolled when they are inflicted, so the count
    is all that needs remembering. After the last batch the axes are resolved in batch order.
    """
    if plan.groups.shape[0] != 1:
        raise UnsupportedError("the exact engine covers one group of identical models; use "
                               "the Monte Carlo engine for mixed units")
    if plan.command_reroll:
        raise UnsupportedError("a plan with a Command Re-roll is solved by "
                               "mathhammer.wh40k.exact_engine.command.solve")
    group = plan.groups[0].tolist()
    models, wounds = group[G_MODELS], group[G_WOUNDS]
    check_exact_size(plan, models * wounds + 1)
    check_pending_size(plan, models * wounds + 1)
    state = np.zeros(models * wounds + 1)
    state[0] = 1.0
    deferred: list[np.ndarray] = []
    for b in range(plan.n_batches):
        state = _resolve_batch(plan, b, state, models, wounds, deferred)
    for step in deferred:
        state = inflict_pending(state, step)
    return pmfs_of(plan, state, wounds)


def pmfs_of(plan: CompiledPlan, state: np.ndarray, wounds: int) -> dict[str, np.ndarray]:
    """The result of :func:`solve` from the final pmf of wounds lost."""
    models_pmf = np.empty((len(state) - 1) // wounds + 1)
    models_pmf[:-1] = state[:-1].reshape(-1, wounds).sum(axis=1)
    models_pmf[-1] = state[-1]
    return {"damage": state, "models_destroyed": models_pmf,
            "attacker_mortal_wounds": hazard_pmf(plan.hazard_rolls, plan.hazard_mortals,
                                                 plan.hazard_fail_max)}


#: Most wounds-lost states (models x W + 1) the exact engine follows.
MAX_EXACT_STATES = 2_500
#: Most damage one attack may do after modifiers, for the exact engine.
MAX_EXACT_DAMAGE = 1_000
#: Most elementary steps (multiply-adds) the exact engine may take, a few seconds.
MAX_EXACT_WORK = 500_000_000


def check_exact_size(plan: CompiledPlan, states: int) -> None:
    """Refuse up front what the exact engine cannot answer within memory and seconds.

    Raises
    ------
    UnsupportedError
        Naming the value, the limit and the Monte Carlo engine.
    """
    def refuse(what: str, value: int, limit: int) -> None:
        raise UnsupportedError(f"the exact engine cannot follow {what} {value:,} (limit "
                               f"{limit:,}); use the Monte Carlo engine (simulate)")

    if states > MAX_EXACT_STATES:
        refuse("a unit of models x W + 1 =", states, MAX_EXACT_STATES)
    work = 0
    maps = plan.damage_maps
    tops = (maps.max(axis=(1, 2)).tolist() if maps.size > 64 else
            [max(max(m) for m in batch) for batch in maps.tolist()])
    for b, row in enumerate(plan.batch.tolist()):   # Python ints: numpy scalars are slower
        dice = max_attack_dice(row)
        hits = dice * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST])
        damage = tops[b]
        if damage > MAX_EXACT_DAMAGE:
            refuse("damage per attack of", damage, MAX_EXACT_DAMAGE)
        work += dice * (hits + 1) ** 2 + (hits + 1) * states ** 2 + damage ** 2
        if plan.dw_spill:
            work += damage * states ** 3
    if plan.command_reroll:
        work *= 4   # three generating functions per die, or a chain over twice the states
    if work > MAX_EXACT_WORK:
        refuse("this many dice and states: about", work, MAX_EXACT_WORK)


#: Most cells (wounds-lost states times pending-critical-wound combinations) the exact
#: engine holds for deferred [DEVASTATING WOUNDS].
MAX_PENDING_CELLS = 200_000


def check_pending_size(plan: CompiledPlan, states: int) -> None:
    """Refuse a plan whose held [DEVASTATING WOUNDS] would need too many exact states.

    Parameters
    ----------
    plan
        The compiled plan; nothing is checked unless its critical wounds wait until the end
        of the attacks (``dw_at_unit_end``).
    states
        States of the chain before the pending axes are added.

    Raises
    ------
    UnsupportedError
        Past :data:`MAX_PENDING_CELLS` states.
    """
    if not plan.dw_at_unit_end:
        return
    cells = states
    for b in range(plan.n_batches):
        if plan.batch[b, DEVASTATING]:
            row = plan.batch[b].tolist()
            most = plan.max_dice(b) * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1)
                                       + row[SUS_CONST])
            cells *= most + 1
    if cells > MAX_PENDING_CELLS:
        raise UnsupportedError(f"[DEVASTATING WOUNDS] held until the end of the attacks would "
                               f"need {cells:,} exact states (limit {MAX_PENDING_CELLS:,}); use "
                               "the Monte Carlo engine (simulate) for this many dice")


def inflict_pending(state: np.ndarray, step: np.ndarray) -> np.ndarray:
    """Resolve the first pending axis of ``state``: k critical wounds, each one ``step``."""
    pending = np.moveaxis(state, 1, -1)
    result = pending[..., -1]
    for k in range(pending.shape[-1] - 2, -1, -1):
        result = _apply(step, result) + pending[..., k]
    return result


def _apply(step: np.ndarray, state: np.ndarray) -> np.ndarray:
    """One Markov step on the wounds-lost axis (axis 0) of a state with pending axes."""
    return (step.T @ state.reshape(state.shape[0], -1)).reshape(state.shape)


def hazard_pmf(rolls: int, mortals_per_fail: int, fail_max: int = 2) -> np.ndarray:
    """Mortal wounds from ``rolls`` hazard rolls failing on ``fail_max`` or lower (06.03:
    1-2; 10th-edition [HAZARDOUS]: 1)."""
    if rolls == 0:
        return np.ones(1)
    fails = np.array([1.0])
    p_fail = fail_max / 6
    for _ in range(rolls):
        fails = np.convolve(fails, [1 - p_fail, p_fail])
    pmf = np.zeros(rolls * mortals_per_fail + 1)
    pmf[::mortals_per_fail] = fails
    return pmf


def unsaved_and_devastating_pmf(plan: CompiledPlan, b: int, group: int = 0) -> np.ndarray:
    """Joint pmf ``P[u, k]`` of unsaved ordinary wounds and devastating critical wounds
    (read-only; memoised on the batch's tables, see
    :mod:`mathhammer.wh40k.exact_engine.tables`)."""
    return joint_pmf(plan.batch[b], plan.rolls[b], plan.saves[b, group])


def _resolve_batch(plan: CompiledPlan, b: int, state: np.ndarray, models: int,
                   wounds: int, deferred: list[np.ndarray]) -> np.ndarray:
    """One batch on ``state`` (wounds lost, then one axis per deferred batch)."""
    devastating = bool(plan.batch[b, DEVASTATING])
    defer = bool(plan.dw_at_unit_end and devastating)
    if devastating and not defer and critical_like_unsaved(plan, b):
        # N^u M^k = N^(u + k): only the total number of wounds matters
        wounds_pmf = wound_total_pmf(plan.batch[b], plan.rolls[b], plan.saves[b, 0])
    else:
        joint = unsaved_and_devastating_pmf(plan, b)
        if defer or joint.shape[1] > 1:   # critical wounds step on their own
            step_normal, step_mortal = batch_steps(plan, b, models, wounds)
            if defer:
                deferred.append(step_mortal)
            return apply_batch(joint, state, step_normal, step_mortal, defer)
        wounds_pmf = joint[:, 0]
    if models == 1 and state.ndim == 1 and len(wounds_pmf) <= MAX_LONE_MODEL_WOUNDS:
        return wounds_pmf @ lone_model_states(state, lone_model_damage(plan, b), wounds,
                                              len(wounds_pmf))
    # without critical wounds to inflict, the mortal step is never taken
    step_normal, _ = batch_steps(plan, b, models, wounds, mortal=False)
    return apply_batch(wounds_pmf[:, None], state, step_normal, None, False)


#: Most unsaved-wound counts (the longest pmf) a batch against one model is followed
#: convolution by convolution (:func:`~mathhammer.wh40k.exact_engine.tables.lone_model_states`);
#: beyond, squaring the Markov step takes fewer numpy calls.
MAX_LONE_MODEL_WOUNDS = 6


def lone_model_damage(plan: CompiledPlan, b: int) -> np.ndarray:
    """Law of the wounds one unsaved wound of batch ``b`` takes from a lone model, before
    its W caps them (damage after modifiers, then Feel No Pain); read-only, memoised."""
    row = plan.batch[b]
    fnp = plan.groups[0].tolist()[row[FNP_COLUMN]]
    raw, normal = plan.damage_pmfs[b], plan.damage_maps[b, NORMAL_DAMAGE]
    key = ("lone model", np.ascontiguousarray(raw).tobytes(),
           np.ascontiguousarray(normal).tobytes(), fnp)
    found = _STEPS.get(key)
    if found is not None:
        return found
    return _STEPS.put(key, frozen(passed_damage_pmf(mapped_pmf(raw, normal), fnp)))


def critical_like_unsaved(plan: CompiledPlan, b: int) -> bool:
    """Whether a [DEVASTATING WOUNDS] critical wound of batch ``b`` takes the same Markov step
    as an unsaved wound: the same damage after modifiers, the same Feel No Pain, and no
    spilling (the mortal wounds then act as one more unsaved wound)."""
    row = plan.batch[b]
    maps = plan.damage_maps[b]
    return (not plan.dw_spill
            and plan.groups[0, row[FNP_COLUMN]] == plan.groups[0, row[FNP_MORTAL_COLUMN]]
            and maps[NORMAL_DAMAGE].tobytes() == maps[MORTAL_DAMAGE].tobytes())


@overload
def batch_steps(plan: CompiledPlan, b: int, models: int, wounds: int,
                mortal: Literal[True] = ...) -> tuple[np.ndarray, np.ndarray]: ...


@overload
def batch_steps(plan: CompiledPlan, b: int, models: int, wounds: int,
                mortal: bool) -> tuple[np.ndarray, np.ndarray | None]: ...


def batch_steps(plan: CompiledPlan, b: int, models: int, wounds: int,
                mortal: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """Markov steps over wounds lost of one unsaved wound and of one [DEVASTATING WOUNDS]
    critical wound of batch ``b`` (read-only; memoised on the damage law, the damage maps,
    Feel No Pain and the unit). With ``mortal=False`` the second is None (not built)."""
    row, group = plan.batch[b], plan.groups[0].tolist()
    fnp, fnp_mortal = group[row[FNP_COLUMN]], group[row[FNP_MORTAL_COLUMN]]
    raw, maps = plan.damage_pmfs[b], plan.damage_maps[b]
    if models * wounds + 1 > MAX_CACHED_STATES:
        return _batch_steps(raw, maps, fnp, fnp_mortal, models, wounds, bool(plan.dw_spill),
                            mortal)
    key = (np.ascontiguousarray(raw).tobytes(), np.ascontiguousarray(maps).tobytes(), fnp,
           fnp_mortal, models, wounds, bool(plan.dw_spill), mortal)
    found = _STEPS.get(key)
    if found is not None:
        return found
    return _STEPS.put(key, _batch_steps(raw, maps, fnp, fnp_mortal, models, wounds,
                                        bool(plan.dw_spill), mortal))


_STEPS = Memo(CACHE_SIZE)


def _batch_steps(raw: np.ndarray, maps: np.ndarray, fnp: int, fnp_mortal: int, models: int,
                 wounds: int, spill: bool, mortal: bool = True
                 ) -> tuple[np.ndarray, np.ndarray | None]:
    step_normal = damage_transition(mapped_pmf(raw, maps[NORMAL_DAMAGE]), fnp, models, wounds)
    if not mortal:
        return step_normal, None
    mortal_pmf = mapped_pmf(raw, maps[MORTAL_DAMAGE])
    step_mortal = (spill_step(mortal_pmf, fnp_mortal, models, wounds) if spill
                   else damage_transition(mortal_pmf, fnp_mortal, models, wounds))
    return step_normal, step_mortal


#: Largest chain (states) whose wound-by-wound states are found by squaring the Markov step
#: (a few matrix products) instead of one vector-matrix product per unsaved wound.
MAX_SQUARING_STATES = 96


def states_after_wounds(rows: np.ndarray, step: np.ndarray, count: int) -> np.ndarray:
    """``out[u] = rows @ step ** u`` for ``u < count`` (``rows``: one state per row).

    Small chains double the computed block with ``step ** (2 ** j)`` (about ``2 log2 count``
    numpy calls); larger ones take one product per wound, cheaper than cubing the states.
    """
    if rows.shape[0] == 1 and step.shape[0] <= MAX_SQUARING_STATES:
        return _one_row_after_wounds(rows[0], step, count)[:, None, :]
    out = np.empty((count,) + rows.shape)
    out[0] = rows
    if step.shape[0] <= MAX_SQUARING_STATES:
        return _doubled(out, step, count, np.matmul)
    for u in range(1, count):
        np.matmul(out[u - 1], step, out=out[u])
    return out


def _one_row_after_wounds(row: np.ndarray, step: np.ndarray, count: int) -> np.ndarray:
    """:func:`states_after_wounds` of one state, as a 2-D table (one matrix product per
    doubling: fewer numpy dispatches than stacks of one-row products)."""
    out = np.empty((count, len(row)))
    out[0] = row
    return _doubled(out, step, count, np.dot)


def _doubled(out: np.ndarray, step: np.ndarray, count: int, product: Any) -> np.ndarray:
    """Fill ``out[1:count]`` from ``out[0]``: ``out[u] = out[0] @ step ** u``, the computed
    block doubled with ``step ** (2 ** j)`` (``product``: np.dot for 2-D tables, np.matmul
    for stacks)."""
    filled, power = 1, step
    while filled < count:
        take = min(filled, count - filled)
        product(out[:take], power, out=out[filled : filled + take])
        filled += take
        if filled < count:
            power = power @ power
    return out


def apply_batch(joint: np.ndarray, state: np.ndarray, step_normal: np.ndarray,
                step_mortal: np.ndarray | None, defer: bool) -> np.ndarray:
    """``state`` after a batch whose (unsaved wounds, critical wounds) pmf is ``joint``:
    each unsaved wound one ``step_normal``, then each critical wound one ``step_mortal``, or,
    when ``defer``, a new last axis counting the critical wounds pending."""
    # Row form: one row per combination of pending critical wounds, wounds lost along it.
    rows = state.reshape(state.shape[0], -1).T
    after_u = states_after_wounds(rows, step_normal, joint.shape[0])
    # [k, pending..., wounds lost]
    per_k = (joint.T @ after_u.reshape(joint.shape[0], -1)).reshape(
        (joint.shape[1],) + after_u.shape[1:])
    if defer:
        return per_k.transpose(2, 1, 0).reshape(state.shape + (per_k.shape[0],))
    if per_k.shape[0] == 1:   # no critical wound to inflict
        return per_k[0].T.reshape(state.shape)
    if step_mortal is None:
        raise ValueError("a batch with critical wounds to inflict needs their Markov step "
                         "(step_mortal)")
    if per_k.shape[0] > 2 and step_mortal.shape[0] <= MAX_SQUARING_STATES:
        # sum_k per_k[k] @ step_mortal ** k, the powers by squaring (a few products)
        powers = states_after_wounds(np.eye(step_mortal.shape[0]), step_mortal,
                                     per_k.shape[0])
        result = np.einsum("krs,kst->rt", per_k, powers)
        return result.T.reshape(state.shape)
    result = per_k[-1]
    for k in range(per_k.shape[0] - 2, -1, -1):
        result = result @ step_mortal + per_k[k]
    return result.T.reshape(state.shape)


def mortal_step(plan: CompiledPlan, mortal: np.ndarray, fnp: int, models: int,
                wounds: int) -> np.ndarray:
    """Markov step of one [DEVASTATING WOUNDS] critical wound: its damage on one model, excess
    lost; or, when they spill (10th-edition launch text), that many single mortal wounds.
    Read-only."""
    if not plan.dw_spill:
        return damage_transition(mortal, fnp, models, wounds)
    return spill_step(mortal, fnp, models, wounds)



def clear_caches() -> None:
    """Forget every memoised table of the exact engine (to time a first answer, or to free
    memory); answers are the same either way."""
    clear_table_caches()
    _STEPS.clear()
    _compiled.cache_clear()
