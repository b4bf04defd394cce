"""The per-batch tables of the 40k exact engine, computed once and remembered.

Everything here is a pure function of a few small integer tables of a compiled plan (one
batch row, its hit and wound tables, one group's save table, its damage law), so each result
is memoised on the bytes of those tables. A grid, a sweep or a roster matrix that meets the
same weapon against the same save, or the same damage against the same models, builds the
table once; a repeated answer builds nothing. Returned arrays are read-only: copy before
changing one.

Generating functions are tables over (u, k): ``P[u, k]`` is the probability of u unsaved
ordinary wounds and k [DEVASTATING WOUNDS] critical wounds. Every table holds non-negative
numbers and is only ever multiplied and added, so each entry keeps its relative precision
(a tail probability of 1e-30 is still right to 15 digits): no FFT, no subtraction.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import accumulate
from typing import Any

import numpy as np

from mathhammer.wh40k.compile import (A_CONST, A_COUNT, A_SIDES, AUTO_HIT, BONUS_COUNT,
                                      BONUS_DICE, DEVASTATING, EXTRA_CRIT, HIT_CLASS, HIT_REROLL,
                                      LETHAL, N_WEAPONS, RF_CONST, RF_COUNT, RF_SIDES,
                                      SAVE_FAILS, SAVE_REROLL, SUS_CONST, SUS_COUNT, SUS_SIDES,
                                      WOUND_CLASS, WOUND_REROLL, dice_pmf, max_attack_dice,
                                      weapon_dice_pmf)

#: Memoised tables kept per kind (least recently used dropped first). With the size caps
#: below, each kind holds at most about 80 MB however it is used.
CACHE_SIZE = 512
#: Largest Markov step (states x states) remembered; bigger ones are rebuilt when needed.
MAX_CACHED_STATES = 128
#: Largest (unsaved, critical) table remembered, in cells (about 160 kB).
MAX_CACHED_CELLS = 20_000


def frozen(array: np.ndarray) -> np.ndarray:
    """``array`` marked read-only (a memoised table must never be changed in place)."""
    array.flags.writeable = False
    return array


class Memo:
    """Tables remembered by key, the least recently used dropped past ``size`` entries.

    Unlike ``functools.lru_cache`` the caller builds a missing table itself, from the
    arrays it already holds (a cache keyed on bytes would otherwise rebuild them from the
    bytes): ``memo.get(key)``, then ``memo.put(key, table)`` on a miss.
    """

    __slots__ = ("size", "tables")

    def __init__(self, size: int) -> None:
        self.size = size
        self.tables: dict[Hashable, Any] = {}

    def get(self, key: Hashable) -> Any:
        """The table remembered under ``key`` (now the most recently used), or None."""
        table = self.tables.pop(key, None)
        if table is not None:
            self.tables[key] = table
        return table

    def put(self, key: Hashable, table: Any) -> Any:
        """Remember ``table`` under ``key``; returns ``table``."""
        self.tables[key] = table
        if len(self.tables) > self.size:
            try:
                del self.tables[next(iter(self.tables))]
            except (KeyError, RuntimeError, StopIteration):   # another thread got there first
                pass
        return table

    def clear(self) -> None:
        self.tables.clear()


_JOINTS = Memo(CACHE_SIZE)
_TOTALS = Memo(CACHE_SIZE)
_TRANSITIONS = Memo(CACHE_SIZE)


def joint_pmf(row: np.ndarray, rolls: np.ndarray, saves: np.ndarray) -> np.ndarray:
    """Joint pmf ``P[u, k]`` of one batch's unsaved ordinary wounds and [DEVASTATING WOUNDS]
    critical wounds (read-only, memoised).

    Parameters
    ----------
    row
        The batch's row of :attr:`CompiledPlan.batch`.
    rolls
        Its hit and wound tables (``CompiledPlan.rolls[b]``).
    saves
        One group's save table (``CompiledPlan.saves[b, group]``).
    """
    key, row, rolls, saves = _tables_key(row, rolls, saves)
    found = _JOINTS.get(key)
    if found is not None:
        return found
    values = row.tolist()
    joint = _joint(values, rolls.tolist(), saves.tolist())
    hits = max_attack_dice(values) * (1 + values[SUS_COUNT] * max(values[SUS_SIDES], 1)
                                      + values[SUS_CONST])
    return _JOINTS.put(key, joint) if (hits + 1) ** 2 <= MAX_CACHED_CELLS else joint


def _tables_key(row: np.ndarray, rolls: np.ndarray, saves: np.ndarray
                ) -> tuple[tuple[bytes, bytes, bytes], np.ndarray, np.ndarray, np.ndarray]:
    """The memo key of a batch's tables, and the tables as contiguous int64 arrays."""
    row = np.ascontiguousarray(row, dtype=np.int64)
    rolls = np.ascontiguousarray(rolls, dtype=np.int64)
    saves = np.ascontiguousarray(saves, dtype=np.int64)
    return (row.tobytes(), rolls.tobytes(), saves.tobytes()), row, rolls, saves


