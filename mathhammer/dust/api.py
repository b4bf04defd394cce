"""Public entry points of the Dust Tactics engine: one attack, fire plans, tables, exchanges.

Every function takes text or model objects, validates, compiles once and runs either the
exact engine or the Monte Carlo kernels on the same compiled rows, and returns a
:class:`~mathhammer.core.result.Result` (or a pandas table of them).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pandas as pd

from mathhammer.core.inputs import switch, whole_number
from mathhammer.core.limits import MAX_NUMBER, check_outcome_values, check_run_work
from mathhammer.core.progress import bar as progress_bar, check_progress, watch
from mathhammer.core.result import EXACT, MONTE_CARLO, Distribution, Result
from mathhammer.core.trials import (CHUNKS, DEFAULT_GRID_TRIALS, DEFAULT_TRIALS, check_seed,
                                    check_trials, chunk_streams)
from mathhammer.dust.exact import (
    Pmf, Series, damage_reach, is_unbounded, plan_pmfs, row_series, to_float, volley_pmf)
from mathhammer.dust.compile import N_DICE, CompiledPlan, compile_plan, compile_row
from mathhammer.dust.profiles import (
    AIRCRAFT, CLASSES, COVER_STATES, MAX_LEVELS, Rules, Target, Unit, Weapon,
)
from mathhammer.dust.parse import parse_target, parse_weapons
from mathhammer.errors import OptionError, UnsupportedError

#: Fixed number of Monte Carlo chunks (independent of the thread count: determinism).
N_CHUNKS = CHUNKS

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


def _rules(rules: Rules | None, overrides: dict[str, Any]) -> Rules:
    from dataclasses import replace
    base = rules or Rules()
    if overrides:
        try:
            return replace(base, **overrides)
        except TypeError as exc:
            raise OptionError(f"unknown rule switch: {exc}") from None
    return base


def _check_method(method: str) -> str:
    if method in ("exact", EXACT):
        return EXACT
    if method in ("monte-carlo", "simulate", MONTE_CARLO):
        return MONTE_CARLO
    raise OptionError(f"method must be 'exact' or 'monte-carlo', not {method!r}")


# -- derived outcomes (generic over Fraction pmfs and integer histograms) --------------------
def _derived(damage: Sequence, target: Target) -> dict[str, list]:
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


def _target_result(method: str, dists: dict[str, Sequence], target: Target, inputs: dict,
                   trials: int | None, seed: int | None) -> Result:
    damage = list(dists["damage"])
    derived = _derived(damage, target)
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
    return Result(method, distributions,
                  {"unit_destroyed": float(destroyed), "damage_wasted": float(wasted)},
                  trials=trials, seed=seed, inputs=inputs, labels=dict(LABELS))


def _inputs(plan: Sequence[tuple[Weapon, Target]], target: Target, sustained: bool,
            rules: Rules, distance: int | None, method: str, **extra) -> dict:
    inputs = {"weapons": [str(w) for w, t in plan if t is target], "target": str(target),
              "sustained": sustained, "distance": distance, "engine": method,
              "rules": rules.as_dict(), "rule_changes": list(rules.changes()),
              "situation": {"sustained attack": sustained,
                            "squares to the target": distance}}
    inputs.update(extra)
    return inputs


# -- fire plans ------------------------------------------------------------------------------
def fire_plan(plan: Sequence[tuple[str | Weapon, str | Target]], *, method: str = "exact",
              sustained: bool = False, rules: Rules | None = None, distance: int | None = None,
              trials: int = DEFAULT_TRIALS, seed: int = 1, progress: bool | None = None,
              **rule_switches) -> list[Result]:
    """Resolve a declared fire plan; one :class:`Result` per target.

    All weapons fire together with no retargeting: damage is summed per target and applied
    at once, and damage beyond what a target absorbs is reported as ``overkill``.

    Parameters
    ----------
    plan
        ``[(weapon, target), ...]``. Weapons and targets may be text or model objects. The
        same target object (or equal text) aimed at twice is one target; each weapon text
        is its own weapon, while one :class:`Weapon` object declared against two targets
        splits its line (allowed only with ``split_weapon_line=True``).
    method
        ``"exact"`` or ``"monte-carlo"``.
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
    >>> out = fire_plan([(".30 cal: 3/1", "2x Grenadier: INFANTRY2"),
    ...                  (".50 cal: 3/1", "2x Grenadier: INFANTRY2")])
    >>> round(out[0].probability("unit_destroyed"), 5)
    0.64883
    """
    method = _check_method(method)
    check_progress(progress)
    rules = _rules(rules, rule_switches)
    targets: dict[Any, Target] = {}
    resolved = []
    for weapon, target in _plan_pairs(plan):
        if not isinstance(target, Target):
            target = targets.setdefault(target, parse_target(target))
        if not isinstance(weapon, Weapon):
            parsed = parse_weapons(weapon)
            if len(parsed) != 1:
                raise OptionError("a unit reference in a fire plan must name one weapon "
                                  "(FILE.toml#UNIT/WEAPON)")
            weapon = parsed[0]  # each text is its own weapon (two equal MGs are two weapons)
        resolved.append((weapon, target))
    compiled = compile_plan(resolved, sustained=sustained, rules=rules, distance=distance)
    if method == EXACT:
        per_target = plan_pmfs(compiled)
        return [_target_result(EXACT, dists, t,
                               _inputs(resolved, t, sustained, rules, distance, EXACT),
                               None, None)
                for dists, t in zip(per_target, compiled.targets)]
    hist = run_plan_kernel(compiled, trials, seed, progress=progress)
    return [_target_result(MONTE_CARLO, {"hits": hist[i, 0, :compiled.max_hits[i] + 1],
                                         "damage_before_saves":
                                             hist[i, 1, :compiled.max_damage[i] + 1],
                                         "damage": hist[i, 2, :compiled.max_damage[i] + 1]},
                           t, _inputs(resolved, t, sustained, rules, distance, MONTE_CARLO,
                                      chunks=N_CHUNKS), trials, seed)
            for i, t in enumerate(compiled.targets)]


def run_plan_kernel(compiled: CompiledPlan, trials: int, seed: int,
                    progress: bool | None = None) -> np.ndarray:
    """Run the Monte Carlo kernel; return counts ``(target, quantity, value)`` summed over
    chunks (quantities: hits, damage before saves, damage after saves). A progress bar
    counts the trials in the histograms while the kernel runs (the same kernel call)."""
    from mathhammer.core.threads import run_chunk_shares
    from mathhammer.dust.kernels import plan_kernel

    trials = check_trials(trials)
    n_bins = int(max(compiled.max_hits.max(), compiled.max_damage.max())) + 1
    check_outcome_values(n_bins * len(compiled.targets), "the hits or damage of one trial",
                         "fewer carriers or dice per line")
    check_run_work(int(compiled.rows[:, N_DICE].sum()), trials, "dice")
    streams, chunk_trials = chunk_streams(trials, check_seed(seed), N_CHUNKS)
    hist = np.zeros((N_CHUNKS, len(compiled.targets), 3, n_bins), dtype=np.int64)
    rows = np.ascontiguousarray(compiled.rows)
    watch(lambda: run_chunk_shares(plan_kernel, N_CHUNKS, streams, chunk_trials, rows,
                                   len(compiled.targets), hist),
          lambda: hist[:, 0, 0].sum(), trials, "simulate", progress=progress)
    return hist.sum(axis=0)


def _single(weapons: WeaponsLike, target: TargetLike, method: str, **kwargs) -> Result:
    target_obj = parse_target(target)
    plan = [(w, target_obj) for w in parse_weapons(weapons)]
    return fire_plan(plan, method=method, **kwargs)[0]


def exact(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
          rules: Rules | None = None, distance: int | None = None, **rule_switches) -> Result:
    """Exact distributions of one unit's declared weapons against one target.

    Parameters
    ----------
    weapons
        One weapon or a list (text such as ``"4x Shotgun: 3/1"``, or :class:`Weapon`).
    target
        Text such as ``"5x Laser Grenadier: INFANTRY2 [SOFT COVER]"`` or a :class:`Target`.
    sustained, rules, distance, rule_switches
        As in :func:`fire_plan`.

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
    return _single(weapons, target, EXACT, sustained=sustained, rules=rules, distance=distance,
                   **rule_switches)


