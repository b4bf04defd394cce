"""Fitting a chart into a figure the caller made: its text scaled down in steps, its axes
shrunk into their slots, its legends given more columns, until nothing overlaps or spills
out of the figure.

A chart drawn in a figure of its own grows the figure instead
(:func:`~mathhammer.charts.layout.grow_to_fit`); this module serves charts drawn into
a caller's axes, and :func:`~mathhammer.charts.layout.resize`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def axes_figure(ax: Axes) -> Figure:
    """The figure ``ax`` draws in; an :class:`~mathhammer.errors.OptionError` for axes
    of a matplotlib subfigure (charts size their text and grow from a whole figure's
    inches, which a subfigure has not)."""
    from matplotlib.figure import Figure

    from mathhammer.core.inputs import chart_axes
    from mathhammer.errors import OptionError

    figure = chart_axes(ax).figure
    if not isinstance(figure, Figure):
        raise OptionError("ax= is an axes of a matplotlib subfigure: draw the chart in axes "
                          "of a figure (plt.subplots()), or leave ax= out for a new figure")
    return figure


class CrowdedChart(UserWarning):
    """A chart has no room, at a readable text size, for what it must show: labels it
    cannot tell apart (numbered instead), or texts that overlap or leave a caller's figure.
    Said in one warning; text is never shrunk below :data:`MIN_FONT` to hide it."""


#: Steps by which :func:`fit_to_figure` scales a chart's text down in a caller's figure.
FONT_SCALES = (1.0, 0.9, 0.8, 0.7, 0.62, 0.55)
#: Smallest font size (points) text is scaled down to.
MIN_FONT = 8.0


def fit_to_figure(axes: Sequence[Axes]) -> None:
    """Lay a chart drawn in a caller's axes out inside the figure it was given.

    The figure keeps its size. Without a layout engine, each axes shrinks inside the slot
    it had when the chart began until its tick labels, legend and caption fit the slot;
    with constrained or tight layout the engine does that. Then, while a text still leaves
    the canvas, texts overlap or the layout engine gives up, the chart's text is scaled down
    step by step (:data:`FONT_SCALES`, never below :data:`MIN_FONT` points: 8 pt, readable
    at 100 dpi) and a tall side
    legend gets more columns. A figure made by
    :func:`~mathhammer.charts.layout.new_figure` is left to
    :func:`~mathhammer.charts.layout.grow_to_fit`.
    """
    axes = [a for a in axes if a is not None]
    figure = axes_figure(axes[0])
    if figure.__dict__.get("_mathhammer_owned"):
        return
    slots = [slot(ax) for ax in axes]
    sizes = _base_sizes(axes)
    # Each try draws the whole figure. A chart that does not fit at the smallest text will
    # not fit at any, so that is tried second, and its legend columns put back after: a
    # crowded chart is then said crowded in 2-4 draws, not up to 18.
    scales = list(FONT_SCALES)
    if _fits_at(scales[0], axes, sizes, slots):
        return
    columns = _legend_columns(axes)
    if _fits_at(scales[-1], axes, sizes, slots):
        _set_legend_columns(columns)
        for scale in scales[1:]:
            if _fits_at(scale, axes, sizes, slots):
                return
    width, height = figure.get_size_inches()
    warnings.warn(f"the chart does not fit its {width:g} x {height:g} in figure with text of "
                  f"{MIN_FONT:g} points or more (smaller is unreadable): give it a larger "
                  "figure or axes, or fewer series", CrowdedChart, stacklevel=4)


def _fits_at(scale: float, axes: Sequence[Axes], sizes: dict, slots: Sequence[Any]) -> bool:
    """Scale the chart's text to ``scale`` of its size and lay it out (shrinking into the
    slots without a layout engine, giving tall legends more columns); whether it fits."""
    figure = axes_figure(axes[0])
    _scale_fonts(axes, sizes, scale)
    for _ in range(3):
        if figure.get_layout_engine() is None:
            for ax, box in zip(axes, slots):
                ax.set_position(box)
            for _ in range(3):
                if not _shrink_into_slots(axes, slots):
                    break   # nothing moved: a further round would draw the same and move nothing
        if fits_figure(figure, axes):
            return True
        if not _reflow_legends(axes, figure):
            break
    return False


def _legend_columns(axes: Sequence[Axes]) -> list[tuple[Any, int]]:
    return [(ax.get_legend(), ax.get_legend()._ncols)  # type: ignore[union-attr]
            for ax in axes if ax.get_legend() is not None]


def _set_legend_columns(columns: list[tuple[Any, int]]) -> None:
    for legend, count in columns:
        legend.set_ncols(count)


def slot(ax: Axes) -> Any:
    """The figure-fraction box the axes had when a chart first drew into it."""
    if "_mathhammer_slot" not in ax.__dict__:
        box = ax.get_position(original=True).frozen()
        spec = ax.get_subplotspec()
        if axes_figure(ax).get_layout_engine() is None and spec is not None \
                and spec.get_gridspec().get_geometry() == (1, 1):
            from matplotlib.transforms import Bbox

            # the figure's only subplot: its whole canvas, not the default margins
            box = Bbox.from_bounds(0.02, 0.02, 0.96, 0.96)
        ax.__dict__["_mathhammer_slot"] = box
    return ax.__dict__["_mathhammer_slot"]


def _base_sizes(axes: Sequence[Axes]) -> dict[int, tuple[Any, float]]:
    from matplotlib.text import Text

    sizes: dict[int, tuple[Any, float]] = {}
    for ax in axes:
        for text in ax.findobj(Text):
            sizes.setdefault(id(text), (text, float(text.get_fontsize())))
        for axis in (ax.xaxis, ax.yaxis):
            ticks = axis.get_ticklabels()
            size = float(ticks[0].get_fontsize()) if ticks else 10.0
            sizes.setdefault(id(axis), (axis, size))
    return sizes


def _scale_fonts(axes: Sequence[Axes], sizes: dict, scale: float) -> None:
    from matplotlib.axis import Axis

    for item, size in sizes.values():
        new = max(MIN_FONT, size * scale)
        if isinstance(item, Axis):
            item.set_tick_params(labelsize=new)
        else:
            item.set_fontsize(new)


def _shrink_into_slots(axes: Sequence[Axes], slots: Sequence[Any]) -> bool:
    """Without a layout engine: map the chart's axes (one, or panels and colour bar
    together) into a smaller part of their joint slot, by as much as their decorations
    (tick labels, legend, caption) stick out of it on each side. Whether any axes moved."""
    from matplotlib.transforms import Bbox

    figure = axes_figure(axes[0])
    renderer = drawn_figure(figure)[0]
    outers = [b for b in (ax.get_tightbbox(renderer) for ax in axes) if b is not None]
    if not outers:
        return False
    before = [ax.get_position().bounds for ax in axes]
    room = Bbox.union(list(slots))
    outer = Bbox.union(outers).transformed(figure.transFigure.inverted())
    here = Bbox.union([ax.get_position() for ax in axes])
    x0 = here.x0 + max(0.0, room.x0 - outer.x0)
    x1 = here.x1 - max(0.0, outer.x1 - room.x1)
    y0 = here.y0 + max(0.0, room.y0 - outer.y0)
    y1 = here.y1 - max(0.0, outer.y1 - room.y1)
    sx = max(x1 - x0, 0.15 * room.width) / here.width
    sy = max(y1 - y0, 0.15 * room.height) / here.height
    x0 = min(x0, room.x1 - sx * here.width)
    y0 = min(y0, room.y1 - sy * here.height)
    if (x0, y0, sx, sy) == (here.x0, here.y0, 1.0, 1.0):
        return False   # nothing sticks out (re-setting the boxes would only round them)
    for ax in axes:
        box = ax.get_position()
        ax.set_position((x0 + (box.x0 - here.x0) * sx, y0 + (box.y0 - here.y0) * sy,
                         box.width * sx, box.height * sy))
    return [ax.get_position().bounds for ax in axes] != before


def drawn_figure(figure: Figure) -> tuple[Any, bool]:
    """Draw the figure; the renderer, and whether the layout engine gave up."""
    measuring_canvas(figure)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure.draw_without_rendering()
    failed = any("constrained_layout not applied" in str(w.message)
                 or "Tight layout not applied" in str(w.message) for w in caught)
    return figure._get_renderer(), failed  # type: ignore[attr-defined]  # (private, no public twin)


def measuring_canvas(figure: Figure) -> None:
    """Give a figure with no canvas of its own (a bare ``Figure()``) an Agg canvas.

    Drawing a bare figure makes a new canvas and renderer every time, and matplotlib keeps
    text measurements per renderer: a chart fitted in a few draws measured every text again
    in each (most of its time). With an Agg canvas, draws at one size share one renderer.
    Saving and showing the figure are unchanged (Agg is what they draw a bare figure with).
    """
    from matplotlib.backend_bases import FigureCanvasBase
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if type(figure.canvas) is FigureCanvasBase:
        FigureCanvasAgg(figure)


def fits_figure(figure: Figure, axes: Sequence[Axes]) -> bool:
    """Every text of the chart inside the canvas, none overlapping another, the layout
    engine content, and each axes at least a fifth of its slot."""
    renderer, failed = drawn_figure(figure)
    if failed:
        return False
    canvas = figure.bbox
    boxes = []
    for ax in axes:
        frame = ax.get_window_extent(renderer)
        whole = slot(ax).transformed(figure.transFigure)
        if frame.width < 0.2 * whole.width or frame.height < 0.2 * whole.height:
            return False
        for text in visible_texts(ax, renderer):
            box = text.get_window_extent(renderer)
            if box.x0 < canvas.x0 - 1 or box.x1 > canvas.x1 + 1 or box.y0 < canvas.y0 - 1 \
                    or box.y1 > canvas.y1 + 1:
                return False
            boxes.append(box)
    return not overlapping(boxes)


def visible_texts(ax: Axes, renderer: Any) -> list:
    """The non-empty texts an axes draws: its own texts, titles, labels, legend and the
    tick labels actually shown."""
    from matplotlib.text import Text

    ticks = set()
    shown = []
    for axis in (ax.xaxis, ax.yaxis):
        for tick in axis.majorTicks + axis.minorTicks:
            ticks.update({id(tick.label1), id(tick.label2)})
        if axis.get_visible():
            for tick in axis._update_ticks():  # type: ignore[union-attr]  # (private: ticks drawn)
                shown += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    texts = [t for t in ax.findobj(Text) if id(t) not in ticks] + shown
    return [t for t in texts if t.get_visible() and t.get_text().strip()]


def overlapping(boxes: list, slack: float = 1.0) -> bool:
    """Whether any two of the window extents ``boxes`` overlap by more than ``slack``
    pixels both ways (empty boxes never do)."""
    for i, a in enumerate(boxes):
        if a.width == 0:
            continue
        for b in boxes[i + 1:]:
            if b.width == 0:
                continue
            if min(a.x1, b.x1) - max(a.x0, b.x0) > slack and \
                    min(a.y1, b.y1) - max(a.y0, b.y0) > slack:
                return True
    return False


def _reflow_legends(axes: Sequence[Axes], figure: Figure) -> bool:
    """A side legend taller than the figure gets one more column; a legend under the axes
    wider than the axes' slot one column less. Whether any legend changed."""
    renderer = figure._get_renderer()  # type: ignore[attr-defined]  # (private, no public twin)
    changed = False
    for ax in axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        below = box.y1 <= ax.get_window_extent(renderer).y0 + 1
        room = slot(ax).transformed(figure.transFigure)
        columns = legend._ncols  # type: ignore[attr-defined]  # (private: set_ncols has no get)
        if below and box.width > room.width and columns > 1:
            legend.set_ncols(columns - 1)
            changed = True
        elif not below and box.height > 0.9 * figure.bbox.height and columns < 3:
            legend.set_ncols(columns + 1)
            changed = True
    return changed
