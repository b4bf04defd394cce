"""Exact distributions for one activation against a unit of several statlines.

A whole-unit activation (:mod:`mathhammer.wh40k.scenario`) against a target of several
allocation groups (attached leaders, sergeants with other wargear, models with their own Feel
No Pain) is solved here exactly, from the same compiled arrays the scenario kernel reads
(:class:`~mathhammer.wh40k.scenario.layout.CompiledScenario`), following its rules:

- Allocation (05.03): a group holding a wounded model first, every non-CHARACTER group before
  any CHARACTER group, otherwise the declared order; within a group, models leave sub-group
  by sub-group. Without [PRECISION] the only wounded model is always in the group at the
  front, so the models die in one fixed order and the state of the whole unit is one number,
  L, the wounds it has lost: L fixes the model being damaged, its group, its sub-group (its
  Feel No Pain) and the wounds it has left. The chain over L is built model by model.
- Keywords (19.03): a batch is resolved against the keywords of the models still in the
  unit when it starts (its row for those keywords, ``CompiledScenario.variants``), so an
  [ANTI-X] or a keyword-scoped ability stops once the last model with X is destroyed.
- Toughness (19.02) and the save re-rolls of a batch are those of the unit at the start of
  the batch: the states are split by the toughness they present and the group at the front,
  and each part gets its own (saves to roll, critical wounds) pmf, the generating functions
  of :mod:`mathhammer.wh40k.exact_engine.tables` with every save counted.
- 11th-edition saves (05.03-05.04): every save die is rolled, then they are inflicted lowest
  first on the group at the front at that moment, so whether a die fails depends on where
  the earlier ones put the unit. The faces are taken in order: with n dice left, c of them
  show face f (binomial, with the face's share of what is left); each is one Markov step that
  moves the states whose group fails on f and leaves the others. A table over (dice left,
  critical wounds, state) carries this through the six faces.
- 10th edition: each save is rolled against the model the attack is allocated to, so one
  die is one step mixing "fails here" and "saved here" per state.
- [DEVASTATING WOUNDS]: after the batch's saves, each a step of mortal damage on the model at
  the front (its group's Feel No Pain against mortal wounds), held to the end of the
  activation (a pending axis, as in :mod:`mathhammer.wh40k.exact_engine.chains`) or spilling
  one mortal wound at a time, as the rules in force say.

Outside this engine (refused with :class:`~mathhammer.errors.UnsupportedError`, the cell then
runs Monte Carlo): [PRECISION], a Command Re-roll, several activations or rounds, and work
beyond :data:`MAX_MIXED_WORK`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.compile import (D_CONST, D_COUNT, D_SIDES, D_TABLE, DEVASTATING,
                                      FNP_COLUMN, FNP_MORTAL_COLUMN, MORTAL_DAMAGE,
                                      NORMAL_DAMAGE, RF_CONST, RF_COUNT, RF_SIDES, SAVE_FAILS,
                                      SAVE_REROLL, dice_pmf, face_probabilities, rerolled_pmf)
from mathhammer.wh40k.exact_engine.chains import apply_batch, inflict_pending
from mathhammer.wh40k.exact_engine.tables import (attack_die_gf, binomial_rows, mapped_pmf,
                                                  mix_powers)
from mathhammer.wh40k.scenario.layout import (A_CHARACTER, A_FIRST_SUB, A_LOCAL, A_N_SUBS,
                                              A_WOUNDS, B_BLAST, B_BONUS_COUNT, B_BONUS_SIDES,
                                              B_CLEAVE, B_FIRST_CONTRIB, B_N_CONTRIBS, B_PRECISION,
                                              B_TARGET, C_A_CONST, C_A_COUNT, C_A_REROLL,
                                              C_A_SIDES, C_CAP, C_PER_MODEL, C_SKIPPED,
                                              C_SUB_COUNT, C_SUB_FIRST, DAMAGE_TABLE, F_DW_AT_END,
                                              F_DW_SPILL, F_ONE_AT_A_TIME, K_ATTACKER, K_COMMAND,
                                              K_FIRST_BATCH, K_N_BATCHES, S_BODYGUARD, S_KEYWORDS,
                                              S_MODELS, S_TOUGHNESS, U_FIRST_T, U_N_ALLOCS, U_N_T,
                                              U_ORDER, CompiledScenario)

#: Most multiply-adds the mixed-unit engine may take (about a second); beyond, Monte Carlo.
MAX_MIXED_WORK = 400_000_000
#: Most states (the target's wounds + 1) it follows.
MAX_MIXED_STATES = 2_500


class UnitChain(NamedTuple):
    """The target's models in the order they die, as tables over L (wounds lost).

    ``group[L]`` and ``sub[L]``: allocation group and sub-group of the model being damaged;
    ``left[L]``: its wounds left; ``models[L]``: models destroyed; the last state (every
    model destroyed) has group and sub -1."""

    group: np.ndarray
    sub: np.ndarray
    left: np.ndarray
    models: np.ndarray


def unit_chain(plan: CompiledScenario, u: int) -> UnitChain:
    """The death order of unit ``u``'s models (see the module docstring) as tables over L."""
    allocs, units, subs = plan.allocs, plan.units, plan.subs
    declared = [int(plan.orders[units[u, U_ORDER] + i]) for i in range(units[u, U_N_ALLOCS])]
    order = ([a for a in declared if not allocs[a, A_CHARACTER]]
             + [a for a in declared if allocs[a, A_CHARACTER]])
    group, sub, left, models = [], [], [], []
    destroyed = 0
    for a in order:
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


