"""The 40k attack sequence in numba: every ``@kernel`` of the 40k engine lives here.

The kernels read a :class:`~mathhammer.wh40k.compile.CompiledPlan`'s arrays and nothing
else, so one compiled machine-code kernel serves every weapon profile. They trust their
caller: validation happens in :mod:`mathhammer.wh40k.compile` and :mod:`mathhammer.wh40k.api`.

Target state during a trial, per allocation group ``g``: ``alive[g]`` models left and
``current[g]`` wounds left on the group's wounded model (``W`` when none is wounded). A group
never has two wounded models, because damage must go to a model that has lost wounds (05.04).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mathhammer.core.jit import inline_kernel, lean_kernel, step_kernel
from mathhammer.core.rng import d6, roll_dice
from mathhammer.wh40k.compile import (
    ATTACK_DICE,
    AUTO_HIT,
    A_CONST,
    A_COUNT,
    A_REROLL_BELOW,
    A_SIDES,
    BONUS_COUNT,
    BONUS_DICE,
    BONUS_SIDES,
    CHAIN,
    CHAIN_KILLS,
    CHAIN_SPLIT,
    CHAIN_SUSTAINED,
    COMMAND_DAMAGE_BELOW,
    COMMAND_ONE_DIE,
    CRIT_HITS,
    CRIT_WOUNDS,
    DAMAGE_RECIPROCAL,
    DAMAGE_ROLLS,
    DEVASTATING,
    DEV_OF_DICE,
    DICE_TABLE,
    D_CONST,
    D_COUNT,
    D_SIDES,
    D_TABLE,
    EXTRA_CRIT,
    FAILED_OF_REST,
    FAILED_SAVES,
    FIXED_DAMAGE,
    FIXED_DICE,
    FNP_COLUMN,
    FNP_MORTAL_COLUMN,
    G_MODELS,
    G_WOUNDS,
    HITS_OF_REST,
    HIT_CLASS,
    HIT_REROLL,
    KILLS_OF_ATTACKS,
    KILLS_OF_FAILED,
    KILL_RECIPROCAL,
    LETHAL,
    MORTAL_DAMAGE,
    NORMAL_DAMAGE,
    NO_CHAIN,
    NO_FNP,
    N_WEAPONS,
    RF_CONST,
    RF_COUNT,
    RF_SIDES,
    SAVE_FAILS,
    SAVE_REROLL,
    SUS_CONST,
    SUS_COUNT,
    SUS_SIDES,
    WOUNDS_OF_REST,
    WOUND_CLASS,
    WOUND_DICE,
    WOUND_REROLL,
)
from mathhammer.wh40k.monte_carlo.dice_steps import (binomial_guided, count_guided, draw_guided,
                                                     roll_classified, roll_classified_command,
                                                     roll_with_lowest_die_again)


# Values of ``command_reroll`` (compile.COMMAND_CODES), as literals numba folds.
COMMAND_HIT, COMMAND_WOUND, COMMAND_DAMAGE, COMMAND_SAVE = 1, 2, 3, 4


@inline_kernel
def _first_alive(alive):
    for g in range(alive.shape[0]):
        if alive[g] > 0:
            return g
    return -1


@inline_kernel
def _lose_wounds(state, g, damage, fnp, alive, current, wounds):
    """One model of group ``g`` suffers ``damage``; each wound may be stopped by FNP.

    Excess damage is lost (05.04). Returns the wounds actually lost. Inlined: an
    out-of-line call per failed save made the lascannons 25% slower.
    """
    if fnp >= NO_FNP:
        lost = min(damage, current[g])
    else:
        lost = 0
        for _ in range(damage):
            if lost == current[g]:
                break  # the model is dead: later FNP rolls cannot matter
            if d6(state) >= fnp:
                continue
            lost += 1
    current[g] -= lost
    if current[g] == 0:
        alive[g] -= 1
        current[g] = wounds[g]
    return lost


@inline_kernel
def _allocate_fixed(failed, damage, alive, current, wounds, reciprocals):
    """``failed`` unsaved attacks of fixed ``damage`` against one group, no Feel No Pain.

    The group has ``alive`` models, ``current`` wounds left on the one that may be wounded,
    and W ``wounds``. The same as allocating the attacks one at a time (05.04): the wounded
    model first, excess damage lost, attacks left over once every model is destroyed lost.
    Scalars in and out, inlined (a call cost a heavy-bolter trial 2-3 ns). Damage below W
    is arithmetic on how many attacks each model takes, not a step per attack (whose
    unpredictable last step cost more): divisions by the damage and by that number, or, with
    ``reciprocals`` (``ceil(2**32 / damage)``, ``ceil(2**32 / ceil(W / damage))``, a batch's
    shortcuts: :data:`NO_RECIPROCALS` for none), multiplications: ``x * ceil(2**32 / n) >>
    32`` is ``x // n`` for ``x`` and ``n`` below ``2**16``, which the shortcuts and the
    ``2**16`` check below ensure. Divisions took a thunder-hammer trial 16 -> 20 ns.
    Returns (wounds lost, alive, current).
    """
    if failed <= 0 or alive == 0:
        return 0, alive, current
    if damage >= wounds:
        # Every failure destroys a model: the wounded one first, then whole ones.
        kills = min(failed, alive)
        return current + (kills - 1) * wounds, alive - kills, wounds
    # Each model takes ceil(wounds left / damage) attacks: the wounded one first, then
    # whole ones, the last attacks perhaps on one that survives.
    damage_reciprocal, kill_reciprocal = reciprocals
    if damage_reciprocal:
        first = ((current + damage - 1) * damage_reciprocal) >> 32
        per_model = ((wounds + damage - 1) * damage_reciprocal) >> 32
    else:
        first = (current + damage - 1) // damage
        per_model = (wounds + damage - 1) // damage
    if failed < first:
        return failed * damage, alive, current - failed * damage
    rest = failed - first
    kills = (rest * kill_reciprocal) >> 32 if kill_reciprocal and rest < 65536 else \
        rest // per_model
    if kills >= alive - 1:
        return current + (alive - 1) * wounds, np.int64(0), wounds
    hits = rest - kills * per_model
    return current + kills * wounds + hits * damage, alive - 1 - kills, wounds - hits * damage


#: ``reciprocals`` of :func:`_allocate_fixed` when none are known: it divides.
NO_RECIPROCALS = (np.int64(0), np.int64(0))


@inline_kernel
def _in_one_step(count, b, shortcuts, alive, current, wounds):
    """``count`` failed saves and [DEVASTATING WOUNDS] mortal wounds of batch ``b``, all of
    its ``FIXED_DAMAGE``, against the one group, allocated together: wounds lost."""
    lost, alive[0], current[0] = _allocate_fixed(
        count, shortcuts[b, FIXED_DAMAGE], alive[0], current[0], wounds[0],
        (shortcuts[b, DAMAGE_RECIPROCAL], shortcuts[b, KILL_RECIPROCAL]))
    return lost


@inline_kernel
def _mortal_target(alive, current, wounds):
    """06.02: a model that has lost wounds first, else the first group with a model left."""
    for g in range(alive.shape[0]):
        if alive[g] > 0 and current[g] < wounds[g]:
            return g
    return _first_alive(alive)


@step_kernel
def _spill_mortals(state, count, fnp_column, groups, alive, current, wounds):
    """06.02: ``count`` mortal wounds one at a time, each to the model the rules pick, so they
    spill over from model to model; Feel No Pain from column ``fnp_column`` of ``groups``.
    Returns the wounds lost."""
    lost = 0
    for _ in range(count):
        g = _mortal_target(alive, current, wounds)
        if g < 0:
            break
        lost += _lose_wounds(state, g, np.int64(1), groups[g, fnp_column], alive, current,
                             wounds)
    return lost


@step_kernel
def _attack_dice(state, batch, b):
    """Roll batch ``b``'s attack dice weapon by weapon (04.03): A (re-rolled once below
    ``A_REROLL_BELOW``), [BLAST]/[CLEAVE] bonus, [RAPID FIRE]."""
    dice = 0
    for _ in range(batch[b, N_WEAPONS]):
        attacks = roll_dice(state, batch[b, A_COUNT], batch[b, A_SIDES], batch[b, A_CONST])
        if attacks < batch[b, A_REROLL_BELOW]:
            attacks = roll_dice(state, batch[b, A_COUNT], batch[b, A_SIDES], batch[b, A_CONST])
        dice += attacks + batch[b, BONUS_DICE]
        if batch[b, BONUS_COUNT] > 0:
            dice += roll_dice(state, batch[b, BONUS_COUNT], batch[b, BONUS_SIDES], np.int64(0))
        if batch[b, RF_COUNT] > 0 or batch[b, RF_CONST] > 0:
            dice += roll_dice(state, batch[b, RF_COUNT], batch[b, RF_SIDES], batch[b, RF_CONST])
    return dice


@inline_kernel
def _split_chain(state, b, dice, chain, batch, thresholds, guides, limit):
    """A ``CHAIN_SPLIT`` or ``CHAIN_SUSTAINED`` batch's attack dice, split by draws into
    [DEVASTATING WOUNDS] mortal wounds and failed saves (under ``CHAIN_SUSTAINED`` the wound
    dice drawn first): (mortal wounds, failed saves)."""
    if chain == CHAIN_SUSTAINED:
        dice = draw_guided(state, thresholds, guides, b, WOUND_DICE, np.int64(0), limit)
    devastating = np.int64(0)
    if batch[b, DEVASTATING]:
        devastating = binomial_guided(state, thresholds, guides, b, DEV_OF_DICE, dice)
    failed = binomial_guided(state, thresholds, guides, b, FAILED_OF_REST, dice - devastating)
    return devastating, failed


@inline_kernel
def _damage_once(state, batch, thresholds, guides, b):
    """Batch ``b``'s raw damage roll: its D dice, or a draw from its ``DAMAGE_ROLLS`` table
    (``D_TABLE``: a re-rolled Damage roll, a random [MELTA X])."""
    if batch[b, D_TABLE]:
        return draw_guided(state, thresholds, guides, b, DAMAGE_ROLLS, np.int64(0),
                           thresholds.shape[3] - 1)
    return roll_dice(state, batch[b, D_COUNT], batch[b, D_SIDES], batch[b, D_CONST])


@inline_kernel
def _damage_with_command_reroll(state, batch, thresholds, guides, b, command):
    """Batch ``b``'s raw Damage roll with the Command Re-roll for Damage perhaps in hand: a
    result below ``COMMAND_DAMAGE_BELOW`` is rolled again, all of it or (``COMMAND_ONE_DIE``)
    its lowest die only. Returns (raw, command still in hand)."""
    if command != COMMAND_DAMAGE:
        return _damage_once(state, batch, thresholds, guides, b), command
    if not batch[b, COMMAND_ONE_DIE]:
        raw = _damage_once(state, batch, thresholds, guides, b)
        if raw < batch[b, COMMAND_DAMAGE_BELOW]:
            raw = _damage_once(state, batch, thresholds, guides, b)
            command = 0
        return raw, command
    # never a D_TABLE batch (the compiler refuses that pair): roll the dice one by one
    raw, rerolled = roll_with_lowest_die_again(state, batch[b, D_COUNT], batch[b, D_SIDES],
                                               batch[b, D_CONST], batch[b, COMMAND_DAMAGE_BELOW])
    return raw, 0 if rerolled else command


class Histograms(NamedTuple):
    """The kernel's histograms: wounds lost, models destroyed and the attacker's hazard
    mortal wounds, per chunk (``[chunks, bins]``) or for the chunk running (``[bins]``)."""

    damage: np.ndarray
    models: np.ndarray
    hazard: np.ndarray


class Scratch(NamedTuple):
    """One thread's scratch arrays (the kernel cannot allocate): ``state`` (the stream's
    generator state), ``alive``, ``current`` and ``wounds`` per target group, ``counts``
    (7 save faces) and ``pending`` (pairs: batch, Feel No Pain column)."""

    state: np.ndarray
    alive: np.ndarray
    current: np.ndarray
    wounds: np.ndarray
    counts: np.ndarray
    pending: np.ndarray


@lean_kernel
def run_chunks(first, step, streams, trials_per_chunk, plan, hists, local, scratch):
    """One thread's share of the trials: chunks ``first``, ``first + step``, ... in turn.

    Chunk ``c`` runs ``trials_per_chunk[c]`` trials on stream ``streams[c]`` and adds one
    count per trial to row ``c`` of each of the :class:`Histograms` ``hists``, so the result
    does not depend on how chunks are shared among threads
    (:func:`mathhammer.core.threads.run_shares` starts one share per thread; the kernel
    releases the GIL). One trial resolves every batch (05-06), in order, against a fresh
    target. ``plan`` is a :class:`~mathhammer.wh40k.compile.KernelArrays` (the thread's own
    copies). Its ``use_counts`` picks how pools no larger than the tables in ``thresholds`` are
    resolved: 2 takes every exact shortcut of ``shortcuts``
    (:func:`~mathhammer.wh40k.compile.batch_shortcuts`), 1 samples one count per roll
    (:mod:`mathhammer.core.sampling`), 0 rolls every die. A hazard roll fails on
    ``hazard_fail_max`` or lower; ``dw_spill`` 1 lets [DEVASTATING WOUNDS] mortal wounds
    spill from model to model (10th-edition launch text).

    Long because the chunk and trial loops and the hit-and-wound step live in this one
    function, compiled without numba's reference counting
    (:data:`mathhammer.core.jit.lean_kernel`); the other steps are inlined helpers. It cannot
    allocate: ``local`` (the chunk's histograms, copied to its rows at the end: threads
    counting into adjacent rows would share cache lines) and ``scratch``
    (:class:`Scratch`) are the thread's own. (A separate trial function made the cold compile
    longer: benchmarks/RESULTS.md.)
    """
    batch, shortcuts, rolls, thresholds = plan.batch, plan.shortcuts, plan.rolls, plan.thresholds
    guides = plan.guides
    damage_maps, groups, use_counts = plan.damage_maps, plan.groups, plan.use_counts
    state, alive, current = scratch.state, scratch.alive, scratch.current
    wounds = scratch.wounds
    n_groups = groups.shape[0]
    limit = thresholds.shape[2] - 1
    for c in range(first, streams.shape[0], step):
        _start_chunk(state, streams, c, local)
        for _ in range(trials_per_chunk[c]):
            _fresh_target(groups, alive, wounds, current)
            lost_total = 0
            n_pending = np.int64(0)   # not a literal 0: see mathhammer.core.jit
            command = plan.command_reroll   # the Command Re-roll in hand (0 once spent)
            for b in range(batch.shape[0]):
                if _first_alive(alive) < 0:
                    break
                # Gather attack dice (04.03).
                dice = shortcuts[b, FIXED_DICE] if use_counts == 2 else -1
                if dice < 0:
                    if use_counts == 2 and shortcuts[b, DICE_TABLE]:
                        dice = draw_guided(state, thresholds, guides, b, ATTACK_DICE,
                                           np.int64(0), limit)
                    else:
                        dice = _attack_dice(state, batch, b)
                failed = -1  # failed saves against group 0, once known as a count
                devastating = 0
                to_save = 0
                chain = shortcuts[b, CHAIN] if use_counts == 2 and dice <= limit else NO_CHAIN
                if chain == CHAIN_KILLS:
                    kills = min(binomial_guided(state, thresholds, guides, b,
                                                KILLS_OF_ATTACKS, dice),
                               alive[0])
                    alive[0] -= kills
                    lost_total += kills
                    continue
                if chain == CHAIN_SPLIT or chain == CHAIN_SUSTAINED:
                    devastating, failed = _split_chain(state, b, dice, chain, batch,
                                                       thresholds, guides, limit)
                else:
                    # Hit roll (05.01). scenario_kernels._resolve_batch repeats the hit and wound
                    # steps on purpose: a shared function measured 30-40% slower per small trial.
                    if batch[b, AUTO_HIT]:
                        hits = dice
                        crits = 0
                    elif command == COMMAND_HIT:
                        hits, crits, command = roll_classified_command(
                            state, dice, rolls, b, HIT_CLASS, HIT_REROLL, command)
                    elif use_counts and dice <= limit:
                        hits, crits = count_guided(state, dice, thresholds, guides, b, CRIT_HITS,
                                                   HITS_OF_REST)
                    else:
                        hits, crits = roll_classified(state, dice, rolls, b, HIT_CLASS, HIT_REROLL)
                    extra = crits * batch[b, SUS_CONST]
                    if batch[b, SUS_COUNT] > 0:
                        for _ in range(crits):
                            extra += roll_dice(state, batch[b, SUS_COUNT], batch[b, SUS_SIDES],
                                             np.int64(0))
                    auto_wounds = 0
                    if batch[b, LETHAL]:
                        auto_wounds = crits
                        if batch[b, EXTRA_CRIT]:
                            auto_wounds += extra
                            extra = 0
                        crits = 0
                    # Wound roll (05.02).
                    to_wound = hits + extra + crits
                    if command == COMMAND_WOUND:
                        wounds_normal, wounds_crit, command = roll_classified_command(
                            state, to_wound, rolls, b, WOUND_CLASS, WOUND_REROLL, command)
                    elif use_counts and to_wound <= limit:
                        wounds_normal, wounds_crit = count_guided(
                            state, to_wound, thresholds, guides, b, CRIT_WOUNDS, WOUNDS_OF_REST)
                    else:
                        wounds_normal, wounds_crit = roll_classified(state, to_wound, rolls, b,
                                                                     WOUND_CLASS, WOUND_REROLL)
                    devastating = wounds_crit if batch[b, DEVASTATING] else 0
                    to_save = wounds_normal + wounds_crit - devastating + auto_wounds
                    if use_counts and n_groups == 1 and to_save <= limit:
                        # One group: the order of the save dice cannot matter, only how many fail.
                        failed = binomial_guided(state, thresholds, guides, b, FAILED_SAVES,
                                                 to_save)
                        to_save = 0
                if failed >= 0 and shortcuts[b, FIXED_DAMAGE] > 0:   # the same fixed damage
                    lost_total += _in_one_step(failed + devastating, b, shortcuts, alive,
                                               current, wounds)
                    continue
                if failed > 0:
                    lost_total += _inflict_failed_saves(state, b, failed, batch, damage_maps,
                                                        groups, thresholds, guides, alive, current,
                                                        wounds)
                if to_save > 0:
                    lost, command = _save_and_inflict(state, b, to_save, command, plan,
                                                      scratch.counts, alive, current, wounds)
                    lost_total += lost
                if devastating > 0:
                    lost, n_pending, command = _devastating_wounds(
                        state, b, devastating, command, plan, scratch.pending, n_pending, alive,
                        current, wounds)
                    lost_total += lost
            if n_pending > 0:   # out of line: most trials hold none
                lost_total += _held_mortals(state, scratch.pending, n_pending, command, plan,
                                            alive, current, wounds)
            _record_trial(state, lost_total, plan, alive, local)
        _store_chunk(c, local, hists)


@lean_kernel
def run_chain_chunks(first, step, streams, trials_per_chunk, plan, hists, local, scratch):
    """:func:`run_chunks` for a plan every batch of which takes a chain shortcut
    (:attr:`~mathhammer.wh40k.compile.CompiledPlan.chains_only`: one group, every exact
    shortcut, no Command Re-roll, no mortal wounds held to the end of the attacks).

    The same steps in the same order, so the same bits for a seed; only the trial loop is
    shorter: without the dice-by-dice paths it keeps its values in registers, a heavy-bolter
    or thunder-hammer trial about a fifth faster, and compiles faster (a first simulation's
    common question does not wait for the whole kernel).
    """
    batch, shortcuts, thresholds = plan.batch, plan.shortcuts, plan.thresholds
    guides, damage_maps, groups = plan.guides, plan.damage_maps, plan.groups
    state, alive, current = scratch.state, scratch.alive, scratch.current
    wounds = scratch.wounds
    limit = thresholds.shape[2] - 1
    for c in range(first, streams.shape[0], step):
        _start_chunk(state, streams, c, local)
        for _ in range(trials_per_chunk[c]):
            _fresh_target(groups, alive, wounds, current)
            lost_total = np.int64(0)   # not a literal 0: see mathhammer.core.jit
            n_pending = np.int64(0)   # never more: no mortal wounds are held
            command = plan.command_reroll   # 0: none in hand
            for b in range(batch.shape[0]):
                if alive[0] == 0:
                    break
                dice = shortcuts[b, FIXED_DICE]
                if dice < 0:
                    dice = draw_guided(state, thresholds, guides, b, ATTACK_DICE,
                                       np.int64(0), limit)
                chain = shortcuts[b, CHAIN]
                if chain == CHAIN_KILLS:
                    kills = min(binomial_guided(state, thresholds, guides, b,
                                                KILLS_OF_ATTACKS, dice), alive[0])
                    alive[0] -= kills
                    lost_total += kills
                    continue
                devastating, failed = _split_chain(state, b, dice, chain, batch, thresholds,
                                                   guides, limit)
                if shortcuts[b, FIXED_DAMAGE] > 0:   # the same fixed damage: one step
                    lost_total += _in_one_step(failed + devastating, b, shortcuts, alive,
                                               current, wounds)
                    continue
                if failed > 0:
                    lost_total += _inflict_failed_saves(state, b, failed, batch, damage_maps,
                                                        groups, thresholds, guides, alive,
                                                        current, wounds)
                if devastating > 0:
                    lost, n_pending, command = _devastating_wounds(
                        state, b, devastating, command, plan, scratch.pending, n_pending, alive,
                        current, wounds)
                    lost_total += lost
            _record_trial(state, lost_total, plan, alive, local)
        _store_chunk(c, local, hists)


# The steps of run_chunks that are not the hot hit-and-wound path. LLVM inlines them into it
# (inline_kernel), so they cost no call and allocate nothing, as the kernel compiled without
# reference counting requires.
@step_kernel
def _start_chunk(state, streams, c, local):
    """Load chunk ``c``'s stream and zero its histograms ``local``."""
    for w in range(state.shape[0]):
        state[w] = streams[c, w]
    for k in range(local.damage.shape[0]):
        local.damage[k] = 0
    for k in range(local.models.shape[0]):
        local.models[k] = 0
    for k in range(local.hazard.shape[0]):
        local.hazard[k] = 0


