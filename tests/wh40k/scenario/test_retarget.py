"""``retarget_on_destroyed``: weapons whose target is down before they gather their dice
(spec 3.3, 04.03.03): ``lost`` (default) or ``retarget``.

Scripted trials force every die; ``dice_used`` equal to the faces given proves that no
other dice were rolled (a lost weapon rolls none). The Monte Carlo case compares the
retargeted weapon's damage with the exact single-target engine.
"""

import dataclasses
import json

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.wh40k.scenario.api import run, run_scripted
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.layout import B_FIRST_CONTRIB, B_N_CONTRIBS, B_TARGET
from mathhammer.wh40k.scenario.model import ScenarioRules
from mathhammer.wh40k.scenario.reader import parse_scenario

from .test_monte_carlo import assert_matches

UNITS = """
[units.Gunners]
side = "Marines"
models = [
  { name = "Laser", count = 1, profile = "T4 Sv3+ W2",
    weapons = ["Lascannon: 48\\" A1 BS3+ S12 AP-3 D 6"] },
  { name = "Bolter", count = 1, profile = "T4 Sv3+ W2",
    weapons = ["Bolter: 24\\" A2 BS3+ S4 AP0 D1",
               "Plasma: 24\\" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]",
               "Frag: 48\\" A1 BS3+ S4 AP0 D1 [BLAST]",
               "Hunter-killer: 48\\" A1 BS3+ S10 AP-3 D 6 [ONE SHOT]",
               { name = "Krak", profiles = ["Krak: 48\\" A1 BS3+ S9 AP-2 D 6"],
                 hunter = ["VEHICLE"] }] },
  { name = "Sniper", count = 1, profile = "T4 Sv3+ W2",
    weapons = ["Sniper rifle: 36\\" A1 BS3+ S3 AP0 D1"] },
]

[units.Scout]
side = "Orks"
models = [{ name = "Scout", count = 1, profile = "T4 Sv4+ W1 [INFANTRY]" }]

[units.Allies]
side = "Marines"
models = [{ name = "Ally", count = 5, profile = "T3 Sv5+ W1 [INFANTRY]" }]

[units.Mob]
side = "Orks"
models = [{ name = "Boy", count = 10, profile = "T3 Sv5+ W1 [INFANTRY]" }]

[units.Squad]
side = "Orks"
models = [{ name = "Trooper", count = 5, profile = "T3 Sv5+ W1 [INFANTRY]" }]

[units.Tank]
side = "Orks"
models = [{ name = "Tank", count = 1, profile = "T10 Sv3+ W12 [VEHICLE]" }]

[units.Buggy]
side = "Orks"
models = [{ name = "Buggy", count = 1, profile = "T6 Sv4+ W1 [VEHICLE]" }]
"""

# Lascannon at the Scout: hit 3, wound 2 (S12 vs T4), save 1 (none possible): 6 damage
LASCANNON_KILLS_SCOUT = [3, 2, 1]
# two bolter shots at T3 Sv5+: hits 3 3, wounds 3 3, saves 1 1: two models destroyed
TWO_BOLTER_KILLS = [3, 3, 3, 3, 1, 1]


def scenario(*args, **kwargs):
    return parse_scenario(scenario_text(*args, **kwargs))


def scenario_text(weapons: str, rules: str = "", phase: str = "shooting", extra: str = "",
                  rounds: int = 1, target: str = "Scout") -> str:
    return f"""
rounds = {rounds}

[rules]
{rules}
{UNITS}
{extra}
[[activations]]
phase = "{phase}"
attacker = "Gunners"
target = "{target}"
weapons = {weapons}
"""


RETARGET = 'retarget_on_destroyed = "retarget"'


def destroyed(out, unit):
    return out["units"][unit]["models_destroyed"]


def test_lost_is_the_default_and_stays_lost():
    sc = scenario('["Lascannon", "Bolter"]')
    out = run_scripted(sc, LASCANNON_KILLS_SCOUT)
    assert destroyed(out, "Scout") == 1
    assert out["dice_used"] == 3
    assert all(destroyed(out, u) == 0 for u in ("Mob", "Squad", "Allies", "Tank"))
    explicit = scenario('["Lascannon", "Bolter"]', 'retarget_on_destroyed = "lost"')
    assert compile_scenario(explicit).retarget.shape[1] == 0


