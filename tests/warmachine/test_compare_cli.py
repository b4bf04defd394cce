"""``mathhammer warmachine compare``: a grid of attacks against target units from the command
line, the same frame as :func:`mathhammer.warmachine.comparisons.compare`."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from mathhammer.core.frames import to_json_dict
from mathhammer.warmachine.comparisons import compare, sweep
from mathhammer.warmachine.profiles import Rules

FIST = "Fist: MAT6 POW12"
HAMMER = "2x Battle hammer: MAT7 POW16 [CHARGE]"
JACK = "Jack: DEF13 ARM14 BOXES30"
TRENCHERS = "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"


def _run(cli_main, capsys, *argv):
    code = cli_main(["warmachine", "compare", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_is_the_api_frame_and_the_numbers_by_hand(cli_main, capsys):
    code, out, err = _run(cli_main, capsys, FIST, HAMMER, "--target", JACK, "--target",
                          TRENCHERS, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == json.loads(json.dumps(to_json_dict(compare([FIST, HAMMER],
                                                              [JACK, TRENCHERS]))))
    damage = {(r["attacker"], r["target"]): r["value"] for r in data["rows"]
              if r["metric"] == "expected_damage"}
    # MAT6 against DEF13 hits on 7+ of 2d6 (21/36); POW12 + 2d6 against ARM14 marks
    # max(0, 2d6 - 2) boxes, 5 on average given a hit (hand count over the 36 rolls)
    assert damage["Fist", "Jack"] == pytest.approx(21 / 36 * 5)
    assert data["method"] == "exact" and data["trials"] is None


def test_joined_attacks_reference_names_and_repeated_labels(cli_main, capsys):
    code, out, _ = _run(cli_main, capsys, f"{FIST} + {FIST}", "--target", "HEAVY_JACK",
                        "--target", "HEAVY_JACK", "--target", TRENCHERS)
    assert code == 0 and out.startswith("Engine: exact\n")
    assert "Fist + Fist" in out and "HEAVY_JACK (2)" in out and "5x Trencher" in out


def test_sweep_over_a_rule_switch(cli_main, capsys):
    code, out, _ = _run(cli_main, capsys, FIST, "--target", TRENCHERS, "--sweep",
                        "tough-allowed=yes,no", "--json")
    assert code == 0
    rows = [r for r in json.loads(out)["rows"] if r["metric"] == "expected_models_destroyed"]
    tough, plain = ({r["tough_allowed"]: r["value"] for r in rows}[k] for k in (True, False))
    # a Tough roll of 5+ saves a third of the kills
    assert tough == pytest.approx(plain * 2 / 3)
    want = sweep(FIST, TRENCHERS, "tough_allowed", [True, False])
    assert [r["value"] for r in json.loads(out)["rows"]] == want["value"].tolist()


def test_monte_carlo_is_seeded_as_the_api(cli_main, capsys):
    code, out, _ = _run(cli_main, capsys, FIST, "--target", JACK, "--monte-carlo",
                        "--trials", "20000", "--seed", "3", "--json")
    assert code == 0
    want = compare(FIST, JACK, method="monte-carlo", trials=20_000, seed=3)
    assert json.loads(out) == json.loads(json.dumps(to_json_dict(want)))


def test_rule_options_reach_every_cell(cli_main, capsys):
    code, out, _ = _run(cli_main, capsys, FIST, "--target", TRENCHERS, "--no-tough",
                        "--json")
    assert code == 0
    want = compare(FIST, TRENCHERS, rules=Rules(tough_allowed=False))
    assert [r["value"] for r in json.loads(out)["rows"]] == want["value"].tolist()


def test_files_and_markdown(cli_main, capsys, tmp_path):
    csv, png = tmp_path / "grid.csv", tmp_path / "grid.png"
    code, out, _ = _run(cli_main, capsys, FIST, HAMMER, "--target", JACK, "--target",
                        TRENCHERS, "--markdown", "--metric", "expected_damage",
                        "--csv", str(csv), "--plot", str(png))
    assert code == 0 and "| attacker | Jack | 5x Trencher |" in out
    frame = compare([FIST, HAMMER], [JACK, TRENCHERS])
    pd.testing.assert_frame_equal(pd.read_csv(csv), frame.reset_index(drop=True),
                                  check_dtype=False, check_exact=False, rtol=1e-12)
    assert png.stat().st_size > 10_000
    overlay = tmp_path / "overlay.svg"
    assert _run(cli_main, capsys, FIST, "--target", JACK, "--plot", str(overlay),
                "--chart", "overlay")[0] == 0
    assert overlay.read_text().startswith("<?xml")


@pytest.mark.parametrize("argv,named", [
    (["--sweep", "nope=1,2"], "nope"),
    (["--sweep", "tough_allowed"], "tough_allowed"),
    (["--sweep", "stationary_base_def=5,x"], "stationary_base_def"),
    (["--metric", "nope"], "nope"),
    (["--chart", "lines", "--plot", "x.png"], "--sweep"),
    (["--sweep", "tough_allowed=yes,no", "--chart", "overlay", "--plot", "x.png"],
     "overlay"),
    (["--trials", "0", "--monte-carlo"], "--trials"),
])
def test_bad_options_are_one_line_naming_the_token(cli_main, capsys, tmp_path, argv, named):
    argv = [str(tmp_path / a) if a == "x.png" else a for a in argv]
    code, out, err = _run(cli_main, capsys, FIST, "--target", JACK, *argv)
    assert code == 2 and out == "" and named in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()


def test_a_bad_target_line_is_one_line(cli_main, capsys):
    code, out, err = _run(cli_main, capsys, FIST, "--target", "Jack: DEF13 ARMX BOXES30")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("value", ["maybe", "1.5", "2"])
def test_a_switch_swept_to_a_non_boolean_is_refused(cli_main, capsys, value):
    """bool('no') is True: a rule switch takes True or False only (a text was a traceback,
    1.5 a silently 'true' switch)."""
    code, out, err = _run(cli_main, capsys, FIST, "--target", JACK, "--sweep",
                          f"all_ones_miss=yes,{value}")
    assert code == 2 and out == "" and "all_ones_miss" in err and "True or False" in err


@pytest.mark.parametrize("field,value", [
    ("tough_allowed", "no"), ("apply_crippling", 1), ("all_ones_miss", None),
    ("aoe_miss_coverage", "0.5"), ("aoe_miss_coverage", float("nan")),
    ("aoe_miss_coverage", True)])
def test_rules_refuse_values_of_the_wrong_kind(field, value):
    from mathhammer.errors import OptionError

    with pytest.raises(OptionError, match=field):
        Rules(**{field: value})
