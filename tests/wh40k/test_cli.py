import json

import pytest

from mathhammer.cli import main

HB = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'
MEQ = "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_exact_json_shape(capsys):
    code, out, err = run(capsys, "exact", HB, HB, "--target", MEQ, "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["method"] == "exact" and "trials" not in data
    for key in ("damage", "models_destroyed"):
        pmf = {int(k): v for k, v in data[key]["pmf"].items()}
        assert sum(pmf.values()) == pytest.approx(1.0)
        assert sum(k * v for k, v in pmf.items()) == pytest.approx(data[key]["mean"])
    assert 0 <= data["unit_destroyed"] <= 1
    assert "attacker_mortal_wounds" not in data


def test_simulate_json_echoes_trials_and_seed_and_repeats(capsys):
    args = ("simulate", HB, "--target", MEQ, "--trials", "20000", "--seed", "9", "--json")
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    data = json.loads(first)
    assert (data["method"], data["trials"], data["seed"]) == ("monte-carlo", 20000, 9)
    assert data["damage"]["stderr"] > 0
    assert first == second


def test_hazardous_reports_attacker_mortal_wounds(capsys):
    code, out, _ = run(capsys, "exact", 'Plasma: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1, HAZARDOUS]',
                       "--target", MEQ, "--json")
    assert code == 0
    assert json.loads(out)["attacker_mortal_wounds"]["mean"] == pytest.approx(1 / 3)


def test_readable_table(capsys):
    code, out, _ = run(capsys, "exact", HB, "--target", MEQ)
    assert code == 0
    assert "Engine: exact" in out and "models destroyed" in out and "P(unit destroyed)" in out


@pytest.mark.parametrize("argv, fragment", [
    (["simulate", "Bolt rifle: A2 BS3+ S4 AP-1", "--target", MEQ], "missing characteristic D"),
    (["exact", "x: A2D BS3+ S4 AP0 D1", "--target", MEQ], "A2D"),
    (["exact", "x: AD7 BS3+ S4 AP0 D1", "--target", MEQ], "D7"),
    (["exact", "x: A3D BS3+ S4 AP0 D1", "--target", MEQ], "3D"),
    (["exact", "x: A2 BS3+ S4 AP-1 D1 [SUSTAINED HIT 1]", "--target", MEQ], "SUSTAINED HITS 1"),
    (["exact", "x: A2 BS3+ S4 AP-1 D1", "--target", "5x I: T0 Sv3+ W2"], "T0"),
    (["exact", "x: A2 BS3+ S4 AP-1 D1", "--target", "T4 Sv3+ W0"], "W0"),
    (["exact", "x: A2 BS7+ S4 AP-1 D1", "--target", MEQ], "BS7+"),
    (["exact", "x: A2 BS3+ S4 AP-1 D1", "--target", "T4 Sv1+ W2"], "Sv1+"),
    (["exact", "-5x x: A2 BS3+ S4 AP-1 D1", "--target", MEQ], "-5x"),
    (["simulate", HB, "--target", MEQ, "--trials", "0"], "--trials"),
    (["simulate", HB, "--target", MEQ, "--trials", "-3"], "--trials"),
    (["simulate", HB, "--target", MEQ, "--seed", "x"], "--seed"),
    (["exact", HB, "--target", MEQ, "--crit-hits", "7"], "--crit-hits 7"),
    (["exact", HB, "--target", MEQ, "--crit-wounds", "1"], "--crit-wounds 1"),
    (["exact", HB, "--target", MEQ, "--fnp", "9"], "--fnp 9"),
    (["exact", HB, "--target", MEQ, "--damage-minus", "-1"], "--damage-minus"),
    (["exact", HB, "--target", MEQ, "--indirect", "--overwatch"], "choose one"),
    (["exact", HB, "--target", MEQ, "--overwatch", "--crit-hits", "5"], "overwatch"),
    (["exact", HB, "--target", MEQ, "--spotted"], "--spotted"),
    (["exact", HB, "--target", MEQ, "--indirect"], "INDIRECT FIRE"),
    (["exact", HB, "--target", MEQ, "--reroll-hits", "sometimes"], "invalid choice"),
    (["exact", HB, "--target", MEQ, "--trials", "5"], "unrecognized arguments"),
    (["exact", HB], "--target"),
    (["exact", "Thunder hammer: Melee A3 WS3+ S8 AP-2 D2", "--target", MEQ, "--overwatch"],
     "melee"),
])
def test_bad_input_is_one_line_exit_2(capsys, argv, fragment):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert fragment in err


def test_python_m_entry_point():
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-m", "mathhammer", "exact", "x: A1 BS3+ S4 AP0 D1",
                           "--target", "T4 Sv- W1", "--json"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["damage"]["mean"] == pytest.approx(1 / 3)


def test_exact_prints_the_best_damage_reroll_policy(capsys):
    # tests/wh40k/exact_engine/test_policies.py derives this case by hand
    weapon, target = "Gun: A2 BSN/A S8 AP0 DD3 [TORRENT]", "2x T4 Sv- W3"
    code, out, _ = run(capsys, "exact", weapon, "--target", target, "--reroll-damage", "best")
    assert code == 0
    assert "Gun (D3): results to roll again" in out
    assert "Gain over the best fixed policy (ones): +0.0995" in out   # 1525/1458 - 230/243
    code, out, _ = run(capsys, "exact", weapon, "--target", target, "--reroll-damage", "best",
                    "--json")
    data = json.loads(out)
    assert data["models_destroyed"]["mean"] == pytest.approx(1525 / 1458, abs=1e-12)
    assert data["damage_rerolls"]["fixed"]["low"] == pytest.approx(230 / 243, abs=1e-12)
    choices = {(d["wounds_left"], d["rolls_to_come"]): d["reroll"]
               for d in data["damage_rerolls"]["decisions"]}
    assert choices == {(3, 1): "1-2", (3, 0): "1-2", (2, 0): "1", (1, 0): "keep"}


def test_simulate_refuses_the_best_damage_reroll_in_one_line(capsys):
    code = main(["simulate", "Gun: A2 BSN/A S8 AP0 DD3 [TORRENT]", "--target", "2x T4 Sv- W3",
                 "--reroll-damage", "best", "--trials", "1000"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "exact engine" in err
