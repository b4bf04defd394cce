"""Exact distributions for one activation against a unit of several statlines.

A whole-unit activation (:mod:`mathhammer.wh40k.scenario`) against a target of several
allocation groups (attached leaders, sergeants with other wargear, models with their own Feel
No Pain) is solved here exactly, from the same compiled arrays the scenario kernel reads
(:class:`~mathhammer.wh40k.scenario.layout.CompiledScenario`), following its rules:

- Allocation (05.03) and the state (:mod:`mathhammer.wh40k.exact_engine.unit_space`): a group
  holding a wounded model first, every non-CHARACTER group before any CHARACTER group,
  otherwise the declared order; within a group, models leave sub-group by sub-group. Without
  [PRECISION] the only wounded model is always in the group at the front, so the models die in
  one fixed order and the state of the whole unit is one number, L, the wounds it has lost.
- [PRECISION] (24.28): at the start of the batch the attacker makes a CHARACTER group current
  (the kernel's ``precision_pick``: first, a named group, or the best per wound left) until it
  is destroyed, then the normal order resumes. The non-CHARACTER groups still die in one
  order and each CHARACTER group's models in theirs, so the state is the wounds lost by the
  non-CHARACTER groups and by each CHARACTER group (a product of chains: (W_rest + 1) x
  (W_leader + 1) for one Leader). The states are split by the group [PRECISION] picks at the
  start of the batch; within a part an attack goes to that group while it stands, else to
  the front. A [DEVASTATING WOUNDS] attack's mortal wounds go to the front (11th edition) or,
  still allocated in 10th, to the picked group (held to the end of the attacks: refused
  against several CHARACTER groups, whose pick the pending count does not keep).
- Keywords (19.03): a batch is resolved against the keywords of the models still in the
  unit when it starts (its row for those keywords, ``CompiledScenario.variants``), so an
  [ANTI-X] or a keyword-scoped ability stops once the last model with X is destroyed.
- Toughness (19.02) and the save re-rolls of a batch are those of the unit at the start of
  the batch: the states are split by the toughness they present and the group the saves are
  judged against, and each part gets its own (saves to roll, critical wounds) pmf, the
  generating functions of :mod:`mathhammer.wh40k.exact_engine.tables` with every save counted.
- 11th-edition saves (05.03-05.04): every save die is rolled, then they are inflicted lowest
  first on the current group at that moment, so whether a die fails depends on where the
  earlier ones put the unit. The faces are taken in order: with n dice left, c of them show
  face f (binomial, with the face's share of what is left); each is one Markov step that moves
  the states whose group fails on f and leaves the others. A table over (dice left, critical
  wounds, state) carries this through the six faces.
- 10th edition: each save is rolled against the model the attack is allocated to, so one
  die is one step mixing "fails here" and "saved here" per state.
- [DEVASTATING WOUNDS]: after the batch's saves, each a step of mortal damage (its group's
  Feel No Pain against mortal wounds), held to the end of the activation (a pending axis, as
  in :mod:`mathhammer.wh40k.exact_engine.chains`) or spilling one mortal wound at a time, as
  the rules in force say.
- A Command Re-roll (one per activation, spent on the first eligible roll in the kernel's
  order: batch by batch, hit rolls, wound rolls, save rolls, then Damage rolls; see
  :mod:`mathhammer.wh40k.exact_engine.command`). Hit and wound: two states, re-roll in hand
  and spent, each batch's (saves, critical wounds) pmf split into :class:`~.command.Split`'s
  normal, kept and spent parts. Damage: the state doubles (spent, in hand) and every damage
  step is a block matrix (a roll below the average from the in-hand half is rolled again and
  moves to the spent half; a destroyed unit rolls nothing). Saves, 10th edition: the doubled
  state, the save die's step moving the in-hand half as the die against the current group
  allows. Saves, 11th edition (every die judged against the group current at the start): in
  hand, none of the n dice is eligible (each with the law of a non-eligible die); spent, m >= 1
  are (Binomial(n, p)): one is rolled again (a uniform die), the other m - 1 keep an eligible
  face (uniform on those faces) and the n - m others the non-eligible law, which is, with
  probability a, a re-rolled die on an eligible face, so the dice fall in three classes of
  disjoint or single support (eligible faces, other faces, the fresh die) and the face pass
  runs over a table with one count axis per class.

Outside this engine (refused with :class:`~mathhammer.errors.UnsupportedError`, the cell then
runs Monte Carlo): several activations or rounds, several targets, [PRECISION] with 10th-edition
[DEVASTATING WOUNDS] held to the end of the attacks against several CHARACTER groups, held
[DEVASTATING WOUNDS] against a unit whose keywords go with its models, more than
:data:`MAX_MIXED_STATES` states (the doubled ones of a Damage or 10th-edition save Command
Re-roll counted twice) and work beyond :data:`MAX_MIXED_WORK`.
"""

