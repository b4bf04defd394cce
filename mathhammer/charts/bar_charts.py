"""Bar and dot charts of one metric per attacker, grouped by target (:func:`bars`).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from mathhammer.charts.data import fold_extra, frame_note, metric_rows
from mathhammer.charts.fitting import CrowdedChart, axes_figure, fit_to_figure
from mathhammer.charts.layout import (
    FIGSIZE,
    SMALL_TICKS,
    axes_or_new,
    capitalised,
    caption,
    checked_options,
    distinct_labels,
    figure_png,
    fit_limits,
    grow_to_fit,
    keep_tick_texts,
    label_chars,
    legend_outside,
    percent_axis,
    series_hatch,
    series_style,
    style,
)
from mathhammer.charts.panels import chart_title, lines_per_row
from mathhammer.core.inputs import chart_frame
from mathhammer.report.labels import metric_label
from mathhammer.report.tables import estimate_parts
from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes


class BarsArtists(NamedTuple):
    ax: Any
    bars: list
    errorbars: list
    def _repr_png_(self) -> bytes:
        return figure_png(self)


@checked_options
def bars(frame: pd.DataFrame, metric: str | None = None, *, ax: Axes | None = None,
         title: str | None = None, per_points: bool = False, kind: str = "auto",
         ylim: tuple[float, float] | None = None) -> BarsArtists:
    """One metric per attacker, grouped by target, with ±2 s.e. error bars: horizontal
    bars, or a dot chart when there are three targets or more.

    Parameters
    ----------
    frame
        A tidy comparison frame (``attacker``, ``target``, ``metric``, ``value``,
        ``stderr``), e.g. from :func:`mathhammer.compare`; extra columns (a sweep setting)
        are folded into the attacker labels.
    metric
        The metric to draw (default: the first in the frame).
    per_points
        Draw the per-100-points variant of ``metric`` (``expected_damage`` ->
        ``damage_per_100pts``; the frame needs points, see ``compare(points=...)``).
    kind
        ``"bars"``, ``"dots"`` or ``"auto"`` (bars for one or two targets, dots beyond).
    ylim
        Range of the value axis (default: from 0 to a little above the largest value).

    Returns
    -------
    BarsArtists
        ``ax``, ``bars`` (one BarContainer, or one Line2D of dots, per target) and
        ``errorbars`` (ErrorbarContainers of Monte Carlo frames; empty for exact ones).
    """
    if per_points:
        metric = (metric or "expected_damage").removeprefix("expected_")
        metric = metric if metric.endswith("_per_100pts") else metric + "_per_100pts"
    part, metric = metric_rows(chart_frame(frame), metric, rows="attacker", columns="target")
    part = fold_extra(part, "attacker", "target")
    attackers = list(dict.fromkeys(part["attacker"]))
    targets = list(dict.fromkeys(part["target"]))
    if kind not in ("auto", "bars", "dots"):
        raise OptionError(f"kind={kind!r}: use 'bars', 'dots' or 'auto'")
    dots = kind == "dots" or (kind == "auto" and len(targets) >= 3)
    lines = max(min(len(str(a)) // 26 + 1, 3) for a in attackers)  # of the wrapped labels
    per_row = max(0.5 if dots else 0.3 * len(targets) + 0.25, 0.17 * lines + 0.15)
    height = min(max(2.8, per_row * len(attackers) + 1.9), 11.0)
    owned = ax is None
    with style():
        ax = axes_or_new(ax, (FIGSIZE[0], height))
        drawn, errorbars, errors = _draw_bars(ax, part, attackers, targets, dots)
        names = [_with_points(a, metric, frame) for a in attackers]
        size = 10.0 if owned else SMALL_TICKS
        lines = 3 if owned else lines_per_row(ax, len(attackers), size)
        shown = _row_labels([str(a) for a in attackers], names,
                            label_chars(ax, 0.4 if not owned else 0.33, 28, size=size), lines)
        ax.set_yticks(np.arange(len(attackers)), shown, fontsize=size)
        keep_tick_texts(ax, shown, names)
        ax.set_ylim(len(attackers) - 0.5, -0.5)
        ax.grid(axis="y", visible=False)
        label = metric_label(metric, frame)
        is_probability = metric.startswith("p_")
        everything = part["value"].to_numpy(dtype=float) + 2 * np.nan_to_num(
            part["stderr"].to_numpy(dtype=float) if "stderr" in part else 0.0)
        low, high = fit_limits(everything, probability=is_probability, ylim=ylim)
        if not dots and ylim is None:
            high = low + (high - low) * 1.15  # room for the value printed after each bar
        ax.set_xlim(low, high)
        if is_probability:
            percent_axis(ax.xaxis, high - low)
        values = [] if dots else _bar_values(ax, drawn, errorbars, is_probability, errors,
                                             frame.attrs.get("trials"))
        ax.set_xlabel(label)
        one = len(targets) == 1  # the one target every bar is against: said in the title
        chart_title(ax, title or capitalised(label) + (f" vs {targets[0]}" if one else ""))
        note = frame_note(frame) + ("; error bars: ±2 s.e." if errorbars else "")
        if len(targets) > 1:
            legend_outside(ax, drawn, [str(t) for t in targets], title=note or None,
                           width=label_chars(ax, 0.3, 26, 12))
        else:
            caption(ax, "; ".join(p for p in (f"against {targets[0]}" if title else "", note)
                                  if p))
        grow_to_fit(axes_figure(ax))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", CrowdedChart)
            fit_to_figure([ax])
            _hide_crowded_values(ax, values)
    for warning in caught[:1]:   # one warning per chart
        warnings.warn(warning.message, CrowdedChart, stacklevel=3)
    return BarsArtists(ax, drawn, errorbars)


def _hide_crowded_values(ax: Axes, values: list) -> None:
    """In a caller's axes too small for them, the values printed past the bars would run
    into each other: then none is printed (the bars, error bars and value axis still read
    them), said in a :class:`~mathhammer.charts.fitting.CrowdedChart` warning."""
    from mathhammer.charts.fitting import drawn_figure, overlapping

    figure = axes_figure(ax)
    if figure.__dict__.get("_mathhammer_owned") or len(values) < 2:
        return
    renderer = drawn_figure(figure)[0]
    if not overlapping([text.get_window_extent(renderer) for text in values]):
        return
    for text in values:
        text.set_visible(False)
    width, height = figure.get_size_inches()
    warnings.warn(f"the bars of this {width:g} x {height:g} in figure are too thin for the "
                  "values printed past them, so they are left out (the value axis reads "
                  "them): give it taller axes or fewer rows", CrowdedChart, stacklevel=4)


def _bar_values(ax: Axes, containers: list, errorbars: list, is_probability: bool,
                errors: list, trials: int | None) -> list:
    """Each bar's value printed just past the bar (or its error bar), so a zero reads 0,
    to three significant figures or as many as its standard error supports; the texts."""
    printed = []
    for j, container in enumerate(containers):
        spans = (errorbars[j].lines[2][0].get_segments()
                 if len(errorbars) == len(containers) else [None] * len(container))
        for patch, span, se in zip(container, spans, errors[j]):
            value = patch.get_width()
            end = max(value, span[1][0]) if span is not None else value
            if not np.isfinite(value):
                continue
            text = estimate_parts(value, None if not np.isfinite(se) else se, 3,
                                  percent=is_probability, trials=trials)[0]
            printed.append(ax.annotate(
                text, xy=(max(end, 0.0), patch.get_y() + patch.get_height() / 2),
                xytext=(3, 0), textcoords="offset points", va="center", fontsize=8,
                color="#333333"))
    return printed


def _row_labels(attackers: list[str], names: list[str], width: int, lines: int) -> list[str]:
    """Row labels on ``lines`` lines, never two alike (see
    :func:`~mathhammer.charts.layout.distinct_labels`); the "(120 pts)" of a per-points row
    kept whole on a line of its own."""
    points = [name[len(attacker):].strip() for attacker, name in zip(attackers, names)]
    if not any(points) or lines < 2:
        return distinct_labels(names, width, lines, what="row labels")
    heads = distinct_labels(attackers, width, lines - 1, what="row labels")
    return [f"{head}\n{extra}" if extra else head for head, extra in zip(heads, points)]


def _with_points(attacker: Any, metric: str, frame: pd.DataFrame) -> str:
    """A per-100-points row names the points it was divided by: "Unit (120 pts)" (as the
    tables do, :func:`mathhammer.core.frames.with_points`)."""
    from mathhammer.core.frames import with_points

    return with_points(attacker, metric, frame)


def _draw_bars(ax, part, attackers, targets, dots):
    drawn, errorbars, errors = [], [], []
    spread = 0.5 if dots else 0.8
    step = spread / len(targets)
    y = np.arange(len(attackers))
    for j, target in enumerate(targets):
        rows = part[part["target"] == target].set_index("attacker").reindex(attackers)
        values = rows["value"].to_numpy(dtype=float)
        se = rows["stderr"].to_numpy(dtype=float) if "stderr" in rows else \
            np.full_like(values, np.nan)
        where = y + (j - (len(targets) - 1) / 2) * step
        look = series_style(j)
        if dots:
            (artist,) = ax.plot(values, where, linestyle="none", marker=look["marker"],
                                color=look["color"], markerfacecolor=look["markerfacecolor"],
                                markersize=7, label=str(target), zorder=3)
        else:
            artist = ax.barh(where, values, step * 0.9, color=look["color"],
                             hatch=series_hatch(j), edgecolor="#ffffff" if series_hatch(j)
                             else None, label=str(target), zorder=2)
        drawn.append(artist)
        errors.append(se)
        if np.isfinite(se).any():
            errorbars.append(ax.errorbar(values, where, xerr=2 * np.nan_to_num(se),
                                         fmt="none", ecolor=look["color"] if dots
                                         else "#222222", elinewidth=1.2, capsize=2.5,
                                         zorder=2.5))
    if dots:
        for row in y[:-1]:
            ax.axhline(row + 0.5, color="#dddddd", linewidth=0.8, zorder=1)
    return drawn, errorbars, errors
