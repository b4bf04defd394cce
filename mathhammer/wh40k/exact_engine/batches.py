"""The exact engine for many one-batch cells at once: numpy over stacked cells.

:func:`solve_tables` answers cells settled by :func:`~mathhammer.wh40k.exact_engine.cells.
cell_tables` (one weapon line against one unit of identical models) with the law of
:func:`mathhammer.wh40k.exact_engine.chains.solve`, each step taken for a whole stack of cells
(chains padded to 16, 32, 64 or 96 states) by a few numpy calls:

1. hit, wound and save probabilities of every cell (from their D6 tables), and each attack
   die's generating function over (u, k): u unsaved ordinary wounds, k [DEVASTATING WOUNDS]
   critical wounds ([SUSTAINED HITS], [LETHAL HITS] as ``exact_tables.attack_die_gf``); a
   1-D pmf of u + k when no cell's critical wound steps apart from an unsaved one. Each
   weapon's row, dice law and damage law is read once for all its cells (:class:`_Stack`);
2. every cell's Markov step M over wounds lost for one unsaved wound (Feel No Pain, damage
   capped by the wounds left), built at once: each row's band written skewed into place;
3. the chain. A critical wound that steps like an unsaved wound counts as one. Otherwise,
   when a die scores unsaved wounds or one critical wound, never both, one die is the step
   ``Q = q(M)`` and the states after the batch follow from ``e0 Q ** n`` (powers by doubling)
   mixed over the attack dice, critical wounds held by binomial weights, then each one's
   step. Any other die: its joint pmf of (u, k) by Kronecker substitution, then the chain.

Only non-negative numbers are multiplied and added (no FFT, no subtraction), as in the
cell-by-cell engine; the pmfs equal :func:`mathhammer.wh40k.exact_engine.chains.solve`'s to
rounding (``tests/wh40k/exact_engine/test_batches.py`` checks 1e-12 on generated grids).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate
from collections.abc import Sequence
from operator import attrgetter, itemgetter
from typing import cast

import numpy as np

from mathhammer.wh40k.compile import (A_CONST, A_COUNT, A_REROLL_BELOW, A_SIDES, AUTO_HIT,
                                      BONUS_COUNT, BONUS_DICE, BONUS_SIDES, DEVASTATING,
                                      EXTRA_CRIT, LETHAL, N_WEAPONS, RF_CONST, RF_COUNT,
                                      RF_SIDES, SUS_CONST, SUS_COUNT, SUS_SIDES,
                                      dice_pmf, max_attack_dice, weapon_dice_pmf)
from mathhammer.wh40k.exact_engine.chains import (MAX_EXACT_DAMAGE, MAX_EXACT_STATES,
                                                  MAX_EXACT_WORK, MAX_PENDING_CELLS, hazard_pmf)
from mathhammer.wh40k.exact_engine.cells import CellTables
from mathhammer.wh40k.exact_engine.tables import flat_power
from mathhammer.wh40k.weapon_tables import BatchTables

__all__ = ["MAX_BATCH_HITS", "MAX_BATCH_STATES", "SolvedTables", "batchable", "dice_law",
           "most_hits", "solve_tables"]

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


def solve_tables(cells: Sequence[CellTables]) -> SolvedTables:
    """Every cell's exact pmfs and means, kept stacked (see :class:`SolvedTables`).

    Parameters
    ----------
    cells
        Cells for which :func:`batchable` holds.

    Returns
    -------
    SolvedTables
        Per cell (``solved[i]``), ``(pmfs, means)``: the pmfs of
        :func:`mathhammer.wh40k.exact_engine.chains.solve` (``"damage"``, ``"models_destroyed"``,
        ``"attacker_mortal_wounds"``) and their means as
        :class:`~mathhammer.core.result.Distribution` computes them; and every cell's
        headline figures as arrays.
    """
    solved = SolvedTables(len(cells))
    hazards: dict[tuple[int, int, int], tuple[np.ndarray, float]] = {}
    for size, members in _stacks(cells):
        group = [cells[i] for i in members]
        stack = _Stack(group, size)
        units = _Units(stack.models, stack.wounds, size)
        die = _attack_die(stack)
        step = units.steps(stack.normal, stack.fnp)
        # a die with more than one critical wound, or with both kinds, needs the joint pmf
        mixed = np.zeros(len(group), dtype=bool)
        if die.shape[2] > 2:
            mixed |= die[:, :, 2:].any(axis=(1, 2))
        if die.shape[2] > 1:
            mixed |= die[:, 1:, 1].any(axis=1)
        mortal = _MortalSteps(group, units, step)
        dice, counts = stack.dice_laws()
        if not mixed.any():
            damage = _simple_chain(group, die, step, mortal, np.arange(len(group)), dice,
                                   counts)
        else:
            damage = np.empty((len(group), size))
            for chosen, chain in ((~mixed, _simple_chain), (mixed, _joint_chain)):
                index = np.flatnonzero(chosen)
                if len(index):
                    damage[index] = chain([group[j] for j in index.tolist()], die[index],
                                          step[index], mortal, index, dice[index],
                                          counts[index])
        solved.add(members, group, units, damage, hazards)
    return solved


class SolvedTables(Sequence[tuple[dict[str, np.ndarray], dict[str, float]]]):
    """The answers of :func:`solve_tables`, kept as the stacks computed them: ``solved[i]``
    is cell ``i``'s ``(pmfs, means)`` (its rows sliced when asked), and the arrays
    :attr:`damage_mean`, :attr:`killed_mean`, :attr:`destroyed` (P(unit destroyed)) and
    :attr:`hazard_mean` (NaN without [HAZARDOUS]) hold every cell's headline figures."""

    def __init__(self, n: int) -> None:
        self.damage_mean, self.killed_mean = np.empty(n), np.empty(n)
        self.destroyed, self.hazard_mean = np.empty(n), np.full(n, np.nan)
        self.models = np.empty(n, dtype=np.int64)
        self._where: list[tuple[int, int]] = [(0, 0)] * n
        self._blocks: list[tuple[np.ndarray, np.ndarray, list, list, list]] = []

    def add(self, members: list[int], group: Sequence[CellTables], units: _Units,
            damage: np.ndarray, hazards: dict) -> None:
        """One stack's final pmfs of wounds lost ``damage`` (cells ``members``)."""
        killed = units.killed(damage)
        index = np.asarray(members)
        self.damage_mean[index] = _means(damage)
        self.killed_mean[index] = _means(killed)
        self.destroyed[index] = killed[np.arange(len(members)), units.models]
        self.models[index] = units.models
        keys = list(map(_hazard_key, group))
        for key in set(keys) - hazards.keys():
            pmf = hazard_pmf(*key)
            hazards[key] = (pmf, float(_means(pmf[None])[0]))
        laws = list(map(hazards.__getitem__, keys))
        rolled = [j for j, cell in enumerate(group) if cell.hazard_rolls > 0]
        if rolled:
            self.hazard_mean[index[rolled]] = [laws[j][1] for j in rolled]
        block = len(self._blocks)
        self._blocks.append((damage, killed, units.models.tolist(), units.wounds.tolist(),
                             laws))
        for j, i in enumerate(members):
            self._where[i] = (block, j)

    def __len__(self) -> int:
        return len(self._where)

    def __getitem__(self, i):
        block, j = self._where[i]
        damage, killed, models, wounds, laws = self._blocks[block]
        pmf, pmf_mean = laws[j]
        return ({"damage": damage[j, : models[j] * wounds[j] + 1],
                 "models_destroyed": killed[j, : models[j] + 1],
                 "attacker_mortal_wounds": pmf},
                {"damage": float(self.damage_mean[i]), "models_destroyed":
                 float(self.killed_mean[i]), "attacker_mortal_wounds": pmf_mean})


