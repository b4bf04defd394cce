"""Dice steps shared by the 40k kernels: one roll of a pool, die by die or as counts.

They take whole tables plus indices rather than slices: slicing an array inside a hot loop
creates a view whose reference counting costs more than the dice.
"""

from __future__ import annotations

import numpy as np

from mathhammer.core.jit import inline_kernel, step_kernel
from mathhammer.core.rng import d6, draw_bits, roll_dice, uniform
from mathhammer.core.sampling import GUIDE_SHIFT
from mathhammer.wh40k.compile import CRITICAL, SUCCESS


@step_kernel
def roll_classified(state, n, tables, b, classes, reroll):
    """Roll ``n`` D6 with the per-face outcome row ``tables[b, classes]`` and re-roll mask
    ``tables[b, reroll]``; return (successes, criticals)."""
    successes = 0
    criticals = 0
    for _ in range(n):
        face = d6(state)
        if tables[b, reroll, face]:
            face = d6(state)
        outcome = tables[b, classes, face]
        if outcome == SUCCESS:
            successes += 1
        elif outcome == CRITICAL:
            criticals += 1
    return successes, criticals


@step_kernel
def roll_classified_command(state, n, tables, b, classes, reroll, command):
    """:func:`roll_classified` with a Command Re-roll in hand (``command`` not 0): the first
    die that fails and was not re-rolled already is rolled again. Returns (successes,
    criticals, ``command``, or 0 once the re-roll is spent)."""
    successes = 0
    criticals = 0
    for _ in range(n):
        face = d6(state)
        if tables[b, reroll, face]:
            face = d6(state)
        elif command and tables[b, classes, face] != SUCCESS and \
                tables[b, classes, face] != CRITICAL:
            face = d6(state)
            command = 0
        outcome = tables[b, classes, face]
        if outcome == SUCCESS:
            successes += 1
        elif outcome == CRITICAL:
            criticals += 1
    return successes, criticals, command


@inline_kernel
def draw_from_cdf(state, cdfs, b, table, row, n):
    """Draw k in 0..n with P(<= k) = ``cdfs[b, table, row, k]`` (one uniform draw)."""
    u = uniform(state)
    k = 0
    while k < n and u >= cdfs[b, table, row, k]:
        k += 1
    return k


@inline_kernel
def binomial_at(state, cdfs, b, table, n):
    """Draw Binomial(n, p) from ``cdfs[b, table, n]`` (see :mod:`mathhammer.core.sampling`)."""
    return draw_from_cdf(state, cdfs, b, table, n, n)


@inline_kernel
def count_outcomes(state, n, cdfs, b, crit_table, rest_table):
    """(successes, criticals) among ``n`` dice, sampled as counts: criticals first, then
    ordinary successes among the other dice."""
    criticals = binomial_at(state, cdfs, b, crit_table, n)
    successes = binomial_at(state, cdfs, b, rest_table, n - criticals)
    return successes, criticals


# The same three draws with a guide table (mathhammer.core.sampling.guide_tables) and the
# CDF as integer thresholds (sampling.draw_thresholds): the same k from the same step of the
# stream, the search started where the guide says. The 40k Monte Carlo kernel uses them (a
# heavy-bolter trial 44 -> 20 ns). The scenario kernel keeps the search from 0: with guides
# its example compiled 6% longer cold and ran no faster (benchmarks/RESULTS.md).
@inline_kernel
def draw_guided(state, thresholds, guides, b, table, row, n):
    """:func:`draw_from_cdf` on the integer thresholds of the CDF, its search started at
    ``guides[b, table, row]``'s entry for the draw's slice."""
    bits = draw_bits(state)
    k = min(np.int64(guides[b, table, row, bits >> GUIDE_SHIFT]), n)
    while k < n and bits >= thresholds[b, table, row, k]:
        k += 1
    return k


@inline_kernel
def binomial_guided(state, thresholds, guides, b, table, n):
    """:func:`binomial_at` with the integer thresholds and guide table."""
    return draw_guided(state, thresholds, guides, b, table, n, n)


@inline_kernel
def count_guided(state, n, thresholds, guides, b, crit_table, rest_table):
    """:func:`count_outcomes` with the integer thresholds and guide table."""
    criticals = binomial_guided(state, thresholds, guides, b, crit_table, n)
    successes = binomial_guided(state, thresholds, guides, b, rest_table, n - criticals)
    return successes, criticals


@inline_kernel
def roll_with_lowest_die_again(state, count, sides, constant, below):
    """Roll ``count``D``sides`` + ``constant``; when the total is below ``below``, roll its
    lowest die again (a Command Re-roll picks one die of several, 15.02). Returns (total,
    whether a die was rolled again)."""
    total = constant
    lowest = sides
    for _ in range(count):
        value = roll_dice(state, np.int64(1), sides, np.int64(0))
        total += value
        lowest = min(lowest, value)
    if total < below:
        return total + roll_dice(state, np.int64(1), sides, np.int64(0)) - lowest, True
    return total, False
