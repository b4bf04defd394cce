"""The exact engine as it was before issue 24 (commit aad44c5), kept unchanged as the slow
reference the rewritten engine is checked against to 1e-12 (tests/wh40k/test_exact_fast.py).

Original docstring follows.


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
outcome, so sorting saves (05.04) needs no modelling here. Mixed units are outside this engine
and are refused with :class:`~mathhammer.errors.UnsupportedError`.
"""

from __future__ import annotations

import numpy as np

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.compile import (AUTO_HIT, DEVASTATING, EXTRA_CRIT, FNP_COLUMN,
                                      FNP_MORTAL_COLUMN, G_MODELS, G_WOUNDS,
                                      HIT_CLASS, HIT_REROLL, LETHAL, MORTAL_DAMAGE, NORMAL_DAMAGE,
                                      SAVE_FAILS, SAVE_REROLL, SUS_CONST, SUS_COUNT, SUS_SIDES,
                                      WOUND_CLASS, WOUND_REROLL, CompiledPlan, attack_dice_pmf,
                                      dice_pmf, face_probabilities, outcome_probabilities)


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
    models, wounds = int(plan.groups[0, G_MODELS]), int(plan.groups[0, G_WOUNDS])
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
    models_pmf = np.zeros((len(state) - 1) // wounds + 1)
    np.add.at(models_pmf, np.arange(len(state)) // wounds, state)
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
    for b in range(plan.n_batches):
        row = plan.batch[b]
        dice = plan.max_dice(b)
        hits = dice * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST])
        damage = int(plan.damage_maps[b].max())
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
            row = plan.batch[b]
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
    fails = np.array([1.0])
    p_fail = fail_max / 6
    for _ in range(rolls):
        fails = np.convolve(fails, [1 - p_fail, p_fail])
    pmf = np.zeros(rolls * mortals_per_fail + 1)
    pmf[::mortals_per_fail] = fails
    return pmf


def unsaved_and_devastating_pmf(plan: CompiledPlan, b: int, group: int = 0) -> np.ndarray:
    """Joint pmf ``P[u, k]`` of unsaved ordinary wounds and devastating critical wounds."""
    row = plan.batch[b]
    fail_hit, hit, crit = (np.array([0.0, 1.0, 0.0]) if row[AUTO_HIT] else
                           outcome_probabilities(plan.rolls[b, HIT_CLASS],
                                                 plan.rolls[b, HIT_REROLL]))
    _, wound, crit_wound = outcome_probabilities(plan.rolls[b, WOUND_CLASS],
                                                 plan.rolls[b, WOUND_REROLL])
    faces = face_probabilities(plan.saves[b, group, SAVE_REROLL])
    unsaved = float(faces[plan.saves[b, group, SAVE_FAILS] == 1].sum())
    devastating = crit_wound if row[DEVASTATING] else 0.0
    ordinary = (wound + (0.0 if row[DEVASTATING] else crit_wound)) * unsaved
    token = np.array([[1.0 - ordinary - devastating, devastating], [ordinary, 0.0]])
    auto = np.array([[1.0 - unsaved], [unsaved]])

    sustained = dice_pmf(row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST])
    extra_token = auto if (row[LETHAL] and row[EXTRA_CRIT]) else token
    extra_gf = np.zeros((1, 1))
    power = np.ones((1, 1))
    for x, px in enumerate(sustained):
        if x > 0:
            power = convolve(power, extra_token)
        if px > 0:
            extra_gf = add_padded(extra_gf, px * power)
    crit_gf = convolve(auto if row[LETHAL] else token, extra_gf)
    die = add_padded(add_padded(np.array([[fail_hit]]), hit * token), crit * crit_gf)

    n_pmf = attack_dice_pmf(row)
    joint = np.zeros((1, 1))
    power = np.ones((1, 1))
    for n, pn in enumerate(n_pmf):
        if n > 0:
            power = convolve(power, die)
        if pn > 0:
            joint = add_padded(joint, pn * power)
    return np.clip(joint, 0.0, None)


def damage_transition(damage_pmf: np.ndarray, fnp: int, models: int, wounds: int) -> np.ndarray:
    """Markov matrix over wounds lost for one allocation of damage with Feel No Pain.

    Each point of damage gets through Feel No Pain independently, and the model loses at
    most the wounds it has left (excess damage is lost), so the step from a state depends
    only on the wounds left on the wounded model.
    """
    size = models * wounds + 1
    matrix = np.zeros((size, size))
    matrix[-1, -1] = 1.0
    through = 1.0 - (7 - fnp) / 6.0 if fnp < 7 else 1.0
    # P(K = k): wounds that get through, mixed over the damage roll.
    through_pmf = np.asarray(damage_pmf, dtype=float) @ _binomial_rows(len(damage_pmf) - 1,
                                                                       through)
    for left in range(1, wounds + 1):
        capped = np.zeros(left + 1)
        kept = min(left, len(through_pmf))
        capped[:kept] = through_pmf[:kept]
        capped[left] += through_pmf[left:].sum()
        # the states whose wounded model has `left` wounds left: one block of rows each
        starts = np.arange(models) * wounds + (wounds - left)
        steps = np.arange(left + 1)
        matrix[starts[:, None], starts[:, None] + steps[None, :]] = capped[None, :]
    return matrix


