"""Dust exchanges of fire (dust/exchanges.py): removal orders, dice left after losses and one
round of fire, worked out by hand (a die hits on 1/3)."""

import pytest

from mathhammer.dust.exchanges import exchange, pool_after_losses, removal_order
from mathhammer.dust.parse import parse_target, parse_weapon_line
from mathhammer.dust.profiles import ModelGroup, Unit
from mathhammer.errors import OptionError, UnsupportedError


def lone(name):
    return Unit(name, parse_target(f"{name}: INFANTRY1"), (parse_weapon_line("Rifle: 1/1")[0],),
                (ModelGroup(1, ("Rifle",)),))


def squad():
    # two riflemen and a bazooka (a special weapon: '(1)' on the line)
    return Unit("Squad", parse_target("3x Squad: INFANTRY1"),
                (parse_weapon_line("Rifle: 1/1")[0], parse_weapon_line("Bazooka (1): 3/1")[0]),
                (ModelGroup(2, ("Rifle",)), ModelGroup(1, ("Bazooka",))))


def test_removal_orders():
    unit = squad()
    assert removal_order(unit, "protect_special").tolist() == [0, 1]   # riflemen first
    reference = parse_target("G: INFANTRY1")
    # against infantry the rifle adds 1 die, the bazooka 3: the owner loses riflemen first,
    # the attacker would take the bazooka first
    assert removal_order(unit, "owner_optimal", reference).tolist() == [0, 1]
    assert removal_order(unit, "attacker_worst", reference).tolist() == [1, 0]
    with pytest.raises(UnsupportedError, match="no fixed removal order"):
        removal_order(unit, "random")


def test_pool_after_losses():
    unit = squad()
    assert pool_after_losses(unit, "G: INFANTRY1") == {"Rifle": 2, "Bazooka": 3}
    assert pool_after_losses(unit, "G: INFANTRY1", 2) == {"Rifle": 0, "Bazooka": 3}
    assert pool_after_losses(unit, "G: INFANTRY1", 1, "attacker_worst") == {"Rifle": 2,
                                                                             "Bazooka": 0}
    with pytest.raises(OptionError, match="lost .* whole number from 0"):
        pool_after_losses(unit, "G: INFANTRY1", -1)


def test_one_round_of_fire():
    # A's rifle kills B with 1/3; B, if still standing (2/3), kills A with 1/3: 2/9
    result = exchange(lone("A"), lone("B"), 1)
    assert result.mean("b_losses") == pytest.approx(1 / 3)
    assert result.mean("a_losses") == pytest.approx(2 / 9)
    assert result.probability("a_destroyed") == pytest.approx(2 / 9)