#: Chains are stacked padded to the first of these that holds them (fewer numpy calls; a
#: padded state is never reached).
_BUCKETS = (16, 32, 64, MAX_BATCH_STATES)
#: Most numbers (float64) one stack's largest tables may hold together (about 32 MB):
#: a larger grid is solved in several stacks.
MAX_STACK_NUMBERS = 4_000_000


def _stacks(cells: Sequence[CellTables]) -> list[tuple[int, list[int]]]:
    """The cells in stacks: by the padded size of their chain, each stack's tables within
    :data:`MAX_STACK_NUMBERS` (a cell's largest: its states after each attack die, its
    steps for each held critical wound, its joint pmf); in each, most attack dice first
    (:func:`_states_after` takes them in that order)."""
    rows, row_index = _distinct([c.row for c in cells])
    row_hits = [most_hits(r) for r in rows]
    held = [bool(r[DEVASTATING]) for r in rows]
    dice, sizes, numbers = [], [], []
    for cell, r in zip(cells, row_index):   # a few numbers per cell: cheaper than numpy
        size = _BUCKETS[bisect_left(_BUCKETS, cell.models * cell.wounds + 1)]
        hits = row_hits[r][1] + 1
        dice.append(row_hits[r][0])
        sizes.append(size)
        numbers.append(max(hits * size, size * size * (hits if held[r] else 1), hits * hits))
    by_dice = sorted(range(len(cells)), key=dice.__getitem__, reverse=True)   # stable
    if cells and min(sizes) == max(sizes) and sum(numbers) <= MAX_STACK_NUMBERS:
        return [(sizes[0], by_dice)]   # the usual grid: one stack
    stacks = []
    for size in dict.fromkeys(sizes):
        stack: list[int] = []
        total = 0
        for i in by_dice:
            if sizes[i] != size:
                continue
            if stack and total + numbers[i] > MAX_STACK_NUMBERS:
                stacks.append((size, stack))
                stack, total = [], 0
            stack.append(i)
            total += numbers[i]
        stacks.append((size, stack))
    return stacks


