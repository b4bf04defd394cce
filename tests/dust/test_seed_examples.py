"""The worked examples of the rule text (seed 003): the Pounder's volley and the shotgun
rangers who lose two models."""

from fractions import Fraction as F

import pytest

from mathhammer.dust import (
    apply_damage, count_successes, exact_pmfs, load_unit, parse_target, pool_after_losses,
)
from mathhammer.errors import OptionError


def test_pounder_volley_with_fixed_faces():
    pounder = load_unit("seed.toml", "Pounder")
    grenadiers = load_unit("seed.toml", "Laser Grenadiers").profile
    pools = pool_after_losses(pounder, grenadiers)
    assert pools == {"17-pounder": 4, ".50 cal": 3, ".30 cal": 3}
    faces = {"17-pounder": ["hit", "hit", "blank", "blank"],
             ".50 cal": ["hit", "blank", "blank"],
             ".30 cal": ["blank", "blank", "blank"]}
    damage = 0
    for name, rolled in faces.items():
        assert len(rolled) == pools[name]
        cell = pounder.weapon(name).cell_for(grenadiers.unit_class, grenadiers.armour)
        damage += count_successes(rolled) * cell.damage
    assert damage == 3
    casualties = apply_damage(grenadiers, damage)
    assert (casualties.lost, casualties.remaining, casualties.destroyed) == (3, 2, False)


def test_pounder_volley_distribution_from_the_unit_file():
    pmf = exact_pmfs("seed.toml#Pounder", "seed.toml#Laser Grenadiers")
    assert pmf["hits"][3] == F(5120, 19683)
    assert pmf["models_destroyed"][5] == F(4195, 19683)


def test_four_shotgun_rangers_losing_two_models():
    rangers = load_unit("seed.toml", "Assault Rangers")
    level2 = parse_target("G: INFANTRY2")
    assert rangers.profile.models == 5
    assert pool_after_losses(rangers, level2) == {"Shotgun": 12}
    # protect_special: the two losses are shotgun carriers, the flamethrower stays
    assert pool_after_losses(rangers, level2, 2) == {"Shotgun": 6}
    # the same answer through the weapon syntax: 12 dice, then 6
    assert len(exact_pmfs("seed.toml#Assault Rangers/Shotgun", level2)["hits"]) == 13
    assert len(exact_pmfs("2x seed.toml#Assault Rangers/Shotgun", level2)["hits"]) == 7


def test_flamethrower_is_special_once_per_squad():
    rangers = load_unit("seed.toml", "Assault Rangers")
    flamer = rangers.weapon("Flamethrower")
    assert flamer.special and flamer.ignores_cover
    assert rangers.carriers("Flamethrower") == 1


def test_the_pounder_cannot_use_an_unknown_cell():
    with pytest.raises(OptionError, match="cannot attack"):
        exact_pmfs("seed.toml#Pounder/.50 cal", "Luther: VEHICLE6 BOXES4")


def test_dice_faces_and_success_rules():
    assert count_successes(["hit", "blank", "blank"], rule="double") == 2
    assert count_successes(["army", "target", "shield"]) == 1
    assert count_successes(["army", "target", "shield"], rule="double") == 2
    assert count_successes(["army", "target", "shield"], rule="double", purpose="save") == 2
    assert count_successes(["target", "target"], rule="double", purpose="save") == 0
