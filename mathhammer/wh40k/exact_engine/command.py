"""Exact distributions with a Command Re-roll in hand (one per run, on the first roll that fails).

The Monte Carlo kernel spends the re-roll on the first eligible roll in the order the dice
are rolled: batch by batch, and within a batch all hit rolls, then all wound rolls, then all
save rolls, then the Damage rolls ([DEVASTATING WOUNDS] held to the end of the attacks roll
theirs after every batch's, rules 2.2). A roll is eligible when it fails and no other rule has
re-rolled it already (a die is re-rolled at most once); a save also needs a face that could
pass (nobody re-rolls a save that cannot succeed); a Damage roll is eligible when it is below
the dice expression's average.

Hit, wound and save rolls. The exact engine builds each attack die's generating function
(see :mod:`mathhammer.wh40k.exact_engine.chains`). Here every piece of it carries three generating
functions, a :class:`Split`:

- ``normal``: the piece as usual (the re-roll already spent, or of another kind);
- ``kept``: the outcomes in which no roll of the piece is eligible (the re-roll stays);
- ``spent``: the outcomes in which one is, with the first eligible roll rolled again.

Pieces met one after another multiply as ``kept = kept_a kept_b`` and ``spent = spent_a
normal_b + kept_a spent_b``: the re-roll goes to the first piece that can take it, and only
one roll of a die that rolls several times ([SUSTAINED HITS] extra hits rolling to wound)
is re-rolled. The rolls of one step are alike and independent and their number does not
depend on their own results, so they may be taken attack die by attack die. A batch of n
dice then gives ``kept = K^n`` and ``spent = sum_j K^(j-1) X N^(n-j)``. The state is two
wounds-lost vectors (re-roll spent, re-roll in hand), each moved by the batch's own
(unsaved, critical) pmf with the Markov steps of :mod:`mathhammer.wh40k.exact_engine.chains`.

Damage rolls. The Damage rolls happen inside the Markov chain over wounds lost, so the chain
runs over (wounds lost, re-roll in hand): from a state with the re-roll in hand, a Damage
roll below the average moves to the spent half with a fresh roll's damage. A destroyed unit
rolls nothing, so its states keep the re-roll. Held critical wounds take the same step when
they are inflicted.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

import numpy as np

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.compile import (AUTO_HIT, COMMAND_CODES, COMMAND_DAMAGE_BELOW,
                                      COMMAND_ONE_DIE, D_CONST, D_COUNT, D_SIDES, DEVASTATING,
                                      EXTRA_CRIT, FAIL, FNP_COLUMN,
                                      FNP_MORTAL_COLUMN, G_MODELS, G_WOUNDS, HIT_CLASS,
                                      HIT_REROLL, LETHAL, MORTAL_DAMAGE, NORMAL_DAMAGE,
                                      SAVE_FAILS, SAVE_REROLL, SUS_CONST, SUS_COUNT, SUS_SIDES,
                                      WOUND_CLASS, WOUND_REROLL, CompiledPlan, attack_dice_pmf,
                                      dice_pmf)
from mathhammer.wh40k.exact_engine.chains import (add_padded, apply_batch, batch_steps,
                                                  check_exact_size, check_pending_size, convolve,
                                                  damage_transition, inflict_pending, mapped_pmf,
                                                  mortal_step, pmfs_of,
                                                  unsaved_and_devastating_pmf)

HIT, WOUND, DAMAGE, SAVE = (COMMAND_CODES[k] for k in ("hit", "wound", "damage", "save"))


@dataclass(frozen=True)
class Split:
    """A piece of an attack's generating function over (unsaved wounds, critical wounds):
    as usual, restricted to no eligible roll, and with the first eligible roll re-rolled."""

    normal: np.ndarray
    kept: np.ndarray
    spent: np.ndarray

    @classmethod
    def plain(cls, gf: np.ndarray) -> Split:
        """A piece with no roll of the re-roll's kind."""
        return cls(gf, gf, np.zeros((1, 1)))

    def then(self, other: Split) -> Split:
        """This piece followed by ``other`` (the re-roll goes to the first that can take it)."""
        return Split(convolve(self.normal, other.normal), convolve(self.kept, other.kept),
                     add_padded(convolve(self.spent, other.normal),
                                convolve(self.kept, other.spent)))

    def __add__(self, other: Split) -> Split:
        return Split(add_padded(self.normal, other.normal), add_padded(self.kept, other.kept),
                     add_padded(self.spent, other.spent))

    def scaled(self, p: float) -> Split:
        return Split(p * self.normal, p * self.kept, p * self.spent)


ONE = Split.plain(np.ones((1, 1)))


