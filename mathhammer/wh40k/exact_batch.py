"""The exact engine for many one-batch cells at once: numpy over cells, no per-cell tables.

:func:`solve_tables` answers cells settled by :func:`~mathhammer.wh40k.exact_cell_tables.
cell_tables` (one weapon line against one unit of identical models) with the method of
:mod:`mathhammer.wh40k.exact`, each step taken for a whole group of cells by one numpy call:

1. hit, wound and save probabilities of every cell at once (from their D6 tables);
2. each attack die's generating function over (u, k) (unsaved ordinary wounds, [DEVASTATING
   WOUNDS] critical wounds), stacked over the cells that share its form (the same
   [SUSTAINED HITS], [LETHAL HITS] and [DEVASTATING WOUNDS] switches) and their attack dice;
   raised to the attack dice (Horner's scheme over one weapon's dice, then squaring for the
   number of weapons) by batched polynomial products (a 2-D table as one polynomial by
   Kronecker substitution, as :mod:`mathhammer.wh40k.exact_tables` does);
3. the Markov chain over wounds lost, stacked over the cells against the same unit size
   (models x W): every cell's one-wound step built at once, the states after u unsaved
   wounds by squaring the steps, then the critical wounds' steps by Horner's scheme.

Only non-negative numbers are multiplied and added (no FFT, no subtraction), as in the
cell-by-cell engine; the pmfs equal :func:`mathhammer.wh40k.exact.solve`'s to rounding
(``tests/wh40k/test_exact_batch.py`` checks 1e-12 on generated grids).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import cast

import numpy as np

from mathhammer.wh40k.compile import (A_CONST, A_COUNT, A_REROLL_BELOW, A_SIDES, AUTO_HIT,
                                      BONUS_COUNT, BONUS_DICE, BONUS_SIDES, DEVASTATING,
                                      EXTRA_CRIT, LETHAL, N_WEAPONS, RF_CONST, RF_COUNT,
                                      RF_SIDES, SUS_CONST, SUS_COUNT, SUS_SIDES,
                                      dice_pmf, max_attack_dice, weapon_dice_pmf)
from mathhammer.wh40k.exact import (MAX_EXACT_DAMAGE, MAX_EXACT_STATES, MAX_EXACT_WORK,
                                    MAX_PENDING_CELLS, hazard_pmf)
from mathhammer.wh40k.exact_cell_tables import CellTables

__all__ = ["MAX_BATCH_HITS", "MAX_BATCH_STATES", "batchable", "dice_law", "solve_tables"]

#: Largest chain (models x W + 1 states) solved in a batch; larger units are solved alone.
MAX_BATCH_STATES = 96
#: Most hits one batch may score to be solved in a batch (its tables stay small).
MAX_BATCH_HITS = 400

_dice_key = itemgetter(N_WEAPONS, A_COUNT, A_SIDES, A_CONST, BONUS_DICE, BONUS_COUNT,
                       BONUS_SIDES, RF_COUNT, RF_SIDES, RF_CONST, A_REROLL_BELOW)


def batchable(cell: CellTables) -> bool:
    """Whether ``cell`` is solved here: within every limit of the exact engine (a cell past
    one is solved alone, which refuses it), small enough, and without [DEVASTATING WOUNDS]
    that spill over (10th-edition launch text)."""
    row = cell.row
    states = cell.models * cell.wounds + 1
    dice = max_attack_dice(cast(np.ndarray, row))
    hits = dice * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST])
    work = dice * (hits + 1) ** 2 + (hits + 1) * states ** 2 + cell.damage_max ** 2
    devastating = bool(row[DEVASTATING])
    return (states <= min(MAX_BATCH_STATES, MAX_EXACT_STATES) and hits <= MAX_BATCH_HITS
            and cell.damage_max <= MAX_EXACT_DAMAGE and work <= MAX_EXACT_WORK
            and not (devastating and cell.spill)
            and not (devastating and cell.at_unit_end
                     and states * (hits + 1) > MAX_PENDING_CELLS))


def solve_tables(cells: Sequence[CellTables]) -> list[tuple[dict[str, np.ndarray],
                                                           dict[str, float]]]:
    """Every cell's exact pmfs and means, in order.

    Parameters
    ----------
    cells
        Cells for which :func:`batchable` holds.

    Returns
    -------
    list
        Per cell, ``(pmfs, means)``: the pmfs of :func:`mathhammer.wh40k.exact.solve`
        (``"damage"``, ``"models_destroyed"``, ``"attacker_mortal_wounds"``) and their means
        as :class:`~mathhammer.core.result.Distribution` computes them.
    """
    out: list = [None] * len(cells)
    buckets: dict[int, list[int]] = {}
    for i, cell in enumerate(cells):
        states = cell.models * cell.wounds + 1
        buckets.setdefault(next(b for b in _BUCKETS if states <= b), []).append(i)
    hazards: dict[tuple[int, int, int], tuple[np.ndarray, float]] = {}
    for size, members in buckets.items():
        group = [cells[i] for i in members]
        units = _Units(group, size)
        p = _roll_probabilities(group)
        step = units.steps([c.normal_damage for c in group], np.array([c.fnp for c in group]))
        critical = np.array([c.row[DEVASTATING] for c in group], dtype=bool)
        if critical.all():
            damage = _critical_chain(group, units, p, step)
        elif not critical.any():
            damage = _ordinary_chain(group, p, step)
        else:
            damage = np.empty((len(group), size))
            plain, held = np.flatnonzero(~critical), np.flatnonzero(critical)
            damage[plain] = _ordinary_chain([group[j] for j in plain],
                                            {k: v[plain] for k, v in p.items()}, step[plain])
            damage[held] = _critical_chain([group[j] for j in held], units.subset(held),
                                           {k: v[held] for k, v in p.items()}, step[held])
        for i, answer in zip(members, _answers(group, units, damage, hazards)):
            out[i] = answer
    return out


#: Chains are stacked padded to the first of these that holds them (fewer numpy calls; a
#: padded state is never reached).
_BUCKETS = (16, 32, 64, MAX_BATCH_STATES)


class _Units:
    """The units (models x W) of a stack of cells padded to ``size`` states: which cells
    face each, and where its one-allocation steps go in a ``[size, size]`` Markov matrix."""

    def __init__(self, group: Sequence[CellTables], size: int) -> None:
        self.size = size
        self.members: dict[tuple[int, int], list[int]] = {}
        for j, cell in enumerate(group):
            self.members.setdefault((cell.models, cell.wounds), []).append(j)
        self.w_most = max(w for _, w in self.members)
        self.places = {}
        for (models, wounds) in self.members:
            # state s (below the last) has W - s % W wounds left; it moves by j <= that
            left = wounds - np.arange(models * wounds) % wounds
            rows, step = np.nonzero(np.arange(wounds + 1)[None, :] <= left[:, None])
            self.places[(models, wounds)] = (rows, rows + step, left[rows], step)

    def subset(self, index: np.ndarray) -> _Units:
        """These units for the cells ``index`` of the stack only."""
        out = object.__new__(_Units)
        out.size, out.w_most, out.places = self.size, self.w_most, self.places
        position = {int(j): k for k, j in enumerate(index)}
        out.members = {}
        for unit, members in self.members.items():
            kept = [position[j] for j in members if j in position]
            if kept:
                out.members[unit] = kept
        return out

    def steps(self, pmfs: Sequence[list[float]], fnp: np.ndarray) -> np.ndarray:
        """Markov steps ``[cells, size, size]`` over wounds lost of one allocation of damage
        with Feel No Pain (:func:`mathhammer.wh40k.exact_tables.build_transition`, for many
        cells; each padded with states it never reaches)."""
        n, w_most = len(pmfs), self.w_most
        padded = _padded(pmfs, w_most + 1)
        if (fnp < 7).any():
            padded = _binomial_thinning(padded, np.where(fnp < 7, 1.0 - (7 - fnp) / 6.0, 1.0))
        tails = padded[:, ::-1].cumsum(axis=1)[:, ::-1]
        # capped[c, left, j]: a model with `left` wounds left loses j (all when D >= left)
        span = np.arange(w_most + 1)
        capped = padded[:, None, : w_most + 1] * (span[None, :] < span[:, None])
        capped[:, span, span] = tails[:, : w_most + 1]
        matrix = np.zeros((n, self.size, self.size))
        for unit, members in self.members.items():
            rows, cols, left, step = self.places[unit]
            cells = np.array(members)[:, None]
            matrix[cells, rows, cols] = capped[cells, left, step]
            matrix[cells[:, 0], unit[0] * unit[1], unit[0] * unit[1]] = 1.0
        return matrix

    def killed(self, damage: np.ndarray) -> np.ndarray:
        """Pmfs of models destroyed ``[cells, most models + 1]`` from pmfs of wounds lost."""
        most = max(models for models, _ in self.members)
        out = np.zeros((damage.shape[0], most + 1))
        for (models, wounds), members in self.members.items():
            index = np.array(members)
            last = models * wounds
            out[index, :models] = damage[index, :last].reshape(-1, models, wounds).sum(axis=2)
            out[index, models] = damage[index, last]
        return out


def _answers(group: Sequence[CellTables], units: _Units, damage: np.ndarray,
             hazards: dict) -> list:
    """``(pmfs, means)`` per cell from the stacked final pmfs of wounds lost ``damage``."""
    killed = units.killed(damage)
    damage_means, killed_means = _means(damage).tolist(), _means(killed).tolist()
    out = []
    for j, cell in enumerate(group):
        key = (cell.hazard_rolls, cell.hazard_mortals, cell.hazard_fail_max)
        if key not in hazards:
            pmf = hazard_pmf(*key)
            hazards[key] = (pmf, float(_means(pmf[None])[0]))
        hazard, hazard_mean = hazards[key]
        out.append(({"damage": damage[j, : cell.models * cell.wounds + 1],
                     "models_destroyed": killed[j, : cell.models + 1],
                     "attacker_mortal_wounds": hazard},
                    {"damage": damage_means[j], "models_destroyed": killed_means[j],
                     "attacker_mortal_wounds": hazard_mean}))
    return out


def _means(pmfs: np.ndarray) -> np.ndarray:
    """Each row's mean as :class:`~mathhammer.core.result.Distribution` takes it (clipped at
    0, renormalised)."""
    clipped = np.maximum(pmfs, 0.0)
    return (clipped @ np.arange(pmfs.shape[1], dtype=float)) / clipped.sum(axis=1)


# -- hits, wounds and saves ---------------------------------------------------------------------
def _face_probabilities(reroll: np.ndarray) -> np.ndarray:
    """``P(final face = f)`` per row of re-roll masks (``[cells, 7]``, face 0 unused)."""
    again = reroll[:, 1:7].sum(axis=1) / 6.0
    faces = np.where(reroll == 1, 0.0, 1.0 / 6.0) + (again / 6.0)[:, None]
    faces[:, 0] = 0.0
    return faces


def _roll_probabilities(cells: Sequence[CellTables]) -> dict[str, np.ndarray]:
    """Per cell: P(hit fails / hits / is critical), P(wound / critical wound), P(unsaved)."""
    tables = np.array([(c.hit, c.wound, c.save) for c in cells])   # [cells, 3, 2, 7]
    faces = _face_probabilities(tables[:, :, 1].reshape(-1, 7)).reshape(len(cells), 3, 7)
    classes = tables[:, :, 0]
    out = {name: (faces[:, 0] * (classes[:, 0] == code)).sum(axis=1)
           for code, name in enumerate(("fail_hit", "hit", "crit_hit"))}
    auto = np.array([c.row[AUTO_HIT] for c in cells], dtype=bool)
    out["fail_hit"][auto], out["hit"][auto], out["crit_hit"][auto] = 0.0, 1.0, 0.0
    out["wound"] = (faces[:, 1] * (classes[:, 1] == 1)).sum(axis=1)
    out["crit_wound"] = (faces[:, 1] * (classes[:, 1] == 2)).sum(axis=1)
    out["unsaved"] = (faces[:, 2] * (classes[:, 2] == 1)).sum(axis=1)
    return out


# -- one attack die ---------------------------------------------------------------------------
def _times(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row by row product of two stacks of short polynomials ``[cells, coefficients]``."""
    if a.shape[1] < b.shape[1]:
        a, b = b, a
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for i in range(b.shape[1]):
        out[:, i : i + a.shape[1]] += b[:, i, None] * a
    return out