def _distinct(items: Sequence) -> tuple[list, list[int]]:
    """The distinct objects of ``items`` (by identity: cells share their weapon's row and
    damage law) and each item's index among them."""
    ids = list(map(id, items))
    by_id = dict(zip(ids, items))
    where = dict(zip(by_id, range(len(by_id))))
    return list(by_id.values()), list(map(where.__getitem__, ids))


class _Stack:
    """The cells of one stack read once: their numbers as arrays, each distinct weapon row
    and damage law once (cells of one weapon share them)."""

    def __init__(self, group: Sequence[CellTables], size: int) -> None:
        self.group, self.size = group, size
        (rows, tables, wound_rows, save_rows, normal, mortal, _, fnp, fnp_mortal, models,
         wounds, *_) = zip(*group)
        self.models, self.wounds = np.array(models), np.array(wounds)
        self.fnp, self.fnp_mortal = np.array(fnp), np.array(fnp_mortal)
        self.normal = normal
        self.rows, row_index = _distinct(rows)
        self.row_index = np.array(row_index)
        flags = np.array([(r[DEVASTATING], r[LETHAL], r[EXTRA_CRIT], r[AUTO_HIT])
                          for r in self.rows], dtype=bool)[self.row_index]
        self.devastating, self.lethal, self.extra_crit, self.auto_hit = flags.T
        self.tables = _roll_tables(tables, wound_rows, save_rows)   # [3, cells, 2, 7]
        self.alike = np.array([n == m for n, m in zip(normal, mortal)]) & (self.fnp ==
                                                                          self.fnp_mortal)

    def probabilities(self) -> tuple[np.ndarray, ...]:
        """Per cell: P(hit fails / hits / is critical), P(wound / critical wound),
        P(unsaved)."""
        reroll, classes = self.tables[:, :, 1], self.tables[:, :, 0]
        again = reroll[:, :, 1:7].sum(axis=2) / 6.0
        faces = np.where(reroll == 1, 0.0, 1.0 / 6.0) + (again / 6.0)[:, :, None]
        faces[:, :, 0] = 0.0
        # [roll, cells, outcome]: P(outcome 0, 1, 2) of the hit, wound and save rolls
        p = (faces[:, :, None, :] * (classes[:, :, None, :] == _OUTCOMES)).sum(axis=3)
        auto = self.auto_hit
        return (np.where(auto, 0.0, p[0, :, 0]), np.where(auto, 1.0, p[0, :, 1]),
                np.where(auto, 0.0, p[0, :, 2]), p[1, :, 1], p[1, :, 2], p[2, :, 1])

    def sustained(self) -> np.ndarray | None:
        """Each cell's pmf of extra hits per critical hit ([SUSTAINED HITS]), or None when
        no cell has any."""
        laws = [_sustained_pmf(r) for r in self.rows]
        if all(len(law) == 1 for law in laws):
            return None
        return _padded(laws)[self.row_index]

    def dice_laws(self) -> tuple[np.ndarray, np.ndarray]:
        """Each cell's attack dice pmf ``[cells, most dice + 1]`` (each law computed once),
        and each law's length up to its last non-zero entry (most dice + 1)."""
        laws: dict[tuple, list[float]] = {}
        rows, lengths = [], []
        for r in self.rows:
            key = _dice_key(r)
            law = laws.get(key)
            if law is None:
                law = laws[key] = dice_law(r)
            rows.append(law)
            lengths.append(len(law) - next(i for i, p in enumerate(reversed(law)) if p > 0))
        return _padded(rows)[self.row_index], np.array(lengths)[self.row_index]


