"""An activation's weapons and targets (wh40k/scenario/selection.py): named choices, counts,
splits, Hunter profiles and sides, each read off 04.01-04.03.02 by hand."""

import pytest

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.activations import Activation, WeaponChoice
from mathhammer.wh40k.scenario.selection import infer_sides, select_attacks
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit

PLASMA = CarriedWeapon("Plasma", (parse_weapon('Plasma - standard: 24" A1 BS3+ S7 AP-2 D1'),
                                  parse_weapon('Plasma - supercharge: 24" A1 BS3+ S8 AP-3 D2')))
CHOPPA = CarriedWeapon("Choppa", (parse_weapon("Choppa: Melee A3 WS3+ S5 AP-1 D1"),))
LANCE = CarriedWeapon("Lance", (parse_weapon('Lance: 24" A1 BS3+ S12 AP-3 DD6'),),
                      hunter=(frozenset({"VEHICLE"}),))


def units():
    def unit(name, line, *weapons, count=5):
        return Unit(name, (ModelGroup(name, count, parse_target(line), weapons),))
    return {"Marines": unit("Marines", "T4 Sv3+ W2 [INFANTRY]", PLASMA, CHOPPA, LANCE),
            "Boyz": unit("Boyz", "T5 Sv5+ W1 [INFANTRY]", CHOPPA, count=10),
            "Grots": unit("Grots", "T2 Sv7+ W1 [INFANTRY]"),
            "Truk": unit("Truk", "T8 Sv4+ W10 [VEHICLE]", count=1)}


def picks(activation):
    return [(a.weapon.name, a.target, a.models_skipped, a.models_cap, a.split_attacks)
            for a in select_attacks(units(), activation)]


def test_a_named_profile_fires():
    act = Activation("shooting", "Marines", "Boyz",
                     weapons=(WeaponChoice("Plasma - supercharge"),))
    assert picks(act) == [("Plasma - supercharge", "Boyz", 0, None, None)]


def test_a_count_shares_the_models_between_profiles():
    # 2 of 5 supercharge; the other 3 fire the first profile not chosen with a count
    act = Activation("shooting", "Marines", "Boyz",
                     weapons=(WeaponChoice("Plasma - supercharge", count=2),))
    assert picks(act) == [("Plasma - supercharge", "Boyz", 0, 2, None),
                          ("Plasma - standard", "Boyz", 2, None, None)]
    with pytest.raises(ScenarioError, match="count = 6 is more than the 5 models"):
        select_attacks(units(), Activation("shooting", "Marines", "Boyz", weapons=(
            WeaponChoice("Plasma - supercharge", count=6),)))


def test_a_melee_split_sends_each_target_its_attacks():
    act = Activation("fight", "Marines", weapons=(
        WeaponChoice("Choppa", split=(("Boyz", 2), ("Grots", 1))),))
    assert picks(act) == [("Choppa", "Boyz", 0, None, 2), ("Choppa", "Grots", 0, None, 1)]
    with pytest.raises(ScenarioError, match="sends 2 attacks per model but the weapon has A3"):
        select_attacks(units(), Activation("fight", "Marines", weapons=(
            WeaponChoice("Choppa", split=(("Boyz", 1), ("Grots", 1))),)))


def test_hunter_profiles_only_at_their_keywords():
    act = Activation("shooting", "Marines", "Truk", weapons=(WeaponChoice("Lance"),))
    assert picks(act) == [("Lance", "Truk", 0, None, None)]
    with pytest.raises(ScenarioError, match="Hunter profile that may only target VEHICLE"):
        select_attacks(units(), Activation("shooting", "Marines", "Boyz",
                                           weapons=(WeaponChoice("Lance"),)))


@pytest.mark.parametrize("act, message", [
    (Activation("shooting", "Marines", "Boyz", weapons=(WeaponChoice("Choppa"),)),
     "'Choppa' is a melee weapon and the phase is shooting"),
    (Activation("shooting", "Marines", "Boyz", weapons=(WeaponChoice("Plasmagun"),)),
     "has no weapon 'Plasmagun'; did you mean 'Plasma'"),
    (Activation("shooting", "Marines", "Marines", weapons=(WeaponChoice("Plasma"),)),
     "cannot attack itself"),
    (Activation("shooting", "Marines", "Orks", weapons=(WeaponChoice("Plasma"),)),
     "unknown target unit 'Orks'"),
    (Activation("shooting", "Marines", weapons=(WeaponChoice("Plasma"),)), "has no target"),
])
def test_refusals(act, message):
    with pytest.raises(ScenarioError, match=message):
        select_attacks(units(), act)


def test_sides_from_who_attacks_whom():
    us = units()
    acts = [Activation("shooting", "Marines", "Boyz", weapons=(WeaponChoice("Plasma"),)),
            Activation("fight", "Boyz", "Marines")]
    attacks = [select_attacks(us, a) for a in acts]
    sides = infer_sides(us, acts, attacks)
    assert sides["Marines"] != sides["Boyz"]
    assert sides["Marines"] == "A"
