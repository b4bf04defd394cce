"""What each buff is worth (issue 35): a question asked with every buff, then with each one
removed, as a tidy frame (:func:`attribution`) and a readable table."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.wh40k.buffs import Buff, resolve_buffs


#: The figures :func:`attribution` reports, by the name of the result's figure.
ATTRIBUTION_METRICS = {"expected_damage": ("mean", "damage"),
                       "expected_models_destroyed": ("mean", "models_destroyed"),
                       "p_unit_destroyed": ("probability", "unit_destroyed")}
#: The row of :func:`attribution` that removes every buff at once.
ALL_BUFFS = "(all buffs)"


def attribution(weapons: Any, target: Any, buffs: Sequence[str | Buff], *,
                method: str = "auto", trials: int = 200_000, seed: int = 1,
                library: Mapping[str, Buff] | None = None, **options: Any) -> Any:
    """What each buff is worth: the question asked with every buff, then again with each
    buff removed (and with none), as a tidy frame.

    Parameters
    ----------
    weapons, target, **options
        As for :func:`mathhammer.exact` / :func:`mathhammer.simulate`.
    buffs
        The buffs (text, names of ``library``, or :class:`Buff`).
    method
        ``"auto"`` (default): the exact engine when it answers the question with every buff,
        else Monte Carlo; ``"exact"`` or ``"monte-carlo"`` to insist. Every run of one frame
        uses the same engine (and, for Monte Carlo, the same ``trials`` and ``seed``: common
        random numbers).
    library
        Named buffs (:func:`load_buff_file`) that ``buffs`` may name.

    Returns
    -------
    pandas.DataFrame
        One row per (buff, metric): ``buff, cost, cost_unit, metric, with_buffs,
        without_buff, gain, gain_per_cost, method``, where ``gain = with_buffs -
        without_buff`` and ``gain_per_cost = gain / cost`` (NaN without a cost); the last
        rows, buff ``"(all buffs)"``, remove them all. Gains of several buffs need not add
        up to the gain of all: buffs interact (a re-roll is worth more with +1 to wound).

    Examples
    --------
    >>> df = attribution("Bolter: A1 BS3+ S4 AP0 D1", "T4 Sv- W1",
    ...                  ["Oath: re-roll hits (1CP)"], method="exact")
    >>> row = df.query("buff == 'Oath' and metric == 'expected_damage'").iloc[0]
    >>> [round(float(row[c]), 4) for c in ("with_buffs", "without_buff", "gain_per_cost")]
    [0.4444, 0.3333, 0.1111]
    """
    import pandas as pd

    from mathhammer.errors import UnsupportedError
    from mathhammer.wh40k import api

    if method not in ("auto", "exact", "monte-carlo"):
        raise OptionError(f"method '{method}' must be auto, exact or monte-carlo",
                          token="method")
    resolved = resolve_buffs(buffs, library)
    if not resolved:
        raise OptionError("attribution needs at least one buff", token="buffs")

    def run(subset: Sequence[Buff], how: str) -> Any:
        if how == "exact":
            return api.exact(weapons, target, buffs=subset, **options)
        return api.simulate(weapons, target, buffs=subset, trials=trials, seed=seed,
                            progress=False, **options)

    how = "exact" if method != "monte-carlo" else "monte-carlo"
    try:
        full = run(resolved, how)
    except UnsupportedError:
        if method == "exact":
            raise
        how = "monte-carlo"
        full = run(resolved, how)
    removed: list[tuple[str, Buff | None, Any]] = [
        (b.name, b, run([o for o in resolved if o is not b], how)) for b in resolved]
    removed.append((ALL_BUFFS, None, run((), how)))
    rows = []
    for name, buff, without in removed:
        cost, unit = buff_cost(buff, resolved)
        for metric, (kind, key) in ATTRIBUTION_METRICS.items():
            value_with = getattr(full, kind)(key)
            value_without = getattr(without, kind)(key)
            rows.append({"buff": name, "cost": cost, "cost_unit": unit, "metric": metric,
                         **_gain(value_with, value_without, cost), "method": full.method})
    return pd.DataFrame(rows)


def buff_cost(buff: Buff | None, resolved: Sequence[Buff]) -> tuple[float, str]:
    """A buff's cost and unit (NaN, "" without one); for ``None`` (all the buffs), their
    total when each has one in the same unit."""
    if buff is not None:
        return (float("nan"), "") if buff.cost is None else (buff.cost, buff.cost_unit)
    if all(b.cost is not None for b in resolved) and len({b.cost_unit for b in resolved}) == 1:
        return float(sum(b.cost or 0 for b in resolved)), resolved[0].cost_unit
    return float("nan"), ""


def _gain(value_with: float, value_without: float, cost: float) -> dict[str, float]:
    gain = float(value_with) - float(value_without)
    return {"with_buffs": float(value_with), "without_buff": float(value_without),
            "gain": gain, "gain_per_cost": gain / cost if cost == cost and cost else
            float("nan")}


#: The figures a grid's attribution reports (those of its frame).
GRID_METRICS = ("expected_damage", "expected_models_destroyed", "p_unit_destroyed")


def grid_attribution(run: Callable[[Sequence[Buff]], Any], buffs: Sequence[Buff],
                     keys: Sequence[str], metrics: Sequence[str] = GRID_METRICS) -> Any:
    """What each buff is worth over a grid of cells: ``run(subset)`` answers the grid's tidy
    frame with ``subset`` of ``buffs``; its ``metrics`` are summed per ``keys`` (a grid's
    ``attacker, target``; a list's ``target, phase``) with every buff, with each removed, and
    with none (the rows of buff ``"(all buffs)"``).

    Returns
    -------
    pandas.DataFrame
        One row per (buff, keys, metric): ``buff, *keys, metric, cost, cost_unit, with_buffs,
        without_buff, gain, gain_per_cost, method``.
    """
    import pandas as pd

    def totals(subset: Sequence[Buff]) -> tuple[Any, str]:
        frame = run(subset)
        part = frame[frame["metric"].isin(metrics)]
        summed = part.groupby([*keys, "metric"], sort=False)["value"].sum()
        return summed, str(frame.attrs.get("method"))

    full, method = totals(buffs)
    removed: list[tuple[str, Buff | None, Any]] = [
        (b.name, b, totals([o for o in buffs if o is not b])[0]) for b in buffs]
    removed.append((ALL_BUFFS, None, totals(())[0]))
    rows = []
    for name, buff, without in removed:
        cost, unit = buff_cost(buff, buffs)
        for key, value in full.items():
            rows.append({"buff": name, **dict(zip([*keys, "metric"], key)), "cost": cost,
                         "cost_unit": unit, **_gain(value, without.get(key, 0.0), cost),
                         "method": method})
    return pd.DataFrame(rows)


def attribution_table(frame: Any, row: str, title: str, metric: str = "expected_damage",
                      digits: int = 2, where: str = "") -> str:
    """A :func:`grid_attribution` frame as a table: per ``row`` (``phase``, ``attacker``) and
    buff, the gain in ``metric`` against each target and, with several, all of them; per
    point of cost, the gain against all the targets. The heading says ``where`` (" on the
    list") and ``title`` after the engine's name."""
    part = frame[frame["metric"] == metric]
    order = {p: i for i, p in enumerate(dict.fromkeys(part[row]))}
    part = part.sort_values(row, kind="stable", key=lambda s: s.map(order))
    lines = [f"What each buff is worth{where} ({part['method'].iloc[0]}: {title})"]
    targets = list(dict.fromkeys(part["target"]))
    width = max([11, *(len(t) for t in targets)])
    row_width = max([9, *(len(str(r)) for r in part[row])])
    name_width = max([12, *(len(str(b)) for b in part["buff"])])
    total = ["all targets"] if len(targets) > 1 else []
    lines.append(f"{row:<{row_width}} {'buff':<{name_width}} " +
                 " ".join(f"{t[:width]:>{width}}" for t in targets + total) + "  per cost")
    for (key, name), rows in part.groupby([row, "buff"], sort=False):
        gains = dict(zip(rows["target"], rows["gain"]))
        summed = float(sum(gains.values()))
        cost, unit = rows["cost"].iloc[0], rows["cost_unit"].iloc[0]
        per_text = "" if cost != cost or not cost else (
            f"{summed / cost:+.{digits}f} per {unit} ({cost:g} {unit})")
        values = [gains.get(t, 0.0) for t in targets] + ([summed] if total else [])
        lines.append(f"{str(key):<{row_width}} {str(name):<{name_width}} " +
                     " ".join(f"{v:>+{width}.{digits}f}" for v in values) +
                     f"  {per_text}".rstrip())
    return "\n".join(lines)


def attribution_text(frame: Any, digits: int = 3) -> str:
    """The frame of :func:`attribution` as a readable table: per buff, its gain in expected
    wounds lost, models destroyed and P(unit destroyed), and the gain per point of cost."""
    lines = [f"What each buff is worth ({frame['method'].iloc[0]}: the result with every "
             "buff, minus the result without it)"]
    header = f"{'buff':<28} {'wounds':>9} {'models':>9} {'P(unit)':>9}  per cost"
    lines.append(header)
    for name, rows in frame.groupby("buff", sort=False):
        gains = dict(zip(rows["metric"], rows["gain"]))
        per = dict(zip(rows["metric"], rows["gain_per_cost"]))
        cost = rows["cost"].iloc[0]
        unit = rows["cost_unit"].iloc[0]
        per_text = "" if cost != cost else (
            f"{per['expected_damage']:+.{digits}f} wounds per {unit} "
            f"({cost:g} {unit})")
        lines.append(f"{str(name)[:28]:<28} {gains['expected_damage']:>+9.{digits}f} "
                     f"{gains['expected_models_destroyed']:>+9.{digits}f} "
                     f"{gains['p_unit_destroyed']:>+9.{digits}f}  {per_text}".rstrip())
    return "\n".join(lines)


def grid_attribution_text(frame: Any, metric: str = "expected_damage", digits: int = 3) -> str:
    """The frame of ``compare(..., attribution=True)`` as a table: per attacker and buff, the
    gain in ``metric`` against each target (and all of them), and per point of cost."""
    words = metric.replace("expected_", "").replace("damage", "wounds lost").replace("_", " ")
    return attribution_table(frame, "attacker", f"{words}, with every buff minus without it",
                             metric, digits)


def records(frame: Any) -> list[dict[str, Any]]:
    """An attribution frame's rows for JSON (NaN as null)."""
    import math

    return [{k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
            for row in frame.to_dict("records")]
