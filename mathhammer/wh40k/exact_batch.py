"""The exact engine for many one-batch cells at once: numpy over stacked cells.

:func:`solve_tables` answers cells settled by :func:`~mathhammer.wh40k.exact_cell_tables.
cell_tables` (one weapon line against one unit of identical models) with the law of
:func:`mathhammer.wh40k.exact.solve`, each step taken for a whole stack of cells (chains
padded to 16, 32, 64 or 96 states) by a few numpy calls:

1. hit, wound and save probabilities of every cell (from their D6 tables), and each attack
   die's generating function over (u, k): u unsaved ordinary wounds, k [DEVASTATING WOUNDS]
   critical wounds ([SUSTAINED HITS], [LETHAL HITS] as ``exact_tables.attack_die_gf``);
2. every cell's Markov step M over wounds lost for one unsaved wound (Feel No Pain, damage
   capped by the wounds left), built at once;
3. the chain. A critical wound that steps like an unsaved wound counts as one. Otherwise,
   when a die scores unsaved wounds or one critical wound, never both, one die is the step
   ``Q = q(M)`` and the states after the batch follow from ``e0 Q ** n`` (powers by doubling)
   mixed over the attack dice, critical wounds held by binomial weights, then each one's
   step. Any other die: its joint pmf of (u, k) by Kronecker substitution, then the chain.

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

__all__ = ["MAX_BATCH_HITS", "MAX_BATCH_STATES", "batchable", "dice_law", "most_hits",
           "solve_tables"]

#: Largest chain (models x W + 1 states) solved in a batch; larger units are solved alone.
MAX_BATCH_STATES = 96
#: Most hits one batch may score to be solved in a batch (its tables stay small).
MAX_BATCH_HITS = 400

_dice_key = itemgetter(N_WEAPONS, A_COUNT, A_SIDES, A_CONST, BONUS_DICE, BONUS_COUNT,
                       BONUS_SIDES, RF_COUNT, RF_SIDES, RF_CONST, A_REROLL_BELOW)


def batchable(cell: CellTables, dice_and_hits: tuple[int, int] | None = None) -> bool:
    """Whether ``cell`` is solved here: within every limit of the exact engine (a cell past
    one is solved alone, which refuses it), small enough, and without [DEVASTATING WOUNDS]
    that spill over (10th-edition launch text). ``dice_and_hits``: :func:`most_hits` of its
    row when already known."""
    row = cell.row
    states = cell.models * cell.wounds + 1
    dice, hits = dice_and_hits if dice_and_hits is not None else most_hits(row)
    work = dice * (hits + 1) ** 2 + (hits + 1) * states ** 2 + cell.damage_max ** 2
    devastating = bool(row[DEVASTATING])
    return (states <= min(MAX_BATCH_STATES, MAX_EXACT_STATES) and hits <= MAX_BATCH_HITS
            and cell.damage_max <= MAX_EXACT_DAMAGE and work <= MAX_EXACT_WORK
            and not (devastating and cell.spill)
            and not (devastating and cell.at_unit_end
                     and states * (hits + 1) > MAX_PENDING_CELLS))


def most_hits(row: Sequence[int]) -> tuple[int, int]:
    """Most attack dice of a batch row, and most hits they can score ([SUSTAINED HITS])."""
    dice = max_attack_dice(cast(np.ndarray, row))
    return dice, dice * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST])


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
    hazards: dict[tuple[int, int, int], tuple[np.ndarray, float]] = {}
    for size, members in _stacks(cells):
        group = [cells[i] for i in members]
        units = _Units(group, size)
        die = _folded(group, _attack_die(group, _roll_probabilities(group)))
        step = units.steps([c.normal_damage for c in group], np.array([c.fnp for c in group]))
        # a die with more than one critical wound, or with both kinds, needs the joint pmf
        mixed = np.zeros(len(group), dtype=bool)
        if die.shape[2] > 2:
            mixed |= die[:, :, 2:].any(axis=(1, 2))
        if die.shape[2] > 1:
            mixed |= die[:, 1:, 1].any(axis=1)
        mortal = _MortalSteps(group, units, step)
        if not mixed.any():
            damage = _simple_chain(group, die, step, mortal, np.arange(len(group)))
        else:
            damage = np.empty((len(group), size))
            for chosen, chain in ((~mixed, _simple_chain), (mixed, _joint_chain)):
                index = np.flatnonzero(chosen)
                if len(index):
                    damage[index] = chain([group[j] for j in index.tolist()], die[index],
                                          step[index], mortal, index)
        for i, answer in zip(members, _answers(group, units, damage, hazards)):
            out[i] = answer
    return out


#: Chains are stacked padded to the first of these that holds them (fewer numpy calls; a
#: padded state is never reached).
_BUCKETS = (16, 32, 64, MAX_BATCH_STATES)
#: Most numbers (float64) one stack's largest tables may hold together (about 32 MB):
#: a larger grid is solved in several stacks.
MAX_STACK_NUMBERS = 4_000_000


def _stacks(cells: Sequence[CellTables]) -> list[tuple[int, list[int]]]:
    """The cells in stacks: by the padded size of their chain, each stack's tables within
    :data:`MAX_STACK_NUMBERS` (a cell's largest: its states after each attack die, its
    steps for each held critical wound, its joint pmf)."""
    buckets: dict[int, list[tuple[int, int]]] = {}
    known: dict[int, int] = {}   # a weapon's row is shared by its cells
    sizes: dict[int, int] = {}
    for i, cell in enumerate(cells):
        states = cell.models * cell.wounds + 1
        size = sizes.get(states)
        if size is None:
            size = sizes[states] = next(b for b in _BUCKETS if states <= b)
        hits = known.get(id(cell.row))
        if hits is None:
            hits = known[id(cell.row)] = most_hits(cell.row)[1]
        numbers = max((hits + 1) * size, size * size * (hits + 1 if cell.row[DEVASTATING]
                                                        else 1), (hits + 1) ** 2)
        buckets.setdefault(size, []).append((i, numbers))
    stacks = []
    for size, members in buckets.items():
        stack: list[int] = []
        total = 0
        for i, numbers in members:
            if stack and total + numbers > MAX_STACK_NUMBERS:
                stacks.append((size, stack))
                stack, total = [], 0
            stack.append(i)
            total += numbers
        stacks.append((size, stack))
    return stacks


class _Units:
    """The units (models x W) of a stack of cells padded to ``size`` states: where each
    cell's one-allocation steps go in its ``[size, size]`` Markov matrix, and which states
    have how many models destroyed."""

    def __init__(self, group: Sequence[CellTables], size: int) -> None:
        self.size = size
        models = np.array([cell.models for cell in group])
        wounds = np.array([cell.wounds for cell in group])
        self.w_most, self.models_most = int(wounds.max()), int(models.max())
        self.last = models * wounds
        # state s (below the last) has W - s % W wounds left; it moves by j <= that
        w = wounds[:, None, None]
        s = np.arange(size - 1)[None, :, None]
        left = w - s % w
        live = (s < self.last[:, None, None]) & (np.arange(self.w_most + 1) <= left)
        cells, rows, step = np.nonzero(live)
        self.places = (cells, rows, rows + step, wounds[cells] - rows % wounds[cells], step)
        cells, states = np.nonzero(np.arange(size)[None, :] <= self.last[:, None])
        self.states = (cells, states, np.minimum(states // wounds[cells], models[cells]))

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
        cells, rows, cols, left, step = self.places
        matrix[cells, rows, cols] = capped[cells, left, step]
        matrix[np.arange(n), self.last, self.last] = 1.0
        return matrix

    def killed(self, damage: np.ndarray) -> np.ndarray:
        """Pmfs of models destroyed ``[cells, most models + 1]`` from pmfs of wounds lost."""
        cells, states, models = self.states
        width = self.models_most + 1
        return np.bincount(cells * width + models, weights=damage[cells, states],
                           minlength=damage.shape[0] * width).reshape(-1, width)


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
def _folded(group: Sequence[CellTables], die: np.ndarray) -> np.ndarray:
    """``die`` with the critical wounds of each cell whose critical wound steps like an
    unsaved wound (the same damage and Feel No Pain) counted as unsaved wounds: with one
    Markov step M for both, u unsaved then k critical wounds are ``M ** (u + k)``."""
    if die.shape[2] == 1:
        return die
    alike = np.array([c.mortal_damage == c.normal_damage and c.fnp_mortal == c.fnp
                      for c in group], dtype=bool)
    if not alike.any():
        return die
    rows, cols = die.shape[1:]
    out = np.zeros((len(group), rows + cols - 1, cols))
    out[~alike, :rows] = die[~alike]
    index = np.flatnonzero(alike)
    for k in range(cols):
        out[index, k : k + rows, 0] += die[index, :, k]
    return out


def _times_2d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cell by cell product of two stacks of small generating functions ``[cells, u, k]``."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1, a.shape[2] + b.shape[2] - 1))
    for i in range(b.shape[1]):
        for j in range(b.shape[2]):
            out[:, i : i + a.shape[1], j : j + a.shape[2]] += b[:, i, j, None, None] * a
    return out


def _padded(rows: Sequence[Sequence[float]], width: int = 0) -> np.ndarray:
    """Lists of different lengths as one array (at least ``width`` wide), padded with
    zeros. Cells share their lists (a weapon's damage law, its attack dice): each distinct
    list is converted once and the rows gathered."""
    width = max(width, max(len(r) for r in rows))
    where: dict[int, int] = {}
    distinct: list[list[float]] = []
    index = []
    for r in rows:
        position = where.get(id(r))
        if position is None:
            position = where[id(r)] = len(distinct)
            distinct.append(list(r) + [0.0] * (width - len(r)))
        index.append(position)
    return np.array(distinct)[index]


def _sustained_pmf(row: Sequence[int]) -> list[float]:
    """Pmf of the extra hits of one critical hit ([SUSTAINED HITS X])."""
    count, sides, constant = row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST]
    if count == 0 and sides == 0:
        return [0.0] * constant + [1.0]
    return dice_pmf(count, sides, constant).tolist()


def _attack_die(cells: Sequence[CellTables], p: dict[str, np.ndarray]) -> np.ndarray:
    """Generating functions ``[cells, u, k]`` of one attack die (as
    :func:`mathhammer.wh40k.exact_tables.attack_die_gf` builds one): hit roll, [SUSTAINED
    HITS] extra hits, [LETHAL HITS] automatic wounds, wound and save rolls; u unsaved
    ordinary wounds, k [DEVASTATING WOUNDS] critical wounds."""
    n = len(cells)
    unsaved = p["unsaved"]
    devastating = np.array([c.row[DEVASTATING] for c in cells], dtype=bool)
    dev = np.where(devastating, p["crit_wound"], 0.0)
    ordinary = (p["wound"] + np.where(devastating, 0.0, p["crit_wound"])) * unsaved
    token = np.zeros((n, 2, 2))
    token[:, 0, 0] = np.maximum(1.0 - ordinary - dev, 0.0)
    token[:, 1, 0], token[:, 0, 1] = ordinary, dev
    auto = np.zeros((n, 2, 2))
    auto[:, 0, 0], auto[:, 1, 0] = 1.0 - unsaved, unsaved
    lethal = np.array([c.row[LETHAL] for c in cells], dtype=bool)[:, None, None]
    extra_crit = np.array([c.row[EXTRA_CRIT] for c in cells], dtype=bool)[:, None, None]
    extra_token = np.where(lethal & extra_crit, auto, token)
    laws: dict[int, list[float]] = {}
    for c in cells:
        if id(c.row) not in laws:
            laws[id(c.row)] = _sustained_pmf(c.row)
    sustained = _padded([laws[id(c.row)] for c in cells])
    extra = sustained[:, -1:, None]
    for k in range(sustained.shape[1] - 2, -1, -1):   # Horner: sum_k q_k extra_token ** k
        extra = _times_2d(extra, extra_token)
        extra[:, 0, 0] += sustained[:, k]
    die = p["crit_hit"][:, None, None] * _times_2d(extra, np.where(lethal, auto, token))
    die[:, :2, :2] += p["hit"][:, None, None] * token
    die[:, 0, 0] += p["fail_hit"]
    return die


def dice_law(row: Sequence[int]) -> list[float]:
    """Pmf of a batch's attack dice (:func:`~mathhammer.wh40k.dice_laws.attack_dice_pmf`):
    one weapon's law to the power of the weapons, by squaring; a fixed number at once."""
    weapons = int(row[N_WEAPONS])
    if not (row[A_COUNT] or row[A_SIDES] or row[BONUS_COUNT] or row[RF_COUNT] or row[RF_SIDES]):
        total = [0.0] * ((row[A_CONST] + row[BONUS_DICE] + row[RF_CONST]) * weapons + 1)
        total[-1] = 1.0
        return total
    return _power(weapon_dice_pmf(row), weapons).tolist()


def _power(poly: np.ndarray, n: int) -> np.ndarray:
    """``poly ** n`` by squaring (``np.convolve``: sums of non-negative products)."""
    result, base = None, poly
    while n:
        if n & 1:
            result = base if result is None else np.convolve(result, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
    return result if result is not None else np.ones(1)


def _dice_laws(group: Sequence[CellTables]) -> np.ndarray:
    """Each cell's attack dice pmf ``[cells, most dice + 1]`` (each law computed once)."""
    laws: dict[tuple, list[float]] = {}
    by_row: dict[int, list[float]] = {}   # cells of one weapon share their row
    rows = []
    for c in group:
        law = by_row.get(id(c.row))
        if law is None:
            key = _dice_key(c.row)
            law = laws.get(key)
            if law is None:
                law = laws[key] = dice_law(c.row)
            by_row[id(c.row)] = law
        rows.append(law)
    return _padded(rows)


# -- the wound-allocation chain ---------------------------------------------------------------
def _binomial_thinning(pmfs: np.ndarray, through: np.ndarray) -> np.ndarray:
    """Per row, the pmf of Binomial(D, through) points of damage when D has pmf ``pmfs``."""
    n, size = pmfs.shape
    kept = pmfs[:, -1:].copy()   # Horner over D: (1 - t + t x) ** d, highest d first
    for d in range(size - 2, -1, -1):
        grown = np.zeros((n, kept.shape[1] + 1))
        grown[:, :-1] = kept * (1.0 - through)[:, None]
        grown[:, 1:] += kept * through[:, None]
        grown[:, 0] += pmfs[:, d]
        kept = grown
    return kept[:, :size].copy()


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


def _through_powers(per_k: np.ndarray, mortal: np.ndarray) -> np.ndarray:
    """``sum_k per_k[:, k] @ mortal ** k`` (``per_k``: ``[cells, k, states]``), the powers
    by doubling the computed block."""
    n, k_most, size = per_k.shape
    if k_most == 1:
        return per_k[:, 0]
    powers = np.empty((n, k_most, size, size))
    powers[:, 0] = np.eye(size)
    filled, power = 1, mortal
    while filled < k_most:
        take = min(filled, k_most - filled)
        powers[:, filled : filled + take] = np.matmul(powers[:, :take], power[:, None])
        filled += take
        if filled < k_most:
            power = np.matmul(power, power)
    return np.matmul(per_k.reshape(n, 1, k_most * size),
                     powers.reshape(n, k_most * size, size))[:, 0]


class _MortalSteps:
    """Each cell's Markov step of one [DEVASTATING WOUNDS] critical wound, built for the
    whole stack when first asked (the ordinary step when the damage and Feel No Pain are the
    same, as they mostly are)."""

    def __init__(self, group: Sequence[CellTables], units: _Units, step: np.ndarray) -> None:
        self.group, self.units, self.step = group, units, step
        self.steps: np.ndarray | None = None

    def __call__(self, index: np.ndarray) -> np.ndarray:
        if self.steps is None:
            group = self.group
            if all(c.mortal_damage == c.normal_damage and c.fnp_mortal == c.fnp
                   for c in group):
                self.steps = self.step
            else:
                self.steps = self.units.steps([c.mortal_damage for c in group],
                                              np.array([c.fnp_mortal for c in group]))
        return self.steps[index]


def _simple_chain(group: Sequence[CellTables], die: np.ndarray, step: np.ndarray,
                  mortal: _MortalSteps, index: np.ndarray) -> np.ndarray:
    """Final pmfs of wounds lost ``[cells, size]`` of cells whose die scores either unsaved
    wounds (pmf ``q(x)``) or one critical wound (probability c), never both.

    One die is then the Markov step ``Q = q(M)`` (M: one unsaved wound) or a critical wound,
    and ``(Q + c y) ** n = sum_k C(n, k) c ** k y ** k Q ** (n - k)`` (Q and the identity
    commute): with n attack dice of pmf P, the states after the ordinary wounds, k critical
    wounds held, are ``c ** k sum_j P(j + k) C(j + k, k) e0 Q ** j``; then each critical
    wound's step. Without critical wounds that is ``sum_n P(n) e0 Q ** n``."""
    size = step.shape[1]
    q = die[:, :, 0]
    chain = q[:, 0, None, None] * np.eye(size)
    power = step
    for u in range(1, q.shape[1]):
        if u > 1:
            power = np.matmul(power, step)
        chain = chain + q[:, u, None, None] * power
    dice = _dice_laws(group)
    after = _states_after(chain, dice.shape[1], size)
    damage = np.matmul(dice[:, None, :], after)[:, 0, :]
    critical = die[:, 0, 1] if die.shape[2] > 1 else np.zeros(len(group))
    held = np.flatnonzero(critical > 0)
    if len(held):
        count = int(np.flatnonzero(dice[held].any(axis=0))[-1]) + 1
        k = np.arange(count)[:, None]
        j = np.arange(count)[None, :]
        # C(j + k, k) as a product of (j + i) / i, i = 1..k
        ratio = np.where(k > 0, (j + k) / np.maximum(k, 1), 1.0)
        choose = np.cumprod(ratio, axis=0)
        laws = np.zeros((len(held), 2 * count))
        laws[:, :count] = dice[held, :count]
        coefficient = (critical[held, None, None] ** k) * choose * laws[:, j + k]
        per_k = np.matmul(coefficient, after[held, :count])
        damage[held] = _through_powers(per_k, mortal(index[held]))
    return damage


def _joint_chain(group: Sequence[CellTables], die: np.ndarray, step: np.ndarray,
                 mortal: _MortalSteps, index: np.ndarray) -> np.ndarray:
    """Final pmfs of wounds lost ``[cells, size]`` of any cells: each cell's joint pmf of
    unsaved and critical wounds (:func:`_joint_of`), the unsaved wounds through the chain,
    then each critical wound's step (as :func:`mathhammer.wh40k.exact.apply_batch`)."""
    laws: dict[tuple, np.ndarray] = {}
    joints = []
    for j, c in enumerate(group):
        key = _dice_key(c.row)
        if key not in laws:
            laws[key] = weapon_dice_pmf(c.row)
        joints.append(_joint_of(die[j], laws[key], int(c.row[N_WEAPONS])))
    u_most = max(table.shape[0] for table in joints)
    k_most = max(table.shape[1] for table in joints)
    joint = np.zeros((len(group), k_most, u_most))
    for i, table in enumerate(joints):
        joint[i, : table.shape[1], : table.shape[0]] = table.T
    per_k = np.matmul(joint, _states_after(step, u_most, step.shape[1]))
    if k_most == 1:
        return per_k[:, 0]
    return _through_powers(per_k, mortal(index))


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
