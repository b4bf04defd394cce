"""Attack and target lines: round trips, fuzzing and error messages."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mathhammer.errors import ProfileError
from mathhammer.warmachine import Attack, Target
from mathhammer.warmachine.profiles import MAX_DICE
from mathhammer.warmachine.parse import parse_attack, parse_target

names = st.text(alphabet=string.ascii_letters + " '-", min_size=0, max_size=20).map(
    lambda s: " ".join(s.split()))


@st.composite
def attacks(draw):
    kind = draw(st.sampled_from(["MAT", "RAT", "AAT"]))
    count = draw(st.integers(1, 6))
    boosted_attack = draw(st.booleans())
    shape = draw(st.sampled_from(["plain", "aoe", "spray"]))
    blast = draw(st.none() | st.integers(0, 20)) if shape == "aoe" else None
    reroll = draw(st.sampled_from(["none", "on_miss", "on_miss_or_no_crit"]))
    generate = draw(st.sampled_from(["none", "on_hit", "on_kill"]))
    return Attack(
        name=draw(names), count=count, stat_kind=kind, stat=draw(st.integers(0, 12)),
        pow=draw(st.integers(0, 25)), blast_pow=blast,
        aoe=shape == "aoe" and (blast is None or draw(st.booleans())),
        catches=draw(st.integers(0, 4)) if shape == "aoe" else 0,
        spray=draw(st.integers(1, 5)) if shape == "spray" else 0,
        charge=kind == "MAT" and draw(st.booleans()),
        boosted_attack=boosted_attack, boosted_damage=draw(st.booleans()),
        damage_boosts=draw(st.integers(0, 3)),
        attack_boosts=0 if boosted_attack else draw(st.integers(0, count)),
        attack_dice=draw(st.integers(0, MAX_DICE - 3)),
        damage_dice=draw(st.integers(0, 2)), attack_drop=draw(st.integers(0, 2)),
        damage_drop=draw(st.integers(0, 2)), attack_reduced=draw(st.integers(0, 2)),
        damage_reduced=draw(st.integers(0, 2)), armor_piercing=draw(st.booleans()),
        crit_armor_piercing=draw(st.booleans()), crit_knockdown=draw(st.booleans()),
        crit_no_tough=draw(st.booleans()), crit_continuous=draw(st.booleans()),
        crit_damage_multiplier=draw(st.integers(1, 3)),
        crit_damage_dice=draw(st.integers(0, 2)), auto_hit=draw(st.booleans()),
        auto_miss=draw(st.booleans()), reroll_attack=reroll,
        attack_rerolls=draw(st.integers(1, 3)) if reroll != "none" else 1,
        reroll_damage_below=draw(st.none() | st.integers(1, 10)),
        damage_rerolls=draw(st.integers(1, 3)), generate=generate,
        max_generated=draw(st.none() | st.integers(1, 4)))


@st.composite
def targets(draw):
    boxes = draw(st.integers(1, 40))
    tough = draw(st.booleans())
    return Target(name=draw(names), count=draw(st.integers(1, 10)),
                  defense=draw(st.integers(0, 25)), armor=draw(st.integers(0, 25)),
                  boxes=boxes, damaged=draw(st.integers(0, boxes - 1)), tough=tough,
                  tough_threshold=draw(st.integers(2, 6)) if tough else 5,
                  knocked_down=draw(st.booleans()), stationary=draw(st.booleans()))


@settings(deadline=None, max_examples=200)
@given(attacks())
def test_attack_round_trip(attack):
    assert parse_attack(str(attack)) == attack


@settings(deadline=None, max_examples=200)
@given(targets())
def test_target_round_trip(target):
    assert parse_target(str(target)) == target


@settings(deadline=None, max_examples=300)
@given(st.text(alphabet=string.ascii_letters + string.digits + " :[],+-x", max_size=60))
def test_arbitrary_text_parses_or_raises_profile_error(text):
    for parse in (parse_attack, parse_target):
        try:
            parse(text)
        except ProfileError as exc:
            assert str(exc)


@settings(deadline=None, max_examples=100)
@given(attacks())
def test_keywords_are_case_insensitive(attack):
    text = str(attack)
    head, bracket, rest = text.partition("[")
    assert parse_attack(head + bracket + rest.lower()) == attack


def test_issue_examples():
    hammer = parse_attack("3x Battle hammer: MAT7 POW16 [CHARGE, ARMOR-PIERCING, CRITICAL "
                          "KNOCKDOWN, BOOSTED ATTACK, BOOSTED DAMAGE, ADDITIONAL DAMAGE DIE]")
    assert (hammer.count, hammer.name, hammer.stat_kind, hammer.stat, hammer.pow) == \
        (3, "Battle hammer", "MAT", 7, 16)
    assert hammer.charge and hammer.armor_piercing and hammer.crit_knockdown
    assert hammer.boosted_attack and hammer.boosted_damage and hammer.damage_dice == 1
    trencher = parse_target("5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]")
    assert (trencher.count, trencher.defense, trencher.armor, trencher.boxes, trencher.tough) \
        == (5, 13, 13, 1, True)
    jack = parse_target("Heavy warjack: DEF12 ARM19 BOXES30 [KNOCKED DOWN]")
    assert jack.count == 1 and jack.knocked_down and jack.boxes == 30
    mortar = parse_attack("Mortar: RAT5 POW15 [BLAST POW 8]")
    assert mortar.is_aoe and mortar.effective_blast_pow == 8 and not mortar.is_melee
    assert parse_attack("Bolt: AAT6 POW12").stat_kind == "AAT"


def test_aliases():
    assert parse_attack("Pick: MAT6 POW12 [armour-piercing]").armor_piercing
    assert parse_attack("Pick: MAT6 POW12 [AUTOMATIC HIT]").auto_hit
    assert parse_attack("Pick: MAT6 POW12 [CRITICAL CORROSION]").crit_continuous
    assert parse_attack("Pick: MAT6 POW12 [RE-ROLL MISSES 2]").attack_rerolls == 2
    assert parse_target("Grunt: DEF12 ARM12 [TOUGH 4+]").tough_threshold == 4


BAD_ATTACKS = [
    ("Hammer: MAT7 POW16 [CHRAGE]", "did you mean 'CHARGE'", "CHRAGE", 21),
    ("Hammer: MAT7 POW16 [ARMOR-PEIRCING]", "did you mean 'ARMOR-PIERCING'", None, 21),
    ("0x Hammer: MAT7 POW16", "impossible", "0x", 1),
    ("-2x Hammer: MAT7 POW16", "impossible", "-2x", 1),
    ("Hammer: MAT7 POW-3", "must not be negative", "POW-3", 14),
    ("Hammer: MAT7", "needs the weapon's POW", None, None),
    ("Hammer: POW7", "add MAT n (melee), RAT n (ranged) or AAT n", None, None),
    ("Hammer: MAT7 RAT5 POW7", "not both", "RAT5", 14),
    ("Hammer: MAX7 POW3", "did you mean 'MAT'", "MAX7", 9),
    ("Hammer: MAT 7 POW3", "malformed characteristic 'MAT'", "MAT", 9),
    ("Hammer: MAT7 POW3 [CHARGE", "unbalanced brackets", "[", 19),
    ("Hammer: MAT7 POW3 [BLAST POW]", "needs a number", "BLAST POW", 20),
    ("Hammer: MAT7 POW3 [CHARGE 2]", "takes no number", "CHARGE 2", 20),
    ("Hammer: MAT7 POW3 [CATCHES -1]", "must not be negative", "CATCHES -1", 20),
    ("Hammer: MAT7 POW3 [CHARGE, CHARGE]", "given twice", "CHARGE", 28),
    ("Hammer: MAT7 POW3 [CHARGE,, AOE]", "extra comma", ",", None),
    ("Gun: RAT5 POW12 [CHARGE]", "CHARGE is a melee attack", None, None),
    ("Gun: RAT5 POW12 [SPRAY 2, BLAST POW 6]", "either a SPRAY or an AOE", None, None),
    ("Gun: RAT5 POW12 [CATCHES 2]", "CATCHES needs an AOE", None, None),
    ("2x Gun: RAT5 POW12 [ATTACK BOOSTS 3]", "more than the 2 attacks", None, None),
    ("Gun: RAT5 POW12 [ADDITIONAL ATTACK DICE 9]", "more than the 8", None, None),
    ("", "empty attack line", None, None),
]


@pytest.mark.parametrize("line, fragment, token, column", BAD_ATTACKS)
def test_bad_attack_lines(line, fragment, token, column):
    with pytest.raises(ProfileError) as info:
        parse_attack(line)
    assert fragment in str(info.value)
    if token is not None:
        assert info.value.token == token
    if column is not None:
        assert info.value.column == column
        assert f"at column {column}" in str(info.value)
    assert isinstance(info.value, ValueError)


BAD_TARGETS = [
    ("T: DEF13 ARM13 BOXES0", "at least one box"),
    ("T: DEF13 ARM13 [TUOGH]", "did you mean 'TOUGH'"),
    ("T: DEF13", "needs ARM"),
    ("T: DEF13 ARM5 BOXES3 [DAMAGED 3]", "needs an unmarked box"),
    ("T: DEF13 ARM5 [TOUGH 7+]", "not a d6 roll"),
    ("T: DEF13 ARM5 BOXES3 [KNOKED DOWN]", "did you mean 'KNOCKED DOWN'"),
    ("-1x T: DEF13 ARM5", "impossible"),
    ("T: DEF13 ARM-2", "must not be negative"),
    ("T: DEF13 ARM5 HP3", "unknown characteristic 'HP'"),
]


@pytest.mark.parametrize("line, fragment", BAD_TARGETS)
def test_bad_target_lines(line, fragment):
    with pytest.raises(ProfileError, match=None) as info:
        parse_target(line)
    assert fragment in str(info.value)
    assert repr(line) in str(info.value)



@st.composite
def grid_targets(draw):
    spiral = draw(st.booleans())
    alphabet = "-BMS" if spiral else "-ACGHMFLR"
    grid = tuple(draw(st.text(alphabet=alphabet, max_size=6)) for _ in range(6))
    boxes = sum(len(lane) for lane in grid)
    assume(boxes > 0)
    transfers = draw(st.integers(0, 3))
    return Target(name=draw(names), defense=draw(st.integers(0, 25)),
                  armor=draw(st.integers(0, 25)), boxes=boxes, grid=grid, spiral=spiral,
                  transfers=transfers, transfer_boxes=draw(st.integers(1, 30)) if transfers else 0,
                  tough=draw(st.booleans()))


@settings(deadline=None, max_examples=200)
@given(grid_targets(), st.none() | st.integers(1, 6), st.lists(st.booleans(), min_size=5,
                                                                  max_size=5))
def test_grid_transfer_lane_and_crippled_round_trip(target, lane, crippled):
    assert parse_target(str(target)) == target
    flags = {f"crippled_{name}": on for name, on in
             zip(("weapon", "mind", "body", "spirit", "cortex"), crippled)}
    attack = Attack(name="Fist", stat=6, pow=12, lane=lane, **flags)
    assert parse_attack(str(attack)) == attack


def test_grid_counts_its_boxes_and_bad_grids_name_the_fix():
    assert parse_target("J: DEF12 ARM16 [GRID -L/LL/MC/C/RR/R]").boxes == 10
    for line, fragment in [("J: DEF12 ARM16 [GRID -L/LL/MC/C/RR]", "needs 6 lanes"),
                           ("J: DEF12 ARM16 [GRID -L/LL/MC/C/RR/X]", "'X' is not blank"),
                           ("J: DEF12 ARM16 BOXES9 [GRID -L/LL/MC/C/RR/R]", "BOXES9"),
                           ("L: DEF12 ARM16 [TRANSFER 2]", "TRANSFER BOXES"),
                           ("2x L: DEF12 ARM16 [TRANSFER 1, TRANSFER BOXES 5]", "single model"),
                           ("A: MAT6 POW12 [LANE 7]", "LANE 7")]:
        parse = parse_attack if line.startswith("A:") else parse_target
        with pytest.raises(ProfileError) as info:
            parse(line)
        assert fragment in str(info.value)
        assert repr(line) in str(info.value)


# -- typographic marks (issue 21): names keep them, characteristics read them plainly -------
TYPOGRAPHIC_NAMES = ["Kharn’s “Gorechild” – 2nd", "‘Old Witch’ — Scrapjack", "“5” Gun”",
                     "Sorscha – “Frozen” ‑ Axe"]


@pytest.mark.parametrize("name", TYPOGRAPHIC_NAMES)
def test_curly_quotes_and_dashes_in_names_survive(name):
    attack = parse_attack(f"3x {name}: MAT7 POW16 [ARMOR–PIERCING, CHARGE]")
    target = parse_target(f"5x {name}: DEF13 ARM13 BOXES1 [TOUGH]")
    assert attack.name == name and target.name == name
    assert attack.armor_piercing and attack.charge  # an en dash in a keyword reads as '-'
    assert parse_attack(str(attack)) == attack and parse_target(str(target)) == target


def test_typographic_names_reach_the_chart_title_and_caption():
    import matplotlib

    matplotlib.use("Agg")
    from mathhammer import warmachine

    weapon, unit = TYPOGRAPHIC_NAMES[0], TYPOGRAPHIC_NAMES[1]
    result = warmachine.exact(f"2x {weapon}: MAT7 POW16", f"3x {unit}: DEF13 ARM13 BOXES1")
    art = result.plot("damage")
    title = " ".join(art.ax.get_title(loc="left").split())
    assert weapon in title and unit in title
    note = " ".join(art.twin.get_legend().get_title().get_text().split())
    assert f"2x {weapon}: MAT7 POW16" in note
