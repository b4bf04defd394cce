"""The best Damage re-roll for each roll, given the state of the target (issue 34).

A rule that lets the attacker re-roll the Damage roll leaves a choice at every roll: keep
this result or roll again (once). Fixed policies (``ones``, ``low``) re-roll by the face
alone. The best choice also depends on the wounds the model has left, the models left and
the rolls still to come: a 2 on a D6 kills a model with 2 wounds left and is kept, the same
2 on a model with 6 left is rolled again. This module finds that choice exactly on the exact
engine's Markov chain over L, the wounds the unit has lost (one group of identical models,
:mod:`mathhammer.wh40k.exact_engine.chains`).

What the attacker knows when rolling. Saves are rolled for a whole batch before the Damage
rolls (fast dice rolling, 05.04), so the number of unsaved wounds u and of [DEVASTATING
WOUNDS] critical wounds k of the batch is known; later batches are not rolled yet. The
Damage rolls come one by one: the u unsaved wounds, then the k critical wounds.

Backward induction (a finite Markov decision process). ``V_B(L)`` is the goal once every
batch is resolved (wounds lost, models destroyed, or 1 when the unit is destroyed). For a
roll with continuation ``M``: keeping raw result r is worth ``(T_r M)(L)``, where ``T_r`` is
the Markov step of damage r (after the damage modifiers, Feel No Pain and the cap on the
model's wounds); rolling again is worth ``R(L) = sum_r' p_r' (T_r' M)(L)``; the roll is worth
``sum_r p_r max(T_r M, R)``. Within batch b, with j critical wounds left the continuation is
``M_j`` (from ``M_0 = V_(b+1)``), with i unsaved wounds and then k critical wounds left
``N_(i,k)`` (from ``N_(0,k) = M_k``), and ``V_b = sum_(u,k) P(u, k) N_(u,k)``.

Forward pass. The law of L under the best policy, and how often each choice arises, come
from running the same stages forward: every batch whose unsaved wounds are at least i passes
through stage "i left", so the mass at each stage is the mass of the stage before, moved one
roll, plus the paths that start there.

Ties in the goal are broken by the mean wounds lost (by the models destroyed when the goal is
wounds lost), then keep the roll. [DEVASTATING WOUNDS] held to the end of the attacks (10th
edition, or
``dw_timing = "unit_end"``), a random [MELTA X] and a Command Re-roll on Damage are refused
with :class:`~mathhammer.errors.UnsupportedError`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k.compile import (D_TABLE, DEVASTATING, FNP_COLUMN, FNP_MORTAL_COLUMN,
                                      G_MODELS, G_WOUNDS, MORTAL_DAMAGE, NORMAL_DAMAGE,
                                      CompiledPlan)
from mathhammer.wh40k.exact_engine.chains import (check_exact_size, pmfs_of,
                                                  unsaved_and_devastating_pmf)
from mathhammer.wh40k.exact_engine.tables import damage_transition, mapped_pmf, spill_step

#: What the best policy maximises: the mean of a result, or the chance the unit is destroyed.
GOALS: tuple[str, ...] = ("models_destroyed", "damage", "unit_destroyed")
#: Most multiply-adds the policy search may take (a few seconds).
MAX_POLICY_WORK = 400_000_000
#: A re-roll must beat keeping by more than this (relative) to be chosen: ties keep the roll.
TIE = 1e-12
#: Decisions reached with less probability than this are left out of the policy table.
MIN_REACH = 1e-9

NORMAL, DEVASTATING_ROLL = "damage", "devastating wounds"


@dataclass(frozen=True)
class RollSteps:
    """One batch's Damage roll of one kind: the raw results it can show, their chances, and
    the Markov step over wounds lost of each (``steps[r]``) and of a fresh roll (``fresh``)."""

    values: np.ndarray
    chances: np.ndarray
    steps: np.ndarray
    fresh: np.ndarray

    @property
    def random(self) -> bool:
        return len(self.values) > 1


@dataclass(frozen=True)
class Decision:
    """A reachable choice of the best policy: re-roll these raw results (``rerolled``) of a
    batch's Damage roll when the unit has lost ``wounds_lost`` and ``rolls_to_come`` rolls
    of the batch follow this one; ``reach`` is the chance the choice is met."""

    batch: int
    roll: str
    wounds_lost: int
    rolls_to_come: int
    rerolled: tuple[int, ...]
    reach: float


@dataclass(frozen=True)
class BestDamageRerolls:
    """The best state-dependent Damage re-roll policy of a plan, and its outcome.

    Attributes
    ----------
    pmfs
        As :func:`mathhammer.wh40k.exact_engine.chains.solve` returns them, under the policy.
    goal
        What the policy maximises (one of :data:`GOALS`).
    value
        The goal's value under the policy (a mean, or the chance the unit is destroyed).
    decisions
        Every reachable choice (``reach`` >= :data:`MIN_REACH`) of a random Damage roll.
    """

    pmfs: dict[str, np.ndarray]
    goal: str
    value: float
    decisions: tuple[Decision, ...]


def solve_best(plan: CompiledPlan, goal: str = "models_destroyed", *,
               command: bool = False) -> BestDamageRerolls:
    """The best Damage re-roll policy of ``plan`` for ``goal``, and the pmfs under it.

    Parameters
    ----------
    plan
        Compiled with ``reroll_damage="none"`` and no Command Re-roll (its damage laws are
        those of a fresh roll).
    goal
        ``"models_destroyed"`` (the mean), ``"damage"`` (mean wounds lost) or
        ``"unit_destroyed"`` (the chance).
    command
        False: every Damage roll may be re-rolled (``reroll_damage="best"``). True: one
        Command Re-roll for the whole run, spent on the Damage roll where it gains most
        (``command_reroll="damage_best"``): the state also says whether it is still in hand.

    Raises
    ------
    UnsupportedError
        For what the module docstring names, a unit of several statlines, or more work than
        :data:`MAX_POLICY_WORK`.
    """
    models, wounds = _check(plan, goal)
    size = models * wounds + 1
    rolls = [(_roll_steps(plan, b, NORMAL, models, wounds),
              _roll_steps(plan, b, DEVASTATING_ROLL, models, wounds))
             for b in range(plan.n_batches)]
    joints = [unsaved_and_devastating_pmf(plan, b) for b in range(plan.n_batches)]
    layers = 2 if command else 1   # command: [re-roll spent, re-roll in hand]
    _check_work(joints, rolls, size * layers)
    terminal = _terminal_value(goal, models, wounds)
    value = np.repeat(terminal[None], layers, axis=0)
    choices: list[dict] = [{} for _ in range(plan.n_batches)]
    for b in range(plan.n_batches - 1, -1, -1):
        value = _batch_backward(joints[b], rolls[b], value, choices[b])
    state = np.zeros((layers, size))
    state[-1, 0] = 1.0
    decisions: list[Decision] = []
    for b in range(plan.n_batches):
        state = _batch_forward(b, joints[b], rolls[b], state, choices[b], decisions)
    lost = state.sum(axis=0)
    return BestDamageRerolls(pmfs_of(plan, lost, wounds), goal, float(lost @ terminal[:, 0]),
                             tuple(decisions))


def _check(plan: CompiledPlan, goal: str) -> tuple[int, int]:
    if goal not in GOALS:
        raise OptionError(f"{{reroll_goal}} is not a goal for the best Damage re-roll; use one "
                          f"of {', '.join(GOALS)}", options={"reroll_goal": goal})
    if plan.groups.shape[0] != 1:
        raise UnsupportedError("the best Damage re-roll is found against one group of "
                               "identical models; a unit of several statlines is not covered")
    if plan.command_reroll:
        raise UnsupportedError("a Command Re-roll with reroll_damage = best: the best policy "
                               "is found without a Command Re-roll")
    if plan.dw_at_unit_end and plan.batch[:, DEVASTATING].any():
        raise UnsupportedError("[DEVASTATING WOUNDS] held to the end of the attacks (10th "
                               "edition, or dw_timing = unit_end) with reroll_damage = best "
                               "is not covered; use a fixed policy (low or ones)")
    if plan.batch[:, D_TABLE].any():   # compiled without a re-roll: only a random X sets it
        raise UnsupportedError("a random [MELTA X] with reroll_damage = best is not covered; "
                               "use a fixed policy (low or ones)")
    group = plan.groups[0].tolist()
    check_exact_size(plan, group[G_MODELS] * group[G_WOUNDS] + 1)
    return group[G_MODELS], group[G_WOUNDS]


def _check_work(joints: list[np.ndarray], rolls: list[tuple[RollSteps, RollSteps]],
                size: int) -> None:
    work = 0
    for joint, (normal, mortal) in zip(joints, rolls):
        stages = joint.shape[0] * joint.shape[1] + joint.shape[1]
        work += 2 * stages * (len(normal.values) + len(mortal.values)) * size * size
    if work > MAX_POLICY_WORK:
        raise UnsupportedError(f"the best Damage re-roll would take about {work:,} steps "
                               f"(limit {MAX_POLICY_WORK:,}): fewer attacks or models, or a "
                               "fixed policy (low or ones)")


def _terminal_value(goal: str, models: int, wounds: int) -> np.ndarray:
    """``[wounds lost, 2]``: the goal once every roll is made, and what breaks a tie in it
    (mean wounds lost; models destroyed when the goal is wounds lost)."""
    lost = np.arange(models * wounds + 1)
    destroyed_models = (lost // wounds).astype(float)
    if goal == "damage":
        return np.stack([lost.astype(float), destroyed_models], axis=1)
    if goal == "models_destroyed":
        return np.stack([destroyed_models, lost.astype(float)], axis=1)
    return np.stack([(lost == models * wounds).astype(float), lost.astype(float)], axis=1)


def _roll_steps(plan: CompiledPlan, b: int, roll: str, models: int, wounds: int) -> RollSteps:
    """The Markov step of each raw Damage result of batch ``b`` (normal or critical wound)."""
    raw = plan.damage_pmfs[b]
    values = np.flatnonzero(raw > 0)
    row = plan.batch[b].tolist()
    group = plan.groups[0].tolist()
    if roll == NORMAL:
        damage_map, fnp = plan.damage_maps[b, NORMAL_DAMAGE], group[row[FNP_COLUMN]]
    else:
        damage_map, fnp = plan.damage_maps[b, MORTAL_DAMAGE], group[row[FNP_MORTAL_COLUMN]]
    spill = roll == DEVASTATING_ROLL and bool(plan.dw_spill)
    steps = []
    for value in values.tolist():
        one = np.zeros(len(raw))
        one[value] = 1.0
        damage = mapped_pmf(one, damage_map)
        steps.append(spill_step(damage, fnp, models, wounds) if spill
                     else damage_transition(damage, fnp, models, wounds))
    stacked = np.array(steps)
    chances = raw[values] / raw[values].sum()
    return RollSteps(values, chances, stacked, np.tensordot(chances, stacked, axes=1))


def _best_roll(roll: RollSteps, after: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The value of one Damage roll before it is rolled, with ``after`` the value once it is
    inflicted (``[layer, wounds lost, (goal, tie-break)]``); and, for a random roll, which
    raw results to re-roll in each state of the top layer (``[result, wounds lost]``).

    The top layer holds the choice (a free re-roll, or the Command Re-roll in hand, after
    which layer 0 follows); a layer below it (the Command Re-roll spent) has none."""
    top = after.shape[0] - 1
    out = roll.fresh @ after                        # every layer, no choice
    if not roll.random:
        return out, None
    kept = roll.steps @ after[top]                  # [result, wounds lost, value]
    again = out[0]
    margin = TIE * np.maximum(np.abs(kept), 1.0)
    better, tied = again > kept + margin, np.abs(again - kept) <= margin
    reroll = better[..., 0] | (tied[..., 0] & better[..., 1])
    out[top] = np.tensordot(roll.chances, np.where(reroll[..., None], again, kept), axes=1)
    return out, reroll


