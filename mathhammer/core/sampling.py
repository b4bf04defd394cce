"""Sampling how many dice succeed, instead of rolling them one at a time.

When n dice each succeed independently with the same probability p (after re-rolls), the
number of successes is Binomial(n, p): one uniform draw against a table of the binomial CDF
replaces n dice. The tables are built once per batch at compile time for every n the batch can
need. The law is the binomial law itself; the only approximation is the double-precision
rounding of the CDF entries (relative error below 1e-15), far below anything a Monte Carlo
estimate can see. Every kernel that uses this keeps a dice-by-dice path for cases beyond the
tables, and the tests check one path against the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from mathhammer.core.jit import kernel
from mathhammer.core.rng import uniform

if TYPE_CHECKING:
    import numpy.typing as npt

#: Largest number of dice a table covers; larger pools fall back to rolling dice.
TABLE_LIMIT = 256


def binomial_cdf_rows(p: float, n_max: int) -> np.ndarray:
    """``cdf[n, k] = P(Binomial(n, p) <= k)`` for ``n, k`` in ``0..n_max`` (1 for k >= n).

    Row by row from the previous one (Pascal's rule), then one cumulative sum for the whole
    table: a compile step builds a dozen of these per batch, so no per-row numpy calls.
    """
    p = min(max(float(p), 0.0), 1.0)
    pmf = np.zeros((n_max + 1, n_max + 1))
    pmf[0, 0] = 1.0
    for n in range(1, n_max + 1):
        pmf[n, 1 : n + 1] = pmf[n - 1, :n] * p
        pmf[n, :n] += pmf[n - 1, :n] * (1.0 - p)
    out = np.minimum(np.cumsum(pmf, axis=1), 1.0)
    out[np.triu_indices(n_max + 1)] = 1.0
    return out


@kernel
def sample_binomial(state: npt.NDArray[np.uint64], cdf_row: npt.NDArray[np.float64],
                    n: int) -> int:
    """Draw Binomial(n, p) from row ``n`` of :func:`binomial_cdf_rows` (one uniform draw)."""
    u = uniform(state)
    k = 0
    while k < n and u >= cdf_row[k]:
        k += 1
    return k
