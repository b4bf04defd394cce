"""Running the scenario kernel: per-trial scratch arrays, and chunks shared among threads.

:func:`~mathhammer.wh40k.scenario.kernels.scenario_trials` runs a whole chunk of trials on
one stream, releases the GIL and cannot allocate. Each thread gets its own scratch arrays
and runs chunks ``first, first + step, ...`` in turn (:func:`mathhammer.core.threads.
run_shares`); one Python call per chunk, never per trial. A ``parallel=True`` kernel doing
the same compiled much longer on a cold cache (parfor lowering, and the allocations inside
it), for no speed gain (figures: benchmarks/RESULTS.md). Chunk ``c`` always runs on stream
``c`` and lands in row ``c``, so results do not depend on the thread count.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from mathhammer.core.threads import run_shares, thread_count
from mathhammer.wh40k.scenario.layout import U_N_ALLOCS, ScenarioArrays, CompiledScenario


class Histograms(NamedTuple):
    """One set of scenario histograms: per checkpoint (models destroyed, wounds lost, group
    models destroyed) and per side (round wiped out, 0 for never)."""

    models: np.ndarray
    wounds: np.ndarray
    groups: np.ndarray
    sides: np.ndarray

    @classmethod
    def zeros(cls, plan: CompiledScenario, chunks: tuple[int, ...] = ()) -> Histograms:
        """Empty histograms, with leading dimensions ``chunks`` (one row per chunk)."""
        cps = plan.checkpoints
        return cls(np.zeros((*chunks, cps, plan.model_bins), dtype=np.int64),
                   np.zeros((*chunks, cps, plan.wound_bins), dtype=np.int64),
                   np.zeros((*chunks, cps, plan.group_bins), dtype=np.int64),
                   np.zeros((*chunks, len(plan.side_names), plan.rounds + 1), dtype=np.int64))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(self)


class Losses(NamedTuple):
    """What one trial has done to the units so far: models alive per sub-group, wounds left
    on each allocation group's wounded model (``current``), models alive per allocation
    group and per unit, and wounds lost per unit."""

    alive: np.ndarray
    current: np.ndarray
    group_alive: np.ndarray
    unit_alive: np.ndarray
    unit_lost: np.ndarray


class BatchScratch(NamedTuple):
    """Scratch of one batch: the allocation order (``buffer``), save faces (``counts``) and
    the [DEVASTATING WOUNDS] held to the end of the activation (``pending_unit``, and
    ``pending_damage`` in pairs: damage, Feel No Pain column)."""

    buffer: np.ndarray
    counts: np.ndarray
    pending_unit: np.ndarray
    pending_damage: np.ndarray


class TrialScratch(NamedTuple):
    """Scratch of one trial: models alive per unit at the start of the activation
    (``snapshot``), models destroyed per report group, the round each side was wiped out,
    the [ONE SHOT] weapons used, and the [HAZARDOUS] batches of the activation."""

    snapshot: np.ndarray
    group_dead: np.ndarray
    side_wiped: np.ndarray
    one_shot_used: np.ndarray
    hazard_used: np.ndarray


class Scratch(NamedTuple):
    """Everything a thread's trials write besides the histograms (the kernel cannot
    allocate)."""

    losses: Losses
    batch: BatchScratch
    trial: TrialScratch


def scratch_arrays(plan: CompiledScenario, max_pending: int) -> Scratch:
    """The kernel's per-trial state for ``plan``, with room for ``max_pending`` held
    [DEVASTATING WOUNDS]."""
    n_subs, n_allocs, n_units = plan.subs.shape[0], plan.allocs.shape[0], plan.units.shape[0]
    max_groups = int(plan.units[:, U_N_ALLOCS].max()) if n_units else 1
    pending = max(max_pending, 1)

    def zeros(n: int) -> np.ndarray:
        return np.zeros(n, dtype=np.int64)

    return Scratch(
        Losses(zeros(n_subs), zeros(n_allocs), zeros(n_allocs), zeros(n_units),
               zeros(n_units)),
        BatchScratch(zeros(max(max_groups, 1)), zeros(7), zeros(pending), zeros(2 * pending)),
        TrialScratch(zeros(n_units), zeros(plan.report_groups.shape[0]),
                     zeros(len(plan.side_names)), zeros(max(plan.one_shot_slots, 1)),
                     zeros(max(plan.batches.shape[0], 1))))


def run_trials(arrays: ScenarioArrays, stream: np.ndarray, trials: int, out: Histograms,
               scratch: Scratch, rare_rules: bool) -> None:
    """Run ``trials`` trials on ``stream``, adding their counts to ``out``; ``rare_rules``:
    the plan's :attr:`~.layout.CompiledScenario.rare_rules` (the kernel version to run)."""
    from mathhammer.wh40k.scenario.kernels import scenario_trials

    scenario_trials(stream, trials, arrays, scratch.losses, scratch.batch, scratch.trial, out,
                    True if rare_rules else None)


def run_chunks(plan: CompiledScenario, streams: np.ndarray, trials_per_chunk: np.ndarray,
               out: Histograms, max_pending: int) -> None:
    """Run every chunk, each on its stream, into its row of ``out`` (leading dimension: the
    chunk), on as many threads as numba is allowed.

    A thread counts into histograms of its own and copies them to the chunk's row when the
    chunk ends (rows of neighbouring chunks share cache lines).
    """
    from mathhammer.wh40k.scenario.cold_compile import compile_helpers_alongside

    compile_helpers_alongside()   # a cold cache: a second process compiles the helpers
    arrays = plan.kernel_arrays()
    rare_rules = plan.rare_rules

    def share(first: int, step: int) -> None:
        scratch = scratch_arrays(plan, max_pending)
        local = Histograms.zeros(plan)
        for c in range(first, streams.shape[0], step):
            for array in local:
                array.fill(0)
            run_trials(arrays, streams[c].copy(), int(trials_per_chunk[c]), local, scratch,
                       rare_rules)
            for row, counted in zip(out, local):
                row[c] = counted

    run_shares(share, thread_count(streams.shape[0]))
