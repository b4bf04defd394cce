"""The Monte Carlo kernel's sampling tables: binomial CDFs of outcome counts per batch
(:func:`count_tables`) and the exact shortcuts each batch may take (:func:`batch_shortcuts`)."""

from __future__ import annotations

import numpy as np

from mathhammer.wh40k.dice_laws import (
    attack_dice_pmf, face_probabilities, max_attack_dice, outcome_probabilities
)
from mathhammer.wh40k.plan_columns import (
    ATTACK_DICE, AUTO_HIT, A_CONST, A_COUNT, BONUS_COUNT, BONUS_DICE, CHAIN, CHAIN_KILLS,
    CHAIN_SPLIT, CHAIN_SUSTAINED, COUNT_TABLES, CRIT_HITS, CRIT_WOUNDS, DAMAGE_RECIPROCAL,
    DEVASTATING, DEV_OF_DICE, DICE_TABLE, D_CONST, D_COUNT, D_TABLE, FAILED_OF_REST,
    FAILED_SAVES, FIXED_DAMAGE, FIXED_DICE, FNP_COLUMN, FNP_MORTAL_COLUMN, G_WOUNDS,
    HITS_OF_REST, HIT_CLASS, HIT_REROLL, KILL_RECIPROCAL, KILLS_OF_ATTACKS, KILLS_OF_FAILED,
    LETHAL, MORTAL_DAMAGE, NORMAL_DAMAGE, NO_FNP, N_WEAPONS, RF_CONST, RF_COUNT, SAVE_FAILS,
    SAVE_REROLL, SHORTCUT_COLUMNS, SUS_CONST, SUS_COUNT, SUS_SIDES, WOUNDS_OF_REST, WOUND_CLASS,
    WOUND_DICE, WOUND_REROLL
)


def table_size(rows: list[list[int]]) -> int:
    """Largest pool the count tables cover: every batch's most attack dice times
    (1 + most [SUSTAINED HITS] extra hits), at most ``TABLE_LIMIT``."""
    from mathhammer.core.sampling import TABLE_LIMIT

    sizes = [max_attack_dice(row) * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1)
                                     + row[SUS_CONST]) for row in rows]
    return int(min(TABLE_LIMIT, max(sizes + [1])))


