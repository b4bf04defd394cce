"""Weapon profiles chosen per model: ``count`` on a weapon choice (two of five marines
supercharge, the rest fire standard). Forced dice count what each profile rolls, also after
casualties; Monte Carlo agrees with the single-target exact engine run on the two weapon
lines in sequence, and with a mean derived by hand."""

import dataclasses
import doctest

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import ScenarioError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Rules
from mathhammer.wh40k.scenario.api import run, run_scripted
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.layout import C_CAP, C_SKIPPED, NO_CAP
from mathhammer.wh40k.scenario.model import Activation, Scenario, WeaponChoice
from mathhammer.wh40k.scenario.reader import parse_scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit

from .test_monte_carlo import assert_matches

TRIALS = 120_000
STANDARD = 'Plasma gun - standard: 24" A1 BS3+ S7 AP-2 D1'
SUPERCHARGE = 'Plasma gun - supercharge: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]'
# Three profiles told apart by how many hit dice they roll (A1, A3, A9); a hit roll of 1
# always fails, so with every die a 1 a batch rolls its hit dice and nothing else.
ONE = 'Gun - one: 24" A1 BS3+ S4 AP0 D1'
THREE = 'Gun - three: 24" A3 BS3+ S4 AP0 D1'
NINE = 'Gun - nine: 24" A9 BS3+ S4 AP0 D1'
# Kills exactly two W2 marines with the faces 6, 6 (wound rolls) and 1, 1 (saves).
CANNON = 'Cannon: 24" A2 BSN/A S8 AP-3 D2 [TORRENT]'
KILL_TWO = [6, 6, 1, 1]


def weapon(name, *lines, per_model=1):
    return CarriedWeapon(name, tuple(parse_weapon(line) for line in lines), per_model=per_model)


def marines(carried, count=5, name="Squad"):
    return Unit(name, (ModelGroup("Marine", count, parse_target("T4 Sv3+ W2 [INFANTRY]"),
                                  (carried,)),))


def target(count=10, profile="T4 Sv3+ W2 [INFANTRY]"):
    return Unit("Target", (ModelGroup("Trooper", count, parse_target(profile)),))


def shooting(squad, choices, rules=Rules(), enemy_first=False):
    """Squad shoots Target with ``choices``; with ``enemy_first`` an Enemy cannon fires at
    the Squad before that (scripted to kill two of its models)."""
    units = {"Squad": squad, "Target": target()}
    acts = [Activation("shooting", "Squad", "Target", weapons=tuple(choices))]
    if enemy_first:
        units["Enemy"] = Unit("Enemy", (ModelGroup("Gunner", 1, parse_target("T4 Sv3+ W2"),
                                                   (CarriedWeapon.single(parse_weapon(CANNON)),)),))
        acts.insert(0, Activation("shooting", "Enemy", "Squad"))
    return Scenario(units, tuple(acts), rules=rules,
                    sides={"Squad": "A", "Target": "B", "Enemy": "B"} if enemy_first else {})


GUN = weapon("Gun", ONE, THREE, NINE)


@pytest.mark.parametrize("choices, dice", [
    # 2 models fire A3, the other 3 the first profile not counted (A1): 2*3 + 3*1
    ([WeaponChoice("Gun - three", count=2)], 9),
    # counts stack in the order listed: 1 model A9, 2 models A3, the rest (2) A1
    ([WeaponChoice("Gun - nine", count=1), WeaponChoice("Gun - three", count=2)], 9 + 6 + 2),
    # a choice without a count takes the models the counts leave: 2*3 + 3*9
    ([WeaponChoice("Gun - three", count=2), WeaponChoice("Gun - nine")], 6 + 27),
    # the uncounted choice listed first: same models, its batch first
    ([WeaponChoice("Gun - nine"), WeaponChoice("Gun - three", count=2)], 27 + 6),
    # counts taking every model: no model left for another profile
    ([WeaponChoice("Gun - three", count=2), WeaponChoice("Gun - one", count=3)], 6 + 3),
    # named by the weapon's name: its first profile, counted; the rest fire A3
    ([WeaponChoice("Gun", count=4)], 4 + 3),
])
def test_each_profile_rolls_the_dice_of_its_models(choices, dice):
    out = run_scripted(shooting(marines(GUN), choices), [1] * dice)
    assert out["dice_used"] == dice
    assert out["units"]["Target"]["wounds_lost"] == 0


