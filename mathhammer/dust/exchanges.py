"""Multi-round firefights between two Dust units: each round A fires, then what is left of B.

Pools shrink with losses: squads lose their carriers in the order of a casualty policy
(:func:`removal_order`), vehicles and heroes fire their printed dice until destroyed. The
exact engine is :func:`mathhammer.dust.exact_engine.exchange_exact` (a Markov chain), the Monte
Carlo one :func:`mathhammer.dust.monte_carlo.exchange_monte_carlo`; both read the sides
built here (:class:`~mathhammer.dust.exact_engine.ExchangeSide`). :data:`EXCHANGE` puts them under
core's contract (:class:`mathhammer.core.game.Game`), so :func:`exchange` is core's
``simulate`` or ``exact`` of the two units.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from mathhammer.core import game as contract
from mathhammer.core.game import Game, Outcomes, SeedLike, Tallies
from mathhammer.core.inputs import switch, texts, whole_number
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.core.progress import check_progress
from mathhammer.core.result import Distribution, Result
from mathhammer.core.signatures import AUTO, by_method
from mathhammer.core.trials import DEFAULT_TRIALS
from mathhammer.dust.compile import compile_row
from mathhammer.dust.exact_engine import ExchangeSide, exchange_exact, to_float
from mathhammer.dust.monte_carlo import N_CHUNKS, exchange_monte_carlo
from mathhammer.dust.parse import parse_target
from mathhammer.dust.profiles import COVER_STATES, Rules, Target, Unit, Weapon, with_switches
from mathhammer.errors import OptionError, UnsupportedError

#: Most rounds one exchange may run.
MAX_EXCHANGE_ROUNDS = 100

TargetLike = str | Target


def _side(attacker: Unit, defender: Target, weapons: Sequence[str] | None, sustained: bool,
          rules: Rules):
    """Compiled rows (dice per carrier), carrier matrix and group counts of one side."""
    names = [w.name for w in attacker.weapons] if weapons is None else list(weapons)
    lines = [attacker.weapon(n) for n in names]
    usable = [ln for ln in lines if ln.cell_for(defender.unit_class, defender.armour)
              is not None]
    if weapons is not None and len(usable) != len(lines):
        bad = [ln.name for ln in lines if ln not in usable]
        raise OptionError(f"{attacker.name!r}: {', '.join(bad)} cannot attack {defender.name!r}"
                          " ('-' on the line)")
    rows = np.zeros((len(usable), 14), dtype=np.int64)
    for i, line in enumerate(usable):
        rows[i] = compile_row(Weapon(line, 1), defender, 0, sustained, rules, None)
    if attacker.profile.is_squad:
        groups = attacker.groups
        counts = np.array([g.count for g in groups], dtype=np.int64)
        carries = np.array([[1 if ln.name in g.weapons else 0 for ln in usable]
                            for g in groups], dtype=np.int64).reshape(len(groups), len(usable))
    else:
        counts = np.ones(1, dtype=np.int64)
        carries = np.ones((1, len(usable)), dtype=np.int64)
    return rows, carries, counts


def removal_order(unit: Unit, policy: str, reference: Target | None = None) -> np.ndarray:
    """Order in which a squad's model groups lose models under a deterministic policy.

    ``protect_special``: groups without a special weapon first; ``owner_optimal``: the
    groups adding the fewest dice against ``reference`` first; ``attacker_worst``: the
    groups adding the most dice first.
    """
    if not _unit(unit, "unit").profile.is_squad:
        return np.zeros(1, dtype=np.int64)
    specials = {w.name for w in unit.weapons if w.special}

    def is_special(g):
        return any(n in specials for n in g.weapons)

    def dice(g):
        if reference is None:
            return 0
        total = 0
        for n in g.weapons:
            cell = unit.weapon(n).cell_for(reference.unit_class, reference.armour)
            if cell is not None:
                total += cell.dice * cell.damage
        return total

    idx = range(len(unit.groups))
    if policy == "protect_special":
        order = sorted(idx, key=lambda i: is_special(unit.groups[i]))
    elif policy == "owner_optimal":
        order = sorted(idx, key=lambda i: (dice(unit.groups[i]), is_special(unit.groups[i])))
    elif policy == "attacker_worst":
        order = sorted(idx, key=lambda i: (-dice(unit.groups[i]), not is_special(unit.groups[i])))
    else:
        raise UnsupportedError(f"casualty policy {policy!r} has no fixed removal order")
    return np.array(order, dtype=np.int64)


def _unit(value: Any, what: str) -> Unit:
    """``value`` when it is a :class:`Unit` (``load_unit(file, name)``), else an
    :class:`OptionError` naming ``what``."""
    if not isinstance(value, Unit):
        raise OptionError(f"{what} must be a Dust Unit (mathhammer.dust.load_unit(file, "
                          f"name)), not {type(value).__name__} {value!r:.40}")
    return value


def _alive_after(counts: np.ndarray, order: np.ndarray, lost: int) -> np.ndarray:
    alive = counts.copy()
    for g in order:
        take = min(lost, alive[g])
        alive[g] -= take
        lost -= take
    return alive


def pool_after_losses(unit: Unit, target: TargetLike, lost: int = 0,
                      policy: str = "protect_special") -> dict[str, int]:
    """Dice each weapon line of ``unit`` rolls against ``target`` after ``lost`` losses.

    Squads lose models in the order of ``policy`` (see :func:`removal_order`; the reference
    for ``owner_optimal`` and ``attacker_worst`` is ``target``); vehicles and heroes keep
    their printed dice until destroyed. Lines that cannot attack the target are left out.

    Examples
    --------
    >>> from mathhammer.dust import load_unit
    >>> rangers = load_unit("seed.toml", "Assault Rangers")
    >>> pool_after_losses(rangers, "G: INFANTRY2"), pool_after_losses(rangers, "G: INFANTRY2", 2)
    ({'Shotgun': 12}, {'Shotgun': 6})
    """
    unit, target = _unit(unit, "unit"), parse_target(target)
    lost = whole_number(lost, "lost (models or boxes lost)", 0, MAX_NUMBER)
    cap = unit.profile.capacity
    if unit.profile.is_squad:
        counts = np.array([g.count for g in unit.groups], dtype=np.int64)
        alive = _alive_after(counts, removal_order(unit, policy, target),
                             min(lost, int(counts.sum())))
        carriers = {ln.name: int(sum(a for a, g in zip(alive, unit.groups)
                                     if ln.name in g.weapons))
                    for ln in unit.weapons}
    else:
        carriers = {ln.name: (0 if lost >= cap else 1) for ln in unit.weapons}
    out = {}
    for line in unit.weapons:
        cell = line.cell_for(target.unit_class, target.armour)
        if cell is not None:
            out[line.name] = cell.dice * carriers[line.name]
    return out


@dataclass(frozen=True)
class Combatant:
    """One side of an :func:`exchange`: a unit, the weapons it fires and its cover.

    Parameters
    ----------
    unit
        The unit (``load_unit(file, name)``).
    weapons
        Names of the weapons it fires (default: every weapon that can attack the other
        side).
    cover
        ``"open"``, ``"soft"`` or ``"hard"``: overrides the cover state of its profile.

    Examples
    --------
    >>> from mathhammer.dust import load_unit
    >>> Combatant(load_unit("seed.toml", "Assault Rangers"), cover="soft").cover
    'soft'
    """

    unit: Unit
    weapons: tuple[str, ...] | None = None
    cover: str | None = None

    def __post_init__(self) -> None:
        _unit(self.unit, "Combatant's unit")
        if self.weapons is not None:
            object.__setattr__(self, "weapons", tuple(texts(self.weapons, "weapons")))
        if self.cover is not None and self.cover not in COVER_STATES:
            raise OptionError(f"cover must be open, soft or hard, not {self.cover!r:.30}")


#: The keywords that said one side's weapons and cover before :class:`Combatant`.
_SIDE_KEYWORDS = {"a_weapons": ("a", "weapons"), "b_weapons": ("b", "weapons"),
                  "a_cover": ("a", "cover"), "b_cover": ("b", "cover")}


def _old_side_keywords(function: Any) -> Any:
    """Accept ``a_weapons``/``a_cover``/``b_weapons``/``b_cover`` for one release (a
    :class:`DeprecationWarning` naming the :class:`Combatant` that says it now)."""
    @functools.wraps(function)
    def wrapper(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        moved: dict[str, dict[str, Any]] = {"a": {}, "b": {}}
        for old, (side, field) in _SIDE_KEYWORDS.items():
            if old in kwargs:
                moved[side][field] = kwargs.pop(old)
        for side, fields in moved.items():
            if not fields:
                continue
            given = a if side == "a" else b
            if isinstance(given, Combatant):
                raise OptionError(f"exchange: give {side}'s weapons and cover in its "
                                  f"Combatant, not also as {side}_weapons/{side}_cover")
            shown = ", ".join(f"{k}={v!r:.30}" for k, v in fields.items())
            warnings.warn(f"exchange({', '.join(f'{side}_{k}=' for k in fields)}...) is "
                          f"deprecated and will be removed; use {side}=Combatant(unit, "
                          f"{shown})", DeprecationWarning, stacklevel=2)
            combatant = Combatant(given, **fields)
            a, b = (combatant, b) if side == "a" else (a, combatant)
        return function(a, b, *args, **kwargs)
    return wrapper


@_old_side_keywords
def exchange(a: Unit | Combatant, b: Unit | Combatant, rounds: int = 1, *,
             method: str = AUTO, sustained: bool = False, rules: Rules | None = None,
             trials: int = DEFAULT_TRIALS, seed: SeedLike = 1, progress: bool | None = None,
             **rule_switches: Any) -> Result:
    """Multi-round firefight: each round A attacks B, then what is left of B attacks A.

    ``a`` and ``b`` are units, or :class:`Combatant` to choose a side's weapons or cover
    (``a_weapons=``, ``a_cover=``, ``b_weapons=``, ``b_cover=`` are their old spellings).

    ``method``: ``"auto"`` (default: exact unless the exact engine cannot follow the
    exchange, e.g. too many reachable states), ``"exact"`` or ``"monte-carlo"``.

    ``sustained`` applies to both sides' attacks; ``progress`` shows a progress bar for a
    long Monte Carlo run (as in :func:`~mathhammer.dust.api.fire_orders`).

    Pools shrink with losses (squads lose carriers by ``rules.casualty_policy``; under
    ``random`` each loss is a model picked uniformly among those left; vehicles and heroes
    fire their printed dice until destroyed). Each unit's cover state and Damage Resilient
    come from its profile. Both engines cover every casualty policy and unbounded lasers.

    Returns
    -------
    Result
        Outcomes ``a_losses`` and ``b_losses`` (models for squads, boxes for vehicles and
        heroes), events ``a_destroyed`` and ``b_destroyed``.

    Raises
    ------
    UnsupportedError
        Exact engine only: more than
        :data:`~mathhammer.dust.exact_engine.MAX_EXCHANGE_STATES` reachable states.

    Examples
    --------
    >>> from mathhammer.dust import load_unit
    >>> r = exchange(load_unit("seed.toml", "Pounder"), load_unit("seed.toml", "Assault Rangers"),
    ...              rounds=2, casualty_policy="random")
    >>> round(r.probability("b_destroyed"), 4)
    0.8485
    """
    a_unit, a_weapons, a_cover = _fields(a)
    b_unit, b_weapons, b_cover = _fields(b)
    options = dict(rounds=rounds, a_weapons=a_weapons, b_weapons=b_weapons, a_cover=a_cover,
                   b_cover=b_cover, sustained=sustained, rules=rules, **rule_switches)
    check_progress(progress)
    return by_method(method, lambda: contract.exact(EXCHANGE, a_unit, b_unit, **options),
                     lambda: contract.simulate(EXCHANGE, a_unit, b_unit, trials=trials,
                                               seed=seed, progress=progress, **options))


def _fields(side: Any) -> tuple[Any, tuple[str, ...] | None, str | None]:
    """A side's unit, weapons and cover (a bare unit: its own)."""
    if isinstance(side, Combatant):
        return side.unit, side.weapons, side.cover
    return side, None, None