def solve_activation(plan: CompiledScenario) -> dict[str, np.ndarray]:
    """Exact pmfs of the target's wounds lost and models destroyed after the plan's one
    activation (``"damage"``, ``"models_destroyed"``, indexed by outcome).

    Raises
    ------
    UnsupportedError
        Naming what needs the Monte Carlo engine (see the module docstring).
    """
    k = _check_plan(plan)
    batches = range(plan.activations[k, K_FIRST_BATCH],
                    plan.activations[k, K_FIRST_BATCH] + plan.activations[k, K_N_BATCHES])
    u = int(plan.batches[batches[0], B_TARGET])
    chain = unit_chain(plan, u)
    size = len(chain.left)
    if size > MAX_MIXED_STATES:
        raise UnsupportedError(f"the exact engine follows at most {MAX_MIXED_STATES:,} "
                               f"wound states (this unit has {size:,})")
    presented = _toughness_index(plan, u, chain)
    models_at_start = int(chain.models[-1])
    state = np.zeros(size)
    state[0] = 1.0
    deferred: list[np.ndarray] = []
    budget = [MAX_MIXED_WORK]
    masks = _keyword_masks(plan, chain)
    for b in batches:
        rows = _keyword_rows(plan, b, masks)
        mass = np.abs(state).reshape(len(rows), -1).sum(axis=1)
        used = sorted({int(r) for r in rows[mass > 0]} or {b})   # rows some state takes
        solvers = [_BatchSolver(plan, r, chain, presented, models_at_start) for r in used]
        if len(solvers) == 1:
            state = solvers[0].apply(state, deferred, budget)
            continue
        if any(solver.defer for solver in solvers):
            raise UnsupportedError("[DEVASTATING WOUNDS] held to the end of the attacks "
                                   "against a unit whose keywords go with its models")
        shape = (-1,) + (1,) * (state.ndim - 1)
        state = np.sum([solver.apply(state * (rows == r).reshape(shape), deferred, budget)
                        for r, solver in zip(used, solvers)], axis=0)
    for step in deferred:
        state = inflict_pending(state, step)
    models_pmf = np.bincount(chain.models, weights=state, minlength=models_at_start + 1)
    return {"damage": state, "models_destroyed": models_pmf}


def _check_plan(plan: CompiledScenario) -> int:
    """The plan's one activation, or a refusal naming what the engine does not follow."""
    if plan.rounds != 1 or plan.activations.shape[0] != 1:
        raise UnsupportedError("the exact engine solves one activation of one round")
    if plan.activations[0, K_COMMAND]:
        raise UnsupportedError("a Command Re-roll against a unit of several statlines needs "
                               "the Monte Carlo engine")
    first, count = plan.activations[0, K_FIRST_BATCH], plan.activations[0, K_N_BATCHES]
    rows = plan.batches[first : first + count]
    if count == 0 or len(set(rows[:, B_TARGET].tolist())) != 1:
        raise UnsupportedError("the exact engine solves attacks on one target unit")
    if rows[:, B_PRECISION].any():
        raise UnsupportedError("[PRECISION] lets attacks skip the allocation order; the exact "
                               "engine follows one order")
    if int(rows[0, B_TARGET]) == int(plan.activations[0, K_ATTACKER]):
        raise UnsupportedError("a unit attacking itself")
    return 0


