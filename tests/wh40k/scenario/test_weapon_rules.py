"""Select Weapons (04.01, 24.07, 24.11, 10.05, 10.07): the one selection that scenarios and
rosters share. Expected slots are read off the rules text (wh40k-11e.md 3.1) by hand."""

import mathhammer as mh
import pytest

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Situation
from mathhammer.wh40k.scenario.activations import Activation, WeaponChoice
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.selection import select_attacks
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit
from mathhammer.wh40k.scenario.weapon_rules import (allowed_in, is_extra_attacks, is_sidearm,
                                                    mixes_sidearms, weapon_slots)

BOLTGUN = 'Boltgun: 24" A2 BS3+ S4 AP0 D1'
PISTOL = 'Bolt pistol: 12" A1 BS3+ S4 AP0 D1 [PISTOL]'
ASSAULT_PISTOL = 'Assault pistol: 12" A1 BS3+ S4 AP0 D1 [ASSAULT, PISTOL]'
HEAVY = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [HEAVY]'
MORTAR = 'Mortar: 48" A1 BS4+ S5 AP0 D1 [INDIRECT FIRE]'
KNIFE = "Knife: Melee A3 WS3+ S4 AP0 D1"
FIST = "Power fist: Melee A2 WS3+ S8 AP-2 D2"
TAIL = "Tail: Melee A1 WS4+ S5 AP0 D1 [EXTRA ATTACKS]"


def carried(*lines, name=None):
    profiles = tuple(parse_weapon(line) for line in lines)
    return CarriedWeapon(name or profiles[0].name, profiles)


def group(*weapons, keywords="[INFANTRY]", count=2):
    return ModelGroup("Trooper", count, parse_target(f"T4 Sv3+ W2 {keywords}"), weapons)


def names(slots):
    return [[(w.name, w.profiles[i].name) for w, i in slot.choices] for slot in slots]


def test_predicates():
    assert is_sidearm(parse_weapon(PISTOL))
    assert is_sidearm(parse_weapon('Flamer: 12" A1 BS3+ S4 AP0 D1 [CLOSE-QUARTERS]'))
    assert not is_sidearm(parse_weapon(BOLTGUN))
    assert is_extra_attacks(parse_weapon(TAIL)) and not is_extra_attacks(parse_weapon(KNIFE))
    assert allowed_in(parse_weapon(ASSAULT_PISTOL), Situation(advanced=True))
    assert not allowed_in(parse_weapon(BOLTGUN), Situation(advanced=True))
    assert allowed_in(parse_weapon(MORTAR), Situation(indirect=True))
    assert not allowed_in(parse_weapon(BOLTGUN), Situation(indirect=True))
    assert allowed_in(parse_weapon(BOLTGUN), Situation())


def test_shooting_takes_every_ranged_weapon_but_not_the_sidearm():
    # 24.07: an infantry model fires its pistol or its other ranged weapons, never both;
    # with other ranged weapons to fire, the default is those (more of them).
    slots = weapon_slots(group(carried(BOLTGUN), carried(PISTOL), carried(HEAVY),
                               carried(KNIFE)), "shooting")
    assert [s.kind for s in slots] == ["ranged", "ranged"]
    assert names(slots) == [[("Boltgun", "Boltgun")], [("Heavy bolter", "Heavy bolter")]]


def test_a_model_with_only_a_pistol_fires_it():
    slots = weapon_slots(group(carried(PISTOL), carried(KNIFE)), "shooting")
    assert names(slots) == [[("Bolt pistol", "Bolt pistol")]]


def test_monsters_and_vehicles_fire_sidearms_with_everything_else():
    slots = weapon_slots(group(carried(BOLTGUN), carried(PISTOL), keywords="[VEHICLE]"),
                         "shooting")
    assert names(slots) == [[("Boltgun", "Boltgun")], [("Bolt pistol", "Bolt pistol")]]


def test_assault_shooting_keeps_only_assault_profiles():
    # 10.05: after advancing only [ASSAULT] weapons; the heavy bolter is out, and the only
    # ranged weapon left is the assault pistol, which 24.07 then lets the model fire.
    slots = weapon_slots(group(carried(ASSAULT_PISTOL), carried(HEAVY)), "shooting",
                         Situation(advanced=True))
    assert names(slots) == [[("Assault pistol", "Assault pistol")]]


