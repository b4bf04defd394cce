"""``mathhammer warmachine {simulate,exact}`` through ``mathhammer.cli.main``."""

from __future__ import annotations

import json
import math

import pytest

HAMMER = "2x Battle hammer: MAT7 POW16 [CHARGE]"
JACK = "Heavy warjack: DEF12 ARM19 BOXES30"
TRENCHERS = "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"


def _run(cli_main, capsys, *argv):
    code = cli_main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _check_block(block, monte_carlo):
    pmf = {int(k): v for k, v in block["pmf"].items()}
    assert math.isclose(sum(pmf.values()), 1.0, abs_tol=1e-9)
    assert math.isclose(sum(k * v for k, v in pmf.items()), block["mean"], abs_tol=1e-9)
    assert ("stderr" in block) == monte_carlo


def test_exact_json(cli_main, capsys):
    code, out, err = _run(cli_main, capsys, "warmachine", "exact", HAMMER, "--target", JACK,
                          "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["method"] == "exact"
    for key in ("damage", "models_destroyed"):
        _check_block(data[key], monte_carlo=False)
    assert data["hit"] == pytest.approx(30 / 36)  # need 5
    assert data["crit"] == pytest.approx(4 / 36)
    assert data["unit_destroyed"] == 0.0
    assert "trials" not in data


def test_simulate_json_is_reproducible(cli_main, capsys):
    argv = ["warmachine", "simulate", HAMMER, "Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 2]",
            "--target", TRENCHERS, "--trials", "20000", "--seed", "5", "--json"]
    code, out, err = _run(cli_main, capsys, *argv)
    assert code == 0
    data = json.loads(out)
    assert data["method"] == "monte-carlo" and data["trials"] == 20000 and data["seed"] == 5
    for key in ("damage", "models_destroyed"):
        _check_block(data[key], monte_carlo=True)
        assert data[key]["stderr"] > 0
    assert 0 <= data["unit_destroyed"] <= 1
    code2, out2, _ = _run(cli_main, capsys, *argv)
    assert code2 == 0 and json.loads(out2) == data


def test_text_output_and_several_targets(cli_main, capsys):
    code, out, _ = _run(cli_main, capsys, "warmachine", "exact", "3x Axe: MAT6 POW12",
                        "--target", "Grunt: DEF12 ARM12", "--target", JACK)
    assert code == 0
    assert "Engine: exact" in out
    assert "Target: Grunt: DEF12 ARM12" in out and f"Target: {JACK}" in out
    assert "boxes marked" in out


def test_rule_switches_reach_the_engine(cli_main, capsys):
    base = ["warmachine", "exact", "Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 1]", "--target",
            "2x Trooper: DEF12 ARM13 BOXES1", "--json"]
    _, off, _ = _run(cli_main, capsys, *base)
    _, on, _ = _run(cli_main, capsys, *base, "--aoe-miss-coverage", "1")
    assert json.loads(on)["models_destroyed"]["mean"] > json.loads(off)["models_destroyed"][
        "mean"]
    _, ones, _ = _run(cli_main, capsys, "warmachine", "exact", "Axe: MAT20 POW12", "--target",
                      "G: DEF12 ARM12", "--json", "--no-all-ones-miss")
    assert json.loads(ones)["hit"] == 1.0


@pytest.mark.parametrize("argv, fragment", [
    (["exact", "2x Battle hammer: MAT7 POW16 [CHARG]", "--target", JACK], "did you mean 'CHARGE'"),
    (["exact", HAMMER, "--target", "Jack: DEF12 ARM19 BOXES0"], "at least one box"),
    (["exact", "-3x Hammer: MAT7 POW16", "--target", JACK], "impossible"),
    (["exact", "Hammer: MAT7", "--target", JACK], "POW"),
    (["simulate", HAMMER, "--target", JACK, "--trials", "0"], "--trials"),
    (["simulate", HAMMER, "--target", JACK, "--seed", "-1"], "--seed"),
    (["exact", HAMMER], "--target"),
    (["exact", HAMMER, "--target", JACK, "--aoe-miss-coverage", "2"], "probability"),
    (["exact", "Claw: MAT6 POW12 [EXTRA ATTACK ON HIT]", "--target", JACK], "needs a cap"),
    (["guess", HAMMER, "--target", JACK], "invalid choice"),
])
def test_bad_input_exits_2_with_one_line(cli_main, capsys, argv, fragment):
    code, out, err = _run(cli_main, capsys, "warmachine", *argv)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.count("\n") == 1 and err.startswith("mathhammer: error:")
    assert fragment in err


def test_grid_transfer_and_crippling_switches(cli_main, capsys):
    grid = "Jack: DEF12 ARM16 [GRID ---L/--LL/-MC/-MC/--RR/---R]"
    code, out, err = _run(cli_main, capsys, "warmachine", "exact",
                          "2x Fist: MAT7 POW16 [CRIPPLED BODY]", "--target", grid,
                          "--apply-crippling", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert {"crippled_C", "crippled_M", "crippled_L", "crippled_R"} <= set(data)
    assert data["hit"] == pytest.approx(30 / 36)  # need 5; Body costs a damage die only
    code, out, err = _run(cli_main, capsys, "warmachine", "exact",
                          "2x Fist: MAT7 POW16 [CRIPPLED BODY]", "--target", grid)
    assert code == 2 and "--apply-crippling" in err and len(err.strip().splitlines()) == 1
    lock = "Lock: DEF12 ARM12 BOXES5 [TRANSFER 1, TRANSFER BOXES 3]"
    code, out, err = _run(cli_main, capsys, "warmachine", "simulate", "Spear: MAT7 POW12",
                          "--target", lock, "--transfer-policy", "lethal", "--trials", "20000",
                          "--json")
    assert code == 0
    data = json.loads(out)
    _check_block(data["damage_transferred"], monte_carlo=True)
    assert abs(data["beast_destroyed"] - 25 / 36) < 5 * math.sqrt(0.25 / 20000)


def test_aoe_reports_each_model(cli_main, capsys):
    code, out, _ = _run(cli_main, capsys, "warmachine", "exact",
                        "Mortar: RAT5 POW14 [BLAST POW 7, CATCHES 1]", "--target",
                        "2x Trooper: DEF12 ARM13 BOXES1", "--aoe-miss-coverage", "0.5", "--json")
    data = json.loads(out)
    assert data["hit_model_2"] == pytest.approx(7 / 12 + 5 / 24)
    assert data["destroyed_model_2"] == pytest.approx(133 / 288)


def test_text_and_chart_name_the_rule_switches(cli_main, capsys, tmp_path):
    """Issue 21 item 5: the header and the chart caption name every non-default rule; the
    default rules add nothing."""
    argv = ["warmachine", "exact", "2x Kharn’s “Axe” – Hammer: MAT7 POW16 [CHARGE]",
            "--target", TRENCHERS]
    code, out, _ = _run(cli_main, capsys, *argv, "--no-tough", "--stationary-def", "3",
                        "--aoe-miss-coverage", "0.25")
    assert code == 0
    assert ("Rules:  DEF 3 for knocked-down or stationary models (default 5), no Tough rolls, "
            "a missed AOE still covers a listed model 25% of the time") in out
    assert "Kharn’s “Axe” – Hammer" in out
    code, out, _ = _run(cli_main, capsys, *argv, "--markdown", "--no-tough")
    assert code == 0 and "- Rules: `no Tough rolls`" in out and "rules: no Tough rolls" in out
    code, out, _ = _run(cli_main, capsys, *argv)
    assert code == 0 and "Rules" not in out and "rules:" not in out