def _padded(rows: Sequence[list[float]], width: int = 0) -> np.ndarray:
    """Lists of different lengths as one array (at least ``width`` wide), padded with
    zeros (in Python: one numpy call)."""
    width = max(width, max(len(r) for r in rows))
    return np.array([r + [0.0] * (width - len(r)) if len(r) < width else r for r in rows])


def _sustained_pmf(row: Sequence[int]) -> list[float]:
    """Pmf of the extra hits of one critical hit ([SUSTAINED HITS X])."""
    count, sides, constant = row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST]
    if count == 0 and sides == 0:
        return [0.0] * constant + [1.0]
    return dice_pmf(count, sides, constant).tolist()


def _ordinary_die(cells: Sequence[CellTables], p: dict[str, np.ndarray]) -> np.ndarray:
    """Pmf ``[cells, u]`` of the unsaved wounds of one attack die without [DEVASTATING
    WOUNDS] (:func:`mathhammer.wh40k.exact_tables.attack_die_gf` with no critical-wound
    column): hit roll, [SUSTAINED HITS] extra hits, [LETHAL HITS] automatic wounds."""
    n = len(cells)
    unsaved = p["unsaved"]
    ordinary = (p["wound"] + p["crit_wound"]) * unsaved
    token = np.stack([np.maximum(1.0 - ordinary, 0.0), ordinary], axis=1)
    auto = np.stack([1.0 - unsaved, unsaved], axis=1)
    lethal = np.array([c.row[LETHAL] for c in cells], dtype=bool)[:, None]
    extra_crit = np.array([c.row[EXTRA_CRIT] for c in cells], dtype=bool)[:, None]
    extra_token = np.where(lethal & extra_crit, auto, token)
    sustained = _padded([_sustained_pmf(c.row) for c in cells])
    extra = sustained[:, -1:]
    for k in range(sustained.shape[1] - 2, -1, -1):   # Horner: sum_k q_k extra_token ** k
        extra = _times(extra, extra_token)
        extra[:, 0] += sustained[:, k]
    crit_part = _times(np.where(lethal, auto, token), extra)
    die = np.zeros((n, crit_part.shape[1]))
    die[:, 0] = p["fail_hit"]
    die[:, :2] += p["hit"][:, None] * token
    die += p["crit_hit"][:, None] * crit_part
    return die


