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
    code, out, err = run(capsys, "dust", "exact", "Laser: 4/1 [LASER]", "--target", TARGET,
                         "--laser-chain-depth", "unbounded", "--json")
    assert code == 0 and not err
    # 4 dice, each 1/2 a hit on average with an unbounded chain (1/3 + 1/3 * 1/3 + ...)
    assert json.loads(out)["hits"]["mean"] == pytest.approx(2.0, abs=1e-12)


def test_joined_hero_with_switch(capsys):
    code, out, _ = run(capsys, "dust", "exact", "Gun: 9/1", "--target", "3x G: INFANTRY2 HERO2",
                       "--hero-joined", "--json")
    assert code == 0
    data = json.loads(out)
    assert max(int(k) for k in data["models_destroyed"]["pmf"]) == 4


def test_table_csv_markdown_and_plot(capsys, tmp_path):
    import pandas as pd

    csv, png = tmp_path / "table.csv", tmp_path / "table.png"
    pounder = "17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1"
    code, out, err = run(capsys, "dust", "table", pounder, "--markdown", "--csv", str(csv),
                         "--plot", str(png))
    assert code == 0 and not err
    assert "| infantry | 1 | 1.33 | 0.889 | 0.444 |" in out  # 4 dice at 1/3, 2/9, 1/9
    assert "| target class | armour | in the open | soft cover | hard cover |" in out
    assert "| aircraft | 1 | - | - | - |" in out  # no aircraft cells on the line
    frame = pd.read_csv(csv)
    assert list(frame.columns) == ["target_class", "armour", "open", "soft", "hard"]
    assert len(frame) == 14 and frame.loc[0, "soft"] == pytest.approx(8 / 9)
    assert frame.loc[13, ["open", "soft", "hard"]].isna().all()
    assert png.stat().st_size > 10_000
    code, _, err = run(capsys, "dust", "table", "Gun: 3/1", "--plot-outcome", "damage")
    assert code == 2 and "unrecognized arguments: --plot-outcome" in err


def _exchange_argv(*extra):
    return ["dust", "exchange", "seed.toml#Pounder", "seed.toml#Assault Rangers", *extra]


def test_exchange_exact_matches_the_api(capsys):
    from mathhammer.dust import Combatant, exchange, load_unit

    code, out, err = run(capsys, *_exchange_argv("--rounds", "2", "--casualty-policy",
                                                 "random", "--b-cover", "soft", "--json"))
    assert code == 0 and not err
    data = json.loads(out)
    api = exchange(load_unit("seed.toml", "Pounder"),
                   Combatant(load_unit("seed.toml", "Assault Rangers"), cover="soft"),
                   rounds=2, casualty_policy="random")
    assert data["method"] == "exact"
    assert data["b_losses"]["mean"] == pytest.approx(api.mean("b_losses"), abs=1e-12)
    assert data["b_destroyed"] == pytest.approx(api.probability("b_destroyed"), abs=1e-12)
    check_block(data["b_losses"])


def test_exchange_monte_carlo_text_csv_and_plot(capsys, tmp_path):
    csv, png = tmp_path / "x.csv", tmp_path / "x.png"
    code, out, err = run(capsys, *_exchange_argv("--method", "monte-carlo", "--trials", "20000",
                                                 "--seed", "3", "--csv", str(csv), "--plot",
                                                 str(png)))
    assert code == 0 and not err
    assert "Exchange: Pounder (A, fires first) vs Assault Rangers (B), 1 round" in out
    assert "20,000 trials" in out or "20000" in out
    assert csv.read_text().startswith("outcome,value,probability,at_least")
    assert png.stat().st_size > 10_000
    code, out, _ = run(capsys, *_exchange_argv("--method", "monte-carlo", "--trials", "20000",
                                               "--seed", "3", "--json"))
    data = json.loads(out)
    assert data["trials"] == 20000 and data["seed"] == 3 and "stderr" in data["b_losses"]


