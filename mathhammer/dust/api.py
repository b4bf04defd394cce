"""Public entry points of the Dust Tactics engine: one attack, fire orders, closed forms.

Every function takes text or model objects, validates, compiles once and runs either the
exact engine or the Monte Carlo kernels on the same compiled rows. :data:`GAME` is Dust's
side of core's contract (:class:`mathhammer.core.game.Game`): :func:`simulate` and
:func:`exact` are core's, :func:`fire_orders` resolves several targets at once on the same
pieces. Exchanges live in :mod:`mathhammer.dust.exchanges`, tables and the search for the best
fire orders
in :mod:`mathhammer.dust.plans`, comparisons in :mod:`mathhammer.dust.comparisons`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from mathhammer.core import game as contract
from mathhammer.core.game import Game, Outcomes, SeedLike, Tallies
from mathhammer.core.inputs import optional_instance, refuse_unordered, switch, whole_number
from mathhammer.core.lazy import lazy_names
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.core.progress import check_progress
from mathhammer.core.result import EXACT, MONTE_CARLO, Distribution, Result
from mathhammer.core.signatures import AUTO, by_method, check_method
from mathhammer.core.trials import DEFAULT_TRIALS, check_seed, check_trials
from mathhammer.dust.compile import CompiledPlan, compile_plan
from mathhammer.dust.exact_engine import plan_pmfs, to_float
from mathhammer.dust.monte_carlo import N_CHUNKS, run_monte_carlo
from mathhammer.dust.parse import parse_target, parse_weapons
from mathhammer.dust.profiles import Rules, Target, Weapon, with_switches
from mathhammer.errors import OptionError

LABELS = {
    "hits": "hits",
    "damage_before_saves": "damage before saves",
    "damage": "damage points (after saves)",
    "models_destroyed": "models destroyed",
    "boxes_lost": "boxes lost",
    "overkill": "overkill (wasted points)",
    "unit_destroyed": "unit destroyed",
    "damage_wasted": "some damage wasted",
}

WeaponsLike = str | Weapon | Sequence[str | Weapon]
TargetLike = str | Target


@dataclass(frozen=True, eq=False)
class CompiledFireOrders:
    """Fire orders compiled, and what they were asked under; ``subject`` is the target (index
    into ``compiled.targets``) a single result reports."""

    compiled: CompiledPlan
    resolved: tuple[tuple[Weapon, Target], ...]
    sustained: bool
    rules: Rules
    distance: int | None
    subject: int = 0

    @property
    def target(self) -> Target:
        return self.compiled.targets[self.subject]

    def for_target(self, index: int) -> CompiledFireOrders:
        """The same orders reporting target ``index``."""
        return replace(self, subject=index)


def compile_fire_orders(pairs: Sequence[tuple[Weapon, Target]], *, sustained: bool = False,
                        rules: Rules | None = None, distance: int | None = None
                        ) -> CompiledFireOrders:
    """Compile resolved ``(weapon, target)`` pairs (model objects) into
    :class:`CompiledFireOrders`."""
    refuse_unordered(pairs, "pairs")
    rules = optional_instance(rules, Rules, "rules", "Rules(casualty_policy='random')") \
        or Rules()
    compiled = compile_plan(list(pairs), sustained=sustained, rules=rules, distance=distance)
    return CompiledFireOrders(compiled, tuple(pairs), sustained, rules, distance)


# -- derived outcomes (generic over Fraction pmfs and integer histograms) --------------------
def derived_outcomes(damage: Sequence, target: Target) -> dict[str, list]:
    """From the damage distribution (pmf or counts): losses, boxes, overkill.

    An exact pmf listed only up to a tolerance (unbounded lasers) misses a little mass of
    damage far above the capacity: it is added to the destroyed and all-boxes-lost entries,
    so those stay exact; the overkill pmf leaves it out.
    """
    cap = target.capacity
    zero = damage[0] * 0
    models = [zero] * (target.models + (1 if target.hero_boxes else 0) + 1) \
        if target.is_squad else [zero, zero]
    boxes = [zero] * (cap + 1)
    overkill = [zero] * max(len(damage) - cap, 1)
    for d, w in enumerate(damage):
        if not w:
            continue
        if target.is_squad:
            lost = min(d, target.models) + (1 if target.hero_boxes and d >= cap else 0)
        else:
            lost = 1 if d >= cap else 0
        models[lost] += w
        boxes[min(d, cap)] += w
        overkill[max(d - cap, 0)] += w
    if isinstance(damage[0], Fraction):
        beyond = 1 - sum(damage, Fraction(0))
        models[-1] += beyond
        boxes[-1] += beyond
    out = {"models_destroyed": models, "overkill": overkill}
    if not target.is_squad:
        out["boxes_lost"] = boxes
    return out


def target_outcomes(method: str, dists: Mapping[str, Sequence | np.ndarray],
                    target: Target) -> Outcomes:
    """One target's outcomes from its ``hits``, ``damage_before_saves`` and ``damage``
    (exact Fraction pmfs, or Monte Carlo counts): those three, ``models_destroyed``,
    ``boxes_lost`` (vehicles and heroes), ``overkill``; ``unit_destroyed`` and
    ``damage_wasted``."""
    damage = list(dists["damage"])
    derived = derived_outcomes(damage, target)
    ordered = {"hits": dists["hits"], "damage_before_saves": dists["damage_before_saves"],
               "damage": damage, "models_destroyed": derived["models_destroyed"]}
    if "boxes_lost" in derived:
        ordered["boxes_lost"] = derived["boxes_lost"]
    ordered["overkill"] = derived["overkill"]
    cap = target.capacity
    if method == EXACT:
        destroyed = float(1 - sum(damage[:cap], Fraction(0)))
        wasted = float(1 - sum(damage[:cap + 1], Fraction(0)))
        distributions = {k: Distribution.from_pmf(to_float(tuple(v)))
                         for k, v in ordered.items()}
    else:
        total = sum(damage)
        destroyed = sum(damage[cap:]) / total
        wasted = sum(damage[cap + 1:]) / total
        distributions = {k: Distribution.from_counts(np.asarray(v, dtype=np.int64))
                         for k, v in ordered.items()}
    return Outcomes(distributions,
                    {"unit_destroyed": float(destroyed), "damage_wasted": float(wasted)})


class DustGame(Game[CompiledFireOrders]):
    """Dust Tactics under core's contract: one unit's declared weapons against one target
    (a :class:`CompiledFireOrders` reporting its ``subject``)."""

    name = "dust"
    labels = LABELS
    metrics = {"expected_hits": ("mean", "hits"), "expected_damage": ("mean", "damage"),
               "expected_models_destroyed": ("mean", "models_destroyed"),
               "p_unit_destroyed": ("probability", "unit_destroyed"),
               "p_damage_wasted": ("probability", "damage_wasted")}
    metric_labels = {"expected_hits": "expected hits",
                     "expected_damage": "expected damage points (after saves)",
                     "expected_models_destroyed": "expected models destroyed",
                     "p_unit_destroyed": "P(unit destroyed)",
                     "p_damage_wasted": "P(some damage wasted)"}
    situation_columns = ("sustained", "distance")
    chunks = N_CHUNKS

    def compile(self, weapons: WeaponsLike, target: TargetLike, /, *, sustained: bool = False,
                rules: Rules | None = None, distance: int | None = None,
                **rule_switches: Any) -> CompiledFireOrders:
        target_obj = parse_target(target)
        pairs = [(w, target_obj) for w in parse_weapons(weapons)]
        return compile_fire_orders(pairs, sustained=sustained,
                                 rules=with_switches(rules, rule_switches), distance=distance)

    def run_monte_carlo(self, plan: CompiledFireOrders, trials: int, seed: SeedLike, *,
                        progress: bool | None = None) -> Tallies:
        return run_monte_carlo(plan.compiled, trials, seed, progress=progress)

    def run_exact(self, plan: CompiledFireOrders) -> Outcomes:
        return target_outcomes(EXACT, plan_pmfs(plan.compiled)[plan.subject], plan.target)

    def monte_carlo_outcomes(self, plan: CompiledFireOrders, tallies: Tallies) -> Outcomes:
        i, own = plan.subject, tallies.subject(plan.subject)
        hits, damage = plan.compiled.max_hits[i] + 1, plan.compiled.max_damage[i] + 1
        return target_outcomes(MONTE_CARLO, {
            "hits": own.histograms["hits"][:hits],
            "damage_before_saves": own.histograms["damage_before_saves"][:damage],
            "damage": own.histograms["damage"][:damage]}, plan.target)

    def situation_of(self, options: Mapping[str, Any]) -> dict[str, Any]:
        return {"sustained": bool(options.get("sustained", False)),
                "distance": options.get("distance")}

    def inputs_of(self, plan: CompiledFireOrders, method: str) -> dict[str, Any]:
        target = plan.target
        return {"weapons": [str(w) for w, t in plan.resolved if t is target],
                "target": str(target), "sustained": plan.sustained,
                "distance": plan.distance, "engine": method, "rules": plan.rules.as_dict(),
                "rule_changes": list(plan.rules.changes()),
                "situation": {"sustained attack": plan.sustained,
                              "squares to the target": plan.distance}}


#: Dust's side of the contract, for core's simulate, exact and compare.
GAME = DustGame()


# -- fire orders -----------------------------------------------------------------------------
def fire_orders(orders: Sequence[tuple[str | Weapon, str | Target]], *, method: str = AUTO,
                sustained: bool = False, rules: Rules | None = None,
                distance: int | None = None, trials: int = DEFAULT_TRIALS, seed: SeedLike = 1,
                progress: bool | None = None, **rule_switches: Any) -> list[Result]:
    """Resolve declared fire orders; one :class:`Result` per target.

    All weapons fire together with no retargeting: damage is summed per target and applied
    at once, and damage beyond what a target absorbs is reported as ``overkill``.

    Parameters
    ----------
    orders
        ``[(weapon, target), ...]``. Weapons and targets may be text or model objects. The
        same target object (or equal text) aimed at twice is one target; each weapon text
        is its own weapon, while one :class:`Weapon` object declared against two targets
        splits its line (allowed only with ``split_weapon_line=True``).
    method
        ``"auto"`` (default: exact unless the exact engine cannot follow the orders, e.g. an
        unbounded laser chain), ``"exact"`` or ``"monte-carlo"``.
    sustained
        A sustained attack: every failed die is rolled once more.
    rules
        :class:`~mathhammer.dust.profiles.Rules`; keyword ``rule_switches`` override fields.
    distance
        Squares to the targets, to check ranges (optional).
    trials, seed
        Monte Carlo trials and seed.
    progress
        A progress bar on stderr for a Monte Carlo run longer than about 2 s: ``None``
        (default) when stderr is a terminal or in a notebook, ``True``/``False`` to force
        it. It never changes the result.

    Returns
    -------
    list of Result
        In the order targets are first declared.

    Examples
    --------
    >>> out = fire_orders([(".30 cal: 3/1", "2x Grenadier: INFANTRY2"),
    ...                    (".50 cal: 3/1", "2x Grenadier: INFANTRY2")])
    >>> round(out[0].probability("unit_destroyed"), 5)
    0.64883
    """
    method = check_method(method)
    check_progress(progress)
    rules = with_switches(rules, rule_switches)
    fire = compile_fire_orders(_resolved(orders), sustained=sustained, rules=rules,
                             distance=distance)
    subjects = [fire.for_target(i) for i in range(len(fire.compiled.targets))]
    def exact() -> list[Result]:
        return [contract.exact_result(GAME, p, target_outcomes(EXACT, dists, p.target))
                for p, dists in zip(subjects, plan_pmfs(fire.compiled))]

    def monte_carlo() -> list[Result]:
        checked = check_seed(seed)
        tallies = run_monte_carlo(fire.compiled, check_trials(trials), checked,
                                  progress=progress)
        return [contract.tallied_result(GAME, p, tallies, checked) for p in subjects]

    return by_method(method, exact, monte_carlo)


def _resolved(orders: Any) -> list[tuple[Weapon, Target]]:
    """The fire orders' pairs as model objects: equal target texts are one target, each
    weapon text its own weapon (two equal MGs are two weapons)."""
    targets: dict[Any, Target] = {}
    resolved = []
    for weapon, target in _order_pairs(orders):
        if not isinstance(target, Target):
            target = targets.setdefault(target, parse_target(target))
        if not isinstance(weapon, Weapon):
            parsed = parse_weapons(weapon)
            if len(parsed) != 1:
                raise OptionError("a unit reference in fire orders must name one weapon "
                                  "(FILE.toml#UNIT/WEAPON)")
            weapon = parsed[0]
        resolved.append((weapon, target))
    return resolved


def exact(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
          rules: Rules | None = None, distance: int | None = None, **rule_switches: Any) -> Result:
    """Exact distributions of one unit's declared weapons against one target.

    Parameters
    ----------
    weapons
        One weapon or a list (text such as ``"4x Shotgun: 3/1"``, or :class:`Weapon`).
    target
        Text such as ``"5x Laser Grenadier: INFANTRY2 [SOFT COVER]"`` or a :class:`Target`.
    sustained, rules, distance, rule_switches
        As in :func:`fire_orders`.

    Returns
    -------
    Result
        Outcomes ``hits``, ``damage_before_saves``, ``damage`` (points through saves,
        before capping at what the target absorbs), ``models_destroyed``, ``boxes_lost``
        (vehicles and heroes), ``overkill``; events ``unit_destroyed``, ``damage_wasted``.

    Examples
    --------
    >>> r = exact(["17-pounder: 4/1", ".50 cal: 3/1", ".30 cal: 3/1"],
    ...           "5x Laser Grenadier: INFANTRY2")
    >>> round(r.mean("models_destroyed"), 4), round(r.probability("unit_destroyed"), 4)
    (3.2333, 0.2131)
    """
    return contract.exact(GAME, weapons, target, sustained=sustained, rules=rules,
                          distance=distance, **rule_switches)


def simulate(weapons: WeaponsLike, target: TargetLike, *, trials: int | str = DEFAULT_TRIALS,
             seed: SeedLike = 1, progress: bool | None = None,
             target_stderr: float | None = None, sustained: bool = False,
             rules: Rules | None = None, distance: int | None = None,
             **rule_switches: Any) -> Result:
    """Monte Carlo version of :func:`exact` (same outcomes, with standard errors); for
    ``trials``, ``seed`` and ``progress`` see :func:`fire_orders`. ``trials="auto"`` (or a
    ``target_stderr``) runs until the headline figures are precise enough, as in every game
    (:mod:`mathhammer.core.adaptive`; ``inputs["precision"]`` says what was reached).

    Examples
    --------
    >>> r = simulate("4x Shotgun: 3/1", "5x Laser Grenadier: INFANTRY2", trials=20_000, seed=7)
    >>> abs(r.mean("hits") - 4) < 5 * r.stderr("hits")
    True
    """
    return contract.simulate(GAME, weapons, target, trials=trials, seed=seed,
                             progress=progress, target_stderr=target_stderr,
                             sustained=sustained, rules=rules, distance=distance,
                             **rule_switches)


def exact_pmfs(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
               rules: Rules | None = None, **rule_switches: Any
               ) -> dict[str, tuple[Fraction, ...]]:
    """The exact engine's pmfs as fractions (``hits``, ``damage_before_saves``, ``damage``,
    ``models_destroyed``, ``overkill`` and, for vehicles and heroes, ``boxes_lost``)."""
    target_obj = parse_target(target)
    rules = with_switches(rules, rule_switches)
    compiled = compile_plan([(w, target_obj) for w in parse_weapons(weapons)],
                            sustained=sustained, rules=rules)
    dists = dict(plan_pmfs(compiled)[0])
    derived = derived_outcomes(list(dists["damage"]), target_obj)
    dists.update({k: tuple(v) for k, v in derived.items()})
    return dists


# -- small closed forms ----------------------------------------------------------------------
def _order_pairs(orders: Any) -> list[tuple[Any, Any]]:
    """The ``(weapon, target)`` pairs of fire orders, or an :class:`OptionError` naming the
    first entry that is not a pair."""
    if isinstance(orders, (str, bytes, Mapping)) or not isinstance(orders, Iterable):
        raise OptionError(f"fire orders are a list of (weapon, target) pairs, not "
                          f"{type(orders).__name__} {orders!r:.60}")
    refuse_unordered(orders, "fire orders' (weapon, target) pairs")   # results in target order
    pairs = list(orders)
    for index, pair in enumerate(pairs):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, (tuple, list)) \
                or len(pair) != 2:
            raise OptionError(f"fire order {index + 1} is {pair!r:.60}: write a pair "
                              "(weapon, target), e.g. ('.30 cal: 3/1', '2x Grenadier: "
                              "INFANTRY2')")
    return [tuple(p) for p in pairs]


def effective_probability(*, sustained: bool = False, cover_faces: int = 0,
                          damage_resilient: bool = False, double: bool = False) -> Fraction:
    """Per-die chance that a /1 weapon removes a point (section 12.1 of the reference)."""
    for name, value in (("sustained", sustained), ("damage_resilient", damage_resilient),
                        ("double", double)):
        switch(value, name)
    cover_faces = whole_number(cover_faces, "cover_faces (faces of a die that cover saves)",
                               0, 6)
    p = Fraction(4 if double else 2, 6)
    q = p + (1 - p) * p if sustained else p
    q *= Fraction(6 - cover_faces, 6)
    if damage_resilient:
        q *= Fraction(2, 3)
    return q


def dice_to_kill(points: int, q: Fraction | float) -> float:
    """Expected dice needed to deal ``points`` damage with a /1 weapon of per-die chance
    ``q`` (negative binomial mean ``points / q``)."""
    points = whole_number(points, "points (damage to deal)", 0, MAX_NUMBER)
    if isinstance(q, bool) or not isinstance(q, (Fraction, int, float)) or not 0 < q <= 1:
        raise OptionError(f"per-die probability must be a number in (0, 1], not {q!r:.40}")
    return float(Fraction(points) / Fraction(q)) if isinstance(q, Fraction) else points / q


__all__ = ["exact", "simulate", "fire_orders", "exact_pmfs", "effective_probability",
           "dice_to_kill", "run_monte_carlo", "compile_fire_orders", "CompiledFireOrders", "GAME",
           "N_CHUNKS", "DEFAULT_TRIALS"]

#: Old names ("plan" is kept for a compiled plan): they answer for one release with a
#: DeprecationWarning naming the new one.
__getattr__ = lazy_names(__name__, {}, {
    "fire_plan": "mathhammer.dust.api.fire_orders",
    "compile_fire_plan": "mathhammer.dust.api.compile_fire_orders",
    "FirePlan": "mathhammer.dust.api.CompiledFireOrders"})[0]
