"""A weapon's per-batch tables (wh40k/weapon_tables.py): the wound table, the order of
Damage modifiers and the save modifiers of both editions, read off the rules by hand."""

import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.parse import parse_weapon
from mathhammer.wh40k.profiles import Rules, Situation
from mathhammer.wh40k.weapon_tables import (check_edition, check_situation, final_damage,
                                            save_modifiers, wound_threshold)


@pytest.mark.parametrize("strength, toughness, needed", [
    (8, 4, 2), (10, 4, 2),   # at least double: 2+
    (5, 4, 3),               # greater: 3+
    (4, 4, 4),               # equal: 4+
    (3, 4, 5), (3, 5, 5),    # lower but more than half: 5+
    (2, 4, 6), (3, 6, 6),    # half or less: 6+
])
def test_wound_table(strength, toughness, needed):
    assert wound_threshold(strength, toughness) == needed


@pytest.mark.parametrize("args, expected", [
    ((3, 0, False, 0), 3),
    ((3, 1, False, 2), 2),        # 3 + 1 - 2
    ((1, 0, False, 1), 1),        # never below 1
    ((5, 2, True, 1), 3),         # 11e: (5 + 2) / 2 - 1 = 2.5, rounded up
    ((5, 0, True, 0), 3),         # 5 / 2 = 2.5 -> 3
])
def test_final_damage_11th(args, expected):
    assert final_damage(*args) == expected


def test_final_damage_10th_halves_first():
    # 10e: 5 / 2 + 2 - 1 = 3.5, rounded up once at the end
    assert final_damage(5, 2, True, 1, edition=10) == 4


def test_save_modifiers():
    # 11e: cover is a BS change; only the given save modifier applies, to both saves
    assert save_modifiers(3, 0, True, 1, tenth=False) == (1, 1)
    # 10e: cover +1 to the armour save, but not Sv3+ or better against AP 0, at most +1
    assert save_modifiers(4, 0, True, 0, tenth=True) == (1, 0)
    assert save_modifiers(3, 0, True, 0, tenth=True) == (0, 0)
    assert save_modifiers(3, -1, True, 1, tenth=True) == (1, 1)


def test_situations_a_weapon_cannot_be_in():
    bolter = parse_weapon('Bolter: 24" A2 BS3+ S4 AP0 D1')
    with pytest.raises(OptionError, match="ASSAULT"):
        check_situation(bolter, Situation(advanced=True))
    with pytest.raises(OptionError, match="indirectly"):
        check_situation(bolter, Situation(indirect=True))
    check_situation(bolter, Situation(cover=True))
    conversion = parse_weapon('Gun: 24" A1 BS3+ S4 AP0 D1 [CONVERSION]')
    with pytest.raises(OptionError):
        check_edition(conversion, Situation(), Rules(edition=11))
    check_edition(conversion, Situation(), Rules(edition=10))