def simulate(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
             rules: Rules | None = None, distance: int | None = None,
             trials: int = DEFAULT_TRIALS, seed: int = 1, progress: bool | None = None,
             **rule_switches) -> Result:
    """Monte Carlo version of :func:`exact` (same outcomes, with standard errors); for
    ``progress`` see :func:`fire_plan`.

    Examples
    --------
    >>> r = simulate("4x Shotgun: 3/1", "5x Laser Grenadier: INFANTRY2", trials=20_000, seed=7)
    >>> abs(r.mean("hits") - 4) < 5 * r.stderr("hits")
    True
    """
    return _single(weapons, target, MONTE_CARLO, sustained=sustained, rules=rules,
                   distance=distance, trials=trials, seed=seed, progress=progress,
                   **rule_switches)


def exact_pmfs(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
               rules: Rules | None = None, **rule_switches) -> dict[str, tuple[Fraction, ...]]:
    """The exact engine's pmfs as fractions (``hits``, ``damage_before_saves``, ``damage``,
    ``models_destroyed``, ``overkill`` and, for vehicles and heroes, ``boxes_lost``)."""
    target_obj = parse_target(target)
    rules = _rules(rules, rule_switches)
    compiled = compile_plan([(w, target_obj) for w in parse_weapons(weapons)],
                            sustained=sustained, rules=rules)
    dists = dict(plan_pmfs(compiled)[0])
    dists.update({k: tuple(v) for k, v in _derived(list(dists["damage"]), target_obj).items()})
    return dists


