"""Warmachine attack lines, targets and rule switches (warmachine/profiles.py)."""

import pytest

from mathhammer.errors import OptionError, ProfileError
from mathhammer.warmachine.parse import parse_attack, parse_target
from mathhammer.warmachine.profiles import Rules, ceil_half


def test_ceil_half():
    assert [ceil_half(v) for v in (0, 1, 7, 8, 15)] == [0, 1, 4, 4, 8]


def test_rules_say_what_differs_from_the_default():
    assert Rules().changes() == ()
    assert Rules(tough_allowed=False).changes() == ("no Tough rolls",)
    assert Rules().as_dict()["stationary_base_def"] == 5
    with pytest.raises(OptionError, match=r"aoe_miss_coverage \(a probability\) must be a number from 0 to 1, not float 1.5"):
        Rules(aoe_miss_coverage=1.5)
    with pytest.raises(OptionError, match="transfer_policy 'never'"):
        Rules(transfer_policy="never")


def test_attack_derived_values():
    sword = parse_attack("Sword: MAT7 POW12")
    assert sword.is_melee and not sword.is_aoe and sword.attack_dice_rolled == 2
    boosted = parse_attack("Sword: MAT7 POW12 [BOOSTED ATTACK]")
    assert boosted.attack_dice_rolled == 3
    # an AOE without a printed blast POW blasts at half its POW, rounded up
    mortar = parse_attack("Mortar: RAT5 POW15 [AOE]")
    assert mortar.is_aoe and mortar.effective_blast_pow == 8
    assert parse_attack("3x Sword: MAT7 POW12").with_count(1).count == 1


def test_targets():
    jack = parse_target("Jack: DEF12 ARM18 BOXES20 [DAMAGED 5]")
    assert (jack.defense, jack.armor, jack.boxes_left) == (12, 18, 15)
    with pytest.raises(ProfileError, match="DAMAGED 20 marks every one of the 20"):
        parse_target("Jack: DEF12 ARM18 BOXES20 [DAMAGED 20]")
    with pytest.raises(ProfileError, match="TOUGH 7\\+ is not a d6 roll"):
        parse_target("Trooper: DEF13 ARM13 BOXES1 [TOUGH 7]")