class RollLaw(NamedTuple):
    """One D6 roll split for the Command Re-roll, each law indexed by outcome code."""

    normal: np.ndarray   # P(outcome) as usual
    kept: np.ndarray     # P(outcome and the roll not eligible)
    fresh: np.ndarray    # the law of a fresh roll (the Command Re-roll: final)
    p_eligible: float    # P(the roll is eligible)


def roll_split(classes: np.ndarray, reroll: np.ndarray, eligible: np.ndarray | None,
               outcomes: int) -> RollLaw:
    """A roll with a per-face outcome row ``classes`` (codes below ``outcomes``), re-roll
    mask ``reroll`` (those faces are never eligible) and eligible faces (None: none)."""
    fresh = np.zeros(outcomes)
    for face in range(1, 7):
        fresh[classes[face]] += 1 / 6
    normal = np.zeros(outcomes)
    kept = np.zeros(outcomes)
    p_eligible = 0.0
    for face in range(1, 7):
        if reroll[face]:
            normal += fresh / 6
            kept += fresh / 6
            continue
        normal[classes[face]] += 1 / 6
        if eligible is not None and eligible[face]:
            p_eligible += 1 / 6
        else:
            kept[classes[face]] += 1 / 6
    return RollLaw(normal, kept, fresh, p_eligible)


def _wound_token(wound: np.ndarray, unsaved: np.ndarray, devastating: bool) -> np.ndarray:
    """GF of one wound roll with outcome law ``wound`` (fail, success, critical) followed by
    a save when it wounds, ``unsaved`` the (saved, unsaved) law: rows u, columns k."""
    fail, success, critical = wound
    ordinary = success + (0.0 if devastating else critical)
    return np.array([[fail + ordinary * unsaved[0], critical if devastating else 0.0],
                     [ordinary * unsaved[1], 0.0]])


def _wound_and_save_splits(plan: CompiledPlan, b: int, kind: int) -> tuple[Split, Split]:
    """The Splits of one wound roll (then its save) and of one [LETHAL HITS] automatic
    wound (a save only)."""
    devastating = bool(plan.batch[b, DEVASTATING])
    wound_classes, wound_reroll = plan.rolls[b, WOUND_CLASS], plan.rolls[b, WOUND_REROLL]
    save_fails, save_reroll = plan.saves[b, 0, SAVE_FAILS], plan.saves[b, 0, SAVE_REROLL]
    # a failed save is eligible unless no face could pass (then no save roll is made)
    saves = roll_split(save_fails, save_reroll,
                       save_fails if kind == SAVE and not save_fails[6] else None, 2)
    wounds = roll_split(wound_classes, wound_reroll,
                        wound_classes == FAIL if kind == WOUND else None, 3)
    if kind == SAVE:
        fail, success, critical = wounds.normal
        ordinary = success + (0.0 if devastating else critical)
        ends = Split.plain(np.array([[fail, critical if devastating else 0.0]]))
        save = Split(saves.normal[:, None], saves.kept[:, None],
                     saves.p_eligible * saves.fresh[:, None])
        return ends + save.scaled(ordinary), save
    token = Split(_wound_token(wounds.normal, saves.normal, devastating),
                  _wound_token(wounds.kept, saves.normal, devastating),
                  wounds.p_eligible * _wound_token(wounds.fresh, saves.normal, devastating))
    return token, Split.plain(saves.normal[:, None])


def attack_die_split(plan: CompiledPlan, b: int, kind: int) -> Split:
    """The Split of one attack die of batch ``b``: hit roll, [SUSTAINED HITS] extra hits,
    [LETHAL HITS] automatic wounds, wound and save rolls."""
    row = plan.batch[b]
    token, auto = _wound_and_save_splits(plan, b, kind)
    if row[AUTO_HIT]:
        return token
    sustained = dice_pmf(row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST])
    extra_piece = auto if (row[LETHAL] and row[EXTRA_CRIT]) else token
    extra = Split.plain(np.zeros((1, 1)))
    power = ONE
    for x, px in enumerate(sustained):
        if x > 0:
            power = power.then(extra_piece)
        if px > 0:
            extra = extra + power.scaled(px)
    crit = (auto if row[LETHAL] else token).then(extra)
    classes = plan.rolls[b, HIT_CLASS]
    hits = roll_split(classes, plan.rolls[b, HIT_REROLL],
                      classes == FAIL if kind == HIT else None, 3)
    if kind != HIT:
        return ONE.scaled(hits.normal[0]) + token.scaled(hits.normal[1]) \
            + crit.scaled(hits.normal[2])

    def outcome_gf(p: np.ndarray) -> np.ndarray:
        # token and crit hold no roll of the re-roll's kind here: normal == kept
        return add_padded(add_padded(np.array([[p[0]]]), p[1] * token.normal), p[2] * crit.normal)

    return Split(outcome_gf(hits.normal), outcome_gf(hits.kept),
                 hits.p_eligible * outcome_gf(hits.fresh))