def dice_law(row: Sequence[int]) -> list[float]:
    """Pmf of a batch's attack dice (:func:`~mathhammer.wh40k.dice_laws.attack_dice_pmf`):
    one weapon's law to the power of the weapons, by squaring; a fixed number at once."""
    weapons = int(row[N_WEAPONS])
    if not (row[A_COUNT] or row[A_SIDES] or row[BONUS_COUNT] or row[RF_COUNT] or row[RF_SIDES]):
        total = [0.0] * ((row[A_CONST] + row[BONUS_DICE] + row[RF_CONST]) * weapons + 1)
        total[-1] = 1.0
        return total
    per_weapon = weapon_dice_pmf(row)
    support = np.flatnonzero(per_weapon > 0)
    if len(support) == 1:
        total = [0.0] * (int(support[0]) * weapons + 1)
        total[-1] = float(per_weapon[support[0]]) ** weapons
        return total
    result, base = np.ones(1), per_weapon
    while weapons:
        if weapons & 1:
            result = np.convolve(result, base)
        weapons >>= 1
        if weapons:
            base = np.convolve(base, base)
    return result.tolist()


# -- the wound-allocation chain ---------------------------------------------------------------
def _binomial_thinning(pmfs: np.ndarray, through: np.ndarray) -> np.ndarray:
    """Per row, the pmf of Binomial(D, through) points of damage when D has pmf ``pmfs``."""
    n, size = pmfs.shape
    out = np.zeros((n, size))
    kept = pmfs[:, -1:].copy()   # Horner over D: (1 - t + t x) ** d, highest d first
    for d in range(size - 2, -1, -1):
        grown = np.zeros((n, kept.shape[1] + 1))
        grown[:, :-1] = kept * (1.0 - through)[:, None]
        grown[:, 1:] += kept * through[:, None]
        grown[:, 0] += pmfs[:, d]
        kept = grown
    out[:, :] = kept[:, :size]
    return out


