"""The exact engine against brute-force enumeration of every die (tests/dust/oracle.py)."""

import pytest

from mathhammer.dust import exact_pmfs
from tests.dust.oracle import as_list, enumerate_outcomes, marginal, weapon_procedure

CASES = [
    # (weapon text, target text, engine switches, oracle arguments)
    ("G: 3/1", "9x T: INFANTRY2", {}, dict(n=3)),
    ("G: 3/1", "9x T: INFANTRY2 [SOFT COVER]", {"sustained": True},
     dict(n=3, reroll=True, cover=2)),
    ("G: 2/2", "9x T: INFANTRY2 [HARD COVER, DAMAGE RESILIENT]", {},
     dict(n=2, damage=2, cover=4, dr=2)),
    ("G: 2/3", "9x T: INFANTRY2 [HARD COVER]", {"cover_save_per": "damage_point"},
     dict(n=2, damage=3, cover=4, per_point=True)),
    ("G: 2/1 [DOUBLE SUCCESS]", "9x T: INFANTRY2 [SOFT COVER]", {"sustained": True},
     dict(n=2, success=4, reroll=True, cover=2)),
    ("P: 2z2", "9x T: INFANTRY2 [HARD COVER, DAMAGE RESILIENT]", {"sustained": True},
     dict(n=2, phaser=2, reroll=True, dr=2)),
    ("L: 2/1 [LASER]", "9x T: INFANTRY2 [SOFT COVER]", {"laser_chain_depth": 2},
     dict(n=2, laser=True, laser_depth=2, cover=2)),
    ("L: 2/2 [LASER]", "9x T: INFANTRY2", {"sustained": True, "laser_extra_rerolled": True},
     dict(n=2, laser=True, laser_depth=1, reroll=True, laser_reroll=True, damage=2)),
    ("F: 3/1 [FLAME]", "9x T: INFANTRY2 [HARD COVER, DAMAGE RESILIENT]", {}, dict(n=3, dr=2)),
    ("G: 2/1", "Tank: VEHICLE3 BOXES3 [HARD COVER, HARD SAVE HIT]", {}, dict(n=2, cover=2)),
    ("G: 2/1", "Tank: VEHICLE3 BOXES3 [HARD COVER]", {}, dict(n=2)),
    ("G: 2/2", "9x T: INFANTRY2 [IMPROVED EVADE, SOFT COVER]", {"ruleset": "dust1947"},
     dict(n=2, damage=2, evade=4, cover=4)),
    ("S: 2/1 [SNIPER]", "9x T: INFANTRY2 [EVADE, HARD COVER]", {"ruleset": "dust1947"},
     dict(n=2, evade=2)),
    ("G: 2/1", "9x T: INFANTRY2", {"ruleset": "dust1947"}, dict(n=2, cover=2)),
    ("G: 2/1", "Jet: AIRCRAFT2 BOXES2", {"sustained": True}, dict(n=2)),
    ("G: 2/1", "Jet: AIRCRAFT2 BOXES2", {"sustained": True, "aircraft_no_reroll": False},
     dict(n=2, reroll=True)),
]


@pytest.mark.parametrize("weapon, target, switches, oracle", CASES)
def test_single_weapon_matches_enumeration(weapon, target, switches, oracle):
    brute = enumerate_outcomes(weapon_procedure(**oracle))
    engine = exact_pmfs(weapon, target, **switches)
    for index, name in enumerate(("hits", "damage_before_saves", "damage")):
        expected = as_list(marginal(brute, index))
        got = list(engine[name])
        got += [0] * (len(expected) - len(got))
        expected += [0] * (len(got) - len(expected))
        assert got == expected, name


def test_two_weapons_and_capping_match_enumeration():
    first = weapon_procedure(n=2, reroll=True, cover=2)
    second = weapon_procedure(n=2, damage=2, cover=2)

    def both(roll):
        return first(roll)[2] + second(roll)[2]

    brute = enumerate_outcomes(both)
    engine = exact_pmfs(["A: 2/1", "B: 2/2"], "3x T: INFANTRY1 [SOFT COVER]", sustained=True)
    # the sustained attack rerolls both weapons: rebuild the oracle accordingly
    second_sustained = weapon_procedure(n=2, damage=2, cover=2, reroll=True)
    brute = enumerate_outcomes(lambda roll: first(roll)[2] + second_sustained(roll)[2])
    damage = as_list(brute)
    assert list(engine["damage"]) == damage + [0] * (len(engine["damage"]) - len(damage))
    losses = [0] * 4
    for d, p in enumerate(damage):
        losses[min(d, 3)] += p
    assert list(engine["models_destroyed"]) == losses
    overkill = [0] * max(len(damage) - 3, 1)
    for d, p in enumerate(damage):
        overkill[max(d - 3, 0)] += p
    assert list(engine["overkill"]) == overkill


UNBOUNDED_CASES = [
    # (weapon, target, switches, oracle arguments, chain depth the oracle follows)
    ("L: 2/1 [LASER]", "30x T: INFANTRY2", {}, dict(n=2, laser=True), 12),
    ("L: 1/1 [LASER]", "30x T: INFANTRY2", {"sustained": True, "laser_extra_rerolled": True},
     dict(n=1, laser=True, reroll=True, laser_reroll=True), 12),
    ("L: 1/2 [LASER]", "30x T: INFANTRY2 [SOFT COVER]", {}, dict(n=1, laser=True, damage=2,
                                                              cover=2), 8),
    ("L: 1/2 [LASER]", "30x T: INFANTRY2 [HARD COVER]", {"cover_save_per": "damage_point"},
     dict(n=1, laser=True, damage=2, cover=4, per_point=True), 5),
]


@pytest.mark.parametrize("weapon, target, switches, oracle, depth", UNBOUNDED_CASES)
def test_unbounded_laser_matches_deep_enumeration(weapon, target, switches, oracle, depth):
    """The oracle follows the chain ``depth`` generations deep. The two laws differ only when
    some die's chain reaches that depth (probability at most n * pe**depth), so every
    probability of every outcome agrees to within that bound, exactly in rationals."""
    from fractions import Fraction

    pe = Fraction(5, 9) if oracle.get("laser_reroll") else Fraction(1, 3)
    bound = oracle["n"] * pe ** depth
    brute = enumerate_outcomes(weapon_procedure(laser_depth=depth, **oracle))
    engine = exact_pmfs(weapon, target, laser_chain_depth=None, **switches)
    for index, name in enumerate(("hits", "damage_before_saves", "damage")):
        expected = as_list(marginal(brute, index))
        got = list(engine[name])
        size = max(len(got), len(expected))
        got += [0] * (size - len(got))
        expected += [0] * (size - len(expected))
        assert max(abs(g - e) for g, e in zip(got, expected)) <= bound, name
        assert bound < Fraction(1, 200)