def _batch_backward(joint: np.ndarray, rolls: tuple[RollSteps, RollSteps],
                    after: np.ndarray, choices: dict) -> np.ndarray:
    """The value of the states before batch b, from ``after`` (its value once resolved);
    fills ``choices[(stage, i, k)]``: the re-roll table of a roll with i left (k critical
    wounds to follow it for an unsaved wound's roll)."""
    normal, mortal = rolls
    unsaved, critical = joint.shape
    mortal_values = [after]
    for j in range(1, critical):
        value, choice = _best_roll(mortal, mortal_values[-1])
        choices[(DEVASTATING_ROLL, j, 0)] = choice
        mortal_values.append(value)
    total = np.zeros_like(after)
    for k in range(critical):
        if not joint[:, k].any():
            continue
        value = mortal_values[k]
        total += joint[0, k] * value
        for i in range(1, unsaved):
            value, choice = _best_roll(normal, value)
            choices[(NORMAL, i, k)] = choice
            total += joint[i, k] * value
    return total


def _forward_roll(roll: RollSteps, mass: np.ndarray, choice: np.ndarray | None) -> np.ndarray:
    """The law of (layer, wounds lost) after one roll taken as ``choice`` says."""
    after = mass @ roll.fresh
    if choice is None:
        return after
    top = mass.shape[0] - 1
    kept = (roll.chances[:, None] * ~choice) * mass[top]       # [result, wounds lost]
    again = (roll.chances[:, None] * choice * mass[top]).sum(axis=0)
    after[top] = np.einsum("rs,rst->t", kept, roll.steps)
    after[0] += again @ roll.fresh
    return after


