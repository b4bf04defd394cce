"""Monte Carlo runs of Dust Tactics: fire orders' volley and a multi-round exchange.

Both split the trials into :data:`N_CHUNKS` chunks with their own random streams (the same
seed gives the same bits on any thread count), check the work up front, show a progress bar
for a long run and return :class:`~mathhammer.core.game.Tallies`, as every game's runner does.
"""

from __future__ import annotations

import numpy as np

from mathhammer.core.game import SeedLike, Tallies
from mathhammer.core.limits import check_outcome_values, check_run_work
from mathhammer.core.progress import watch
from mathhammer.core.trials import CHUNKS, check_seed, check_trials
from mathhammer.dust.compile import N_DICE, CompiledPlan
from mathhammer.dust.exact_engine import ExchangeSide, full_dice

#: Fixed number of Monte Carlo chunks (independent of the thread count: determinism).
N_CHUNKS = CHUNKS

#: The quantities the volley kernel counts for each target, in the kernel's order.
QUANTITIES = ("hits", "damage_before_saves", "damage")


def run_monte_carlo(compiled: CompiledPlan, trials: int, seed: SeedLike, *,
                    progress: bool | None = None) -> Tallies:
    """Run the volley kernel on compiled fire orders.

    Returns
    -------
    Tallies
        Histograms ``hits``, ``damage_before_saves`` and ``damage`` (after saves, before
        capping at what the target absorbs), each with one row per target (see
        :meth:`~mathhammer.core.game.Tallies.subject`), padded with zeros to a common width.

    A progress bar counts the trials in the histograms while the kernel runs (the same
    kernel call with or without it).
    """
    from mathhammer.core.threads import run_chunk_shares
    from mathhammer.dust.kernels import plan_kernel

    trials = check_trials(trials)
    n_bins = int(max(compiled.max_hits.max(), compiled.max_damage.max())) + 1
    check_outcome_values(n_bins * len(compiled.targets), "the hits or damage of one trial",
                         "fewer carriers or dice per line")
    check_run_work(int(compiled.rows[:, N_DICE].sum()), trials, "dice")
    from mathhammer.core.rng import chunk_streams   # numba: loaded when a run starts

    streams, chunk_trials = chunk_streams(trials, check_seed(seed), N_CHUNKS)
    hist = np.zeros((N_CHUNKS, len(compiled.targets), 3, n_bins), dtype=np.int64)
    rows = np.ascontiguousarray(compiled.rows)
    watch(lambda: run_chunk_shares(plan_kernel, N_CHUNKS, streams, chunk_trials, rows,
                                   len(compiled.targets), hist),
          lambda: hist[:, 0, 0].sum(), trials, "simulate", progress=progress)
    total = hist.sum(axis=0)
    return Tallies(trials, {name: total[:, q] for q, name in enumerate(QUANTITIES)})


def exchange_monte_carlo(side_a: ExchangeSide, side_b: ExchangeSide, rounds: int,
                         random_policy: bool, trials: int, seed: SeedLike, *,
                         progress: bool | None = None) -> Tallies:
    """Run the exchange kernel: histograms ``a_losses`` and ``b_losses``, events
    ``a_destroyed`` and ``b_destroyed``."""
    from mathhammer.core.threads import run_chunk_shares
    from mathhammer.dust.kernels import exchange_kernel

    trials = check_trials(trials)
    # the dice both sides roll at full strength; a side that rolls none still takes a step
    dice = sum(sum(full_dice(side)) + 1 for side in (side_a, side_b))
    check_run_work(dice * rounds, trials, "dice")
    from mathhammer.core.rng import chunk_streams   # numba: loaded when a run starts

    streams, chunk_trials = chunk_streams(trials, check_seed(seed), N_CHUNKS)
    hists = [np.zeros((N_CHUNKS, side.capacity + 1), dtype=np.int64)
             for side in (side_a, side_b)]
    watch(lambda: run_chunk_shares(exchange_kernel, N_CHUNKS, streams, chunk_trials, rounds,
                                   side_a.kernel_side(), side_b.kernel_side(), random_policy,
                                   *hists),
          hists[0].sum, trials, "exchange", progress=progress)
    losses_a, losses_b = hists[0].sum(axis=0), hists[1].sum(axis=0)
    return Tallies(trials, {"a_losses": losses_a, "b_losses": losses_b},
                   {"a_destroyed": losses_a[side_a.capacity],
                    "b_destroyed": losses_b[side_b.capacity]})
