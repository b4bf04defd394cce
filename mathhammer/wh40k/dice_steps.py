"""Dice steps shared by the 40k kernels: one roll of a pool, die by die or as counts.

They take whole tables plus indices rather than slices: slicing an array inside a hot loop
creates a view whose reference counting costs more than the dice.
"""

from __future__ import annotations

from mathhammer.core.jit import kernel
from mathhammer.core.rng import d6, roll_dice, uniform
from mathhammer.wh40k.compile import (
    AUTO_HIT,
    CRITICAL,
    DEVASTATING,
    EXTRA_CRIT,
    LETHAL,
    SUCCESS,
    SUS_CONST,
    SUS_COUNT,
    SUS_SIDES,
)


@kernel
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


@kernel
def binomial_at(state, cdfs, b, table, n):
    """Draw Binomial(n, p) from ``cdfs[b, table, n]`` (see :mod:`mathhammer.core.sampling`)."""
    u = uniform(state)
    k = 0
    while k < n and u >= cdfs[b, table, n, k]:
        k += 1
    return k


@kernel
def count_outcomes(state, n, cdfs, b, crit_table, rest_table):
    """(successes, criticals) among ``n`` dice, sampled as counts: criticals first, then
    ordinary successes among the other dice."""
    criticals = binomial_at(state, cdfs, b, crit_table, n)
    successes = binomial_at(state, cdfs, b, rest_table, n - criticals)
    return successes, criticals


@kernel
def hit_and_wound(state, dice, batch, b, hit_tables, hit_class, hit_reroll, hit_cdfs,
                  crit_hits, hits_of_rest, wound_tables, wound_class, wound_reroll, wound_cdfs,
                  crit_wounds, wounds_of_rest, use_counts):
    """Hit and wound rolls of batch ``b`` (05.01-05.02) for ``dice`` attack dice.

    [TORRENT], [SUSTAINED HITS] (X rolled per critical hit), [LETHAL HITS] (automatic
    wounds, not critical) and [DEVASTATING WOUNDS] (critical wounds leave the sequence) are
    settled here. Tables are given as arrays plus row indices; pools that fit the CDF tables
    are sampled as counts when ``use_counts``. Returns (wounds that go to the save step,
    devastating critical wounds).
    """
    limit = hit_cdfs.shape[2] - 1
    if batch[b, AUTO_HIT]:
        hits = dice
        crits = 0
    elif use_counts and dice <= limit:
        hits, crits = count_outcomes(state, dice, hit_cdfs, b, crit_hits, hits_of_rest)
    else:
        hits, crits = roll_classified(state, dice, hit_tables, b, hit_class, hit_reroll)
    extra = 0
    if batch[b, SUS_COUNT] > 0 or batch[b, SUS_CONST] > 0:
        for _ in range(crits):
            extra += roll_dice(state, batch[b, SUS_COUNT], batch[b, SUS_SIDES],
                               batch[b, SUS_CONST])
    auto_wounds = 0
    if batch[b, LETHAL]:
        auto_wounds = crits
        if batch[b, EXTRA_CRIT]:
            auto_wounds += extra
            extra = 0
        crits = 0
    to_wound = hits + extra + crits
    if use_counts and to_wound <= limit:
        wounds, crit_wounds_n = count_outcomes(state, to_wound, wound_cdfs, b, crit_wounds,
                                               wounds_of_rest)
    else:
        wounds, crit_wounds_n = roll_classified(state, to_wound, wound_tables, b, wound_class,
                                                wound_reroll)
    devastating = crit_wounds_n if batch[b, DEVASTATING] else 0
    return wounds + crit_wounds_n - devastating + auto_wounds, devastating