def _batch_forward(b: int, joint: np.ndarray, rolls: tuple[RollSteps, RollSteps],
                   state: np.ndarray, choices: dict, decisions: list[Decision]) -> np.ndarray:
    """The law of wounds lost after batch b under the policy; appends the choices met."""
    normal, mortal = rolls
    unsaved, critical = joint.shape
    before_mortal = np.zeros((critical,) + state.shape)
    for k in range(critical):
        if not joint[:, k].any():
            continue
        mass = joint[unsaved - 1, k] * state
        for i in range(unsaved - 1, 0, -1):
            choice = choices[(NORMAL, i, k)]
            _note(decisions, b, NORMAL, normal, mass, choice, i - 1 + k)
            mass = _forward_roll(normal, mass, choice) + joint[i - 1, k] * state
        before_mortal[k] = mass
    mass = before_mortal[critical - 1]
    for j in range(critical - 1, 0, -1):
        choice = choices[(DEVASTATING_ROLL, j, 0)]
        _note(decisions, b, DEVASTATING_ROLL, mortal, mass, choice, j - 1)
        mass = _forward_roll(mortal, mass, choice) + before_mortal[j - 1]
    return mass


def _note(decisions: list[Decision], b: int, roll_name: str, roll: RollSteps,
          mass: np.ndarray, choice: np.ndarray | None, to_come: int) -> None:
    """Record the choices met at this stage (states of the top layer reached with some
    probability)."""
    if choice is None:
        return
    mass = mass[-1]
    for lost in np.flatnonzero(mass[:-1] >= MIN_REACH).tolist():   # a destroyed unit rolls none
        rerolled = tuple(int(v) for v in roll.values[choice[:, lost]])
        decisions.append(Decision(b, roll_name, lost, to_come, rerolled, float(mass[lost])))
