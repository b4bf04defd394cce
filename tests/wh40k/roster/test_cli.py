"""``mathhammer roster`` (wh40k/roster/cli.py) on leaders_11e.json (a Captain and an Ancient
leading five Intercessors; two Hellblasters)."""

import json

import pytest

from mathhammer.cli import main

from .conftest import FILES

LIST = str(FILES / "leaders_11e.json")


def test_listing(capsys):
    assert main(["roster", LIST]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith("11th edition, 245 points")
    assert "Captain: 1 model(s), 80 points (attached to Intercessor Squad)" in out


def test_one_wound_target_by_hand(capsys):
    # the Intercessor Squad shoots one T4 W1 model without a save: ten bolt rifle attacks
    # (hit 3+, wound 4+: 1/3 each), the Captain's two (hit 2+: 5/12 each) and the Ancient's
    # pistol (1/3; its only ranged weapon). P(no wound) = (2/3)^11 (7/12)^2.
    assert main(["roster", LIST, "--target", "T4 Sv7+ W1", "--phase", "shooting", "--exact",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    p = next(r["value"] for r in rows if r["attacker"] == "Intercessor Squad"
             and r["metric"] == "p_unit_destroyed")
    assert p == pytest.approx(1 - (2 / 3) ** 11 * (7 / 12) ** 2, rel=1e-12)


def test_to_scenario_and_errors(tmp_path, capsys):
    out = tmp_path / "army.toml"
    assert main(["roster", LIST, "--to-scenario", str(out)]) == 0
    assert '[units."Intercessor Squad"]' in out.read_text()
    assert main(["roster", LIST, "--target", "MEQ", "--phase", "melee"]) == 2
    assert "invalid choice: 'melee'" in capsys.readouterr().err


def test_an_example_list_without_a_file():
    from mathhammer.wh40k.roster.api import example, load_roster
    from tests.hostile import refused, run_cli

    status, out, err, _ = run_cli(["roster", "--example", "orks"])
    assert status == 0, err
    army = load_roster(example("orks"))
    assert out.splitlines()[0].endswith(f"{army.points} points")
    assert all(f"{e.name}:" in out for e in army.entries)
    refused(["roster"], "give a roster FILE", "--example orks")
    refused(["roster", "army.ros", "--example", "orks"], "not both")
