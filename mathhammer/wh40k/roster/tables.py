"""The text tables of ``mathhammer roster``: one metric per table, units by targets, cells
short enough that a list fits a 100-column terminal.

Numbers have two decimals (three significant figures below 0.1); probabilities are
percentages with one decimal, ``<0.1%`` and ``>99.9%`` at the ends (never
``0.00000000000000000034%``) and an exact ``0%`` or ``100%`` only when the value is;
Monte Carlo cells carry their standard error (``5.55±0.03``).
"""

from __future__ import annotations

import math

import pandas as pd


def format_cell(value: float, stderr: float, metric: str, method: str) -> str:
    """One cell of a roster table.

    Examples
    --------
    >>> format_cell(3.4e-21, 0.0, "p_unit_destroyed", "exact")
    '<0.1%'
    >>> format_cell(5.5491, 0.031, "expected_damage", "monte-carlo")
    '5.55±0.03'
    >>> format_cell(float("nan"), float("nan"), "damage_per_100pts", "exact")
    '-'
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"  # no value: e.g. a per-100-points figure of a unit costing 0 points
    percent = metric.startswith("p_")
    text = _percent(value) if percent else _number(value)
    if method == "monte-carlo" and stderr == stderr and stderr > 0:
        text += "±" + _error(100 * stderr if percent else stderr, text.rstrip("%"))
    return text


def _error(err: float, shown: str) -> str:
    """A standard error with the decimals of the value it follows (one significant figure
    when that would round it to zero)."""
    decimals = len(shown.partition(".")[2]) if shown[:1].isdigit() else 2
    text = f"{err:.{decimals}f}"
    return text if float(text) > 0 else f"{err:.1g}"


def _percent(value: float) -> str:
    pct = 100.0 * value
    if pct == 0:
        return "0%"
    if pct == 100:
        return "100%"
    if pct < 0.1:
        return "<0.1%"
    if pct > 99.9:
        return ">99.9%"
    return f"{pct:.1f}%"


def _number(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) < 0.1:
        return f"{value:.2g}" if abs(value) >= 0.001 else "<0.001"
    return f"{value:.2f}"


def metric_table(frame: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Units (rows) by targets (columns) for one metric of an analysis frame (one phase)."""
    part = frame[frame["metric"] == metric]
    cells = part.assign(cell=[format_cell(v, s, metric, m) for v, s, m in
                              zip(part["value"], part["stderr"], part["method"])])
    wide = cells.pivot_table(index="attacker", columns="target", values="cell",
                             aggfunc="first", sort=False).fillna("")
    wide.columns.name = None
    wide.index.name = None
    return wide