def batch_split(plan: CompiledPlan, b: int, kind: int) -> Split:
    """Joint pmfs of (unsaved wounds, critical wounds) of batch ``b``: as usual, with the
    re-roll still in hand afterwards, and with it spent in this batch."""
    return split_powers(attack_die_split(plan, b, kind), attack_dice_pmf(plan.batch[b]))


def split_powers(die: Split, n_pmf: np.ndarray) -> Split:
    """``sum_n n_pmf[n] die ** n``: a random number of attack dice, the re-roll going to the
    first die that can take it; the three parts on one shape, so that deferred critical
    wounds add axes of one length."""
    joint = Split.plain(np.zeros((1, 1)))
    power = ONE
    for n, pn in enumerate(n_pmf):
        if n > 0:
            power = power.then(die)
        if pn > 0:
            joint = joint + power.scaled(pn)
    shape = add_padded(add_padded(joint.normal, joint.kept), joint.spent).shape
    return Split(*(np.clip(add_padded(np.zeros(shape), gf), 0.0, None)
                   for gf in (joint.normal, joint.kept, joint.spent)))


def solve(plan: CompiledPlan) -> dict[str, np.ndarray]:
    """:func:`mathhammer.wh40k.exact_engine.chains.solve` for a plan with a Command Re-roll.

    Raises
    ------
    UnsupportedError
        As :func:`~mathhammer.wh40k.exact_engine.chains.solve` does.
    """
    kind = plan.command_reroll
    if plan.groups.shape[0] != 1:
        raise UnsupportedError("the exact engine covers one group of identical models; use "
                               "the Monte Carlo engine for mixed units")
    models, wounds = int(plan.groups[0, G_MODELS]), int(plan.groups[0, G_WOUNDS])
    size = models * wounds + 1
    check_exact_size(plan, size)
    check_pending_size(plan, 2 * size)
    if kind == DAMAGE:
        return pmfs_of(plan, _damage_reroll_state(plan, models, wounds), wounds)
    return pmfs_of(plan, _roll_reroll_state(plan, models, wounds), wounds)


