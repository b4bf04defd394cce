"""``mathhammer roster LIST --against OTHER --optimise``: a whole shooting phase."""

import json
from pathlib import Path

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.wh40k.optimise.roster import ENEMY_SIDE, optimise_shooting, shooting_phase

FILES = Path(__file__).resolve().parents[1] / "roster" / "files"
LIST, OTHER = FILES / "real_11e.json", FILES / "leaders_11e.json"


def test_every_shooting_unit_gets_orders_at_the_other_list():
    army, other = mh.load_roster(LIST), mh.load_roster(OTHER)
    scenario, _ = shooting_phase(army, other)
    shooters = {a.attacker for a in scenario.activations}
    assert shooters and shooters <= {u.name for u in army.units}
    enemies = {u for u, s in scenario.sides.items() if s == ENEMY_SIDE}
    assert enemies == {u.name for u in other.targets}
    result = optimise_shooting(army, other, trials=2_000, seed=1, progress=False)
    assert result.objectives[0].kind == "expected_points_destroyed"
    best = result.orders(result.best.orders)
    assert {o["attacker"] for o in best} == shooters
    assert {o["target"] for o in best} <= enemies
    # the best orders is at least as good as the everything-at-one-target plans, within noise
    value, stderr = result.best.values[0]
    for _, naive in result.naive:
        assert value + 5 * (stderr + naive.values[0][1]) >= naive.values[0][0]


def test_cli_json_and_errors(capsys):
    assert main(["roster", str(LIST), "--against", str(OTHER), "--optimise", "--json",
                 "--trials", "2000", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"objective", "optimal", "method", "ranked"}
    assert data["optimal"] is False and data["method"] in ("enumeration", "search")
    order = data["ranked"][0]["orders"][0]
    assert set(order) >= {"attacker", "weapon", "count", "target", "profile"}
    assert main(["roster", str(LIST), "--optimise"]) == 2
    err = capsys.readouterr().err
    assert "--optimise needs --against" in err and err.count("\n") == 1


def test_situation_options_apply_to_every_activation():
    import pytest

    from mathhammer.errors import OptionError

    army, other = mh.load_roster(LIST), mh.load_roster(OTHER)
    scenario, _ = shooting_phase(army, other, options={"half_range": True, "hit_mod": 1})
    assert all(a.situation.half_range and a.modifiers.hit_mod == 1
               for a in scenario.activations)
    assert scenario.rules.edition == army.edition
    with pytest.raises(OptionError, match="half_rnge"):
        shooting_phase(army, other, options={"half_rnge": True})


def test_cli_buffs_equal_the_api_and_attribution_is_refused(capsys, tmp_path):
    # issue 35: --buff / --buff-other with --optimise, the same numbers as optimise_shooting
    from tests.wh40k.roster.builder import gunner_and_crowd

    gunner, crowd = gunner_and_crowd(tmp_path)
    (tmp_path / "b.toml").write_text('[buffs]\n"Oath" = "re-roll hits (1CP)"\n',
                                     encoding="utf-8")
    assert main(["roster", str(gunner), "--against", str(crowd), "--optimise", "--json",
                 "--buffs", str(tmp_path / "b.toml"), "--buff", "Oath", "--buff", "+1 to wound",
                 "--buff-other", "FNP 5+", "--trials", "2000", "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)
    api = optimise_shooting(mh.load_roster(gunner), mh.load_roster(crowd), trials=2000, seed=1,
                            buffs=["Oath: re-roll hits (1CP)", "+1 to wound"],
                            other_buffs=["FNP 5+"], progress=False)
    assert data["ranked"][0]["value"] == api.value and "Buffs: Oath; +1 to wound" in data["notes"]
    assert abs(api.value - 320 / 81) < 5 * api.best.values[0][1] + 1e-12   # 8/9 x 2/3 x 2/3
    assert main(["roster", str(gunner), "--against", str(crowd), "--optimise",
                 "--buff", "Oath: re-roll hits", "--attribution"]) == 2
    err = capsys.readouterr().err
    assert "--attribution is not applied to --optimise" in err and err.count("\n") == 1
    assert main(["roster", str(gunner), "--against", str(crowd), "--optimise",
                 "--buff", "Oath: re-rol hits"]) == 2
    err = capsys.readouterr().err
    assert "re-rol" in err and err.count("\n") == 1