def _keyword_masks(plan: CompiledScenario, chain: UnitChain) -> np.ndarray:
    """Per state, the keyword bits (``S_KEYWORDS``) the models still in the unit carry
    (19.03); every bit in the last state (the unit destroyed: no batch is resolved)."""
    out = np.zeros(len(chain.left), dtype=np.int64)
    mask = 0
    for state in range(len(chain.left) - 2, -1, -1):   # from the last model back
        mask |= int(plan.subs[chain.sub[state], S_KEYWORDS])
        out[state] = mask
    out[-1] = out[0]
    return out


def _keyword_rows(plan: CompiledScenario, b: int, masks: np.ndarray) -> np.ndarray:
    """Per state, the row batch ``b`` is resolved as (its keyword variant)."""
    if plan.variants is None or plan.variants.shape[1] == 1:
        return np.full(len(masks), b, dtype=np.int64)
    return plan.variants[b, masks]


def _toughness_index(plan: CompiledScenario, u: int, chain: UnitChain) -> np.ndarray:
    """Per state, the index of the Toughness the unit presents (19.02: the bodyguard's highest
    while any remains, else the highest left)."""
    units, subs = plan.units, plan.subs
    values = [int(plan.toughness[units[u, U_FIRST_T] + k]) for k in range(units[u, U_N_T])]
    out = np.zeros(len(chain.left), dtype=np.int64)
    alive_subs: set[int] = set()
    for state in range(len(chain.left) - 2, -1, -1):   # from the last model back
        alive_subs.add(int(chain.sub[state]))
        guard = [subs[s, S_TOUGHNESS] for s in alive_subs if subs[s, S_BODYGUARD]]
        best = int(max(guard) if guard else max(subs[s, S_TOUGHNESS] for s in alive_subs))
        out[state] = values.index(best) if best in values else 0
    return out