from __future__ import annotations

from typing import NamedTuple, cast

import numpy as np

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.compile import (COMMAND_DAMAGE_BELOW, D_CONST, D_COUNT, D_SIDES, D_TABLE,
                                      CompiledPlan,
                                      DEVASTATING, FNP_COLUMN, FNP_MORTAL_COLUMN,
                                      MORTAL_DAMAGE, NORMAL_DAMAGE, RF_CONST, RF_COUNT, RF_SIDES,
                                      SAVE_FAILS, SAVE_REROLL, dice_pmf, face_probabilities,
                                      rerolled_pmf)
from mathhammer.wh40k.exact_engine.chains import apply_batch, inflict_pending
from mathhammer.wh40k.exact_engine.command import (DAMAGE, HIT, SAVE, WOUND,
                                                   attack_die_split, rerolled_low_damage,
                                                   split_powers)
from mathhammer.wh40k.exact_engine.tables import (attack_die_gf, binomial_rows,
                                                  mapped_pmf, mix_powers)
from mathhammer.wh40k.exact_engine.unit_space import (UnitSpace, damage_matrix,
                                                      declared_groups, keyword_masks,
                                                      precision_group, routed, space_size,
                                                      toughness_index, unit_space)
from mathhammer.wh40k.scenario.layout import (A_CHARACTER, A_LOCAL, B_BLAST, B_BONUS_COUNT,
                                              B_BONUS_SIDES, B_CLEAVE, B_FIRST_CONTRIB,
                                              B_N_CONTRIBS, B_PRECISION, B_TARGET, C_A_CONST,
                                              C_A_COUNT, C_A_REROLL, C_A_SIDES, C_CAP,
                                              C_PER_MODEL, C_SKIPPED, C_SUB_COUNT, C_SUB_FIRST,
                                              DAMAGE_TABLE, F_DW_AT_END, F_DW_SPILL,
                                              F_ONE_AT_A_TIME, K_ATTACKER, K_COMMAND,
                                              K_FIRST_BATCH, K_N_BATCHES, S_MODELS,
                                              CompiledScenario)

#: Most multiply-adds the mixed-unit engine may take (about a second); beyond, Monte Carlo.
MAX_MIXED_WORK = 400_000_000
#: Most states it follows (wounds lost + 1; with [PRECISION], the product over the
#: non-CHARACTER groups and each CHARACTER group; doubled by a Damage Command Re-roll).
MAX_MIXED_STATES = 2_500

