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
#: Slices of [0, 1) a guide table has per CDF row (a power of two: see guide_tables).
GUIDE_BUCKETS = 256
#: Largest start a guide holds (one byte each): a search may start lower, never higher.
GUIDE_MAX = 255
#: Random bits of a uniform draw (:func:`mathhammer.core.rng.uniform` scales them by 2**-53).
DRAW_BITS = 53
#: A draw's bits shifted right by this many are its slice of the guide table.
GUIDE_SHIFT = DRAW_BITS - (GUIDE_BUCKETS.bit_length() - 1)


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


def draw_thresholds(cdfs: np.ndarray) -> np.ndarray:
    """The CDF entries as the integers a draw's random bits are compared with.

    A uniform draw is ``u = m * 2**-53`` for the 53-bit integer ``m`` the generator gives
    (:func:`mathhammer.core.rng.draw_bits`), and ``u >= cdf`` exactly when ``m >=
    ceil(cdf * 2**53)`` (the product is exact: a power of two). A kernel that compares ``m``
    with these thresholds draws the same count as one comparing ``u`` with the CDF, without
    turning ``m`` into a float and back for the guide's slice (``m >> GUIDE_SHIFT``): a
    heavy-bolter trial's two draws 6.5 -> 4.9 ns. A NaN entry, never passed by a float
    comparison, becomes ``2**53``, never reached.

    Returns
    -------
    numpy.ndarray
        ``int64``, the shape of ``cdfs``.

    Examples
    --------
    >>> draw_thresholds(np.array([0.0, 0.5, 1.0, np.nan])).tolist()
    [0, 4503599627370496, 9007199254740992, 9007199254740992]
    """
    scaled = np.ldexp(np.clip(cdfs, 0.0, 1.0), DRAW_BITS)
    return np.ceil(np.where(np.isnan(scaled), 2.0 ** DRAW_BITS, scaled)).astype(np.int64)


def guide_tables(cdfs: np.ndarray) -> np.ndarray:
    """Where a kernel's search of each CDF row may start, per slice of the uniform draw.

    A draw from a row searches for the first ``k`` with ``u < cdf[k]``, one comparison per
    step; for a row whose likely values are 5 to 10 that is most of a cheap trial.
    ``guides[..., j]`` is the number of entries of the row (last axis of ``cdfs``) at most
    ``j / GUIDE_BUCKETS``: the ``k`` that search returns for ``u = j / GUIDE_BUCKETS``. A draw
    ``u`` of the slice ``[j / GUIDE_BUCKETS, (j + 1) / GUIDE_BUCKETS)`` is at least as large,
    so it passes those entries too: searching from ``guides[..., j]`` (``j = int(u *
    GUIDE_BUCKETS)``, exact for a power of two) returns the same ``k`` as searching from 0,
    in one or two comparisons, and the same seed gives the same bits. That holds for
    non-decreasing rows (cumulative sums of non-negative terms, which every builder makes); a
    row that is not gets zeros, searched from 0 as before. Starts above :data:`GUIDE_MAX` are
    stored as it (one byte a start keeps the tables an eighth of the CDFs' size); any start
    no later than the answer finds the same answer.

    The number of slices decides how often a draw's slice holds a CDF entry, so that the
    search takes a step and the branch after it is mispredicted: 256 slices against 64 made
    the rifle squad's and the horde's trials about 20% faster, the heavy bolters' about 10%
    (benchmarks/RESULTS.md).

    Returns
    -------
    numpy.ndarray
        ``uint8[..., GUIDE_BUCKETS]``, the shape of ``cdfs`` but the last axis.

    Examples
    --------
    >>> guide_tables(np.array([0.25, 0.5, 1.0]))[[0, 63, 64, 127, 128, 255]].tolist()
    [0, 0, 1, 1, 2, 2]
    """
    width = cdfs.shape[-1]
    rows = cdfs.reshape(-1, width)
    ordered = np.all(rows[:, 1:] >= rows[:, :-1], axis=1)   # False for a NaN too
    # entry k is at most j / M exactly when ceil(cdf[k] * M) <= j (cdf * M is exact); an
    # unordered row counts every entry past the last slice: zeros
    scaled = np.where(ordered[:, None], rows * GUIDE_BUCKETS, GUIDE_BUCKETS)
    first_slice = np.clip(np.ceil(scaled), 0, GUIDE_BUCKETS).astype(np.int64)
    slots = first_slice + (GUIDE_BUCKETS + 1) * np.arange(rows.shape[0])[:, None]
    counts = np.bincount(slots.ravel(), minlength=rows.shape[0] * (GUIDE_BUCKETS + 1))
    guides = np.cumsum(counts.reshape(-1, GUIDE_BUCKETS + 1), axis=1)[:, :GUIDE_BUCKETS]
    starts = np.minimum(guides, GUIDE_MAX).astype(np.uint8)
    return starts.reshape(*cdfs.shape[:-1], GUIDE_BUCKETS)
