"""What each buff is worth (issue 35): a question asked with every buff, then with each one
removed, as a tidy frame (:func:`attribution`) and a readable table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
        cost = buff.cost if buff is not None else None
        if buff is None:
            costs = [b.cost for b in resolved]
            cost = sum(c for c in costs if c is not None) if all(
                c is not None for c in costs) and len({b.cost_unit for b in resolved}) == 1 \
                else None
        unit = (buff or resolved[0]).cost_unit if cost is not None else ""
        for metric, (kind, key) in ATTRIBUTION_METRICS.items():
            value_with = getattr(full, kind)(key)
            value_without = getattr(without, kind)(key)
            gain = value_with - value_without
            rows.append({"buff": name, "cost": cost if cost is not None else float("nan"),
                         "cost_unit": unit, "metric": metric, "with_buffs": value_with,
                         "without_buff": value_without, "gain": gain,
                         "gain_per_cost": gain / cost if cost else float("nan"),
                         "method": full.method})
    return pd.DataFrame(rows)


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