def test_shooting_retargets_to_the_first_enemy_unit_in_file_order():
    # no other target named: the Allies (own side) are skipped, the Mob comes first
    sc = scenario('["Lascannon", "Bolter"]', RETARGET)
    faces = LASCANNON_KILLS_SCOUT + TWO_BOLTER_KILLS
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert (destroyed(out, "Scout"), destroyed(out, "Mob"), destroyed(out, "Squad"),
            destroyed(out, "Allies")) == (1, 2, 0, 0)


def test_the_activations_own_targets_come_before_file_order():
    sc = scenario('["Lascannon", "Bolter", { name = "Sniper rifle", target = "Squad" }]',
                  RETARGET)
    # bolter retargeted at the Squad (named by the sniper rifle), then the sniper rifle:
    # hit 3, wound 4 (S3 vs T3), save 1
    faces = LASCANNON_KILLS_SCOUT + TWO_BOLTER_KILLS + [3, 4, 1]
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert (destroyed(out, "Mob"), destroyed(out, "Squad")) == (0, 3)


FIGHTERS = """
[units.Champions]
side = "Marines"
models = [
  { name = "Sarge", count = 1, profile = "T4 Sv3+ W2",
    weapons = ["Power fist: Melee A1 WS3+ S8 AP-2 D 3"] },
  { name = "Blade", count = 1, profile = "T4 Sv3+ W2",
    weapons = ["Chainsword: Melee A2 WS3+ S4 AP0 D1"] },
  { name = "Heavy", count = 1, profile = "T4 Sv3+ W2", weapons = ["Knife: Melee A1 WS3+ S3 AP0 D1"] },
]
"""


def fight(weapons: str, rules: str = RETARGET):
    return parse_scenario(f"""
[rules]
{rules}
{UNITS}
{FIGHTERS}
[[activations]]
phase = "fight"
attacker = "Champions"
target = "Scout"
weapons = {weapons}
""")


# Power fist at the Scout: hit 3, wound 2 (S8 vs T4), save 1 (6+ needed): 3 damage
FIST_KILLS_SCOUT = [3, 2, 1]


def test_a_fight_retargets_to_its_own_other_target():
    sc = fight('["Power fist", "Chainsword", { name = "Knife", target = "Squad" }]')
    # chainsword turned on the Squad (2 kills), then the knife: hit 3, wound 4, save 1
    faces = FIST_KILLS_SCOUT + TWO_BOLTER_KILLS + [3, 4, 1]
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert (destroyed(out, "Scout"), destroyed(out, "Squad"), destroyed(out, "Mob")) == (1, 3, 0)


def test_a_fight_does_not_retarget_outside_its_targets():
    # the Mob and the Squad are enemies but not in this fight: the chainsword (and the
    # Heavy's knife, its default melee weapon) are lost
    sc = fight('["Power fist", "Chainsword"]')
    out = run_scripted(sc, FIST_KILLS_SCOUT)
    assert out["dice_used"] == 3
    assert all(destroyed(out, u) == 0 for u in ("Mob", "Squad", "Tank"))


def test_a_split_melee_weapon_does_not_retarget():
    sc = fight('["Power fist", { name = "Chainsword", split = { Scout = 1, Squad = 1 } }, '
               '{ name = "Knife", target = "Squad" }]')
    # the chainsword's attack at the Scout is lost; at the Squad: its other attack (hit 3,
    # wound 3, save 1), then the knife (hit 3, wound 4, save 1)
    faces = FIST_KILLS_SCOUT + [3, 3, 1] + [3, 4, 1]
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert destroyed(out, "Squad") == 2