def weapon_breakdown(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
                     rules: Rules | None = None, **rule_switches) -> pd.DataFrame:
    """Each declared weapon's share of one simultaneous attack, exactly.

    Returns
    -------
    pandas.DataFrame
        One row per weapon: ``dice``, ``hits`` and ``damage`` (expected), and
        ``p_redundant``: the probability that the *other* weapons alone already destroy the
        target, so this weapon's dice are wasted (it still fires: no retargeting).

    Examples
    --------
    >>> frame = weapon_breakdown([".30 cal: 3/1", ".50 cal: 3/1"], "2x G: INFANTRY2")
    >>> round(float(frame.loc[".50 cal", "p_redundant"]) * 27, 6)
    7.0
    """
    target_obj = parse_target(target)
    rules = _rules(rules, rule_switches)
    parsed = parse_weapons(weapons)
    compiled = compile_plan([(w, target_obj) for w in parsed], sustained=sustained, rules=rules)
    per_row = [row_series(tuple(int(v) for v in row), int(row[N_DICE]))
               for row in compiled.rows]
    cap = target_obj.capacity
    records = []
    for i, (w, row) in enumerate(zip(parsed, compiled.rows)):
        others = Series((Fraction(1),))
        for j, series in enumerate(per_row):
            if j != i:
                others = others.times(series[2])
        records.append({"weapon": w.name, "dice": int(row[N_DICE]),
                        "hits": float(per_row[i][0].mean()),
                        "damage": float(per_row[i][2].mean()),
                        "p_redundant": float(others.capped(cap)[-1])})
    return pd.DataFrame(records).set_index("weapon")