def _joint(row: list[int], rolls: list[list[int]], saves: list[list[int]]) -> np.ndarray:
    die = attack_die_gf(row, rolls, saves)
    if die.shape[1] == 1:
        return frozen(_batch_power_1d(die[:, 0], row)[:, None])
    per_weapon, weapons = weapon_dice_pmf(row), row[N_WEAPONS]
    # The attack dice are the sum of the weapons' independent dice: the batch's generating
    # function is one weapon's raised to their number (by squaring).
    rows, cols = die.shape   # trimmed: attack_die_gf keeps only positive cells
    most = weapons * (len(per_weapon) - 1)
    if (most * (rows - 1) + 1) * (most * (cols - 1) + 1) <= MAX_FLAT_CELLS:
        return frozen(flat_power(die, per_weapon, weapons))
    return frozen(mix_powers(die, power_1d(per_weapon, weapons)))


def wound_total_pmf(row: np.ndarray, rolls: np.ndarray, saves: np.ndarray) -> np.ndarray:
    """Pmf of U + K, the batch's unsaved ordinary wounds plus its [DEVASTATING WOUNDS]
    critical wounds (read-only, memoised): all the chain needs when a critical wound moves
    it exactly as an unsaved wound does (same damage, same Feel No Pain, inflicted at once).

    The same arguments as :func:`joint_pmf`; equal to the sums of its anti-diagonals, from
    one-dimensional generating functions (one die: none, or one wound of either kind).
    """
    key, row, rolls, saves = _tables_key(row, rolls, saves)
    found = _TOTALS.get(key)
    if found is not None:
        return found
    values = row.tolist()
    die = attack_die_gf(values, rolls.tolist(), saves.tolist())
    rows, cols = die.shape
    if cols == 1:
        one_die = die[:, 0]
    else:   # the die's anti-diagonals: i unsaved and j critical wounds count i + j
        one_die = np.zeros(rows + cols - 1)
        for j in range(cols):
            one_die[j : j + rows] += die[:, j]
    total = frozen(_batch_power_1d(one_die, values))
    hits = max_attack_dice(values) * (1 + values[SUS_COUNT] * max(values[SUS_SIDES], 1)
                                      + values[SUS_CONST])
    return _TOTALS.put(key, total) if (hits + 1) ** 2 <= MAX_CACHED_CELLS else total


def _batch_power_1d(die: np.ndarray, row: list[int]) -> np.ndarray:
    """The batch's generating function from one die's (1-D): one weapon's mixture over its
    attack dice, to the power of the weapons."""
    if not (row[A_COUNT] or row[A_SIDES] or row[BONUS_COUNT] or row[RF_COUNT]
            or row[RF_SIDES]):   # a fixed number of dice per weapon
        dice = row[A_CONST] + row[BONUS_DICE] + row[RF_CONST]
        one = die if dice == 1 else power_1d(die, dice)
    else:
        per_weapon = weapon_dice_pmf(row)
        one = _mix_powers_1d(die, per_weapon, *_support(per_weapon))
    return power_1d(one, row[N_WEAPONS])


