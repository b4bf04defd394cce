"""Publication-quality charts (matplotlib, imported lazily); public as :mod:`mathhammer.charts`.

Every function takes ``ax=None`` (a new figure of article width is made when it is ``None``)
and returns its artists in a small named tuple whose ``ax`` field leads to the figure
(``artists.ax.figure``); notebooks display the tuple as the chart, and :func:`save` writes
PNG, SVG (text kept as text) or PDF.

- :func:`distribution`: bars of P(exactly k) and the "at least k" steps on a second axis,
  mean marked, for one outcome of a result or for a bare distribution.
- :func:`overlay`: several results' "at least k" steps, head to head.
- :func:`bars`: one metric per attacker, grouped by target, with ±2 s.e. error bars.
- :func:`heatmap`: a comparison grid with the values printed in the cells.
- :func:`sweep_lines`: a metric against the swept parameter of :func:`mathhammer.sweep`.
- :func:`survival`: per-round survival curves of battle-round scenarios.

Charts are labelled from their data: a result names its outcomes (``label``), what it is
about (``subject``) and how it was computed (``caption``: engine, trials, seed, situation);
a tidy frame names its metrics through :mod:`mathhammer.core.labels` (which the games fill
in; ``attrs["labels"]`` overrides) and carries its engine and ``attrs["situation"]``. This
module knows no game and imports no result type: it reads any object with those public
methods.

Layout adapts to the content: long labels are wrapped or shortened (the full text stays on
the artist and in the SVG as a tooltip), legends sit outside the plotting area, captions
under it, titles above; the constrained layout keeps everything inside the figure, and the
heat map grows with its grid. Series differ in colour, line style and marker; beyond
:data:`MAX_SERIES_PER_PANEL` series, overlays and sweeps draw one panel per target.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from mathhammer.core.chart_layout import (DPI, FIGSIZE, MARKERS, MAX_SERIES_PER_PANEL,
                                          PALETTE,
                                          axes_or_new, capitalised, caption, figure_png,
                                          fit_limits, grow_to_fit, integer_axis, keep_tick_texts,
                                          axes_width, label_chars,
                                          legend_below, legend_outside, new_axes, new_figure,
                                          percent_axis, remember_full_text, save, series_style,
                                          shorten_ticks, style, title, wrap)
from mathhammer.core.labels import metric_label
from mathhammer.core.tables import format_value
from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

_TIDY = ("attacker", "target", "metric", "value", "stderr")


# -- what charts read -----------------------------------------------------------------------
class _Named(NamedTuple):
    dist: Any
    label: str
    subject: str
    note: str


def _named(source: Any, outcome: str, label: str | None = None) -> _Named:
    """Distribution and words of ``outcome`` from a result (anything with a public
    ``distribution(outcome)``) or from a bare distribution."""
    dist = source.distribution(outcome) if hasattr(source, "distribution") else source
    name = label or getattr(dist, "label", None) or outcome.replace("_", " ")
    subject = getattr(dist, "subject", None) or ""
    note = getattr(dist, "note", None) or getattr(dist, "engine_note", "")
    return _Named(dist, name, subject, note)


def _visible_max(dist: Any, tail: float = 5e-4) -> int:
    at_least = dist.at_least()
    big = np.flatnonzero(at_least >= tail)
    return max(int(big[-1]) if len(big) else 0, 1)


def _padded(values: np.ndarray, length: int) -> np.ndarray:
    return np.pad(values, (0, max(0, length - len(values))))[:length]


# -- distribution ---------------------------------------------------------------------------
class DistributionArtists(NamedTuple):
    ax: Any
    bars: Any
    curve: Any
    mean_line: Any
    twin: Any
    _repr_png_ = figure_png


def distribution(result: Any, outcome: str = "damage", *, ax: Axes | None = None,
                 title: str | None = None, label: str | None = None,
                 ylim: tuple[float, float] | None = None) -> DistributionArtists:
    """Bars of P(exactly k), the "at least k" steps on a second axis, and the mean.

    Parameters
    ----------
    result
        A result (``outcome`` picks the distribution) or a distribution (``outcome`` is
        then only its fallback name).
    outcome
        Outcome name, e.g. ``"damage"`` or ``"models_destroyed"``.
    ax
        Axes to draw in; a new article-width figure when ``None``.
    title
        Chart title (default: the outcome's label and what it is about).
    label
        Axis label of the outcome (default: the result's label, e.g. "wounds lost").
    ylim
        Range of the P(exactly k) axis (default: fitted to the bars).

    Returns
    -------
    DistributionArtists
        ``ax``, ``bars`` (BarContainer), ``curve`` (Line2D), ``mean_line`` (Line2D) and
        ``twin`` (the second axes).

    Notes
    -----
    Values of k beyond the point where P(at least k) drops below 0.05% are not drawn.
    """
    named = _named(result, outcome, label)
    dist, name = named.dist, named.label
    default_title = capitalised(name) + (f": {named.subject}" if named.subject else "")
    with style():
        ax = axes_or_new(ax)
        top = _visible_max(dist)
        k = np.arange(top + 1)
        pmf = _padded(dist.probabilities, top + 1)
        at_least = _padded(dist.at_least(), top + 1)
        bars = ax.bar(k, pmf, width=0.8, color=PALETTE[0], alpha=0.85, zorder=2,
                      label="P(exactly k)")
        twin = ax.twinx()
        twin.grid(False)
        twin.spines["right"].set_visible(True)
        twin.spines["top"].set_visible(False)
        (curve,) = twin.plot(k, at_least, color=PALETTE[3], marker="o", markersize=4,
                             linewidth=2, zorder=3, drawstyle="steps-mid",
                             label="P(at least k)")
        err = dist.stderr
        mean_text = f"mean {dist.mean:.2f}" + (f" ± {err:.2f}" if err is not None
                                               and err >= 0.005 else "")
        mean_line = ax.axvline(dist.mean, color="#000000", linestyle="--", linewidth=1.4,
                               zorder=4, label=mean_text)
        ax.set_xlim(-0.6, top + 0.6)
        low, high = fit_limits(pmf, probability=True, ylim=ylim)
        ax.set_ylim(low, high)
        twin.set_ylim(0, 1.04)
        percent_axis(ax.yaxis, high - low)
        percent_axis(twin.yaxis)
        _k_ticks(ax, top)
        ax.set_xlabel(wrap(f"k ({name})", 70, 2))
        ax.set_ylabel("P(exactly k)", color=PALETTE[0])
        twin.set_ylabel("P(at least k)", color=PALETTE[3])
        _title(ax, title or default_title)
        legend_below(ax, [bars, curve, mean_line], title=wrap(named.note, 110, 2) or None)
        ax.set_axisbelow(True)
        grow_to_fit(ax.figure)
    return DistributionArtists(ax, bars, curve, mean_line, twin)


def _k_ticks(ax: Axes, top: int) -> None:
    """Whole-number ticks: every k up to 12, else a whole-number locator."""
    if top <= 12:
        ax.set_xticks(range(top + 1))
    else:
        integer_axis(ax.xaxis)


def _title(ax: Axes, text: str) -> Any:
    width = max(30, int(ax.get_position().width * ax.figure.get_figwidth() * 8.5))
    return title(ax, text, width=width)


# -- overlay --------------------------------------------------------------------------------
class OverlayArtists(NamedTuple):
    ax: Any
    lines: list
    axes: list = []
    _repr_png_ = figure_png


def overlay(results: Mapping[Any, Any] | Sequence[Any], outcome: str = "damage", *,
            ax: Axes | None = None, title: str | None = None,
            labels: Sequence[str] | None = None, facet: str | bool | None = "auto",
            ylim: tuple[float, float] | None = None) -> OverlayArtists:
    """Several results' "at least k" steps on one chart, for head-to-head comparisons.

    Parameters
    ----------
    results
        A dict label -> result (tuple keys such as ``(attacker, target)`` from
        :func:`mathhammer.wh40k.compare.results` are joined with " vs ", a third item of
        ``results_out`` of a sweep is added in brackets), or a list of results (labelled
        by their ``subject``, "weapons vs target").
    outcome
        Which distribution to draw.
    labels
        Legend labels overriding the defaults.
    facet
        ``"auto"`` (default): one panel per target when there are more than
        :data:`MAX_SERIES_PER_PANEL` series and the keys are ``(attacker, target)`` tuples;
        ``"target"`` to always do so; ``None``/``False`` for one panel.
    ylim
        y range (default 0-100%).

    Returns
    -------
    OverlayArtists
        ``ax`` (the first panel), ``lines`` (one Line2D per result, in order) and ``axes``
        (every panel).
    """
    items, panels = _overlay_items(results, labels)
    panel_of = _facets(panels, len(items), facet, ax)
    with style():
        axes = _panel_axes(ax, len(set(panel_of)))
        named = [_named(r, outcome) for _, r in items]
        top = max(max(_visible_max(n.dist) for n in named), 1)
        k = np.arange(top + 1)
        lines = []
        series = _series_index(items, panels, panel_of)
        for i, ((name, _), info) in enumerate(zip(items, named)):
            values = _padded(info.dist.at_least(), top + 1)
            (line,) = axes[panel_of[i]].plot(k, values, drawstyle="steps-mid",
                                             label=f"{name} (mean {info.dist.mean:.2f})",
                                             **series_style(series[i]))
            lines.append(line)
        outcome_name = named[0].label
        for j, panel in enumerate(axes):
            panel.set_xlim(-0.3, top + 0.3)
            low, high = ylim if ylim is not None else (0.0, 1.04)
            panel.set_ylim(low, high)
            percent_axis(panel.yaxis, high - low)
            _k_ticks(panel, top)
            panel.set_xlabel(wrap(f"k ({outcome_name})", label_chars(panel, 1.0, 70, 20), 2))
            if j % 3 == 0:
                panel.set_ylabel("P(at least k)")
        note = _common_note([n.note for n in named],
                            [getattr(r, "engine_note", "") for _, r in items])
        heading = title or f"Chance of at least k {outcome_name}"
        _finish_panels(axes, lines, heading, note, panels if len(axes) > 1 else None)
        grow_to_fit(axes[0].figure)
    return OverlayArtists(axes[0], lines, axes)


def _common_note(captions: list[str], engines: list[str]) -> str:
    """The caption all series share; else the engine they share; else nothing."""
    for notes in (captions, engines):
        distinct = list(dict.fromkeys(n for n in notes if n))
        if len(distinct) == 1 and all(notes):
            return distinct[0]
    return ""


def _overlay_items(results, labels):
    if isinstance(results, Mapping):
        items = [(_key_label(k), r) for k, r in results.items()]
        panels = [str(k[1]) if isinstance(k, tuple) and len(k) >= 2 else "" for k in results]
    else:
        items = [(getattr(r, "subject", "") or f"result {i + 1}", r)
                 for i, r in enumerate(results)]
        panels = ["" for _ in items]
    if not items:
        raise OptionError("overlay needs at least one result")
    if labels is not None:
        if len(labels) != len(items):
            raise OptionError(f"{len(labels)} labels for {len(items)} results")
        items = [(lab, r) for lab, (_, r) in zip(labels, items)]
    return items, panels


def _key_label(key: Any) -> str:
    """``(attacker, target)`` -> "attacker vs target"; a third item (a sweep setting) goes
    in brackets."""
    if not isinstance(key, tuple):
        return str(key)
    label = " vs ".join(map(str, key[:2]))
    return label + "".join(f" ({part})" for part in key[2:])


def _facets(panels: list[str], n_series: int, facet: Any, ax: Any) -> list[int]:
    """Panel index of each series (all 0 for one panel)."""
    if facet in (None, False):
        return [0] * n_series
    if facet not in ("auto", "target", True):
        raise OptionError(f"facet={facet!r}: use 'auto', 'target' or None")
    distinct = list(dict.fromkeys(panels))
    possible = len(distinct) > 1 and "" not in distinct
    forced = facet in ("target", True)
    if not possible or not (forced or n_series > MAX_SERIES_PER_PANEL):
        return [0] * n_series
    if ax is not None:
        if forced:
            raise OptionError("facet='target' draws a figure of its own: leave ax=None")
        return [0] * n_series
    return [distinct.index(p) for p in panels]


def _series_index(items, panels, panel_of) -> list[int]:
    """Style index per series: within panels, the same attacker keeps the same look."""
    if len(set(panel_of)) <= 1:
        return list(range(len(items)))
    firsts: dict[str, int] = {}
    out = []
    for (name, _), panel in zip(items, panels):
        attacker = name.rsplit(" vs ", 1)[0] if panel and name.endswith(f" vs {panel}") \
            else name
        out.append(firsts.setdefault(attacker, len(firsts)))
    return out


def _panel_axes(ax: Axes | None, n_panels: int) -> list:
    """One axes (``ax`` or a new figure's), or a new figure of ``n_panels`` small multiples
    sharing both axes, three to a row."""
    if n_panels <= 1:
        return [axes_or_new(ax)]
    columns = min(n_panels, 3)
    rows = -(-n_panels // columns)
    fig = new_figure((FIGSIZE[0] + 2.2, 2.6 * rows + 1.2))
    grid = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    flat = list(grid.ravel())
    for extra in flat[n_panels:]:
        extra.remove()
    return flat[:n_panels]


def _finish_panels(axes: list, lines: list, heading: str, note: str,
                   panel_names: list[str] | None) -> None:
    """Title, legend (outside, right) and caption of one panel or of small multiples."""
    if len(axes) == 1:
        _title(axes[0], heading)
        legend_outside(axes[0], lines, [line.get_label() for line in lines],
                       title=note or None)
        return
    distinct = list(dict.fromkeys(panel_names or []))
    fig = axes[0].figure
    columns = min(len(axes), 3)
    # bold 10.5-point titles take about 0.1 in a character; the legend takes about 2.8 in
    chars = int(min(max((fig.get_figwidth() - 2.8) / columns / 0.1, 8), 40))
    for j, panel in enumerate(axes):
        shown = panel.set_title(wrap(distinct[j], chars, 2), loc="left", fontsize=10.5)
        remember_full_text(shown, distinct[j])
    fig.suptitle(wrap(heading, 90, 2), x=0.02, ha="left", fontweight="bold", fontsize=12.5)
    handles, names = [], []
    for line in lines:
        name = line.get_label().split(" vs ")[0]
        if name not in names:
            names.append(name)
            handles.append(line)
    legend = fig.legend(handles, [wrap(n, 26, 3) for n in names], loc="outside right upper",
                        title=wrap(note, 30, 4) or None, title_fontsize=8.5, alignment="left")
    for text, full in zip(legend.get_texts(), names):
        remember_full_text(text, full)


# -- bars -----------------------------------------------------------------------------------
class BarsArtists(NamedTuple):
    ax: Any
    bars: list
    errorbars: list
    _repr_png_ = figure_png


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
    part, metric = _metric_rows(frame, metric, rows="attacker", columns="target")
    part = _fold_extra(part, "attacker", "target")
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
        drawn, errorbars = _draw_bars(ax, part, attackers, targets, dots)
        names = [str(a) for a in attackers]
        shown = shorten_ticks(names, label_chars(ax, 0.33, 28),
                              3 if owned else _lines_per_row(ax, len(attackers)))
        ax.set_yticks(np.arange(len(attackers)), shown)
        keep_tick_texts(ax, shown, names)
        ax.set_ylim(len(attackers) - 0.5, -0.5)
        ax.grid(axis="y", visible=False)
        label = _metric_label(frame, metric)
        is_probability = metric.startswith("p_")
        everything = part["value"].to_numpy(dtype=float) + 2 * np.nan_to_num(
            part["stderr"].to_numpy(dtype=float) if "stderr" in part else 0.0)
        low, high = fit_limits(everything, probability=is_probability, ylim=ylim)
        if not dots and ylim is None:
            high = low + (high - low) * 1.15  # room for the value printed after each bar
        ax.set_xlim(low, high)
        if is_probability:
            percent_axis(ax.xaxis, high - low)
        if not dots:
            _bar_values(ax, drawn, errorbars, is_probability)
        ax.set_xlabel(label)
        _title(ax, title or capitalised(label))
        note = _frame_note(frame) + ("; error bars: ±2 s.e." if errorbars else "")
        if len(targets) > 1:
            legend_outside(ax, drawn, [str(t) for t in targets], title=note or None,
                           width=label_chars(ax, 0.3, 26, 12))
        else:
            caption(ax, f"against {targets[0]}" + (f"; {note}" if note else ""))
        grow_to_fit(ax.figure)
    return BarsArtists(ax, drawn, errorbars)


def _lines_per_row(ax: Axes, rows: int) -> int:
    """Lines a row label may take in a caller's axes (10-point lines are about 0.17 in)."""
    height = ax.get_position().height * ax.figure.get_figheight() * 0.85
    return int(min(max(height / max(rows, 1) / 0.17, 1), 3))


def _bar_values(ax: Axes, containers: list, errorbars: list, is_probability: bool) -> None:
    """Each bar's value printed just past the bar (or its error bar), so a zero reads 0."""
    for j, container in enumerate(containers):
        spans = (errorbars[j].lines[2][0].get_segments()
                 if len(errorbars) == len(containers) else [None] * len(container))
        for patch, span in zip(container, spans):
            value = patch.get_width()
            end = max(value, span[1][0]) if span is not None else value
            if not np.isfinite(value):
                continue
            ax.annotate(format_value(value, 2, percent=is_probability),
                        xy=(max(end, 0.0), patch.get_y() + patch.get_height() / 2),
                        xytext=(3, 0), textcoords="offset points", va="center",
                        fontsize=8, color="#333333")


def _draw_bars(ax, part, attackers, targets, dots):
    drawn, errorbars = [], []
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
                                color=look["color"], markersize=7, label=str(target),
                                zorder=3)
        else:
            artist = ax.barh(where, values, step * 0.9, color=look["color"],
                             label=str(target), zorder=2)
        drawn.append(artist)
        if np.isfinite(se).any():
            errorbars.append(ax.errorbar(values, where, xerr=2 * np.nan_to_num(se),
                                         fmt="none", ecolor=look["color"] if dots
                                         else "#222222", elinewidth=1.2, capsize=2.5,
                                         zorder=2.5))
    if dots:
        for row in y[:-1]:
            ax.axhline(row + 0.5, color="#dddddd", linewidth=0.8, zorder=1)
    return drawn, errorbars


# -- heat map -------------------------------------------------------------------------------
class HeatmapArtists(NamedTuple):
    ax: Any
    image: Any
    texts: list
    colorbar: Any
    _repr_png_ = figure_png


def heatmap(frame: pd.DataFrame, metric: str | None = None, *, ax: Axes | None = None,
            title: str | None = None, rows: str = "attacker", columns: str = "target",
            cmap: str = "cividis", digits: int = 3) -> HeatmapArtists:
    """A comparison grid as a heat map with the values printed in the cells.

    Parameters
    ----------
    frame
        A tidy frame with ``metric`` and ``value`` columns plus the ``rows`` and ``columns``
        columns (the frame of :func:`mathhammer.compare`). Any further columns (a
        :func:`mathhammer.sweep` parameter) are folded into the row labels.
    metric
        Which metric to draw (default: the first in the frame).
    cmap
        A perceptually uniform, colour-blind-safe colormap (default ``cividis``).
    digits
        Significant figures printed in the cells (probabilities print as percentages).

    Returns
    -------
    HeatmapArtists
        ``ax``, ``image`` (AxesImage), ``texts`` (one Text per cell, row-major) and
        ``colorbar``.

    Notes
    -----
    A new figure grows with the grid and its labels: long row labels wrap onto up to three
    lines of 30 characters, column labels onto lines as wide as a cell.
    """
    part, metric = _metric_rows(frame, metric, rows=rows, columns=columns)
    part = _fold_extra(part, rows, columns)
    table = part.pivot_table(index=rows, columns=columns, values="value", aggfunc="first",
                             sort=False)
    values = table.to_numpy(dtype=float)
    is_probability = metric.startswith("p_")
    row_names = [str(r) for r in table.index]
    column_names = [str(c) for c in table.columns]
    row_chars = 30 if ax is None else label_chars(ax, 0.35)
    column_chars = 14 if ax is None else label_chars(ax, 0.5 / values.shape[1], 14, 5)
    row_ticks = shorten_ticks(row_names, row_chars,
                              3 if ax is None else _lines_per_row(ax, len(row_names)))
    column_ticks = shorten_ticks(column_names, column_chars, 3)
    with style():
        ax = axes_or_new(ax, _heatmap_size(values.shape, row_ticks, column_ticks))
        image, texts = _cells(ax, values, is_probability, digits, cmap,
                              owned=ax.figure.__dict__.get("_mathhammer_owned", False))
        ax.set_xticks(range(len(column_names)), column_ticks)
        ax.set_yticks(range(len(row_names)), row_ticks)
        keep_tick_texts(ax, column_ticks, column_names)
        keep_tick_texts(ax, row_ticks, row_names)
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.tick_params(length=0)
        ax.set_xlabel(columns)
        ax.set_ylabel(rows)
        label = _metric_label(frame, metric)
        colorbar = ax.figure.colorbar(image, ax=ax, shrink=0.9, fraction=0.06, pad=0.03)
        colorbar.set_label(wrap(label, 40, 2))
        if is_probability:
            percent_axis(colorbar.ax.yaxis)
        colorbar.outline.set_visible(False)
        _title(ax, title or capitalised(label))
        caption(ax, _frame_note(frame))
        _fit_cells(ax, texts, values.shape)
        grow_to_fit(ax.figure)
    return HeatmapArtists(ax, image, texts, colorbar)


def _fit_cells(ax: Axes, texts: list, shape: tuple[int, int]) -> None:
    """Widen or heighten a figure the chart made until every cell holds its value and every
    column its label, with room to spare."""
    figure = ax.figure
    if not figure.__dict__.get("_mathhammer_owned"):
        return
    n_rows, n_cols = shape
    for _ in range(3):
        figure.draw_without_rendering()
        renderer = figure._get_renderer()
        box = ax.get_window_extent(renderer)
        columns = [t.get_window_extent(renderer) for t in ax.get_xticklabels()]
        rows = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
        cells = [t.get_window_extent(renderer) for t in texts]
        need_w = max([e.width for e in columns + cells] + [1]) + 12
        need_h = max([e.height for e in rows + cells] + [1]) + 6
        short_w = max(0.0, need_w - box.width / n_cols) * n_cols / figure.dpi
        short_h = max(0.0, need_h - box.height / n_rows) * n_rows / figure.dpi
        if short_w < 0.02 and short_h < 0.02:
            return
        width, height = figure.get_size_inches()
        figure.set_size_inches(width + short_w * 1.1, height + short_h * 1.1)


def _heatmap_size(shape: tuple[int, int], row_ticks: list[str],
                  column_ticks: list[str]) -> tuple[float, float]:
    n_rows, n_cols = shape
    char = 0.075  # inches per character at 10 pt
    label_width = max((len(line) for t in row_ticks for line in t.split("\n")), default=4)
    row_lines = max((t.count("\n") + 1 for t in row_ticks), default=1)
    col_lines = max((t.count("\n") + 1 for t in column_ticks), default=1)
    cell_w = 1.15
    cell_h = 0.3 + 0.17 * row_lines
    width = label_width * char + 0.6 + n_cols * cell_w + 1.3
    height = 0.9 + n_rows * cell_h + col_lines * 0.18 + 0.9
    return min(max(width, 4.8), 12.0), min(max(height, 2.8), 12.0)


def _cells(ax, values, is_probability, digits, cmap, owned=True):
    import matplotlib

    finite = values[np.isfinite(values)]
    vmin = 0.0 if finite.size == 0 else min(0.0, float(finite.min()))
    vmax = 1.0 if is_probability else (float(finite.max()) if finite.size else 1.0)
    if vmax <= vmin:
        vmax = vmin + 1.0
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto",
                      interpolation="nearest")
    colormap = matplotlib.colormaps[cmap]
    texts = []
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            v = values[i, j]
            if not np.isfinite(v):
                text, colour = "–", "#000000"
            else:
                text = _cell_text(v, is_probability, digits)
                r, g, b, _ = colormap((v - vmin) / (vmax - vmin))
                colour = "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "#ffffff"
            texts.append(ax.text(j, i, text, ha="center", va="center", color=colour,
                                 fontsize=10))
    if not owned:  # a caller's axes cannot grow: smaller cell text where cells are narrow
        widest = max((len(t.get_text()) for t in texts), default=1)
        cell = axes_width(ax) * 0.5 / max(values.shape[1], 1)
        size = min(10.0, max(6.0, cell * 0.85 / (widest * 0.0088)))
        for text in texts:
            text.set_fontsize(size)
    return image, texts


def _cell_text(value: float, is_probability: bool, digits: int) -> str:
    if is_probability:
        pct = 100 * value
        if pct == 0:
            return "0%"
        if pct < 0.1:
            return "<0.1%"
        if pct < 9.95:
            return f"{pct:.1f}%"
        if 99.5 < pct < 100:
            return ">99%"
        return f"{pct:.0f}%"
    if abs(value) >= 10 ** digits:
        return f"{value:.0f}"
    return f"{value:.{digits}g}"


# -- frames ---------------------------------------------------------------------------------
def _metric_rows(frame: pd.DataFrame, metric: str | None, *, rows: str, columns: str):
    for column in ("metric", "value", rows, columns):
        if column not in frame.columns:
            raise OptionError(f"heat map needs a '{column}' column; the frame has: "
                              f"{', '.join(map(str, frame.columns))}")
    present = list(dict.fromkeys(frame["metric"]))
    metric = metric or present[0]
    if metric not in present:
        raise OptionError(f"no metric '{metric}' in this frame; it has: {', '.join(present)}")
    return frame[frame["metric"] == metric].copy(), metric


def _fold_extra(part: pd.DataFrame, rows: str, columns: str) -> pd.DataFrame:
    """Extra columns (a sweep parameter) folded into the row labels."""
    extra = [c for c in part.columns if c not in _TIDY and c not in (rows, columns)]
    if extra:
        part[rows] = [f"{r} ({', '.join(f'{c} {v}' for c, v in zip(extra, vals))})"
                      for r, *vals in part[[rows, *extra]].itertuples(index=False)]
    return part


def _metric_label(frame: pd.DataFrame, metric: str) -> str:
    """The metric in words, as the game registered them (see :mod:`mathhammer.core.labels`)."""
    return metric_label(metric, frame)


def _frame_note(frame: pd.DataFrame) -> str:
    method = frame.attrs.get("method")
    engine = ""
    if method == "exact":
        engine = "exact"
    elif method == "monte-carlo" and frame.attrs.get("trials"):
        engine = f"Monte Carlo, {frame.attrs['trials']:,} trials per cell"
        if frame.attrs.get("seed") is not None:
            engine += f", seed {frame.attrs['seed']}"
    return "; ".join(p for p in (engine, frame.attrs.get("situation", "")) if p)


def _save_text(value: Any) -> str:
    text = str(value).strip().rstrip("+")
    return "none" if text in ("7", "-", "None", "none") else f"{text}+"


# -- sweeps ---------------------------------------------------------------------------------
class LinesArtists(NamedTuple):
    ax: Any
    lines: list
    bands: list
    axes: list = []
    _repr_png_ = figure_png


def sweep_lines(frame: pd.DataFrame, parameter: str | None = None, metric: str | None = None,
                *, ax: Axes | None = None, title: str | None = None,
                facet: str | bool | None = "auto",
                ylim: tuple[float, float] | None = None) -> LinesArtists:
    """A metric against the swept parameter, one line per (attacker, target), with a band
    of ±2 Monte Carlo standard errors.

    Parameters
    ----------
    frame
        The frame of :func:`mathhammer.sweep`.
    parameter
        The swept column (default: the one column that is not attacker, target, metric,
        value or stderr).
    facet
        ``"auto"``: one panel per target when there are more than
        :data:`MAX_SERIES_PER_PANEL` lines; ``"target"`` always; ``None`` never.
    ylim
        y range (default: fitted to the data).
    """
    parameter, metric, part = _sweep_rows(frame, parameter, metric)
    settings = list(dict.fromkeys(part[parameter]))
    numeric = all(isinstance(s, (int, float, np.integer, np.floating))
                  and not isinstance(s, bool) for s in settings)
    position = {s: (float(s) if numeric else i) for i, s in enumerate(settings)}
    groups = list(dict.fromkeys(zip(part["attacker"], part["target"])))
    several_targets = len({t for _, t in groups}) > 1
    several_attackers = len({a for a, _ in groups}) > 1
    panel_of = _facets([str(t) for _, t in groups], len(groups), facet, ax) \
        if several_targets else [0] * len(groups)
    faceted = len(set(panel_of)) > 1
    with style():
        axes = _panel_axes(ax, len(set(panel_of)))
        lines, bands = [], []
        attackers = list(dict.fromkeys(a for a, _ in groups))
        for i, (attacker, target) in enumerate(groups):
            rows = part[(part["attacker"] == attacker) & (part["target"] == target)]
            x = np.array([position[s] for s in rows[parameter]])
            y = rows["value"].to_numpy(dtype=float)
            se = rows["stderr"].to_numpy(dtype=float) if "stderr" in rows else \
                np.full_like(y, np.nan)
            if faceted or not several_targets:
                name = str(attacker)
            elif several_attackers:
                name = f"{attacker} vs {target}"
            else:
                name = str(target)
            look = series_style(attackers.index(attacker) if faceted else i)
            target_ax = axes[panel_of[i]]
            (line,) = target_ax.plot(x, y, label=name, **look)
            lines.append(line)
            if np.isfinite(se).any():
                bands.append(target_ax.fill_between(x, y - 2 * np.nan_to_num(se),
                                                    y + 2 * np.nan_to_num(se),
                                                    color=look["color"], alpha=0.15,
                                                    linewidth=0))
        label = _metric_label(frame, metric)
        everything = part["value"].to_numpy(dtype=float) + 2 * np.nan_to_num(
            part["stderr"].to_numpy(dtype=float) if "stderr" in part else 0.0)
        low, high = fit_limits(everything, probability=metric.startswith("p_"), ylim=ylim)
        for j, panel in enumerate(axes):
            _sweep_axes(panel, parameter, settings, position, numeric)
            panel.set_ylim(low, high)
            if metric.startswith("p_"):
                percent_axis(panel.yaxis, high - low)
            if j % 3 == 0:
                panel.set_ylabel(wrap(label, 34, 2))
        heading = title or f"{capitalised(label)} by {parameter.replace('_', ' ')}"
        note = _frame_note(frame) + ("; bands: ±2 s.e." if bands else "")
        panel_names = [str(t) for _, t in groups] if faceted else None
        _finish_panels(axes, lines, heading, note, panel_names)
        grow_to_fit(axes[0].figure)
    return LinesArtists(axes[0], lines, bands, axes)


def _sweep_rows(frame, parameter, metric):
    extra = [c for c in frame.columns if c not in _TIDY]
    if parameter is None:
        if len(extra) != 1:
            raise OptionError("give the swept parameter: the frame has "
                              f"{len(extra)} extra columns ({', '.join(extra) or 'none'})")
        parameter = extra[0]
    if parameter not in frame.columns:
        raise OptionError(f"no column '{parameter}' in this frame")
    present = list(dict.fromkeys(frame["metric"]))
    metric = metric or present[0]
    if metric not in present:
        raise OptionError(f"no metric '{metric}' in this frame; it has: {', '.join(present)}")
    return parameter, metric, frame[frame["metric"] == metric]


def _sweep_axes(ax, parameter, settings, position, numeric) -> None:
    if parameter == "save":
        ax.set_xticks([position[s] for s in settings], [_save_text(s) for s in settings])
        ax.set_xlabel("target's save")
        return
    if not numeric:
        ax.set_xticks(range(len(settings)), [wrap(str(s), 14, 2) for s in settings])
    elif all(float(s).is_integer() for s in settings):
        ax.set_xticks([position[s] for s in settings], [str(int(s)) for s in settings])
    ax.set_xlabel(parameter.replace("_", " "))


# -- survival -------------------------------------------------------------------------------
def survival(frame: pd.DataFrame, *, ax: Axes | None = None, title: str | None = None,
             unit: str = "unit", round: str = "round", value: str = "p_alive",
             stderr: str = "stderr", ylim: tuple[float, float] | None = None) -> LinesArtists:
    """Per-round survival curves of battle-round scenarios.

    Data interface: a tidy frame with one row per (unit, battle round):

    ============  ================================================================
    ``unit``      the unit's label (str); one curve per unit, in order of appearance
    ``round``     battle round (int, 1..5; a row for round 0, before the first round,
                  is optional and drawn at 100% if present)
    ``p_alive``   probability (0..1) that the unit still has at least one model on the
                  table at the end of that round
    ``stderr``    optional: Monte Carlo standard error of ``p_alive`` (NaN or absent for
                  exact results), drawn as a ±2 s.e. band
    ============  ================================================================

    Other columns are ignored; other column names can be mapped with ``unit=``,
    ``round=``, ``value=`` and ``stderr=``. ``frame.attrs["caption"]`` (engine, trials,
    seed), if present, is printed with the legend.

    Returns
    -------
    LinesArtists
        ``ax``, ``lines`` (one Line2D per unit) and ``bands`` (PolyCollections).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"unit": ["A"] * 3, "round": [1, 2, 3],
    ...                    "p_alive": [0.9, 0.6, 0.2]})
    >>> len(survival(df).lines)
    1
    """
    _check_survival(frame, unit, round, value)
    with style():
        ax = axes_or_new(ax)
        lines, bands = [], []
        for i, name in enumerate(dict.fromkeys(frame[unit])):
            rows = frame[frame[unit] == name].sort_values(round)
            x = rows[round].to_numpy(dtype=float)
            y = rows[value].to_numpy(dtype=float)
            look = series_style(i)
            (line,) = ax.plot(x, y, label=str(name), **look)
            lines.append(line)
            if stderr in rows.columns:
                se = rows[stderr].to_numpy(dtype=float)
                if np.isfinite(se).any():
                    se = np.nan_to_num(se)
                    bands.append(ax.fill_between(x, np.clip(y - 2 * se, 0, 1),
                                                 np.clip(y + 2 * se, 0, 1),
                                                 color=look["color"], alpha=0.15,
                                                 linewidth=0))
        low, high = ylim if ylim is not None else (0.0, 1.04)
        ax.set_ylim(low, high)
        percent_axis(ax.yaxis, high - low)
        integer_axis(ax.xaxis)
        ax.set_xlabel("battle round (end of)")
        ax.set_ylabel("P(unit still on the table)")
        _title(ax, title or "Survival by battle round")
        note = "; ".join(p for p in (frame.attrs.get("caption", ""),
                                     "bands: ±2 s.e." if bands else "") if p)
        legend_outside(ax, lines, [line.get_label() for line in lines], title=note or None)
        grow_to_fit(ax.figure)
    return LinesArtists(ax, lines, bands, [ax])


def _check_survival(frame: pd.DataFrame, unit: str, round: str, value: str) -> None:
    for column in (unit, round, value):
        if column not in frame.columns:
            raise OptionError(f"survival curves need a '{column}' column (unit, round, "
                              f"p_alive); the frame has: {', '.join(map(str, frame.columns))}")
    p = frame[value].to_numpy(dtype=float)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise OptionError(f"'{value}' must hold probabilities between 0 and 1")
    rounds = frame[round].to_numpy()
    if not np.all(np.equal(np.mod(rounds.astype(float), 1), 0)):
        raise OptionError(f"'{round}' must hold whole battle-round numbers")


__all__ = [
    "DPI",
    "FIGSIZE",
    "MARKERS",
    "MAX_SERIES_PER_PANEL",
    "PALETTE",
    "BarsArtists",
    "DistributionArtists",
    "HeatmapArtists",
    "LinesArtists",
    "OverlayArtists",
    "bars",
    "distribution",
    "heatmap",
    "new_axes",
    "overlay",
    "save",
    "series_style",
    "style",
    "survival",
    "sweep_lines",
]