@step_kernel
def _store_chunk(c, local, hists):
    """Copy one chunk's histograms ``local`` to its rows of ``hists``."""
    for k in range(local.damage.shape[0]):
        hists.damage[c, k] = local.damage[k]
    for k in range(local.models.shape[0]):
        hists.models[c, k] = local.models[k]
    for k in range(local.hazard.shape[0]):
        hists.hazard[c, k] = local.hazard[k]


@inline_kernel
def _fresh_target(groups, alive, wounds, current):
    for g in range(groups.shape[0]):
        alive[g] = groups[g, G_MODELS]
        wounds[g] = groups[g, G_WOUNDS]
        current[g] = wounds[g]


@inline_kernel
def _inflict_failed_saves(state, b, failed, batch, damage_maps, groups, thresholds, guides, alive,
                          current, wounds):
    """Failed saves, known as a count, against the one group (05.04, 05.05): wounds lost."""
    fnp = groups[0, batch[b, FNP_COLUMN]]
    if batch[b, D_COUNT] == 0 and fnp >= NO_FNP:
        # Fixed damage, no Feel No Pain: the failures' effect is arithmetic.
        lost, alive[0], current[0] = _allocate_fixed(
            failed, damage_maps[b, NORMAL_DAMAGE, batch[b, D_CONST]], alive[0], current[0],
            wounds[0], NO_RECIPROCALS)
        return lost
    if batch[b, D_COUNT] == 0 and wounds[0] == 1:
        # One-wound models, fixed damage, Feel No Pain: each failed save kills on its own,
        # independently, until the unit is gone.
        kills = min(binomial_guided(state, thresholds, guides, b, KILLS_OF_FAILED, failed),
                    alive[0])
        alive[0] -= kills
        return kills
    lost = 0
    for _ in range(failed):
        if alive[0] == 0:
            break
        raw = _damage_once(state, batch, thresholds, guides, b)
        lost += _lose_wounds(state, np.int64(0), damage_maps[b, NORMAL_DAMAGE, raw], fnp, alive,
                             current, wounds)
    return lost


