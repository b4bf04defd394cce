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

from mathhammer.core.chart_layout import (CAPTION_LINES, DPI, FIGSIZE, MARKERS,
                                          MAX_SERIES_PER_PANEL,
                                          PALETTE,
                                          HANDLE_LENGTH,
                                          axes_or_new, capitalised, caption, figure_png,
                                          fit_limits, fit_to_figure, grow_to_fit, integer_axis,
                                          keep_tick_texts, series_hatch, slot,
                                          axes_width, label_chars,
                                          legend_below, legend_outside, new_axes, new_figure,
                                          legend_text, percent_axis, remember_full_text, save,
                                          series_style, shorten_ticks, style, title,
                                          title_text, wrap)
from mathhammer.core.labels import metric_label
from mathhammer.core.tables import check_digits, estimate_parts, format_estimate
from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

_TIDY = ("attacker", "target", "metric", "value", "stderr", "method")


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
    """Two panels sharing k: bars of P(exactly k) with the mean above, the "at least k"
    steps (0-100%) below; one y scale per panel.

    Parameters
    ----------
    result
        A result (``outcome`` picks the distribution) or a distribution (``outcome`` is
        then only its fallback name).
    outcome
        Outcome name, e.g. ``"damage"`` or ``"models_destroyed"``.
    ax
        Axes to draw in: its slot in the figure is split into the two panels (``ax`` keeps
        the upper one); a new article-width figure when ``None``.
    title
        Chart title (default: the outcome's label and what it is about, wrapped, never cut
        before the matchup's "vs target").
    label
        Axis label of the outcome (default: the result's label, e.g. "wounds lost").
    ylim
        Range of the P(exactly k) axis (default: fitted to the bars).

    Returns
    -------
    DistributionArtists
        ``ax`` (upper panel), ``bars`` (BarContainer), ``curve`` (Line2D), ``mean_line``
        (Line2D) and ``twin`` (the lower panel's axes, P(at least k)).

    Notes
    -----
    Values of k beyond the point where P(at least k) drops below 0.05% are not drawn.
    """
    named = _named(result, outcome, label)
    dist, name = named.dist, named.label
    default_title = capitalised(name) + (f": {named.subject}" if named.subject else "")
    with style():
        ax, lower = _two_panels(ax)
        top = _visible_max(dist)
        k = np.arange(top + 1)
        pmf = _padded(dist.probabilities, top + 1)
        at_least = _padded(dist.at_least(), top + 1)
        bars = ax.bar(k, pmf, width=0.8, color=PALETTE[0], alpha=0.85, zorder=2,
                      label="P(exactly k)")
        (curve,) = lower.plot(k, at_least, color=PALETTE[3], marker="o", markersize=4,
                              linewidth=2, zorder=3, drawstyle="steps-mid",
                              label="P(at least k)")
        mean_line = _mean_lines(ax, lower, dist)
        ax.set_xlim(-0.6, top + 0.6)
        low, high = fit_limits(pmf, probability=True, ylim=ylim)
        ax.set_ylim(low, high)
        lower.set_ylim(0, 1.08)
        percent_axis(ax.yaxis, high - low)
        percent_axis(lower.yaxis)
        _k_ticks(lower, top)
        ax.tick_params(labelbottom=False)
        lower.set_xlabel(wrap(f"k ({name})", 70, 2))
        ax.set_xlabel(lower.get_xlabel())  # named on both panels, drawn under the lower
        ax.xaxis.label.set_visible(False)
        short = lower.get_position().height * lower.figure.get_figheight() < 1.3
        ax.set_ylabel("P(= k)" if short else "P(exactly k)")
        lower.set_ylabel("P(≥ k)" if short else "P(at least k)")
        _title(ax, title or default_title)
        note_chars = int(min(max(axes_width(lower) * 15, 30), 110))  # 8.5-point caption
        legend_below(lower, [bars, curve, mean_line],
                     title=wrap(named.note, note_chars, CAPTION_LINES) or None)
        remember_full_text(lower.get_legend().get_title(), named.note)
        ax.set_axisbelow(True)
        grow_to_fit(ax.figure)
        fit_to_figure([ax, lower])
    return DistributionArtists(ax, bars, curve, mean_line, lower)