# -- tables ----------------------------------------------------------------------------------
def losses_table(weapons: WeaponsLike, *, sustained: bool = False, models: int | None = None,
                 boxes: int | None = None, damage_resilient: bool = False,
                 rules: Rules | None = None, **rule_switches) -> pd.DataFrame:
    """Expected losses of every target column and cover state for one attacker.

    Parameters
    ----------
    weapons
        The attacker's declared weapons.
    sustained
        Sustained attack. Aircraft rows always use a sustained attack when
        ``aircraft_needs_sustained`` (the only attack the rules allow).
    models, boxes
        Size of the target squads and boxes of the target vehicles and aircraft. ``None``
        (default) gives expected damage points through saves, i.e. the expected losses of
        a target large enough to absorb them all.
    damage_resilient
        Give every target Damage Resilient.

    Returns
    -------
    pandas.DataFrame
        Index ``(target class, armour)``, columns ``open``, ``soft``, ``hard``; ``NaN``
        where no declared weapon can attack that column.
    """
    rules = _rules(rules, rule_switches)
    parsed = parse_weapons(weapons)
    records = []
    for cls in CLASSES:
        levels = rules.aircraft_levels if cls == AIRCRAFT else MAX_LEVELS[cls]
        for armour in range(1, levels + 1):
            row: dict[str, Any] = {"target class": cls, "armour": armour}
            for cover in COVER_STATES:
                size = {"models": models} if cls == "infantry" and models else {}
                if cls != "infantry":
                    size = {"boxes": boxes or 1}
                target = Target(f"{cls}{armour}", cls, armour, cover=cover,
                                damage_resilient=damage_resilient, **size)
                usable = [w for w in parsed if w.line.cell_for(cls, armour) is not None]
                if not usable:
                    row[cover] = np.nan
                    continue
                sus = sustained or (cls == AIRCRAFT and rules.aircraft_needs_sustained)
                compiled = compile_plan([(w, target) for w in usable], sustained=sus,
                                        rules=rules)
                dmg = plan_pmfs(compiled)[0]["damage"]
                if (models is None and cls == "infantry") or (boxes is None and
                                                              cls != "infantry"):
                    row[cover] = float(sum(k * p for k, p in enumerate(dmg)))
                else:
                    cap = target.capacity
                    row[cover] = float(sum(min(k, cap) * p for k, p in enumerate(dmg)))
            records.append(row)
    return pd.DataFrame(records).set_index(["target class", "armour"])


# -- comparisons and plan search ------------------------------------------------------------
def compare(variants: dict[str, dict[str, Any]], *, method: str = "exact",
            trials: int = DEFAULT_GRID_TRIALS, seed: int = 1,
            progress: bool | None = None) -> pd.DataFrame:
    """Headline figures of several attacks side by side (normal vs sustained, single vs
    double success, plan A vs plan B...).

    Parameters
    ----------
    variants
        Label to keyword arguments of :func:`exact`/:func:`simulate` (``weapons``,
        ``target`` and any switch).
    progress
        A progress bar on stderr, one step per variant, when the comparison runs longer
        than about 2 s: ``None`` (default) when stderr is a terminal or in a notebook,
        ``True``/``False`` to force it.

    Returns
    -------
    pandas.DataFrame
        One row per variant: E[hits], E[damage], E[models destroyed], P(unit destroyed),
        P(some damage wasted); with ``stderr`` columns for Monte Carlo.
    """
    method = _check_method(method)
    _check_variants(variants)
    rows = []
    with progress_bar(len(variants), "compare", progress=progress, unit="variant") as bar:
        for label, kwargs in variants.items():
            rows.append(_variant_row(label, dict(kwargs), method, trials, seed))
            bar.update()
    return pd.DataFrame(rows).set_index("variant")