@inline_kernel
def _save_and_inflict(state, b, to_save, command, plan, counts, alive, current, wounds):
    """Save rolls die by die (05.03: re-rolled against the group current at the start), then
    damage lowest results first against the current group (05.04). Returns the wounds lost
    and the Command Re-roll still in hand."""
    batch = plan.batch
    saves = plan.saves
    damage_maps = plan.damage_maps
    groups = plan.groups
    thresholds = plan.thresholds
    guides = plan.guides
    g0 = _first_alive(alive)
    for face in range(7):
        counts[face] = 0
    for _ in range(to_save):
        face = d6(state)
        if saves[b, g0, SAVE_REROLL, face]:
            face = d6(state)
        elif command == COMMAND_SAVE and saves[b, g0, SAVE_FAILS, face] and \
                not saves[b, g0, SAVE_FAILS, 6]:   # no re-roll on a save that cannot pass
            face = d6(state)
            command = 0
        counts[face] += 1
    lost = 0
    for face in range(1, 7):
        for _ in range(counts[face]):
            g = _first_alive(alive)
            if g < 0:
                break
            if saves[b, g, SAVE_FAILS, face]:
                raw, command = _damage_with_command_reroll(state, batch, thresholds, guides, b,
                                                           command)
                lost += _lose_wounds(state, g, damage_maps[b, NORMAL_DAMAGE, raw],
                                     groups[g, batch[b, FNP_COLUMN]], alive, current, wounds)
    return lost, command


