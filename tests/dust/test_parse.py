"""Parsing weapons, targets and TOML unit cards: round trips, property tests, located errors."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer.dust import (
    Cell, Rules, Target, Weapon, WeaponLine, load_units, parse_target, parse_weapon,
    parse_weapons,
)
from mathhammer.dust.profiles import WEAPON_TAGS
from mathhammer.errors import OptionError, ProfileError


def test_short_and_full_weapon_lines():
    w = parse_weapon("4x Shotgun: 3/1")
    assert (w.carriers, w.line.cell, w.pool("vehicle", 7)) == (4, Cell(3, 1), 12)
    full = parse_weapon("17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1 "
                        "[RANGE U, IGNORES COVER]")
    assert full.pool("infantry", 3) == 2 and full.pool("vehicle", 7) == 4
    assert full.pool("aircraft", 1) is None
    assert full.line.ignores_cover and full.line.range is None
    flamer = parse_weapon("Flamer (1): INF 2/1 2/1 2/1 1/1 [FLAME, RANGE 2]")
    assert flamer.line.special and flamer.line.range == 2 and flamer.line.ignores_cover
    phaser = parse_weapon("Phaser: 2z3")
    assert phaser.line.is_phaser and phaser.line.ignores_cover


def test_targets():
    t = parse_target("5x Laser Grenadier: INFANTRY2 [SOFT COVER]")
    assert (t.models, t.unit_class, t.armour, t.cover, t.is_squad) == (5, "infantry", 2, "soft",
                                                                      True)
    v = parse_target("Luther: VEHICLE6 BOXES4 [HARD COVER, DAMAGE RESILIENT, HARD SAVE HIT]")
    assert (v.capacity, v.cover, v.damage_resilient, v.hard_save) == (4, "hard", True,
                                                                      "hit_save")
    assert parse_target("G: inf 3 [saves on blanks]").soft_save == "miss_save"


BAD = [
    ("weapon", "4x Shotgun 3/1", "missing ':'"),
    ("weapon", "4x Shotgun: 3-1", "malformed weapon cell '3-1' at column 13"),
    ("weapon", "-2x Shotgun: 3/1", "negative carrier count"),
    ("weapon", "Shotgun: -3/1", "negative value"),
    ("weapon", "Shotgun: 3/0", "at least 1 damage"),
    ("weapon", "Shotgun: 3/1 [IGNORE COVER]", "did you mean 'IGNORES COVER'"),
    ("weapon", "Shotgun: 3/1 [LAZER]", "did you mean 'LASER'"),
    ("weapon", "Shotgun: 3/1 [IGNORES COVER", "unclosed '['"),
    ("weapon", "Gun: INF 4/1 4/1 2/1", "INF needs 4 cells"),
    ("weapon", "Gun: VEX 4/1", "did you mean 'VEH'"),
    ("weapon", "2x Flamer (1): 2/1", "special weapon (1)"),
    ("weapon", "Flamer (2): 2/1", "only '(1)'"),
    ("weapon", "Gun: 3/1 [RANGE -2]", "negative range"),
    ("weapon", "missing.toml#Unit/Gun", "cannot read unit file 'missing.toml'"),
    ("weapon", "seed.toml#Pounder/17-pounderr", "did you mean '17-pounder'"),
    ("weapon", "seed.toml#Pounderr", "did you mean 'Pounder'"),
    ("target", "5x Laser Grenadier: INFANTRY5", "impossible armour level 'INFANTRY5'"),
    ("target", "Tank: VEHICLE8 BOXES3", "vehicle armour is 1..7"),
    ("target", "Tank: VEHICLE3", "needs its damage boxes"),
    ("target", "-3x G: INFANTRY2", "negative model count"),
    ("target", "0x G: INFANTRY2", "at least one model"),
    ("target", "G: INFANTRY2 [SOFT COVR]", "did you mean 'SOFT COVER'"),
    ("target", "G: INFANTRY2 [SOFT COVER, HARD COVER]", "not both"),
    ("target", "G: INFANTRI2", "did you mean 'INFANTRY2'"),
    ("target", "Tank: VEHICLE3 BOXES0", "at least 1"),
    ("target", "3x Tank: VEHICLE3 BOXES3", "single model"),
]


@pytest.mark.parametrize("kind, text, message", BAD)
def test_bad_input_names_the_token_and_fix(kind, text, message):
    parse = parse_weapon if kind == "weapon" else parse_target
    with pytest.raises(ProfileError) as info:
        parse(text)
    assert message.lower() in str(info.value).lower()
    assert isinstance(info.value, ValueError)


def test_located_error_has_token_and_column():
    with pytest.raises(ProfileError) as info:
        parse_target("5x Laser Grenadier: INFANTRY5")
    assert info.value.token == "INFANTRY5" and info.value.column == 21


def test_rules_reject_unknown_switch_values():
    with pytest.raises(OptionError, match="did you mean 'owner_optimal'"):
        Rules(casualty_policy="owner_optimum")
    with pytest.raises(OptionError, match="cover_save_per"):
        Rules(cover_save_per="die")


def test_toml_unit_file(tmp_path: Path):
    path = tmp_path / "units.toml"
    path.write_text('''
[units."Heavy Laser Grenadiers"]
profile = "INFANTRY3 [DAMAGE RESILIENT]"
weapons = ["Heavy laser: INF 2/1 2/1 2/1 1/1 VEH 2/2 2/2 2/1 2/1 1/1 1/1 1/1 [LASER]",
           "Grenade (1): INF 1/1 1/1 1/1 1/1 [RANGE 2]"]
models = [{ count = 2, weapons = ["Heavy laser"] }, { count = 1, weapons = ["Grenade"] }]
''')
    units = load_units(path)
    unit = units["Heavy Laser Grenadiers"]
    assert unit.profile.models == 3 and unit.profile.damage_resilient
    weapons = parse_weapons(f"{path}#Heavy Laser Grenadiers")
    assert [w.carriers for w in weapons] == [2, 1]
    assert parse_target(f"{path}#Heavy Laser Grenadiers [HARD COVER]").cover == "hard"


@pytest.mark.parametrize("content, message", [
    ("[units.X\nprofile=1", "not valid TOML"),
    ("[other]\na = 1", "no [units.NAME] tables"),
    ('[units.X]\nprofile = "INFANTRY2"\nweapons = ["Gun: 1/1"]\nmodels = [{count = 2, '
     'weapons = ["Rifle"]}]', "unknown weapon 'Rifle'"),
    ('[units.X]\nprofile = "INFANTRY2"\nweapon = ["Gun: 1/1"]', "did you mean 'weapons'"),
    ('[units.X]\nprofile = "INFANTRY2"\nweapons = ["Gun (1): 1/1"]\nmodels = [{count = 2, '
     'weapons = ["Gun"]}]', "exists once per squad"),
])
def test_bad_toml_files(tmp_path: Path, content, message):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(ProfileError, match="(?i)" + message.replace("[", r"\[").replace("(", r"\(")
                       .replace(")", r"\)").replace("]", r"\]")):
        load_units(path)


# -- property tests --------------------------------------------------------------------------
names = st.from_regex(r"[A-Za-z][A-Za-z0-9.'-]{0,8}( [A-Za-z0-9.'-]{1,6})?", fullmatch=True)
cells = st.one_of(st.builds(Cell, st.integers(0, 12), st.integers(1, 4)),
                  st.builds(lambda x, y: Cell(x, 1, phaser=y), st.integers(0, 4),
                            st.integers(1, 4)))
maybe_cells = st.one_of(st.none(), cells)


@st.composite
def weapon_lines(draw):
    special = draw(st.booleans())
    tags = frozenset(draw(st.sets(st.sampled_from(WEAPON_TAGS), max_size=3)))
    rng = draw(st.one_of(st.none(), st.integers(0, 20)))
    if draw(st.booleans()):
        return WeaponLine(draw(names), draw(cells), (), rng, special, tags)
    per_target = []
    for cls, n in (("infantry", 4), ("vehicle", 7), ("aircraft", draw(st.integers(1, 3)))):
        if draw(st.booleans()) or (cls == "aircraft" and not per_target):
            per_target.append((cls, tuple(draw(maybe_cells) for _ in range(n))))
    return WeaponLine(draw(names), None, tuple(per_target), rng, special, tags)


@st.composite
def weapons(draw):
    line = draw(weapon_lines())
    carriers = draw(st.integers(0, 1 if line.special else 10))
    return Weapon(line, carriers, draw(st.integers(1, 3)), draw(st.integers(0, 3)),
                  draw(st.sampled_from(["single", "double"])))


@st.composite
def targets(draw):
    cls = draw(st.sampled_from(["infantry", "vehicle", "aircraft"]))
    top = {"infantry": 4, "vehicle": 7, "aircraft": 3}[cls]
    squad = cls == "infantry" and draw(st.booleans())
    saves = st.one_of(st.none(), st.sampled_from(["hit_save", "miss_save", "none"]))
    return Target(draw(names), cls, draw(st.integers(1, top)),
                  models=draw(st.integers(1, 12)) if squad else 1,
                  boxes=None if squad else draw(st.integers(1, 12)),
                  cover=draw(st.sampled_from(["open", "soft", "hard"])),
                  soft_save=draw(saves), hard_save=draw(saves),
                  damage_resilient=draw(st.booleans()),
                  evade=draw(st.sampled_from(["none", "evade", "improved"])),
                  hero_boxes=draw(st.integers(0, 4)) if squad else 0)


@settings(deadline=None, max_examples=100)
@given(weapons())
def test_weapon_text_round_trip(weapon):
    assert parse_weapon(str(weapon)) == weapon


@settings(deadline=None, max_examples=100)
@given(targets())
def test_target_text_round_trip(target):
    assert parse_target(str(target)) == target


@settings(deadline=None, max_examples=200)
@given(st.text(alphabet="0123456789xXz/:-[], ABCDEFGHIKLMNORSTUVY()", max_size=40))
def test_any_text_parses_or_raises_profile_error(text):
    for parse in (parse_weapon, parse_target):
        try:
            parse(text)
        except ProfileError as exc:
            assert str(exc)


# -- typographic marks (issue 21): names keep them, characteristics read them plainly -------
TYPOGRAPHIC_NAMES = ["Laser “Heavy” – Cannon", "‘Grenadier’ — Sturm’s squad", "“88” Flak”"]


@pytest.mark.parametrize("name", TYPOGRAPHIC_NAMES)
def test_curly_quotes_and_dashes_in_names_survive(name):
    weapon = parse_weapon(f"4x {name}: 3/1 [LASER]")
    special = parse_weapon(f"{name} (1): 3/1")
    target = parse_target(f"5x {name}: INFANTRY2 [SOFT COVER]")
    assert weapon.line.name == name and special.line.name == name and target.name == name
    assert parse_weapon(str(weapon)) == weapon and parse_target(str(target)) == target


def test_an_en_dash_in_a_cell_reads_as_a_plain_dash():
    weapon = parse_weapon("Flak – “Heavy”: INF 3/1 – 2/1 –")
    assert weapon.line.name == "Flak – “Heavy”"
    assert weapon == parse_weapon("Flak – “Heavy”: INF 3/1 - 2/1 -")


def test_typographic_names_reach_the_chart_title_and_legend():
    import matplotlib

    matplotlib.use("Agg")
    from mathhammer import dust
    from mathhammer.charts import overlay

    weapon, unit = TYPOGRAPHIC_NAMES[0], TYPOGRAPHIC_NAMES[1]
    result = dust.exact([f"2x {weapon}: 3/1"], f"5x {unit}: INFANTRY2")
    art = result.plot("models_destroyed")
    title = " ".join(art.ax.get_title(loc="left").split())
    assert weapon in title and unit in title
    lines = overlay({weapon: result}, "models_destroyed").lines
    legend = [t.get_text() for t in lines[0].axes.get_legend().get_texts()]
    assert len(legend) == 1 and legend[0].startswith(weapon)