def _support(pmf: np.ndarray) -> tuple[int, int]:
    """First and last index of ``pmf`` with a positive probability."""
    nonzero = (pmf > 0).nonzero()[0]
    return int(nonzero[0]), int(nonzero[-1])


#: Largest (unsaved, critical) table whose powers are taken as one flattened polynomial.
MAX_FLAT_CELLS = 2_048


def flat_power(die: np.ndarray, per_weapon: np.ndarray, weapons: int) -> np.ndarray:
    """``(sum_n per_weapon[n] die ** n) ** weapons`` for a small 2-D ``die``, by Kronecker
    substitution: cell (u, k) is coefficient ``u * K + k`` of a 1-D polynomial, with K above
    the largest total k, so 1-D products (np.convolve, no FFT: sums of non-negative
    products) never mix two cells."""
    rows, cols = die.shape
    most = weapons * (len(per_weapon) - 1)
    width = most * (cols - 1) + 1
    flat = np.zeros((rows - 1) * width + cols)
    for i in range(rows):
        flat[i * width : i * width + cols] = die[i]
    one = _mix_powers_1d(flat, per_weapon, *_support(per_weapon))
    total = power_1d(one, weapons)
    height = most * (rows - 1) + 1
    out = np.zeros(height * width)
    out[: len(total)] = total[: height * width]
    return out.reshape(height, width)


def attack_die_gf(row: np.ndarray | list[int], rolls: np.ndarray | list[list[int]],
                  saves: np.ndarray | list[list[int]]) -> np.ndarray:
    """Generating function of one attack die: hit roll, [SUSTAINED HITS] extra hits,
    [LETHAL HITS] automatic wounds, wound and save rolls (from a batch row, its hit and wound
    tables and one group's save table, as arrays or lists).

    A table of a few cells, built with Python floats (one numpy array at the end): numpy
    calls on 2x2 tables cost more than the arithmetic."""
    return _die_gf(_as_list(row), _as_list(rolls), _as_list(saves))


def _die_gf(row: list[int], rolls: list[list[int]], saves: list[list[int]]) -> np.ndarray:
    fail_hit, hit, crit = ((0.0, 1.0, 0.0) if row[AUTO_HIT] else
                           _outcomes(rolls[HIT_CLASS], rolls[HIT_REROLL]))
    _, wound, crit_wound = _outcomes(rolls[WOUND_CLASS], rolls[WOUND_REROLL])
    if any(saves[SAVE_REROLL][1:7]):
        faces = _faces(saves[SAVE_REROLL])
        unsaved = 0.0
        for face in range(7):
            if saves[SAVE_FAILS][face] == 1:
                unsaved += faces[face]
    else:
        unsaved = SIXTHS[saves[SAVE_FAILS][1:7].count(1)]
    devastating = crit_wound if row[DEVASTATING] else 0.0
    ordinary = (wound + (0.0 if row[DEVASTATING] else crit_wound)) * unsaved
    if not (row[SUS_COUNT] or row[SUS_SIDES] or row[SUS_CONST]):
        return _plain_die_gf(fail_hit, hit, crit, unsaved, ordinary, devastating,
                             bool(row[LETHAL]))
    sustained = _dice_list(row[SUS_COUNT], row[SUS_SIDES], row[SUS_CONST])
    if devastating == 0.0:
        return _sustained_die_gf(fail_hit, hit, crit, unsaved, ordinary, bool(row[LETHAL]),
                                 bool(row[LETHAL] and row[EXTRA_CRIT]), sustained)
    token = {(0, 0): max(1.0 - ordinary - devastating, 0.0), (0, 1): devastating,
             (1, 0): ordinary}
    auto = {(0, 0): 1.0 - unsaved, (1, 0): unsaved}
    extra_token = auto if (row[LETHAL] and row[EXTRA_CRIT]) else token
    extra_gf: dict[tuple[int, int], float] = {}
    power = {(0, 0): 1.0}
    for n, p in enumerate(sustained):
        if n:
            power = _times(power, extra_token)
        if p > 0:
            for cell, q in power.items():
                extra_gf[cell] = extra_gf.get(cell, 0.0) + p * q
    die = {(0, 0): fail_hit}
    for weight, table in ((hit, token), (crit, _times(auto if row[LETHAL] else token,
                                                      extra_gf))):
        for cell, q in table.items():
            die[cell] = die.get(cell, 0.0) + weight * q
    cells = {cell: p for cell, p in die.items() if p > 0}
    out = np.zeros((max((i for i, _ in cells), default=0) + 1,
                    max((j for _, j in cells), default=0) + 1))
    for (i, j), p in cells.items():
        out[i, j] = p
    return out


