"""Baseline 1: the dice-rolling floor.

A numba kernel that, per trial, rolls the number of D6 the scenario needs on average
(:meth:`benchmarks.scenarios.Scenario.d6_per_trial`, formula documented there) one die at a
time and sums them into an in-kernel histogram, parallel over a fixed number of chunks seeded
from one ``SeedSequence(seed).generate_state`` call exactly like the engine. It makes no game
decision at all, so no simulation that rolls that scenario's dice one at a time can be faster.

A fractional dice count is honoured exactly over a chunk: trial ``t`` rolls
``floor((t+1)m) - floor(tm)`` dice (integer Bresenham steps on ``m`` in units of 2**-20).

Generator variants (all keep the generator state in local variables, not in an array):

``divmod22``
    xoshiro256** with mathhammer's own extraction: a draw below ``140 * 6**22`` gives 22
    exactly uniform faces by ``% 6`` and ``// 6`` (the engine's generator, for reference).
``mulshift10``
    xoshiro256++; each 64-bit draw is read as a fraction ``f`` and gives 10 faces by
    multiply-shift (face = floor(6f), f = frac(6f), the high word of the 128-bit product
    assembled from two 32-bit halves). Not exact in law: a 10-face pattern has probability
    within a relative 6**10 / 2**64 < 4e-12 of 6**-10.
``mulshift32x4``
    xoshiro256++; each 32-bit half gives 4 faces by 32-bit multiply-shift. Relative bias of
    a 4-face pattern below 6**4 / 2**32 < 3.1e-7.

:data:`FASTEST` names the variant the benchmark uses as "the floor" (the fastest measured on
this machine; ``benchmarks/run.py`` re-measures all of them every run and prints them).
"""

from __future__ import annotations

import math

import numba
import numpy as np

# cache=True: the floor must not pay its JIT cost inside the timed region more than the
# engine does (the engine also caches). Kept out of mathhammer.core.jit on purpose: the
# baselines depend on nothing in the package.
_JIT = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}

U = np.uint64
_LIMIT22 = np.uint64(140 * 6**22)
_MASK32 = np.uint64(0xFFFFFFFF)
_SIX = np.uint64(6)
_FRAC_BITS = 20
_FRAC_ONE = 1 << _FRAC_BITS

VARIANTS = ("divmod22", "mulshift10", "mulshift32x4")
FASTEST = "mulshift10"
CHUNKS = 64