@pytest.mark.parametrize("argv, message", [
    (["dust", "exchange", "Pounder", "seed.toml#Pounder"], "FILE.toml#UNIT"),
    (["dust", "exchange", "seed.toml#Pounder", "seed.toml#Rangers"], "did you mean"),
    (_exchange_argv("--trials", "500"), "--method monte-carlo"),
    (_exchange_argv("--rounds", "0"), "--rounds"),
    (_exchange_argv("--a-weapons", "Shotgun"), "Shotgun"),
    (_exchange_argv("--casualty-policy", "nearest"), "--casualty-policy"),
])
def test_exchange_errors_are_one_line(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert message in err


def test_fire_plan_split_fire_seed_d2(capsys, tmp_path):
    # Seed D2: .30 and .50 (3 dice each) at a 2-model squad, the 17-pounder at a walker
    argv = ["dust", "fire-orders", "--fire", ".30 cal: 3/1", "2x Grenadier: INFANTRY2",
            "--fire", ".50 cal: 3/1", "2x Grenadier: INFANTRY2",
            "--fire", "17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1",
            "Walker: VEHICLE2 BOXES4"]
    code, out, err = run(capsys, *argv, "--json", "--csv", str(tmp_path / "p.csv"))
    assert code == 0 and not err
    data = json.loads(out)
    squad, walker = data["targets"]
    assert squad["target"] == "2x Grenadier: INFANTRY2" and len(squad["weapons"]) == 2
    assert squad["unit_destroyed"] == pytest.approx(473 / 729)
    assert squad["damage_wasted"] == pytest.approx(233 / 729)
    assert squad["overkill"]["mean"] == pytest.approx(320 / 729)
    assert walker["hits"]["mean"] == pytest.approx(7 / 3)
    check_block(walker["boxes_lost"])
    assert "target" in (tmp_path / "p.csv").read_text().splitlines()[0]
    code, out, _ = run(capsys, *argv, "--method", "monte-carlo", "--trials", "20000",
                       "--seed", "2", "--json")
    mc = json.loads(out)
    assert mc["method"] == "monte-carlo" and "stderr" in mc["targets"][0]["hits"]
    code, out, _ = run(capsys, *argv, "--markdown")
    assert code == 0 and "- Target 2: Walker: VEHICLE2 BOXES4" in out


@pytest.mark.parametrize("extra, message", [
    (["--fire", "Gun: INF 2/1 - - - VEH - - - - - - -", "Walker: VEHICLE2 BOXES4"],
     "cannot attack"),
    (["--trials", "100"], "--method monte-carlo"),
])
def test_fire_plan_errors_are_one_line(capsys, extra, message):
    code, out, err = run(capsys, "dust", "fire-orders", "--fire", "Gun: 3/1", "2x G: INFANTRY2",
                         *extra)
    assert code == 2 and not out and len(err.strip().splitlines()) == 1 and message in err


def test_table_caption_names_the_rule_switches(capsys, tmp_path, monkeypatch):
    """Issue 21 item 5: the table's caption (markdown and chart) names every non-default
    rule, wrapped inside the canvas."""
    import matplotlib

    matplotlib.use("Agg")
    from tests.charts.test_geometry import assert_no_overlaps, assert_texts_inside, rendered

    line = "4x Laser “Heavy” – Cannon: 3/1 [LASER]"
    switches = ["--ruleset", "dust1947", "--cover-save-per", "damage_point",
                "--laser-chain-depth", "3", "--hero-joined"]
    code, out, err = run(capsys, "dust", "table", line, "--models", "5", "--markdown",
                         *switches)
    assert code == 0 and not err
    words = ["Dust 1947 rules", "a cover save cancels a damage point (not a hit)",
             "laser extra dice 3 generations deep", "a joined hero is the squad's last casualty"]
    assert "; rules: " + ", ".join(words) in out and "Laser “Heavy” – Cannon" in out
    code, out, _ = run(capsys, "dust", "table", line, "--markdown")
    assert code == 0 and "rules:" not in out
    import mathhammer.dust.cli as dust_cli

    figures = []

    monkeypatch.setattr(dust_cli, "save_chart", lambda figure, args: figures.append(figure))
    code, _, err = run(capsys, "dust", "table", line, "--models", "5", "--boxes", "4",
                       "--sustained", "--plot", str(tmp_path / "t.png"), *switches)
    assert code == 0 and not err and len(figures) == 1
    caption = " ".join(figures[0]._supxlabel.get_text().split())
    assert all(w in caption for w in words)
    renderer = rendered(figures[0])
    assert_texts_inside(figures[0], renderer)
    assert_no_overlaps(figures[0], renderer)


def test_headers_name_the_rule_switches(capsys):
    argv = ["dust", "exact", "4x Shotgun: 3/1", "--target", "5x Grenadier: INFANTRY2"]
    code, out, _ = run(capsys, *argv, "--ruleset", "dust1947", "--cover-save-per",
                       "damage_point")
    assert code == 0
    assert "Rules:   Dust 1947 rules, a cover save cancels a damage point (not a hit)" in out
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "Rules" not in out


def test_fire_plan_is_the_old_name_of_fire_orders(capsys):
    """``dust fire-plan`` still answers for one release, saying its new name on stderr."""
    argv = ["--fire", "Gun: 3/1", "2x G: INFANTRY2", "--json"]
    code, old, err = run(capsys, "dust", "fire-plan", *argv)
    assert code == 0 and "now 'mathhammer dust fire-orders'" in err
    code, new, err = run(capsys, "dust", "fire-orders", *argv)
    assert code == 0 and not err and new == old