def test_a_hunter_profile_only_retargets_to_a_unit_with_its_keywords():
    sc = scenario('["Lascannon", "Krak"]', RETARGET, target="Buggy")
    # the lascannon destroys the Buggy (hit 3, wound 2 (S12 vs T6), save 1); the Krak's
    # Scout, Mob and Squad (INFANTRY) are skipped; the Tank: hit 3, wound 5 (S9 vs T10),
    # save 1
    faces = [3, 2, 1] + [3, 5, 1]
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert out["units"]["Tank"]["wounds_lost"] == 6
    assert destroyed(out, "Buggy") == 1
    assert destroyed(out, "Scout") == destroyed(out, "Mob") == destroyed(out, "Squad") == 0


def test_blast_counts_the_new_targets_models_at_the_start_of_the_activation():
    sc = scenario('["Lascannon", "Frag"]', RETARGET)
    # A1 + 10 Boyz // 5 = 3 dice at the Mob (the Scout, one model, would give 1)
    faces = LASCANNON_KILLS_SCOUT + [3, 3, 3] + [3, 3, 3] + [1, 1, 1]
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert destroyed(out, "Mob") == 3


FIRST_KILLS_SCOUT = """
[[activations]]
phase = "shooting"
attacker = "Gunners"
target = "Scout"
weapons = ["Lascannon"]
"""


@pytest.mark.parametrize("rules, faces, mob, gunner_wounds", [
    # lost: the Scout was destroyed before the activation: plasma not used, no hazard roll
    ("", LASCANNON_KILLS_SCOUT, 0, 0),
    # retarget: plasma at the Mob (hit 3, wound 2, save 1), then its hazard roll: 1 fails
    (RETARGET, LASCANNON_KILLS_SCOUT + [3, 2, 1] + [1], 1, 1),
])
def test_a_retargeted_hazardous_weapon_rolls_for_hazard(rules, faces, mob, gunner_wounds):
    sc = scenario('["Plasma"]', rules, extra=FIRST_KILLS_SCOUT)
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert destroyed(out, "Mob") == mob
    assert out["units"]["Gunners"]["wounds_lost"] == gunner_wounds


@pytest.mark.parametrize("rules, faces, gunners_destroyed", [
    ("edition = 10", LASCANNON_KILLS_SCOUT, 0),
    # plasma at the Mob: hit 3, wound 2, save 1 (impossible); hazard 1: the plasma's bearer
    # (the Bolter model, W2) takes 3 mortal wounds (10e final text) and is destroyed
    (f"edition = 10\n{RETARGET}", LASCANNON_KILLS_SCOUT + [3, 2, 1] + [1], 1),
])
def test_10e_a_retargeted_hazardous_weapons_bearer_takes_the_mortal_wounds(
        rules, faces, gunners_destroyed):
    sc = scenario('["Plasma"]', rules, extra=FIRST_KILLS_SCOUT)
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert out["units"]["Gunners"]["groups"]["Bolter"] == gunners_destroyed
    assert out["units"]["Gunners"]["models_destroyed"] == gunners_destroyed


def test_one_shot_is_kept_per_weapon_when_retargeted():
    sc = scenario('["Lascannon", "Hunter-killer"]', RETARGET, rounds=2)
    # round 1: lascannon kills the Scout, the hunter-killer turns on the Mob (hit 3,
    # wound 2, save 1); round 2: the lascannon turns on the Mob (the Scout is gone), the
    # hunter-killer has fired: no more dice
    faces = LASCANNON_KILLS_SCOUT + [3, 2, 1] + [3, 2, 1]
    out = run_scripted(sc, faces)
    assert out["dice_used"] == len(faces)
    assert destroyed(out, "Mob") == 2


def test_alternative_rows_share_the_batchs_contributions():
    plan = compile_scenario(scenario('["Lascannon", "Krak"]', RETARGET, target="Buggy"))
    normal = plan.activations[0, 2]
    krak = 1
    rows = [r for r in plan.retarget[krak] if r >= 0]
    assert [plan.unit_names[plan.batches[r, B_TARGET]] for r in rows] == ["Tank"]
    assert len(plan.batch_labels) == plan.batches.shape[0] > normal
    assert "(retargeted at Tank)" in plan.batch_labels[rows[0]]
    assert plan.batches[rows[0], B_FIRST_CONTRIB] == plan.batches[krak, B_FIRST_CONTRIB]
    lost = compile_scenario(scenario('["Lascannon", "Krak"]', target="Buggy"))
    assert plan.contribs.shape == lost.contribs.shape


