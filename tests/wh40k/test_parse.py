import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer.core.dice import DiceExpr
from mathhammer.errors import ProfileError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import NO_SAVE, Ability, TargetProfile, Weapon


def test_issue_examples():
    w = parse_weapon('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]')
    assert (w.count, w.name, w.range_inches, w.melee) == (10, "Bolt rifle", 24, False)
    assert (str(w.attacks), w.skill, w.strength, w.ap, str(w.damage)) == ("2", 3, 4, -1, "1")
    assert [a.name for a in w.abilities] == [ab.ASSAULT, ab.HEAVY]
    hammer = parse_weapon("Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]")
    assert hammer.melee and hammer.range_inches is None and hammer.has(ab.DEVASTATING_WOUNDS)
    cannon = parse_weapon('Battle cannon: 48" AD6+3 BS4+ S10 AP-1 D 3 [BLAST]')
    assert cannon.attacks == DiceExpr(1, 6, 3) and cannon.abilities == (Ability(ab.BLAST),)


@pytest.mark.parametrize("variant", [
    'Battle cannon: 48" A D6+3 BS4+ S10 AP -1 D 3 [BLAST]',
    'battle cannon: 48" ad6+3 bs4+ s10 ap-1 d 3 [blast]',
    'Battle cannon: 48 " AD6+3 BS 4+ S 10 AP-1 D 3 [ Blast ]',
])
def test_spacing_and_case_variants(variant):
    w = parse_weapon(variant)
    assert (w.attacks, w.skill, w.strength, w.ap, w.damage) == (DiceExpr(1, 6, 3), 4, 10, -1,
                                                                DiceExpr.fixed(3))


def test_ap_zero_and_na_skill():
    assert parse_weapon("x: A1 BS3+ S4 AP0 D1").ap == 0
    flamer = parse_weapon('Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT]')
    assert flamer.skill is None and flamer.auto_hits


def test_keyword_scoped_abilities_and_anti():
    w = parse_weapon("x: A1 BS3+ S4 AP0 D1 [LETHAL HITS: VEHICLE, MONSTER, ANTI-FLY 2, "
                     "SUSTAINED HITS D3, ANTI\u2011NON-VEHICLE 4+, TWIN LINKED]")
    lethal, fly, sustained, non_vehicle, twin = w.abilities
    assert lethal.scope == ("VEHICLE", "MONSTER")
    assert lethal.applies_to(frozenset({"MONSTER"})) and not lethal.applies_to(frozenset())
    assert (fly.anti_keyword, fly.threshold) == ("FLY", 2)
    assert sustained.value == DiceExpr(1, 3, 0)
    assert non_vehicle.applies_to(frozenset({"INFANTRY"}))
    assert not non_vehicle.applies_to(frozenset({"VEHICLE"}))
    assert twin.name == ab.TWIN_LINKED


@pytest.mark.parametrize("name", sorted(ab.WEAPON_ABILITIES))
def test_every_section_24_ability_is_recognised(name):
    spec = ab.WEAPON_ABILITIES[name]
    text = {ab.Param.ANTI: "ANTI-INFANTRY 4+", ab.Param.DICE: f"{name} D3",
            ab.Param.OPTIONAL_NUMBER: name, ab.Param.NONE: name}[spec.param]
    w = parse_weapon(f"x: A1 BS3+ S4 AP0 D1 [{text}]")
    assert w.abilities[0].name == name
    assert parse_weapon(str(w)) == w


def test_targets():
    t = parse_target("5x Intercessor: T4 Sv3+ W2 [INFANTRY, IMPERIUM]")
    assert (t.count, t.toughness, t.save, t.wounds, t.invuln) == (5, 4, 3, 2, None)
    assert t.keywords == {"INFANTRY", "IMPERIUM"}
    term = parse_target("5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]")
    assert term.invuln == 4 and term.invuln_scope == "all"
    cultist = parse_target("10x Cultist: T3 Sv6+ W1 FNP6+")
    assert cultist.fnp == 6 and cultist.keywords == frozenset()
    knight = parse_target("Knight: T11 Sv3+ InSv5+(ranged) W26 FNP6+(mortal) [VEHICLE]")
    assert knight.invuln_scope == "ranged" and knight.fnp_mortal == 6 and knight.fnp is None
    assert parse_target("T2 Sv- W1").save == NO_SAVE