def _resolve_batch(plan: CompiledPlan, b: int, state: np.ndarray, models: int,
                   wounds: int, deferred: list[np.ndarray]) -> np.ndarray:
    """One batch on ``state`` (wounds lost, then one axis per deferred batch)."""
    joint = unsaved_and_devastating_pmf(plan, b)
    step_normal, step_mortal = batch_steps(plan, b, models, wounds)
    defer = bool(plan.dw_at_unit_end and plan.batch[b, DEVASTATING])
    if defer:
        deferred.append(step_mortal)
    return apply_batch(joint, state, step_normal, step_mortal, defer)


def batch_steps(plan: CompiledPlan, b: int, models: int,
                wounds: int) -> tuple[np.ndarray, np.ndarray]:
    """Markov steps over wounds lost of one unsaved wound and of one [DEVASTATING WOUNDS]
    critical wound of batch ``b``."""
    row = plan.batch[b]
    raw = plan.damage_pmfs[b]
    normal = mapped_pmf(raw, plan.damage_maps[b, NORMAL_DAMAGE])
    mortal = mapped_pmf(raw, plan.damage_maps[b, MORTAL_DAMAGE])
    step_normal = damage_transition(normal, int(plan.groups[0, row[FNP_COLUMN]]), models,
                                    wounds)
    step_mortal = mortal_step(plan, mortal, int(plan.groups[0, row[FNP_MORTAL_COLUMN]]),
                               models, wounds)
    return step_normal, step_mortal


def apply_batch(joint: np.ndarray, state: np.ndarray, step_normal: np.ndarray,
                step_mortal: np.ndarray, defer: bool) -> np.ndarray:
    """``state`` after a batch whose (unsaved wounds, critical wounds) pmf is ``joint``:
    each unsaved wound one ``step_normal``, then each critical wound one ``step_mortal``, or,
    when ``defer``, a new last axis counting the critical wounds pending."""
    # after_u[u] = state after u unsaved wounds; then mix over u for each k and apply
    # k devastating critical wounds with Horner's scheme.
    if state.ndim == 1 and not defer:
        after_u = np.empty((joint.shape[0], len(state)))
        current = state
        for u in range(joint.shape[0]):
            after_u[u] = current
            current = current @ step_normal
        per_k = joint.T @ after_u
        result = per_k[-1]
        for k in range(per_k.shape[0] - 2, -1, -1):
            result = result @ step_mortal + per_k[k]
        return result
    # With pending critical wounds the state has more axes: the same on a flattened view.
    flat = state.reshape(state.shape[0], -1)
    after_u = np.empty((joint.shape[0],) + flat.shape)
    current = flat
    for u in range(joint.shape[0]):
        after_u[u] = current
        current = step_normal.T @ current
    per_k = np.tensordot(joint.T, after_u, axes=1)   # [k, wounds lost, pending...]
    if defer:
        return np.moveaxis(per_k, 0, -1).reshape(state.shape + (per_k.shape[0],))
    result = per_k[-1]
    for k in range(per_k.shape[0] - 2, -1, -1):
        result = step_mortal.T @ result + per_k[k]
    return result.reshape(state.shape)


def mortal_step(plan: CompiledPlan, mortal: np.ndarray, fnp: int, models: int,
                 wounds: int) -> np.ndarray:
    """Markov step of one [DEVASTATING WOUNDS] critical wound: its damage on one model, excess
    lost; or, when they spill (10th-edition launch text), that many single mortal wounds."""
    if not plan.dw_spill:
        return damage_transition(mortal, fnp, models, wounds)
    one = damage_transition(np.array([0.0, 1.0]), fnp, models, wounds)
    step = np.zeros_like(one)
    power = np.eye(one.shape[0])
    for p in mortal:
        if p > 0:
            step += p * power
        power = power @ one
    return step


def mapped_pmf(raw_pmf: np.ndarray, damage_map: np.ndarray) -> np.ndarray:
    """The pmf of ``damage_map[raw]`` when ``raw`` has pmf ``raw_pmf`` (damage after its
    modifiers)."""
    out = np.zeros(int(damage_map.max()) + 1)
    for raw, p in enumerate(raw_pmf):
        if p > 0:
            out[damage_map[raw]] += p
    return out


def _binomial_rows(n_max: int, p: float) -> np.ndarray:
    """``rows[n, k] = P(Binomial(n, p) = k)`` for ``n, k`` in ``0..n_max``."""
    rows = np.zeros((n_max + 1, n_max + 1))
    rows[0, 0] = 1.0
    for n in range(1, n_max + 1):
        rows[n, : n + 1] = rows[n - 1, : n + 1] * (1.0 - p)
        rows[n, 1 : n + 1] += rows[n - 1, :n] * p
    return rows


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full 2-D convolution of two pmf tables (the product of their generating functions).

    ``b`` is always a one-die table of a few cells, so a shifted add per cell of ``b`` is
    much cheaper than a general routine (``scipy.signal.convolve`` spent ~150 us per call
    choosing a method).
    """
    if a.size < b.size:
        a, b = b, a
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            if b[i, j] != 0.0:
                out[i : i + a.shape[0], j : j + a.shape[1]] += b[i, j] * a
    return out


def add_padded(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum of two 2-D arrays of possibly different shapes, each padded with zeros."""
    shape = (max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1]))
    out = np.zeros(shape)
    out[: a.shape[0], : a.shape[1]] += a
    out[: b.shape[0], : b.shape[1]] += b
    return out