def _plain_die_gf(fail_hit: float, hit: float, crit: float, unsaved: float, ordinary: float,
                  devastating: float, lethal: bool) -> np.ndarray:
    """:func:`attack_die_gf` without [SUSTAINED HITS]: the same sums, in the same order,
    written out (at most three cells)."""
    token_none = max(1.0 - ordinary - devastating, 0.0)
    if lethal:   # a critical hit wounds automatically
        crit_none, crit_critical, crit_ordinary = 1.0 - unsaved, 0.0, unsaved
    else:
        crit_none, crit_critical, crit_ordinary = token_none, devastating, ordinary
    none = fail_hit + hit * token_none + crit * crit_none
    critical = hit * devastating + crit * crit_critical
    unsaved_ordinary = hit * ordinary + crit * crit_ordinary
    if critical > 0:
        return np.array([[none, critical], [unsaved_ordinary, 0.0]] if unsaved_ordinary > 0
                        else [[none, critical]])
    return np.array([[none], [unsaved_ordinary]] if unsaved_ordinary > 0 else [[none]])


def _sustained_die_gf(fail_hit: float, hit: float, crit: float, unsaved: float,
                      ordinary: float, lethal: bool, extra_auto: bool,
                      sustained: list[float]) -> np.ndarray:
    """:func:`attack_die_gf` with [SUSTAINED HITS] and no critical-wound column (a (u, 1)
    table): the same products added in the same order, over lists of unsaved wounds."""
    token = [max(1.0 - ordinary, 0.0), ordinary]
    auto = [1.0 - unsaved, unsaved]
    extra_token = auto if extra_auto else token
    extra: list[float] = []
    power = [1.0]
    for n, p in enumerate(sustained):
        if n:
            power = _times_1d(power, extra_token)
        if p > 0:
            extra += [0.0] * (len(power) - len(extra))
            for i, q in enumerate(power):
                extra[i] += p * q
    die = [fail_hit]
    for weight, table in ((hit, token), (crit, _times_1d(auto if lethal else token, extra))):
        die += [0.0] * (len(table) - len(die))
        for i, q in enumerate(table):
            die[i] += weight * q
    end = len(die)
    while end > 1 and not die[end - 1] > 0:
        end -= 1
    return np.array([[p if p > 0 else 0.0] for p in die[:end]])


def _times_1d(a: list[float], b: list[float]) -> list[float]:
    """Product of two small polynomials held as lists of coefficients."""
    out = [0.0] * (len(a) + len(b) - 1) if a and b else []
    for i, p in enumerate(a):
        for k, q in enumerate(b):
            out[i + k] += p * q
    return out


def _as_list(table: np.ndarray | list) -> list:
    return table.tolist() if isinstance(table, np.ndarray) else table


#: ``SIXTHS[n]``: n faces of a D6 rolled once, their 1/6 added one by one from 0 (the sums
#: :func:`_outcomes` makes face by face).
SIXTHS = tuple(accumulate([1.0 / 6.0] * 6, initial=0.0))