def _states_after(step: np.ndarray, count: int, size: int) -> np.ndarray:
    """``after[:, m] = e0 @ step ** m`` for ``m < count`` (stacked), by doubling the computed
    block with ``step ** (2 ** j)``."""
    n = step.shape[0]
    after = np.zeros((n, count, size))
    after[:, 0, 0] = 1.0
    filled, power = 1, step
    while filled < count:
        take = min(filled, count - filled)
        after[:, filled : filled + take] = np.matmul(after[:, :take], power)
        filled += take
        if filled < count:
            power = np.matmul(power, power)
    return after


def _ordinary_chain(group: Sequence[CellTables], p: dict[str, np.ndarray],
                    step: np.ndarray) -> np.ndarray:
    """Final pmfs of wounds lost ``[cells, size]`` of cells without [DEVASTATING WOUNDS].

    With no critical wound to hold back, each attack die is one Markov step
    ``T = sum_u P(u unsaved wounds) M ** u`` (M: one unsaved wound), and the batch is
    ``sum_n P(n attack dice) T ** n``: the same law as the unsaved wounds' pmf run through
    the chain, since powers of M commute."""
    size = step.shape[1]
    die = _ordinary_die(group, p)
    die_step = die[:, 0, None, None] * np.eye(size)
    power = step
    for u in range(1, die.shape[1]):
        if u > 1:
            power = np.matmul(power, step)
        die_step += die[:, u, None, None] * power
    laws: dict[tuple, list[float]] = {}
    rows = []
    for c in group:
        key = _dice_key(c.row)
        law = laws.get(key)
        if law is None:
            law = laws[key] = dice_law(c.row)
        rows.append(law)
    dice = _padded(rows)
    after = _states_after(die_step, dice.shape[1], size)
    return np.matmul(dice[:, None, :], after)[:, 0, :]