def test_a_count_is_models_not_weapons():
    # 2x per model: 2 models fire 2 A3 weapons each, 3 models 2 A1 weapons each.
    gun = weapon("Gun", ONE, THREE, per_model=2)
    dice = 2 * 2 * 3 + 3 * 2 * 1
    out = run_scripted(shooting(marines(gun), [WeaponChoice("Gun - three", count=2)]),
                       [1] * dice)
    assert out["dice_used"] == dice


@pytest.mark.parametrize("choices, dice", [
    # 3 models left: the counted 2 still fire A3, 1 model fires A1
    ([WeaponChoice("Gun - three", count=2)], 2 * 3 + 1),
    # count 4 of 3 models left: all 3 fire A3, none A1
    ([WeaponChoice("Gun - three", count=4)], 3 * 3),
    # stacked 1 + 3 of 3 left: 1 fires A9, 2 fire A3 (clamped), the rest-choice none
    ([WeaponChoice("Gun - nine", count=1), WeaponChoice("Gun - three", count=3)], 9 + 6),
    # uncounted choice listed first: it gets what the counts leave (1 model)
    ([WeaponChoice("Gun - nine"), WeaponChoice("Gun - three", count=2)], 9 + 6),
])
def test_after_casualties_the_counted_choices_are_filled_first(choices, dice):
    out = run_scripted(shooting(marines(GUN), choices, enemy_first=True),
                       KILL_TWO + [1] * dice)
    assert out["units"]["Squad"]["models_destroyed"] == 2
    assert out["dice_used"] == len(KILL_TWO) + dice


@pytest.mark.parametrize("count, alive_hazard", [(2, 2), (4, 3)])
def test_hazard_rolls_follow_the_counted_models(count, alive_hazard):
    # 11e: one hazard roll per [HAZARDOUS] weapon fired; each 1-2 is a mortal wound on the
    # squad. 5 models: `count` rolls; after two casualties: min(count, 3).
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE)
    choice = [WeaponChoice("Plasma gun - supercharge", count=count)]
    misses = [1] * 5
    out = run_scripted(shooting(marines(plasma), choice), misses + [1] * count)
    assert out["dice_used"] == 5 + count
    assert out["units"]["Squad"]["wounds_lost"] == count
    misses = [1] * 3
    out = run_scripted(shooting(marines(plasma), choice, enemy_first=True),
                       KILL_TWO + misses + [2] * alive_hazard)
    assert out["dice_used"] == len(KILL_TWO) + 3 + alive_hazard
    assert out["units"]["Squad"]["wounds_lost"] == 4 + alive_hazard


def test_tenth_edition_hazard_bearers_are_counted_models():
    # 10e: a 1 puts 3 mortal wounds on one model carrying the [HAZARDOUS] weapon (no
    # spill); two W2 bearers die. The standard profile's 3 models roll no hazard dice.
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE)
    sc = shooting(marines(plasma), [WeaponChoice("Plasma gun - supercharge", count=2)],
                  rules=Rules(edition=10))
    out = run_scripted(sc, [1] * 5 + [1, 1])
    assert out["dice_used"] == 7
    assert out["units"]["Squad"]["models_destroyed"] == 2
    assert out["units"]["Squad"]["wounds_lost"] == 4


def test_two_of_five_supercharge_match_the_exact_engine():
    # The target is a unit like the attackers: W2 D1/D2, so the order of the batches matters;
    # the exact engine resolves the two weapon lines in the same order (supercharge first).
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE)
    sc = Scenario({"Squad": marines(plasma), "Target": target(5)},
                  (Activation("shooting", "Squad", "Target",
                              weapons=(WeaponChoice("Plasma gun - supercharge", count=2),)),))
    result = run(sc, trials=TRIALS, seed=21)
    exact = mh.exact([f"2x {SUPERCHARGE}", f"3x {STANDARD}"], "5x T4 Sv3+ W2 [INFANTRY]")
    assert_matches(result.wounds_lost("Target"), exact.distributions["damage"].probabilities)
    assert_matches(result.models_destroyed("Target"),
                   exact.distributions["models_destroyed"].probabilities)
    # two hazard rolls, not five: the squad's wounds lost are its mortal wounds
    assert_matches(result.wounds_lost("Squad"),
                   exact.distributions["attacker_mortal_wounds"].probabilities)


def test_two_weapons_per_model_match_the_exact_engine():
    # 2x per model, 1 of 3 models supercharges: 2 supercharged and 4 standard shots.
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE, per_model=2)
    sc = Scenario({"Squad": marines(plasma, count=3), "Target": target(6)},
                  (Activation("shooting", "Squad", "Target",
                              weapons=(WeaponChoice("Plasma gun - supercharge", count=1),)),))
    result = run(sc, trials=TRIALS, seed=22)
    exact = mh.exact([f"2x {SUPERCHARGE}", f"4x {STANDARD}"], "6x T4 Sv3+ W2 [INFANTRY]")
    assert_matches(result.wounds_lost("Target"), exact.distributions["damage"].probabilities)