class _BatchSolver:
    """One batch of the activation on the chain over L."""

    def __init__(self, plan: CompiledScenario, b: int, chain: UnitChain, presented: np.ndarray,
                 models_at_start: int) -> None:
        self.plan, self.b, self.chain, self.presented = plan, b, chain, presented
        row = plan.batches[b]
        self.row = row
        self.n_pmf = attack_dice(plan, b, models_at_start)
        raw = _raw_damage_pmf(plan, b)
        self.step_normal = damage_chain(chain, mapped_pmf(raw, plan.damage_maps[b, NORMAL_DAMAGE]),
                                        plan.subs[:, row[FNP_COLUMN]])
        mortal = mapped_pmf(raw, plan.damage_maps[b, MORTAL_DAMAGE])
        fnp_mortal = plan.subs[:, row[FNP_MORTAL_COLUMN]]
        if plan.flags[F_DW_SPILL]:
            one = damage_chain(chain, np.array([0.0, 1.0]), fnp_mortal)
            self.step_mortal = _power_mixture(one, mortal)
        else:
            self.step_mortal = damage_chain(chain, mortal, fnp_mortal)
        self.defer = bool(plan.flags[F_DW_AT_END] and row[DEVASTATING])

    def _joint(self, t: int) -> np.ndarray:
        """(saves to roll, critical wounds) pmf against Toughness index ``t``."""
        rolls = np.stack([self.plan.hit[self.b, 0], self.plan.hit[self.b, 1],
                          self.plan.wound[self.b, 2 * t], self.plan.wound[self.b, 2 * t + 1]])
        every_save_rolled = np.zeros((2, 7), dtype=np.int64)
        every_save_rolled[SAVE_FAILS, 1:] = 1
        return mix_powers(attack_die_gf(self.row, rolls, every_save_rolled), self.n_pmf)

    def _regions(self) -> list[tuple[int, int, np.ndarray]]:
        """(Toughness index, front group's save table, states) for each part of the states
        that meets the batch alike."""
        local = np.where(self.chain.group >= 0,
                         self.plan.allocs[np.maximum(self.chain.group, 0), A_LOCAL], 0)
        keys = self.presented * 1000 + local
        return [(int(key // 1000), int(key % 1000), keys == key) for key in np.unique(keys)]

    def apply(self, state: np.ndarray, deferred: list[np.ndarray],
              budget: list[int]) -> np.ndarray:
        """``state`` (wounds lost, then one axis per held batch) after this batch;
        ``budget[0]``, the multiply-adds still allowed, is spent."""
        if self.defer:
            deferred.append(self.step_mortal)
        result = None
        for t, local, mask in self._regions():
            part = state * mask.reshape((-1,) + (1,) * (state.ndim - 1))
            if not part.any():
                continue
            joint = np.clip(self._joint(t), 0.0, None)
            rows = part.size // part.shape[0] * joint.shape[1]
            dice = joint.shape[0]
            budget[0] -= (dice if self.plan.flags[F_ONE_AT_A_TIME] else 3 * dice * dice) \
                * rows * part.shape[0] ** 2
            if budget[0] < 0:
                raise UnsupportedError(f"this activation needs more than {MAX_MIXED_WORK:,} "
                                       "exact steps")
            if self.plan.flags[F_ONE_AT_A_TIME]:
                out = apply_batch(joint, part, self._per_die_step(), self.step_mortal,
                                  self.defer)
            else:
                out = self._sorted_saves(joint, part, local)
            result = out if result is None else _add_padded_last(result, out)
        assert result is not None  # the state's probability lies in some region
        return result

    def _per_die_step(self) -> np.ndarray:
        """10e: one save die against the model at the front, its own group's table."""
        fails = np.zeros(len(self.chain.left))
        for i, a in enumerate(self.chain.group[:-1]):
            table = self.plan.saves[self.b, self.plan.allocs[a, A_LOCAL]]
            faces = face_probabilities(table[SAVE_REROLL])
            fails[i] = float(faces[table[SAVE_FAILS] == 1].sum())
        return fails[:, None] * self.step_normal + (1.0 - fails)[:, None] * np.eye(len(fails))

    def _face_step(self, face: int) -> np.ndarray:
        """One save die showing ``face``: the states whose front group fails it take the
        damage step, the others stay."""
        fails = np.zeros(len(self.chain.left), dtype=bool)
        for i, a in enumerate(self.chain.group[:-1]):
            fails[i] = bool(self.plan.saves[self.b, self.plan.allocs[a, A_LOCAL], SAVE_FAILS,
                                            face])
        return np.where(fails[:, None], self.step_normal, np.eye(len(fails)))

    def _sorted_saves(self, joint: np.ndarray, part: np.ndarray, local: int) -> np.ndarray:
        """11e: saves rolled together (re-rolled against the front group's table), inflicted
        lowest first; then the critical wounds."""
        faces = face_probabilities(self.plan.saves[self.b, local, SAVE_REROLL])
        n_max, k_max = joint.shape[0] - 1, joint.shape[1] - 1
        size = part.shape[0]
        rows = part.reshape(size, -1).T                          # [pending, L]
        table = joint[:, :, None, None] * rows[None, None]       # [n, k, pending, L]
        table = table.reshape(n_max + 1, -1, size)
        left = 1.0
        for face in range(1, 7):
            share = 1.0 if face == 6 else (faces[face] / left if left > 0 else 0.0)
            left -= faces[face]
            table = _spread_face(table, self._face_step(face), min(max(share, 0.0), 1.0))
        per_k = table[0].reshape(k_max + 1, -1, size)            # [k, pending, L]
        if self.defer:
            return per_k.transpose(2, 1, 0).reshape(part.shape + (k_max + 1,))
        result = per_k[-1]
        for k in range(k_max - 1, -1, -1):
            result = result @ self.step_mortal + per_k[k]
        return result.T.reshape(part.shape)


def _spread_face(table: np.ndarray, step: np.ndarray, share: float) -> np.ndarray:
    """Of the n dice left in row n of ``table``, c show this face (Binomial(n, share)): each
    moves the state one ``step``; row n - c of the result gathers them."""
    n_max = table.shape[0] - 1
    if share <= 0.0:
        return table
    out = np.zeros_like(table)
    binomial = binomial_rows(n_max, share)
    current = table
    for c in range(n_max + 1):
        out[: n_max + 1 - c] += binomial[c:, c][:, None, None] * current
        if c < n_max:
            current = current[1:] @ step
    return out


def _add_padded_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum of two states whose last (pending) axis may differ in length."""
    if a.shape == b.shape:
        return a + b
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape))
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in a.shape)] += a
    out[tuple(slice(0, n) for n in b.shape)] += b
    return out


def damage_chain(chain: UnitChain, damage_pmf: np.ndarray, fnp_by_sub: np.ndarray
                 ) -> np.ndarray:
    """Markov matrix over L of one allocation of ``damage_pmf`` damage to the model at the
    front: each point of damage may be stopped by its sub-group's Feel No Pain, and the
    model loses at most the wounds it has left (excess lost)."""
    size = len(chain.left)
    matrix = np.zeros((size, size))
    matrix[-1, -1] = 1.0
    cache: dict[int, np.ndarray] = {}
    for state in range(size - 1):
        fnp = int(fnp_by_sub[chain.sub[state]])
        if fnp not in cache:
            through = 1.0 - (7 - fnp) / 6.0 if fnp < 7 else 1.0
            pmf = np.asarray(damage_pmf, dtype=float)
            cache[fnp] = pmf @ binomial_rows(len(pmf) - 1, through) if through < 1.0 else pmf
        through_pmf = cache[fnp]
        left = int(chain.left[state])
        kept = min(left, len(through_pmf))
        matrix[state, state : state + kept] = through_pmf[:kept]
        matrix[state, state + left] += through_pmf[left:].sum()
    return matrix


def _power_mixture(one: np.ndarray, pmf: np.ndarray) -> np.ndarray:
    """``sum_d pmf[d] one ** d``: d single mortal wounds, one after another."""
    step = np.zeros_like(one)
    power = np.eye(one.shape[0])
    for p in pmf:
        if p > 0:
            step += p * power
        power = power @ one
    return step


def attack_dice(plan: CompiledScenario, b: int, target_models: int) -> np.ndarray:
    """Pmf of batch ``b``'s attack dice: each firing weapon's A (re-rolled once below its
    threshold), [BLAST]/[CLEAVE] against ``target_models`` (fixed X, then the dice of a
    random X) and [RAPID FIRE] X, summed over the contributions' weapons."""
    row = plan.batches[b]
    fives = target_models // 5
    bonus = int((row[B_BLAST] + row[B_CLEAVE]) * fives)
    extra = dice_pmf(int(row[RF_COUNT]), int(row[RF_SIDES]), int(row[RF_CONST]))
    if row[B_BONUS_COUNT] and fives:
        extra = np.convolve(extra, dice_pmf(int(row[B_BONUS_COUNT] * fives),
                                            int(row[B_BONUS_SIDES]), 0))
    total = np.ones(1)
    first = row[B_FIRST_CONTRIB]
    for c in range(first, first + row[B_N_CONTRIBS]):
        contrib = plan.contribs[c]
        models = int(plan.subs[contrib[C_SUB_FIRST] : contrib[C_SUB_FIRST]
                               + contrib[C_SUB_COUNT], S_MODELS].sum() - contrib[C_SKIPPED])
        weapons = max(min(models, int(contrib[C_CAP])), 0) * int(contrib[C_PER_MODEL])
        per_weapon = rerolled_pmf(dice_pmf(int(contrib[C_A_COUNT]), int(contrib[C_A_SIDES]),
                                           int(contrib[C_A_CONST])), int(contrib[C_A_REROLL]))
        per_weapon = np.convolve(np.concatenate([np.zeros(bonus), per_weapon]), extra)
        for _ in range(weapons):
            total = np.convolve(total, per_weapon)
    return total


def _raw_damage_pmf(plan: CompiledScenario, b: int) -> np.ndarray:
    """Law of batch ``b``'s raw Damage roll (the index of its damage maps)."""
    row = plan.batches[b]
    if row[D_TABLE]:
        cdf = plan.save_cdfs[b, DAMAGE_TABLE, 0]
        return np.diff(np.concatenate([[0.0], cdf]))
    return dice_pmf(int(row[D_COUNT]), int(row[D_SIDES]), int(row[D_CONST]))


__all__ = ["MAX_MIXED_STATES", "MAX_MIXED_WORK", "UnitChain", "attack_dice", "damage_chain",
           "solve_activation", "unit_chain"]