@pytest.mark.parametrize("line, fragment", [
    ("Bolt rifle: A2 BS3+ S4 AP-1", "missing characteristic D"),
    ("Bolt rifle: A2 BS3+ AP-1 D1", "missing characteristic S"),
    ("Bolt rifle: A2D BS3+ S4 AP-1 D1", "A2D at column 13"),
    ("Bolt rifle: AD7 BS3+ S4 AP-1 D1", "D7 is not a die"),
    ("Bolt rifle: A3D BS3+ S4 AP-1 D1", "malformed dice expression '3D'"),
    ("Bolt rifle: A2 BS3+ S4 AP-1 D1 [SUSTAINED HIT 1]", "did you mean 'SUSTAINED HITS 1'"),
    ("Bolt rifle: A2 BS3+ S4 AP-1 D1 [LETHAL HIT]", "did you mean 'LETHAL HITS'"),
    ("Bolt rifle: A2 BS3+ S4 AP-1 D1 [FROBNICATE]", "unknown ability 'FROBNICATE'"),
    ("Bolt rifle: A2 BS7+ S4 AP-1 D1", "BS7+ at column 16"),
    ("Bolt rifle: A2 BS1+ S4 AP-1 D1", "BS runs from 2+ to 6+"),
    ("-5x Bolt rifle: A2 BS3+ S4 AP-1 D1", "count '-5x'"),
    ("0x Bolt rifle: A2 BS3+ S4 AP-1 D1", "count '0x'"),
    ("Bolt rifle: A2 BS3+ S4 AP1 D1", "write AP-1"),
    ("Bolt rifle: A0 BS3+ S4 AP0 D1", "at least 1 attack"),
    ("Bolt rifle: A2 BS3+ S0 AP0 D1", "S is at least 1"),
    ("Bolt rifle 24\" A2 BS3+ S4 AP0 D1", "unknown token 'Bolt'"),
    ("x: A2 BS3+ S4 AP0 D1 D2", "second time"),
    ("x: A2 BS3+ S4 AP0 D1 [LANCE 2]", "LANCE takes no value"),
    ("x: A2 BS3+ S4 AP0 D1 [MELTA]", "MELTA needs a value"),
    ("x: A2 BS3+ S4 AP0 D1 [ANTI-INFANTRY 7+]", "between 2+ and 6+"),
    ("x: A2 BS3+ S4 AP0 D1 [ASSAULT", "never closed"),
    ("x: Melee A2 BS3+ S4 AP0 D1", "uses WS, not BS"),
    ("", "empty weapon line"),
])
def test_bad_weapon_lines(line, fragment):
    with pytest.raises(ProfileError) as err:
        parse_weapon(line)
    assert fragment in str(err.value)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("line, fragment", [
    ("5x Intercessor: T0 Sv3+ W2", "T0 at column 17"),
    ("T4 Sv1+ W2", "Sv1+"),
    ("T4 Sv3+ W0", "W0"),
    ("T4 Sv3+ InSv1+ W2", "InSv1+"),
    ("-3x Boy: T5 Sv5+ W1", "count '-3x'"),
    ("T4 W2", "missing characteristic Sv"),
    ("T4 Sv3+ W2 FNP7+", "Feel No Pain"),
    ("T4 Sv3+ W2 Q5", "unknown token 'Q5'"),
    ("T4 Sv3+ W2 [INFANTRY, 5]", "not a keyword"),
])
def test_bad_target_lines(line, fragment):
    with pytest.raises(ProfileError) as err:
        parse_target(line)
    assert fragment in str(err.value)


_dice = st.builds(DiceExpr, st.integers(1, 3), st.sampled_from([3, 6]), st.integers(0, 4)) | \
    st.builds(DiceExpr.fixed, st.integers(1, 12))
_ability = st.sampled_from([Ability(ab.LANCE), Ability(ab.BLAST), Ability(ab.MELTA,
                            DiceExpr.fixed(2)), Ability(ab.SUSTAINED_HITS, DiceExpr(1, 3, 0)),
                            Ability(ab.ANTI, anti_keyword="VEHICLE", threshold=4),
                            Ability(ab.LETHAL_HITS, scope=("MONSTER", "VEHICLE"))])


@settings(deadline=None, max_examples=150)
@given(attacks=_dice, damage=_dice, skill=st.one_of(st.none(), st.integers(2, 6)),
       strength=st.integers(1, 20), ap=st.integers(-6, 0), melee=st.booleans(),
       rng=st.one_of(st.none(), st.integers(1, 72)), count=st.integers(1, 20),
       abilities=st.lists(_ability, max_size=3, unique=True),
       name=st.sampled_from(["", "Bolt rifle", "Gun 2"]))
def test_weapon_round_trip(attacks, damage, skill, strength, ap, melee, rng, count, abilities,
                           name):
    w = Weapon(attacks=attacks, skill=skill, strength=strength, ap=ap, damage=damage, name=name,
               melee=melee, range_inches=None if melee else rng, abilities=tuple(abilities),
               count=count)
    assert parse_weapon(str(w)) == w


@settings(deadline=None, max_examples=150)
@given(t=st.integers(1, 14), sv=st.integers(2, 7), inv=st.one_of(st.none(), st.integers(2, 6)),
       w=st.integers(1, 30), fnp=st.one_of(st.none(), st.integers(2, 6)), n=st.integers(1, 30),
       kws=st.sets(st.sampled_from(["INFANTRY", "VEHICLE", "CHARACTER", "FLY"]), max_size=3))
def test_target_round_trip(t, sv, inv, w, fnp, n, kws):
    target = TargetProfile(toughness=t, save=sv, wounds=w, count=n, invuln=inv, fnp=fnp,
                           keywords=frozenset(kws), name="Unit")
    assert parse_target(str(target)) == target


def test_a_name_may_hold_brackets():
    # BSData names datasheets 'Battlesuit Veteran [Crucible]' (110 of the two editions'
    # current datasheets, 400 more with [Legends]): their target lines were refused as
    # "nested brackets". The name ends at the first colon outside brackets.
    target = parse_target("1x Battlesuit Veteran [Crucible]: T5 Sv2+ W6 [BATTLESUIT, INFANTRY]")
    assert (target.name, target.count, target.toughness, target.wounds) == (
        "Battlesuit Veteran [Crucible]", 1, 5, 6)
    assert target.keywords == frozenset({"BATTLESUIT", "INFANTRY"})
    assert parse_target(str(target)) == target
    gun = parse_weapon('Gun [Mk II]: 24" A2 BS3+ S4 AP0 D1 [ASSAULT]')
    assert gun.name == "Gun [Mk II]" and [a.name for a in gun.abilities] == ["ASSAULT"]


def test_a_scoped_abilitys_colon_is_not_a_name():
    nameless = parse_weapon("A2 BS3+ S4 AP0 D1 [LETHAL HITS: VEHICLE]")
    assert nameless.name == "" and nameless.abilities[0].scope == ("VEHICLE",)
    named = parse_weapon("Klaw: A2 WS3+ S4 AP0 D1 [LETHAL HITS: VEHICLE]")
    assert named.name == "Klaw" and named.abilities[0].scope == ("VEHICLE",)
