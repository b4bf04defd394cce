"""Run whole-unit scenarios: :func:`run` (a :class:`~.result.ScenarioResult`),
:func:`run_scripted` (one trial with forced dice), and the work limits they check first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mathhammer.core.inputs import refuse_unordered
from mathhammer.core.limits import check_run_work
from mathhammer.core.progress import check_progress, watch
from mathhammer.core.trials import CHUNKS, DEFAULT_SCENARIO_TRIALS, check_seed, check_trials
from mathhammer.errors import MathhammerError, OptionError
from mathhammer.wh40k.compile import N_WEAPONS
from mathhammer.wh40k.scenario.compile import compile_scenario, wound_dice_bound
from mathhammer.wh40k.plan_columns import Sampling
from mathhammer.wh40k.scenario.layout import K_FIRST_BATCH, K_N_BATCHES, U_MODELS, CompiledScenario
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.reader import load_scenario
from mathhammer.wh40k.scenario.result import ScenarioResult


def run(scenario: Scenario | str | Path, *, trials: int = DEFAULT_SCENARIO_TRIALS,
        seed: int | np.random.SeedSequence = 1,
        progress: bool | None = None) -> ScenarioResult:
    """Simulate a scenario: every activation, every battle round, ``trials`` times.

    Parameters
    ----------
    scenario
        A :class:`Scenario` or the path of a scenario TOML file.
    trials, seed
        Monte Carlo trials and seed (bit-identical results for a seed on any thread count).
    progress
        A progress bar on stderr for a run longer than about 2 s: ``None`` (default) when
        stderr is a terminal or in a notebook, ``True``/``False`` to force it. It never
        changes the result.

    Returns
    -------
    ScenarioResult
        Distributions of models destroyed and wounds lost per unit and per model group, after
        every activation of every round, and when each side was wiped out.
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    trials = check_trials(trials)
    seed = check_seed(seed)
    check_progress(progress)
    try:
        plan = compile_scenario(scenario)
    except MathhammerError as exc:  # name the file and line of the activation, when known
        located = scenario.locate(exc)
        if located is exc:
            raise
        raise located from None
    check_scenario_work(plan, trials, scenario.origins)
    hists = run_scenario_monte_carlo(plan, trials, seed, progress=progress)
    return ScenarioResult.from_histograms(plan, trials, seed, *hists)


#: Most dice one scenario trial may roll (every attack at its maximum), as for ``simulate``.
MAX_SCENARIO_DICE_PER_TRIAL = 10_000_000
#: Most memory the per-chunk histograms of one run may take.
MAX_SCENARIO_HISTOGRAM_BYTES = 512 * 2**20


def activation_dice(plan: CompiledScenario) -> list[int]:
    """Most wound dice each activation can roll (every attack die at its maximum)."""
    largest_unit = int(plan.units[:, U_MODELS].max())
    out = []
    for k in range(plan.activations.shape[0]):
        first = plan.activations[k, K_FIRST_BATCH]
        rows = list(range(first, first + plan.activations[k, K_N_BATCHES]))
        if plan.retarget is not None:  # a retargeted weapon may roll against another unit
            rows += [int(r) for b in rows for r in plan.retarget[b] if r >= 0]
        out.append(sum(_row_bound(plan, b, largest_unit) for b in rows))
    return out


def check_scenario_work(plan: CompiledScenario, trials: int, origins: tuple[str, ...] = ()
                        ) -> None:
    """Refuse, before anything runs, a scenario whose trials could not end in any useful time
    or whose result histograms would not fit in memory; the message says what to shrink.

    Raises
    ------
    OptionError
        Naming the estimate, the limit and the fix.
    """
    dice = activation_dice(plan)
    per_trial = sum(dice) * plan.rounds
    worst = max(range(len(dice)), key=dice.__getitem__)
    where = f"{origins[worst]}: " if len(origins) > worst and origins[worst] else ""
    if per_trial > MAX_SCENARIO_DICE_PER_TRIAL:
        raise OptionError(f"{where}one trial of this scenario could roll {per_trial:,} dice "
                          f"({dice[worst]:,} in activation {worst + 1}; limit "
                          f"{MAX_SCENARIO_DICE_PER_TRIAL:,}): fewer models, weapons, attacks "
                          "or rounds")
    try:
        check_run_work(per_trial, trials, "dice")
    except OptionError as exc:
        raise exc.after(where) from None
    bins = plan.model_bins + plan.wound_bins + plan.group_bins
    need = CHUNKS * plan.checkpoints * bins * 8
    if need > MAX_SCENARIO_HISTOGRAM_BYTES:
        source = origins[0].rsplit(":", 1)[0] + ": " if origins and origins[0] else ""
        raise OptionError(f"{source}the results of {plan.rounds} rounds of "
                          f"{plan.activations.shape[0]} activations over {bins:,} model and "
                          f"wound counts need {need / 2**20:,.0f} MiB (limit "
                          f"{MAX_SCENARIO_HISTOGRAM_BYTES // 2**20} MiB): fewer rounds or "
                          "activations, or smaller units")


def _row_bound(plan: CompiledScenario, b: int, largest_unit: int) -> int:
    """Most wound dice batch ``b`` can roll, as whichever row it is resolved as once keywords
    have gone with their models (``plan.variants``)."""
    rows = {b} if plan.variants is None else {b} | {int(r) for r in plan.variants[b]}
    return max(wound_dice_bound(plan.batches[r], plan.contribs, plan.subs, largest_unit)
               for r in rows)


