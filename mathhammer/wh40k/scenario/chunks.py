"""Running the scenario kernel: per-trial scratch arrays, and chunks shared among threads.

:func:`~mathhammer.wh40k.scenario.kernels.scenario_trials` runs a whole chunk of trials on
one stream, releases the GIL and cannot allocate. Each thread gets its own scratch arrays
and runs chunks ``first, first + step, ...`` in turn (:func:`mathhammer.core.threads.
run_shares`); one Python call per chunk, never per trial. A ``parallel=True`` kernel doing
the same compiled 18 s longer on a cold cache (parfor lowering, and the allocations inside
it), for no speed gain. Chunk ``c`` always runs on stream ``c`` and lands in row ``c``, so
results do not depend on the thread count.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mathhammer.core.threads import run_shares, thread_count
from mathhammer.wh40k.scenario.compile import U_N_ALLOCS, ScenarioPlan


@dataclass(frozen=True)
class Histograms:
    """One set of scenario histograms: per checkpoint (models destroyed, wounds lost, group
    models destroyed) and per side (round wiped out, 0 for never)."""

    models: np.ndarray
    wounds: np.ndarray
    groups: np.ndarray
    sides: np.ndarray

    @classmethod
    def zeros(cls, plan: ScenarioPlan, chunks: tuple[int, ...] = ()) -> Histograms:
        """Empty histograms, with leading dimensions ``chunks`` (one row per chunk)."""
        cps = plan.checkpoints
        return cls(np.zeros((*chunks, cps, plan.model_bins), dtype=np.int64),
                   np.zeros((*chunks, cps, plan.wound_bins), dtype=np.int64),
                   np.zeros((*chunks, cps, plan.group_bins), dtype=np.int64),
                   np.zeros((*chunks, len(plan.side_names), plan.rounds + 1), dtype=np.int64))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.models, self.wounds, self.groups, self.sides


def scratch_arrays(plan: ScenarioPlan, max_pending: int) -> tuple[np.ndarray, ...]:
    """The kernel's per-trial state, in its argument order from ``alive`` to ``side_wiped``:
    alive, current, group_alive, unit_alive, unit_lost, buffer, counts, snapshot,
    pending_unit, pending_damage, group_dead, side_wiped."""
    n_subs, n_allocs, n_units = plan.subs.shape[0], plan.allocs.shape[0], plan.units.shape[0]
    max_groups = int(plan.units[:, U_N_ALLOCS].max()) if n_units else 1
    pending = max(max_pending, 1)

    def zeros(n: int) -> np.ndarray:
        return np.zeros(n, dtype=np.int64)

    return (zeros(n_subs), zeros(n_allocs), zeros(n_allocs), zeros(n_units), zeros(n_units),
            zeros(max(max_groups, 1)), zeros(7), zeros(n_units), zeros(pending),
            zeros(2 * pending), zeros(plan.report_groups.shape[0]),
            zeros(len(plan.side_names)))


def run_trials(plan: ScenarioPlan, stream: np.ndarray, trials: int, out: Histograms,
               scratch: tuple[np.ndarray, ...], use_counts: int) -> None:
    """Run ``trials`` trials on ``stream``, adding their counts to ``out``."""
    from mathhammer.wh40k.scenario.kernels import scenario_trials

    scenario_trials(stream, trials, plan.rounds, plan.activations, plan.batches, plan.contribs,
                    plan.hit, plan.wound, plan.saves, plan.damage_maps, plan.units,
                    plan.orders, plan.toughness, plan.subs, plan.allocs, plan.report_groups,
                    plan.flags, *scratch, *out.arrays(), plan.hit_cdfs, plan.wound_cdfs,
                    plan.save_cdfs, use_counts,
                    np.zeros(max(plan.one_shot_slots, 1), dtype=np.int64), plan.retarget,
                    plan.precision_pick, np.zeros(max(plan.batches.shape[0], 1), dtype=np.int64))


def run_chunks(plan: ScenarioPlan, streams: np.ndarray, trials_per_chunk: np.ndarray,
               out: Histograms, max_pending: int) -> None:
    """Run every chunk, each on its stream, into its row of ``out`` (leading dimension: the
    chunk), on as many threads as numba is allowed.

    A thread counts into histograms of its own and copies them to the chunk's row when the
    chunk ends (rows of neighbouring chunks share cache lines).
    """

    def share(first: int, step: int) -> None:
        scratch = scratch_arrays(plan, max_pending)
        local = Histograms.zeros(plan)
        for c in range(first, streams.shape[0], step):
            for array in local.arrays():
                array.fill(0)
            run_trials(plan, streams[c].copy(), int(trials_per_chunk[c]), local, scratch,
                       plan.use_counts)
            for row, counted in zip(out.arrays(), local.arrays()):
                row[c] = counted

    run_shares(share, thread_count(streams.shape[0]))
