"""Worked examples E1-E3 of spec 4.5 as whole-unit scenarios, dice forced through the kernel,
and every allocation-order rule of 05.03 (including the illegal orders)."""

import numpy as np
import pytest

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.model import Activation, Scenario, WeaponChoice
from mathhammer.wh40k.scenario.api import run_scripted
from mathhammer.wh40k.scenario.damage_steps import allocation_order
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit, attach, declared_order

BOLTGUN = "Boltgun: 24\" A2 BS3+ S4 AP0 D1"
PISTOL = "Bolt pistol: 12\" A1 BS3+ S4 AP0 D1 [PISTOL]"
HEAVY_BOLTER = "Heavy bolter: 36\" A3 BS4+ S5 AP-1 D2"


def group(name, count, profile, *weapons, role="bodyguard"):
    return ModelGroup(name, count, parse_target(profile),
                      tuple(CarriedWeapon.single(parse_weapon(w)) for w in weapons), role=role)


def shooting(attacker, target, units, weapons=(), order=()):
    act = Activation("shooting", attacker.name, target.name, weapons=tuple(weapons), order=order)
    return Scenario(units={u.name: u for u in units}, activations=(act,))


def e1_scenario():
    squad = Unit("Squad", (
        group("Boltgunner", 2, "T4 Sv3+ W2", BOLTGUN),
        group("Pistol near", 1, "T4 Sv3+ W2", PISTOL),
        group("Pistol far", 1, "T4 Sv3+ W2", PISTOL),   # out of range: not selected
        group("Gunner", 1, "T4 Sv3+ W2", HEAVY_BOLTER),
    ))
    target = Unit("Target", (group("Trooper", 5, "T3 Sv3+ InSv5+ W1"),))
    weapons = [WeaponChoice("Boltgun"), WeaponChoice("Bolt pistol", models="Pistol near"),
               WeaponChoice("Heavy bolter")]
    return shooting(squad, target, [squad, target], weapons)


def test_e1_mixed_weapons_grouped_into_two_batches_two_models_destroyed():
    faces = ([2, 3, 4, 5, 6]      # batch 1 (2 boltguns + 1 pistol = 5 dice) hits: 4
             + [1, 3, 4, 6]       # wounds vs T3 (3+): 3
             + [6, 2, 4]          # saves, sorted to [2, 4, 6]: 2 fails, 4 (Sv3+), 6 saved
             + [2, 4, 6]          # batch 2 (heavy bolter, 3 dice) hits vs BS4+: 2
             + [3, 5]             # wounds: 2
             + [5, 3])            # saves sorted [3, 5]: 3-1 < 3 -> damage; 5 >= InSv5+
    out = run_scripted(e1_scenario(), faces)
    assert out["units"]["Target"]["models_destroyed"] == 2
    assert out["dice_used"] == len(faces)


def test_too_few_scripted_dice_is_an_error_not_a_guess():
    faces = [2, 3, 4, 5, 6, 1, 3, 4, 6, 6, 2, 4, 2, 4, 6, 3, 5]   # E1 without its last two saves
    with pytest.raises(IndexError, match="rolled 19 dice but only 17 were given"):
        run_scripted(e1_scenario(), faces)


def test_e1_batches_are_gathered_identically():
    from mathhammer.wh40k.scenario.compile import compile_scenario
    plan = compile_scenario(e1_scenario())
    assert plan.batches.shape[0] == 2  # boltguns + pistol together, heavy bolter alone


def test_invulnerable_save_is_not_modified_by_ap():
    squad = Unit("Squad", (group("Gunner", 1, "T4 Sv3+ W2", "Lascannon: 48\" A1 BS3+ S4 AP-3 D1"),))
    target = Unit("Target", (group("Trooper", 2, "T3 Sv3+ InSv5+ W1"),))
    # hit 3, wound 3 (S4 vs T3), save 5: armour would need 6 (3+ with AP-3); InSv5+ holds.
    out = run_scripted(shooting(squad, target, [squad, target]), [3, 3, 5])
    assert out["units"]["Target"]["models_destroyed"] == 0
    out = run_scripted(shooting(squad, target, [squad, target]), [3, 3, 4])
    assert out["units"]["Target"]["models_destroyed"] == 1


