"""Units, attached units and allocation groups (wh40k/scenario/units.py), 05.03 and 19.01."""

import pytest

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.units import (CarriedWeapon, ModelGroup, Unit,
                                             allocation_groups, attach, declared_order)


def group(name, count, line):
    return ModelGroup(name, count, parse_target(line))


def squad(order="listed"):
    # two troopers with 3+ saves, a sergeant with the same profile, a heavy gunner with 4+
    return Unit("Squad", (group("Trooper", 3, "T4 Sv3+ W2 [INFANTRY]"),
                          group("Gunner", 1, "T4 Sv4+ W2 [INFANTRY]"),
                          group("Sergeant", 1, "T4 Sv3+ W2 [INFANTRY]")),
                allocation_order=order)


def test_allocation_groups_gather_identical_w_sv_insv():
    groups = allocation_groups(squad())
    # Trooper and Sergeant share W2 Sv3+: one group, listed order kept inside it
    assert [g.parts for g in groups] == [((0, 3), (2, 1)), ((1, 1),)]
    assert [g.models for g in groups] == [4, 1]


def test_characters_are_groups_of_their_own_and_go_last():
    captain = Unit("Captain", (group("Captain", 1, "T4 Sv2+ W5 [INFANTRY, CHARACTER]"),))
    led = attach(squad(), captain)
    groups = allocation_groups(led)
    assert groups[-1].character and groups[-1].parts == ((3, 1),)
    assert led.groups[-1].role == "leader" and led.leaders == ("Captain",)
    # best save first would put the 2+ captain first, but CHARACTERs always come last
    order = declared_order(attach(squad("best_save_first"), captain))
    assert order[-1] == len(groups) - 1


@pytest.mark.parametrize("policy, expected", [
    ("listed", [0, 1]), ("best_save_first", [0, 1]), ("worst_save_first", [1, 0]),
    (("Gunner", "Trooper", "Sergeant"), [1, 0]),
])
def test_declared_order(policy, expected):
    assert declared_order(squad(policy)) == expected


def test_unit_refusals():
    with pytest.raises(ScenarioError, match="lists model group 'Trooper' twice"):
        Unit("U", (group("Trooper", 1, "T4 Sv3+ W1"), group("Trooper", 1, "T4 Sv3+ W1")))
    with pytest.raises(ScenarioError, match="is not a policy"):
        squad("random")
    with pytest.raises(ScenarioError, match="names 'Captain', which is not one of its model"):
        squad(("Captain",))
    with pytest.raises(ScenarioError, match="at most one Leader and one Support"):
        attach(squad(), squad(), squad(), squad())


def test_keywords_and_monsters():
    tank = Unit("Tank", (group("Hull", 1, "T10 Sv3+ W12 [VEHICLE]"),))
    assert tank.all_monster_or_vehicle and tank.models == 1
    mixed = Unit("Mixed", tank.groups + (group("Crew", 2, "T3 Sv5+ W1 [INFANTRY]"),))
    assert not mixed.all_monster_or_vehicle
    assert {"VEHICLE", "INFANTRY"} <= mixed.keywords


def test_carried_weapon():
    plasma = CarriedWeapon("Plasma", (parse_weapon('Plasma - standard: 24" A1 BS3+ S7 AP-2 D1'),
                                      parse_weapon('Plasma - supercharge: 24" A1 BS3+ S8 '
                                                   'AP-3 D2')))
    assert plasma.profile_named("plasma - SUPERCHARGE") == 1
    assert plasma.profile_named("flamer") is None and not plasma.melee
    assert plasma.hunter == (frozenset(), frozenset())
    single = CarriedWeapon.single(parse_weapon('2x Bolter: 24" A2 BS3+ S4 AP0 D1'))
    assert single.per_model == 2 and single.profiles[0].count == 1
    with pytest.raises(ScenarioError, match="mixes melee and ranged profiles"):
        CarriedWeapon("Odd", (parse_weapon('Gun: 24" A1 BS3+ S4 AP0 D1'),
                              parse_weapon("Knife: Melee A1 WS3+ S4 AP0 D1")))
