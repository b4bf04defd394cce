"""``mathhammer run`` (wh40k/scenario/cli.py): the file's rounds, editions and switches
overridden from the command line, on a scenario whose answer is known by hand."""

import json

import pytest

from mathhammer.cli import main

SCENARIO = """
[units.Shooter]
models = [{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2",
            weapons = ["Flamer: 12\\" A1 BSN/A S4 AP0 D1 [TORRENT]"] }]

[units.Targets]
models = [{ name = "Trooper", count = 10, profile = "T4 Sv7+ W1" }]

[[activations]]
phase = "shooting"
attacker = "Shooter"
target = "Targets"
"""


@pytest.fixture
def scenario_file(tmp_path):
    path = tmp_path / "flamer.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def run(capsys, *argv):
    assert main(["run", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_rounds_override(scenario_file, capsys):
    # one automatic hit a round, wounding on 4+ (S4 vs T4), no save: 1/2 a round, so two
    # rounds are Binomial(2, 1/2): 1/4, 1/2, 1/4
    out = run(capsys, scenario_file, "--trials", "20000", "--rounds", "2")
    lost = out["units"]["Targets"]["models_destroyed"]
    assert abs(lost["mean"] - 1.0) < 5 * lost["stderr"]
    assert set(lost["pmf"]) == {"0", "1", "2"}
    assert abs(lost["pmf"]["1"] - 0.5) < 5 * (0.25 / 20000) ** 0.5
    assert out["trials"] == 20000 and out["seed"] == 1


def test_edition_override_is_named(scenario_file, capsys):
    assert main(["run", str(scenario_file), "--trials", "1000", "--edition", "10"]) == 0
    assert "10th-edition rules" in capsys.readouterr().out


def test_bad_switch_is_one_line(scenario_file, capsys):
    assert main(["run", str(scenario_file), "--precision-pick", "Nobody"]) == 2
    err = capsys.readouterr().err.strip()
    assert "precision_pick = 'Nobody'" in err and len(err.splitlines()) == 1
