"""The text tables of ``mathhammer roster``: one metric per table, units by targets, cells
short enough that a list fits a 100-column terminal.

Numbers follow the one rule of tables, charts and the web page
(:func:`mathhammer.report.tables.estimate_parts`): three significant figures, probabilities
as percentages (``<0.01%`` and ``>99.99%`` at the ends, never
``0.00000000000000000034%``, and an exact ``0%`` or ``100%`` only when the value is); Monte
Carlo cells carry their standard error, with its decimals (``5.55±0.03``), written without
spaces to keep the columns narrow.
"""

from __future__ import annotations

import math

import pandas as pd


def format_cell(value: float, stderr: float, metric: str, method: str) -> str:
    """One cell of a roster table.

    Examples
    --------
    >>> format_cell(3.4e-21, 0.0, "p_unit_destroyed", "exact")
    '<0.01%'
    >>> format_cell(5.5491, 0.031, "expected_damage", "monte-carlo")
    '5.55±0.03'
    >>> format_cell(float("nan"), float("nan"), "damage_per_100pts", "exact")
    '-'
    """
    from mathhammer.report.tables import estimate_parts

    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"  # no value: e.g. a per-100-points figure of a unit costing 0 points
    error = stderr if method == "monte-carlo" and stderr == stderr and stderr > 0 else None
    shown, spread = estimate_parts(value, error, 3, percent=metric.startswith("p_"))
    return shown + spread.replace("± ", "±")


def metric_table(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Units (rows) by targets (columns) for one metric of an analysis frame (one phase)."""
    part = frame[frame["metric"] == metric]
    cells = part.assign(cell=[format_cell(v, s, metric, m) for v, s, m in
                              zip(part["value"], part["stderr"], part["method"])])
    wide = cells.pivot_table(index="attacker", columns="target", values="cell",
                             aggfunc="first", sort=False).fillna("")
    # a per-100-points row says what it was divided by, in a column of its own (the index
    # stays the units' names, which the page's cells are keyed by)
    costs = frame.attrs.get("points") or {}
    if metric.endswith("_per_100pts") and costs:
        wide.insert(0, "points", [f"{float(costs[str(a)]):g}" if str(a) in costs else "-"
                                  for a in wide.index])
    wide.columns.name = None
    wide.index.name = None
    return wide