def _roll_tables(tables: Sequence[BatchTables], wound_rows: Sequence[int],
                 save_rows: Sequence[int]) -> np.ndarray:
    """Each cell's hit, wound and save tables ``[3, cells, 2, 7]``: every distinct weapon's
    tables (cells of one weapon share them) joined once, then each cell's rows gathered."""
    distinct, index = _distinct(tables)
    blocks = ([t.hit[None] for t in distinct] + [t.wound for t in distinct]
              + [t.saves for t in distinct])
    wound_at = list(accumulate((len(t.wound) for t in distinct), initial=len(distinct)))
    save_at = list(accumulate((len(t.saves) for t in distinct), initial=wound_at[-1]))
    rows = np.array([index, [wound_at[t] + r for t, r in zip(index, wound_rows)],
                     [save_at[t] + r for t, r in zip(index, save_rows)]])
    return np.concatenate(blocks)[rows]


#: The outcome codes of a hit, wound or save table, broadcast against ``[rolls, cells, 1, 7]``.
_OUTCOMES = np.arange(3)[:, None]


class _Units:
    """The units (models x W) of a stack of cells padded to ``size`` states: each cell's
    one-allocation steps as its ``[size, size]`` Markov matrix, and which states have how
    many models destroyed."""

    def __init__(self, models: np.ndarray, wounds: np.ndarray, size: int) -> None:
        self.size, self.models, self.wounds = size, models, wounds
        self.w_most, self.models_most = int(wounds.max()), int(models.max())
        self.last = models * wounds
        # state s below the last has W - s % W wounds left (0: the last, which stays)
        s = np.arange(size)[None, :]
        w = wounds[:, None]
        self.left = np.where(s < self.last[:, None], w - s % w, 0)

    def steps(self, pmfs: Sequence[list[float]], fnp: np.ndarray) -> np.ndarray:
        """Markov steps ``[cells, size, size]`` over wounds lost of one allocation of damage
        with Feel No Pain (:func:`mathhammer.wh40k.exact_engine.tables.build_transition`, for many
        cells; each padded with states it never reaches)."""
        n, w_most, size = len(pmfs), self.w_most, self.size
        padded = _padded(pmfs, w_most + 1)
        if (fnp < 7).any():
            padded = _binomial_thinning(padded, np.where(fnp < 7, 1.0 - (7 - fnp) / 6.0, 1.0))
        tails = padded[:, ::-1].cumsum(axis=1)[:, ::-1]
        # capped[c, left, j]: a model with `left` wounds left loses j (all when D >= left);
        # left 0 is the last state, which stays
        span = np.arange(w_most + 1)
        capped = padded[:, None, : w_most + 1] * (span[None, :] < span[:, None])
        capped[:, span, span] = tails[:, : w_most + 1]
        capped[:, 0, 0] = 1.0
        # row s of the step holds capped[c, left(s), j] at column s + j: written skewed (rows
        # of size + 1 numbers), then read back as rows of size numbers
        skewed = np.zeros((n, size, size + 1))
        skewed[:, :, : w_most + 1] = capped[np.arange(n)[:, None], self.left]
        return skewed.reshape(n, -1)[:, : size * size].reshape(n, size, size)

    def killed(self, damage: np.ndarray) -> np.ndarray:
        """Pmfs of models destroyed ``[cells, most models + 1]`` from pmfs of wounds lost."""
        # states past the last are never reached (exactly zero): counted with the last
        states = np.arange(self.size)[None, :, None]
        models = np.minimum(states // self.wounds[:, None, None], self.models[:, None, None])
        into = models == np.arange(self.models_most + 1)
        return np.matmul(damage[:, None, :], into.astype(float))[:, 0]


#: The fields of a cell that settle its attacker's [HAZARDOUS] pmf.
_hazard_key = attrgetter("hazard_rolls", "hazard_mortals", "hazard_fail_max")


def _means(pmfs: np.ndarray) -> np.ndarray:
    """Each row's mean as :class:`~mathhammer.core.result.Distribution` takes it (renormalised;
    its clipping at 0 changes nothing here: only non-negative numbers are added)."""
    return (pmfs @ np.arange(pmfs.shape[1], dtype=float)) / pmfs.sum(axis=1)


# -- one attack die ---------------------------------------------------------------------------
def _folded(alike: np.ndarray, die: np.ndarray) -> np.ndarray:
    """``die`` with the critical wounds of each cell whose critical wound steps like an
    unsaved wound (``alike``: the same damage and Feel No Pain) counted as unsaved wounds:
    with one Markov step M for both, u unsaved then k critical wounds are ``M ** (u + k)``."""
    if die.shape[2] == 1 or not alike.any():
        return die
    rows, cols = die.shape[1:]
    out = np.zeros((len(alike), rows + cols - 1, cols))
    out[~alike, :rows] = die[~alike]
    index = np.flatnonzero(alike)
    for k in range(cols):
        out[index, k : k + rows, 0] += die[index, :, k]
    # rows no cell reaches (all zero) cost a power of the step each: cut
    reached = np.flatnonzero(out.any(axis=(0, 2)))
    return out[:, : int(reached[-1]) + 1 if len(reached) else 1]


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
    distinct, index = _distinct(rows)
    out = np.zeros((len(distinct), max(width, max(map(len, distinct)))))
    for row, values in zip(out, distinct):
        row[: len(values)] = values
    return out[index]


def _sustained_pmf(row: Sequence[int]) -> list[float]:
    """Pmf of the extra hits of one critical hit ([SUSTAINED HITS X])."""
    count, sides, constant = row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST]
    if count == 0 and sides == 0:
        return [0.0] * constant + [1.0]
    return dice_pmf(count, sides, constant).tolist()


