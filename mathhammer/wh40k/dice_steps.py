"""Dice steps shared by the 40k kernels: one roll of a pool, die by die or as counts."""

from __future__ import annotations

from mathhammer.core.jit import kernel
from mathhammer.core.rng import d6
from mathhammer.core.sampling import sample_binomial
from mathhammer.wh40k.compile import CRITICAL, SUCCESS


@kernel
def roll_classified(state, n, classes, reroll):
    """Roll ``n`` D6 with a per-face re-roll mask; return (successes, criticals)."""
    successes = 0
    criticals = 0
    for _ in range(n):
        face = d6(state)
        if reroll[face]:
            face = d6(state)
        outcome = classes[face]
        if outcome == SUCCESS:
            successes += 1
        elif outcome == CRITICAL:
            criticals += 1
    return successes, criticals


@kernel
def count_outcomes(state, n, crit_rows, rest_rows):
    """(successes, criticals) among ``n`` dice, sampled as counts: criticals first, then
    ordinary successes among the other dice (see :mod:`mathhammer.core.sampling`)."""
    criticals = sample_binomial(state, crit_rows[n], n)
    successes = sample_binomial(state, rest_rows[n - criticals], n - criticals)
    return successes, criticals