@numba.njit(inline="always", **_JIT)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@numba.njit(inline="always", **_JIT)
def _next_ss(s0, s1, s2, s3):
    """xoshiro256**: (output, new state)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@numba.njit(inline="always", **_JIT)
def _next_pp(s0, s1, s2, s3):
    """xoshiro256++: (output, new state)."""
    result = _rotl(s0 + s3, 23) + s0
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@numba.njit(parallel=True, **_JIT)
def _floor_divmod22(states, trials_per_chunk, step, hist):
    for c in numba.prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        buf = np.uint64(0)
        left = 0
        acc = 0
        for _ in range(trials_per_chunk[c]):
            acc += step
            n = acc >> _FRAC_BITS
            acc -= n << _FRAC_BITS
            total = 0
            for _ in range(n):
                if left == 0:
                    x, s0, s1, s2, s3 = _next_ss(s0, s1, s2, s3)
                    while x >= _LIMIT22:
                        x, s0, s1, s2, s3 = _next_ss(s0, s1, s2, s3)
                    buf = x
                    left = 22
                total += np.int64(buf % _SIX) + 1
                buf = buf // _SIX
                left -= 1
            hist[c, total] += 1
        states[c, 0], states[c, 1], states[c, 2], states[c, 3] = s0, s1, s2, s3


@numba.njit(parallel=True, **_JIT)
def _floor_mulshift10(states, trials_per_chunk, step, hist):
    for c in numba.prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        frac = np.uint64(0)
        left = 0
        acc = 0
        for _ in range(trials_per_chunk[c]):
            acc += step
            n = acc >> _FRAC_BITS
            acc -= n << _FRAC_BITS
            total = 0
            for _ in range(n):
                if left == 0:
                    frac, s0, s1, s2, s3 = _next_pp(s0, s1, s2, s3)
                    left = 10
                # floor(6 * frac / 2**64): high word of the 128-bit product.
                high = ((frac >> np.uint64(32)) * _SIX
                        + (((frac & _MASK32) * _SIX) >> np.uint64(32))) >> np.uint64(32)
                frac = frac * _SIX  # wraps: the fractional part of 6f
                total += np.int64(high) + 1
                left -= 1
            hist[c, total] += 1
        states[c, 0], states[c, 1], states[c, 2], states[c, 3] = s0, s1, s2, s3


@numba.njit(parallel=True, **_JIT)
def _floor_mulshift32x4(states, trials_per_chunk, step, hist):
    for c in numba.prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        word = np.uint64(0)
        spare = np.uint64(0)
        have_spare = False
        left = 0
        acc = 0
        for _ in range(trials_per_chunk[c]):
            acc += step
            n = acc >> _FRAC_BITS
            acc -= n << _FRAC_BITS
            total = 0
            for _ in range(n):
                if left == 0:
                    if have_spare:
                        word = spare
                        have_spare = False
                    else:
                        x, s0, s1, s2, s3 = _next_pp(s0, s1, s2, s3)
                        word = x >> np.uint64(32)
                        spare = x & _MASK32
                        have_spare = True
                    left = 4
                product = word * _SIX
                total += np.int64(product >> np.uint64(32)) + 1
                word = product & _MASK32
                left -= 1
            hist[c, total] += 1
        states[c, 0], states[c, 1], states[c, 2], states[c, 3] = s0, s1, s2, s3


_KERNELS = {"divmod22": _floor_divmod22, "mulshift10": _floor_mulshift10,
            "mulshift32x4": _floor_mulshift32x4}


def seed_states(seed: int, chunks: int = CHUNKS) -> np.ndarray:
    """xoshiro256 states for ``chunks`` chunks, seeded exactly like the engine's streams
    (one ``SeedSequence(seed).generate_state`` call)."""
    states = np.random.SeedSequence(seed).generate_state(4 * chunks, np.uint64)
    states = states.reshape(chunks, 4)
    for i in np.flatnonzero(~states.any(axis=1)):
        states[i, 0] = 1
    return states


def roll_floor(dice_per_trial: float, trials: int, seed: int = 1, variant: str = FASTEST,
               chunks: int = CHUNKS) -> np.ndarray:
    """Roll ``dice_per_trial`` D6 per trial (on average) and return the histogram of sums.

    Returns
    -------
    numpy.ndarray
        ``hist[s]``: trials whose dice summed to ``s``.
    """
    if variant not in _KERNELS:
        raise ValueError(f"unknown variant {variant!r}; one of {VARIANTS}")
    step = int(round(dice_per_trial * _FRAC_ONE))
    states = seed_states(seed, chunks)
    per_chunk = np.full(chunks, trials // chunks, dtype=np.int64)
    per_chunk[: trials % chunks] += 1
    max_dice = math.ceil(step / _FRAC_ONE)
    hist = np.zeros((chunks, 6 * max_dice + 1), dtype=np.int64)
    _KERNELS[variant](states, per_chunk, step, hist)
    return hist.sum(axis=0)


def dice_rolled(dice_per_trial: float, trials: int, chunks: int = CHUNKS) -> int:
    """How many D6 :func:`roll_floor` rolls in all for ``trials`` trials."""
    step = int(round(dice_per_trial * _FRAC_ONE))
    per_chunk = np.full(chunks, trials // chunks, dtype=np.int64)
    per_chunk[: trials % chunks] += 1
    return int(sum((int(n) * step) >> _FRAC_BITS for n in per_chunk))


def check_floor(hist: np.ndarray, dice_per_trial: float, trials: int) -> float:
    """z-score of the mean D6 face (should be 3.5): the floor's only answer to check."""
    values = np.arange(len(hist))
    total = float((hist * values).sum())
    dice = dice_rolled(dice_per_trial, trials)
    # Each die is independent with variance 35/12.
    return (total - 3.5 * dice) / math.sqrt(35 / 12 * dice)
