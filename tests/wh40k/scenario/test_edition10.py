"""The whole-unit engine under the 10th-edition rules (spec Appendix A), against hand-derived
values and the single-unit exact engine, each beside the 11th-edition answer."""

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Rules
from mathhammer.wh40k.scenario.api import run
from mathhammer.wh40k.scenario.model import Activation, Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit

from .test_monte_carlo import assert_matches

TRIALS = 120_000


def group(name, count, profile, *weapons):
    return ModelGroup(name, count, parse_target(profile),
                      tuple(CarriedWeapon.single(parse_weapon(w)) for w in weapons))


def shooting(attacker, target, edition, **rules):
    return Scenario({attacker.name: attacker, target.name: target},
                    (Activation("shooting", attacker.name, target.name),),
                    rules=Rules(edition=edition, **rules))


def near(result_mean, stderr, value):
    return abs(result_mean - value) <= 5 * stderr + 1e-12


@pytest.mark.parametrize("edition", [10, 11])
def test_saves_are_rolled_per_attack_against_the_model_in_10th_edition(edition):
    # Two auto-hitting S8 attacks (wound 2+, 5/6 each) at A: 1 model Sv2+, then B: 3 models
    # Sv6+, AP0 D1, W1. 10e: each save against the model it goes to: with 2 wounds
    # 1/6 * (1 + 5/6) + 5/6 * 1/6 = 4/9 models destroyed. 11e: the two saves sorted, the
    # lowest to A: 2/36 (two 1s) + 10/36 * (1 + 4/5) = 5/9. One wound: 1/6 in both.
    guns = Unit("Guns", (group("Gunner", 2, "T4 Sv3+ W1", 'Gun: 24" A1 BSN/A S8 AP0 D1 '
                                                          '[TORRENT]'),))
    target = Unit("Target", (group("A", 1, "T4 Sv2+ W1"), group("B", 3, "T4 Sv6+ W1")))
    two = 4 / 9 if edition == 10 else 5 / 9
    expected = 25 / 36 * two + 10 / 36 * 1 / 6
    result = run(shooting(guns, target, edition), trials=TRIALS, seed=3)
    dist = result.models_destroyed("Target")
    assert near(dist.mean, dist.stderr, expected)


def test_one_group_targets_agree_with_the_exact_engine_in_10th_edition():
    # cover (+1 armour save), Stealth (-1 to hit), devastating wounds after every batch
    hammers = "Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]"
    fists = "Power fist: Melee A3 WS3+ S8 AP-2 D2"
    squad = Unit("Squad", (group("Hammer", 3, "T4 Sv2+ W3", hammers),
                           group("Fist", 2, "T4 Sv2+ W3", fists)))
    target = Unit("Target", (group("Terminator", 5, "T5 Sv2+ InSv4+ W3"),))
    sc = Scenario({"Squad": squad, "Target": target},
                  (Activation("fight", "Squad", "Target"),), rules=Rules(edition=10))
    exact = mh.exact(["3x " + hammers, "2x " + fists], "5x T5 Sv2+ InSv4+ W3", edition=10)
    assert_matches(run(sc, trials=TRIALS, seed=4).wounds_lost("Target"),
                   exact.distributions["damage"].probabilities)


@pytest.mark.parametrize("text", ["final", "launch"])
def test_devastating_wounds_texts_agree_with_the_exact_engine(text):
    gun = 'Gun: 24" A3 BS3+ S4 AP-1 D 3 [DEVASTATING WOUNDS]'
    rifle = 'Rifle: 24" A2 BS3+ S4 AP0 D1'
    squad = Unit("Squad", (group("Gunner", 3, "T4 Sv3+ W2", gun),
                           group("Rifleman", 4, "T4 Sv3+ W2", rifle)))
    target = Unit("Target", (group("Marine", 5, "T4 Sv3+ W2 FNP5+(mortal)"),))
    sc = shooting(squad, target, 10, devastating_text=text)
    exact = mh.exact(["3x " + gun, "4x " + rifle], "5x T4 Sv3+ W2 FNP5+(mortal)", edition=10,
                     devastating_text=text)
    assert_matches(run(sc, trials=TRIALS, seed=5).wounds_lost("Target"),
                   exact.distributions["damage"].probabilities)


@pytest.mark.parametrize("edition", [10, 11])
def test_hazardous_puts_three_mortal_wounds_on_the_bearer(edition):
    # 4 Marines and a plasma gunner, one allocation group (W2 Sv3+). 10e: a 1 (1/6) puts 3
    # mortal wounds on the gunner, who dies (2 wounds lost, no spill): gunner lost 1/6,
    # Marines never, wounds lost 1/3. 11e: 1-2 (1/3), 1 mortal wound, on the first model
    # listed: wounds lost 1/3, nobody dies.
    plasma = 'Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]'
    squad = Unit("Squad", (group("Marine", 4, "T4 Sv3+ W2", 'Bolt rifle: 24" A2 BS3+ S4 '
                                                           'AP-1 D1'),
                           group("Gunner", 1, "T4 Sv3+ W2", plasma)))
    target = Unit("Target", (group("Guardsman", 20, "T3 Sv5+ W1"),))
    result = run(shooting(squad, target, edition), trials=TRIALS, seed=6)
    lost = result.wounds_lost("Squad")
    gunner = result.group_models_destroyed("Squad", "Gunner")
    marines = result.group_models_destroyed("Squad", "Marine")
    assert near(lost.mean, lost.stderr, 1 / 3)
    assert near(gunner.mean, gunner.stderr, 1 / 6 if edition == 10 else 0.0)
    assert marines.mean == 0.0
    if edition == 11:
        assert gunner.mean == 0.0


