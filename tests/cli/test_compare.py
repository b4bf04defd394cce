"""What every game's ``compare`` command shares (cli/compare.py)."""

from __future__ import annotations

import argparse

import pytest

from mathhammer.cli.compare import chart_kind, parse_sweep, sweep_value
from mathhammer.errors import OptionError


@pytest.mark.parametrize("text,value", [
    ("yes", True), ("Off", False), ("3", 3), ("-1", -1), ("0.5", 0.5), (".25", 0.25),
    ("lethal", "lethal"), ("٣", "٣"), ("1_0", "1_0"), ("1e3", "1e3")])
def test_sweep_values(text, value):
    got = sweep_value(text)
    assert got == value and type(got) is type(value)


def test_parse_sweep_names_and_refusals():
    assert parse_sweep(" hit-mod = -1, 0 ,1 ") == ("hit_mod", [-1, 0, 1])
    for bad in ("hit_mod", "=1,2", "hit_mod=", "hit_mod=,"):
        with pytest.raises(OptionError, match="PARAM=V1,V2"):
            parse_sweep(bad)


def test_chart_kind_defaults_and_lines_need_a_sweep():
    def args(**kw):
        return argparse.Namespace(**{"sweep": None, "plot_kind": None, **kw})
    assert chart_kind(args()) == "heatmap"
    assert chart_kind(args(sweep="save=2,3")) == "lines"
    assert chart_kind(args(sweep="save=2,3", plot_kind="bars")) == "bars"
    with pytest.raises(OptionError, match="needs --sweep"):
        chart_kind(args(plot_kind="lines"))


def test_the_plain_table_names_its_metrics_in_words():
    from tests.hostile import run_cli

    status, out, err, _ = run_cli(["compare", "Gun: A2 BS3+ S4 AP0 D1", "--target", "MEQ",
                                   "--exact"])
    assert status == 0, err
    header = out.splitlines()[1]
    assert "expected wounds lost" in header and "P(unit destroyed)" in header
    assert "expected_damage" not in out   # identifiers stay in JSON and CSV
    status, out, _, _ = run_cli(["compare", "Gun: A2 BS3+ S4 AP0 D1", "--target", "MEQ",
                                 "--exact", "--json"])
    assert status == 0 and "expected_damage" in out


def test_a_chart_beyond_its_limit_is_refused_before_any_cell_runs(monkeypatch):
    # 200 weapon lines x 200 targets --plot: 137 s and 6.9 GB drawing a heat map 20,322
    # pixels wide, after the grid had run
    from mathhammer.core import limits
    from tests.hostile import refused

    def no_cell(*args, **kwargs):
        raise AssertionError("a cell ran")

    monkeypatch.setattr("mathhammer.core.game.compare", no_cell)
    monkeypatch.setattr(limits, "MAX_HEATMAP_CELLS", 5)
    monkeypatch.setattr(limits, "MAX_CHART_SERIES", 1)
    guns = ["Gun: A2 BS3+ S4 AP0 D1", "Gun 2: A1 BS3+ S8 AP-2 D2"]
    grid = ["compare", *guns, "--target", "MEQ", "--target", "GEQ", "--target", "TEQ",
            "--exact", "--plot", "grid.png"]
    refused(grid, "a heat map of 6 cells (2 attackers x 3 targets) is more than 5 cells")
    refused([*grid, "--chart", "overlay"], "an overlay of 6 curves (2 attackers x 3 targets)")
    refused([*grid[:5], "--exact", "--plot", "g.png", "--sweep", "hit_mod=-1,0,1",
             "--chart", "heatmap"],
            "a heat map of 6 cells (2 attackers x 1 target x 3 settings)")
    refused(["warmachine", "compare", "Gun: RAT5 POW10", "--target", "LIGHT_JACK",
             "--target", "HEAVY_JACK", "--plot", "g.png", "--sweep", "tough_allowed=yes,no,yes"],
            "a sweep chart of 2 lines (1 attacker x 2 targets)")   # a line per attacker, target
