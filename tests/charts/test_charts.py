"""Charts render with Agg, to non-empty PNG/SVG files of the expected size, with labels."""

import struct
import xml.etree.ElementTree as ET

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

import mathhammer as mh
from mathhammer.wh40k.comparisons import results
from mathhammer import charts
from mathhammer.core.result import Distribution
from mathhammer.errors import MathhammerError, OptionError

HB = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'
LC = 'Lascannon: 48" A1 BS4+ S12 AP-3 D6+1'


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def svg_size_pt(path):
    root = ET.parse(path).getroot()
    return float(root.get("width").rstrip("pt")), float(root.get("height").rstrip("pt"))


@pytest.fixture(scope="module")
def exact_result():
    return mh.exact("3x " + HB, "MEQ")


@pytest.fixture(scope="module")
def grid():
    return mh.compare([HB, LC], ["GEQ", "MEQ", "TEQ"], method="monte-carlo", trials=5_000, seed=1)


def test_distribution_chart_png_and_svg(tmp_path, exact_result):
    art = charts.distribution(exact_result, "damage")
    ax = art.ax
    assert ax.get_title(loc="left").startswith("Wounds lost: 3x Heavy bolter vs 5x Intercessor")
    assert ax.get_xlabel() == "k (wounds lost)" and ax.get_ylabel() == "P(exactly k)"
    assert art.twin.get_ylabel() == "P(at least k)"
    assert len(art.bars) == len(exact_result.pmf("damage"))
    assert art.mean_line.get_xdata()[0] == pytest.approx(exact_result.mean("damage"))
    np.testing.assert_allclose(art.curve.get_ydata(), exact_result.at_least("damage"))
    png = charts.save(art, tmp_path / "d.png")
    assert png_size(png) == (1050, 765)  # two panels: 7 x 5.1 in
    svg = charts.save(art.ax.figure, tmp_path / "d.svg")
    assert svg.stat().st_size > 1000 and svg_size_pt(svg) == (504.0, 367.2)
    assert (tmp_path / "d.png").stat().st_size > 10_000


def test_result_plot_delegates(tmp_path, exact_result):
    art = exact_result.plot("models_destroyed")
    assert art.ax.get_xlabel() == "k (models destroyed)"
    art = exact_result.plot(kind="at_least")
    assert len(art.lines) == 1
    with pytest.raises(MathhammerError, match="unknown chart kind"):
        exact_result.plot(kind="pie")
    with pytest.raises(MathhammerError, match="no outcome 'hits'"):
        exact_result.plot("hits")
    assert png_size(charts.save(exact_result.plot(), tmp_path / "r.png", dpi=100)) == (700, 510)


def test_monte_carlo_distribution_mentions_the_engine():
    r = mh.simulate(HB, "MEQ", trials=10_000, seed=3)
    art = r.plot()
    legend = art.twin.get_legend()
    assert "10,000 trials, seed 3" in legend.get_title().get_text()
    assert "±" in art.mean_line.get_label()


def test_distribution_of_a_bare_distribution_and_given_axes():
    ax = charts.new_axes()
    art = charts.distribution(Distribution.from_pmf(np.array([0.5, 0.25, 0.25])), ax=ax)
    assert art.ax is ax and len(art.bars) == 3


def test_overlay(tmp_path):
    res = results([HB, LC], ["MEQ"], method="exact")
    art = charts.overlay(res)
    assert [line.get_label().split(" (")[0] for line in art.lines] == \
        ["Heavy bolter", "Lascannon"]  # the shared target is said once, in the title
    assert art.ax.get_title(loc="left").endswith("vs MEQ")
    colours = {line.get_color() for line in art.lines}
    assert len(colours) == 2 and colours <= set(charts.PALETTE)
    assert art.ax.get_ylabel() == "P(at least k)"
    assert png_size(charts.save(art, tmp_path / "o.png")) == (1050, 630)
    art = charts.overlay(list(res.values()), labels=["a", "b"])
    assert art.lines[1].get_label().startswith("b")
    with pytest.raises(OptionError):
        charts.overlay([])


def test_heatmap_values_in_cells(tmp_path, grid):
    art = charts.heatmap(grid)
    part = grid[grid.metric == "expected_damage"]
    assert len(art.texts) == len(part) == 6
    value, stderr = art.texts[0].get_text().split("\n")  # Monte Carlo: the error below
    assert float(value) == pytest.approx(part.value.iloc[0], abs=float(stderr[1:]))
    # the one rule of tables, charts and the page (issue 41): the table's error, exactly
    from mathhammer.report.tables import estimate_parts
    assert stderr == estimate_parts(part.value.iloc[0], part.stderr.iloc[0], 3)[1].replace(
        "± ", "±")
    assert [t.get_text() for t in art.ax.get_xticklabels()] == ["GEQ", "MEQ", "TEQ"]
    assert [t.get_text() for t in art.ax.get_yticklabels()] == ["Heavy bolter", "Lascannon"]
    assert art.colorbar.ax.get_ylabel() == "expected wounds lost"
    assert art.ax.get_title(loc="left") == "Expected wounds lost"
    path = charts.save(art, tmp_path / "h.png")
    w, h = png_size(path)
    assert (w, h) == (round(art.ax.figure.get_figwidth() * 150),
                      round(art.ax.figure.get_figheight() * 150))
    assert charts.save(art, tmp_path / "h.svg").stat().st_size > 1000


