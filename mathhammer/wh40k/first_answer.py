"""A first Monte Carlo answer without compiling: trials drawn from the exact distribution.

On a fresh installation the simulation kernels compile for about 6 s before the first
``mathhammer simulate`` can answer, while the exact engine answers the same question in a
fraction of a second without numba. When the question is one the exact engine solves as a
single chain of wounds lost (one group of identical models, no Command Re-roll), its final
law is everything the Monte Carlo kernel estimates: wounds lost; models destroyed, a function
of wounds lost; the unit destroyed, the last state; and the attacker's hazard mortal wounds,
rolled apart from the target. Drawing ``trials`` outcomes from that law gives counts with
exactly the law of the kernel's counts (a multinomial sample of the same distribution), so
every figure carries its usual standard error; the bits differ from the kernel's, and the
result says which engine answered (``inputs["engine"]``, the caption, the JSON's
``"engine"``).

The same seed always gives the same draws from this engine, whatever the thread count.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from mathhammer.core.game import Tallies, tallied_result
from mathhammer.core.result import Result
from mathhammer.core.trials import as_seed_sequence, check_seed, check_trials
from mathhammer.errors import MathhammerError, UnsupportedError

#: ``Result.inputs["engine"]`` of an answer drawn from the exact distribution.
EXACT_DRAWS = "exact-draws"


def draw_tallies(plan: Any, trials: int, seed: Any) -> Tallies | None:
    """``trials`` outcomes drawn from the exact law of ``plan`` (a plan compiled for the
    exact engine), counted as the kernel counts them; None when the exact engine does not
    solve the plan as one chain of wounds lost.

    Examples
    --------
    >>> from mathhammer.wh40k.api import Question
    >>> plan = Question('Bolt rifle: 24" A2 BS3+ S4 AP-1 D1', "5x MEQ", {}).exact_plan
    >>> tallies = draw_tallies(plan, 1000, seed=1)
    >>> int(tallies.histograms["damage"].sum()), tallies.trials
    (1000, 1000)
    """
    from mathhammer.wh40k.exact_engine import chains
    from mathhammer.wh40k.compile import G_MODELS, G_WOUNDS

    if plan.groups.shape[0] != 1 or plan.command_reroll:
        return None
    try:
        pmfs = chains.solve(plan)
    except UnsupportedError:
        return None
    group = plan.groups[0].tolist()
    models, wounds = int(group[G_MODELS]), int(group[G_WOUNDS])
    rng = np.random.Generator(np.random.PCG64(as_seed_sequence(seed)))
    damage = _drawn(rng, pmfs["damage"], trials)
    destroyed = np.zeros(models + 1, dtype=np.int64)
    destroyed[:-1] = damage[:-1].reshape(models, wounds).sum(axis=1)
    destroyed[-1] = damage[-1]
    histograms = {"damage": damage, "models_destroyed": destroyed}
    if plan.hazard_rolls:
        histograms["attacker_mortal_wounds"] = _drawn(rng, pmfs["attacker_mortal_wounds"],
                                                      trials)
    return Tallies(trials, histograms, {"unit_destroyed": int(damage[-1])})


def _drawn(rng: np.random.Generator, pmf: np.ndarray, trials: int) -> np.ndarray:
    """How many of ``trials`` outcomes fell on each ``k`` of ``pmf``: one multinomial draw."""
    weights = np.clip(np.asarray(pmf, dtype=float), 0.0, None)
    return rng.multinomial(trials, weights / weights.sum()).astype(np.int64)


def simulate_from_exact(weapons: Any, target: Any, *, trials: int, seed: Any,
                        **options: Any) -> Result | None:
    """What :func:`mathhammer.simulate` answers, drawn from the exact distribution instead
    of rolled by the kernel; None when the exact engine does not solve the question as one
    chain (the caller then runs the kernel).

    Parameters
    ----------
    weapons, target, options
        As :func:`mathhammer.simulate` takes them.
    trials, seed
        Trials to draw and their seed (an int or a :class:`numpy.random.SeedSequence`).

    Returns
    -------
    Result or None
        A Monte Carlo result whose ``inputs["engine"]`` is :data:`EXACT_DRAWS`.

    Examples
    --------
    >>> r = simulate_from_exact('Bolt rifle: 24" A2 BS3+ S4 AP-1 D1', "5x MEQ",
    ...                         trials=10_000, seed=1)
    >>> r.method, r.inputs["engine"], r.trials
    ('monte-carlo', 'exact-draws', 10000)
    """
    from mathhammer.wh40k.api import GAME, check_monte_carlo_size

    trials, seed = check_trials(trials), check_seed(seed)
    question = GAME.compile(weapons, target, **options)
    if "best" in (question.modifiers.reroll_damage, question.modifiers.command_reroll[-4:]):
        # exact only: the kernel's path refuses it in one line
        return None
    try:
        plan = question.exact_plan
    except MathhammerError:   # the kernel's path says why in one line
        return None
    check_monte_carlo_size(plan, trials)   # the same limits whichever engine answers
    try:
        tallies = draw_tallies(plan, trials, seed)
    except MathhammerError:   # too large for the exact engine, and the like: the kernel's
        return None
    if tallies is None:
        return None
    result = tallied_result(GAME, question, tallies, seed)
    return replace(result, inputs={**result.inputs, "engine": EXACT_DRAWS})


def kernels_compiled() -> bool:
    """Whether numba's cache holds both trial loops of the 40k simulation kernel (a first
    run compiles the one it needs; ``mathhammer warmup`` compiles both).

    Reads whether the kernels' cache indexes exist, without loading or compiling anything;
    when that cannot be told (another numba, a cache numba cannot write), answers True so
    that the kernel runs as always.
    """
    from mathhammer.core.jit import is_cached
    from mathhammer.wh40k.monte_carlo.kernels import run_chain_chunks, run_chunks

    return is_cached(run_chunks) and is_cached(run_chain_chunks)