def _variant_row(label: str, kwargs: dict[str, Any], method: str, trials: int,
                 seed: int) -> dict[str, Any]:
    """One row of :func:`compare`."""
    if method == EXACT:
        result = exact(kwargs.pop("weapons"), kwargs.pop("target"), **kwargs)
    else:
        result = simulate(kwargs.pop("weapons"), kwargs.pop("target"), trials=trials,
                          seed=seed, **kwargs)
    row = {"variant": label, "hits": result.mean("hits"), "damage": result.mean("damage"),
           "models_destroyed": result.mean("models_destroyed"),
           "unit_destroyed": result.probability("unit_destroyed"),
           "damage_wasted": result.probability("damage_wasted")}
    if method == MONTE_CARLO:
        row["models_destroyed_stderr"] = result.stderr("models_destroyed")
    return row


def best_fire_plan(weapons: WeaponsLike, targets: Sequence[TargetLike], *,
                   objective: str = "expected_losses", sustained: bool = False,
                   rules: Rules | None = None, **rule_switches) -> pd.DataFrame:
    """Rank every declaration of weapons to targets by an exact objective.

    Each weapon is aimed at one target it can attack (section 4: the plan is fixed before
    any die is rolled, no retargeting). The result of one target depends only on the set
    of weapons aimed at it, so each (target, weapon set) pair is solved once.

    Parameters
    ----------
    weapons, targets
        The attacker's weapons and the candidate targets.
    objective
        ``"expected_losses"`` (models plus boxes removed, summed over targets) or
        ``"units_destroyed"`` (expected number of targets destroyed).

    Returns
    -------
    pandas.DataFrame
        One row per plan, best first: a column per weapon naming its target, then
        ``expected_losses``, ``units_destroyed`` and ``expected_overkill``.
    """
    import itertools

    if objective not in ("expected_losses", "units_destroyed"):
        raise OptionError(f"objective must be 'expected_losses' or 'units_destroyed', not "
                          f"{objective!r}")
    rules = _rules(rules, rule_switches)
    parsed = parse_weapons(weapons)
    tgts = [parse_target(t) for t in targets]
    if not tgts:
        raise OptionError("give at least one target")
    names = [t.name for t in tgts]
    if len(set(names)) != len(names):
        raise OptionError("targets need distinct names to be told apart in the plan table")
    choices = []
    for w in parsed:
        ok = [j for j, t in enumerate(tgts) if w.line.cell_for(t.unit_class, t.armour)
              is not None]
        if not ok:
            raise OptionError(f"weapon {w.name!r} cannot attack any of the targets")
        choices.append(ok)
    cache: dict[tuple[int, tuple[int, ...]], tuple[Fraction, Fraction, Fraction]] = {}

    def solve(j: int, subset: tuple[int, ...]):
        key = (j, subset)
        if key not in cache:
            target = tgts[j]
            if not subset:
                cache[key] = (Fraction(0), Fraction(0), Fraction(0))
            else:
                compiled = compile_plan([(parsed[i], target) for i in subset],
                                        sustained=sustained, rules=rules)
                dmg = plan_pmfs(compiled)[0]["damage"]
                cap = target.capacity
                cache[key] = (sum((min(k, cap) * p for k, p in enumerate(dmg)), Fraction(0)),
                              sum(dmg[cap:], Fraction(0)),
                              sum((max(k - cap, 0) * p for k, p in enumerate(dmg)),
                                  Fraction(0)))
        return cache[key]

    records = []
    for assignment in itertools.product(*choices):
        totals = [Fraction(0)] * 3
        for j in range(len(tgts)):
            subset = tuple(i for i, a in enumerate(assignment) if a == j)
            for k, v in enumerate(solve(j, subset)):
                totals[k] += v
        row = {f"{w.name}": tgts[a].name for w, a in zip(parsed, assignment)}
        row.update({"expected_losses": float(totals[0]), "units_destroyed": float(totals[1]),
                    "expected_overkill": float(totals[2])})
        records.append(row)
    frame = pd.DataFrame(records)
    other = "units_destroyed" if objective == "expected_losses" else "expected_losses"
    return frame.sort_values([objective, other], ascending=False, kind="stable") \
        .reset_index(drop=True)


