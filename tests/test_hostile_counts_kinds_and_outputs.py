"""Issue 22: the causes a 5,200-case fuzz still found, each refused in one line or answered
right, in all three games and through the Python API."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.core.dice import DiceExpr
from mathhammer.core.numbers import malformed_count
from mathhammer.dust.parse import parse_target as dust_target, parse_weapon as dust_weapon
from mathhammer.errors import MathhammerError, ProfileError
from mathhammer.warmachine.parse import parse_attack, parse_target as wm_target
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.targets import resolve_target
from tests.hostile import refused

BAD_COUNTS = ["1e3x", "1.5x", "nanx", "NaNx", "infx", "1_0x", "+2x", "-x", ".5x", "1\u200bx",
              "\u200b5x", "5x\u200b", "5\u2060x", "\ufeff5x", "\u0663x", "\uff13x", "1E3X",
              "2\u00d7\u200b", "0x10x"]
LINES = {
    "40k target": (parse_target, "{} Guardsman: T3 Sv- W1"),
    "40k weapon": (parse_weapon, "{} Gun: A1 BS3+ S4 AP0 D1"),
    "40k reference": (resolve_target, "{} MEQ"),
    "warmachine attack": (parse_attack, "{} Rifle: RAT6 POW12"),
    "warmachine target": (wm_target, "{} Trencher: DEF13 ARM13 BOXES1"),
    "dust weapon": (dust_weapon, "{} Shotgun: 3/1"),
    "dust target": (dust_target, "{} Grenadier: INFANTRY2"),
}


@pytest.mark.parametrize("count", BAD_COUNTS)
@pytest.mark.parametrize("kind", sorted(LINES))
def test_a_malformed_count_is_refused_never_part_of_the_name(kind, count):
    parse, template = LINES[kind]
    with pytest.raises(ProfileError, match=r"count .* e\.g\.|not a digit 0-9"):
        parse(template.format(count))


@pytest.mark.parametrize("kind", sorted(LINES))
def test_names_ending_in_x_and_plain_counts_still_read(kind):
    parse, template = LINES[kind]
    if kind != "40k reference":
        assert "Onyx" in parse(template.format("Onyx")).name
    parse(template.format("3x"))


def test_the_cli_names_the_count_and_its_column():
    refused(["exact", "1e3x Gun: A1 BS3+ S4 AP0 D1", "--target", "MEQ"], "'1e3x'", "column 1",
            "digits 0-9")
    refused(["warmachine", "exact", "Rifle: RAT6 POW12", "--target",
             "nanx Trencher: DEF13 ARM13 BOXES1"], "'nanx'")
    refused(["dust", "exact", "1.5x Shotgun: 3/1", "--target", "Luther: VEHICLE6 BOXES4"],
            "'1.5x'")


@settings(max_examples=200, deadline=None, derandomize=True)
@given(prefix=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6))
def test_any_first_word_ending_in_x_is_a_clean_count_a_name_or_refused(prefix):
    word = prefix + "x"
    line = f"{word} Gun: A1 BS3+ S4 AP0 D1"
    found = malformed_count(line)
    if found is not None:
        with pytest.raises(ProfileError):
            parse_weapon(line)
        return
    try:
        weapon = parse_weapon(line)
    except MathhammerError:
        return
    # read as a count only when it is plain digits 0-9; otherwise the word is in the name
    if weapon.name == "Gun":
        assert prefix.strip().isascii() and prefix.strip().isdigit()


@pytest.mark.parametrize("ability", ["SUSTAINED HITS 2 3", "SUSTAINED HITS 1 D6",
                                     "SUSTAINED HITS D 6", "RAPID FIRE 1 2", "MELTA 2 2"])
def test_a_space_inside_an_abilitys_number_is_refused(ability):
    with pytest.raises(ProfileError, match="space inside dice expression"):
        parse_weapon(f"Gun: A1 BS3+ S4 AP0 D1 [{ability}]")


def test_dice_expressions_spaces_only_around_signs():
    assert DiceExpr.parse(" D6 + 1 ") == DiceExpr(1, 6, 1)
    assert DiceExpr.parse("2D3 - 1") == DiceExpr(2, 3, -1)
    for text in ("1 D6", "2 3", "D 6", "2D 6", "D6+1 2"):
        with pytest.raises(ProfileError, match="space"):
            DiceExpr.parse(text)


@pytest.mark.parametrize("kwargs", [{"count": 2.5, "sides": 6}, {"count": True, "sides": 6},
                                    {"constant": "3"}, {"sides": 6.0, "count": 1}])
def test_dice_expression_fields_must_be_whole_numbers(kwargs):
    with pytest.raises(ProfileError, match="whole number"):
        DiceExpr(**kwargs)


@pytest.mark.parametrize("value", [2.5, None, b"D6", ["D6"], True])
def test_dice_parse_refuses_other_objects(value):
    with pytest.raises(ProfileError):
        DiceExpr.parse(value)


W40K = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
FOREIGN_NUMBERS = ["\u0663", "\uff13", "\U0001d7d1", "1_0", "1e3", "nan", "inf", "-inf", "0x10",
                   "1.5", " ", ""]
INT_OPTIONS = ["--hit-mod", "--wound-mod", "--skill-mod", "--strength-mod", "--crit-hits",
               "--crit-wounds", "--ap-mod", "--save-mod", "--damage-plus", "--damage-minus",
               "--fnp", "--fnp-mortal", "--fnp-psychic"]


@pytest.mark.parametrize("value", FOREIGN_NUMBERS)
@pytest.mark.parametrize("option", INT_OPTIONS)
def test_whole_number_options_read_digits_0_to_9_only(option, value):
    refused(["exact", W40K, "--target", "MEQ", option, value], f"argument {option}")


@pytest.mark.parametrize("value", ["\u0661\u0660", "\uff11\uff10", "1_0", "10.0", "1e1"])
def test_edition_reads_digits_0_to_9_only(value):
    refused(["exact", W40K, "--target", "MEQ", "--edition", value], "--edition")


@pytest.mark.parametrize("argv", [
    ["simulate", W40K, "--target", "MEQ", "--target-stderr", "inf", "--json"],
    ["simulate", W40K, "--target", "MEQ", "--target-stderr", "\u0663"],
    ["compare", W40K, "--target", "MEQ", "--points", "inf"],
    ["compare", W40K, "--target", "MEQ", "--points", "nan"],
    ["compare", W40K, "--target", "MEQ", "--points", "-5"],
    ["compare", W40K, "--target", "MEQ", "--points", "\u0661\u0660\u0660"],
    ["compare", W40K, "--target", "MEQ", "--points", "0"],
    ["compare", W40K, "--target", "MEQ", "--sweep", "hit_mod=\u0663", "--exact"],
    ["warmachine", "exact", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1",
     "--stationary-def", "\u0663"],
    ["warmachine", "exact", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1",
     "--aoe-miss-coverage", "nan"],
])
def test_number_options_refuse_what_python_would_read(argv):
    refused(argv)


@pytest.mark.parametrize("value", [float("inf"), float("nan"), -1.0, 0, True, "0.1"])
def test_target_stderr_must_be_positive_and_finite(value):
    with pytest.raises(MathhammerError, match="target_stderr"):
        mh.simulate(W40K, "MEQ", target_stderr=value)


OUTPUT_COMMANDS = [
    ["exact", W40K, "--target", "MEQ"],
    ["compare", W40K, "--target", "MEQ", "--exact"],
    ["dust", "exact", "Shotgun: 3/1", "--target", "Luther: VEHICLE6 BOXES4"],
    ["warmachine", "exact", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1"],
]


@pytest.mark.parametrize("option, name", [("--csv", "out.csv"), ("--plot", "out.png"),
                                          ("--plot", "out.svg")])
@pytest.mark.parametrize("argv", OUTPUT_COMMANDS)
def test_an_output_that_is_a_named_pipe_is_refused_at_once(tmp_path, argv, option, name):
    import os

    pipe = tmp_path / name
    os.mkfifo(pipe)
    refused([*argv, option, str(pipe)], f"argument {option}", "named pipe", seconds=5)


@pytest.mark.parametrize("path, fragment", [("/dev/null", "device"), ("/tmp", "folder"),
                                            ("/no/such/folder/out.csv", "does not exist")])
def test_outputs_are_regular_or_new_files(path, fragment):
    refused([*OUTPUT_COMMANDS[0], "--csv", path], fragment)


def test_to_scenario_refuses_a_pipe_from_the_cli_and_python(tmp_path):
    import os

    pipe = tmp_path / "out.toml"
    os.mkfifo(pipe)
    roster_file = "tests/wh40k/roster/files/marines_10e.ros"
    refused(["roster", roster_file, "--to-scenario", str(pipe)], "named pipe")
    with pytest.raises(MathhammerError, match="named pipe"):
        mh.load_roster(roster_file).to_toml(pipe)
    written = tmp_path / "fine.toml"
    assert mh.load_roster(roster_file).to_toml(written) == written.read_text(encoding="utf-8")


BASE_SCENARIO = '''[units.Squad]
models = [{ name = "Marine", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1"] }]
[units.Mob]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Mob"
'''


@pytest.mark.parametrize("old, new, fragment", [
    ('target = "Mob"', "target = 5", "target"),
    ('target = "Mob"', 'target = ["B"]', "target"),
    ('target = "Mob"', "target = { a = 1 }", "target"),
    ('attacker = "Squad"', "attacker = 5", "attacker"),
    ('phase = "shooting"', "phase = 1.5", "phase"),
    ('target = "Mob"', 'target = "Mob"\nlabel = 7', "label"),
    ('target = "Mob"', 'target = "Mob"\nweapons = 5', "weapons"),
    ('target = "Mob"', 'target = "Mob"\nweapons = [{ name = 5 }]', "name"),
    ('target = "Mob"', 'target = "Mob"\nweapons = [{ name = "Bolt rifle", target = 5 }]',
     "target"),
    ('[units.Mob]\n', "[units.Mob]\nallocation_order = 5\n", "allocation_order"),
    ('[units.Mob]\n', "[units.Mob]\nallocation_order = [5]\n", "allocation_order"),
    ('[units.Mob]\n', "[units.Mob]\npoints = nan\n", "points"),
    ('[units.Mob]\n', "[units.Mob]\npoints = inf\n", "points"),
    ('[units.Mob]\n', "[units.Mob]\npoints = \"100\"\n", "points"),
    ('[units.Mob]\n', "[units.Mob]\nside = 5\n", "side"),
    ('name = "Boy"', "name = 5", "name"),
    ('name = "Boy"', 'name = ["Boy"]', "name"),
    ('profile = "T5 Sv5+ W1 [INFANTRY]"', "profile = 5", "profile"),
    ('weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"]', "weapons = 5", "weapons"),
    ('weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"]',
     'weapons = [{ name = "Choppa", line = "Choppa: Melee A3 WS3+ S4 AP-1 D1", hunter = 5 }]',
     "hunter"),
    ('weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"]',
     'weapons = [{ name = 5, line = "Choppa: Melee A3 WS3+ S4 AP-1 D1" }]', "name"),
    ('weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"]', "weapons = [5]", "weapon"),
    ('count = 10, profile = "T5 Sv5+ W1', 'count = 10000, profile = "T5 Sv5+ W11', "100,000"),
    ('count = 10, profile = "T5 Sv5+ W1', 'count = 10001, profile = "T5 Sv5+ W11', "10,000"),
])
def test_scenario_values_of_the_wrong_kind_are_refused_naming_file_and_line(
        tmp_path, old, new, fragment):
    assert old in BASE_SCENARIO
    path = tmp_path / "s.toml"
    path.write_text(BASE_SCENARIO.replace(old, new, 1), encoding="utf-8")
    line = refused(["run", str(path), "--trials", "100"], fragment, f"{path}:")
    assert "Traceback" not in line
    with pytest.raises(MathhammerError):
        mh.load_scenario(path)


def test_a_key_of_a_thousand_dotted_parts_is_refused(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(BASE_SCENARIO + "[" + ".".join(["a"] * 1001) + "]\n", encoding="utf-8")
    refused(["run", str(path), "--trials", "100"], "dotted parts", f"{path}:11")


def test_a_byte_order_mark_is_accepted(tmp_path):
    plain, marked = tmp_path / "plain.toml", tmp_path / "bom.toml"
    plain.write_text(BASE_SCENARIO, encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + BASE_SCENARIO.encode("utf-8"))
    assert mh.load_scenario(marked) == mh.load_scenario(plain)


@pytest.mark.parametrize("value", [None, 5, b"x", ["x"]])
def test_parse_scenario_takes_text(value):
    with pytest.raises(MathhammerError, match="TOML text"):
        mh.parse_scenario(value)


@pytest.mark.parametrize("call", [
    lambda: mh.wh40k.Rules(roll_mod_cap="no"),
    lambda: mh.wh40k.Rules(sustained_extra_are_crit="yes"),
    lambda: mh.wh40k.Rules(lethal_policy=1),
    lambda: mh.exact(W40K, "MEQ", roll_mod_cap="no"),
    lambda: mh.exact(W40K, "MEQ", sustained_extra_are_crit="yes"),
    lambda: mh.wh40k.Modifiers(hit_mod=1.5),
    lambda: mh.wh40k.Modifiers(ap_mod="1"),
    lambda: mh.wh40k.Modifiers(fnp=5.0),
    lambda: mh.wh40k.Situation(cover=1),
    lambda: mh.wh40k.Situation(half_range="false"),
    lambda: mh.wh40k.TargetProfile(toughness=4, save=3, wounds=1, keywords="VEHICLE"),
    lambda: mh.wh40k.TargetProfile(toughness=4, save=3.5, wounds=1),
    lambda: mh.wh40k.TargetProfile(toughness="4", save=3, wounds=1),
    lambda: mh.wh40k.TargetProfile(toughness=4, save=3, wounds=1, name=5),
    lambda: mh.wh40k.Weapon(attacks=DiceExpr.fixed(1), skill="3", strength=4, ap=0,
                      damage=DiceExpr.fixed(1)),
    lambda: mh.wh40k.Weapon(attacks=DiceExpr.fixed(1), skill=3, strength=4.5, ap=0,
                      damage=DiceExpr.fixed(1)),
    lambda: mh.wh40k.Weapon(attacks=DiceExpr.fixed(1), skill=3, strength=4, ap=0,
                      damage=DiceExpr.fixed(1), melee="yes"),
], ids=lambda f: "")
def test_constructors_check_kinds_not_only_ranges(call):
    with pytest.raises(MathhammerError, match="must be"):
        call()


def test_right_kinds_still_build():
    target = mh.wh40k.TargetProfile(toughness=4, save=3, wounds=1, keywords=frozenset({"vehicle"}))
    assert target.keywords == frozenset({"VEHICLE"})
    assert mh.exact(W40K, target, hit_mod=1).mean("damage") > 0


@pytest.mark.parametrize("call", [
    lambda r: r.quantile("damage", "0.5"),
    lambda r: r.quantile("damage", float("nan")),
    lambda r: r.quantile("damage", True),
    lambda r: r.quantile(["damage"], 0.5),
    lambda r: r.distribution("damage").probability_at_least("2"),
])
def test_result_methods_refuse_wrong_kinds(call):
    result = mh.exact(W40K, "MEQ")
    with pytest.raises(MathhammerError):
        call(result)


@pytest.mark.parametrize("call", [
    lambda: mh.sweep(None, "MEQ", "save", [2], method="exact"),
    lambda: mh.sweep(W40K, None, "save", [2], method="exact"),
    lambda: mh.sweep(W40K, "MEQ", None, [2], method="exact"),
    lambda: mh.sweep(W40K, "MEQ", "save", None, method="exact"),
    lambda: mh.compare(W40K, "MEQ", points=True, method="exact"),
    lambda: mh.compare(W40K, "MEQ", points=float("inf"), method="exact"),
    lambda: mh.compare(W40K, "MEQ", points=float("nan"), method="exact"),
    lambda: mh.compare({}, "MEQ", method="exact"),
    lambda: mh.load_roster("tests/wh40k/roster/files/leaders_11e.json", attach=5),
    lambda: mh.load_roster("tests/wh40k/roster/files/leaders_11e.json", attach={5: "x"}),
    lambda: mh.load_roster("tests/wh40k/roster/files/leaders_11e.json", assume=5),
], ids=lambda f: "")
def test_entry_points_refuse_wrong_kinds(call):
    with pytest.raises(MathhammerError):
        call()


def test_scenario_result_and_scripted_runs_refuse_wrong_input():
    scenario = mh.parse_scenario(BASE_SCENARIO)
    with pytest.raises(MathhammerError, match="no unit 'Nope'"):
        mh.run(scenario, trials=100).models_destroyed("Nope")
    for faces in ([7] * 10_000, [0], ["3"], 5, [True]):
        with pytest.raises(MathhammerError, match="face"):
            mh.wh40k.run_scripted(scenario, faces)


def test_a_seed_sequence_result_is_json():
    import json

    import numpy as np

    scenario = mh.parse_scenario(BASE_SCENARIO)
    json.dumps(mh.run(scenario, trials=100, seed=np.random.SeedSequence(4)).to_dict())
    json.dumps(mh.simulate(W40K, "MEQ", trials=1000, seed=np.random.SeedSequence(4)).to_dict())


@pytest.mark.parametrize("address", ["not a url", "tcp://x", "tcp://host:99999", "::",
                                     "inproc://foo", "http://a b:1", "\u0661:8786"])
def test_a_scheduler_that_is_not_an_address_is_refused(address):
    refused(["compare", W40K, "--target", "MEQ", "--scheduler", address], "--scheduler",
            "HOST:PORT")


@pytest.mark.parametrize("call", [
    lambda d: d.effective_probability(cover_faces=7),
    lambda d: d.effective_probability(cover_faces=-1, double=True, sustained=True),
    lambda d: d.effective_probability(cover_faces=1.5),
    lambda d: d.effective_probability(sustained="yes"),
    lambda d: d.dice_to_kill(-5, 0.5),
    lambda d: d.dice_to_kill(5, float("nan")),
    lambda d: d.dice_to_kill(5, True),
    lambda d: d.fire_orders([("Gun: 3/1",)]),
    lambda d: d.fire_orders(5),
    lambda d: d.fire_orders(["Gun: 3/1"]),
    lambda d: d.compare({}),
    lambda d: d.compare({"a": 5}),
    lambda d: d.compare([1, 2]),
], ids=lambda f: "")
def test_dust_helpers_refuse_what_has_no_meaning(call):
    import mathhammer.dust as dust

    with pytest.raises(MathhammerError):
        call(dust)


def test_dust_helpers_stay_in_range():
    import mathhammer.dust as dust

    for faces in range(7):
        for flags in itertools.product((False, True), repeat=3):
            q = dust.effective_probability(cover_faces=faces, sustained=flags[0],
                                           damage_resilient=flags[1], double=flags[2])
            assert 0 <= q <= 1


@pytest.mark.parametrize("text, fragments", [
    ('[units.Horde]\nmodels = [{ name = "Boy", count = 10000, profile = "T5 Sv5+ W1", '
     'weapons = ["10000x Gun: 24\\" A10000 BS3+ S4 AP0 D1"] }]\n', ["dice", "limit", "fewer"]),
    ('rounds = 100\n[units.Horde]\nmodels = [{ name = "Boy", count = 5000, '
     'profile = "T5 Sv5+ W1", weapons = ["Gun: 24\\" A1 BS3+ S4 AP0 D1"] }]\n',
     ["MiB", "fewer rounds"]),
])
def test_scenario_work_is_bounded_up_front(tmp_path, text, fragments):
    path = tmp_path / "big.toml"
    path.write_text(text + '[units.Mob]\nmodels = [{ name = "B", count = 5000, profile = '
                    '"T5 Sv5+ W1", weapons = ["Gun: 24\\" A1 BS3+ S4 AP0 D1"] }]\n'
                    '[[activations]]\nphase = "shooting"\nattacker = "Horde"\ntarget = "Mob"\n'
                    '[[activations]]\nphase = "shooting"\nattacker = "Mob"\ntarget = "Horde"\n',
                    encoding="utf-8")
    refused(["run", str(path), "--trials", "100"], str(path), *fragments, seconds=20)
    with pytest.raises(MathhammerError, match="limit"):
        mh.run(mh.load_scenario(path), trials=1)


def test_warmachine_helpers_are_bounded():
    from mathhammer.warmachine.rolls import attack_roll_counts
    from mathhammer.warmachine.policies import compare_focus

    with pytest.raises(MathhammerError, match="from 0 to 8"):
        attack_roll_counts(30, 0, 7)
    with pytest.raises(MathhammerError, match="whole number"):
        attack_roll_counts(2.5, 0, 7)
    assert attack_roll_counts(2, 0, 7) == (15, 18, 3)
    for points in (10**6, -1, 1.5, True):
        with pytest.raises(MathhammerError, match="points"):
            compare_focus("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", points=points)
