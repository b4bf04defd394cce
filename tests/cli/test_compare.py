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
