"""Heat maps (charts/heatmaps.py): the cells hold the frame's values, laid out by hand."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mathhammer.charts.heatmaps import heatmap  # noqa: E402


def frame(metric="expected_damage", values=(1.0, 2.5, 0.25, 4.0), stderr=np.nan):
    return pd.DataFrame({"attacker": ["A", "A", "B", "B"], "target": ["MEQ", "VEQ"] * 2,
                         "metric": [metric] * 4, "value": list(values), "stderr": stderr})


def test_cells_are_laid_out_attackers_by_targets():
    art = heatmap(frame())
    assert art.image.get_array().tolist() == [[1.0, 2.5], [0.25, 4.0]]
    # three significant figures (digits=3)
    assert [t.get_text() for t in art.texts] == ["1.00", "2.50", "0.250", "4.00"]
    assert [t.get_text() for t in art.ax.get_xticklabels()] == ["MEQ", "VEQ"]
    assert [t.get_text() for t in art.ax.get_yticklabels()] == ["A", "B"]


def test_probabilities_print_as_percentages_on_a_0_to_1_scale():
    art = heatmap(frame("p_unit_destroyed", (0.5, 0.125, 1.0, 0.0)))
    assert [t.get_text() for t in art.texts] == ["50.0%", "12.5%", "100%", "0%"]
    assert art.image.get_clim() == (0.0, 1.0)


def test_monte_carlo_cells_show_their_standard_error():
    art = heatmap(frame(values=(1.0, 2.0, 3.0, 4.0), stderr=0.01))
    first = art.texts[0].get_text().split("\n")
    assert len(first) == 2 and first[0].startswith("1.0")


def test_a_missing_cell_reads_a_dash():
    part = frame().iloc[:3]
    art = heatmap(part)
    assert [t.get_text() for t in art.texts][-1] == "–"


def test_a_made_figure_is_measured_on_the_draw_that_fitted_its_cells(monkeypatch):
    # the cells' fitting ends on a draw of the figure at its final size; growing it to fit
    # measures that draw instead of drawing the unchanged figure again (each draw lays out
    # every text: the most of a chart's time)
    from matplotlib.figure import Figure

    draws = []
    real = Figure.draw_without_rendering
    monkeypatch.setattr(Figure, "draw_without_rendering",
                        lambda self: (draws.append(self), real(self))[1])
    art = heatmap(frame())
    assert len(draws) == 1 and draws[0] is art.ax.figure
    # what the figure was grown to still holds everything it draws
    box = art.ax.figure.get_tightbbox(art.ax.figure.canvas.get_renderer())
    width, height = art.ax.figure.get_size_inches()
    assert box.x0 >= -0.01 and box.y0 >= -0.01 and box.x1 <= width + 0.01 and \
        box.y1 <= height + 0.01


def test_a_grid_beyond_the_cell_limit_is_refused_before_it_is_drawn(monkeypatch):
    # 200 x 200 cells drew for 137 s in 6.9 GB (a picture 20,322 pixels wide)
    import pytest

    from mathhammer.core import limits
    from mathhammer.errors import OptionError

    monkeypatch.setattr(limits, "MAX_HEATMAP_CELLS", 3)
    with pytest.raises(OptionError, match=r"^a heat map of 4 cells \(2 attackers x 2 targets\) "
                                          r"is more than 3 cells: chart fewer"):
        heatmap(frame())
    monkeypatch.setattr(limits, "MAX_HEATMAP_CELLS", 4)
    assert len(heatmap(frame()).texts) == 4
