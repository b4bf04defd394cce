"""Monte Carlo kernels for Warmachine MkIV (all numba code of the subpackage lives here).

The kernels take the arrays of a :class:`~mathhammer.warmachine.compile.CompiledPlan`, do no
validation, and follow the rules step by step: attack roll (automatic results, rerolls),
hit effects (critical knockdown) before damage, every damage roll of an attack before any
Tough roll (simultaneous resolution), then attack generation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mathhammer.core.jit import inline_kernel, kernel, lean_kernel
from mathhammer.core.rng import d6, uniform
from mathhammer.warmachine.compile import (
    M_ARM, M_BOXES, M_DEF, M_KD, M_MARKED, M_STATIONARY, M_TOUGH, M_TOUGH_THR, R_AOE, R_AP,
    R_ATK_DROP, R_ATK_N, R_AUTO_HIT, R_AUTO_MISS, R_BLAST_POW, R_BUDGET, R_CATCHES, R_CHARGE,
    R_CRIT_AP, R_CRIT_CONT, R_CRIT_DICE, R_CRIT_KD, R_CRIT_MULT, R_CRIT_NO_TOUGH,
    R_DMG_BOOSTED, R_DMG_DROP, R_DMG_N, R_DREROLL_BELOW, R_DREROLL_N, R_FIRST, R_GEN,
    R_GEN_CAP, R_MELEE, R_POW,
    R_REROLL_MODE, R_REROLL_N, R_SPRAY, R_STAT, RU_ALL_ONES, RU_AOE_BOOST_ALL, RU_ROLL_VS_AUTO,
    RU_SPECIAL_KEPT, RU_STAT_DEF, RU_TOUGH_ALLOWED, FLAG_CONTINUOUS, FLAG_TOUGH_SAVED, M_BEAST,
    M_GRID, M_TRANSFERS, R_LANE, RU_TRANSFER_LETHAL)
from mathhammer.warmachine.profiles import MAX_DICE, N_LANES

#: Trial outputs written by :func:`trial`.
OUT_DAMAGE, OUT_DESTROYED, OUT_SPENT, OUT_FLAGS, OUT_FIRST = range(5)
N_OUT = 5
#: Per-chunk event counters.
C_HIT, C_CRIT, C_UNIT, C_SAVED, C_CONTINUOUS, C_BEAST = range(6)
N_COUNTERS = 6
#: Per-model counters: hit at least once, destroyed.
PM_HIT, PM_DESTROYED = range(2)
BUFFER = MAX_DICE + 4


class TrialScratch(NamedTuple):
    """The state of one trial, one entry per target model unless said otherwise (a chunk's
    own, reused trial after trial: :func:`trial` resets what it reads)."""

    marked: np.ndarray      # boxes marked
    knocked: np.ndarray     # knocked down
    covered: np.ndarray     # the models the current attack covers, in order
    kinds: np.ndarray       # per covered model: 0 miss, 1 hit, 2 critical hit
    direct: np.ndarray      # per covered model: a direct hit (not a blast)
    boosts: np.ndarray      # per covered model: damage boosted
    lanes: np.ndarray       # (n_models, N_LANES): boxes marked per grid lane
    transfers: np.ndarray   # damage transfers left
    beast: np.ndarray       # boxes transferred to the model's warbeast
    hit: np.ndarray         # hit at least once
    last: np.ndarray        # per covered model: lane of the last box marked, or -1
    buf: np.ndarray         # (BUFFER,): dice of one roll
    out: np.ndarray         # (N_OUT,): the trial's outputs (OUT_*)


class ChunkCounts(NamedTuple):
    """What :func:`simulate_chunks` counts, one row per chunk: histograms of the damage,
    models destroyed, boosts spent and boxes transferred per trial, the event counters
    (``C_*``), per-model events (``PM_*``) and systems crippled per model."""

    damage: np.ndarray
    destroyed: np.ndarray
    spent: np.ndarray
    transfer: np.ndarray
    counters: np.ndarray
    per_model: np.ndarray
    crippled: np.ndarray


@kernel
def _roll_sorted(state, n, buf):
    """Roll ``n`` d6 into ``buf[:n]`` in ascending order."""
    for i in range(n):
        face = d6(state)
        j = i
        while j > 0 and buf[j - 1] > face:
            buf[j] = buf[j - 1]
            j -= 1
        buf[j] = face


@kernel
def attack_roll(state, n, drop, need, all_ones_miss, special_on_kept, buf):
    """One attack roll: 0 miss, 1 hit, 2 critical hit (needs ``n - drop >= 1``)."""
    _roll_sorted(state, n, buf)
    kept = n - drop
    start = drop if special_on_kept else 0
    all_ones = True
    all_sixes = True
    for i in range(start, n):
        if buf[i] != 1:
            all_ones = False
        if buf[i] != 6:
            all_sixes = False
    if all_ones_miss and all_ones:
        return 0
    total = 0
    for i in range(drop, n):
        total += buf[i]
    if not ((kept >= 2 and all_sixes) or total >= need):
        return 0
    for i in range(drop + 1, n):
        if buf[i] == buf[i - 1]:
            return 2
    return 1


@kernel
def hit_outcome(state, rows, r, defense, knocked_down, stationary, rules, buf):
    """Attack row ``r`` against one model: 0 miss, 1 hit, 2 crit (rerolls applied)."""
    if rows[r, R_AUTO_MISS]:
        return 0
    n = rows[r, R_ATK_N]
    drop = rows[r, R_ATK_DROP]
    if n <= 0 or n - drop <= 0:
        return 0
    low = knocked_down != 0 or stationary != 0
    if (rows[r, R_AUTO_HIT] != 0 or (rows[r, R_MELEE] != 0 and low)) \
            and rules[RU_ROLL_VS_AUTO] == 0:
        return 1
    need = (rules[RU_STAT_DEF] if low else defense) - rows[r, R_STAT]
    all_ones = rules[RU_ALL_ONES] != 0
    kept_rule = rules[RU_SPECIAL_KEPT] != 0
    result = attack_roll(state, n, drop, need, all_ones, kept_rule, buf)
    mode = rows[r, R_REROLL_MODE]
    if mode != 0:
        for _ in range(rows[r, R_REROLL_N]):
            if result == 0 or (mode == 2 and result == 1):
                result = attack_roll(state, n, drop, need, all_ones, kept_rule, buf)
            else:
                break
    return result


@kernel
def _damage_once(state, n, drop, pow_, armor, mult, buf):
    total = 0
    if n > 0 and n - drop > 0:
        _roll_sorted(state, n, buf)
        for i in range(drop, n):
            total += buf[i]
    value = total + pow_ - armor
    return value * mult if value > 0 else 0


@kernel
def damage_roll(state, rows, r, armor, crit, direct, boosted, buf):
    """Boxes of damage dealt by one damage roll of row ``r`` (rerolls applied)."""
    if rows[r, R_AP] != 0 or (crit and rows[r, R_CRIT_AP] != 0):
        armor = (armor + 1) // 2
    n = rows[r, R_DMG_N] + (1 if boosted else 0) + (rows[r, R_CRIT_DICE] if crit else 0)
    drop = rows[r, R_DMG_DROP]
    pow_ = rows[r, R_POW] if direct else rows[r, R_BLAST_POW]
    mult = rows[r, R_CRIT_MULT] if crit else 1
    value = _damage_once(state, n, drop, pow_, armor, mult, buf)
    below = rows[r, R_DREROLL_BELOW]
    if below > 0:
        for _ in range(rows[r, R_DREROLL_N]):
            if value < below:
                value = _damage_once(state, n, drop, pow_, armor, mult, buf)
            else:
                break
    return value


@kernel
def land(state, rows, r, models, rules, grid_lanes, j, damage, marked, lanes, transfers, beast):
    """Damage reaching model ``j``: transfer (7.4-style target rule), then mark boxes.

    A warlock with transfers left moves the damage to its warbeast (all of it, or, under the
    ``lethal`` policy, only damage that would disable it); the beast takes what it can hold
    and the rest comes back. On a grid or spiral the boxes are marked lane by lane from the
    lane rolled (or chosen), wrapping 6 -> 1. Returns the lane of the last box marked, or -1.
    """
    boxes = models[j, M_BOXES]
    if damage > 0 and transfers[j] > 0 and beast[j] < models[j, M_BEAST]:
        if rules[RU_TRANSFER_LETHAL] == 0 or marked[j] + damage >= boxes:
            taken = min(damage, models[j, M_BEAST] - beast[j])
            beast[j] += taken
            damage -= taken
            transfers[j] -= 1
    g = models[j, M_GRID]
    if g < 0 or damage == 0:
        marked[j] = min(boxes, marked[j] + damage)
        return -1
    lane = rows[r, R_LANE] - 1 if rows[r, R_LANE] > 0 else d6(state) - 1
    last = lane
    for _ in range(N_LANES):
        take = min(damage, grid_lanes[g, lane] - lanes[j, lane])
        if take > 0:
            lanes[j, lane] += take
            marked[j] += take
            damage -= take
            last = lane
        if damage == 0:
            break
        lane = (lane + 1) % N_LANES
    return last


@lean_kernel
def trial(state, plan, scratch):
    """One full sequence of attacks of ``plan`` (a
    :class:`~mathhammer.warmachine.compile.KernelArrays`); writes the outcome into
    ``scratch.out`` (``OUT_*``; ``scratch`` is a :class:`TrialScratch`).

    Long because it is the rules' order of one attack written out (targets covered, attack
    rolls, boosts, hit effects, every damage roll, then Tough, then attack generation), which
    numba runs best as one loop without per-step calls carrying a dozen arrays. Compiled
    without reference counting (:data:`~mathhammer.core.jit.lean_kernel`): with it, taking
    the arrays out of ``plan`` and ``scratch`` counted 18 references per trial.
    """
    rows, models, rules, coverage = plan.rows, plan.models, plan.rules, plan.coverage
    grid_lanes = plan.grid_lanes
    marked, knocked, covered, kinds = scratch.marked, scratch.knocked, scratch.covered, \
        scratch.kinds
    direct, boosts, lanes, transfers = scratch.direct, scratch.boosts, scratch.lanes, \
        scratch.transfers
    beast, hit, last, buf, out = scratch.beast, scratch.hit, scratch.last, scratch.buf, \
        scratch.out
    n_models = models.shape[0]
    initial = _start_trial(models, marked, knocked, transfers, beast, hit, lanes)
    budget = 0
    spent = 0
    flags = 0
    first = -1
    gen = 0
    for r in range(rows.shape[0]):
        if rows[r, R_FIRST] != 0:
            budget = rows[r, R_BUDGET]
            gen = 0
        generated = False
        while True:
            n_cov = _cover(rows, r, models, marked, covered)
            if n_cov == 0:
                break
            static_boost = rows[r, R_DMG_BOOSTED] != 0 or (rows[r, R_CHARGE] != 0
                                                          and not generated)
            primary = covered[0]
            if rows[r, R_AOE] != 0:
                k = hit_outcome(state, rows, r, models[primary, M_DEF], knocked[primary],
                                models[primary, M_STATIONARY], rules, buf)
                if first < 0:
                    first = k
                primary_hit = k > 0
                bought = _aoe_kinds(state, k, n_cov, static_boost, budget > 0, rules, coverage,
                                    kinds, direct, boosts)
                budget -= bought
                spent += bought
            else:
                for c in range(n_cov):
                    j = covered[c]
                    k = hit_outcome(state, rows, r, models[j, M_DEF], knocked[j],
                                    models[j, M_STATIONARY], rules, buf)
                    if first < 0:
                        first = k
                    kinds[c] = k
                    direct[c] = 1
                    boosted = static_boost
                    if k > 0 and not boosted and budget > 0:
                        boosted = True
                        budget -= 1
                        spent += 1
                    boosts[c] = 1 if boosted else 0
                primary_hit = kinds[0] > 0
            # hit effects before damage
            for c in range(n_cov):
                if kinds[c] == 2:
                    if rows[r, R_CRIT_KD] != 0:
                        knocked[covered[c]] = 1
                    if rows[r, R_CRIT_CONT] != 0:
                        flags |= FLAG_CONTINUOUS
            # every damage roll of the attack, then the Tough rolls
            for c in range(n_cov):
                if kinds[c] > 0:
                    j = covered[c]
                    hit[j] = 1
                    dmg = damage_roll(state, rows, r, models[j, M_ARM], kinds[c] == 2,
                                      direct[c] != 0, boosts[c] != 0, buf)
                    if models[j, M_GRID] < 0 and transfers[j] == 0:
                        # the common case inline: a call carrying a dozen arrays costs ~30%
                        marked[j] = min(models[j, M_BOXES], marked[j] + dmg)
                        last[c] = -1
                    else:
                        last[c] = land(state, rows, r, models, rules, grid_lanes, j, dmg,
                                       marked, lanes, transfers, beast)
            killed = False
            for c in range(n_cov):
                j = covered[c]
                if kinds[c] > 0 and marked[j] >= models[j, M_BOXES]:
                    if _tough_saves(state, rows, r, models, rules, j, kinds[c] == 2,
                                    knocked[j]):
                        marked[j] = models[j, M_BOXES] - 1
                        if last[c] >= 0:
                            lanes[j, last[c]] -= 1
                        knocked[j] = 1
                        flags |= FLAG_TOUGH_SAVED
                    else:
                        killed = True
            mode = rows[r, R_GEN]
            trig = (mode == 1 and primary_hit) or (mode == 2 and killed)
            cap = rows[r, R_GEN_CAP]
            if trig and (cap < 0 or gen < cap):
                gen += 1
                generated = True
                continue
            break
    total = 0
    destroyed = 0
    for i in range(n_models):
        total += marked[i]
        if marked[i] >= models[i, M_BOXES]:
            destroyed += 1
    out[OUT_DAMAGE] = total - initial
    out[OUT_DESTROYED] = destroyed
    out[OUT_SPENT] = spent
    out[OUT_FLAGS] = flags
    out[OUT_FIRST] = first


@inline_kernel
def _start_trial(models, marked, knocked, transfers, beast, hit, lanes):
    """Fresh targets for a trial; returns the boxes already marked."""
    initial = 0
    for i in range(models.shape[0]):
        marked[i] = models[i, M_MARKED]
        knocked[i] = models[i, M_KD]
        transfers[i] = models[i, M_TRANSFERS]
        beast[i] = 0
        hit[i] = 0
        if models[i, M_GRID] >= 0:
            for lane in range(N_LANES):
                lanes[i, lane] = 0
        initial += marked[i]
    return initial


@inline_kernel
def _cover(rows, r, models, marked, covered):
    """The models an attack covers, in order (one, or an AOE's or spray's catches)."""
    if rows[r, R_SPRAY] > 0:
        width = rows[r, R_SPRAY]
    elif rows[r, R_AOE] != 0:
        width = 1 + rows[r, R_CATCHES]
    else:
        width = 1
    n_cov = 0
    for i in range(models.shape[0]):
        if n_cov < width and marked[i] < models[i, M_BOXES]:
            covered[n_cov] = i
            n_cov += 1
    return n_cov


@inline_kernel
def _tough_saves(state, rows, r, models, rules, j, critical, knocked_down):
    """Whether a disabled model's Tough roll succeeds (Tough allowed, not knocked down, not
    a critical that ignores Tough)."""
    tough = (models[j, M_TOUGH] != 0 and rules[RU_TOUGH_ALLOWED] != 0 and knocked_down == 0
             and not (critical and rows[r, R_CRIT_NO_TOUGH] != 0))
    return tough and d6(state) >= models[j, M_TOUGH_THR]


@lean_kernel
def _record_models(c, plan, scratch, counts):
    """Per-model events of one finished trial: hit, destroyed, systems crippled, transfers
    (without reference counting, as :func:`trial`)."""
    models, grid_need = plan.models, plan.grid_need
    marked, lanes, beast, hit = scratch.marked, scratch.lanes, scratch.beast, scratch.hit
    per_model, crippled, counters = counts.per_model, counts.crippled, counts.counters
    transferred = 0
    beast_destroyed = False
    for i in range(models.shape[0]):
        per_model[c, i, PM_HIT] += hit[i]
        if marked[i] >= models[i, M_BOXES]:
            per_model[c, i, PM_DESTROYED] += 1
        transferred += beast[i]
        if models[i, M_BEAST] > 0 and beast[i] >= models[i, M_BEAST]:
            beast_destroyed = True
        g = models[i, M_GRID]
        if g >= 0:
            for s in range(grid_need.shape[1]):
                whole = True
                for lane in range(N_LANES):
                    if lanes[i, lane] < grid_need[g, s, lane]:
                        whole = False
                if whole:
                    crippled[c, i, s] += 1
    counts.transfer[c, transferred] += 1
    if beast_destroyed:
        counters[c, C_BEAST] += 1


@kernel
def simulate_chunks(first, step, streams, per_chunk, plan, counts):
    """Run ``per_chunk[c]`` trials of ``plan`` (a
    :class:`~mathhammer.warmachine.compile.KernelArrays`) with stream ``streams[c]`` for chunks
    ``c = first, first + step, ...`` (one thread's share:
    :func:`mathhammer.core.threads.run_chunk_shares`), counting into row ``c`` of each array
    of ``counts`` (:class:`ChunkCounts`).

    Each chunk writes only its own rows, so the summed result does not depend on how many
    threads ran the chunks (a ``parallel=True`` kernel compiled several seconds longer for
    the same work). ``plan.per_model_events`` turns on the per-model bookkeeping, which costs
    a loop over the models per trial.
    """
    n_models = plan.models.shape[0]
    # read once: taking an array out of a tuple in the trial loop counts a reference
    hist_damage, hist_destroyed, hist_spent = counts.damage, counts.destroyed, counts.spent
    hist_transfer, counters = counts.transfer, counts.counters
    for c in range(first, streams.shape[0], step):
        state = streams[c]
        scratch = TrialScratch(
            np.zeros(n_models, dtype=np.int64), np.zeros(n_models, dtype=np.int64),
            np.zeros(n_models, dtype=np.int64), np.zeros(n_models, dtype=np.int64),
            np.zeros(n_models, dtype=np.int64), np.zeros(n_models, dtype=np.int64),
            np.zeros((n_models, N_LANES), dtype=np.int64), np.zeros(n_models, dtype=np.int64),
            np.zeros(n_models, dtype=np.int64), np.zeros(n_models, dtype=np.int64),
            np.zeros(n_models, dtype=np.int64), np.zeros(BUFFER, dtype=np.int64),
            np.zeros(N_OUT, dtype=np.int64))
        out = scratch.out
        for _ in range(per_chunk[c]):
            trial(state, plan, scratch)
            hist_damage[c, out[OUT_DAMAGE]] += 1
            hist_destroyed[c, out[OUT_DESTROYED]] += 1
            hist_spent[c, out[OUT_SPENT]] += 1
            if out[OUT_FIRST] > 0:
                counters[c, C_HIT] += 1
            if out[OUT_FIRST] == 2:
                counters[c, C_CRIT] += 1
            if out[OUT_DESTROYED] == n_models:
                counters[c, C_UNIT] += 1
            if out[OUT_FLAGS] & FLAG_TOUGH_SAVED:
                counters[c, C_SAVED] += 1
            if out[OUT_FLAGS] & FLAG_CONTINUOUS:
                counters[c, C_CONTINUOUS] += 1
            if plan.per_model_events:
                _record_models(c, plan, scratch, counts)
            else:
                hist_transfer[c, 0] += 1


@inline_kernel
def _aoe_kinds(state, k, n_cov, static_boost, can_buy, rules, coverage, kinds, direct, boosts):
    """Hit kind, directness and boost of every model an AOE covers, from the primary's hit
    kind ``k``; a miss may still catch models (``coverage``). Returns the boosts bought."""
    if k > 0:
        bought = 1 if (not static_boost and can_buy) else 0
        blast_boost = static_boost or (bought == 1 and rules[RU_AOE_BOOST_ALL] != 0)
        for c in range(n_cov):
            kinds[c] = k
            direct[c] = 1 if c == 0 else 0
            boosts[c] = int(static_boost or bought == 1) if c == 0 else int(blast_boost)
        return bought
    for c in range(n_cov):
        kinds[c] = 1 if (coverage > 0.0 and uniform(state) < coverage) else 0
        direct[c] = 0
        boosts[c] = 1 if static_boost else 0
    return 0