def count_tables(rows: list[list[int]], rolls: np.ndarray, saves: np.ndarray,
                 damage_maps: np.ndarray, groups: np.ndarray, shortcuts: np.ndarray,
                 n_max: int) -> np.ndarray:
    """CDF tables so the kernel can sample outcome counts instead of rolling dice.

    Per batch, for one count per roll (``use_counts`` 1): critical hits among n dice,
    ordinary hits among the rest, the same for wound rolls, failed saves against the first
    allocation group, and, for one-wound models hit by fixed damage through Feel No Pain,
    models killed among n failed saves (each kills unless Feel No Pain stops every point of
    its damage). Each die's probabilities come from the same per-face tables (re-rolls
    included) the dice-by-dice path reads.

    Only for the shortcuts a batch takes (``shortcuts``, see :func:`batch_shortcuts`):
    ``DEV_OF_DICE`` and ``FAILED_OF_REST``, mortal wounds among n dice and failed saves among
    the rest (:func:`split_probabilities`; thinning a binomial by independent per-die steps
    is again binomial); ``KILLS_OF_ATTACKS``, models killed among n attack dice; row 0 of
    ``ATTACK_DICE``, the CDF of the batch's total attack dice (:func:`attack_dice_pmf`); row
    0 of ``WOUND_DICE``, the CDF of the wound dice of fixed [SUSTAINED HITS X].
    """
    from mathhammer.core.sampling import binomial_cdf_rows

    def ratio(a: float, rest: float) -> float:
        return a / rest if rest > 1e-15 else 0.0

    def cdf(pmf: np.ndarray) -> np.ndarray:
        return np.minimum(np.cumsum(pmf), 1.0)

    out = np.ones((len(rows), COUNT_TABLES, n_max + 1, n_max + 1))
    for b, row in enumerate(rows):
        _, hit, crit = outcome_probabilities(rolls[b, HIT_CLASS], rolls[b, HIT_REROLL])
        _, wound, crit_wound = outcome_probabilities(rolls[b, WOUND_CLASS],
                                                     rolls[b, WOUND_REROLL])
        faces = face_probabilities(saves[b, 0, SAVE_REROLL])
        failed = float(faces[saves[b, 0, SAVE_FAILS] == 1].sum())
        for index, p in ((CRIT_HITS, crit), (HITS_OF_REST, ratio(hit, 1.0 - crit)),
                         (CRIT_WOUNDS, crit_wound),
                         (WOUNDS_OF_REST, ratio(wound, 1.0 - crit_wound)),
                         (FAILED_SAVES, failed)):
            out[b, index] = binomial_cdf_rows(p, n_max)
        killed = 0.0
        fnp = groups[0, row[FNP_COLUMN]]
        if groups[0, G_WOUNDS] == 1 and row[D_COUNT] == 0 and fnp < NO_FNP:
            damage = int(damage_maps[b, NORMAL_DAMAGE, row[D_CONST]])
            killed = 1.0 - ((NO_FNP - fnp) / 6.0) ** damage
            out[b, KILLS_OF_FAILED] = binomial_cdf_rows(killed, n_max)
        chain = shortcuts[b, CHAIN]
        dev, rest = split_probabilities(row, hit, crit, wound, crit_wound, failed)
        if chain == CHAIN_KILLS:
            out[b, KILLS_OF_ATTACKS] = binomial_cdf_rows(rest * killed, n_max)
        if chain in (CHAIN_SPLIT, CHAIN_SUSTAINED):
            if row[DEVASTATING]:
                out[b, DEV_OF_DICE] = binomial_cdf_rows(dev, n_max)
            out[b, FAILED_OF_REST] = binomial_cdf_rows(ratio(rest, 1.0 - dev), n_max)
        if shortcuts[b, DICE_TABLE]:
            totals = attack_dice_pmf(row)
            out[b, ATTACK_DICE, 0, : len(totals)] = cdf(totals)
        if chain == CHAIN_SUSTAINED:
            # Wound dice per attack die: 0, 1 or 1 + X.
            per_die = np.zeros(2 + row[SUS_CONST])
            per_die[0], per_die[1], per_die[-1] = 1.0 - hit - crit, hit, crit
            wound_dice = np.array([1.0])
            for _ in range(shortcuts[b, FIXED_DICE]):
                wound_dice = np.convolve(wound_dice, per_die)
            out[b, WOUND_DICE, 0, : len(wound_dice)] = cdf(wound_dice)
    return out


def split_probabilities(row: list[int], hit: float, crit: float, wound: float,
                        crit_wound: float, failed: float) -> tuple[float, float]:
    """Per die: P(it becomes a [DEVASTATING WOUNDS] mortal wound), P(it becomes a failed save).

    For ``CHAIN_SPLIT`` and ``CHAIN_KILLS`` the die is an attack die: [LETHAL HITS] turns a
    critical hit into an automatic wound that must be saved (never a critical wound); under
    [TORRENT] it hits automatically. For ``CHAIN_SUSTAINED`` the die is a wound die (hits
    and critical hits already counted), so the hit roll drops out.
    """
    devastating = bool(row[DEVASTATING])
    dev_wound = crit_wound if devastating else 0.0
    saved_wound = wound + (0.0 if devastating else crit_wound)
    if row[SUS_COUNT] or row[SUS_CONST] or row[AUTO_HIT]:
        return dev_wound, saved_wound * failed
    if row[LETHAL]:
        return hit * dev_wound, (crit + hit * saved_wound) * failed
    return (hit + crit) * dev_wound, (hit + crit) * saved_wound * failed