def max_pending(plan: CompiledScenario) -> int:
    """An upper bound on [DEVASTATING WOUNDS] critical wounds in one activation."""
    largest_unit = int(plan.units[:, U_MODELS].max())
    worst = 1
    for k in range(plan.activations.shape[0]):
        first = plan.activations[k, K_FIRST_BATCH]
        rows = list(range(first, first + plan.activations[k, K_N_BATCHES]))
        if plan.retarget is not None:  # a retargeted weapon may roll against another unit
            rows += [int(r) for b in rows for r in plan.retarget[b] if r >= 0]
        total = sum(_row_bound(plan, b, largest_unit) for b in rows)
        worst = max(worst, total)
    return int(worst)


def run_scenario_monte_carlo(plan: CompiledScenario, trials: int,
                             seed: int | np.random.SeedSequence, chunks: int = CHUNKS,
                             progress: bool | None = None):
    """Run the scenario kernel; return summed histograms (models, wounds, groups, sides).

    A progress bar counts the trials of finished chunks (side 0's row of ``sides`` gets one
    count per trial when its chunk ends), read while the kernel runs; the call is the same.
    """
    from mathhammer.wh40k.scenario.chunks import Histograms, run_chunks

    from mathhammer.core.rng import chunk_streams   # numba: loaded when a run starts

    streams, per_chunk = chunk_streams(trials, seed, chunks)
    out = Histograms.zeros(plan, (chunks,))
    pending = max_pending(plan) if plan.dw_at_unit_end else 1
    watch(lambda: run_chunks(plan, streams, per_chunk, out, pending),
          lambda: out.sides[:, 0].sum() if out.sides.shape[1] else 0, trials, "run",
          progress=progress)
    models, wounds, groups, sides = out.arrays()
    return models.sum(axis=0), wounds.sum(axis=0), groups.sum(axis=0), sides.sum(axis=0)


__all__ = ("run", "ScenarioResult", "run_scenario_monte_carlo", "N_WEAPONS")


def run_scripted(scenario: Scenario, faces: list[int]) -> dict[str, Any]:
    """Run ONE trial with forced dice (tests and worked examples).

    Parameters
    ----------
    scenario
        The scenario (one round is usual).
    faces
        Every D6 the trial rolls, in the kernel's documented order (see
        :mod:`mathhammer.wh40k.scenario.kernels`).

    Returns
    -------
    dict
        ``{"units": {unit: {"models_destroyed": n, "wounds_lost": n,
        "groups": {group: n}}}, "dice_used": n}`` at the end of the scenario.

    Raises
    ------
    OptionError
        When a face is not a whole number from 1 to 6 (or there are more than
        :data:`MAX_SCRIPTED_FACES`), or ``faces`` is not a list (a set or a generator:
        their order matters).
    OptionError
        When the scenario needs more dice than given (also an ``IndexError``, as before).
    """
    from mathhammer.core.rng import (check_script_not_exhausted, scripted_dice_used,
                                      scripted_stream)
    from mathhammer.wh40k.scenario.chunks import Histograms, run_trials, scratch_arrays

    if not isinstance(scenario, Scenario):
        raise OptionError(f"scenario must be a Scenario (mh.parse_scenario(text) or "
                          f"mh.load_scenario(path)), not {type(scenario).__name__} "
                          f"{scenario!r:.40}")
    faces = _checked_faces(faces)
    plan = compile_scenario(scenario)
    check_scenario_work(plan, 1, scenario.origins)
    stream = scripted_stream(faces)
    counts = Histograms.zeros(plan)
    run_trials(plan.kernel_arrays(use_counts=Sampling.EVERY_DIE), stream, 1, counts,
               scratch_arrays(plan, len(faces)), plan.rare_rules)
    models, wounds, groups, sides = counts.arrays()
    check_script_not_exhausted(stream)
    result = ScenarioResult.from_histograms(plan, 1, 0, models, wounds, groups, sides)
    out: dict[str, Any] = {"units": {}, "dice_used": scripted_dice_used(stream)}
    for unit in plan.unit_names:
        out["units"][unit] = {
            "models_destroyed": int(result.models_destroyed(unit).quantile(0.5)),
            "wounds_lost": int(result.wounds_lost(unit).quantile(0.5)),
            "groups": {g: int(result.group_models_destroyed(unit, g).quantile(0.5))
                       for u, g in plan.group_names if u == unit}}
    return out


#: Most dice one scripted trial may be given.
MAX_SCRIPTED_FACES = 1_000_000


def _checked_faces(faces: Any) -> list[int]:
    """``faces`` as a list of ints 1-6, or an :class:`OptionError` naming the first bad one."""
    if isinstance(faces, (str, bytes)) or not hasattr(faces, "__iter__"):
        raise OptionError(f"faces must be a list of D6 results 1-6, not {type(faces).__name__}")
    refuse_unordered(faces, "faces (D6 results 1-6, in the order they are rolled)")
    faces = list(faces)
    if len(faces) > MAX_SCRIPTED_FACES:
        raise OptionError(f"{len(faces):,} scripted faces: at most {MAX_SCRIPTED_FACES:,}")
    for index, face in enumerate(faces):
        if isinstance(face, bool) or not isinstance(face, (int, np.integer)) \
                or not 1 <= face <= 6:
            raise OptionError(f"scripted face {index + 1} is {face!r:.20}: each face is a D6 "
                              "result, a whole number from 1 to 6")
    return [int(f) for f in faces]
