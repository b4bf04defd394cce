"""Exact engines for Dust Tactics, in rational arithmetic (``exact_engine``, so the name
``mathhammer.dust.exact`` stays the public function): one volley (:func:`plan_pmfs`) and
multi-round exchanges (:func:`exchange_exact`, a Markov chain over both sides' states).

It reads the same compiled rows as the Monte Carlo kernels. Within one declared weapon all
dice are independent and identical, so the engine builds the pmf of what *one* die yields
(hits after rerolls and phaser or laser expansion, then binomial thinning by evade, cover
and Damage Resilient) and raises it to the n-th convolution power; weapons aimed at the same
target are convolved. Every probability is a :class:`fractions.Fraction`.

Unbounded laser chains (``laser_chain_depth=None``) give hits an infinite support. One such
die is a rational probability generating function ``N(z) / D(z)`` (:class:`Series`), and
thinning, scaling, sums and powers keep that form, so the probabilities are still exact
rationals: they are listed up to the value where the probability left beyond it falls to
:data:`TAIL_TOLERANCE` or below (at least up to the target's capacity, so losses, boxes and
P(destroyed) are exact). A support longer than :data:`MAX_SUPPORT` values is refused with
:class:`~mathhammer.errors.UnsupportedError`.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import NamedTuple

import numpy as np

from mathhammer.dust.compile import (
    COVER, DAMAGE, DEPTH, DR, EVADE, KIND, LASER, PER_POINT, PHASER, REROLL, SUB_N,
    SUB_REROLL, SUB_THR, TARGET, THR, N_DICE, CompiledPlan,
)
from mathhammer.errors import UnsupportedError

Pmf = tuple[Fraction, ...]
_ONE: Pmf = (Fraction(1),)

#: An infinite pmf is listed until at most this much probability is left beyond it.
TAIL_TOLERANCE = Fraction(1, 10 ** 15)
#: Longest infinite pmf the engine lists before refusing (values 0 .. MAX_SUPPORT - 1); the
#: same bound as :data:`MAX_EXACT_OUTCOMES` for bounded pmfs.
MAX_SUPPORT = 500
#: What one unbounded laser die counts for in :func:`check_exact_size`.
UNBOUNDED_REACH = 3


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


def _after_saves(hits, row: tuple[int, ...], thin_by: Callable, scale_by: Callable):
    """(damage before saves, damage after saves) from the hits of one die (section 5).

    Generic over the representation: pmf tuples with :func:`thin`/:func:`scale`, or
    :class:`Series` with its methods.
    """
    damage = row[DAMAGE]
    raw = scale_by(hits, damage)
    kept = thin_by(hits, Fraction(6 - row[EVADE], 6))
    cover_keep = Fraction(6 - row[COVER], 6)
    if row[PER_POINT]:
        points = thin_by(scale_by(kept, damage), cover_keep)
    else:
        points = scale_by(thin_by(kept, cover_keep), damage)
    return raw, thin_by(points, Fraction(6 - row[DR], 6))


def is_unbounded(row: tuple[int, ...]) -> bool:
    """A laser row whose chain of extra dice has no limit (infinite support)."""
    return row[KIND] == LASER and row[DEPTH] < 0


@lru_cache(maxsize=4096)
def die_pmfs(row: tuple[int, ...]) -> tuple[Pmf, Pmf, Pmf]:
    """(hits, damage before saves, damage after saves) of ONE die of a bounded row."""
    q = _success(row[THR], bool(row[REROLL]))
    kind = row[KIND]
    if kind == PHASER:
        sub = binomial(row[SUB_N], Fraction(row[SUB_THR], 6))
        hits = tuple(q * p for p in sub)
        hits = (hits[0] + 1 - q,) + hits[1:]
    elif kind == LASER:
        if is_unbounded(row):
            raise UnsupportedError("an unbounded laser chain has no finite pmf per die; "
                                   "use die_series")
        depth = row[DEPTH]
        pe = _success(row[SUB_THR], bool(row[SUB_REROLL]))
        chain = [pe ** k * (1 - pe) for k in range(depth)] + [pe ** depth]
        hits = (1 - q,) + tuple(q * c for c in chain)
    else:
        hits = (1 - q, q)
    return (hits, *_after_saves(hits, row, thin, scale))


@lru_cache(maxsize=4096)
def row_pmfs(row: tuple[int, ...], n_dice: int) -> tuple[Pmf, Pmf, Pmf]:
    """(hits, damage before saves, damage after saves) of ``n_dice`` dice of a bounded row."""
    return tuple(power(p, n_dice) for p in die_pmfs(row))  # type: ignore[return-value]


# -- rational generating functions (unbounded laser chains) ----------------------------------
def _compose(outer: Pmf, inner: Pmf) -> Pmf:
    """Coefficients of the polynomial ``outer(inner(z))`` (Horner's scheme)."""
    result: Pmf = (outer[-1],)
    for c in reversed(outer[:-1]):
        result = convolve(result, inner)
        result = (result[0] + c,) + result[1:]
    return result


@dataclass(frozen=True)
class Series:
    """The probability generating function ``num(z) / den(z)`` of a count (``den(0) != 0``).

    ``Series(pmf)`` is a finite pmf. Binomial thinning substitutes ``z -> 1 - k + k z``,
    scaling by ``d`` substitutes ``z -> z**d``, an independent sum multiplies; each keeps a
    ratio of polynomials, whose power series (the probabilities) follows from
    ``den * f = num`` coefficient by coefficient.

    Examples
    --------
    >>> geometric = Series((Fraction(1, 2),), (Fraction(1), Fraction(-1, 2)))
    >>> [str(p) for p in geometric.coefficients(3)], geometric.mean()
    (['1/2', '1/4', '1/8'], Fraction(1, 1))
    """

    num: Pmf
    den: Pmf = _ONE

    @property
    def finite(self) -> bool:
        return len(self.den) == 1

    def times(self, other: Series) -> Series:
        """The generating function of the sum of two independent counts."""
        if self.finite and other.finite:
            factor = self.den[0] * other.den[0]
            return Series(tuple(c / factor for c in convolve(self.num, other.num)))
        return Series(convolve(self.num, other.num), convolve(self.den, other.den))

    def power(self, n: int) -> Series:
        return Series(power(self.num, n), power(self.den, n))

    def thin(self, keep: Fraction) -> Series:
        return self if keep == 1 else Series(_compose(self.num, (1 - keep, keep)),
                                             _compose(self.den, (1 - keep, keep)))

    def scale(self, factor: int) -> Series:
        if factor == 1:
            return self
        inner = (Fraction(0),) * factor + (Fraction(1),)
        return Series(_compose(self.num, inner), _compose(self.den, inner))

    def mean(self) -> Fraction:
        """``f'(1)`` by the quotient rule."""
        zero = Fraction(0)
        n1, d1 = sum(self.num, zero), sum(self.den, zero)
        dn = sum((k * c for k, c in enumerate(self.num)), zero)
        dd = sum((k * c for k, c in enumerate(self.den)), zero)
        return (dn * d1 - n1 * dd) / (d1 * d1)

    def iter_coefficients(self) -> Iterator[Fraction]:
        """P(X = 0), P(X = 1), ... without end."""
        num, den = self.num, self.den
        out: list[Fraction] = []
        m = 0
        while True:
            value = num[m] if m < len(num) else Fraction(0)
            for i in range(1, min(m, len(den) - 1) + 1):
                value -= den[i] * out[m - i]
            value /= den[0]
            out.append(value)
            yield value
            m += 1

    def coefficients(self, count: int) -> Pmf:
        """The first ``count`` probabilities P(X = 0), ..., P(X = count - 1)."""
        values = self.iter_coefficients()
        return tuple(next(values) for _ in range(count))

    def capped(self, cap: int) -> Pmf:
        """Exact pmf of ``min(X, cap)`` (the last entry holds P(X >= cap))."""
        head = self.coefficients(cap)
        return head + (1 - sum(head, Fraction(0)),)

    def listed(self, at_least: int = 1) -> Pmf:
        """Exact probabilities from 0 up to where at most :data:`TAIL_TOLERANCE` is left
        (and at least ``at_least`` values).

        Raises
        ------
        UnsupportedError
            When that takes more than :data:`MAX_SUPPORT` values.
        """
        if self.finite:
            return tuple(c / self.den[0] for c in self.num)
        out: list[Fraction] = []
        left = Fraction(1)
        for value in self.iter_coefficients():
            out.append(value)
            left -= value
            if len(out) >= at_least and left <= TAIL_TOLERANCE:
                return tuple(out)
            if len(out) >= MAX_SUPPORT:
                raise UnsupportedError(
                    f"the exact engine lists at most {MAX_SUPPORT:,} values of an unbounded "
                    f"laser chain, and {float(left):.2g} of the probability is still beyond "
                    "them; use the Monte Carlo engine or a finite laser_chain_depth")
        raise AssertionError("unreachable")  # pragma: no cover


@lru_cache(maxsize=1024)
def die_series(row: tuple[int, ...]) -> tuple[Series, Series, Series]:
    """(hits, damage before saves, damage after saves) of ONE die as generating functions.

    For an unbounded laser, a die hits with probability q and each hit rolls one more die
    that adds a hit with probability pe, without end: ``(1 - q) + q z (1 - pe) / (1 - pe z)``.
    Bounded rows give finite series.
    """
    if not is_unbounded(row):
        return tuple(Series(p) for p in die_pmfs(row))  # type: ignore[return-value]
    q = _success(row[THR], bool(row[REROLL]))
    pe = _success(row[SUB_THR], bool(row[SUB_REROLL]))
    hits = Series((1 - q, q * (1 - pe) - (1 - q) * pe), (Fraction(1), -pe))
    return (hits, *_after_saves(hits, row, Series.thin, Series.scale))


def row_series(row: tuple[int, ...], n_dice: int) -> tuple[Series, Series, Series]:
    """(hits, damage before saves, damage after saves) of ``n_dice`` dice of any row."""
    if not is_unbounded(row):
        return tuple(Series(p) for p in row_pmfs(row, n_dice))  # type: ignore[return-value]
    return tuple(s.power(n_dice) for s in die_series(row))  # type: ignore[return-value]


_QUANTITIES = ("hits", "damage_before_saves", "damage")


#: Most damage one target's exact pmf may reach (a pmf of 500 outcomes takes about a
#: second in rational arithmetic; the cost grows with the square of the outcomes).
MAX_EXACT_OUTCOMES = 500


def damage_reach(rows: np.ndarray | Sequence[np.ndarray],
                 dice: Sequence[int]) -> dict[int, int]:
    """Most damage a volley can deal per target (``rows`` compiled rows, ``dice[r]`` dice
    for row ``r``); an unbounded laser die counts for :data:`UNBOUNDED_REACH`."""
    most: dict[int, int] = {}
    for row, n in zip(rows, dice):
        key = tuple(int(v) for v in row)
        # an unbounded laser die has no largest value: count its mean (at most 9/4) and room
        # for the tail; Series.listed stops a longer list anyway
        depth = UNBOUNDED_REACH if is_unbounded(key) else key[DEPTH] + 1
        per_die = max(key[SUB_N] if key[KIND] == PHASER else 1,
                      depth if key[KIND] == LASER else 1) * max(key[DAMAGE], 1)
        most[key[TARGET]] = most.get(key[TARGET], 0) + max(int(n), 0) * per_die
    return most


def check_exact_size(rows: np.ndarray, dice: Sequence[int]) -> None:
    """Refuse, before any work, a volley whose damage could exceed :data:`MAX_EXACT_OUTCOMES`
    on one target (``rows`` compiled rows, ``dice[r]`` dice for row ``r``).

    Raises
    ------
    UnsupportedError
        Naming the reach, the limit and the Monte Carlo engine.
    """
    worst = max(damage_reach(rows, dice).values(), default=0)
    if worst > MAX_EXACT_OUTCOMES:
        raise UnsupportedError(f"the exact engine would follow up to {worst:,} damage on one "
                               f"target (limit {MAX_EXACT_OUTCOMES:,}); use the Monte Carlo "
                               "engine (simulate) for this many dice")


def plan_pmfs(plan: CompiledPlan) -> list[dict[str, Pmf]]:
    """Per target: exact pmfs of ``hits``, ``damage_before_saves`` and ``damage``.

    With an unbounded laser aimed at a target, its pmfs are listed as :meth:`Series.listed`
    says (every listed value exact; ``damage`` at least up to the target's capacity).
    """
    check_exact_size(plan.rows, [int(row[0]) for row in plan.rows])
    out = []
    for t in range(len(plan.targets)):
        keys = [tuple(int(v) for v in row) for row in plan.rows if row[TARGET] == t]
        if not any(is_unbounded(k) for k in keys):
            acc = {name: _ONE for name in _QUANTITIES}
            for key in keys:
                for name, pmf in zip(_QUANTITIES, row_pmfs(key, key[0])):
                    acc[name] = convolve(acc[name], pmf)
            out.append(acc)
            continue
        series = [Series(_ONE)] * 3
        for key in keys:
            series = [s.times(r) for s, r in zip(series, row_series(key, key[0]))]
        cap = int(plan.capacity[t])
        out.append({name: s.listed(cap + 2) for name, s in zip(_QUANTITIES, series)})
    return out


def volley_pmf(rows: np.ndarray, dice: tuple[int, ...], cap: int | None = None) -> Pmf:
    """Damage pmf of a volley: row ``r`` rolls ``dice[r]`` dice.

    With ``cap``, the pmf of ``min(damage, cap)`` (needed when a row is unbounded).
    """
    check_exact_size(rows, dice)
    keys = [(tuple(int(v) for v in row), n) for row, n in zip(rows, dice) if n > 0]
    if any(is_unbounded(key) for key, _ in keys):
        if cap is None:
            raise UnsupportedError("an unbounded laser volley needs a cap on the damage")
        total = Series(_ONE)
        for key, n in keys:
            total = total.times(row_series(key, n)[2])
        return total.capped(cap)
    pmf = _ONE
    for key, n in keys:
        pmf = convolve(pmf, row_pmfs(key, n)[2])
    if cap is None or len(pmf) <= cap + 1:
        return pmf
    return pmf[:cap] + (sum(pmf[cap:], Fraction(0)),)


def to_float(pmf: Pmf) -> np.ndarray:
    return np.array([float(p) for p in pmf], dtype=np.float64)


# -- multi-round exchanges: a Markov chain over both sides' states -------------------------

#: Largest number of distinct exchange states (models alive per group and losses of both
#: sides) the exact engine follows before refusing.
MAX_EXCHANGE_STATES = 100_000
#: Most work the exact exchange may do, estimated before any: state pairs x rounds x the
#: transitions out of each (a damage outcome and each way to remove that many models), plus
#: the rational volley convolutions. A unit is a few rational operations, 1 to 2
#: microseconds: 1,500,000 is at most about three seconds (three groups of 30 models: one
#: round under a fixed casualty policy is accepted, 0.4 s; two rounds, or one under the
#: ``random`` policy, are refused).
MAX_EXCHANGE_WORK = 1_500_000
#: Candidate removal patterns the ``random`` policy tries in the time of one exact step.
ENUMERATION_PER_STEP = 10
#: Dice rolled in an exchange after which one exact step costs about twice as much (the
#: fractions' denominators grow with every die: 100 rounds of 20 dice a side cost ~10x).
DICE_PER_DIGIT_GROWTH = 200


class KernelSide(NamedTuple):
    """An :class:`ExchangeSide` as :func:`mathhammer.dust.kernels.exchange_kernel` takes it
    (numba passes a named tuple of arrays as it passes the arrays); ``order`` is never
    ``None``. Built by :meth:`ExchangeSide.kernel_side`."""

    rows: np.ndarray
    carries: np.ndarray
    counts: np.ndarray
    order: np.ndarray
    is_squad: bool
    capacity: int
    models: int


@dataclass(frozen=True, eq=False)
class ExchangeSide:
    """One side of an exchange (both engines); ``order`` is ``None`` under ``random``.

    Parameters
    ----------
    rows
        Compiled rows against the other side, one die per carrier (``N_DICE`` 1).
    carries
        ``carries[g, r]``: 1 when a model of group ``g`` carries row ``r``.
    counts
        Models per group at full strength.
    order
        The order groups lose models in (a fixed casualty policy), or ``None``.
    is_squad, capacity, models
        Whether losses are models, and the losses (models or boxes) that destroy the side.
    """

    rows: np.ndarray
    carries: np.ndarray
    counts: np.ndarray
    order: np.ndarray | None
    is_squad: bool
    capacity: int
    models: int

    def dice(self, alive: tuple[int, ...], cache: dict) -> tuple[int, ...]:
        """Dice each row rolls with ``alive`` models per group (vehicles: printed dice)."""
        if alive not in cache:
            dice = tuple(int(v) for v in (np.array(alive) @ self.carries) * self.rows[:, N_DICE]) \
                if len(self.rows) else ()
            cache[alive] = dice
        return cache[alive]

    def kernel_side(self) -> KernelSide:
        """The side as the Monte Carlo exchange kernel takes it: one argument, the casualty
        order made explicit (groups in order under the ``random`` policy, which ignores it)."""
        order = np.arange(len(self.counts), dtype=np.int64) if self.order is None \
            else self.order
        return KernelSide(self.rows, self.carries, self.counts, order, self.is_squad,
                          self.capacity, self.models)

    def removals(self, alive: tuple[int, ...], lost: int, damage: int
                 ) -> list[tuple[Fraction, tuple[int, ...], int]]:
        """``[(p, alive after, losses after)]`` when ``damage`` points hit this side."""
        take = min(damage, self.capacity - lost)
        removed = min(take, self.models - lost) if self.is_squad else 0
        order = None if self.order is None else tuple(int(g) for g in self.order)
        return [(p, left, lost + take) for p, left in _removals(alive, order, removed)]


def _removals(alive: tuple[int, ...], order: tuple[int, ...] | None, count: int
              ) -> list[tuple[Fraction, tuple[int, ...]]]:
    """Ways a squad with ``alive`` models per group loses ``count`` models.

    A fixed ``order`` (the deterministic casualty policies) empties groups in that order;
    ``None`` (the ``random`` policy: each loss is a model picked uniformly among those left)
    takes ``x_g`` models from group ``g`` with the multivariate hypergeometric probability
    ``prod_g C(alive_g, x_g) / C(sum alive, count)``.

    Examples
    --------
    >>> [(str(p), left) for p, left in _removals((2, 1), None, 1)]
    [('1/3', (2, 0)), ('2/3', (1, 1))]
    """
    if count <= 0:
        return [(Fraction(1), alive)]
    if order is not None:
        left = list(alive)
        for g in order:
            take = min(count, left[g])
            left[g] -= take
            count -= take
        return [(Fraction(1), tuple(left))]
    total = comb(sum(alive), count)
    out = []
    for taken in itertools.product(*(range(min(a, count) + 1) for a in alive)):
        if sum(taken) == count:
            weight = 1
            for a, x in zip(alive, taken):
                weight *= comb(a, x)
            out.append((Fraction(weight, total), tuple(a - x for a, x in zip(alive, taken))))
    return out


def _side_states(side: ExchangeSide) -> int:
    """Distinct (models alive per group, losses) states one side can be in."""
    if side.is_squad and side.order is None:
        return int(np.prod([int(c) + 1 for c in side.counts], dtype=float))
    return side.capacity + 1


def full_dice(side: ExchangeSide) -> tuple[int, ...]:
    """Dice each row of ``side`` rolls at full strength (both engines size their work by
    it)."""
    if not len(side.rows):
        return ()
    return tuple(int(v) for v in (side.counts @ side.carries) * side.rows[:, N_DICE])


def _transitions(target: ExchangeSide, reach: int) -> int:
    """Steps one state of ``target`` takes when hit by up to ``reach`` damage: one per damage
    value or, under the ``random`` policy, one per pattern of removed models, plus the
    candidate patterns it tries (:data:`ENUMERATION_PER_STEP` to a step)."""
    values = min(reach, target.capacity) + 1
    if not (target.is_squad and target.order is None):
        return values
    ways = [1]  # ways[k]: removal patterns of k models in all (one polynomial per group)
    for count in (int(c) for c in target.counts):
        ways = [sum(ways[k - x] for x in range(min(count, k) + 1) if k - x < len(ways))
                for k in range(len(ways) + count)]
    moves = 0.0
    for d in range(values):
        tried = np.prod([min(int(c), d) + 1 for c in target.counts], dtype=float)
        moves += (ways[d] if d < len(ways) else 0) + tried / ENUMERATION_PER_STEP
    return int(moves) + 1


def exchange_work(side_a: ExchangeSide, side_b: ExchangeSide, rounds: int) -> int:
    """Work units of the exact exchange, estimated before any work.

    Each half-round walks every reachable state pair through every transition of the side
    being hit; the states reachable grow from one pair up to every pair. Exact fractions
    grow longer with every die rolled, so a step costs more each round: it is weighted by
    ``1 + dice rolled so far / DICE_PER_DIGIT_GROWTH``. Each distinct pool a side can fire
    costs one volley convolution (:func:`_pool_cost`).
    """
    sides = (side_a, side_b)
    states = [_side_states(side) for side in sides]
    reach = [max(damage_reach(s.rows, full_dice(s)).values(), default=0) for s in sides]
    moves = [_transitions(side_b, reach[0]), _transitions(side_a, reach[1])]
    rolled = [sum(full_dice(side)) for side in sides]
    reached, work, so_far = [1, 1], 0, 0
    for _ in range(rounds):
        for hit in (1, 0):
            so_far += rolled[1 - hit]
            weight = 1 + so_far / DICE_PER_DIGIT_GROWTH
            work += int(reached[0] * reached[1] * moves[1 - hit] * weight)
            reached[hit] = min(states[hit], reached[hit] * moves[1 - hit])
            if work > MAX_EXCHANGE_WORK:
                return work
    return work + sum(reached[i] * _pool_cost(side) for i, side in enumerate(sides))


def _pool_cost(side: ExchangeSide) -> int:
    """Rational products one volley convolution of ``side`` at full strength takes."""
    cost, acc = 0, 1
    for row, n in zip(side.rows, full_dice(side)):
        width = max(damage_reach([row], [n]).values(), default=0) + 1
        cost += acc * width
        acc += width - 1
    return cost


def check_exchange_work(side_a: ExchangeSide, side_b: ExchangeSide, rounds: int) -> None:
    """Refuse up front an exact exchange past :data:`MAX_EXCHANGE_WORK`."""
    work = exchange_work(side_a, side_b, rounds)
    if work > MAX_EXCHANGE_WORK:
        groups = max(len(side_a.counts), len(side_b.counts))
        raise UnsupportedError(
            f"the exact exchange would take about {work:,} steps over {rounds} round"
            f"{'s' if rounds != 1 else ''} (limit {MAX_EXCHANGE_WORK:,}: states "
            f"{_side_states(side_a):,} x {_side_states(side_b):,}, up to {groups} model "
            "groups); use method='monte-carlo' ({--method}), or fewer rounds, "
            "models or groups, or a fixed casualty policy", options={"method": "monte-carlo"})


def _volley(shooter: ExchangeSide, dice: tuple[int, ...], room: int, cache: dict) -> Pmf:
    """Damage pmf of ``dice`` from ``shooter``, capped at ``room`` (``cache`` is the
    shooter's own); a bounded volley is convolved once per pool and capped after."""
    bounded = not any(is_unbounded(tuple(int(v) for v in row)) for row in shooter.rows)
    key = (dice, None if bounded else room)
    if key not in cache:
        cache[key] = volley_pmf(shooter.rows, dice, None if bounded else room)
    pmf = cache[key]
    if len(pmf) <= room + 1:
        return pmf
    return pmf[:room] + (sum(pmf[room:], Fraction(0)),)


def exchange_exact(side_a: ExchangeSide, side_b: ExchangeSide, rounds: int
                    ) -> tuple[list[Fraction], list[Fraction]]:
    """Exact loss pmfs of both sides: a Markov chain over (alive per group, losses) x 2.

    Raises
    ------
    UnsupportedError
        When more than :data:`MAX_EXCHANGE_STATES` states are reachable (large squads of
        many groups under the ``random`` casualty policy), or, before any work, when
        :func:`exchange_work` passes :data:`MAX_EXCHANGE_WORK`.
    """
    check_exchange_work(side_a, side_b, rounds)
    start = (tuple(int(c) for c in side_a.counts), 0, tuple(int(c) for c in side_b.counts), 0)
    state: dict[tuple, Fraction] = {start: Fraction(1)}
    dice_cache: tuple[dict, dict] = ({}, {})
    pmf_cache: tuple[dict, dict] = ({}, {})
    for _ in range(rounds):
        for shooter, target, index in ((side_a, side_b, 0), (side_b, side_a, 1)):
            nxt: dict[tuple, Fraction] = defaultdict(Fraction)
            for key, p in state.items():
                alive_a, lost_a, alive_b, lost_b = key
                if lost_a >= side_a.capacity or lost_b >= side_b.capacity:
                    nxt[key] += p
                    continue
                own, (their_alive, their_lost) = ((alive_a, (alive_b, lost_b)) if index == 0
                                                  else (alive_b, (alive_a, lost_a)))
                dice = shooter.dice(own, dice_cache[index])
                room = target.capacity - their_lost
                for damage, q in enumerate(_volley(shooter, dice, room, pmf_cache[index])):
                    if not q:
                        continue
                    for r, left, lost in target.removals(their_alive, their_lost, damage):
                        new = ((alive_a, lost_a, left, lost) if index == 0
                               else (left, lost, alive_b, lost_b))
                        nxt[new] += p * q * r
            state = nxt
            if len(state) > MAX_EXCHANGE_STATES:
                raise UnsupportedError(
                    f"the exact exchange reached more than {MAX_EXCHANGE_STATES:,} states "
                    "(squads with many model groups under the random casualty policy); use "
                    "method='monte-carlo'")
    pa = [Fraction(0)] * (side_a.capacity + 1)
    pb = [Fraction(0)] * (side_b.capacity + 1)
    for (_, lost_a, _, lost_b), p in state.items():
        pa[lost_a] += p
        pb[lost_b] += p
    return pa, pb