def _faces(reroll: list[int]) -> list[float]:
    """:func:`~mathhammer.wh40k.dice_laws.face_probabilities` in Python floats."""
    share = sum(reroll[1:7]) / 6.0 / 6.0   # P(re-rolled), then P(this face on the re-roll)
    return [0.0] + [(0.0 if reroll[face] else 1.0 / 6.0) + share for face in range(1, 7)]


def _outcomes(classes: list[int], reroll: list[int]) -> tuple[float, float, float]:
    """:func:`~mathhammer.wh40k.dice_laws.outcome_probabilities` in Python floats."""
    if not any(reroll[1:7]):
        kinds = classes[1:7]
        return SIXTHS[kinds.count(0)], SIXTHS[kinds.count(1)], SIXTHS[kinds.count(2)]
    faces = _faces(reroll)
    out = [0.0, 0.0, 0.0]
    for face in range(1, 7):
        out[classes[face]] += faces[face]
    return out[0], out[1], out[2]


def _dice_list(count: int, sides: int, constant: int) -> list[float]:
    """:func:`~mathhammer.wh40k.compile.dice_pmf` as a list."""
    if count == 0 and sides == 0:
        return [0.0] * constant + [1.0]
    return dice_pmf(count, sides, constant).tolist()


def _times(a: dict[tuple[int, int], float],
           b: dict[tuple[int, int], float]) -> dict[tuple[int, int], float]:
    """Product of two small generating functions held as {(u, k): p}."""
    out: dict[tuple[int, int], float] = {}
    for (i, j), p in a.items():
        for (k, m), q in b.items():
            out[(i + k, j + m)] = out.get((i + k, j + m), 0.0) + p * q
    return out


def mix_powers(gf: np.ndarray, n_pmf: np.ndarray) -> np.ndarray:
    """``sum_n n_pmf[n] * gf ** n``: the generating function of a random number of
    independent copies of ``gf`` (a 2-D table), by Horner's scheme.

    One numpy call per copy and per non-zero cell of ``gf`` (one ``np.convolve`` per copy
    when ``gf`` has no critical-wound column), on a table allocated once at its final size.
    """
    support = np.flatnonzero(np.asarray(n_pmf) > 0)
    if len(support) == 0:
        return np.zeros((1, 1))
    low, high = int(support[0]), int(support[-1])
    rows, cols = _trimmed_shape(gf)
    gf = gf[:rows, :cols]
    if cols == 1:
        return _mix_powers_1d(gf[:, 0], n_pmf, low, high)[:, None]
    out = np.zeros((high * (rows - 1) + 1, high * (cols - 1) + 1))
    out[0, 0] = n_pmf[high]
    cells = [(i, j, float(gf[i, j])) for i in range(rows) for j in range(cols) if gf[i, j]]
    extent = (1, 1)
    for n in range(high - 1, -1, -1):
        extent = _multiply_in_place(out, extent, cells, rows, cols)
        if n >= low:
            out[0, 0] += n_pmf[n]
    return out


def _mix_powers_1d(gf: np.ndarray, n_pmf: np.ndarray, low: int, high: int) -> np.ndarray:
    if low == high:   # a fixed number of copies (the same products as below)
        weight = float(n_pmf[high])
        return power_1d(gf, high) if weight == 1.0 else weight * power_1d(gf, high)
    acc = np.array([float(n_pmf[high])])
    for n in range(high - 1, low - 1, -1):
        acc = np.convolve(acc, gf)
        acc[0] += n_pmf[n]
    return np.convolve(acc, power_1d(gf, low)) if low else acc


def power_1d(gf: np.ndarray, n: int) -> np.ndarray:
    """``gf ** n`` for a 1-D polynomial, by repeated squaring."""
    if n <= 1:
        return np.array(gf, dtype=float) if n else np.ones(1)
    base = gf
    while not n & 1:   # the product starts at the lowest set bit (no product with [1.0])
        base = np.convolve(base, base)
        n >>= 1
    result = base   # never ``gf`` itself: an odd n >= 3 multiplies it below
    n >>= 1
    while n:
        base = np.convolve(base, base)
        if n & 1:
            result = np.convolve(result, base)
        n >>= 1
    return result