def test_hand_derived_mean_of_one_supercharger_and_two_standard():
    # Against T4 Sv3+ W2, supercharge: hit 2/3, wound 2+ (S8 = 2T) 5/6, save 6+ fails 5/6,
    # D2 = 25/54 * 2; standard: 2/3 * 3+ (S7 > T4) 2/3 * save 5+ fails 2/3, D1 = 8/27.
    # The D2 batch goes first, onto unwounded W2 models, so nothing is lost to excess:
    # mean wounds lost 50/54 + 2 * 8/27 = 41/27.
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE)
    sc = Scenario({"Squad": marines(plasma, count=3), "Target": target(10)},
                  (Activation("shooting", "Squad", "Target",
                              weapons=(WeaponChoice("Plasma gun - supercharge", count=1),)),))
    dist = run(sc, trials=TRIALS, seed=23).wounds_lost("Target")
    assert abs(dist.mean - 41 / 27) < 5 * dist.stderr


def test_defaults_compile_to_every_model_and_counts_to_skip_and_cap():
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE)
    plain = compile_scenario(shooting(marines(plasma), [WeaponChoice("Plasma gun")]))
    assert plain.contribs[:, C_SKIPPED].tolist() == [0]
    assert plain.contribs[:, C_CAP].tolist() == [NO_CAP]
    counted = compile_scenario(shooting(marines(plasma),
                                        [WeaponChoice("Plasma gun - supercharge", count=2)]))
    assert counted.contribs[:, C_SKIPPED].tolist() == [0, 2]
    assert counted.contribs[:, C_CAP].tolist() == [2, NO_CAP]


def test_a_character_group_of_several_models_counts_as_one_group():
    # Each CHARACTER model is its own allocation group (its own sub-group); the count still
    # covers the model group as a whole: 1 of 2 fires A3, the other A1.
    chars = Unit("Squad", (ModelGroup("Captain", 2, parse_target("T4 Sv3+ W5 [CHARACTER]"),
                                      (GUN,)),))
    out = run_scripted(shooting(chars, [WeaponChoice("Gun - three", count=1)]), [1] * 4)
    assert out["dice_used"] == 4


TOML = '''
[units.Squad]
models = [
  {{ name = "Marine", count = 4, profile = "T4 Sv3+ W2 [INFANTRY]",
     weapons = [{{ name = "Plasma gun", profiles = ["{standard}", "{supercharge}"] }}] }},
  {{ name = "Sergeant", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]",
     weapons = ["{bolt}", {{ name = "Plasma pistol", profiles = ["{pistol}"] }}] }},
]
[units.Target]
models = [{{ name = "Trooper", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]" }}]

[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Target"
weapons = [{choices}]
'''


def toml(choices):
    esc = {k: v.replace('"', '\\"') for k, v in {
        "standard": STANDARD, "supercharge": SUPERCHARGE,
        "bolt": 'Bolt pistol: 12" A1 BS3+ S4 AP0 D1 [PISTOL]',
        "pistol": 'Plasma pistol: 12" A1 BS3+ S7 AP-2 D1 [PISTOL]'}.items()}
    return TOML.format(choices=choices, **esc)


def test_the_scenario_file_reads_count_and_models():
    sc = parse_scenario(toml('{ name = "Plasma gun - supercharge", count = 2, '
                             'models = "Marine" }'))
    attacks = [(a.group, a.weapon.name, a.models_skipped, a.models_cap) for a in sc.attacks[0]]
    assert attacks == [("Marine", "Plasma gun - supercharge", 0, 2),
                       ("Marine", "Plasma gun - standard", 2, None)]


