"""Panels shared by overlays and sweep lines (charts/panels.py): facets, looks, titles."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from mathhammer.charts.layout import MAX_SERIES_PER_PANEL, new_axes  # noqa: E402
from mathhammer.charts.panels import (chart_title, facets, finish_panels,  # noqa: E402
                                      lines_per_row, panel_axes, panel_columns,
                                      series_index)
from mathhammer.errors import OptionError  # noqa: E402


def test_panel_columns():
    # two or four panels make a square; otherwise up to three to a row
    assert [panel_columns(n) for n in range(1, 8)] == [1, 2, 3, 2, 3, 3, 3]


def test_few_series_stay_in_one_panel():
    attackers = ["A", "B", "C"]
    assert facets(attackers, ["T1", "T2", "T1"], "auto", None) == ([0, 0, 0], [""])
    assert facets(attackers, ["T1", "T2", "T1"], None, None) == ([0, 0, 0], [""])


def test_many_series_split_by_target():
    # 2 targets x 5 attackers = 10 series > 7: one panel per target, in order of appearance
    n = 5
    attackers = [f"A{i}" for i in range(n)] * 2
    panels = ["MEQ"] * n + ["VEQ"] * n
    assert 2 * n > MAX_SERIES_PER_PANEL
    panel_of, titles = facets(attackers, panels, "auto", None)
    assert titles == ["MEQ", "VEQ"] and panel_of == [0] * n + [1] * n
    # the same attacker keeps its look in both panels
    assert series_index(attackers, panel_of, panels) == list(range(n)) * 2


def test_a_target_with_too_many_series_takes_several_panels():
    # 9 series, no targets named: panels of at most 7 (1-7, then 8-9)
    attackers = [f"A{i}" for i in range(9)]
    panel_of, titles = facets(attackers, [""] * 9, "auto", None)
    assert titles == ["series 1–7 of 9", "series 8–9 of 9"]
    assert panel_of == [0] * 7 + [1] * 2
    assert series_index(attackers, panel_of, [""] * 9) == list(range(9))


def test_facet_refusals():
    with pytest.raises(OptionError, match="facet='rows'"):
        facets(["A"], [""], "rows", None)
    ax = new_axes()
    with pytest.raises(OptionError, match="leave ax=None"):
        facets(["A", "B"], ["T1", "T2"], "target", ax)


def test_panel_axes_and_finish_panels_draw_small_multiples():
    axes = panel_axes(None, 4)
    assert len(axes) == 4 and len({id(a.figure) for a in axes}) == 1
    lines = [ax.plot([0, 1], [0, 1], label=f"A{i}")[0] for i, ax in enumerate(axes)]
    finish_panels(axes, lines, "Heading", "exact", ["T1", "T2", "T3", "T4"])
    figure = axes[0].figure
    assert figure.get_suptitle() == "Heading"
    assert [a.get_title(loc="left") for a in axes] == ["T1", "T2", "T3", "T4"]
    assert [t.get_text() for t in figure.legends[0].get_texts()] == ["A0", "A1", "A2", "A3"]
    assert len(panel_axes(None, 1)) == 1


def test_chart_title_and_row_lines():
    ax = new_axes()
    chart_title(ax, "Expected damage")
    assert "Expected damage" in ax.get_title(loc="left") + ax.get_title()
    # a 4.2 in figure: about 2.7 in of axes for 20 rows of 0.17 in lines -> 1 line each
    assert lines_per_row(ax, 20) == 1
    assert lines_per_row(ax, 1) == 3
