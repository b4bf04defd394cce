"""Exact tables and fire-orders search for one Dust attacker: what each weapon adds
(:func:`weapon_breakdown`), expected losses by target column and cover
(:func:`losses_table`), and the best declaration of weapons to targets
(:func:`best_fire_orders`). All exact, in rationals, on the same compiled rows as everything
else.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from mathhammer.core.frames import tidy_frame
from mathhammer.core.inputs import one_or_many, switch, whole_number
from mathhammer.core.lazy import lazy_names
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.dust.compile import N_DICE, compile_plan
from mathhammer.dust.exact_engine import Series, plan_pmfs, row_series
from mathhammer.dust.parse import parse_target, parse_weapons
from mathhammer.dust.profiles import (AIRCRAFT, CLASSES, COVER_STATES, MAX_LEVELS, Rules,
                                      Target, Weapon, with_switches)
from mathhammer.errors import OptionError

WeaponsLike = str | Weapon | Sequence[str | Weapon]
TargetLike = str | Target

#: Short names of the target classes, for row labels (``INF2``, ``VEH5``, ``AIR1``).
CLASS_TICKS = {"infantry": "INF", "vehicle": "VEH", "aircraft": "AIR"}


def weapon_breakdown(weapons: WeaponsLike, target: TargetLike, *, sustained: bool = False,
                     rules: Rules | None = None, **rule_switches: Any) -> pd.DataFrame:
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
    rules = with_switches(rules, rule_switches)
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



def losses_table(weapons: WeaponsLike, *, sustained: bool = False, models: int | None = None,
                 boxes: int | None = None, damage_resilient: bool = False,
                 rules: Rules | None = None, **rule_switches: Any) -> pd.DataFrame:
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
    rules = with_switches(rules, rule_switches)
    parsed = parse_weapons(weapons)
    switch(sustained, "sustained"), switch(damage_resilient, "damage_resilient")
    models, boxes = (None if n is None else whole_number(n, what, 1, MAX_NUMBER)
                     for n, what in ((models, "models (of each target squad)"),
                                     (boxes, "boxes (of each target vehicle)")))
    records = []
    for cls in CLASSES:
        levels = rules.aircraft_levels if cls == AIRCRAFT else MAX_LEVELS[cls]
        for armour in range(1, levels + 1):
            row: dict[str, Any] = {"target class": cls, "armour": armour}
            for cover in COVER_STATES:
                size: dict[str, Any] = ({"models": models} if cls == "infantry" and models
                                        else {})
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



def best_fire_orders(weapons: WeaponsLike, targets: Sequence[TargetLike], *,
                     objective: str = "expected_losses", sustained: bool = False,
                     rules: Rules | None = None, **rule_switches: Any) -> pd.DataFrame:
    """Rank every declaration of weapons to targets by an exact objective.

    Each weapon is aimed at one target it can attack (section 4: the orders are fixed before
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
        One row per set of orders, best first: a column per weapon naming its target, then
        ``expected_losses``, ``units_destroyed`` and ``expected_overkill``.
    """
    if objective not in ("expected_losses", "units_destroyed"):
        raise OptionError(f"objective must be 'expected_losses' or 'units_destroyed', not "
                          f"{objective!r}")
    rules = with_switches(rules, rule_switches)
    parsed = parse_weapons(weapons)
    tgts = [parse_target(t) for t in one_or_many(targets, (Target,), "targets",
                                                  "5x Grenadier: INFANTRY2")]
    if not tgts:
        raise OptionError("give at least one target")
    names = [t.name for t in tgts]
    if len(set(names)) != len(names):
        raise OptionError("targets need distinct names to be told apart in the orders table")
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
        row: dict[str, str | float] = {f"{w.name}": tgts[a].name
                                       for w, a in zip(parsed, assignment)}
        row.update({"expected_losses": float(totals[0]), "units_destroyed": float(totals[1]),
                    "expected_overkill": float(totals[2])})
        records.append(row)
    frame = pd.DataFrame(records)
    other = "units_destroyed" if objective == "expected_losses" else "expected_losses"
    return frame.sort_values([objective, other], ascending=False, kind="stable") \
        .reset_index(drop=True)


def losses_frame(table: pd.DataFrame, metric: str = "expected_losses",
                 label: str | None = None) -> pd.DataFrame:
    """A :func:`losses_table` as the tidy frame core's charts and tables read
    (:mod:`mathhammer.core.frames`): one row per (target column, cover state).

    ``attacker`` holds the target column (``INF2``: the rows of a bar chart), ``target`` the
    cover state (its series); cells no weapon can attack are left out. ``label`` names
    ``metric`` in words (``attrs["labels"]``).

    Examples
    --------
    >>> frame = losses_frame(losses_table("Gun: 3/1"))
    >>> first = frame.iloc[0]
    >>> first["attacker"], first["target"], round(float(first["value"]), 6)  # 3 dice, 1/3 each
    ('INF1', 'open', 1.0)
    """
    rows = []
    for key, values in table.iterrows():
        row_label = f"{CLASS_TICKS.get(key[0], key[0])}{key[1]}" if isinstance(key, tuple) \
            else str(key)
        for cover, value in values.items():
            if value == value:  # NaN: no weapon can attack this column
                rows.append({"attacker": row_label, "target": str(cover), "metric": metric,
                             "value": float(value), "stderr": float("nan")})
    return tidy_frame(rows, method="exact", labels={metric: label} if label else None)


#: The old name of :func:`best_fire_orders`: it answers for one release with a
#: DeprecationWarning.
__getattr__ = lazy_names(__name__, {}, {
    "best_fire_plan": "mathhammer.dust.plans.best_fire_orders"})[0]
