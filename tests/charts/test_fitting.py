"""Fitting a chart into a caller's figure (charts/fitting.py)."""

import matplotlib

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from mathhammer.charts.fitting import (FONT_SCALES, MIN_FONT, fit_to_figure,  # noqa: E402
                                       slot, visible_texts)
from mathhammer.charts.layout import new_axes  # noqa: E402


def crowded_axes(width=4.5, height=3.0):
    """A caller's small figure with long tick labels and a legend at its right edge."""
    figure = Figure(figsize=(width, height))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.plot([0, 1], [0, 1], label="a long series name")
    ax.set_yticks([0, 1], ["first long tick label", "second long tick label"])
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return figure, ax


def inside(figure, ax):
    figure.draw_without_rendering()
    renderer = figure.canvas.get_renderer()
    canvas = figure.bbox
    boxes = [t.get_window_extent(renderer) for t in visible_texts(ax, renderer)]
    return all(b.x0 >= canvas.x0 - 1 and b.x1 <= canvas.x1 + 1 for b in boxes)


def test_slot_of_a_figures_only_subplot_is_its_whole_canvas():
    figure = Figure()
    ax = figure.add_subplot()
    box = slot(ax)
    assert (round(box.x0, 2), round(box.y0, 2), round(box.width, 2)) == (0.02, 0.02, 0.96)
    assert slot(ax) is box  # remembered: later calls see the first slot


def test_fit_to_figure_keeps_the_size_and_brings_the_text_inside():
    figure, ax = crowded_axes()
    assert not inside(figure, ax)
    fit_to_figure([ax])
    assert tuple(figure.get_size_inches()) == (4.5, 3.0)
    assert inside(figure, ax)
    # text was scaled down in steps, never below the smallest font
    sizes = [t.get_fontsize() for t in ax.get_yticklabels()]
    assert all(s >= MIN_FONT for s in sizes) and FONT_SCALES[0] == 1.0


def test_a_figure_the_chart_made_is_left_alone():
    ax = new_axes()
    ax.set_position([0.1, 0.1, 0.5, 0.5])
    fit_to_figure([ax])
    assert [round(v, 3) for v in ax.get_position().bounds] == [0.1, 0.1, 0.5, 0.5]


def test_shrinking_stops_once_nothing_moves():
    # without a layout engine each round of shrinking into the slot draws the whole figure;
    # a chart with nothing sticking out of its slot (here no ticks, labels or legend) is
    # fitted in two draws (one round that moves nothing, one check), not four, and its axes
    # keep their slot exactly
    figure = Figure(figsize=(8, 6))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.plot([0, 1], [0, 1])
    ax.set_axis_off()
    ax.__dict__["_mathhammer_slot"] = ax.get_position().frozen()
    box = ax.get_position().bounds
    draws = []
    real = figure.draw_without_rendering
    figure.draw_without_rendering = lambda: (draws.append(1), real())[1]
    fit_to_figure([ax])
    assert len(draws) == 2
    assert ax.get_position().bounds == box
    # a crowded chart still shrinks round after round until it fits
    figure, ax = crowded_axes()
    fit_to_figure([ax])
    assert inside(figure, ax)
