"""Exact laws of single rolls: one attack roll, one damage roll, rerolls.

A single attack or damage roll is solved by enumerating all ``6**n`` outcomes of its dice
(``n <= MAX_ATTACK_DICE``); a damage roll of dice not dropped is a convolution. The chain
of :mod:`mathhammer.warmachine.exact_engine` asks these for every attack row and model state.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from mathhammer.core.inputs import whole_number
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.warmachine.compile import (
    R_AP, R_ATK_DROP, R_ATK_N, R_AUTO_HIT, R_AUTO_MISS, R_BLAST_POW, R_CRIT_AP, R_CRIT_DICE,
    R_CRIT_MULT, R_DMG_DROP, R_DMG_N, R_DREROLL_BELOW, R_DREROLL_N, R_MELEE, R_POW,
    R_REROLL_MODE, R_REROLL_N, R_STAT, RU_ALL_ONES, RU_ROLL_VS_AUTO, RU_SPECIAL_KEPT,
    RU_STAT_DEF)
from mathhammer.warmachine.profiles import ceil_half

#: Most dice one attack roll may hold (every one of the 6**n rolls is enumerated: 6**8 is
#: 1.7 million; real attacks roll 2 to 4).
MAX_ATTACK_DICE = 8


@lru_cache(maxsize=16)
def _sorted_faces(n: int) -> np.ndarray:
    faces = np.array(list(itertools.product(range(1, 7), repeat=n)), dtype=np.int8)
    return np.sort(faces.reshape(-1, n), axis=1)


@lru_cache(maxsize=4096)
def attack_roll_counts(n: int, drop: int, need: int, all_ones_miss: bool = True,
                       special_on_kept_dice: bool = True) -> tuple[int, int, int]:
    """Count the outcomes of an ``n``-dice attack roll that miss, hit, and crit.

    Parameters
    ----------
    n, drop
        Dice rolled and lowest dice discarded.
    need
        ``DEF - stat``: the kept dice must sum to at least this.
    all_ones_miss, special_on_kept_dice
        Rule switches (see :class:`~mathhammer.warmachine.profiles.Rules`).

    Returns
    -------
    tuple of int
        ``(misses, hits without a critical, critical hits)``, summing to ``6**n``
        (``(1, 0, 0)`` when no die is kept: an automatic miss).

    Examples
    --------
    >>> attack_roll_counts(2, 0, 7)
    (15, 18, 3)
    """
    n = whole_number(n, "dice rolled (n)", 0, MAX_ATTACK_DICE)
    drop = whole_number(drop, "dice dropped (drop)", 0, MAX_ATTACK_DICE)
    need = whole_number(need, "need (DEF - stat)", -MAX_NUMBER, MAX_NUMBER)
    kept_n = n - drop
    if n <= 0 or kept_n <= 0:
        return (1, 0, 0)
    faces = _sorted_faces(n)
    kept = faces[:, drop:]
    checked = kept if special_on_kept_dice else faces
    ones = (checked == 1).all(axis=1) if all_ones_miss else np.zeros(len(faces), bool)
    sixes = (checked == 6).all(axis=1) & (kept_n >= 2)
    hit = ~ones & (sixes | (kept.sum(axis=1, dtype=np.int64) >= need))
    if kept_n >= 2:
        pair = (np.diff(kept, axis=1) == 0).any(axis=1)
    else:
        pair = np.zeros(len(faces), bool)
    crit = hit & pair
    n_hit, n_crit = int(hit.sum()), int(crit.sum())
    return (len(faces) - n_hit, n_hit - n_crit, n_crit)


def reroll(base: np.ndarray, rerollable: np.ndarray, times: int) -> np.ndarray:
    """Outcome probabilities when an outcome in ``rerollable`` is rolled again, ``times`` times.

    The reroll replaces the earlier result completely (rules section 4).
    """
    result = base.copy()
    keep = np.where(rerollable, 0.0, base)
    again = float(base[rerollable].sum())
    for _ in range(times):
        result = keep + again * result
    return result


@lru_cache(maxsize=1024)
def _kept_sum(n: int, drop: int) -> tuple[float, ...]:
    if n <= 0 or n - drop <= 0:
        return (1.0,)
    if drop == 0:
        pmf = np.array([1.0])
        for _ in range(n):
            pmf = np.convolve(pmf, np.r_[0.0, np.full(6, 1 / 6)])
        return tuple(pmf)
    sums = _sorted_faces(n)[:, drop:].sum(axis=1, dtype=np.int64)
    return tuple(np.bincount(sums) / len(sums))


def kept_sum_pmf(n: int, drop: int = 0) -> np.ndarray:
    """P(sum of the kept dice == s) for ``n`` d6 with the ``drop`` lowest discarded."""
    return np.array(_kept_sum(n, drop))


@lru_cache(maxsize=8192)
def _damage(n: int, drop: int, pow_: int, arm: int, mult: int, below: int, times: int
            ) -> tuple[float, ...]:
    sums = kept_sum_pmf(n, drop)
    values = np.maximum(0, np.arange(len(sums)) + pow_ - arm) * mult
    pmf = np.bincount(values, weights=sums)
    if below > 0:
        pmf = reroll(pmf, np.arange(len(pmf)) < below, times)
    return tuple(pmf)


def damage_pmf(n: int, drop: int, pow_: int, arm: int, multiplier: int = 1,
               reroll_below: int = 0, rerolls: int = 1) -> np.ndarray:
    """P(damage == d) for ``max(0, kept dice + POW - ARM) * multiplier``.

    A roll left with no kept die deals ``max(0, POW - ARM)`` (``zero_damage_dice``,
    UNCERTAIN). A roll dealing fewer than ``reroll_below`` is rolled again, ``rerolls`` times.

    Examples
    --------
    >>> round(float(damage_pmf(2, 0, 10, 12) @ range(11)), 4)
    5.0
    """
    return np.array(_damage(n, drop, pow_, arm, multiplier, reroll_below, rerolls))


def hit_crit(row: np.ndarray, defense: int, knocked_down: bool, stationary: bool,
             rules: np.ndarray) -> np.ndarray:
    """``[P(miss), P(hit, no crit), P(crit)]`` of one attack row against one model state."""
    if row[R_AUTO_MISS]:
        return np.array([1.0, 0.0, 0.0])
    n, drop = int(row[R_ATK_N]), int(row[R_ATK_DROP])
    if n <= 0 or n - drop <= 0:
        return np.array([1.0, 0.0, 0.0])
    low = bool(knocked_down or stationary)
    if (row[R_AUTO_HIT] or (row[R_MELEE] and low)) and not rules[RU_ROLL_VS_AUTO]:
        return np.array([0.0, 1.0, 0.0])
    need = int((rules[RU_STAT_DEF] if low else defense) - row[R_STAT])
    need = min(max(need, -1), 6 * n + 1)
    counts = attack_roll_counts(n, drop, need, bool(rules[RU_ALL_ONES]),
                                bool(rules[RU_SPECIAL_KEPT]))
    base = np.array(counts, dtype=np.float64) / sum(counts)
    mode = int(row[R_REROLL_MODE])
    if mode == 0:
        return base
    rerollable = np.array([True, mode == 2, False])
    return reroll(base, rerollable, int(row[R_REROLL_N]))


def row_damage_pmf(row: np.ndarray, armor: int, crit: bool, direct: bool, boosted: bool
                   ) -> np.ndarray:
    """Damage pmf of one attack row against one model (direct or blast, crit or not)."""
    if row[R_AP] or (crit and row[R_CRIT_AP]):
        armor = ceil_half(armor)
    n = int(row[R_DMG_N]) + int(boosted) + (int(row[R_CRIT_DICE]) if crit else 0)
    pow_ = int(row[R_POW] if direct else row[R_BLAST_POW])
    mult = int(row[R_CRIT_MULT]) if crit else 1
    return damage_pmf(n, int(row[R_DMG_DROP]), pow_, int(armor), mult,
                      int(row[R_DREROLL_BELOW]), int(row[R_DREROLL_N]))
