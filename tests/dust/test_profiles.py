"""Dust profiles (dust/profiles.py): successes on the dice and damage applied, by hand."""

import pytest

from mathhammer.dust.profiles import (Casualties, Rules, Target, apply_damage,
                                      count_successes, with_switches)
from mathhammer.errors import OptionError, ProfileError


def test_count_successes_classic_and_newer_dice():
    assert count_successes(["hit", "hit", "blank", "blank"]) == 2
    # newer dice: a single success is the army symbol; double adds target (hit) or shield
    assert count_successes(["army", "target", "shield"], rule="double") == 2
    assert count_successes(["army", "target", "shield"], rule="double", purpose="save") == 2
    assert count_successes(["army", "target", "shield"]) == 1
    with pytest.raises(ProfileError, match="unknown die face 'skull'"):
        count_successes(["skull"])
    with pytest.raises(OptionError, match="success rule must be 'single' or 'double'"):
        count_successes(["hit"], rule="triple")


def test_apply_damage_to_a_squad():
    squad = Target("Laser Grenadiers", "infantry", 2, models=5)
    assert apply_damage(squad, 3) == Casualties(3, 2, False, 0)
    assert apply_damage(squad, 7) == Casualties(5, 0, True, 2)  # 2 points of overkill
    with pytest.raises(OptionError, match="must not be negative"):
        apply_damage(squad, -1)


def test_with_switches():
    assert with_switches(None, {}) == Rules()
    with pytest.raises(OptionError):
        with_switches(None, {"no_such_switch": True})