def test_heatmap_probabilities_as_percentages(grid):
    art = charts.heatmap(grid, "p_unit_destroyed")
    assert all(line.endswith("%") or line in ("not seen",) for t in art.texts
               for line in t.get_text().split("\n"))
    assert art.image.get_clim() == (0.0, 1.0)
    with pytest.raises(OptionError, match="no metric 'nope'"):
        charts.heatmap(grid, "nope")
    with pytest.raises(OptionError, match="needs a 'target' column"):
        charts.heatmap(grid.drop(columns="target"))


def test_heatmap_of_a_sweep_folds_the_parameter_into_rows():
    df = mh.sweep([HB], ["MEQ", "TEQ"], "hit_mod", [-1, 1], method="exact")
    art = charts.heatmap(df)
    assert [t.get_text() for t in art.ax.get_yticklabels()] == \
        ["Heavy bolter (hit_mod -1)", "Heavy bolter (hit_mod 1)"]


def test_sweep_lines(tmp_path):
    df = mh.sweep([HB, LC], ["MEQ"], "save", [2, 3, 7], method="monte-carlo", trials=5_000, seed=2)
    art = charts.sweep_lines(df)
    assert len(art.lines) == 2 and len(art.bands) == 2
    assert [t.get_text() for t in art.ax.get_xticklabels()] == ["2+", "3+", "none"]
    np.testing.assert_allclose(art.lines[0].get_ydata(),
                               df[(df.metric == "expected_damage")
                                  & (df.attacker == "Heavy bolter")].value)
    ex = mh.sweep([HB], ["MEQ"], "range", ["full", "half"], method="exact")
    art = charts.sweep_lines(ex, metric="p_unit_destroyed")
    assert art.bands == [] and [t.get_text() for t in art.ax.get_xticklabels()] == \
        ["full", "half"]
    assert png_size(charts.save(art, tmp_path / "s.png")) == (1050, 630)


def survival_frame(with_stderr=True):
    df = pd.DataFrame({"unit": ["Intercessors"] * 5 + ["Terminators"] * 5,
                       "round": [1, 2, 3, 4, 5] * 2,
                       "p_alive": [0.95, 0.7, 0.4, 0.2, 0.1, 0.99, 0.9, 0.75, 0.5, 0.3]})
    if with_stderr:
        df["stderr"] = 0.01
    return df


def test_survival_curves(tmp_path):
    art = charts.survival(survival_frame())
    assert [line.get_label() for line in art.lines] == ["Intercessors", "Terminators"]
    np.testing.assert_allclose(art.lines[1].get_ydata(), [0.99, 0.9, 0.75, 0.5, 0.3])
    assert len(art.bands) == 2
    assert art.ax.get_xlabel() == "battle round (end of)"
    assert png_size(charts.save(art, tmp_path / "v.png")) == (1050, 630)
    assert svg_size_pt(charts.save(art, tmp_path / "v.svg")) == (504.0, 302.4)
    assert charts.survival(survival_frame(False)).bands == []
    renamed = survival_frame().rename(columns={"p_alive": "alive", "unit": "side"})
    assert len(charts.survival(renamed, unit="side", value="alive").lines) == 2


@pytest.mark.parametrize("change, pattern", [
    (lambda d: d.drop(columns="p_alive"), "need a 'p_alive' column"),
    (lambda d: d.assign(p_alive=d.p_alive * 2), "between 0 and 1"),
    (lambda d: d.assign(round=d["round"] + 0.5), "whole battle-round numbers")])
def test_survival_checks_its_data_interface(change, pattern):
    with pytest.raises(OptionError, match=pattern):
        charts.survival(change(survival_frame()))


def test_save_rejects_unknown_formats(tmp_path, exact_result):
    with pytest.raises(OptionError, match=r"\.png, \.svg or \.pdf"):
        charts.save(exact_result.plot(), tmp_path / "chart.jpg")


def test_svg_is_reproducible(tmp_path, exact_result):
    a = charts.save(exact_result.plot(), tmp_path / "a.svg").read_bytes()
    b = charts.save(exact_result.plot(), tmp_path / "b.svg").read_bytes()
    assert a == b


def test_no_pyplot_figures_accumulate(exact_result):
    import matplotlib.pyplot as plt

    before = len(plt.get_fignums())
    for _ in range(3):   # one leaked figure per call would show at once
        exact_result.plot()
    assert len(plt.get_fignums()) == before


def test_axes_of_a_subfigure_are_refused_in_one_line(exact_result, grid):
    # found by mypy (Axes.figure is Figure | SubFigure): axes of a matplotlib subfigure used
    # to end in an AttributeError traceback ('SubFigure' object has no attribute
    # 'get_figwidth'); a chart sizes its text from a whole figure's inches
    from matplotlib.figure import Figure

    def subfigure_axes():
        return Figure().subfigures(1, 2)[0].subplots()

    sweep = mh.sweep([HB], ["MEQ"], "save", [2, 3], method="exact")
    for draw in (lambda ax: charts.distribution(exact_result, ax=ax),
                 lambda ax: charts.overlay([exact_result], ax=ax),
                 lambda ax: charts.bars(grid, ax=ax),
                 lambda ax: charts.heatmap(grid, ax=ax),
                 lambda ax: charts.sweep_lines(sweep, ax=ax)):
        with pytest.raises(OptionError, match=r"^ax= is an axes of a matplotlib subfigure: "
                                              r"draw the chart in axes of a figure"):
            draw(subfigure_axes())
    art = charts.distribution(exact_result, ax=Figure().subplots())  # a figure's axes draw
    assert len(art.bars) > 0