def test_assault_shooting_picks_the_assault_profile_of_a_weapon_with_two():
    plasma = carried('Plasma - standard: 24" A1 BS3+ S7 AP-2 D1',
                     'Plasma - rapid: 12" A2 BS3+ S7 AP-2 D1 [ASSAULT]', name="Plasma")
    assert names(weapon_slots(group(plasma), "shooting")) == [
        [("Plasma", "Plasma - standard"), ("Plasma", "Plasma - rapid")]]
    assert names(weapon_slots(group(plasma), "shooting", Situation(advanced=True))) == [
        [("Plasma", "Plasma - rapid")]]


def test_indirect_shooting_keeps_only_indirect_fire_weapons():
    slots = weapon_slots(group(carried(MORTAR), carried(BOLTGUN)), "shooting",
                         Situation(indirect=True))
    assert names(slots) == [[("Mortar", "Mortar")]]


def test_fight_is_one_melee_weapon_plus_every_extra_attacks_weapon():
    # 04.01 / 24.11: one of the knife and the fist (first listed by default), and the tail.
    slots = weapon_slots(group(carried(BOLTGUN), carried(KNIFE), carried(TAIL), carried(FIST)),
                         "fight", Situation(advanced=True))  # the situation plays no part
    assert [s.kind for s in slots] == ["melee", "extra attacks"]
    assert names(slots) == [[("Knife", "Knife"), ("Power fist", "Power fist")],
                            [("Tail", "Tail")]]
    assert slots[0].default[0].name == "Knife"


def test_no_weapon_for_the_phase_is_no_slot():
    assert weapon_slots(group(carried(BOLTGUN)), "fight") == []
    assert weapon_slots(group(carried(KNIFE)), "shooting") == []


def test_mixes_sidearms():
    pistol, gun = parse_weapon(PISTOL), parse_weapon(BOLTGUN)
    assert mixes_sidearms(group(), [pistol, gun])
    assert not mixes_sidearms(group(), [pistol, pistol])
    assert not mixes_sidearms(group(keywords="[VEHICLE]"), [pistol, gun])


def scenario(shooters, situation=Situation(), weapons=()):
    target = Unit("T", (ModelGroup("Guard", 10, parse_target("T3 Sv5+ W1"), ()),))
    act = Activation("shooting", "S", "T", weapons=weapons, situation=situation)
    return Scenario({"S": Unit("S", (shooters,)), "T": target}, (act,)), act


def test_scenario_defaults_are_the_shared_selection():
    sc, act = scenario(group(carried(ASSAULT_PISTOL), carried(HEAVY)),
                       Situation(advanced=True))
    assert [a.weapon.name for a in select_attacks(sc.units, act)] == ["Assault pistol"]
    sc, act = scenario(group(carried(MORTAR), carried(BOLTGUN)), Situation(indirect=True))
    assert [a.weapon.name for a in sc.attacks[0]] == ["Mortar"]


def test_scenario_says_what_the_shooting_allows_when_nothing_is_left():
    with pytest.raises(ScenarioError, match=r"no ranged weapon to use \(this shooting allows "
                                            r"only \[ASSAULT\] weapons\)"):
        scenario(group(carried(HEAVY)), Situation(advanced=True))


def test_scenario_refuses_a_named_sidearm_beside_other_guns():
    with pytest.raises(ScenarioError, match="24.07"):
        scenario(group(carried(BOLTGUN), carried(PISTOL)),
                 weapons=(WeaponChoice("Boltgun"), WeaponChoice("Bolt pistol")))


def test_advanced_assault_pistol_damage_by_hand():
    # Two models advance: the heavy bolter may not fire (10.05), so each fires its assault
    # pistol: 2 attacks, hit 3+ (2/3), S4 vs T3 wounds on 3+ (2/3), Sv5+ AP0 fails 4/6,
    # D1 on W1 models: expected damage 2 * 2/3 * 2/3 * 2/3 = 16/27.
    sc, _ = scenario(group(carried(ASSAULT_PISTOL), carried(HEAVY)), Situation(advanced=True))
    result = mh.run(sc, trials=40_000, seed=5)
    lost = result.wounds_lost("T")
    assert abs(lost.mean - 16 / 27) < 5 * lost.stderr