def _two_panels(ax: Axes | None) -> tuple[Any, Any]:
    """Upper (3/5) and lower (2/5) panels sharing x: a new figure's, or ``ax``'s slot split
    in two (``ax`` becomes the upper panel)."""
    if ax is None:
        figure = new_figure((FIGSIZE[0], FIGSIZE[1] + 0.9))
        upper, lower = figure.subplots(2, 1, sharex=True, height_ratios=[3, 2])
        figure.get_layout_engine().set(h_pad=0.06)
        return upper, lower
    figure = ax.figure
    spec = ax.get_subplotspec()
    if spec is None:  # a free-standing axes: split its rectangle
        box = slot(ax)
        gap = 0.1 * box.height
        ax.set_position([box.x0, box.y0 + 0.4 * box.height + gap / 2, box.width,
                         0.6 * box.height - gap / 2])
        lower = figure.add_axes([box.x0, box.y0, box.width, 0.4 * box.height - gap / 2],
                                sharex=ax)
        return ax, lower
    inner = spec.subgridspec(2, 1, height_ratios=[3, 2], hspace=0.25)
    slot(ax)
    ax.set_subplotspec(inner[0])
    lower = figure.add_subplot(inner[1], sharex=ax)
    lower.__dict__["_mathhammer_slot"] = inner[1].get_position(figure)
    ax.__dict__["_mathhammer_slot"] = inner[0].get_position(figure)
    return ax, lower


def _mean_lines(upper: Axes, lower: Axes, dist: Any) -> Any:
    """The mean as a dashed line through both panels; the upper one carries the label."""
    err = dist.stderr
    mean_text = "mean " + format_estimate(dist.mean, err, 3, trials=dist.trials)
    mean_line = upper.axvline(dist.mean, color="#000000", linestyle="--", linewidth=1.4,
                              zorder=4, label=mean_text)
    lower.axvline(dist.mean, color="#000000", linestyle="--", linewidth=1.4, zorder=4)
    return mean_line