@step_kernel
def _held_mortals(state, pending, n_pending, command, plan, alive, current, wounds):
    """[DEVASTATING WOUNDS] mortal wounds held to the end of the attacks (pairs of batch and
    Feel No Pain column in ``pending``), their Damage rolled now (2.2): wounds lost."""
    dw_spill, batch, damage_maps, groups = plan.dw_spill, plan.batch, plan.damage_maps, plan.groups
    thresholds, guides = plan.thresholds, plan.guides
    lost = 0
    for i in range(n_pending):
        if _first_alive(alive) < 0:
            break
        b = pending[2 * i]
        fnp_column = pending[2 * i + 1]
        damage, command = _mortal_damage(state, b, command, batch, damage_maps, thresholds,
                                         guides)
        if dw_spill:
            lost += _spill_mortals(state, damage, fnp_column, groups, alive, current, wounds)
            continue
        g = _mortal_target(alive, current, wounds)
        lost += _lose_wounds(state, g, damage, groups[g, fnp_column], alive, current, wounds)
    return lost


@inline_kernel
def _mortal_damage(state, b, command, batch, damage_maps, thresholds, guides):
    """One [DEVASTATING WOUNDS] critical wound's Damage roll, after the Command Re-roll if
    it is below average: (mortal wounds, Command Re-roll still in hand)."""
    raw, command = _damage_with_command_reroll(state, batch, thresholds, guides, b, command)
    return damage_maps[b, MORTAL_DAMAGE, raw], command


