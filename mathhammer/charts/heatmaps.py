"""Heat maps of a comparison grid with the values printed in the cells (:func:`heatmap`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from mathhammer.charts.data import fold_extra, frame_note, metric_rows
from mathhammer.charts.fitting import axes_figure, fit_to_figure
from mathhammer.charts.labels import MIN_READABLE
from mathhammer.charts.layout import (
    SMALL_TICKS,
    axes_or_new,
    axes_width,
    capitalised,
    caption,
    checked_options,
    figure_png,
    grow_to_fit,
    keep_tick_texts,
    label_chars,
    percent_axis,
    shorten_ticks,
    style,
    wrap,
)
from mathhammer.charts.panels import chart_title, lines_per_row
from mathhammer.core.inputs import chart_frame
from mathhammer.core.limits import check_chart_size
from mathhammer.report.labels import metric_label
from mathhammer.report.tables import check_digits, estimate_parts

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes


class HeatmapArtists(NamedTuple):
    ax: Any
    image: Any
    texts: list
    colorbar: Any
    def _repr_png_(self) -> bytes:
        return figure_png(self)


@checked_options
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
    part, metric = metric_rows(chart_frame(frame), metric, rows=rows, columns=columns)
    part = fold_extra(part, rows, columns)
    # dropna=False: a row or column with no value (a 0-point unit per 100 points) stays
    table = part.pivot_table(index=rows, columns=columns, values="value", aggfunc="first",
                             dropna=False, sort=False)
    check_chart_size("heatmap", table.size, f"{table.shape[0]:,} {rows}s x "
                     f"{table.shape[1]:,} {columns}s")
    values = table.to_numpy(dtype=float)
    errors = _stderr_grid(part, rows, columns, table)
    is_probability = metric.startswith("p_")
    row_names = [str(r) for r in table.index]
    column_names = [str(c) for c in table.columns]
    # a caller's axes cannot grow: its labels are a little smaller (never below 8 pt) and
    # take the room there is, wrapped onto as many lines as the rows allow
    row_size = 10.0 if ax is None else SMALL_TICKS
    row_chars = 30 if ax is None else label_chars(ax, 0.4, size=row_size)
    column_size, column_chars = 10.0, 14
    if ax is not None:  # a word must fit its column: smaller labels before any cut
        cell = axes_width(ax) * 0.5 / values.shape[1]
        need = min(max(_longest_word(column_names), 5), 12)
        column_size = min(10.0, max(MIN_READABLE, 131 * cell / need))
        column_chars = max(int(131 * cell / column_size), 4)
    row_ticks = shorten_ticks(row_names, row_chars,
                              3 if ax is None else lines_per_row(ax, len(row_names), row_size))
    column_ticks = shorten_ticks(column_names, column_chars, 3)
    with style():
        ax = axes_or_new(ax, _heatmap_size(values.shape, row_ticks, column_ticks,
                                           two_lines=np.isfinite(errors).any()))
        image, texts = _cells(ax, values, errors, is_probability, digits, cmap,
                              trials=frame.attrs.get("trials"),
                              owned=ax.figure.__dict__.get("_mathhammer_owned", False))
        ax.set_xticks(range(len(column_names)), column_ticks, fontsize=column_size)
        ax.set_yticks(range(len(row_names)), row_ticks, fontsize=row_size)
        keep_tick_texts(ax, column_ticks, column_names)
        keep_tick_texts(ax, row_ticks, row_names)
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.tick_params(length=0)
        ax.set_xlabel(columns)
        ax.set_ylabel(rows)
        label = metric_label(metric, frame)
        colorbar = ax.figure.colorbar(image, ax=ax, shrink=0.9, fraction=0.06, pad=0.03)
        colorbar.set_label(wrap(label, 40, 2))
        if is_probability:
            percent_axis(colorbar.ax.yaxis)
        colorbar.outline.set_visible(False)
        one = f" vs {column_names[0]}" if len(column_names) == 1 and columns == "target" else ""
        chart_title(ax, title or capitalised(label) + one)
        caption(ax, frame_note(frame))
        grow_to_fit(axes_figure(ax), drawn=_fit_cells(ax, texts, values.shape))
        _fit_given_axes(ax, colorbar.ax, texts, values.shape)
    return HeatmapArtists(ax, image, texts, colorbar)


def _fit_given_axes(ax: Axes, bar: Axes, texts: list, shape: tuple[int, int]) -> None:
    """:func:`~mathhammer.charts.fitting.fit_to_figure`, then the cell texts sized to the
    cells they got; one warning only if the chart still does not fit."""
    import warnings

    from mathhammer.charts.fitting import CrowdedChart, fits_figure

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", CrowdedChart)
        fit_to_figure([ax, bar])
        _cells_in_given_axes(ax, texts, shape)
        if caught and fits_figure(axes_figure(ax), [ax, bar]):
            caught.clear()
    for warning in caught[:1]:
        warnings.warn(warning.message, stacklevel=4)


def _cells_in_given_axes(ax: Axes, texts: list, shape: tuple[int, int]) -> None:
    """In a caller's axes, once laid out: cell texts as large as their cells allow, in
    width and in height (never below 8 points). When two lines (value and standard error)
    do not fit, the cells show the value alone; when even that does not fit, no value (the
    colour bar still reads them); each said in one
    :class:`~mathhammer.charts.fitting.CrowdedChart` warning. Overlapping cell texts are never
    drawn."""
    import warnings

    from mathhammer.charts.fitting import MIN_FONT, CrowdedChart, drawn_figure

    figure = axes_figure(ax)
    if figure.__dict__.get("_mathhammer_owned") or not texts:
        return
    renderer = drawn_figure(figure)[0]
    box = ax.get_window_extent(renderer)
    cell_w, cell_h = box.width / max(shape[1], 1), box.height / max(shape[0], 1)
    size = texts[0].get_fontsize()

    def largest_size() -> float:
        extents = [t.get_window_extent(renderer) for t in texts]
        widest = max(e.width for e in extents)
        tallest = max(e.height for e in extents)
        return size * min(1.0, 0.95 * cell_w / max(widest, 1e-9),
                          0.9 * cell_h / max(tallest, 1e-9))

    fitting = largest_size()
    dropped = ""
    if fitting < MIN_FONT and any("\n" in t.get_text() for t in texts):
        for text in texts:
            text.set_text(text.get_text().split("\n")[0])
        fitting, dropped = largest_size(), "standard errors"
    if fitting < MIN_FONT:
        for text in texts:
            text.set_visible(False)
        dropped = "values"
    for text in texts:
        text.set_fontsize(max(MIN_FONT, min(size, fitting)))
    if dropped:
        width, height = figure.get_size_inches()
        shown = ("the colour bar reads them" if dropped == "values"
                 else "the values alone are shown")
        warnings.warn(f"the heat map's cells are too small for their {dropped} at "
                      f"{MIN_FONT:g} points in this {width:g} x {height:g} in figure, so they "
                      f"are left out ({shown}): give it larger axes or fewer rows or columns",
                      CrowdedChart, stacklevel=4)


def _longest_word(names: list[str]) -> int:
    return max((len(word) for name in names for word in name.split()), default=0)


def _stderr_grid(part: pd.DataFrame, rows: str, columns: str, table: pd.DataFrame):
    """The standard errors laid out like the values (NaN for exact cells)."""
    if "stderr" not in part.columns:
        return np.full(table.shape, np.nan)
    grid = part.pivot_table(index=rows, columns=columns, values="stderr", aggfunc="first",
                            sort=False, dropna=False)
    return grid.reindex(index=table.index, columns=table.columns).to_numpy(dtype=float)


def _fit_cells(ax: Axes, texts: list, shape: tuple[int, int]) -> bool:
    """Widen or heighten a figure the chart made until every cell holds its value and every
    column its label, with room to spare. Whether the figure is left as last drawn."""
    figure = axes_figure(ax)
    if not figure.__dict__.get("_mathhammer_owned"):
        return False
    n_rows, n_cols = shape
    for _ in range(3):
        figure.draw_without_rendering()
        renderer = figure._get_renderer()  # type: ignore[attr-defined]  # (private, no public twin)
        box = ax.get_window_extent(renderer)
        columns = [t.get_window_extent(renderer) for t in ax.get_xticklabels()]
        rows = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
        cells = [t.get_window_extent(renderer) for t in texts]
        need_w = max([e.width for e in columns + cells] + [1]) + 12
        need_h = max([e.height for e in rows + cells] + [1]) + 6
        short_w = max(0.0, need_w - box.width / n_cols) * n_cols / figure.dpi
        short_h = max(0.0, need_h - box.height / n_rows) * n_rows / figure.dpi
        if short_w < 0.02 and short_h < 0.02:
            return True
        width, height = figure.get_size_inches()
        figure.set_size_inches(width + short_w * 1.1, height + short_h * 1.1)
    return False


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
        size = min(10.0, max(MIN_READABLE, cell * 0.85 / (widest * 0.0088)))
        for text in texts:
            text.set_fontsize(size)
    return image, texts


def _cell_text(value: float, stderr: float, is_probability: bool, digits: int,
               trials: int | None) -> str:
    """A cell's value to ``digits`` significant figures (see
    :func:`mathhammer.report.tables.format_value`); a Monte Carlo cell shows its standard
    error on a second line and no more decimals than it supports."""
    shown, error = estimate_parts(value, None if not np.isfinite(stderr) else stderr, digits,
                                  percent=is_probability, trials=trials)
    if shown == "not seen":
        return "not seen"
    # the table's digits; "±0.004" without the space, which a narrow cell needs
    return f"{shown}\n{error.replace('± ', '±')}" if error else shown
