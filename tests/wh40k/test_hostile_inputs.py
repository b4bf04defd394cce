"""Issue 13: every hostile 40k input is answered right or refused in one line, at once."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.errors import ProfileError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.targets import resolve_target
from tests.hostile import refused, run_cli

W = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
T = "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"


@pytest.mark.parametrize("weapon, target, fragments", [
    ('X: 24" A9223372036854775808 BS3+ S4 AP-1 D1', T, ["A9223372036854775808", "10,000"]),
    ('99999999999999999999x Bolt: 24" A2 BS3+ S4 AP-1 D1', T, ["99999999999999999999x",
                                                             "10,000"]),
    ('X: 24" A1 BS3+ S4 AP-1 DD6+9999999999999999999', T, ["DD6+9999999999999999999"]),
    (W, "X: T4 Sv3+ W1000000", ["W1000000", "10,000"]),
    (W, "2147483648x Intercessor: T4 Sv3+ W2", ["2147483648x"]),
    (W, "100000x Guardsman: T3 Sv5+ W1", ["100000x"]),
    (W, "1000x Knight: T12 Sv3+ W1000", ["1,000,000", "100,000"]),
    ('X: 24" A2 BS3+ S4 AP-1 D1 [SUSTAINED HITS 99999999]', T, ["SUSTAINED HITS 99999999"]),
    ('X: 24" A1000000 BS3+ S4 AP-1 D1', T, ["A1000000"]),
    ('65536x X: 24" A1 BS3+ S4 AP-1 D1', T, ["65536x"]),
])
def test_numbers_beyond_the_limits_are_refused(weapon, target, fragments):
    for command in ("simulate", "exact"):
        refused([command, weapon, "--target", target, "--trials", "1000"][:None if command ==
                "simulate" else 4], *fragments)


@pytest.mark.parametrize("weapon, target, escape, column, what", [
    ('Bolt\x1b]0;x\x07 rifle: 24" A2 BS3+ S4 AP-1 D1', T, "\\x1b", 5, "weapon"),
    ('Bolt\u202e rifle: 24" A2 BS3+ S4 AP-1 D1', T, "\\u202e", 5, "weapon"),
    (W, "5x Inter\x9bcessor: T4 Sv3+ W2", "\\x9b", 9, "target"),
    (W, "5x Inter\udc9bcessor: T4 Sv3+ W2", "\\udc9b", 9, "target"),  # a byte not UTF-8
])
def test_control_characters_are_refused_and_named_as_escapes(weapon, target, escape, column,
                                                             what):
    line = refused(["exact", weapon, "--target", target], f"'{escape}' (",
                   f"at column {column}: a {what} line is plain text: delete it")
    assert line.isprintable() and "\x1b" not in line and "\x07" not in line


def test_a_tab_in_a_line_is_a_space():
    assert parse_weapon('Bolt\trifle: 24" A2\tBS3+ S4 AP-1 D1').name == "Bolt\trifle"
    assert parse_target("5x\tIntercessor: T4 Sv3+ W2").count == 5


def test_a_line_read_from_a_file_keeps_working():
    # readlines() and Windows files leave a line break at the end of each line
    for ending in ("\n", "\r\n"):
        assert parse_weapon('Bolt rifle: 24" A2 BS3+ S4 AP-1 D1' + ending).name == "Bolt rifle"
        assert parse_target("5x Intercessor: T4 Sv3+ W2" + ending).count == 5


def test_bare_d3_and_d6_damage_are_ambiguous():
    line = refused(["exact", 'Meltagun: 12" A1 BS3+ S9 AP-4 D6', "--target",
                    "Rhino: T9 Sv3+ W10 [VEHICLE]"], "'D6'", "DD6", "D 6")
    assert "column 31" in line
    with pytest.raises(ProfileError, match="DD3.*D 3"):
        parse_weapon("X: A1 BS3+ S4 AP0 d3")
    # both unambiguous spellings keep working: a roll, and a flat six
    assert str(parse_weapon("X: A1 BS3+ S9 AP-4 DD6").damage) == "D6"
    flat = parse_weapon("X: A1 BS3+ S9 AP-4 D 6")
    assert flat.damage == mh.DiceExpr.fixed(6) and "D 6" in str(flat)
    assert parse_weapon(str(flat)) == flat   # the echo reads back as the same weapon
    # by hand: hit 2/3, S9 v T9 wounds on 4+ (1/2), AP-4 leaves no save; then D6 or 6
    rhino = "Rhino: T9 Sv3+ W10 [VEHICLE]"
    roll = mh.exact('Meltagun: 12" A1 BS3+ S9 AP-4 DD6', rhino)
    assert roll.mean("damage") == pytest.approx(2 / 3 * 1 / 2 * 3.5)
    six = mh.exact('Meltagun: 12" A1 BS3+ S9 AP-4 D 6', rhino)
    assert six.mean("damage") == pytest.approx(2 / 3 * 1 / 2 * 6)


@pytest.mark.parametrize("weapon, fragment", [
    ('X: 24" A2 BS3+ S4 AP-1 D1 [ANTI-INFANTRY 4+ 5+]', "INFANTRY 4+"),
    ('X: 24" A2 BS3+ S4 AP-1 D1 [ANTI-INFANTRY " 4+]', 'INFANTRY "'),
    ('X: 24" A2 BS3+ S4 AP-1 D1 [,,]', "empty item"),
    ('X: 24" A2 BS3+ S4 AP-1 D1 [BLAST, ,]', "empty item"),
    ('X: 24" A2 BS3+ S4 AP-1 D1 [LETHAL HITS: NON-]', "'NON-'"),
    ('X: 24" A2 BS3+ S4 AP-\u0663 D1', "\u0663"),
    ('X: 24" A2 BS3+ S4 AP-1 D6+\U0001d7d11', "\U0001d7d1"),
])
def test_broken_weapon_lines_are_refused(weapon, fragment):
    refused(["exact", weapon, "--target", T], fragment)


def test_identical_repeats_collapse_and_different_values_pick_one():
    assert parse_weapon('X: A1 BS3+ S4 AP0 D1 [TWIN-LINKED, TWIN-LINKED]').abilities == \
        parse_weapon('X: A1 BS3+ S4 AP0 D1 [TWIN-LINKED]').abilities
    heavy = parse_weapon("X: A1 BS3+ S4 AP0 D1 [" + ", ".join(["HEAVY"] * 142) + "]")
    assert len(heavy.abilities) == 1
    # duplicates never stack (24.02): [MELTA 1, MELTA 4] is [MELTA 4], in any order
    target = "T4 Sv- W20"
    best = mh.exact("A1 BS3+ S8 AP0 D1 [MELTA 4]", target, half_range=True).mean("damage")
    for line in ("A1 BS3+ S8 AP0 D1 [MELTA 1, MELTA 4]", "A1 BS3+ S8 AP0 D1 [MELTA 4, MELTA 1]"):
        assert mh.exact(line, target, half_range=True).mean("damage") == pytest.approx(best)
    assert best == pytest.approx(2 / 3 * 5 / 6 * 5)


@pytest.mark.parametrize("target, fragment", [
    ("0x10x Intercessor: T4 Sv3+ W2", "'0x10x'"),
    ("MEQ [T4 Sv2+ W99]", "T4 Sv2+ W99"),
    ("MEQ [;;;, !!]", ";;;"),
    ("\uff13x MEQ", "\uff13"),
])
def test_broken_target_lines_are_refused(target, fragment):
    refused(["exact", W, "--target", target], fragment)


def test_reference_target_keywords_still_work():
    assert "STEALTH" in resolve_target("10x MEQ [STEALTH]").keywords
    assert resolve_target("10x MEQ").count == 10


@pytest.mark.parametrize("spaces", [400, 1_000, 100_000])
def test_spaces_after_a_count_parse_in_linear_time(spaces):
    status, out, err, took = run_cli(["exact", W, "--target",
                                      "5x" + " " * spaces + "Intercessor: T4 Sv3+ W2"])
    assert status == 0 and err == "" and took < 5
    assert parse_target("5x" + " " * spaces + "Intercessor: T4 Sv3+ W2").count == 5
    assert resolve_target("5x" + " " * spaces + "MEQ").count == 5


def test_huge_trials_and_modifiers_are_refused():
    refused(["simulate", W, "--target", T, "--trials", "1" + "0" * 30], "--trials",
            "10,000,000,000")
    refused(["exact", W, "--target", T, "--damage-plus", "1000000000000"], "damage_plus",
            "10,000")
    with pytest.raises(mh.OptionError, match="trials="):
        mh.simulate(W, T, trials=10**30)


def test_exact_refuses_what_it_cannot_follow_and_points_to_simulate():
    # 2,001 states: each of 400 possible hits would cost a 2001 x 2001 matrix step
    refused(["exact", "20x X: A20 BS3+ S4 AP0 D1", "--target", "2000x T3 Sv5+ W1"],
            "limit", "simulate")
    refused(["exact", "X: A1 BS3+ S4 AP0 D1", "--target", "3000x T3 Sv5+ W1"], "3,001",
            "2,500", "simulate")
    refused(["exact", "X: A1 BS3+ S4 AP0 D1", "--target", T, "--damage-plus", "5000"],
            "5,001", "1,000", "simulate")
    with pytest.raises(mh.UnsupportedError, match="simulate"):
        mh.exact("10x X: A100 BS3+ S4 AP0 D1", "100x T3 Sv5+ W5")


def test_monte_carlo_refuses_runs_that_would_not_end():
    refused(["simulate", "10000x X: A100 BS3+ S4 AP0 D1 [SUSTAINED HITS 10000]",
             "--target", T], "hits", "10,000,000")
    refused(["simulate", "10000x X: A100 BS3+ S4 AP0 D1", "--target", T], "lower --trials")


def test_python_api_refuses_loose_values():
    for options, fragment in ((dict(hit_mod=1.5), "hit_mod=1.5"),
                              (dict(cover="false"), "cover='false'"),
                              (dict(fnp=5.0), "fnp=5.0")):
        with pytest.raises(mh.OptionError, match=fragment):
            mh.exact(W, T, **options)
    for weapons, target in ((None, T), (b"X: A1 BS3+ S4 AP0 D1", T), (W, 5), (W, ["MEQ"])):
        with pytest.raises(mh.MathhammerError, match="not (NoneType|bytes|int|list)"):
            mh.exact(weapons, target)


def test_two_targets_and_misspelt_flags():
    refused(["simulate", W, "--target", T, "--target", "MEQ"], "--target", "given twice",
            "mathhammer compare")
    line = refused(["exact", W, "--target", T, "--stationairy"], "--stationairy",
                   "did you mean '--stationary'?")
    assert "mathhammer: error: mathhammer" not in line


def test_a_lazy_name_that_loops_back_is_an_error_not_a_recursion():
    import sys
    import types

    from mathhammer.core.lazy import lazy_names

    package = types.ModuleType("loop_package")
    sys.modules["loop_package"] = package
    try:
        package.__getattr__, package.__dir__ = lazy_names("loop_package",
                                                          {"itself": "loop_package"})
        with pytest.raises(AttributeError, match="import cycle"):
            package.itself
    finally:
        del sys.modules["loop_package"]


def test_python_objects_of_the_wrong_kind_are_named():
    with pytest.raises(mh.OptionError, match="situation='x' must be a Situation"):
        mh.exact(W, T, situation="x")
    with pytest.raises(mh.OptionError, match="give at least one attacker.*NoneType"):
        mh.compare(None, [T], method="exact")
    with pytest.raises(ProfileError, match="attacks must be a DiceExpr"):
        mh.wh40k.Weapon(attacks=2, skill=3, strength=4, ap=-1, damage=mh.DiceExpr.fixed(1))


@pytest.mark.parametrize("command", ["simulate", "exact"])
def test_a_damage_roll_too_wide_to_table_is_refused(command):
    # D100D6 and [MELTA 100D6] together index 601 x 601 raw outcomes: the sampling table
    # alone asked for 11.4 TiB
    refused([command, 'Gun: 24" A1 BS3+ S4 AP0 D100D6 [MELTA 100D6]', "--half-range",
             "--target", "10x G: T1 Sv7+ W10"], "361,201 outcomes", "limit 1,001",
            "smaller dice", seconds=5)


def test_a_wide_damage_roll_within_the_limit_still_answers():
    result = mh.simulate('Gun: 24" A1 BS3+ S4 AP0 D6D6 [MELTA 3D6]', "10x G: T1 Sv7+ W10",
                         half_range=True, reroll_damage="low", trials=20_000, seed=3)
    assert result.mean("damage") > 0
