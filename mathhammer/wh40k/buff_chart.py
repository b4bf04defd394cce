"""What each buff is worth, as a chart: one bar per buff, the gain in one metric when it is
removed from the full set (``mathhammer exact|simulate --attribution --attribution-plot
FILE``), the gain of every buff together set apart at the bottom."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from mathhammer.charts.fitting import axes_figure, fit_to_figure
from mathhammer.charts.labels import distinct_labels
from mathhammer.charts.layout import (axes_or_new, caption, figure_png, grow_to_fit,
                                      keep_tick_texts, label_chars, style)
from mathhammer.charts.panels import chart_title
from mathhammer.errors import OptionError
from mathhammer.report.labels import metric_label
from mathhammer.report.tables import estimate_parts

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes

#: The bar of every buff together (the frame's last buff).
ALL_BUFFS = "(all buffs)"
#: Okabe-Ito blue for each buff, grey for all of them together.
COLOURS = ("#0072B2", "#7f7f7f")


class AttributionArtists(NamedTuple):
    """What :func:`attribution_chart` drew: the axes and the bars (one per buff, then all)."""

    ax: Any
    bars: Any

    def _repr_png_(self) -> bytes:   # a notebook shows the chart
        return figure_png(self)


def attribution_chart(frame: pd.DataFrame, metric: str = "expected_damage", *,
                      ax: Axes | None = None, subject: str = "") -> AttributionArtists:
    """One bar per buff: the gain in ``metric`` that buff brings to the full set (the result
    with every buff minus the result without it), and the gain of all buffs together.

    Parameters
    ----------
    frame
        :func:`~mathhammer.wh40k.buff_attribution.attribution`'s frame.
    metric
        One of its metrics (``expected_damage``, ``expected_models_destroyed``,
        ``p_unit_destroyed``).
    ax
        Axes to draw in (default: a new figure sized for the buffs).
    subject
        What was attacked with what, said in the caption.

    Examples
    --------
    >>> from mathhammer.wh40k.buff_attribution import attribution
    >>> frame = attribution("Bolter: A2 BS3+ S4 AP0 D1", "MEQ",
    ...                     ["Oath: re-roll hits (1CP)", "[LETHAL HITS]"], method="exact")
    >>> [bool(bar.get_width() > 0) for bar in attribution_chart(frame).bars]
    [True, True, True]
    """
    rows = frame[frame["metric"] == metric]
    if rows.empty:
        known = ", ".join(dict.fromkeys(frame["metric"]))
        raise OptionError(f"no gains of '{metric}' in the attribution; it holds {known}",
                          token=metric)
    buffs = [f"{b} ({cost:g} {unit})" if isinstance(cost, float) and np.isfinite(cost)
             else str(b) for b, cost, unit in zip(rows["buff"], rows["cost"],
                                                 rows["cost_unit"])]
    gains = rows["gain"].to_numpy(dtype=float)
    height = min(max(2.6, 0.45 * len(buffs) + 1.8), 11.0)
    with style():
        ax = axes_or_new(ax, (7.0, height))
        colours = [COLOURS[1] if b == ALL_BUFFS else COLOURS[0] for b in rows["buff"]]
        bars = ax.barh(np.arange(len(buffs)), gains, color=colours, height=0.6)
        shown = distinct_labels(buffs, label_chars(ax, 0.35, 30), 2, what="buff names")
        ax.set_yticks(np.arange(len(buffs)), shown)
        keep_tick_texts(ax, shown, buffs)
        ax.set_ylim(len(buffs) - 0.5, -0.5)
        ax.axvline(0.0, color="#333333", linewidth=0.8)
        low, high = min(0.0, float(np.nanmin(gains))), max(0.0, float(np.nanmax(gains)))
        span = (high - low) or 1.0
        ax.set_xlim(low - 0.02 * span, high + 0.18 * span)
        for bar, gain in zip(bars, gains):
            shown_gain = estimate_parts(abs(gain), None, 3)[0]
            ax.annotate(f"{'-' if gain < 0 else '+'}{shown_gain}", xy=(max(bar.get_width(), 0.0),
                                            bar.get_y() + bar.get_height() / 2),
                        xytext=(3, 0), textcoords="offset points", va="center", fontsize=8)
        label = metric_label(metric, frame)
        ax.set_xlabel(f"gain in {label}")
        ax.grid(axis="y", visible=False)
        chart_title(ax, "What each buff is worth")
        method = str(rows["method"].iloc[0]) if "method" in rows else ""
        caption(ax, "; ".join(p for p in (
            subject, f"each buff removed from the full set ({method})" if method else
            "each buff removed from the full set") if p))
        grow_to_fit(axes_figure(ax))
        fit_to_figure([ax])
    return AttributionArtists(ax, bars)
