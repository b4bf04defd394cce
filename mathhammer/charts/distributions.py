"""Distribution charts: one outcome's P(exactly k) and P(at least k) (:func:`distribution`),
and several results' "at least k" steps head to head (:func:`overlay`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from mathhammer.charts.data import NamedDistribution, named_distribution, padded, visible_max
from mathhammer.charts.fitting import axes_figure, fit_to_figure, slot
from mathhammer.charts.layout import (
    CAPTION_LINES,
    FIGSIZE,
    PALETTE,
    axes_or_new,
    axes_width,
    capitalised,
    checked_options,
    figure_png,
    fit_limits,
    grow_to_fit,
    integer_axis,
    label_chars,
    legend_below,
    stacked_marker_size,
    new_figure,
    percent_axis,
    remember_full_text,
    series_style,
    style,
    wrap,
)
from mathhammer.charts.panels import (
    chart_title,
    facets,
    finish_panels,
    panel_axes,
    panel_columns,
    series_index,
)
from mathhammer.core.inputs import chart_facet, chart_source, chart_sources, chart_texts
from mathhammer.core.limits import check_chart_size
from mathhammer.report.tables import format_estimate
from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes


# -- distribution ---------------------------------------------------------------------------
class DistributionArtists(NamedTuple):
    ax: Any
    bars: Any
    curve: Any
    mean_line: Any
    twin: Any
    def _repr_png_(self) -> bytes:
        return figure_png(self)


@checked_options
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
    named = named_distribution(chart_source(result, "result"), outcome, label)
    dist, name = named.dist, named.label
    default_title = capitalised(name) + (f": {named.subject}" if named.subject else "")
    with style():
        ax, lower = _two_panels(ax)
        top = visible_max(dist)
        k = np.arange(top + 1)
        pmf = padded(dist.probabilities, top + 1)
        at_least = padded(dist.at_least(), top + 1)
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
        short = lower.get_position().height * axes_figure(lower).get_figheight() < 1.3
        ax.set_ylabel("P(= k)" if short else "P(exactly k)")
        lower.set_ylabel("P(≥ k)" if short else "P(at least k)")
        chart_title(ax, title or default_title)
        note_chars = int(min(max(axes_width(lower) * 15, 30), 110))  # 8.5-point caption
        legend_below(lower, [bars, curve, mean_line],
                     title=wrap(named.note, note_chars, CAPTION_LINES) or None)
        remember_full_text(lower.get_legend().get_title(), named.note)
        ax.set_axisbelow(True)
        grow_to_fit(axes_figure(ax))
        fit_to_figure([ax, lower])
    return DistributionArtists(ax, bars, curve, mean_line, lower)


def _two_panels(ax: Axes | None) -> tuple[Any, Any]:
    """Upper (3/5) and lower (2/5) panels sharing x: a new figure's, or ``ax``'s slot split
    in two (``ax`` becomes the upper panel)."""
    if ax is None:
        figure = new_figure((FIGSIZE[0], FIGSIZE[1] + 0.9))
        upper, lower = figure.subplots(2, 1, sharex=True, height_ratios=[3, 2])
        # the ignore: new_figure's engine is a ConstrainedLayoutEngine, which takes h_pad
        figure.get_layout_engine().set(h_pad=0.06)  # type: ignore[union-attr, call-arg]
        return upper, lower
    ax = axes_or_new(ax)
    figure = axes_figure(ax)
    spec = ax.get_subplotspec()
    if spec is None:  # a free-standing axes: split its rectangle
        from matplotlib.transforms import Bbox

        box = slot(ax)
        gap = 0.1 * box.height
        upper_box = Bbox.from_bounds(box.x0, box.y0 + 0.4 * box.height + gap / 2, box.width,
                                     0.6 * box.height - gap / 2)
        lower_box = Bbox.from_bounds(box.x0, box.y0, box.width, 0.4 * box.height - gap / 2)
        ax.set_position(upper_box)
        lower = figure.add_axes(lower_box.bounds, sharex=ax)
        # each panel's slot is its part: the layout puts a panel back into its slot
        ax.__dict__["_mathhammer_slot"] = upper_box
        lower.__dict__["_mathhammer_slot"] = lower_box
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


# -- overlay --------------------------------------------------------------------------------
class OverlayArtists(NamedTuple):
    ax: Any
    lines: list
    axes: list = []
    def _repr_png_(self) -> bytes:
        return figure_png(self)


@checked_options
def overlay(results: Mapping[Any, Any] | Sequence[Any], outcome: str = "damage", *,
            ax: Axes | None = None, title: str | None = None,
            labels: Sequence[str] | None = None, facet: str | bool | None = "auto",
            ylim: tuple[float, float] | None = None) -> OverlayArtists:
    """Several results' "at least k" steps on one chart, for head-to-head comparisons.

    Parameters
    ----------
    results
        A dict label -> result (tuple keys such as ``(attacker, target)`` from
        :func:`mathhammer.wh40k.comparisons.results` are joined with " vs ", a third item of
        a sweep's ``keep_results=True`` results is added in brackets), or a list of results
        (labelled by their ``subject``, "weapons vs target").
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
    items, panels = _overlay_items(chart_sources(results, "results"), labels)
    check_chart_size("overlay", len(items))
    facet = chart_facet(facet)
    named = [named_distribution(r, outcome) for _, r in items]
    against = _shared_target(items, panels)
    situation = _shared_situation([r for _, r in items])
    note, own = _split_notes([_engine_and_situation(r, n, not situation)
                              for n, (_, r) in zip(named, items)])
    items = [(f"{name} [{extra}]" if extra else name, r) for (name, r), extra in zip(items, own)]
    if against:  # every series against the same target: said once, in the title
        items = [(_attacker_of(name, against), r) for name, r in items]
        panels = [""] * len(items)
    attackers = [_attacker_of(name, panel) for (name, _), panel in zip(items, panels)]
    panel_of, panel_titles = facets(attackers, panels, facet, ax)
    with style():
        axes = panel_axes(ax, len(panel_titles))
        top = max(max(visible_max(n.dist) for n in named), 1)
        k = np.arange(top + 1)
        lines = []
        series = series_index(attackers, panel_of, panels)
        for i, ((name, _), info) in enumerate(zip(items, named)):
            values = padded(info.dist.at_least(), top + 1)
            mean = format_estimate(info.dist.mean, info.dist.stderr, 3,
                                   trials=info.dist.trials)
            (line,) = axes[panel_of[i]].plot(k, values, drawstyle="steps-mid",
                                             label=f"{name} (mean {mean})",
                                             **series_style(series[i]),
                                             markersize=stacked_marker_size(
                                                 panel_of[:i].count(panel_of[i]),
                                                 panel_of.count(panel_of[i])))
            lines.append(line)
        outcome_name = named[0].label
        for j, panel in enumerate(axes):
            panel.set_xlim(-0.3, top + 0.3)
            low, high = ylim if ylim is not None else (0.0, 1.04)
            panel.set_ylim(low, high)
            percent_axis(panel.yaxis, high - low)
            _k_ticks(panel, top)
            panel.set_xlabel(wrap(f"k ({outcome_name})", label_chars(panel, 1.0, 70, 20), 2))
            if j % panel_columns(len(axes)) == 0:
                panel.set_ylabel("P(at least k)")
        shared = (f" vs {against}" if against else "") + \
            (f" ({situation})" if situation else "")
        heading = title or f"Chance of at least k {outcome_name}{shared}"
        if title and shared:  # the caller's title: what all series share goes in the key
            note = "; ".join(p for p in (shared.strip(), note) if p)
        legend_names = attackers if any(panels) and len(axes) > 1 else None
        finish_panels(axes, lines, heading, note, panel_titles if len(axes) > 1 else None,
                      legend_names)
        grow_to_fit(axes_figure(axes[0]))
        fit_to_figure(axes)
    return OverlayArtists(axes[0], lines, axes)


def _engine_and_situation(result: Any, named: NamedDistribution,
                          with_situation: bool = True) -> str:
    """What a series' numbers rest on, without its profiles (its label names those), and
    without its situation when the title says it for every series."""
    if hasattr(result, "engine_note") and hasattr(result, "situation"):
        parts = (result.engine_note, result.situation if with_situation else "")
        return "; ".join(p for p in parts if p)
    return named.note or getattr(result, "engine_note", "")


def _shared_situation(results: list) -> str:
    """The situation every result was computed in (``result.situation``), if they share
    one."""
    found = {str(getattr(r, "situation", "") or "") for r in results}
    return found.pop() if len(found) == 1 else ""


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
    """The target every series is about, if there is one: the second item of
    ``(attacker, target)`` keys, else each result's own (its subject's "vs target")."""
    targets = {p or _target_of(r) for p, (_, r) in zip(panels, items)}
    if len(targets) != 1 or "" in targets:
        return ""
    return targets.pop()


def _target_of(result: Any) -> str:
    """The target a result names in its subject ("weapons vs target")."""
    subject = str(getattr(result, "subject", "") or "")
    return subject.rpartition(" vs ")[2] if " vs " in subject else ""


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
    labels = chart_texts(labels, len(items))
    if labels is not None:
        items = [(lab, r) for lab, (_, r) in zip(labels, items)]
    return items, panels


def _key_label(key: Any) -> str:
    """``(attacker, target)`` -> "attacker vs target"; a third item (a sweep setting) goes
    in brackets."""
    if not isinstance(key, tuple):
        return str(key)
    label = " vs ".join(map(str, key[:2]))
    return label + "".join(f" ({part})" for part in key[2:])