# -- multi-round exchanges -------------------------------------------------------------------
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
    if not unit.profile.is_squad:
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
    target = parse_target(target)
    if lost < 0:
        raise OptionError(f"losses must not be negative, not {lost}")
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


def exchange(a: Unit, b: Unit, rounds: int = 1, *, method: str = "exact",
             a_weapons: Sequence[str] | None = None, b_weapons: Sequence[str] | None = None,
             a_cover: str | None = None, b_cover: str | None = None,
             sustained: bool = False, rules: Rules | None = None,
             trials: int = DEFAULT_TRIALS, seed: int = 1, progress: bool | None = None,
             **rule_switches) -> Result:
    """Multi-round firefight: each round A attacks B, then what is left of B attacks A.

    ``a_cover``/``b_cover`` (``"open"``, ``"soft"``, ``"hard"``) override the cover state
    of a unit's profile; ``sustained`` applies to both sides' attacks; ``progress`` shows a
    progress bar for a long Monte Carlo run (as in :func:`fire_plan`).

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
        Exact engine only: more than :data:`MAX_EXCHANGE_STATES` reachable states.

    Examples
    --------
    >>> from mathhammer.dust import load_unit
    >>> r = exchange(load_unit("seed.toml", "Pounder"), load_unit("seed.toml", "Assault Rangers"),
    ...              rounds=2, casualty_policy="random")
    >>> round(r.probability("b_destroyed"), 4)
    0.8485
    """
    method = _check_method(method)
    check_progress(progress)
    rules = _rules(rules, rule_switches)
    from dataclasses import replace as _replace
    for cover in (a_cover, b_cover):
        if cover is not None and cover not in COVER_STATES:
            raise OptionError(f"cover must be open, soft or hard, not {cover!r}")
    if a_cover is not None:
        a = _replace(a, profile=a.profile.with_cover(a_cover))
    if b_cover is not None:
        b = _replace(b, profile=b.profile.with_cover(b_cover))
    if isinstance(rounds, bool) or not isinstance(rounds, int) \
            or not 1 <= rounds <= MAX_EXCHANGE_ROUNDS:
        raise OptionError(f"rounds {rounds!r}: give a whole number of rounds from 1 to "
                          f"{MAX_EXCHANGE_ROUNDS} (a Dust game lasts a handful of rounds)")
    policy = rules.casualty_policy
    side_a = _exchange_side(a, b, a_weapons, sustained, rules)
    side_b = _exchange_side(b, a, b_weapons, sustained, rules)
    cap_a, cap_b = side_a.capacity, side_b.capacity
    inputs = {"a": a.name, "b": b.name, "a_profile": str(a.profile),
              "b_profile": str(b.profile), "rounds": rounds, "sustained": sustained,
              "a_weapons": [str(ln) for ln in a.weapons],
              "b_weapons": [str(ln) for ln in b.weapons],
              "casualty_policy": policy, "engine": method, "rules": rules.as_dict(),
              "rule_changes": list(rules.changes(skip=("casualty_policy",))),
              "subject": f"{a.name} (fires first) vs {b.name}",
              "situation": f"{rounds} round{'s' if rounds != 1 else ''}, "
                           f"casualty policy {policy.replace('_', ' ')}"
                           + (", sustained attacks" if sustained else "")}
    labels = {"a_losses": f"{a.name} losses", "b_losses": f"{b.name} losses",
              "a_destroyed": f"{a.name} destroyed", "b_destroyed": f"{b.name} destroyed"}
    if method == MONTE_CARLO:
        ha, hb = _exchange_monte_carlo(side_a, side_b, rounds, policy == "random", trials, seed,
                                       progress)
        return Result(MONTE_CARLO, {"a_losses": Distribution.from_counts(ha),
                                    "b_losses": Distribution.from_counts(hb)},
                      {"a_destroyed": float(ha[cap_a] / trials),
                       "b_destroyed": float(hb[cap_b] / trials)},
                      trials=trials, seed=seed, inputs=dict(inputs, chunks=N_CHUNKS),
                      labels=labels)
    pa, pb = _exchange_exact(side_a, side_b, rounds)
    return Result(EXACT, {"a_losses": Distribution.from_pmf(to_float(tuple(pa))),
                          "b_losses": Distribution.from_pmf(to_float(tuple(pb)))},
                  {"a_destroyed": float(pa[cap_a]), "b_destroyed": float(pb[cap_b])},
                  inputs=inputs, labels=labels)