def _attack_die(stack: _Stack) -> np.ndarray:
    """Generating functions ``[cells, u, k]`` of one attack die (as
    :func:`mathhammer.wh40k.exact_engine.tables.attack_die_gf` builds one): hit roll, [SUSTAINED
    HITS] extra hits, [LETHAL HITS] automatic wounds, wound and save rolls; u unsaved
    ordinary wounds, k [DEVASTATING WOUNDS] critical wounds; folded (:func:`_folded`)."""
    fail_hit, hit, crit_hit, wound, crit_wound, unsaved = stack.probabilities()
    n = len(unsaved)
    devastating = stack.devastating
    dev = np.where(devastating, crit_wound, 0.0)
    ordinary = (wound + np.where(devastating, 0.0, crit_wound)) * unsaved
    apart = devastating & ~stack.alike
    if not apart.any():
        # every critical wound steps like an unsaved one: a die is a pmf of u + k
        token = np.stack((np.maximum(1.0 - ordinary - dev, 0.0), ordinary + dev), axis=1)
        auto = np.stack((1.0 - unsaved, unsaved), axis=1)
        return _die_of(stack, (fail_hit, hit, crit_hit), token, auto, _times)[:, :, None]
    token = np.stack((np.maximum(1.0 - ordinary - dev, 0.0), dev, ordinary,
                      np.zeros(n)), axis=1).reshape(n, 2, 2)
    auto = np.stack((1.0 - unsaved, np.zeros(n), unsaved, np.zeros(n)),
                    axis=1).reshape(n, 2, 2)
    return _folded(stack.alike, _die_of(stack, (fail_hit, hit, crit_hit), token, auto,
                                        _times_2d))


