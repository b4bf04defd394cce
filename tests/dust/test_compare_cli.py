"""``mathhammer dust compare``: a grid of weapons against targets from the command line, the
same frame as :func:`mathhammer.dust.comparisons.compare`."""

from __future__ import annotations

import json

import pytest

from mathhammer.cli import main
from mathhammer.core.frames import to_json_dict
from mathhammer.dust.comparisons import compare, sweep

GUN = "Gun: 6/1"
SHOTGUN = "4x Shotgun: 3/1"
SQUAD = "5x G: INFANTRY2"
TANK = "Luther: VEHICLE6 BOXES4"


def _run(capsys, *argv):
    code = main(["dust", "compare", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _same(out: str, frame) -> bool:
    return json.loads(out) == json.loads(json.dumps(to_json_dict(frame)))


def test_json_is_the_api_frame_and_the_hits_by_hand(capsys):
    code, out, err = _run(capsys, GUN, f"{SHOTGUN} + {GUN}", "--target", SQUAD, "--target",
                          TANK, "--json")
    assert code == 0 and err == ""
    assert _same(out, compare([GUN, [SHOTGUN, GUN]], [SQUAD, TANK]))
    hits = {(r["attacker"], r["target"]): r["value"] for r in json.loads(out)["rows"]
            if r["metric"] == "expected_hits"}
    assert hits["Gun", "5x G"] == pytest.approx(6 / 3)   # six dice, a hit on one face in 3


def test_sweep_sustained_as_the_api_and_by_hand(capsys):
    code, out, _ = _run(capsys, GUN, "--target", SQUAD, "--sweep", "sustained=no,yes",
                        "--json")
    assert code == 0
    assert _same(out, sweep(GUN, SQUAD, "sustained", [False, True]))
    hits = [r["value"] for r in json.loads(out)["rows"] if r["metric"] == "expected_hits"]
    assert hits == pytest.approx([6 / 3, 6 * 5 / 9])   # a miss rolled again: 1/3 + 2/3 * 1/3


def test_situation_and_rule_options_reach_every_cell(capsys):
    gun, covered = "Gun: 6/2", "5x G: INFANTRY2 [SOFT COVER]"   # 2 damage a hit: per hit or
    # per damage point differ
    code, out, _ = _run(capsys, gun, "--target", covered, "--sustained", "--distance", "3",
                        "--cover-save-per", "damage_point", "--json")
    assert code == 0
    assert _same(out, compare(gun, covered, sustained=True, distance=3,
                              cover_save_per="damage_point"))
    assert not _same(out, compare(gun, covered, sustained=True, distance=3))


def test_monte_carlo_is_seeded_as_the_api(capsys):
    code, out, _ = _run(capsys, GUN, "--target", SQUAD, "--monte-carlo", "--trials", "5000",
                        "--seed", "4", "--json")
    assert code == 0 and _same(out, compare(GUN, SQUAD, method="monte-carlo", trials=5000, seed=4))


def test_plain_table_and_markdown_show_every_cell(capsys, tmp_path):
    code, out, _ = _run(capsys, GUN, SHOTGUN, "--target", SQUAD, "--target", TANK)
    assert code == 0 and out.startswith("Engine: exact\n")
    assert "Gun" in out and "4x Shotgun" in out and out.count("Luther") == 2
    assert len([line for line in out.splitlines() if line.endswith("%")]) == 4   # 4 cells
    png = tmp_path / "heat.png"
    code, out, _ = _run(capsys, GUN, SHOTGUN, "--target", SQUAD, "--target", TANK,
                        "--markdown", "--metric", "expected_damage", "--plot", str(png))
    assert code == 0 and "| attacker | sustained | 5x G | Luther |" in out
    assert len([line for line in out.splitlines() if line.startswith("| ")]) == 3
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize("argv,named", [
    (["--sweep", "weapons=1,2"], "weapons"),
    (["--sweep", "distance"], "distance"),
    (["--metric", "nope"], "nope"),
    (["--chart", "lines", "--plot", "x.png"], "--sweep"),
])
def test_bad_options_are_one_line_naming_the_token(capsys, tmp_path, argv, named):
    argv = [str(tmp_path / a) if a == "x.png" else a for a in argv]
    code, out, err = _run(capsys, GUN, "--target", SQUAD, *argv)
    assert code == 2 and out == "" and named in err
    assert len(err.strip().splitlines()) == 1


def test_laser_chain_depth_swept_to_unbounded(capsys):
    code, out, _ = _run(capsys, "Laser: 2/1 [LASER]", "--target", SQUAD, "--sweep",
                        "laser_chain_depth=0,unbounded", "--json")
    assert code == 0
    hits = {r["laser_chain_depth"]: r["value"] for r in json.loads(out)["rows"]
            if r["metric"] == "expected_hits"}
    assert set(hits) == {0, None} and hits[None] > hits[0]   # extra laser dice hit too
    assert _same(out, sweep("Laser: 2/1 [LASER]", SQUAD, "laser_chain_depth", [0, None]))


@pytest.mark.parametrize("field,value", [
    ("hero_joined", "no"), ("split_weapon_line", 1), ("laser_chain_depth", "x"),
    ("laser_chain_depth", 1.5), ("aircraft_levels", 2.0), ("aircraft_levels", True)])
def test_rules_refuse_values_of_the_wrong_kind(field, value):
    from mathhammer.dust.profiles import Rules
    from mathhammer.errors import OptionError

    with pytest.raises(OptionError, match=field):
        Rules(**{field: value})
