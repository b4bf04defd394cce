"""Exact engine for Dust Tactics, in rational arithmetic (``exact_engine``, so the name
``mathhammer.dust.exact`` stays the public function).

It reads the same compiled rows as the Monte Carlo kernels. Within one declared weapon all
dice are independent and identical, so the engine builds the pmf of what *one* die yields
(hits after rerolls and phaser or laser expansion, then binomial thinning by evade, cover
and Damage Resilient) and raises it to the n-th convolution power; weapons aimed at the same
target are convolved. Every probability is a :class:`fractions.Fraction`.

What it cannot do it says, with :class:`~mathhammer.errors.UnsupportedError`: unbounded
laser chains (infinite support) and the ``random`` casualty policy in multi-round exchanges.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from mathhammer.dust.compile import (
    COVER, DAMAGE, DEPTH, DR, EVADE, KIND, LASER, PER_POINT, PHASER, REROLL, SUB_N,
    SUB_REROLL, SUB_THR, TARGET, THR, CompiledPlan,
)
from mathhammer.errors import UnsupportedError

Pmf = tuple[Fraction, ...]
_ONE: Pmf = (Fraction(1),)


def convolve(a: Pmf, b: Pmf) -> Pmf:
    """Pmf of the sum of two independent non-negative integer variables."""
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        if pa:
            for j, pb in enumerate(b):
                if pb:
                    out[i + j] += pa * pb
    return tuple(out)


def power(pmf: Pmf, n: int) -> Pmf:
    """Pmf of the sum of ``n`` independent copies (binary exponentiation)."""
    result, base = _ONE, pmf
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def thin(pmf: Pmf, keep: Fraction) -> Pmf:
    """Binomial thinning: each unit survives independently with probability ``keep``."""
    if keep == 1:
        return pmf
    out = [Fraction(0)] * len(pmf)
    lose = 1 - keep
    for k, p in enumerate(pmf):
        if p:
            for j in range(k + 1):
                out[j] += p * comb(k, j) * keep ** j * lose ** (k - j)
    return tuple(out)


def scale(pmf: Pmf, factor: int) -> Pmf:
    """Pmf of ``factor * X``."""
    if factor == 1:
        return pmf
    out = [Fraction(0)] * ((len(pmf) - 1) * factor + 1)
    for k, p in enumerate(pmf):
        out[k * factor] += p
    return tuple(out)


def binomial(n: int, p: Fraction) -> Pmf:
    return tuple(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def _success(faces: int, reroll: bool) -> Fraction:
    p = Fraction(faces, 6)
    return p + (1 - p) * p if reroll else p


@lru_cache(maxsize=4096)
def die_pmfs(row: tuple[int, ...]) -> tuple[Pmf, Pmf, Pmf]:
    """(hits, damage before saves, damage after saves) of ONE die of a compiled row."""
    q = _success(row[THR], bool(row[REROLL]))
    kind = row[KIND]
    if kind == PHASER:
        sub = binomial(row[SUB_N], Fraction(row[SUB_THR], 6))
        hits = tuple(q * p for p in sub)
        hits = (hits[0] + 1 - q,) + hits[1:]
    elif kind == LASER:
        depth = row[DEPTH]
        if depth < 0:
            raise UnsupportedError("the exact engine cannot follow unbounded laser chains "
                                   "(laser_chain_depth=None has infinite support); give a "
                                   "finite depth or use the Monte Carlo engine")
        pe = _success(row[SUB_THR], bool(row[SUB_REROLL]))
        chain = [pe ** k * (1 - pe) for k in range(depth)] + [pe ** depth]
        hits = (1 - q,) + tuple(q * c for c in chain)
    else:
        hits = (1 - q, q)
    damage = row[DAMAGE]
    raw = scale(hits, damage)
    kept = thin(hits, Fraction(6 - row[EVADE], 6))
    cover_keep = Fraction(6 - row[COVER], 6)
    if row[PER_POINT]:
        points = thin(scale(kept, damage), cover_keep)
    else:
        points = scale(thin(kept, cover_keep), damage)
    points = thin(points, Fraction(6 - row[DR], 6))
    return hits, raw, points


@lru_cache(maxsize=4096)
def row_pmfs(row: tuple[int, ...], n_dice: int) -> tuple[Pmf, Pmf, Pmf]:
    """(hits, damage before saves, damage after saves) of ``n_dice`` dice of a row."""
    return tuple(power(p, n_dice) for p in die_pmfs(row))  # type: ignore[return-value]


def plan_pmfs(plan: CompiledPlan) -> list[dict[str, Pmf]]:
    """Per target: exact pmfs of ``hits``, ``damage_before_saves`` and ``damage``."""
    out = [{"hits": _ONE, "damage_before_saves": _ONE, "damage": _ONE} for _ in plan.targets]
    for row in plan.rows:
        key = tuple(int(v) for v in row)
        hits, raw, dmg = row_pmfs(key, key[0])
        acc = out[key[TARGET]]
        acc["hits"] = convolve(acc["hits"], hits)
        acc["damage_before_saves"] = convolve(acc["damage_before_saves"], raw)
        acc["damage"] = convolve(acc["damage"], dmg)
    return out


def volley_pmf(rows: np.ndarray, dice: tuple[int, ...]) -> Pmf:
    """Damage pmf of a volley: row ``r`` rolls ``dice[r]`` dice."""
    total = _ONE
    for row, n in zip(rows, dice):
        if n > 0:
            total = convolve(total, row_pmfs(tuple(int(v) for v in row), n)[2])
    return total


def to_float(pmf: Pmf) -> np.ndarray:
    return np.array([float(p) for p in pmf], dtype=np.float64)