def _die_of(stack: _Stack, hits: tuple[np.ndarray, ...], token: np.ndarray, auto: np.ndarray,
            times) -> np.ndarray:
    """One attack die from the generating functions of one hit's wound and save rolls
    (``token``) and of a [LETHAL HITS] automatic wound's save (``auto``), 1-D (``times``:
    :func:`_times`) or 2-D (:func:`_times_2d`)."""
    fail_hit, hit, crit_hit = hits
    shape = (-1,) + (1,) * (token.ndim - 1)
    lethal = stack.lethal.reshape(shape)
    crit_token = np.where(lethal, auto, token) if stack.lethal.any() else token
    sustained = stack.sustained()
    if sustained is None:   # one hit per die: one token
        die = crit_hit.reshape(shape) * crit_token
        die += hit.reshape(shape) * token
    else:
        extra_token = np.where(lethal & stack.extra_crit.reshape(shape), auto, token)
        extra = sustained[:, -1:].reshape((-1, 1) + (1,) * (token.ndim - 2))
        for k in range(sustained.shape[1] - 2, -1, -1):   # Horner: sum_k q_k extra ** k
            extra = times(extra, extra_token)
            extra[(slice(None),) + (0,) * (token.ndim - 1)] += sustained[:, k]
        die = crit_hit.reshape(shape) * times(extra, crit_token)
        die[(slice(None),) + (slice(2),) * (token.ndim - 1)] += hit.reshape(shape) * token
    die[(slice(None),) + (0,) * (token.ndim - 1)] += fail_hit
    return die