@pytest.mark.parametrize("choice, token, words", [
    ('{ name = "Plasma gun - supercharge", count = 0 }', "Plasma gun - supercharge",
     "at least 1"),
    ('{ name = "Plasma gun - supercharge", count = 1.5 }', "Plasma gun - supercharge",
     "whole number"),
    ('{ name = "Plasma gun - supercharge", count = true }', "Plasma gun - supercharge",
     "whole number"),
    ('{ name = "Plasma gun - supercharge", count = 5 }', "Plasma gun - supercharge",
     "more than the 4 models"),
    ('{ name = "Bolt pistol", count = 1 }', "Bolt pistol", "single profile"),
    ('{ name = "Plasma pistol", count = 1 }', "Plasma pistol", "single profile"),
    ('{ name = "Plasma gun - supercharge", count = 3 }, '
     '{ name = "Plasma gun - standard", count = 2 }', "Plasma gun - standard", "brings"),
    ('{ name = "Plasma gun - supercharge", count = 1 }, '
     '{ name = "Plasma gun - standard", count = 1 }', "Plasma gun - standard",
     "leave one profile without a count"),
    ('{ name = "Plasma gun - supercharge", count = 1 }, "Plasma gun - standard", '
     '"Plasma gun"', "Plasma gun - standard", "both go without a count"),
    ('{ name = "Plasma gun - supercharge", count = 1, split = { Target = 1 } }',
     "Plasma gun - supercharge", "cannot be combined with split"),
])
def test_bad_counts_are_refused_on_one_line_with_the_line(choice, token, words):
    text = toml(choice)
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source="s.toml")
    message = str(info.value)
    assert "\n" not in message and words in message and f"'{token}'" in message
    line = text.splitlines().index(f"weapons = [{choice}]") + 1
    assert message.startswith(f"s.toml:{line}: ")


def test_the_command_line_runs_counts_and_refuses_bad_ones(tmp_path, capsys):
    good = tmp_path / "good.toml"
    good.write_text(toml('{ name = "Plasma gun - supercharge", count = 2 }'))
    assert main(["run", str(good), "--trials", "2000", "--seed", "1"]) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text(toml('{ name = "Plasma gun - supercharge", count = 9 }'))
    capsys.readouterr()
    assert main(["run", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{bad}:" in err and "more than the 4 models" in err


def test_a_count_whose_group_is_ambiguous_is_refused():
    plasma = weapon("Plasma gun", STANDARD, SUPERCHARGE)
    two = Unit("Squad", tuple(ModelGroup(n, 2, parse_target("T4 Sv3+ W2"), (plasma,))
                              for n in ("Marine", "Sergeant")))
    with pytest.raises(ScenarioError, match=r"'Marine' and 'Sergeant' both carry it; say "
                                            r"which with models = \"GROUP\""):
        shooting(two, [WeaponChoice("Plasma gun - supercharge", count=1)])
    one = shooting(two, [WeaponChoice("Plasma gun - supercharge", count=1, models="Marine")])
    assert [(a.group, a.weapon.name, a.models_cap) for a in one.attacks[0]] == [
        ("Marine", "Plasma gun - supercharge", 1), ("Marine", "Plasma gun - standard", None)]


@pytest.mark.parametrize("kwargs, words", [
    ({"count": 0}, "at least 1"), ({"count": -2}, "at least 1"), ({"count": 2.0}, "whole"),
    ({"count": True}, "whole"), ({"count": 1, "split": (("A", 1),)}, "split"),
])
def test_weapon_choice_validates_its_count(kwargs, words):
    with pytest.raises(ScenarioError, match=words):
        WeaponChoice("Plasma gun", **kwargs)


def test_a_split_rest_choice_keeps_the_skipped_models():
    # Melee: 1 of 3 models strikes (A1, all at Grots); the other 2 split a sweep (A2) 1 and 1.
    fist = weapon("Fist", "Fist - strike: Melee A1 WS3+ S8 AP-2 D2",
                  "Fist - sweep: Melee A2 WS3+ S4 AP0 D1")
    units = {"Squad": marines(fist, count=3), "Grots": target(), "Boyz": target()}
    units["Grots"] = dataclasses.replace(units["Grots"], name="Grots")
    units["Boyz"] = dataclasses.replace(units["Boyz"], name="Boyz")
    act = Activation("fight", "Squad", "Grots", weapons=(
        WeaponChoice("Fist - strike", count=1),
        WeaponChoice("Fist - sweep", split=(("Grots", 1), ("Boyz", 1)))))
    sc = Scenario(units, (act,), sides={"Squad": "A", "Grots": "B", "Boyz": "B"})
    assert [(a.weapon.name, a.target, a.models_skipped, a.models_cap)
            for a in sc.attacks[0]] == [("Fist - strike", "Grots", 0, 1),
                                        ("Fist - sweep", "Grots", 1, None),
                                        ("Fist - sweep", "Boyz", 1, None)]
    # hit dice: strike 1, sweep at Grots 2, sweep at Boyz 2
    assert run_scripted(sc, [1] * 5)["dice_used"] == 5


def test_the_weapon_choice_docstring_example_runs():
    from mathhammer.wh40k.scenario import activations

    failures, tried = doctest.testmod(activations)
    assert tried > 0 and failures == 0