def _exchange_side(unit: Unit, other: Unit, weapons: Sequence[str] | None, sustained: bool,
                   rules: Rules) -> _ExactSide:
    """One side of an exchange: its compiled rows, carriers and casualty order."""
    rows, carries, counts = _side(unit, other.profile, weapons, sustained, rules)
    order = None if rules.casualty_policy == "random" \
        else removal_order(unit, rules.casualty_policy, other.profile)
    return _ExactSide(rows, carries, counts, order, unit.profile.is_squad,
                      unit.profile.capacity, unit.profile.models)


def _exchange_monte_carlo(side_a: _ExactSide, side_b: _ExactSide, rounds: int,
                          random_policy: bool, trials: int, seed: Any,
                          progress: bool | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Histograms of both sides' losses from the exchange kernel."""
    from mathhammer.core.threads import run_chunk_shares
    from mathhammer.dust.kernels import exchange_kernel

    trials = check_trials(trials)
    # the dice both sides roll at full strength; a side that rolls none still takes a step
    dice = sum(sum(_full_dice(side)) + 1 for side in (side_a, side_b))
    check_run_work(dice * rounds, trials, "dice")
    streams, chunk_trials = chunk_streams(trials, check_seed(seed), N_CHUNKS)
    hists = [np.zeros((N_CHUNKS, side.capacity + 1), dtype=np.int64)
             for side in (side_a, side_b)]
    args = []
    for side in (side_a, side_b):
        order = np.arange(len(side.counts), dtype=np.int64) if side.order is None \
            else side.order
        args += [side.rows, side.carries, side.counts, order, side.is_squad, side.capacity,
                 side.models]
    watch(lambda: run_chunk_shares(exchange_kernel, N_CHUNKS, streams, chunk_trials, rounds,
                                   *args, random_policy, *hists),
          hists[0].sum, trials, "exchange", progress=progress)
    return hists[0].sum(axis=0), hists[1].sum(axis=0)


#: Largest number of distinct exchange states (models alive per group and losses of both
#: sides) the exact engine follows before refusing.
MAX_EXCHANGE_STATES = 100_000
#: Most rounds one exchange may run.
MAX_EXCHANGE_ROUNDS = 100
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


@dataclass(frozen=True, eq=False)
class _ExactSide:
    """One side of an exchange (both engines); ``order`` is ``None`` under ``random``."""

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


def _side_states(side: _ExactSide) -> int:
    """Distinct (models alive per group, losses) states one side can be in."""
    if side.is_squad and side.order is None:
        return int(np.prod([int(c) + 1 for c in side.counts], dtype=float))
    return side.capacity + 1


def _full_dice(side: _ExactSide) -> tuple[int, ...]:
    """Dice each row of ``side`` rolls at full strength."""
    if not len(side.rows):
        return ()
    return tuple(int(v) for v in (side.counts @ side.carries) * side.rows[:, N_DICE])


def _transitions(target: _ExactSide, reach: int) -> int:
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


def exchange_work(side_a: _ExactSide, side_b: _ExactSide, rounds: int) -> int:
    """Work units of the exact exchange, estimated before any work.

    Each half-round walks every reachable state pair through every transition of the side
    being hit; the states reachable grow from one pair up to every pair. Exact fractions
    grow longer with every die rolled, so a step costs more each round: it is weighted by
    ``1 + dice rolled so far / DICE_PER_DIGIT_GROWTH``. Each distinct pool a side can fire
    costs one volley convolution (:func:`_pool_cost`).
    """
    sides = (side_a, side_b)
    states = [_side_states(side) for side in sides]
    reach = [max(damage_reach(s.rows, _full_dice(s)).values(), default=0) for s in sides]
    moves = [_transitions(side_b, reach[0]), _transitions(side_a, reach[1])]
    rolled = [sum(_full_dice(side)) for side in sides]
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


def _pool_cost(side: _ExactSide) -> int:
    """Rational products one volley convolution of ``side`` at full strength takes."""
    cost, acc = 0, 1
    for row, n in zip(side.rows, _full_dice(side)):
        width = max(damage_reach([row], [n]).values(), default=0) + 1
        cost += acc * width
        acc += width - 1
    return cost


def check_exchange_work(side_a: _ExactSide, side_b: _ExactSide, rounds: int) -> None:
    """Refuse up front an exact exchange past :data:`MAX_EXCHANGE_WORK`."""
    work = exchange_work(side_a, side_b, rounds)
    if work > MAX_EXCHANGE_WORK:
        groups = max(len(side_a.counts), len(side_b.counts))
        raise UnsupportedError(
            f"the exact exchange would take about {work:,} steps over {rounds} round"
            f"{'s' if rounds != 1 else ''} (limit {MAX_EXCHANGE_WORK:,}: states "
            f"{_side_states(side_a):,} x {_side_states(side_b):,}, up to {groups} model "
            "groups); use method='monte-carlo' (--method monte-carlo), or fewer rounds, "
            "models or groups, or a fixed casualty policy")


def _volley(shooter: _ExactSide, dice: tuple[int, ...], room: int, cache: dict) -> Pmf:
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


def _exchange_exact(side_a: _ExactSide, side_b: _ExactSide, rounds: int
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


# -- small closed forms ----------------------------------------------------------------------
def _plan_pairs(plan: Any) -> list[tuple[Any, Any]]:
    """The ``(weapon, target)`` pairs of a fire plan, or an :class:`OptionError` naming the
    first entry that is not a pair."""
    if isinstance(plan, (str, bytes, Mapping)) or not isinstance(plan, Iterable):
        raise OptionError(f"a fire plan is a list of (weapon, target) pairs, not "
                          f"{type(plan).__name__} {plan!r:.60}")
    pairs = list(plan)
    for index, pair in enumerate(pairs):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, (tuple, list)) \
                or len(pair) != 2:
            raise OptionError(f"fire plan entry {index + 1} is {pair!r:.60}: write a pair "
                              "(weapon, target), e.g. ('.30 cal: 3/1', '2x Grenadier: "
                              "INFANTRY2')")
    return [tuple(p) for p in pairs]


def _check_variants(variants: Any) -> None:
    """Refuse a :func:`compare` argument that is not a non-empty dict of keyword dicts."""
    if not isinstance(variants, Mapping) or not variants:
        raise OptionError("compare takes a non-empty dict: label -> {'weapons': ..., "
                          f"'target': ..., switches}}, not {variants!r:.60}")
    for label, kwargs in variants.items():
        if not isinstance(kwargs, Mapping) or "weapons" not in kwargs or "target" not in kwargs:
            raise OptionError(f"variant {label!r:.40} must be a dict with 'weapons' and "
                              f"'target' (and any switch), not {kwargs!r:.60}")


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


__all__ = ["exact", "simulate", "fire_plan", "exact_pmfs", "losses_table", "exchange",
           "removal_order", "pool_after_losses", "compare", "best_fire_plan",
           "weapon_breakdown", "effective_probability", "dice_to_kill", "run_plan_kernel",
           "N_CHUNKS", "DEFAULT_TRIALS"]
