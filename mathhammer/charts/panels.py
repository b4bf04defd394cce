"""Titles and panels shared by the chart kinds: one panel, or small multiples per target.

Overlays and sweep lines of more than :data:`~mathhammer.charts.layout.MAX_SERIES_PER_PANEL`
series split into panels (:func:`facets`), keep one look per attacker across them
(:func:`series_index`), and finish with one title, legend and caption
(:func:`finish_panels`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mathhammer.charts.fitting import axes_figure
from mathhammer.charts.layout import (CAPTION_LINES, FIGSIZE, HANDLE_LENGTH,
                                      MAX_SERIES_PER_PANEL, axes_or_new, label_chars,
                                      legend_outside, legend_texts, new_figure,
                                      remember_full_text, title, title_text, wrap)
from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes


def chart_title(ax: Axes, text: str) -> Any:
    """A chart's title over ``ax``, wrapped to the axes' width."""
    width = max(30, int(ax.get_position().width * axes_figure(ax).get_figwidth() * 8.5))
    return title(ax, text, width=width)


def lines_per_row(ax: Axes, rows: int, size: float = 10.0) -> int:
    """Lines a row label of ``size``-point text may take in a caller's axes (10-point lines
    are about 0.17 in)."""
    height = ax.get_position().height * axes_figure(ax).get_figheight() * 0.85
    # a label may reach a little into the gap between rows (row labels are centred)
    return int(min(max(height / max(rows, 1) / (0.017 * size) + 0.5, 1), 3))


def facets(attackers: list[str], panels: list[str], facet: Any,
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
    panel_of = [0] * n
    titles: list[str] = []
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


def series_index(attackers: list[str], panel_of: list[int], panels: list[str]) -> list[int]:
    """Style index per series: across panels by target, the same attacker keeps the same
    look (and every attacker has its own); otherwise one look per series."""
    if len(set(panel_of)) <= 1 or not any(panels):
        return list(range(len(attackers)))
    firsts: dict[str, int] = {}
    return [firsts.setdefault(a, len(firsts)) for a in attackers]


def panel_columns(n_panels: int) -> int:
    """Panels to a row of small multiples: two for 2 or 4 panels, else up to three."""
    return 2 if n_panels in (2, 4) else min(n_panels, 3)


def panel_axes(ax: Axes | None, n_panels: int) -> list:
    """One axes (``ax`` or a new figure's), or a new figure of ``n_panels`` small multiples
    sharing both axes, two or three to a row."""
    if n_panels <= 1:
        return [axes_or_new(ax)]
    columns = panel_columns(n_panels)
    rows = -(-n_panels // columns)
    fig = new_figure((FIGSIZE[0] + 2.2, 2.6 * rows + 1.2))
    grid = fig.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    flat = list(grid.ravel())
    for extra in flat[n_panels:]:
        extra.remove()
    for panel in flat[:n_panels]:
        panel.xaxis.set_tick_params(labelbottom=True)
    return flat[:n_panels]


def finish_panels(axes: list, lines: list, heading: str, note: str,
                  panel_titles: list[str] | None,
                  legend_names: list[str] | None = None) -> None:
    """Title, legend (outside, right) and caption of one panel or of small multiples; the
    figure legend of small multiples has one entry per distinct look (``legend_names``:
    the attacker of each line, when panels are targets)."""
    if len(axes) == 1:
        chart_title(axes[0], heading)
        legend_outside(axes[0], lines, [line.get_label() for line in lines],
                       title=note or None, width=label_chars(axes[0], 0.4, 26, 14))
        return
    fig = axes[0].figure
    columns = panel_columns(len(axes))
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
    legend = fig.legend(handles, legend_texts(shown_names, 26),
                        loc="outside right upper", title=wrap(note, 30, CAPTION_LINES) or None,
                        title_fontsize=8.5, alignment="left", handlelength=HANDLE_LENGTH)
    for text, full in zip(legend.get_texts(), shown_names):
        remember_full_text(text, full)