def test_weapons_identical_at_the_first_target_split_at_a_new_one():
    # [ANTI-VEHICLE 4+] does not apply to the Scout (INFANTRY): one batch; against the Tank
    # it does, so the retargeted weapons are two rows for the Tank, each its own batch
    extra = UNITS.replace('"Sniper rifle: 36\\" A1 BS3+ S3 AP0 D1"',
                          '"Sniper rifle: 36\\" A1 BS3+ S4 AP0 D1 [ANTI-VEHICLE 4+]"')
    assert extra != UNITS
    sc = parse_scenario(f"""
[rules]
{RETARGET}
{extra}
[[activations]]
phase = "shooting"
attacker = "Gunners"
target = "Scout"
weapons = ["Bolter", "Sniper rifle"]
""")
    plan = compile_scenario(sc)
    assert plan.activations[0, 2] == 1    # bolter and sniper rifle identical at the Scout
    tank = plan.unit_names.index("Tank")
    rows = [r for r in plan.retarget[0] if r >= 0 and plan.batches[r, B_TARGET] == tank]
    assert len(rows) == 2
    assert sorted(plan.batches[r, B_N_CONTRIBS] for r in rows) == [1, 1]


TRIALS = 60_000


def test_monte_carlo_retargeted_weapon_matches_the_exact_single_target_result():
    # 20 torrent flames surely destroy the Scout (all 20 fail to wound: 6^-20); the heavy
    # bolter aimed at it then shoots the Squad, as alone against it
    sc = parse_scenario(f"""
[rules]
{RETARGET}

[units.Burners]
models = [
  {{ name = "Burner", count = 1, profile = "T4 Sv3+ W2",
     weapons = ["Flamer: 12\\" A20 BSN/A S6 AP-6 D1 [TORRENT]"] }},
  {{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2",
     weapons = ["Heavy bolter: 36\\" A3 BS4+ S5 AP-1 D2"] }},
]

[units.Scout]
models = [{{ name = "Scout", count = 1, profile = "T3 Sv6+ W1" }}]

[units.Squad]
side = "B"
models = [{{ name = "Trooper", count = 5, profile = "T4 Sv3+ W2" }}]

[[activations]]
phase = "shooting"
attacker = "Burners"
target = "Scout"
""".replace("[units.Burners]", '[units.Burners]\nside = "A"')
       .replace("[units.Scout]", '[units.Scout]\nside = "B"'))
    result = run(sc, trials=TRIALS, seed=3)
    assert result.destroyed("Scout") == 1.0
    exact = mh.exact('Heavy bolter: 36" A3 BS4+ S5 AP-1 D2', "5x T4 Sv3+ W2")
    assert_matches(result.wounds_lost("Squad"), exact.distributions["damage"].probabilities,
                   TRIALS)
    assert_matches(result.models_destroyed("Squad"),
                   exact.distributions["models_destroyed"].probabilities, TRIALS)
    lost = run(dataclasses.replace(sc, switches=ScenarioRules()), trials=2_000, seed=3)
    assert lost.wounds_lost("Squad").mean == 0.0


def test_the_command_line_switches_retargeting_on(tmp_path, capsys):
    path = tmp_path / "gunners.toml"
    path.write_text(scenario_text('["Lascannon", "Bolter"]'), encoding="utf-8")
    mob = {}
    for choice in ("lost", "retarget"):
        assert main(["run", str(path), "--retarget-on-destroyed", choice, "--trials", "4000",
                     "--json"]) == 0
        mob[choice] = json.loads(capsys.readouterr().out)["units"]["Mob"]["models_destroyed"]
    assert mob["lost"]["mean"] == 0.0
    # the bolter only turns on the Mob when the lascannon destroyed the Scout
    # (2/3 * 5/6 * 1): 2 shots * 2/3 hit * 2/3 wound * 2/3 fail (Sv5+) = 16/27 each time
    expected = (2 / 3) * (5 / 6) * 16 / 27
    assert abs(mob["retarget"]["mean"] - expected) < 5 * mob["retarget"]["stderr"]