@inline_kernel
def _devastating_wounds(state, b, devastating, command, plan, pending, n_pending, alive,
                        current, wounds):
    """[DEVASTATING WOUNDS] (24.10): D mortal wounds each, at most one model each (or held
    in ``pending`` to the end of the attacks, or spilling under the 10th-edition launch
    text). Returns the wounds lost, the mortal wounds held and the Command Re-roll in hand."""
    dw_at_unit_end = plan.dw_at_unit_end
    dw_spill = plan.dw_spill
    batch = plan.batch
    damage_maps = plan.damage_maps
    groups = plan.groups
    thresholds = plan.thresholds
    guides = plan.guides
    lost = 0
    if (groups.shape[0] == 1 and not dw_at_unit_end and not dw_spill
            and batch[b, D_COUNT] == 0 and groups[0, batch[b, FNP_MORTAL_COLUMN]] >= NO_FNP):
        # Fixed damage, one group, no Feel No Pain: the same arithmetic as failed saves (the
        # wounded model first, excess lost).
        lost, alive[0], current[0] = _allocate_fixed(
            devastating, damage_maps[b, MORTAL_DAMAGE, batch[b, D_CONST]], alive[0],
            current[0], wounds[0], NO_RECIPROCALS)
        return lost, n_pending, command
    fnp_column = batch[b, FNP_MORTAL_COLUMN]
    for _ in range(devastating):
        if dw_at_unit_end:   # pairs: batch, Feel No Pain column; D is rolled when inflicted
            pending[2 * n_pending] = b
            pending[2 * n_pending + 1] = fnp_column
            n_pending += 1
            continue
        damage, command = _mortal_damage(state, b, command, batch, damage_maps, thresholds,
                                         guides)
        if dw_spill:
            lost += _spill_mortals(state, damage, fnp_column, groups, alive, current, wounds)
            continue
        g = _mortal_target(alive, current, wounds)
        if g < 0:
            break
        lost += _lose_wounds(state, g, damage, groups[g, fnp_column], alive, current, wounds)
    return lost, n_pending, command


@inline_kernel
def _record_trial(state, lost_total, plan, alive, local):
    """Count one trial in ``local``: wounds lost, models destroyed, and the hazard rolls
    after the attacks."""
    destroyed = 0
    for g in range(plan.groups.shape[0]):
        destroyed += plan.groups[g, G_MODELS] - alive[g]
    hazard_fails = 0
    for _ in range(plan.hazard_rolls):
        if d6(state) <= plan.hazard_fail_max:
            hazard_fails += 1
    local.damage[lost_total] += 1
    local.models[destroyed] += 1
    local.hazard[hazard_fails * plan.hazard_mortals] += 1
