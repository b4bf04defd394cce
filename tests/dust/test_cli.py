"""``mathhammer dust ...`` through :func:`mathhammer.cli.main`: exit codes and output."""

import json

import pytest

from mathhammer.cli import main

WEAPON = "4x Shotgun: 3/1"
TARGET = "5x Laser Grenadier: INFANTRY2 [SOFT COVER]"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def check_block(block):
    pmf = {int(k): v for k, v in block["pmf"].items()}
    assert sum(pmf.values()) == pytest.approx(1.0, abs=1e-9)
    assert sum(k * v for k, v in pmf.items()) == pytest.approx(block["mean"], abs=1e-9)


def test_exact_json(capsys):
    code, out, err = run(capsys, "dust", "exact", WEAPON, "--target", TARGET, "--json")
    assert code == 0 and not err
    data = json.loads(out)
    assert data["method"] == "exact"
    for key in ("hits", "damage", "models_destroyed"):
        check_block(data[key])
    assert data["hits"]["mean"] == pytest.approx(4.0)
    assert data["damage"]["mean"] == pytest.approx(8 / 3)
    assert 0 <= data["unit_destroyed"] <= 1


def test_simulate_json_echoes_trials_seed_and_stderr(capsys):
    argv = ["dust", "simulate", WEAPON, "17-pounder: 4/1 [IGNORES COVER]", "--target", TARGET,
            "--trials", "20000", "--seed", "4", "--json"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    data = json.loads(out)
    assert (data["method"], data["trials"], data["seed"]) == ("monte-carlo", 20000, 4)
    for key in ("hits", "damage", "models_destroyed"):
        check_block(data[key])
        assert data[key]["stderr"] > 0
    assert run(capsys, *argv)[1] == out


def test_sustained_and_vehicle_target_text(capsys):
    code, out, _ = run(capsys, "dust", "exact", "Bazooka: 3/2", "--target",
                       "Luther: VEHICLE6 BOXES4 [HARD COVER]", "--sustained")
    assert code == 0
    assert "sustained attack" in out and "boxes lost" in out and "P(unit destroyed)" in out


def test_unit_file_weapon_card(capsys, tmp_path):
    path = tmp_path / "units.toml"
    path.write_text('[units.Pounder]\nprofile = "VEHICLE6 BOXES4"\n'
                    'weapons = ["17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1"]\n')
    code, out, _ = run(capsys, "dust", "exact", f"{path}#Pounder/17-pounder", "--target",
                       "Luther: VEHICLE6 BOXES4", "--json")
    assert code == 0
    assert json.loads(out)["hits"]["mean"] == pytest.approx(5 / 3)


def test_table(capsys):
    code, out, _ = run(capsys, "dust", "table", "Gun: 3/1", "--json")
    assert code == 0
    rows = json.loads(out)["expected_losses"]
    assert len(rows) == 4 + 7 + 3
    first = rows[0]
    assert (first["open"], first["soft"], first["hard"]) == pytest.approx((1.0, 2 / 3, 1 / 3))
    code, out, _ = run(capsys, "dust", "table", "Gun: 3/1", "--models", "2")
    assert code == 0 and "infantry" in out


@pytest.mark.parametrize("argv, message", [
    (["dust", "exact", "4x Shotgun 3/1", "--target", TARGET], "missing ':'"),
    (["dust", "exact", WEAPON, "--target", "5x Laser Grenadier: INFANTRY5"], "INFANTRY5"),
    (["dust", "exact", "Gun: 3/1 [IGNORE COVER]", "--target", TARGET], "IGNORES COVER"),
    (["dust", "exact", "-4x Gun: 3/1", "--target", TARGET], "negative"),
    (["dust", "exact", "/nonexistent/u.toml#A/B", "--target", TARGET], "cannot read"),
    (["dust", "exact", WEAPON, "--target", "Jet: AIRCRAFT1 BOXES2"], "sustained"),
    (["dust", "exact", "Gun: 3/1 [RANGE 4]", "--target", TARGET, "--distance", "6"], "range"),
    (["dust", "simulate", WEAPON, "--target", TARGET, "--trials", "0"], "at least 1"),
    (["dust", "exact", "Laser: 3/1 [LASER]", "--target", TARGET, "--laser-chain-depth", "x"],
     "whole number"),
    (["dust", "exact", WEAPON], "--target"),
    (["dust", "exact", WEAPON, "--target", "5x G: INFANTRY2 HERO3"], "hero_joined"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert message in err


def test_unbounded_laser_chain(capsys):
    code, out, _ = run(capsys, "dust", "simulate", "Laser: 4/1 [LASER]", "--target", TARGET,
                       "--laser-chain-depth", "unbounded", "--trials", "50000", "--json")
    assert code == 0
    hits = json.loads(out)["hits"]
    assert abs(hits["mean"] - 2.0) < 5 * hits["stderr"]
    code, _, err = run(capsys, "dust", "exact", "Laser: 4/1 [LASER]", "--target", TARGET,
                       "--laser-chain-depth", "unbounded")
    assert code == 2 and "Monte Carlo" in err


def test_joined_hero_with_switch(capsys):
    code, out, _ = run(capsys, "dust", "exact", "Gun: 9/1", "--target", "3x G: INFANTRY2 HERO2",
                       "--hero-joined", "--json")
    assert code == 0
    data = json.loads(out)
    assert max(int(k) for k in data["models_destroyed"]["pmf"]) == 4