def e2_units(order=("Geminae", "Seraphim", "Celestine")):
    seraphim = Unit("Seraphim", (group("Seraphim", 5, "T3 Sv3+ W1 [INFANTRY]"),))
    celestine = Unit("Celestine", (group("Celestine", 1, "T3 Sv2+ InSv4+ W5 [CHARACTER, INFANTRY]"),
                                   group("Geminae", 2, "T3 Sv2+ InSv4+ W2 [INFANTRY]")))
    import dataclasses
    attached = dataclasses.replace(attach(seraphim, celestine), allocation_order=order)
    Unit.__post_init__(attached)
    shooters = Unit("Shooters", (group("Gunner", 2, "T4 Sv3+ W2", HEAVY_BOLTER),))
    return shooters, attached


def test_e2_group_switch_mid_batch():
    shooters, attached = e2_units()
    faces = ([4, 4, 5, 5, 6, 1]   # 6 dice, 5 hits
             + [3, 3, 4, 5, 6]    # S5 vs T3 (bodyguard T): 5 wounds
             + [6, 4, 1, 3, 1])   # saves sorted [1, 1, 3, 4, 6]
    out = run_scripted(shooting(shooters, attached, [shooters, attached]), faces)
    groups = out["units"]["Seraphim"]["groups"]
    assert groups == {"Seraphim": 1, "Celestine": 0, "Geminae": 2}
    assert out["dice_used"] == len(faces)


def test_e2_had_the_geminae_stayed_current_the_3_would_be_saved():
    shooters, attached = e2_units()
    faces = [4, 4, 5, 5, 6, 1] + [3, 3, 4, 5, 6] + [6, 4, 1, 3, 3]  # one Gemina survives
    out = run_scripted(shooting(shooters, attached, [shooters, attached]), faces)
    assert out["units"]["Seraphim"]["groups"] == {"Seraphim": 0, "Celestine": 0, "Geminae": 1}


def test_e2_celestine_before_seraphim_is_illegal():
    with pytest.raises(ScenarioError, match="CHARACTER 'Celestine' comes before non-CHARACTER"):
        e2_units(order=("Geminae", "Celestine", "Seraphim"))


def e3(order_faces):
    shooters = Unit("Shooters", (group("Gunner", 1, "T4 Sv3+ W2", "Gun: 24\" A2 BS2+ S4 AP0 D1"),))
    target = Unit("Target", (group("A", 1, "T4 Sv4+ W1"), group("B", 3, "T4 Sv2+ W1")))
    return run_scripted(shooting(shooters, target, [shooters, target]), [6, 6, 6, 6] + order_faces)


@pytest.mark.parametrize("saves", [[3, 3], [5, 3], [3, 5]])
def test_e3_ascending_saves_across_groups(saves):
    out = e3(saves)
    assert out["units"]["Target"]["groups"] == {"A": 1, "B": 0}


def test_allocation_forced_moves_in_the_kernel():
    # allocation groups: 0 X (non-char), 1 Y (non-char), 2 C1 (char), 3 C2 (char); declared
    # order Y, X, C2, C1
    units = np.zeros((1, 13), dtype=np.int64)
    units[0, 3] = 4  # U_N_ALLOCS
    orders = np.array([1, 0, 3, 2], dtype=np.int64)
    allocs = np.zeros((4, 6), dtype=np.int64)
    allocs[:, 3] = [0, 0, 1, 1]      # character
    allocs[:, 4] = [2, 2, 4, 4]      # W
    alive = np.array([1, 1, 1, 1], dtype=np.int64)
    buffer = np.zeros(4, dtype=np.int64)

    def order(current):
        n = allocation_order(0, units, orders, allocs, alive, np.array(current), buffer)
        return list(buffer[:n])

    assert order([2, 2, 4, 4]) == [1, 0, 3, 2]          # declared order
    assert order([1, 2, 4, 4]) == [0, 1, 3, 2]          # wounded non-character group first
    assert order([2, 2, 3, 4]) == [1, 0, 2, 3]          # wounded character before unwounded
    assert order([1, 2, 3, 4]) == [0, 1, 2, 3]
    alive[:] = [0, 1, 1, 1]
    assert order([2, 2, 4, 4]) == [1, 3, 2]             # destroyed groups drop out


def test_declared_order_policies_keep_characters_last():
    unit = Unit("U", (group("Captain", 1, "T4 Sv2+ W5 [CHARACTER]"),
                      group("Light", 3, "T4 Sv5+ W1"), group("Heavy", 2, "T4 Sv2+ W3")),
                allocation_order="best_save_first")
    assert declared_order(unit)[-1] == 0 and declared_order(unit)[0] == 2
    worst = Unit("U", unit.groups, allocation_order="worst_save_first")
    assert declared_order(worst) == [1, 2, 0]
    listed = Unit("U", unit.groups)
    assert declared_order(listed) == [1, 2, 0]


