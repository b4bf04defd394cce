"""Options every command shares (cli/options.py): argparse types and the parser."""

import argparse

import pytest

from mathhammer.cli.options import (ArgumentParser, OnlyOnce, add_monte_carlo_options,
                                    chart_path, digits_value, dpi_value, non_negative_int,
                                    positive_int, size_value, trials_or_auto)
from mathhammer.errors import OptionError


def test_whole_number_types():
    assert positive_int("1000") == 1000 and non_negative_int("0") == 0
    assert trials_or_auto(" AUTO ") == "auto" and trials_or_auto("50") == 50
    for bad, message in (("0", "must be at least 1"), ("1e3", "not a whole number"),
                         ("٣", "not a whole number"), ("1_000", "not a whole number"),
                         ("_1000", "not a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=message):
            positive_int(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="must not be negative"):
        non_negative_int("-1")
    # a seed fits 64 bits: 2**64 is one too many
    assert non_negative_int(str(2**64 - 1)) == 2**64 - 1
    with pytest.raises(argparse.ArgumentTypeError, match="too large"):
        non_negative_int(str(2**64))


def test_chart_options():
    assert dpi_value("300") == 300
    with pytest.raises(argparse.ArgumentTypeError, match="from 20 to 1200"):
        dpi_value("19")
    assert size_value("7x4.2") == (7.0, 4.2) and size_value(" 10 × 5 ") == (10.0, 5.0)
    with pytest.raises(argparse.ArgumentTypeError, match="from 1 to 40 inches"):
        size_value("0.5x4")
    with pytest.raises(argparse.ArgumentTypeError, match="WIDTHxHEIGHT"):
        size_value("7 by 4")
    assert digits_value("6") == 6
    with pytest.raises(argparse.ArgumentTypeError, match="from 1 to 6"):
        digits_value("0")
    with pytest.raises(argparse.ArgumentTypeError, match="give a .png, .svg or .pdf"):
        chart_path("chart.gif")


def test_parser_errors_are_one_line_option_errors(tmp_path):
    assert chart_path(str(tmp_path / "c.svg")).endswith("c.svg")
    parser = ArgumentParser(prog="mathhammer simulate")
    add_monte_carlo_options(parser, allow_auto=True, default_trials=1000)
    args = parser.parse_args(["--trials", "auto", "--seed", "7"])
    assert (args.trials, args.seed, args.quiet, args.target_stderr) == ("auto", 7, False, None)
    assert parser.parse_args([]).trials == 1000
    with pytest.raises(OptionError, match=r"see 'mathhammer simulate --help'"):
        parser.parse_args(["--trials", "0"])


def test_only_once():
    parser = ArgumentParser(prog="mh")
    parser.add_argument("--target", action=OnlyOnce)
    assert parser.parse_args(["--target", "MEQ"]).target == "MEQ"
    with pytest.raises(OptionError, match="given twice: keep one; to compare several targets"):
        parser.parse_args(["--target", "MEQ", "--target", "TEQ"])


def test_an_output_naming_an_input_file_is_refused_and_the_input_kept(tmp_path):
    import shutil

    import mathhammer as mh
    from tests.hostile import refused

    roster = tmp_path / "r.ros"
    shutil.copy("tests/wh40k/roster/files/marines_10e.ros", roster)
    scenario = tmp_path / "sc.toml"
    shutil.copy("examples/shoot_charge_fight.toml", scenario)
    targets = tmp_path / "t.toml"
    targets.write_text("[Foo]\nT = 4\nSv = 3\nW = 2\nmodels = 5\n", encoding="utf-8")
    before = {path: path.read_bytes() for path in (roster, scenario, targets)}
    weapon = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
    for argv, option, path in (
            (["roster", str(roster), "--to-scenario"], "--to-scenario", roster),
            (["run", str(scenario), "--trials", "100", "--csv"], "--csv", scenario),
            (["exact", weapon, "--target", "Foo", "--targets-file", str(targets), "--csv"],
             "--csv", targets),
            (["meta", str(tmp_path), "--csv"], "--csv", roster)):
        refused([*argv, str(path)], f"{option} '{path}' is a file this command reads",
                f"give {option} another file name")
    assert before == {path: path.read_bytes() for path in before}
    with pytest.raises(OptionError, match="it is the roster file this list was read from"):
        mh.load_roster(roster).to_toml(roster)
    assert roster.read_bytes() == before[roster]
