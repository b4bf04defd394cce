"""The chart of an optimisation: the best orders and the naive ones, side by side.

One row per set of orders: a bar of its value on the first objective (Monte Carlo: ±2 s.e.) and,
under it, the orders in full (wrapped, never cut), so the chart can be read alone.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

from mathhammer.charts.layout import (NOTE_COLOUR, axes_or_new, axes_width, caption,
                                      fit_limits, fit_to_figure, grow_to_fit,
                                      percent_axis, series_style, style, title, wrap,
                                      capitalised)

#: Orders drawn: the best few, then every everything-at-one-target set of orders.
CHART_ORDERS = 3
#: Inches per character of the orders under the bars (7.5-point text).
ORDER_CHAR_WIDTH = 0.062


def orders_chart(result: Any, *, title_text: str | None = None, ax: Any = None) -> Any:
    """Horizontal bars of the first objective, one per set of orders, with the orders
    underneath.

    Returns
    -------
    matplotlib.axes.Axes
    """
    objective = result.objectives[0]
    rows = [("best orders" if i == 0 else f"orders #{i + 1}", s)
            for i, s in enumerate(result.ranked[:CHART_ORDERS])]
    rows += [(name, s) for name, s in result.naive
             if all(s.orders != r.orders for _, r in rows)]
    probability = objective.kind.startswith("p_")
    with style():
        ax = axes_or_new(ax, (7.6, 4.2))
        chars = max(int(axes_width(ax) / ORDER_CHAR_WIDTH), 40)
        texts = [_orders_text(result, s.orders, chars) for _, s in rows]
        heights = [1.0 + 0.32 * t.count("\n") for t in texts]
        if ax.figure.__dict__.get("_mathhammer_owned"):
            ax.figure.set_figheight(min(1.6 + 0.55 * sum(heights), 14.0))
        tops = np.cumsum([0.0] + heights[:-1])
        values = np.array([s.values[0][0] for _, s in rows])
        errors = np.array([s.values[0][1] for _, s in rows])
        for i, ((label, _), top) in enumerate(zip(rows, tops)):
            ax.barh(top + 0.2, values[i], height=0.4, align="center",
                    color=series_style(0 if i == 0 else 1)["color"],
                    xerr=2 * errors[i] if errors[i] > 0 else None, ecolor="#333333",
                    capsize=3)
            ax.annotate(_value_text(values[i], errors[i], probability),
                        xy=(max(values[i] + 2 * errors[i], 0.0), top + 0.2), xytext=(4, 0),
                        textcoords="offset points", va="center", fontsize=8.5)
            ax.annotate(texts[i], xy=(0.0, top + 0.48), xycoords=("axes fraction", "data"),
                        va="top", ha="left", fontsize=7.5, color=NOTE_COLOUR)
        ax.set_yticks(tops + 0.2, [wrap(label, 18, 4) for label, _ in rows])
        ax.set_ylim(sum(heights) - 0.1, -0.2)
        ax.grid(axis="y", visible=False)
        low, high = fit_limits(values + 2 * errors, probability=probability)
        ax.set_xlim(low, low + (high - low) * 1.18)
        if probability:
            percent_axis(ax.xaxis, high - low)
        ax.set_xlabel(capitalised(objective.describe()))
        title(ax, title_text or f"Best orders: {result.objective_text()}",
              width=max(int(axes_width(ax) / 0.12), 30))
        engine = "exact" if result.engine == "exact" else \
            f"Monte Carlo, {result.trials:,} trials per set of orders, seed {result.seed}; ±2 s.e."
        proven = "proven optimal" if result.optimal else "not proven optimal"
        naive = "; 'everything at': profiles as written" if result.naive else ""
        caption(ax, f"{capitalised(result.method)} of {result.orders_in_space:,} sets of orders; "
                    f"{engine}; {proven}{naive}")
        grow_to_fit(ax.figure)
        fit_to_figure([ax])
    return ax


def _orders_text(result: Any, orders: Any, chars: int) -> str:
    lines = []
    for part in result.describe(orders).split(" | "):
        lines += textwrap.wrap(part, chars, subsequent_indent="  ",
                               break_long_words=False)
    return "\n".join(lines)


def _value_text(value: float, stderr: float, probability: bool) -> str:
    """The value of a set of orders by the one rule of tables and charts
    (:func:`mathhammer.report.tables.format_estimate`)."""
    from mathhammer.report.tables import format_estimate

    return format_estimate(value, stderr or None, 3, percent=probability)