@dataclass(frozen=True, eq=False)
class Exchange:
    """A compiled exchange: both sides, the rounds, and what the result says of them."""

    side_a: ExchangeSide
    side_b: ExchangeSide
    rounds: int
    random_policy: bool
    inputs: dict[str, Any]
    labels: dict[str, str]


class ExchangeGame(Game[Exchange]):
    """Dust exchanges under core's contract: unit A against unit B over several rounds, by
    the Markov chain (:func:`~mathhammer.dust.exact_engine.exchange_exact`) or the exchange kernel
    (:func:`~mathhammer.dust.monte_carlo.exchange_monte_carlo`)."""

    name = "dust exchange"
    metrics = {"expected_a_losses": ("mean", "a_losses"),
               "expected_b_losses": ("mean", "b_losses"),
               "p_a_destroyed": ("probability", "a_destroyed"),
               "p_b_destroyed": ("probability", "b_destroyed")}
    chunks = N_CHUNKS

    def compile(self, a: Unit, b: Unit, /, *, rounds: int = 1,
                a_weapons: Sequence[str] | None = None, b_weapons: Sequence[str] | None = None,
                a_cover: str | None = None, b_cover: str | None = None,
                sustained: bool = False, rules: Rules | None = None,
                **rule_switches: Any) -> Exchange:
        rules = with_switches(rules, rule_switches)
        a, b = _unit(a, "a"), _unit(b, "b")
        sustained = switch(sustained, "sustained")
        a_weapons, b_weapons = (None if names is None else texts(names, what)
                                for names, what in ((a_weapons, "a_weapons"),
                                                    (b_weapons, "b_weapons")))
        for cover in (a_cover, b_cover):
            if cover is not None and cover not in COVER_STATES:
                raise OptionError(f"cover must be open, soft or hard, not {cover!r}")
        if a_cover is not None:
            a = replace(a, profile=a.profile.with_cover(a_cover))
        if b_cover is not None:
            b = replace(b, profile=b.profile.with_cover(b_cover))
        if isinstance(rounds, bool) or not isinstance(rounds, int) \
                or not 1 <= rounds <= MAX_EXCHANGE_ROUNDS:
            raise OptionError(f"rounds {rounds!r}: give a whole number of rounds from 1 to "
                              f"{MAX_EXCHANGE_ROUNDS} (a Dust game lasts a handful of rounds)")
        policy = rules.casualty_policy
        side_a = _exchange_side(a, b, a_weapons, sustained, rules)
        side_b = _exchange_side(b, a, b_weapons, sustained, rules)
        inputs = {"a": a.name, "b": b.name, "a_profile": str(a.profile),
                  "b_profile": str(b.profile), "rounds": rounds, "sustained": sustained,
                  "a_weapons": [str(ln) for ln in a.weapons],
                  "b_weapons": [str(ln) for ln in b.weapons],
                  "casualty_policy": policy, "engine": None, "rules": rules.as_dict(),
                  "rule_changes": list(rules.changes(skip=("casualty_policy",))),
                  "subject": f"{a.name} (fires first) vs {b.name}",
                  "situation": f"{rounds} round{'s' if rounds != 1 else ''}, "
                               f"casualty policy {policy.replace('_', ' ')}"
                               + (", sustained attacks" if sustained else "")}
        labels = {"a_losses": f"{a.name} losses", "b_losses": f"{b.name} losses",
                  "a_destroyed": f"{a.name} destroyed", "b_destroyed": f"{b.name} destroyed"}
        return Exchange(side_a, side_b, rounds, policy == "random", inputs, labels)

    def run_monte_carlo(self, plan: Exchange, trials: int, seed: SeedLike, *,
                        progress: bool | None = None) -> Tallies:
        return exchange_monte_carlo(plan.side_a, plan.side_b, plan.rounds, plan.random_policy,
                                    trials, seed, progress=progress)

    def run_exact(self, plan: Exchange) -> Outcomes:
        pa, pb = exchange_exact(plan.side_a, plan.side_b, plan.rounds)
        cap_a, cap_b = plan.side_a.capacity, plan.side_b.capacity
        return Outcomes({"a_losses": Distribution.from_pmf(to_float(tuple(pa))),
                         "b_losses": Distribution.from_pmf(to_float(tuple(pb)))},
                        {"a_destroyed": float(pa[cap_a]), "b_destroyed": float(pb[cap_b])})

    def labels_of(self, plan: Exchange) -> dict[str, str]:
        return dict(plan.labels)

    def inputs_of(self, plan: Exchange, method: str) -> dict[str, Any]:
        return {**plan.inputs, "engine": method}


#: Dust exchanges' side of core's contract.
EXCHANGE = ExchangeGame()


def _exchange_side(unit: Unit, other: Unit, weapons: Sequence[str] | None, sustained: bool,
                   rules: Rules) -> ExchangeSide:
    """One side of an exchange: its compiled rows, carriers and casualty order."""
    rows, carries, counts = _side(unit, other.profile, weapons, sustained, rules)
    order = None if rules.casualty_policy == "random" \
        else removal_order(unit, rules.casualty_policy, other.profile)
    return ExchangeSide(rows, carries, counts, order, unit.profile.is_squad,
                      unit.profile.capacity, unit.profile.models)
