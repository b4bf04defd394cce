"""Numba kernels for Dust Tactics (all jitted Dust code lives here).

Kernels take arrays and integers, trust their caller (validation happens in
:mod:`mathhammer.dust.compile` and :mod:`mathhammer.dust.api`) and write into preallocated
histograms. Work is split into a fixed number of chunks, each with its own random stream
and its own histogram row, so a seed gives the same bits on any thread count.
"""

from __future__ import annotations

import numpy as np

from mathhammer.core.jit import kernel
from mathhammer.core.rng import d6, uniform
from mathhammer.dust.compile import (
    COVER, DAMAGE, DEPTH, DR, EVADE, KIND, LASER, N_DICE, PER_POINT, PHASER, REROLL, SUB_N,
    SUB_REROLL, SUB_THR, TARGET, THR, UNBOUNDED_LASER_GENERATIONS,
)

_UNBOUNDED = UNBOUNDED_LASER_GENERATIONS


@kernel
def _thin(state, count, faces):
    """Dice that are NOT cancelled when each of ``count`` dice saves on ``faces`` of six."""
    if faces <= 0:
        return count
    kept = 0
    for _ in range(count):
        if d6(state) > faces:
            kept += 1
    return kept


@kernel
def fire_row(state, row, n_dice):
    """Resolve one declared weapon (a compiled row) with ``n_dice`` dice.

    Returns ``(hits, damage before saves, damage after saves and Damage Resilient)``.
    """
    thr = row[THR]
    reroll = row[REROLL] != 0
    kind = row[KIND]
    hits = 0
    for _ in range(n_dice):
        ok = d6(state) <= thr
        if not ok and reroll:
            ok = d6(state) <= thr
        if not ok:
            continue
        if kind == PHASER:
            for _ in range(row[SUB_N]):
                if d6(state) <= row[SUB_THR]:
                    hits += 1
        elif kind == LASER:
            hits += 1
            limit = row[DEPTH] if row[DEPTH] >= 0 else _UNBOUNDED
            generation = 0
            while generation < limit:
                extra = d6(state) <= row[SUB_THR]
                if not extra and row[SUB_REROLL] != 0:
                    extra = d6(state) <= row[SUB_THR]
                if not extra:
                    break
                hits += 1
                generation += 1
        else:
            hits += 1
    damage = row[DAMAGE]
    raw = hits * damage
    kept = _thin(state, hits, row[EVADE])
    if row[PER_POINT] != 0:
        points = _thin(state, kept * damage, row[COVER])
    else:
        points = _thin(state, kept, row[COVER]) * damage
    points = _thin(state, points, row[DR])
    return hits, raw, points


@kernel
def plan_kernel(first, step, streams, chunk_trials, rows, n_targets, hist):
    """Monte Carlo of fire orders, chunks ``first, first + step, ...`` (one thread's share:
    :func:`mathhammer.core.threads.run_chunk_shares`).

    ``hist[chunk, target, q, value]`` counts trials in which quantity ``q`` (0 hits,
    1 damage before saves, 2 damage after saves) took ``value`` for ``target``.
    """
    n_chunks = streams.shape[0]
    n_rows = rows.shape[0]
    for c in range(first, n_chunks, step):
        state = streams[c]
        acc = np.zeros((n_targets, 3), dtype=np.int64)
        for _ in range(chunk_trials[c]):
            acc[:, :] = 0
            for r in range(n_rows):
                row = rows[r]
                h, raw, pts = fire_row(state, row, row[N_DICE])
                t = row[TARGET]
                acc[t, 0] += h
                acc[t, 1] += raw
                acc[t, 2] += pts
            for t in range(n_targets):
                for q in range(3):
                    hist[c, t, q, acc[t, q]] += 1


@kernel
def _volley(state, rows, carries, alive, is_squad):
    """Damage points one side deals in one attack, its pool built from the models alive."""
    total = 0
    for r in range(rows.shape[0]):
        carriers = 0
        if is_squad:
            for g in range(alive.shape[0]):
                carriers += alive[g] * carries[g, r]
        else:
            carriers = 1
        n = carriers * rows[r, N_DICE]
        if n > 0:
            _, _, pts = fire_row(state, rows[r], n)
            total += pts
    return total


@kernel
def _take(state, alive, order, lost, capacity, models, damage, random_policy):
    """Apply ``damage`` points to a side; update ``alive`` in place, return the new loss."""
    take = min(damage, capacity - lost)
    for _ in range(take):
        if lost < models and alive.shape[0] > 0:
            if random_policy:
                remaining = 0
                for g in range(alive.shape[0]):
                    remaining += alive[g]
                pick = int(uniform(state) * remaining)
                for g in range(alive.shape[0]):
                    if pick < alive[g]:
                        alive[g] -= 1
                        break
                    pick -= alive[g]
            else:
                for k in range(order.shape[0]):
                    g = order[k]
                    if alive[g] > 0:
                        alive[g] -= 1
                        break
        lost += 1
    return lost


@kernel
def exchange_kernel(first, step, streams, chunk_trials, rounds, side_a, side_b, random_policy,
                    hist_a, hist_b):
    """Monte Carlo of ``rounds`` rounds of A firing at B, then B (what is left) at A, chunks
    ``first, first + step, ...`` (one thread's share). ``side_a`` and ``side_b`` are
    :class:`~mathhammer.dust.exact_engine.KernelSide`.

    ``hist_a[chunk, k]`` counts trials that ended with side A having lost ``k`` damage
    points worth (models for a squad, boxes for a vehicle or hero); likewise ``hist_b``.
    """
    # The fields as locals, read once: taking an array out of a tuple counts a reference
    # (an atomic operation), which in the trial loop cost ~6% of the run.
    rows_a, carries_a, counts_a, order_a = side_a.rows, side_a.carries, side_a.counts, \
        side_a.order
    rows_b, carries_b, counts_b, order_b = side_b.rows, side_b.carries, side_b.counts, \
        side_b.order
    squad_a, cap_a, models_a = side_a.is_squad, side_a.capacity, side_a.models
    squad_b, cap_b, models_b = side_b.is_squad, side_b.capacity, side_b.models
    n_chunks = streams.shape[0]
    for c in range(first, n_chunks, step):
        state = streams[c]
        alive_a = counts_a.copy()
        alive_b = counts_b.copy()
        for _ in range(chunk_trials[c]):
            alive_a[:] = counts_a
            alive_b[:] = counts_b
            lost_a = 0
            lost_b = 0
            for _ in range(rounds):
                if lost_a < cap_a and lost_b < cap_b:
                    dmg = _volley(state, rows_a, carries_a, alive_a, squad_a)
                    lost_b = _take(state, alive_b, order_b, lost_b, cap_b, models_b, dmg,
                                   random_policy)
                if lost_b < cap_b and lost_a < cap_a:
                    dmg = _volley(state, rows_b, carries_b, alive_b, squad_b)
                    lost_a = _take(state, alive_a, order_a, lost_a, cap_a, models_a, dmg,
                                   random_policy)
            hist_a[c, lost_a] += 1
            hist_b[c, lost_b] += 1