def _critical_chain(group: Sequence[CellTables], units: _Units, p: dict[str, np.ndarray],
                    step: np.ndarray) -> np.ndarray:
    """Final pmfs of wounds lost ``[cells, size]`` of cells with [DEVASTATING WOUNDS]: each
    cell's joint pmf of unsaved and critical wounds, the unsaved wounds through the chain,
    then each critical wound's step (as :func:`mathhammer.wh40k.exact.apply_batch`)."""
    dice = _critical_die(group, p)
    laws: dict[tuple, np.ndarray] = {}
    joints = []
    for j, c in enumerate(group):
        key = _dice_key(c.row)
        if key not in laws:
            laws[key] = weapon_dice_pmf(c.row)
        joints.append(_joint_of(dice[j], laws[key], int(c.row[N_WEAPONS])))
    u_most = max(j.shape[0] for j in joints)
    k_most = max(j.shape[1] for j in joints)
    joint = np.zeros((len(group), k_most, u_most))
    for i, table in enumerate(joints):
        joint[i, : table.shape[1], : table.shape[0]] = table.T
    per_k = np.matmul(joint, _states_after(step, u_most, units.size))   # [cells, k, states]
    if k_most == 1:
        return per_k[:, 0]
    mortal = units.steps([c.mortal_damage for c in group],
                         np.array([c.fnp_mortal for c in group]))
    result = per_k[:, -1]
    for k in range(k_most - 2, -1, -1):
        result = np.matmul(result[:, None, :], mortal)[:, 0] + per_k[:, k]
    return result


