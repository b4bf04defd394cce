"""House style and layout helpers (charts/layout.py): text wrapping, series looks,
limits and saving, against values worked out by hand."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mathhammer.charts.layout import (PALETTE, capitalised, fit_limits, new_axes,  # noqa: E402
                                      percent_axis, render, series_hatch, series_style,
                                      title_text, wrap)
from mathhammer.errors import OptionError  # noqa: E402


def test_wrap_breaks_between_words_and_cuts_with_an_ellipsis():
    assert wrap("Lascannon", 20) == "Lascannon"
    assert wrap("Devastator Squad with four lascannons", 18, 2) == \
        "Devastator Squad\nwith four…"
    assert wrap("Supercalifragilistic", 10, 2) == "Supercali…"
    assert len(wrap("a " * 200, 10, 3).split("\n")) == 3


def test_title_text_keeps_the_target_whole():
    long = "Tactical Squad with plasma gun, heavy bolter and power sword vs Terminators"
    text = title_text(long, 20, 2)
    assert text.split("\n")[-1] == "vs Terminators" and text.count("\n") == 1


def test_capitalised_keeps_the_rest():
    assert capitalised("wounds lost (MEQ)") == "Wounds lost (MEQ)" and capitalised("") == ""


def test_series_looks_differ_for_28_series():
    looks = [tuple(sorted(series_style(i).items())) for i in range(28)]
    assert len(set(looks)) == 28
    # seven colours cycle; series i and i + 7 share only the colour
    assert series_style(0)["color"] == series_style(7)["color"] == PALETTE[0]
    assert series_style(0)["linestyle"] == "-" and series_style(7)["linestyle"] == "--"
    assert series_style(7)["markerfacecolor"] == "#ffffff"
    assert [series_hatch(i) for i in (0, 6, 7, 14, 35)] == [None, None, "//", "..", "//"]


def test_fit_limits():
    assert fit_limits(np.array([1.0, 2.0]), probability=False) == (0.0, pytest.approx(2.24))
    assert fit_limits(np.array([-1.0, 2.0]), probability=False)[0] == -1.0
    assert fit_limits(np.array([0.7]), probability=True) == (0.0, 1.04)  # past 60%: 0-100%
    assert fit_limits(np.array([0.2]), probability=True) == (0.0, pytest.approx(0.23))
    assert fit_limits(np.array([5.0]), probability=False, ylim=(1, 3)) == (1.0, 3.0)


@pytest.mark.parametrize("span, decimals", [(1.0, 0), (0.01, 1), (0.001, 2)])
def test_percent_axis_shows_the_decimals_the_span_needs(span, decimals):
    ax = new_axes()
    percent_axis(ax.yaxis, span)
    formatter = ax.yaxis.get_major_formatter()
    assert formatter.decimals == decimals and formatter(0.5).startswith("50")


def test_render_gives_file_bytes_and_refuses_unknown_formats():
    ax = new_axes()
    ax.plot([0, 1], [0, 1])
    assert render(ax, "png")[:8] == b"\x89PNG\r\n\x1a\n"
    assert render(ax, "svg").lstrip().startswith(b"<?xml")
    with pytest.raises(OptionError, match="cannot draw a chart as 'gif'"):
        render(ax, "gif")
    with pytest.raises(OptionError, match="dpi=5"):
        render(ax, "png", dpi=5)
