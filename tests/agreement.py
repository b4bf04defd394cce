"""Statistical agreement of a Monte Carlo :class:`~mathhammer.core.result.Result` with the
exact one, for the property tests of every game.

A Monte Carlo result agrees with the exact result when, for every outcome, its mean lies
within :data:`SIGMAS` standard errors of the exact mean, its histogram passes a chi-square
goodness-of-fit test against the exact pmf (adjacent cells pooled until each expects at least
:data:`MIN_EXPECTED` trials; p above :data:`MIN_P_VALUE`), and it never shows a value the
exact engine calls impossible; and every event probability lies within :data:`SIGMAS`
binomial standard errors (plus one trial) of the exact one.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.stats import chisquare

from mathhammer.core.result import Result

SIGMAS = 5.0
MIN_EXPECTED = 5.0
#: a property test makes about a thousand such checks (examples x targets x outcomes): at
#: 1e-6 a correct engine fails one of them about once in a thousand runs, like 5 sigmas
MIN_P_VALUE = 1e-6


def pooled_chisquare_pvalue(observed: np.ndarray, expected: np.ndarray,
                            minimum: float = MIN_EXPECTED) -> float:
    """p-value of a chi-square test, pooling adjacent cells until each expects ``minimum``.

    Returns 1.0 when fewer than two pooled cells are left (nothing to test).
    """
    obs_bins: list[float] = []
    exp_bins: list[float] = []
    o_acc = e_acc = 0.0
    for o, e in zip(observed, expected):
        o_acc += o
        e_acc += e
        if e_acc >= minimum:
            obs_bins.append(o_acc)
            exp_bins.append(e_acc)
            o_acc = e_acc = 0.0
    if len(exp_bins) < 2:
        return 1.0
    obs_bins[-1] += o_acc
    exp_bins[-1] += e_acc
    obs = np.array(obs_bins)
    exp = np.array(exp_bins) * obs.sum() / sum(exp_bins)
    return float(chisquare(obs, exp).pvalue)


def disagreements(mc: Result, ex: Result, trials: int) -> list[str]:
    """Every way ``mc`` (``trials`` trials) fails to agree with ``ex``; empty when it agrees."""
    problems = []
    if set(mc.outcomes) != set(ex.outcomes):
        problems.append(f"outcomes {sorted(mc.outcomes)} != {sorted(ex.outcomes)}")
    for outcome in set(mc.outcomes) & set(ex.outcomes):
        problems += _distribution_problems(mc, ex, outcome, trials)
    for event, p in ex.probabilities.items():
        p = min(max(p, 0.0), 1.0)  # an exact sum may pass 1 by a rounding error
        tolerance = SIGMAS * math.sqrt(p * (1 - p) / trials) + 1 / trials
        if abs(mc.probability(event) - p) > tolerance:
            problems.append(f"P({event}) {mc.probability(event):.5f} vs exact {p:.5f}")
    return problems


def _distribution_problems(mc: Result, ex: Result, outcome: str, trials: int) -> list[str]:
    exact_p = np.asarray(ex.distributions[outcome].probabilities, dtype=float)
    mc_p = np.asarray(mc.distributions[outcome].probabilities, dtype=float)
    size = max(len(exact_p), len(mc_p))
    exact_p = np.pad(exact_p, (0, size - len(exact_p)))
    counts = np.rint(np.pad(mc_p, (0, size - len(mc_p))) * trials)
    problems = []
    impossible = np.flatnonzero((exact_p == 0) & (counts > 0))
    if impossible.size:
        problems.append(f"{outcome}: values {impossible.tolist()} seen, exact says impossible")
    # the larger of the sample's standard error and the exact one: a rare outcome the sample
    # never saw has a sample standard error of 0
    stderr = max(mc.stderr(outcome), ex.distributions[outcome].std / math.sqrt(trials))
    gap = abs(mc.mean(outcome) - ex.mean(outcome))
    if gap > max(SIGMAS * stderr, 1e-9):
        problems.append(f"{outcome}: mean {mc.mean(outcome):.4f} vs exact "
                        f"{ex.mean(outcome):.4f} (stderr {stderr:.4f})")
    p_value = pooled_chisquare_pvalue(counts, exact_p * trials)
    if p_value <= MIN_P_VALUE:
        problems.append(f"{outcome}: chi-square p = {p_value:.2e}")
    return problems