def _trimmed_shape(gf: np.ndarray) -> tuple[int, int]:
    """Rows and columns up to the last non-zero one (at least one each)."""
    nonzero = np.nonzero(gf)
    if len(nonzero[0]) == 0:
        return 1, 1
    return int(nonzero[0].max()) + 1, int(nonzero[1].max()) + 1


def _multiply_in_place(out: np.ndarray, extent: tuple[int, int],
                       cells: list[tuple[int, int, float]], rows: int,
                       cols: int) -> tuple[int, int]:
    """``out`` (non-zero within ``extent``) times the table whose non-zero ``cells`` are
    given, in place; returns the new extent."""
    eu, ek = extent
    current = out[:eu, :ek].copy()
    out[: eu + rows - 1, : ek + cols - 1] = 0.0
    for i, j, p in cells:
        out[i : i + eu, j : j + ek] += p * current
    return eu + rows - 1, ek + cols - 1


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Full 2-D convolution of two pmf tables (the product of their generating functions).

    One shifted add per non-zero cell of the smaller table (they are one-die tables of a few
    cells: much cheaper than a general routine)."""
    if a.size < b.size:
        a, b = b, a
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            if b[i, j] != 0.0:
                out[i : i + a.shape[0], j : j + a.shape[1]] += b[i, j] * a
    return out


def add_padded(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum of two 2-D arrays of possibly different shapes, each padded with zeros."""
    shape = (max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1]))
    out = np.zeros(shape)
    out[: a.shape[0], : a.shape[1]] += a
    out[: b.shape[0], : b.shape[1]] += b
    return out


def damage_transition(damage_pmf: np.ndarray, fnp: int, models: int, wounds: int) -> np.ndarray:
    """Markov matrix over wounds lost for one allocation of damage with Feel No Pain
    (read-only; memoised for units of up to :data:`MAX_CACHED_STATES` states).

    Each point of damage gets through Feel No Pain independently, and the model loses at
    most the wounds it has left (excess damage is lost), so the step from a state depends
    only on the wounds left on the wounded model.
    """
    pmf = np.ascontiguousarray(damage_pmf, dtype=float)
    if models * wounds + 1 > MAX_CACHED_STATES:
        return frozen(build_transition(pmf, fnp, models, wounds))
    key = (pmf.tobytes(), int(fnp), int(models), int(wounds))
    found = _TRANSITIONS.get(key)
    if found is not None:
        return found
    return _TRANSITIONS.put(key, frozen(build_transition(pmf, fnp, models, wounds)))


def build_transition(damage_pmf: np.ndarray, fnp: int, models: int, wounds: int) -> np.ndarray:
    """The matrix of :func:`damage_transition`, built afresh (writable)."""
    size = models * wounds + 1
    through_pmf = passed_damage_pmf(damage_pmf, fnp)
    passed = through_pmf.tolist()
    top = len(passed) - 1
    # tails[j] = P(K >= j): a model with j wounds left loses all of them
    tails = [0.0] * (max(top, wounds) + 2)
    total = 0.0
    for k in range(top, -1, -1):
        total += passed[k]
        tails[k] = total
    # Row s (s < size - 1): the wounded model has left = wounds - s % wounds wounds; it
    # loses k < left with P(K = k) (column s + k) and all of them with tails[left].
    matrix = np.zeros((size, size))
    if models == 1:   # one model: bands of the damage law, every cap in the last column
        flat = matrix.reshape(-1)
        for k in range(min(top, size - 2) + 1):
            flat[k : (size - 1 - k) * (size + 1) : size + 1] = passed[k]
        matrix[: size - 1, size - 1] = tails[size - 1 : 0 : -1]
    else:   # rows with the same wounds left, one per model, are evenly spaced
        per_model = matrix.reshape(-1)[: size * size - 1].reshape(models, wounds * (size + 1))
        for left in range(1, wounds + 1):
            start = (wounds - left) * (size + 1)
            span = min(left, top + 1)
            per_model[:, start : start + span] = through_pmf[:span]
            per_model[:, start + left] = tails[left]
    matrix[-1, -1] = 1.0
    return matrix