def solve_by_hand(plan: CompiledPlan) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The pmfs of :func:`solve` split by where the Command Re-roll ends: still in hand after
    every batch (first) and spent on one of them (second); the two add up to :func:`solve`'s.

    A batch against a unit already destroyed is not resolved (the scenario kernel skips it),
    so it cannot take the re-roll: that is what a later target of the same activation sees.

    Raises
    ------
    UnsupportedError
        As :func:`solve`, and for [DEVASTATING WOUNDS] held to the end of the attacks (their
        rolls come after a later target's) or 10th-edition saves with a save re-roll (they
        stop when the unit is destroyed).
    """
    kind = plan.command_reroll
    if plan.groups.shape[0] != 1:
        raise UnsupportedError("the exact engine covers one group of identical models; use "
                               "the Monte Carlo engine for mixed units")
    if plan.dw_at_unit_end and plan.batch[:, DEVASTATING].any():
        raise UnsupportedError("a Command Re-roll shared by several targets with [DEVASTATING "
                               "WOUNDS] held to the end of the attacks")
    if kind == SAVE and plan.edition == 10:
        raise UnsupportedError("a save Command Re-roll shared by several targets in 10th "
                               "edition")
    models, wounds = int(plan.groups[0, G_MODELS]), int(plan.groups[0, G_WOUNDS])
    size = models * wounds + 1
    check_exact_size(plan, size)
    if kind == DAMAGE:
        state = _damage_reroll_state(plan, models, wounds, halves=True)
        spent, in_hand = state[:size], state[size:]
    else:
        in_hand = np.zeros(size)
        in_hand[0] = 1.0
        spent = np.zeros_like(in_hand)
        for b in range(plan.n_batches):
            joint = batch_split(plan, b, kind)
            step_normal, step_mortal = batch_steps(plan, b, models, wounds)
            alive = in_hand.copy()
            alive[-1] = 0.0   # a destroyed unit: the batch is skipped, the re-roll kept
            spent = (apply_batch(joint.normal, spent, step_normal, step_mortal, False)
                     + apply_batch(joint.spent, alive, step_normal, step_mortal, False))
            destroyed = in_hand[-1]
            in_hand = apply_batch(joint.kept, alive, step_normal, step_mortal, False)
            in_hand[-1] += destroyed
    return pmfs_of(plan, in_hand, wounds), pmfs_of(plan, spent, wounds)


def _roll_reroll_state(plan: CompiledPlan, models: int, wounds: int) -> np.ndarray:
    """Wounds lost with a hit, wound or save Command Re-roll: two states, the re-roll spent
    and in hand, each moved by its own batch pmfs."""
    in_hand = np.zeros(models * wounds + 1)
    in_hand[0] = 1.0
    spent = np.zeros_like(in_hand)
    deferred: list[np.ndarray] = []
    for b in range(plan.n_batches):
        joint = batch_split(plan, b, plan.command_reroll)
        step_normal, step_mortal = batch_steps(plan, b, models, wounds)
        defer = bool(plan.dw_at_unit_end and plan.batch[b, DEVASTATING])
        if defer:
            deferred.append(step_mortal)
        spent = (apply_batch(joint.normal, spent, step_normal, step_mortal, defer)
                 + apply_batch(joint.spent, in_hand, step_normal, step_mortal, defer))
        in_hand = apply_batch(joint.kept, in_hand, step_normal, step_mortal, defer)
    state = spent + in_hand
    for step in deferred:
        state = inflict_pending(state, step)
    return state


def _damage_reroll_state(plan: CompiledPlan, models: int, wounds: int,
                         halves: bool = False) -> np.ndarray:
    """Wounds lost with a Damage Command Re-roll: one chain over (re-roll spent, wounds lost)
    and (re-roll in hand, wounds lost), the two halves of one vector (returned as they are
    with ``halves``, else added)."""
    size = models * wounds + 1
    state = np.zeros(2 * size)
    state[size] = 1.0
    deferred: list[np.ndarray] = []
    for b in range(plan.n_batches):
        step_normal, step_mortal = damage_reroll_steps(plan, b, models, wounds)
        defer = bool(plan.dw_at_unit_end and plan.batch[b, DEVASTATING])
        if defer:   # their Damage rolls come after every batch's (2.2), in batch order
            deferred.append(step_mortal)
        state = apply_batch(unsaved_and_devastating_pmf(plan, b), state, step_normal,
                            step_mortal, defer)
    for step in deferred:
        state = inflict_pending(state, step)
    return state if halves else state[:size] + state[size:]


def rerolled_low_damage(row: np.ndarray, raw_pmf: np.ndarray) -> np.ndarray:
    """P(the Damage roll is below ``COMMAND_DAMAGE_BELOW`` and, re-rolled, ends at r), by r.

    The whole roll is rolled again, or (``COMMAND_ONE_DIE``) only its lowest die: then every
    combination of the dice is followed.
    """
    below = int(row[COMMAND_DAMAGE_BELOW])
    if not row[COMMAND_ONE_DIE]:
        return float(raw_pmf[:below].sum()) * raw_pmf
    die = dice_pmf(1, int(row[D_SIDES]), 0)
    values = [v for v in range(len(die)) if die[v] > 0]
    out = np.zeros(len(raw_pmf))
    for dice in product(values, repeat=int(row[D_COUNT])):
        total = int(row[D_CONST]) + sum(dice)
        if total >= below:
            continue
        p = float(np.prod([die[v] for v in dice]))
        for v in values:
            out[total - min(dice) + v] += p * die[v]
    return out


def damage_reroll_steps(plan: CompiledPlan, b: int, models: int,
                        wounds: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~mathhammer.wh40k.exact_engine.chains.batch_steps` over (re-roll in hand, wounds
    lost).

    From the half with the re-roll in hand, a Damage roll below ``COMMAND_DAMAGE_BELOW``
    is rolled again and moves to the spent half; a destroyed unit rolls nothing."""
    row = plan.batch[b]
    raw = plan.damage_pmfs[b]
    below = int(row[COMMAND_DAMAGE_BELOW])
    high = raw.copy()
    high[:below] = 0.0
    rerolled_pmf = rerolled_low_damage(row, raw)
    steps = []
    for damage_map, fnp_column, transition in (
            (NORMAL_DAMAGE, FNP_COLUMN, damage_transition),
            (MORTAL_DAMAGE, FNP_MORTAL_COLUMN, lambda *a: mortal_step(plan, *a))):
        fnp = int(plan.groups[0, row[fnp_column]])
        mapped = [mapped_pmf(pmf, plan.damage_maps[b, damage_map])
                  for pmf in (raw, high, rerolled_pmf)]
        full, keep, rerolled = (transition(pmf, fnp, models, wounds) for pmf in mapped)
        keep, rerolled = keep.copy(), rerolled.copy()   # memoised steps are read-only
        keep[-1, :], rerolled[-1, :] = 0.0, 0.0
        keep[-1, -1] = 1.0
        steps.append(np.block([[full, np.zeros_like(full)], [rerolled, keep]]))
    return steps[0], steps[1]