def _times_2d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cell by cell product of two stacks of small generating functions ``[cells, u, k]``."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1, a.shape[2] + b.shape[2] - 1))
    for i in range(b.shape[1]):
        for j in range(b.shape[2]):
            out[:, i : i + a.shape[1], j : j + a.shape[2]] += b[:, i, j, None, None] * a
    return out


def _critical_die(cells: Sequence[CellTables], p: dict[str, np.ndarray]) -> np.ndarray:
    """Generating functions ``[cells, u, k]`` of one attack die with [DEVASTATING WOUNDS]
    (:func:`mathhammer.wh40k.exact_tables.attack_die_gf`): u unsaved ordinary wounds, k
    critical wounds."""
    n = len(cells)
    unsaved, dev = p["unsaved"], p["crit_wound"]
    ordinary = p["wound"] * unsaved
    token = np.zeros((n, 2, 2))
    token[:, 0, 0] = np.maximum(1.0 - ordinary - dev, 0.0)
    token[:, 1, 0], token[:, 0, 1] = ordinary, dev
    auto = np.zeros((n, 2, 2))
    auto[:, 0, 0], auto[:, 1, 0] = 1.0 - unsaved, unsaved
    lethal = np.array([c.row[LETHAL] for c in cells], dtype=bool)[:, None, None]
    extra_crit = np.array([c.row[EXTRA_CRIT] for c in cells], dtype=bool)[:, None, None]
    extra_token = np.where(lethal & extra_crit, auto, token)
    sustained = _padded([_sustained_pmf(c.row) for c in cells])
    extra = sustained[:, -1:, None]
    for k in range(sustained.shape[1] - 2, -1, -1):   # Horner: sum_k q_k extra_token ** k
        extra = _times_2d(extra, extra_token)
        extra[:, 0, 0] += sustained[:, k]
    crit_part = _times_2d(extra, np.where(lethal, auto, token))
    die = p["crit_hit"][:, None, None] * crit_part
    die[:, :2, :2] += p["hit"][:, None, None] * token
    die[:, 0, 0] += p["fail_hit"]
    return die


def _joint_of(die: np.ndarray, per_weapon: np.ndarray, weapons: int) -> np.ndarray:
    """``(sum_a per_weapon[a] die ** a) ** weapons`` for one 2-D ``die``, as one polynomial
    by Kronecker substitution (cell (u, k) is coefficient ``u * width + k``, ``width`` above
    the most critical wounds, so products never mix two cells; ``np.convolve``, no FFT)."""
    rows, cols = die.shape
    most = weapons * (len(per_weapon) - 1)
    width = most * (cols - 1) + 1
    flat = np.zeros((rows - 1) * width + cols)
    for u in range(rows):
        flat[u * width : u * width + cols] = die[u]
    support = np.flatnonzero(per_weapon > 0)
    low, high = int(support[0]), int(support[-1])
    one = np.array([float(per_weapon[high])])
    for a in range(high - 1, low - 1, -1):   # Horner over one weapon's attack dice
        one = np.convolve(one, flat)
        one[0] += per_weapon[a]
    if low:
        one = np.convolve(one, _power(flat, low))
    total = _power(one, weapons)
    height = most * (rows - 1) + 1
    out = np.zeros(height * width)
    out[: len(total)] = total[: height * width]
    return out.reshape(height, width)


def _power(poly: np.ndarray, n: int) -> np.ndarray:
    """``poly ** n`` by squaring (``np.convolve``)."""
    result, base = None, poly
    while n:
        if n & 1:
            result = base if result is None else np.convolve(result, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    return result if result is not None else np.ones(1)