def test_hazardous_prefers_a_non_character_bearer_then_a_character():
    # A CHARACTER W4 and a non-CHARACTER W1 both fire [HAZARDOUS]: a failed roll takes the
    # trooper first (1 wound lost); with two failures (1/36) the second goes to the
    # CHARACTER: 3 wounds. Two rolls: P(at least one 1) = 11/36 kills the trooper.
    plasma = 'Plasma pistol: 12" A1 BS3+ S8 AP-3 D2 [HAZARDOUS, PISTOL]'
    squad = Unit("Squad", (group("Trooper", 1, "T4 Sv3+ W1", plasma),
                           group("Boss", 1, "T4 Sv3+ W4 [CHARACTER]", plasma)))
    target = Unit("Target", (group("Guardsman", 20, "T3 Sv5+ W1"),))
    result = run(shooting(squad, target, 10), trials=TRIALS, seed=7)
    trooper = result.group_models_destroyed("Squad", "Trooper")
    lost = result.wounds_lost("Squad")
    assert near(trooper.mean, trooper.stderr, 11 / 36)
    assert near(lost.mean, lost.stderr, 11 / 36 + 3 / 36)


def test_scenario_files_and_the_run_command_take_the_edition(tmp_path, capsys):
    path = tmp_path / "duel.toml"
    path.write_text('''[rules]
edition = 9

[units.Squad]
models = [{ name = "Marine", count = 5, profile = "T4 Sv3+ W2",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1"] }]

[units.Target]
models = [{ name = "Guardsman", count = 10, profile = "T3 Sv5+ W1" }]

[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Target"
situation = { cover = true }
''')
    assert main(["run", str(path), "--trials", "1000"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not supported" in err and "10, 11" in err
    path.write_text(path.read_text().replace("edition = 9", "edition = 10"))
    assert main(["run", str(path), "--trials", "1000", "--edition", "11"]) == 0
    assert "11th-edition rules" in capsys.readouterr().out
    assert main(["run", str(path), "--trials", "1000"]) == 0
    assert "10th-edition rules" in capsys.readouterr().out
    assert main(["run", str(path), "--trials", "1000", "--edition", "9"]) == 2
    assert "edition '9' is not supported" in capsys.readouterr().err
    loaded = mh.run(path, trials=20_000, seed=1)
    # 10 shots x 2/3 hit x 2/3 wound x (Sv5+, AP-1, cover +1: fails on 1-4) 2/3 = 80/27
    mean = loaded.wounds_lost("Target")
    assert near(mean.mean, mean.stderr, 80 / 27)


@pytest.mark.parametrize("edition", [10, 11])
def test_precision_devastating_wounds_reach_the_character_in_10th_edition(edition):
    # One auto-hit, S8 vs T4 wounds on 2+, every wound critical (crit_wounds 2): 5/6 of the
    # time D3 mortal wounds. 10e: the attack is allocated, [PRECISION] picks the CHARACTER
    # (W3): he dies 5/6 of the time. 11e: mortal wounds go to the bodyguard (06.02).
    from mathhammer.wh40k.profiles import Modifiers
    from mathhammer.wh40k.scenario.units import attach

    gun = 'Needle: 24" A1 BSN/A S8 AP0 D 3 [TORRENT, PRECISION, DEVASTATING WOUNDS]'
    sniper = Unit("Sniper", (group("Sniper", 1, "T4 Sv3+ W2", gun),))
    guard = Unit("Guard", (group("Trooper", 5, "T4 Sv3+ W1"),))
    boss = Unit("Boss", (group("Boss", 1, "T4 Sv3+ W3 [CHARACTER]"),))
    target = attach(guard, boss)
    sc = Scenario({"Sniper": sniper, "Guard": target},
                  (Activation("shooting", "Sniper", "Guard",
                              modifiers=Modifiers(crit_wounds=2)),),
                  rules=Rules(edition=edition))
    result = run(sc, trials=TRIALS, seed=8)
    boss_dead = result.group_models_destroyed("Guard", "Boss")
    troopers = result.group_models_destroyed("Guard", "Trooper")
    if edition == 10:
        assert near(boss_dead.mean, boss_dead.stderr, 5 / 6)
        assert troopers.mean == 0.0
    else:
        assert boss_dead.mean == 0.0
        assert near(troopers.mean, troopers.stderr, 5 / 6)