# How a batch meets the states: as usual, or (a Command Re-roll in hand) with none of its
# eligible rolls, or with the first one re-rolled.
NORMAL, KEPT, SPENT = "normal", "kept", "spent"


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
    precision = _uses_precision(plan, batches)
    command = int(plan.activations[k, K_COMMAND])
    one_at_a_time = bool(plan.flags[F_ONE_AT_A_TIME])
    doubled = command == DAMAGE or (command == SAVE and one_at_a_time)
    halves = command in (HIT, WOUND) or (command == SAVE and not one_at_a_time)
    size = space_size(plan, u, precision)
    if size * (2 if doubled else 1) > MAX_MIXED_STATES:
        raise UnsupportedError(
            f"the exact engine follows at most {MAX_MIXED_STATES:,} wound states (this unit "
            f"has {size * (2 if doubled else 1):,}"
            + (", a state per CHARACTER's wounds lost with [PRECISION]" if precision else "")
            + (", doubled by the Command Re-roll" if doubled else "") + ")")
    space = unit_space(plan, u, precision)
    ctx = _Context(plan, space, command, doubled, toughness_index(plan, space),
                   int(space.models[-1]), [MAX_MIXED_WORK])
    masks = keyword_masks(plan, space)
    start = np.zeros(size * (2 if doubled else 1))
    start[size if doubled else 0] = 1.0      # the re-roll, if any, in hand
    spent = np.zeros(size)
    deferred: list[np.ndarray] = []
    for b in batches:
        rows = _keyword_rows(plan, b, masks)
        mass = np.abs(start).reshape(start.shape[0], -1).sum(axis=1)
        if doubled:
            mass = mass[:size] + mass[size:]
        if halves:
            mass = mass + np.abs(spent).reshape(size, -1).sum(axis=1)
        used = sorted({int(r) for r in rows[mass > 0]} or {b})   # rows some state takes
        solvers = {r: _BatchSolver(ctx, r) for r in used}
        if len(solvers) > 1 and any(solver.defer for solver in solvers.values()):
            raise UnsupportedError("[DEVASTATING WOUNDS] held to the end of the attacks "
                                   "against a unit whose keywords go with its models")
        if any(solver.defer for solver in solvers.values()):
            deferred.append(solvers[used[0]].held_step())

        def advance(state: np.ndarray, mode: str) -> np.ndarray:
            if len(used) == 1:
                return solvers[used[0]].apply(state, mode)
            tiled = np.tile(rows, state.shape[0] // size)
            shape = (-1,) + (1,) * (state.ndim - 1)
            parts = [solvers[r].apply(state * (tiled == r).reshape(shape), mode) for r in used]
            return np.sum(parts, axis=0)

        if halves:
            spent = _add_padded_last(advance(spent, NORMAL), advance(start, SPENT))
            start = advance(start, KEPT)
        else:
            start = advance(start, NORMAL)
    state = _add_padded_last(start, spent) if halves else start
    for step in deferred:
        state = inflict_pending(state, step)
    if doubled:
        state = state[:size] + state[size:]
    damage = np.bincount(space.lost, weights=state, minlength=int(space.lost[-1]) + 1)
    models_pmf = np.bincount(space.models, weights=state, minlength=ctx.models_at_start + 1)
    return {"damage": damage, "models_destroyed": models_pmf}


def _check_plan(plan: CompiledScenario) -> int:
    """The plan's one activation, or a refusal naming what the engine does not follow."""
    if plan.rounds != 1 or plan.activations.shape[0] != 1:
        raise UnsupportedError("the exact engine solves one activation of one round")
    first, count = plan.activations[0, K_FIRST_BATCH], plan.activations[0, K_N_BATCHES]
    rows = plan.batches[first : first + count]
    if count == 0 or len(set(rows[:, B_TARGET].tolist())) != 1:
        raise UnsupportedError("the exact engine solves attacks on one target unit")
    u = int(rows[0, B_TARGET])
    if u == int(plan.activations[0, K_ATTACKER]):
        raise UnsupportedError("a unit attacking itself")
    characters = [a for a in declared_groups(plan, u) if plan.allocs[a, A_CHARACTER]]
    if (_uses_precision(plan, range(first, first + count)) and len(characters) > 1
            and plan.flags[F_ONE_AT_A_TIME] and plan.flags[F_DW_AT_END]
            and rows[:, DEVASTATING].any()):
        raise UnsupportedError("[PRECISION] with [DEVASTATING WOUNDS] held to the end of the "
                               "attacks against several CHARACTER groups needs the Monte Carlo "
                               "engine")
    return 0


def _uses_precision(plan: CompiledScenario, batches: range) -> bool:
    """Whether a row some batch may be resolved as (its keyword variants too) has
    [PRECISION]."""
    rows = {int(b) for b in batches}
    if plan.variants is not None:
        rows |= {int(r) for b in batches for r in plan.variants[b]}
    return bool(plan.batches[sorted(rows), B_PRECISION].any())


def _keyword_rows(plan: CompiledScenario, b: int, masks: np.ndarray) -> np.ndarray:
    """Per state, the row batch ``b`` is resolved as (its keyword variant)."""
    if plan.variants is None or plan.variants.shape[1] == 1:
        return np.full(len(masks), b, dtype=np.int64)
    return plan.variants[b, masks]


class _Context(NamedTuple):
    """What the batches of one activation share."""

    plan: CompiledScenario
    space: UnitSpace
    command: int              # the Command Re-roll's kind, 0 for none
    doubled: bool             # states (spent, in hand) in one vector
    presented: np.ndarray     # per state, the index of the Toughness presented
    models_at_start: int
    budget: list[int]         # multiply-adds still allowed


class _BatchSolver:
    """One batch of the activation on the unit's states."""

    def __init__(self, ctx: _Context, b: int) -> None:
        self.ctx, self.plan, self.space, self.b = ctx, ctx.plan, ctx.space, b
        self.row = self.plan.batches[b]
        self.n_pmf = attack_dice(self.plan, b, ctx.models_at_start)
        self.raw = _raw_damage_pmf(self.plan, b)
        self.defer = bool(self.plan.flags[F_DW_AT_END] and self.row[DEVASTATING])
        self.one_at_a_time = bool(self.plan.flags[F_ONE_AT_A_TIME])
        self._steps: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._joints: dict[tuple[int, str], np.ndarray] = {}
        self._region_list: list[tuple[int, int, int, np.ndarray]] | None = None

    # -- the Markov steps -------------------------------------------------------------------

    def _damage_step(self, target: np.ndarray, which: int, fnp_column: int) -> np.ndarray:
        """One allocation of the batch's damage (``NORMAL_DAMAGE`` or ``MORTAL_DAMAGE``) to
        the group ``target`` names per state; with a Damage Command Re-roll, over (spent,
        in hand)."""
        maps = self.plan.damage_maps[self.b, which]
        fnp = self.plan.subs[:, self.row[fnp_column]]
        full = damage_matrix(self.space, target, mapped_pmf(self.raw, maps), fnp)
        if self.ctx.command != DAMAGE:
            return _block_diagonal(full) if self.ctx.doubled else full
        high, low = self._reroll_pmfs()
        keep = damage_matrix(self.space, target, mapped_pmf(high, maps), fnp)
        again = damage_matrix(self.space, target, mapped_pmf(low, maps), fnp)
        return _reroll_block(full, keep, again, target < 0)

    def _spill_step(self) -> np.ndarray:
        """A [DEVASTATING WOUNDS] attack's mortal wounds one at a time on the front."""
        fnp = self.plan.subs[:, self.row[FNP_MORTAL_COLUMN]]
        one = damage_matrix(self.space, self.space.front, np.array([0.0, 1.0]), fnp)
        maps = self.plan.damage_maps[self.b, MORTAL_DAMAGE]
        full = _power_mixture(one, mapped_pmf(self.raw, maps))
        if self.ctx.command != DAMAGE:
            return _block_diagonal(full) if self.ctx.doubled else full
        high, low = self._reroll_pmfs()
        return _reroll_block(full, _power_mixture(one, mapped_pmf(high, maps)),
                             _power_mixture(one, mapped_pmf(low, maps)), self.space.front < 0)

    def _reroll_pmfs(self) -> tuple[np.ndarray, np.ndarray]:
        """The raw Damage roll's law kept (at or above the average) and rolled again."""
        below = int(self.row[COMMAND_DAMAGE_BELOW])
        high = self.raw.copy()
        high[:below] = 0.0
        return high, rerolled_low_damage(self.row, self.raw)

    def steps(self, pick: int) -> tuple[np.ndarray, np.ndarray]:
        """(failed save, critical wound) steps for the states whose [PRECISION] pick at the
        start of the batch is group ``pick`` (-1: none)."""
        if pick not in self._steps:
            normal = self._damage_step(routed(self.space, pick), NORMAL_DAMAGE, FNP_COLUMN)
            if self.plan.flags[F_DW_SPILL]:
                mortal = self._spill_step()
            else:   # 10e: still allocated, so [PRECISION] takes it to the CHARACTER too
                to = routed(self.space, pick if self.one_at_a_time else -1)
                mortal = self._damage_step(to, MORTAL_DAMAGE, FNP_MORTAL_COLUMN)
            self._steps[pick] = (normal, mortal)
        return self._steps[pick]

    def held_step(self) -> np.ndarray:
        """The step of a [DEVASTATING WOUNDS] critical wound held to the end of the attacks:
        on the CHARACTER [PRECISION] picked while it stands (10th edition; one CHARACTER
        group, else refused), else on the front."""
        characters = [a for a in declared_groups(self.plan, self.space.u)
                      if self.plan.allocs[a, A_CHARACTER]]
        pick = characters[0] if (self.row[B_PRECISION] and len(characters) == 1
                                 and len(self.space.chains) > 1) else -1
        return self.steps(pick)[1]

    # -- the batch ---------------------------------------------------------------------------

    def _regions(self) -> list[tuple[int, int, int, np.ndarray]]:
        """(Toughness index, save table judged against, [PRECISION] pick, states) for each
        part of the states that meets the batch alike."""
        if self._region_list is not None:
            return self._region_list
        space, allocs = self.space, self.plan.allocs
        picks = np.full(space.size, -1, dtype=np.int64)
        if self.row[B_PRECISION]:
            pick = int(self.plan.precision_pick[self.b])
            picks[:-1] = [precision_group(self.plan, space, s, pick)
                          for s in range(space.size - 1)]
        reference = np.where(picks >= 0, picks, space.front)
        local = np.where(reference >= 0, allocs[np.maximum(reference, 0), A_LOCAL], 0)
        keys = np.stack([self.ctx.presented, local, picks], axis=1)
        if self.ctx.doubled:
            keys = np.tile(keys, (2, 1))
        out = []
        for key in np.unique(keys, axis=0):
            out.append((int(key[0]), int(key[1]), int(key[2]), (keys == key).all(axis=1)))
        self._region_list = out
        return out

    def _joint(self, t: int, mode: str) -> np.ndarray:
        """(saves to roll, critical wounds) pmf against Toughness index ``t``: as usual, or
        for a hit or wound Command Re-roll, with it kept or spent in this batch."""
        if self.ctx.command not in (HIT, WOUND):
            mode = NORMAL
        if (t, mode) in self._joints:
            return self._joints[t, mode]
        rolls = np.stack([self.plan.hit[self.b, 0], self.plan.hit[self.b, 1],
                          self.plan.wound[self.b, 2 * t], self.plan.wound[self.b, 2 * t + 1]])
        every_save_rolled = np.zeros((2, 7), dtype=np.int64)
        every_save_rolled[SAVE_FAILS, 1:] = 1
        if self.ctx.command not in (HIT, WOUND):
            self._joints[t, mode] = np.clip(
                mix_powers(attack_die_gf(self.row, rolls, every_save_rolled), self.n_pmf),
                0.0, None)
            return self._joints[t, mode]
        one_batch = _OneBatch(self.row[None], rolls[None], every_save_rolled[None, None])
        split = split_powers(attack_die_split(cast(CompiledPlan, one_batch), 0,
                                              self.ctx.command), self.n_pmf)
        for name, gf in ((NORMAL, split.normal), (KEPT, split.kept), (SPENT, split.spent)):
            self._joints[t, name] = gf
        return self._joints[t, mode]

    def apply(self, state: np.ndarray, mode: str) -> np.ndarray:
        """``state`` (states, then one axis per held batch) after this batch; ``mode``: as
        usual, or the Command Re-roll (hit, wound, 11e save) kept or spent in it."""
        result = None
        budget = self.ctx.budget
        for t, local, pick, mask in self._regions():
            part = state * mask.reshape((-1,) + (1,) * (state.ndim - 1))
            if not part.any():
                continue
            joint = self._joint(t, mode)
            rows = part.size // part.shape[0] * joint.shape[1]
            dice = joint.shape[0]
            per_die = dice if self.one_at_a_time else 3 * dice * dice
            if self.ctx.command == SAVE and mode == SPENT:
                per_die *= dice
            budget[0] -= per_die * rows * part.shape[0] ** 2
            if budget[0] < 0:
                raise UnsupportedError(f"this activation needs more than {MAX_MIXED_WORK:,} "
                                       "exact steps")
            step_normal, step_mortal = self.steps(pick)
            target = routed(self.space, pick)
            if self.one_at_a_time:
                out = apply_batch(joint, part, self._per_die_step(target, step_normal),
                                  step_mortal, self.defer)
            else:
                out = self._sorted_saves(joint, part, local, pick, mode)
            result = out if result is None else _add_padded_last(result, out)
        if result is None:   # every state in a part this mode leaves empty
            return np.zeros_like(state)
        return result

    def _fails(self, target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per state, for one save die against the group ``target`` names (10th edition):
        P(it fails), P(it fails on the first roll and may take a save Command Re-roll), and
        P(a fresh roll fails)."""
        fails, eligible, fresh = (np.zeros(self.space.size) for _ in range(3))
        for state, a in enumerate(target):
            if a < 0:
                continue
            table = self.plan.saves[self.b, self.plan.allocs[a, A_LOCAL]]
            faces = face_probabilities(table[SAVE_REROLL])
            fails[state] = float(faces[table[SAVE_FAILS] == 1].sum())
            fresh[state] = table[SAVE_FAILS][1:7].sum() / 6.0
            if not table[SAVE_FAILS][6]:
                eligible[state] = float(((table[SAVE_REROLL][1:7] == 0)
                                         & (table[SAVE_FAILS][1:7] == 1)).sum()) / 6.0
        return fails, eligible, fresh

    def _per_die_step(self, target: np.ndarray, step: np.ndarray) -> np.ndarray:
        """10e: one save die against the model the attack goes to, its own group's table."""
        fails, eligible, fresh = self._fails(target)
        size = self.space.size
        eye = np.eye(size)
        if not self.ctx.doubled:
            return fails[:, None] * step + (1.0 - fails)[:, None] * eye
        if self.ctx.command == DAMAGE:
            both = np.tile(fails, 2)[:, None]
            return both * step + (1.0 - both) * np.eye(2 * size)
        plain = step[:size, :size]   # a save Command Re-roll: the damage step on both halves
        spent = fails[:, None] * plain + (1.0 - fails)[:, None] * eye
        to_spent = (eligible * fresh)[:, None] * plain + (eligible * (1 - fresh))[:, None] * eye
        kept = (fails - eligible)[:, None] * plain + (1.0 - fails)[:, None] * eye
        return np.block([[spent, np.zeros_like(spent)], [to_spent, kept]])

    def _face_step(self, face: int, target: np.ndarray, step: np.ndarray) -> np.ndarray:
        """One save die showing ``face``: the states whose current group fails it take the
        damage step, the others stay."""
        fails = np.zeros(self.space.size, dtype=bool)
        for state, a in enumerate(target):
            if a >= 0:
                fails[state] = bool(self.plan.saves[self.b, self.plan.allocs[a, A_LOCAL],
                                                    SAVE_FAILS, face])
        if self.ctx.doubled:
            fails = np.tile(fails, 2)
        return np.where(fails[:, None], step, np.eye(len(fails)))

    def _sorted_saves(self, joint: np.ndarray, part: np.ndarray, local: int, pick: int,
                      mode: str) -> np.ndarray:
        """11e: saves rolled together (re-rolled against group profile ``local``, the one
        current at the start), inflicted lowest first on the group ``pick`` while it stands,
        else the front; then the critical wounds."""
        target = routed(self.space, pick)
        step_normal, step_mortal = self.steps(pick)
        table = self.plan.saves[self.b, local]
        size = part.shape[0]
        rows = part.reshape(size, -1).T                          # [pending, L]
        k_max = joint.shape[1] - 1
        if self.ctx.command == SAVE and mode != NORMAL:
            weights, laws = _save_command_classes(table, joint, mode == SPENT)
        else:
            weights, laws = joint, [face_probabilities(table[SAVE_REROLL])]
        counts = weights.shape[:-1]
        cells = weights[..., None, None] * rows
        cells = cells.reshape(counts + (-1, size))
        cells = _face_pass(cells, laws, lambda face: self._face_step(face, target,
                                                                     step_normal))
        per_k = cells.reshape(k_max + 1, -1, size)                # [k, pending, L]
        if self.defer:
            return per_k.transpose(2, 1, 0).reshape(part.shape + (k_max + 1,))
        result = per_k[-1]
        for k in range(k_max - 1, -1, -1):
            result = result @ step_mortal + per_k[k]
        return result.T.reshape(part.shape)


class _OneBatch(NamedTuple):
    """One scenario batch against one Toughness, in the shape
    :func:`~.command.attack_die_split` reads (``batch``, ``rolls``, ``saves`` at index 0)."""

    batch: np.ndarray
    rolls: np.ndarray
    saves: np.ndarray


def _save_command_classes(table: np.ndarray, joint: np.ndarray, spent: bool
                          ) -> tuple[np.ndarray, list[np.ndarray]]:
    """11e save dice with the Command Re-roll in hand, judged against save ``table``: the
    weights over (dice per class..., critical wounds) and each class's face law.

    Kept: n dice none of which is eligible (weight (1 - p)^n, the non-eligible law). Spent:
    m >= 1 of n eligible (Binomial(n, p)): one rolled again (a uniform die), m - 1 uniform on
    the eligible faces, and of the n - m others Binomial(n - m, a) on an eligible face (a
    re-rolled die), the rest on the other faces (see the module docstring)."""
    fails, mask = table[SAVE_FAILS], table[SAVE_REROLL]
    eligible = np.zeros(7, dtype=bool)
    if not fails[6]:
        eligible[1:] = (mask[1:] == 0) & (fails[1:] == 1)
    p = eligible.sum() / 6.0
    normal = face_probabilities(mask)
    other = normal - eligible / 6.0                 # non-eligible dice, mass 1 - p
    n_max, crit = joint.shape[0] - 1, joint.shape[1]
    if not spent:
        weights = joint * ((1.0 - p) ** np.arange(n_max + 1))[:, None]
        return weights, [other / (1.0 - p)]
    weights = np.zeros((max(n_max, 1), max(n_max, 1), 2, crit))
    if p == 0.0:
        return weights, [normal, normal, normal]
    on_eligible = float(other[eligible].sum() / (1.0 - p))
    by_n = binomial_rows(n_max, p)
    by_other = binomial_rows(n_max, on_eligible)
    for n in range(1, n_max + 1):
        for m in range(1, n + 1):
            for j in range(n - m + 1):
                weights[m - 1 + j, n - m - j, 1] += joint[n] * by_n[n, m] * by_other[n - m, j]
    uniform_eligible = np.where(eligible, 1.0 / eligible.sum(), 0.0)
    rest = np.where(eligible, 0.0, other)
    rest = rest / rest.sum() if rest.sum() > 0 else rest
    uniform = np.full(7, 1.0 / 6.0)
    uniform[0] = 0.0
    return weights, [uniform_eligible, rest, uniform]


def _face_pass(cells: np.ndarray, laws: list[np.ndarray], face_step) -> np.ndarray:
    """The save dice of ``cells`` (one count axis per class of dice, then rows, then states)
    inflicted lowest face first: at face f, of the dice left in class i, Binomial(count,
    share) show f (``laws[i]``: its face law); returns the cells with no die left."""
    left = [1.0] * len(laws)
    for face in range(1, 7):
        step = None
        for i, law in enumerate(laws):
            if law[face] <= 0.0 or cells.shape[i] == 1:
                left[i] -= law[face]
                continue
            last = not np.any(law[face + 1:] > 0.0)
            share = 1.0 if (last or face == 6) else (law[face] / left[i] if left[i] > 0 else 0.0)
            left[i] -= law[face]
            step = face_step(face) if step is None else step
            moved = np.moveaxis(cells, i, 0)
            shape = moved.shape
            spread = _spread_face(moved.reshape(shape[0], -1, shape[-1]), step,
                                  min(max(share, 0.0), 1.0))
            cells = np.moveaxis(spread.reshape(shape), 0, i)
            if last or face == 6:
                cells = cells.take([0], axis=i)
    return cells[(0,) * len(laws)]


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


def _block_diagonal(step: np.ndarray) -> np.ndarray:
    """``step`` on both halves (spent, in hand) of a doubled state."""
    zeros = np.zeros_like(step)
    return np.block([[step, zeros], [zeros, step]])


def _reroll_block(full: np.ndarray, keep: np.ndarray, again: np.ndarray,
                  stays: np.ndarray) -> np.ndarray:
    """A Damage step over (spent, in hand): the spent half ``full``; from the in-hand half,
    ``keep`` (a roll at or above the average) stays in hand, ``again`` (a roll below it,
    rolled again) moves to the spent half; the ``stays`` states roll nothing."""
    keep, again = keep.copy(), again.copy()
    index = np.flatnonzero(stays)
    keep[index] = 0.0
    keep[index, index] = 1.0
    again[index] = 0.0
    return np.block([[full, np.zeros_like(full)], [again, keep]])


def _add_padded_last(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum of two states whose pending axes may differ in number or length."""
    if a.shape == b.shape:
        return a + b
    ndim = max(a.ndim, b.ndim)
    a = a.reshape(a.shape + (1,) * (ndim - a.ndim))
    b = b.reshape(b.shape + (1,) * (ndim - b.ndim))
    shape: tuple[int, ...] = tuple(map(max, a.shape, b.shape))
    out = np.zeros(shape)
    out[_corner(a.shape)] += a
    out[_corner(b.shape)] += b
    return out


def _corner(shape: tuple[int, ...]) -> tuple[slice, ...]:
    """The index of the block of ``shape`` at the origin of a larger array."""
    return tuple(slice(0, n) for n in shape)


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


__all__ = ["MAX_MIXED_STATES", "MAX_MIXED_WORK", "attack_dice", "solve_activation"]