def passed_damage_pmf(damage_pmf: np.ndarray, fnp: int) -> np.ndarray:
    """``P(K = k)``: the wounds of one allocation that get through Feel No Pain (each point
    of damage on its own, ``fnp`` 7 for none), mixed over the damage law."""
    through = 1.0 - (7 - fnp) / 6.0 if fnp < 7 else 1.0
    pmf = np.asarray(damage_pmf, dtype=float)
    if through < 1.0:
        pmf = pmf @ binomial_rows(len(pmf) - 1, through)
    return pmf


def lone_model_states(state: np.ndarray, passed: np.ndarray, wounds: int,
                      count: int) -> np.ndarray:
    """``out[u]``: the law of the wounds a lone model of W ``wounds`` has lost after ``u``
    more unsaved wounds, each losing it ``passed``-distributed wounds, from ``state``.

    One model keeps no excess damage and nothing spills, so the wounds lost are
    min(W, L + K_1 + ... + K_u): one convolution per wound, capped at W (no Markov matrix).
    """
    out = np.empty((count, wounds + 1))
    out[0] = state
    for u in range(1, count):
        full = np.convolve(out[u - 1], passed)
        out[u, :wounds] = full[:wounds]
        out[u, wounds] = np.add.reduce(full[wounds:])
    return out


def binomial_rows(n_max: int, p: float) -> np.ndarray:
    """``rows[n, k] = P(Binomial(n, p) = k)`` for ``n, k`` in ``0..n_max``."""
    rows = np.zeros((n_max + 1, n_max + 1))
    rows[0, 0] = 1.0
    for n in range(1, n_max + 1):
        rows[n, : n + 1] = rows[n - 1, : n + 1] * (1.0 - p)
        rows[n, 1 : n + 1] += rows[n - 1, :n] * p
    return rows


def mapped_pmf(raw_pmf: np.ndarray, damage_map: np.ndarray) -> np.ndarray:
    """The pmf of ``damage_map[raw]`` when ``raw`` has pmf ``raw_pmf`` (damage after its
    modifiers)."""
    raw_pmf = np.asarray(raw_pmf)
    if len(raw_pmf) > MAX_LISTED_DAMAGE:
        nonzero = np.flatnonzero(raw_pmf > 0)
        return np.bincount(damage_map[nonzero], weights=raw_pmf[nonzero],
                           minlength=int(damage_map.max()) + 1).astype(float)
    damages = damage_map.tolist()
    out = [0.0] * (max(damages) + 1)
    for p, damage in zip(raw_pmf.tolist(), damages):   # in index order, as bincount adds
        if p > 0:
            out[damage] += p
    return np.array(out)


#: Longest raw damage law :func:`mapped_pmf` maps in Python floats (numpy beyond).
MAX_LISTED_DAMAGE = 64


def spill_step(mortal: np.ndarray, fnp: int, models: int, wounds: int) -> np.ndarray:
    """Markov step of ``mortal``-distributed damage dealt as that many single mortal wounds
    (each may spill onto the next model), read-only."""
    one = damage_transition(np.array([0.0, 1.0]), fnp, models, wounds)
    step = np.zeros_like(one)
    power = np.eye(one.shape[0])
    for p in mortal:
        if p > 0:
            step += p * power
        power = power @ one
    return frozen(step)


def clear_caches() -> None:
    """Forget every memoised table (for timing a first answer, or to free memory)."""
    _JOINTS.clear()
    _TOTALS.clear()
    _TRANSITIONS.clear()