def batch_shortcuts(rows: list[list[int]], groups: np.ndarray, limit: int,
                    damage_maps: np.ndarray, mortals_at_once: bool) -> np.ndarray:
    """Which exact shortcuts the Monte Carlo kernel may take, per batch.

    ``FIXED_DICE``: the batch's attack dice when no A or [RAPID FIRE] characteristic is
    random, else -1. ``DICE_TABLE``: 1 when random attack dice are drawn from the
    ``ATTACK_DICE`` CDF (the total fits the tables). ``CHAIN``, only against one allocation
    group (every save uses the same table, so the order of the save dice cannot matter):

    - ``CHAIN_SPLIT``: no [SUSTAINED HITS]. Each attack die independently becomes a
      [DEVASTATING WOUNDS] mortal wound, a failed save or nothing, so two binomial draws
      replace the hit, wound and save rolls (one draw without [DEVASTATING WOUNDS]).
    - ``CHAIN_KILLS``: the same when no critical hit or wound matters and the target has
      one-wound models, fixed damage and Feel No Pain: models killed is one binomial draw.
    - ``CHAIN_SUSTAINED``: [SUSTAINED HITS X] with X fixed, no [LETHAL HITS], no [TORRENT]
      and fixed attacks: the number of wound dice (0, 1 or 1 + X per attack die) is drawn
      from its exact distribution, then the wound dice split as in ``CHAIN_SPLIT``.

    ``FIXED_DAMAGE``, also only against one group: the damage of each failed save and each
    [DEVASTATING WOUNDS] mortal wound when it is one number for both and no Feel No Pain
    can stop either, the mortal wounds inflicted as they come, at most one model each (not
    held to the end of the attacks, not spilling: ``mortals_at_once``); else 0. Then every
    one of them does the same to the model it reaches, in any order, and the kernel
    allocates them all in one step (a thunder-hammer trial 39 -> 25 ns).
    ``DAMAGE_RECIPROCAL`` and ``KILL_RECIPROCAL``, when that damage is below the group's W
    and W plus the damage is below ``2**16``: ``ceil(2**32 / damage)`` and ``ceil(2**32 /
    ceil(W / damage))``, with which the kernel multiplies instead of dividing; else 0.
    """
    out = np.zeros((len(rows), SHORTCUT_COLUMNS), dtype=np.int64)
    one_group = groups.shape[0] == 1
    for b, row in enumerate(rows):
        random_dice = row[A_COUNT] > 0 or row[RF_COUNT] > 0 or row[BONUS_COUNT] > 0
        out[b, FIXED_DICE] = -1 if random_dice else row[N_WEAPONS] * (
            row[A_CONST] + row[BONUS_DICE] + row[RF_CONST])
        if random_dice:
            out[b, DICE_TABLE] = int(max_attack_dice(row) <= limit)
        if not one_group:
            continue
        damage = _fixed_damage(row, groups, damage_maps[b], mortals_at_once)
        out[b, FIXED_DAMAGE] = damage
        if 0 < damage < groups[0, G_WOUNDS] and groups[0, G_WOUNDS] + damage < 2 ** 16:
            out[b, DAMAGE_RECIPROCAL] = -(-2 ** 32 // damage)
            out[b, KILL_RECIPROCAL] = -(-2 ** 32 // -(-int(groups[0, G_WOUNDS]) // damage))
        sustained = row[SUS_COUNT] > 0 or row[SUS_CONST] > 0
        if not sustained:
            crit_free = not row[LETHAL] and not row[DEVASTATING]
            fnp_kills = (groups[0, G_WOUNDS] == 1 and row[D_COUNT] == 0
                         and groups[0, row[FNP_COLUMN]] < NO_FNP)
            out[b, CHAIN] = CHAIN_KILLS if crit_free and fnp_kills else CHAIN_SPLIT
        elif row[SUS_COUNT] == 0 and not row[LETHAL] and not row[AUTO_HIT]:
            most = (1 + row[SUS_CONST]) * out[b, FIXED_DICE]
            if 0 <= most <= limit:
                out[b, CHAIN] = CHAIN_SUSTAINED
    return out


def _fixed_damage(row: list[int], groups: np.ndarray, damage_map: np.ndarray,
                  mortals_at_once: bool) -> int:
    """``FIXED_DAMAGE`` of one batch against the one group (see :func:`batch_shortcuts`)."""
    if row[D_COUNT] > 0 or row[D_TABLE] or groups[0, row[FNP_COLUMN]] < NO_FNP:
        return 0
    damage = int(damage_map[NORMAL_DAMAGE, row[D_CONST]])
    if row[DEVASTATING] and (not mortals_at_once or groups[0, row[FNP_MORTAL_COLUMN]] < NO_FNP
                             or damage_map[MORTAL_DAMAGE, row[D_CONST]] != damage):
        return 0
    return max(damage, 0)


__all__ = [
    "table_size", "count_tables", "split_probabilities", "batch_shortcuts"
]
