"""Laws of the dice a 40k plan rolls: dice expressions, re-rolled rolls, attack dice,
Damage rolls and per-face outcome probabilities (exact pmfs, numpy only)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mathhammer.core.dice import DiceExpr
from mathhammer.errors import OptionError
from mathhammer.wh40k.plan_columns import (
    A_CONST, A_COUNT, A_REROLL_BELOW, A_SIDES, BONUS_COUNT, BONUS_DICE, BONUS_SIDES, N_WEAPONS,
    RF_CONST, RF_COUNT, RF_SIDES
)
from mathhammer.wh40k.profiles import Weapon


def max_attack_dice(row: np.ndarray | list[int]) -> int:
    """Most attack dice a batch row can gather (every A and [RAPID FIRE] die at its top)."""
    if isinstance(row, np.ndarray):
        row = row.tolist()   # Python ints: numpy scalar arithmetic is slower
    per_weapon = (row[A_COUNT] * row[A_SIDES] + row[A_CONST] + row[BONUS_DICE]
                  + row[BONUS_COUNT] * row[BONUS_SIDES]
                  + row[RF_COUNT] * row[RF_SIDES] + row[RF_CONST])
    return int(row[N_WEAPONS] * per_weapon)


def dice_pmf(count: int, sides: int, constant: int) -> np.ndarray:
    """Dense pmf of a dice expression, indexed by value."""
    if count == 0 and sides == 0:
        pmf = np.zeros(constant + 1)
        pmf[constant] = 1.0
        return pmf
    if count == 1:   # one die: each face 1/sides (the same floats as the fractions give)
        pmf = np.zeros(constant + sides + 1)
        pmf[constant + 1 :] = 1.0 / sides
        return pmf
    return np.array(DiceExpr(count, sides, constant).probabilities())


def reroll_below(dice: DiceExpr, policy: str) -> int:
    """Results of ``dice`` below this are re-rolled under a Damage or Attacks re-roll
    ``policy`` (0: none). ``ones``: the lowest result (every die a 1); ``low``: a result
    below the expression's average (1-3 on a D6, 2-6 on 2D6).

    >>> reroll_below(DiceExpr.parse("D6+1"), "low"), reroll_below(DiceExpr.parse("D3"), "ones")
    (5, 2)
    """
    if policy == "none" or not dice.is_random:
        return 0
    if policy == "ones":
        return dice.minimum + 1
    # ceil(mean) in integers: a die's mean is (sides + 1) / 2 (2 for a D3)
    return dice.constant + (dice.count * (dice.sides + 1) + 1) // 2


def rerolled_pmf(pmf: np.ndarray, below: int) -> np.ndarray:
    """The law of a roll with law ``pmf`` (indexed by value) re-rolled once when below
    ``below``: the second result stands."""
    if below <= 0:
        return pmf
    out = np.array(pmf, dtype=float)
    p_reroll = float(out[:below].sum())
    out[:below] = 0.0
    return out + p_reroll * np.asarray(pmf, dtype=float)


#: Most values the raw index of a re-rolled Damage roll, or of a Damage roll with a random
#: [MELTA X] (D roll and X roll together), may take: the Monte Carlo kernel keeps a sampling
#: table that size per batch.
MAX_DAMAGE_ROLL_INDEX = 1_000


def check_damage_roll_size(weapon: Weapon, largest_index: int) -> None:
    """Refuse a Damage roll whose raw index (see :func:`raw_damage_pmf`) could not be tabled."""
    if largest_index > MAX_DAMAGE_ROLL_INDEX:
        raise OptionError(f"'{weapon}': its Damage roll with a random [MELTA X] or a Damage "
                          f"re-roll has {largest_index + 1:,} outcomes to table (limit "
                          f"{MAX_DAMAGE_ROLL_INDEX + 1:,}): use smaller dice for D or X")


def raw_damage_pmf(weapon: Weapon, melta: DiceExpr, policy: str) -> np.ndarray:
    """Law of the raw damage index: the D roll (re-rolled under ``policy``); with a random
    [MELTA X], the pair (D roll d, X roll x) as the index ``d + (Dmax + 1) * x``, because
    10e halves D before adding X (a fixed X is added by the damage map instead)."""
    d = weapon.damage
    pmf = rerolled_pmf(dice_pmf(d.count, d.sides, d.constant), reroll_below(d, policy))
    if melta.is_random:
        x_pmf = dice_pmf(melta.count, melta.sides, melta.constant)
        pmf = np.outer(x_pmf, np.pad(pmf, (0, d.maximum + 1 - len(pmf)))).ravel()
    return pmf


def weapon_dice_pmf(row: Sequence[int]) -> np.ndarray:
    """Pmf of one weapon's attack dice: its A (re-rolled below ``A_REROLL_BELOW``), bonus
    and [RAPID FIRE] dice (:func:`attack_dice_pmf` is this to the power ``N_WEAPONS``)."""
    per_weapon = rerolled_pmf(dice_pmf(row[A_COUNT], row[A_SIDES], row[A_CONST]),
                              row[A_REROLL_BELOW])
    if row[BONUS_DICE]:
        per_weapon = np.concatenate([np.zeros(row[BONUS_DICE]), per_weapon])
    if row[BONUS_COUNT]:
        per_weapon = np.convolve(per_weapon, dice_pmf(row[BONUS_COUNT], row[BONUS_SIDES], 0))
    if row[RF_COUNT] or row[RF_CONST]:
        per_weapon = np.convolve(per_weapon, dice_pmf(row[RF_COUNT], row[RF_SIDES],
                                                      row[RF_CONST]))
    return per_weapon


def attack_dice_pmf(row: Sequence[int]) -> np.ndarray:
    """Exact pmf of a batch's total attack dice: every weapon's A (re-rolled below
    ``A_REROLL_BELOW``), bonus and [RAPID FIRE] dice.

    Used by the exact engine and for the Monte Carlo kernel's ``ATTACK_DICE`` tables."""
    per_weapon = weapon_dice_pmf(row)
    total = np.array([1.0])
    for _ in range(row[N_WEAPONS]):
        total = np.convolve(total, per_weapon)
    return total


def face_probabilities(reroll: np.ndarray) -> np.ndarray:
    """P(final face = f) for f = 1..6 (index 0 unused) under a per-face re-roll mask."""
    p_reroll = reroll[1:7].sum() / 6.0
    probs = np.zeros(7)
    for face in range(1, 7):
        probs[face] = (0.0 if reroll[face] else 1.0 / 6.0) + p_reroll / 6.0
    return probs


def outcome_probabilities(classes: np.ndarray, reroll: np.ndarray) -> np.ndarray:
    """P(fail), P(success), P(critical) of one roll under a table and its re-roll mask."""
    faces = face_probabilities(reroll)
    out = np.zeros(3)
    for face in range(1, 7):
        out[classes[face]] += faces[face]
    return out

__all__ = [
    "max_attack_dice", "dice_pmf", "reroll_below", "rerolled_pmf", "MAX_DAMAGE_ROLL_INDEX",
    "check_damage_roll_size", "raw_damage_pmf", "weapon_dice_pmf", "attack_dice_pmf",
    "face_probabilities", "outcome_probabilities"
]
