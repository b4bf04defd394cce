"""40k value objects (wh40k/profiles.py): weapons, targets and options refuse the impossible."""

import pytest

from mathhammer.errors import OptionError, ProfileError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Ability, Modifiers, Rules, Situation


def test_weapon_abilities_and_counts():
    weapon = parse_weapon('2x Melta: 12" A1 BS3+ S9 AP-4 DD6 [MELTA 2, ANTI-VEHICLE 4+]')
    assert weapon.count == 2 and weapon.with_count(5).count == 5
    assert weapon.has(ab.MELTA) and not weapon.has(ab.TORRENT)
    anti = weapon.active(ab.ANTI, frozenset({"VEHICLE"}))
    assert len(anti) == 1 and weapon.active(ab.ANTI, frozenset({"INFANTRY"})) == ()
    assert parse_weapon('Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT]').auto_hits


@pytest.mark.parametrize("name", [ab.RAPID_FIRE, ab.SUSTAINED_HITS, ab.MELTA, ab.CLEAVE])
def test_ability_built_in_python_needs_its_value(name):
    # found by mypy (value is DiceExpr | None): Ability(RAPID_FIRE) without X used to reach
    # the batch tables and end in an AttributeError traceback within half range
    with pytest.raises(ProfileError, match=f"^{name} needs a value, e.g. {name} D3"):
        Ability(name)
    assert Ability(name, parse_weapon("W: A1 BS3+ S4 AP0 D2").damage).value.constant == 2
    assert Ability(ab.BLAST).number == 1   # [BLAST]'s X is optional


def test_targets():
    target = parse_target("5x T4 Sv3+ W2 [INFANTRY, STEALTH]")
    assert target.total_wounds == 10 and target.has_stealth
    assert not target.all_monster_or_vehicle
    assert parse_target("T10 Sv3+ W12 [VEHICLE]").all_monster_or_vehicle
    assert target.with_count(1).total_wounds == 2


@pytest.mark.parametrize("line, message", [
    ('Bolter: 24" A1 BS7+ S4 AP0 D1', "BS7\\+.* is impossible"),
    ('Bolter: 24" A1 BS3+ S0 AP0 D1', "S0.* is impossible: S is at least 1"),
    ('Bolter: 24" A1 BS3+ S4 AP1 D1', "AP is 0 or negative; write AP-1"),
    ('Bolter: 24" A1 BS3+ S4 AP0 D0', "damage is at least 1"),
])
def test_impossible_weapons(line, message):
    with pytest.raises(ProfileError, match=message):
        parse_weapon(line)


@pytest.mark.parametrize("line, message", [
    ("T0 Sv3+ W1", "T0.* is impossible"),
    ("T4 Sv1+ W1", "saves run from 2\\+ to 6\\+"),
    ("T4 Sv3+ W0", "W0.* is impossible"),
])
def test_impossible_targets(line, message):
    with pytest.raises(ProfileError, match=message):
        parse_target(line)


@pytest.mark.parametrize("kwargs, message", [
    (dict(advanced=True, stationary=True), "did not remain stationary"),
    (dict(advanced=True, indirect=True), "needs a unit that did not advance"),
    (dict(indirect=True, overwatch=True), "different"),
    (dict(spotted=True), "only matters for indirect shooting"),
])
def test_impossible_situations(kwargs, message):
    with pytest.raises(OptionError, match=message):
        Situation(**kwargs)


def test_modifiers_and_rules():
    with pytest.raises(OptionError, match="saves have no critical results"):
        Modifiers(reroll_saves="noncrit")
    with pytest.raises(OptionError, match="is not a re-roll policy"):
        Modifiers(reroll_hits="sometimes")
    with pytest.raises(OptionError, match="crit_hits=1 is impossible"):
        Modifiers(crit_hits=1)
    assert Rules().edition == 11 and Rules(edition=10).edition == 10