def _times(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cell by cell product of two stacks of small polynomials ``[cells, u]``."""
    out = np.zeros((a.shape[0], a.shape[1] + b.shape[1] - 1))
    for i in range(b.shape[1]):
        out[:, i : i + a.shape[1]] += b[:, i, None] * a
    return out


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


def _states_after(step: np.ndarray, counts: list[int]) -> np.ndarray:
    """``after[:, m] = e0 @ step ** m`` for ``m < counts`` (stacked; zeros past a cell's
    count), by doubling the computed block with ``step ** (2 ** j)``. ``counts`` run from
    most to fewest, so each round multiplies only the leading cells that still need it (a
    grid's few [TORRENT] D6 cells need 60 states after, most others 20 or fewer)."""
    n, size = step.shape[0], step.shape[1]
    most = counts[0] if n else 1
    after = np.empty((n, most, size))
    after[:, 0] = 0.0
    after[:, 0, 0] = 1.0
    filled, power = 1, step
    while filled < most:
        take = min(filled, most - filled)
        active = _needing(counts, filled)
        np.matmul(after[:active, :take], power[:active],
                  out=after[:active, filled : filled + take])
        # past those cells' counts: read only times a zero dice probability, never NaN
        after[active:, filled : filled + take] = 0.0
        filled += take
        if filled < most:
            active = _needing(counts, filled)
            power = np.matmul(power[:active], power[:active])
    return after


def _needing(ranked: list[int], filled: int) -> int:
    """How many of the leading cells (counts ``ranked``, most first) need more states than
    ``filled``."""
    return len(ranked) - bisect_left(ranked[::-1], filled + 1)


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
                  mortal: _MortalSteps, index: np.ndarray, dice: np.ndarray,
                  counts: np.ndarray) -> np.ndarray:
    """Final pmfs of wounds lost ``[cells, size]`` of cells whose die scores either unsaved
    wounds (pmf ``q(x)``) or one critical wound (probability c), never both.

    One die is then the Markov step ``Q = q(M)`` (M: one unsaved wound) or a critical wound,
    and ``(Q + c y) ** n = sum_k C(n, k) c ** k y ** k Q ** (n - k)`` (Q and the identity
    commute): with n attack dice of pmf P, the states after the ordinary wounds, k critical
    wounds held, are ``c ** k sum_j P(j + k) C(j + k, k) e0 Q ** j``; then each critical
    wound's step. Without critical wounds that is ``sum_n P(n) e0 Q ** n``. ``counts``:
    each cell's most attack dice + 1 (:meth:`_Stack.dice_laws`)."""
    # most attack dice first (see _states_after; _stacks orders a stack's cells so), the pmfs
    # put back in order at the end
    ranked = counts.tolist()
    order = None if all(a >= b for a, b in zip(ranked, ranked[1:])) else \
        np.argsort(-counts, kind="stable")
    if order is not None:
        die, step, dice, index = die[order], step[order], dice[order], index[order]
        ranked = counts[order].tolist()
    size = step.shape[1]
    q = die[:, :, 0]
    chain = q[:, 1, None, None] * step if q.shape[1] > 1 else np.zeros_like(step)
    diagonal = np.arange(size)
    chain[:, diagonal, diagonal] += q[:, :1]
    power = step
    for u in range(2, q.shape[1]):
        power = np.matmul(power, step)
        chain += q[:, u, None, None] * power
    after = _states_after(chain, ranked)
    dice = dice[:, : after.shape[1]]   # trailing zeros of every law cut
    damage = np.matmul(dice[:, None, :], after)[:, 0, :]
    if die.shape[2] > 1:
        _held_criticals(damage, die[:, 0, 1], dice, after, mortal, index)
    if order is None:
        return damage
    out = np.empty_like(damage)
    out[order] = damage
    return out


def _held_criticals(damage: np.ndarray, critical: np.ndarray, dice: np.ndarray,
                    after: np.ndarray, mortal: _MortalSteps, index: np.ndarray) -> None:
    """``damage`` of the cells whose die scores a [DEVASTATING WOUNDS] critical wound (held
    apart) with probability ``critical``: the states after the ordinary wounds, k critical
    wounds held, then each critical wound's step (see :func:`_simple_chain`)."""
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


def _joint_chain(group: Sequence[CellTables], die: np.ndarray, step: np.ndarray,
                 mortal: _MortalSteps, index: np.ndarray, dice: np.ndarray,
                 counts: np.ndarray) -> np.ndarray:
    """Final pmfs of wounds lost ``[cells, size]`` of any cells: each cell's joint pmf of
    unsaved and critical wounds (:func:`~mathhammer.wh40k.exact_engine.tables.flat_power`), the
    unsaved wounds through the chain, then each critical wound's step (as
    :func:`mathhammer.wh40k.exact_engine.chains.apply_batch`). ``counts`` is not read (the
    signature of :func:`_simple_chain`)."""
    laws: dict[tuple, np.ndarray] = {}
    joints = []
    for j, c in enumerate(group):
        key = _dice_key(c.row)
        if key not in laws:
            laws[key] = weapon_dice_pmf(c.row)
        joints.append(flat_power(die[j], laws[key], int(c.row[N_WEAPONS])))
    u_most = max(table.shape[0] for table in joints)
    k_most = max(table.shape[1] for table in joints)
    joint = np.zeros((len(group), k_most, u_most))
    for i, table in enumerate(joints):
        joint[i, : table.shape[1], : table.shape[0]] = table.T
    per_k = np.matmul(joint, _states_after(step, [u_most] * len(group)))
    if k_most == 1:
        return per_k[:, 0]
    return _through_powers(per_k, mortal(index))