def _k_ticks(ax: Axes, top: int) -> None:
    """Whole-number ticks: every k up to 12 when there is room, else a whole-number
    locator."""
    if top <= 12 and axes_width(ax) / (top + 1) >= 0.22:
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
    named = [_named(r, outcome) for _, r in items]
    note, own = _split_notes([_engine_and_situation(r, n) for n, (_, r) in zip(named, items)])
    items = [(f"{name} [{extra}]" if extra else name, r) for (name, r), extra in zip(items, own)]
    against = _shared_target(items, panels)
    if against:  # every series against the same target: said once, in the title
        items = [(_attacker_of(name, against), r) for name, r in items]
        panels = [""] * len(items)
    attackers = [_attacker_of(name, panel) for (name, _), panel in zip(items, panels)]
    panel_of, panel_titles = _facets(attackers, panels, facet, ax)
    with style():
        axes = _panel_axes(ax, len(panel_titles))
        top = max(max(_visible_max(n.dist) for n in named), 1)
        k = np.arange(top + 1)
        lines = []
        series = _series_index(attackers, panel_of, panels)
        for i, ((name, _), info) in enumerate(zip(items, named)):
            values = _padded(info.dist.at_least(), top + 1)
            mean = format_estimate(info.dist.mean, info.dist.stderr, 3,
                                   trials=info.dist.trials)
            (line,) = axes[panel_of[i]].plot(k, values, drawstyle="steps-mid",
                                             label=f"{name} (mean {mean})",
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
            if j % _columns(len(axes)) == 0:
                panel.set_ylabel("P(at least k)")
        heading = title or f"Chance of at least k {outcome_name}" + \
            (f" vs {against}" if against else "")
        legend_names = attackers if any(panels) and len(axes) > 1 else None
        _finish_panels(axes, lines, heading, note, panel_titles if len(axes) > 1 else None,
                       legend_names)
        grow_to_fit(axes[0].figure)
        fit_to_figure(axes)
    return OverlayArtists(axes[0], lines, axes)


def _engine_and_situation(result: Any, named: _Named) -> str:
    """What a series' numbers rest on, without its profiles (its label names those)."""
    if hasattr(result, "engine_note") and hasattr(result, "situation"):
        return "; ".join(p for p in (result.engine_note, result.situation) if p)
    return named.note or getattr(result, "engine_note", "")


def _split_notes(notes: list[str]) -> tuple[str, list[str]]:
    """The caption words every series shares (for the legend title), and what each series
    has on its own (engine, trials or situation that differ: added to its label, never
    dropped)."""
    parts = [[p for chunk in n.split("; ") for p in chunk.split(", ") if p] for n in notes]
    if not parts:
        return "", []
    common = [p for p in parts[0] if all(p in other for other in parts[1:])]
    own = [", ".join(p for p in mine if p not in common) for mine in parts]
    if not any(own):
        return (notes[0] if notes else ""), own
    return ", ".join(common), own


def _shared_target(items: list, panels: list[str]) -> str:
    """The target every series names (``(attacker, target)`` keys), if there is one."""
    distinct = set(panels)
    if len(items) < 2 or len(distinct) != 1 or "" in distinct:
        return ""
    target = panels[0]
    return target if all(f" vs {target}" in name for name, _ in items) else ""


def _attacker_of(name: str, panel: str) -> str:
    """The attacker part of "attacker vs target (setting)" when the target has a panel."""
    if panel and f" vs {panel}" in name:
        head, _, tail = name.partition(f" vs {panel}")
        return head + tail
    return name


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


def _facets(attackers: list[str], panels: list[str], facet: Any,
            ax: Any) -> tuple[list[int], list[str]]:
    """Panel index of each series and the panels' titles ([""] for one panel).

    Beyond :data:`MAX_SERIES_PER_PANEL` series (or always with ``facet="target"``): one
    panel per target when the series name their targets, and a target's series split into
    panels of at most that many, so no panel carries more.
    """
    n = len(attackers)
    if facet in (None, False):
        return [0] * n, [""]
    if facet not in ("auto", "target", True):
        raise OptionError(f"facet={facet!r}: use 'auto', 'target' or None")
    forced = facet in ("target", True)
    targets = list(dict.fromkeys(panels))
    by_target = len(targets) > 1 and "" not in targets
    if not forced and n <= MAX_SERIES_PER_PANEL:
        return [0] * n, [""]
    if ax is not None:
        if forced and by_target:
            raise OptionError("facet='target' draws a figure of its own: leave ax=None")
        return [0] * n, [""]
    if forced and not by_target and n <= MAX_SERIES_PER_PANEL:
        return [0] * n, [""]
    keys = panels if by_target else [""] * n
    panel_of, titles = [0] * n, []
    for key in dict.fromkeys(keys):
        members = [i for i in range(n) if keys[i] == key]
        chunks = [members[j:j + MAX_SERIES_PER_PANEL]
                  for j in range(0, len(members), MAX_SERIES_PER_PANEL)]
        for c, chunk in enumerate(chunks):
            for i in chunk:
                panel_of[i] = len(titles)
            part = (f"series {chunk[0] + 1}–{chunk[-1] + 1} of {n}" if not key else
                    f"{key} ({c + 1} of {len(chunks)})" if len(chunks) > 1 else key)
            titles.append(part)
    return panel_of, titles


def _series_index(attackers: list[str], panel_of: list[int], panels: list[str]) -> list[int]:
    """Style index per series: across panels by target, the same attacker keeps the same
    look (and every attacker has its own); otherwise one look per series."""
    if len(set(panel_of)) <= 1 or not any(panels):
        return list(range(len(attackers)))
    firsts: dict[str, int] = {}
    return [firsts.setdefault(a, len(firsts)) for a in attackers]


def _columns(n_panels: int) -> int:
    return 2 if n_panels in (2, 4) else min(n_panels, 3)


def _panel_axes(ax: Axes | None, n_panels: int) -> list:
    """One axes (``ax`` or a new figure's), or a new figure of ``n_panels`` small multiples
    sharing both axes, two or three to a row."""
    if n_panels <= 1:
        return [axes_or_new(ax)]
    columns = _columns(n_panels)
    rows = -(-n_panels // columns)
    fig = new_figure((FIGSIZE[0] + 2.2, 2.6 * rows + 1.2))
    grid = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    flat = list(grid.ravel())
    for extra in flat[n_panels:]:
        extra.remove()
    for panel in flat[:n_panels]:
        panel.xaxis.set_tick_params(labelbottom=True)
    return flat[:n_panels]


def _finish_panels(axes: list, lines: list, heading: str, note: str,
                   panel_titles: list[str] | None,
                   legend_names: list[str] | None = None) -> None:
    """Title, legend (outside, right) and caption of one panel or of small multiples; the
    figure legend of small multiples has one entry per distinct look (``legend_names``:
    the attacker of each line, when panels are targets)."""
    if len(axes) == 1:
        _title(axes[0], heading)
        legend_outside(axes[0], lines, [line.get_label() for line in lines],
                       title=note or None, width=label_chars(axes[0], 0.4, 26, 14))
        return
    fig = axes[0].figure
    columns = _columns(len(axes))
    # bold 10.5-point titles take about 0.1 in a character; the legend takes about 2.8 in
    chars = int(min(max((fig.get_figwidth() - 2.8) / columns / 0.1, 8), 40))
    for panel, name in zip(axes, panel_titles or []):
        shown = panel.set_title(wrap(name, chars, 2), loc="left", fontsize=10.5)
        remember_full_text(shown, name)
    fig.suptitle(title_text(heading, 90, 3), x=0.02, ha="left", fontweight="bold",
                 fontsize=12.5)
    names = legend_names or [line.get_label() for line in lines]
    handles, shown_names = [], []
    for line, name in zip(lines, names):
        if name not in shown_names:
            shown_names.append(name)
            handles.append(line)
    legend = fig.legend(handles, [legend_text(n, 26) for n in shown_names],
                        loc="outside right upper", title=wrap(note, 30, CAPTION_LINES) or None,
                        title_fontsize=8.5, alignment="left", handlelength=HANDLE_LENGTH)
    for text, full in zip(legend.get_texts(), shown_names):
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
        drawn, errorbars, errors = _draw_bars(ax, part, attackers, targets, dots)
        names = [_with_points(a, metric, frame) for a in attackers]
        lines = 3 if owned else _lines_per_row(ax, len(attackers))
        shown = [_row_label(str(a), n, label_chars(ax, 0.33, 28), lines)
                 for a, n in zip(attackers, names)]
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
            _bar_values(ax, drawn, errorbars, is_probability, errors,
                        frame.attrs.get("trials"))
        ax.set_xlabel(label)
        _title(ax, title or capitalised(label))
        note = _frame_note(frame) + ("; error bars: ±2 s.e." if errorbars else "")
        if len(targets) > 1:
            legend_outside(ax, drawn, [str(t) for t in targets], title=note or None,
                           width=label_chars(ax, 0.3, 26, 12))
        else:
            caption(ax, f"against {targets[0]}" + (f"; {note}" if note else ""))
        grow_to_fit(ax.figure)
        fit_to_figure([ax])
    return BarsArtists(ax, drawn, errorbars)


def _lines_per_row(ax: Axes, rows: int) -> int:
    """Lines a row label may take in a caller's axes (10-point lines are about 0.17 in)."""
    height = ax.get_position().height * ax.figure.get_figheight() * 0.85
    return int(min(max(height / max(rows, 1) / 0.17, 1), 3))


def _bar_values(ax: Axes, containers: list, errorbars: list, is_probability: bool,
                errors: list, trials: int | None) -> None:
    """Each bar's value printed just past the bar (or its error bar), so a zero reads 0,
    to three significant figures or as many as its standard error supports."""
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
            ax.annotate(text, xy=(max(end, 0.0), patch.get_y() + patch.get_height() / 2),
                        xytext=(3, 0), textcoords="offset points", va="center",
                        fontsize=8, color="#333333")


def _row_label(attacker: str, name: str, width: int, lines: int) -> str:
    """A row label on ``lines`` lines; the "(120 pts)" of a per-points row kept whole."""
    points = name[len(attacker):].strip()
    if not points or lines < 2:
        return wrap(name, width, lines)
    return wrap(attacker, width, lines - 1) + "\n" + points


def _with_points(attacker: Any, metric: str, frame: pd.DataFrame) -> str:
    """A per-100-points row names the points it was divided by: "Unit (120 pts)"."""
    points = (frame.attrs.get("points") or {}).get(str(attacker))
    if metric.endswith("_per_100pts") and points:
        return f"{attacker} ({float(points):g} pts)"
    return str(attacker)


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
        Significant figures printed in the cells, 1 to 6 (probabilities print as
        percentages, below 0.01% as "<0.01%"); a Monte Carlo cell shows its standard error
        on a second line and no more decimals than that error supports, and a cell whose
        event never happened in the trials reads "not seen" (an exact zero reads "0").

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
    digits = check_digits(digits)
    part, metric = _metric_rows(frame, metric, rows=rows, columns=columns)
    part = _fold_extra(part, rows, columns)
    # dropna=False: a row or column with no value (a 0-point unit per 100 points) stays
    table = part.pivot_table(index=rows, columns=columns, values="value", aggfunc="first",
                             dropna=False, sort=False)
    values = table.to_numpy(dtype=float)
    errors = _stderr_grid(part, rows, columns, table)
    is_probability = metric.startswith("p_")
    row_names = [str(r) for r in table.index]
    column_names = [str(c) for c in table.columns]
    owned = ax is None
    row_chars = 30 if owned else label_chars(ax, 0.35)
    column_size, column_chars = 10.0, 14
    if not owned:  # a word must fit its column: smaller labels before any cut
        cell = axes_width(ax) * 0.5 / values.shape[1]
        need = min(max(_longest_word(column_names), 5), 12)
        column_size = min(10.0, max(6.0, 131 * cell / need))
        column_chars = max(int(131 * cell / column_size), 4)
    row_ticks = shorten_ticks(row_names, row_chars,
                              3 if owned else _lines_per_row(ax, len(row_names)))
    column_ticks = shorten_ticks(column_names, column_chars, 3)
    with style():
        ax = axes_or_new(ax, _heatmap_size(values.shape, row_ticks, column_ticks,
                                           two_lines=np.isfinite(errors).any()))
        image, texts = _cells(ax, values, errors, is_probability, digits, cmap,
                              trials=frame.attrs.get("trials"),
                              owned=ax.figure.__dict__.get("_mathhammer_owned", False))
        ax.set_xticks(range(len(column_names)), column_ticks, fontsize=column_size)
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
        fit_to_figure([ax, colorbar.ax])
    return HeatmapArtists(ax, image, texts, colorbar)


def _longest_word(names: list[str]) -> int:
    return max((len(word) for name in names for word in name.split()), default=0)


def _stderr_grid(part: pd.DataFrame, rows: str, columns: str, table: pd.DataFrame):
    """The standard errors laid out like the values (NaN for exact cells)."""
    if "stderr" not in part.columns:
        return np.full(table.shape, np.nan)
    grid = part.pivot_table(index=rows, columns=columns, values="stderr", aggfunc="first",
                            sort=False, dropna=False)
    return grid.reindex(index=table.index, columns=table.columns).to_numpy(dtype=float)


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


def _heatmap_size(shape: tuple[int, int], row_ticks: list[str], column_ticks: list[str],
                  two_lines: bool = False) -> tuple[float, float]:
    n_rows, n_cols = shape
    char = 0.075  # inches per character at 10 pt
    label_width = max((len(line) for t in row_ticks for line in t.split("\n")), default=4)
    row_lines = max((t.count("\n") + 1 for t in row_ticks), default=1)
    col_lines = max((t.count("\n") + 1 for t in column_ticks), default=1)
    cell_w = 1.15
    cell_h = max(0.3 + 0.17 * row_lines, 0.55 if two_lines else 0.0)
    width = label_width * char + 0.6 + n_cols * cell_w + 1.3
    height = 0.9 + n_rows * cell_h + col_lines * 0.18 + 0.9
    return min(max(width, 4.8), 12.0), min(max(height, 2.8), 12.0)


def _cells(ax, values, errors, is_probability, digits, cmap, *, trials=None, owned=True):
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
                text = _cell_text(v, errors[i, j], is_probability, digits, trials)
                r, g, b, _ = colormap((v - vmin) / (vmax - vmin))
                colour = "#000000" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 else "#ffffff"
            texts.append(ax.text(j, i, text, ha="center", va="center", color=colour,
                                 fontsize=10, linespacing=1.1))
    if not owned:  # a caller's axes cannot grow: smaller cell text where cells are narrow
        widest = max((len(line) for t in texts for line in t.get_text().split("\n")),
                     default=1)
        cell = axes_width(ax) * 0.5 / max(values.shape[1], 1)
        size = min(10.0, max(6.0, cell * 0.85 / (widest * 0.0088)))
        for text in texts:
            text.set_fontsize(size)
    return image, texts


def _cell_text(value: float, stderr: float, is_probability: bool, digits: int,
               trials: int | None) -> str:
    """A cell's value to ``digits`` significant figures (see
    :func:`mathhammer.core.tables.format_value`); a Monte Carlo cell shows its standard
    error on a second line and no more decimals than it supports."""
    shown, error = estimate_parts(value, None if not np.isfinite(stderr) else stderr, digits,
                                  percent=is_probability, trials=trials)
    if shown == "not seen":
        return "not seen"
    return f"{shown}\n{error}" if error else shown


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
    """Extra columns that vary (a sweep parameter; not a situation every row shares) folded
    into the row labels."""
    extra = [c for c in part.columns if c not in _TIDY and c not in (rows, columns)
             and part[c].astype(str).nunique() > 1]
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
    names = [str(a) if not several_targets else f"{a} vs {t}" if several_attackers
             else str(t) for a, t in groups]
    panels = [str(t) for _, t in groups] if several_targets and several_attackers \
        else [""] * len(groups)
    attackers = [str(a) if p else n for (a, _), p, n in zip(groups, panels, names)]
    panel_of, panel_titles = _facets(attackers, panels, facet, ax)
    faceted = len(panel_titles) > 1
    looks = _series_index(attackers, panel_of, panels)
    with style():
        axes = _panel_axes(ax, len(panel_titles))
        lines, bands = [], []
        for i, (attacker, target) in enumerate(groups):
            rows = part[(part["attacker"] == attacker) & (part["target"] == target)]
            x = np.array([position[s] for s in rows[parameter]])
            y = rows["value"].to_numpy(dtype=float)
            se = rows["stderr"].to_numpy(dtype=float) if "stderr" in rows else \
                np.full_like(y, np.nan)
            look = series_style(looks[i])
            target_ax = axes[panel_of[i]]
            (line,) = target_ax.plot(x, y, label=names[i], **look)
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
            if j % _columns(len(axes)) == 0:
                panel.set_ylabel(wrap(label, 34, 2))
        heading = title or f"{capitalised(label)} by {parameter.replace('_', ' ')}"
        note = _frame_note(frame) + ("; bands: ±2 s.e." if bands else "")
        legend_names = attackers if faceted and any(panels) else None
        _finish_panels(axes, lines, heading, note, panel_titles if faceted else None,
                       legend_names)
        grow_to_fit(axes[0].figure)
        fit_to_figure(axes)
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
        legend_outside(ax, lines, [line.get_label() for line in lines], title=note or None,
                       width=label_chars(ax, 0.4, 26, 14))
        grow_to_fit(ax.figure)
        fit_to_figure([ax])
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
