"""The web page's battles (web/battle.py): a scenario typed on the page, and two lists
written as one scenario."""

import pytest

import mathhammer as mh
from mathhammer.errors import OptionError, ScenarioError
from mathhammer.web.battle import battle_job, per_round, two_lists
from mathhammer.wh40k.scenario.reader import parse_scenario

from ..wh40k.roster.conftest import FILES

FLAMER = '''rounds = 2

[units.Shooter]
models = [{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2",
            weapons = ['Flamer: 12" A1 BSN/A S4 AP0 D1 [TORRENT]'] }]

[units.Targets]
models = [{ name = "Trooper", count = 10, profile = "T4 Sv7+ W1" }]

[[activations]]
phase = "shooting"
attacker = "Shooter"
target = "Targets"
'''


def test_a_battle_round_by_round():
    answer = battle_job({"scenario": FLAMER, "trials": "20000", "seed": "2"})()
    assert "battle.csv" in answer.downloads
    result = mh.run(parse_scenario(FLAMER, "scenario"), trials=20_000, seed=2)
    rounds = per_round(result)
    # one auto-hit wounding on 4+ a round: 0.5 after round 1, 1.0 after round 2
    targets = rounds[rounds["unit"] == "Targets"]
    assert targets["round"].tolist() == ["round 1", "round 2"]
    assert [round(float(v), 1) for v in targets["models destroyed"]] == [0.5, 1.0]


def test_bad_scenarios_are_one_line():
    with pytest.raises(OptionError, match="type a scenario"):
        battle_job({"scenario": "  "})
    with pytest.raises(ScenarioError):
        battle_job({"scenario": "rounds = 2\n"})


def test_two_lists_as_one_scenario():
    first = mh.load_roster(FILES / "leaders_11e.json")
    second = mh.load_roster(FILES / "marines_10e.ros")
    text = two_lists(first, second)
    scenario = parse_scenario(text, "two lists")
    # the second list's Captain and Intercessor Squad are renamed: the first list has them
    assert {"Intercessor Squad (enemy)", "Captain (enemy)"} <= set(scenario.units)
    assert scenario.sides["Intercessor Squad"] == "list"
    assert scenario.sides["Captain (enemy)"] == "enemy"
    # every shooting unit of each side shoots the other side's first unit
    targets = {a.attacker: a.target for a in scenario.activations}
    assert targets["Hellblaster Squad"] == "Captain (enemy)"
    assert targets["Devastator Squad"] == "Intercessor Squad"


def test_buffs_go_on_every_activation_as_if_typed_there():
    # issue 35: the ticked and typed buffs equal buffs = [...] typed in each activation
    typed = "Storm: +1 strength to RANGED weapons"
    answer = battle_job({"scenario": FLAMER, "trials": "20000", "seed": "2",
                         "buff_lethal": "on", "buffs": typed})()
    by_hand = FLAMER.replace('target = "Targets"\n', 'target = "Targets"\nbuffs = '
                             '["Lethal Hits: [LETHAL HITS]", "Storm: +1 strength to RANGED '
                             'weapons"]\n')
    result = mh.run(parse_scenario(by_hand, "scenario"), trials=20_000, seed=2)
    assert answer.downloads["battle.csv"].make().decode() == result.to_frame().to_csv(index=False)
    # one auto-hit, S5 against T4 wounds on 3+ (it was 4+), no save: 2/3 a round
    rounds = per_round(result)
    targets = rounds[rounds["unit"] == "Targets"]
    assert [round(float(v), 2) for v in targets["models destroyed"]] == pytest.approx(
        [2 / 3, 4 / 3], abs=0.02)


def test_bad_buffs_on_the_battle_page_are_one_line():
    from mathhammer.errors import MathhammerError

    with pytest.raises(MathhammerError) as info:
        battle_job({"scenario": FLAMER, "buffs": "Oath: re-roll hitz"})
    assert info.value.token == "hitz" and info.value.location == "buffs line 1"
    assert "\n" not in str(info.value)
    with pytest.raises(ScenarioError, match="defender") as info:
        battle_job({"scenario": FLAMER, "buffs": "FNP 5+"})
    assert "\n" not in str(info.value)