@pytest.mark.parametrize("order, fragment", [
    (("Captain", "Light"), "comes before non-CHARACTER"),
    (("Light", "Light"), "twice"),
    (("Ghost",), "not one of its model groups"),
    ("cheapest", "not a policy"),
])
def test_illegal_allocation_orders(order, fragment):
    groups = (group("Captain", 1, "T4 Sv2+ W5 [CHARACTER]"), group("Light", 3, "T4 Sv5+ W1"))
    with pytest.raises(ScenarioError, match=fragment):
        Unit("U", groups, allocation_order=order)


def test_three_leaders_are_refused():
    body = Unit("Body", (group("Trooper", 5, "T4 Sv3+ W1"),))
    leaders = [Unit(f"L{i}", (group(f"Leader{i}", 1, "T4 Sv3+ W4 [CHARACTER]"),)) for i in range(3)]
    with pytest.raises(ScenarioError, match="at most one Leader and one Support"):
        attach(body, *leaders)


def test_devastating_wounds_mortals_go_to_one_model_and_spill_no_further():
    # 24.10 example: a critical wound with fixed D3 against W2 models destroys exactly one.
    shooters = Unit("S", (group("G", 1, "T4 Sv3+ W2", "Gun: 24\" A1 BS2+ S4 AP0 D 3 [DEVASTATING WOUNDS]"),))
    target = Unit("T", (group("Intercessor", 5, "T4 Sv3+ W2"),))
    out = run_scripted(shooting(shooters, target, [shooters, target]), [5, 6])
    assert out["units"]["T"]["models_destroyed"] == 1
    assert out["units"]["T"]["wounds_lost"] == 2


def test_precision_picks_the_character_group():
    shooters = Unit("S", (group("G", 1, "T4 Sv3+ W2", "Sniper: 36\" A1 BS2+ S4 AP0 D 3 [PRECISION]"),))
    body = Unit("Body", (group("Trooper", 5, "T4 Sv7+ W1"),))
    leader = Unit("Cap", (group("Captain", 1, "T4 Sv7+ W3 [CHARACTER]"),))
    unit = attach(body, leader)
    out = run_scripted(shooting(shooters, unit, [shooters, unit]), [5, 5, 5])
    assert out["units"]["Body"]["groups"] == {"Trooper": 0, "Captain": 1}


def test_one_shot_weapons_fire_once_per_battle():
    launcher = "Missile: 48\" A1 BS2+ S10 AP-3 D1 [ONE SHOT]"
    shooters = Unit("S", (group("G", 1, "T4 Sv3+ W2", launcher, BOLTGUN),))
    target = Unit("T", (group("Trooper", 10, "T4 Sv7+ W1"),))
    import dataclasses
    sc = dataclasses.replace(shooting(shooters, target, [shooters, target]), rounds=2)
    # Round 1: missile (hit 6, wound 6, save 1) and boltgun (hits 6 6, wounds 6 6, saves
    # 1 1): 3 kills. Round 2: the boltgun alone: the missile is spent. 2 more kills.
    faces = [6, 6, 1] + [6, 6, 6, 6, 1, 1] + [6, 6, 6, 6, 1, 1]
    out = run_scripted(sc, faces)
    assert out["units"]["T"]["models_destroyed"] == 5
    assert out["dice_used"] == len(faces)


def test_advanced_units_shoot_only_assault_weapons():
    rifle = "Bolt rifle: 24\" A2 BS3+ S4 AP-1 D1 [ASSAULT]"
    heavy = "Heavy bolter: 36\" A3 BS4+ S5 AP-1 D2 [HEAVY]"
    shooters = Unit("S", (group("G", 1, "T4 Sv3+ W2", rifle, heavy),))
    target = Unit("T", (group("Trooper", 10, "T4 Sv7+ W1"),))
    from mathhammer.wh40k.profiles import Situation
    from mathhammer.wh40k.scenario.selection import select_attacks
    act = Activation("shooting", "S", "T", situation=Situation(advanced=True))
    sc = Scenario({"S": shooters, "T": target}, (act,))
    assert [a.weapon.name for a in select_attacks(sc.units, act)] == ["Bolt rifle"]
    assert [a.weapon.name for a in sc.attacks[0]] == ["Bolt rifle"]
    with pytest.raises(Exception, match="ASSAULT"):
        bad = Activation("shooting", "S", "T", weapons=(WeaponChoice("Heavy bolter"),),
                         situation=Situation(advanced=True))
        from mathhammer.wh40k.scenario.compile import compile_scenario
        compile_scenario(Scenario({"S": shooters, "T": target}, (bad,)))
