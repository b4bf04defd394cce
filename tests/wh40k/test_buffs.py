"""Buffs (issue 35): each grant equals the same ability typed on the line or the same option
given directly (exact engine, to 1e-12); scopes pick the right lines; conditions follow the
situation; attribution reconciles; hostile texts are refused in one line naming the token.

The expected side of every comparison is written by hand (a line, an option, a target line):
none of it goes through the buff code.
"""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import MathhammerError, OptionError
from mathhammer.wh40k.buffs import load_buff_file, parse_buff, resolve_buffs

GUN = 'Gun: 24" A2 BS3+ S4 AP-1 D2'
RANDOM = 'Gun: 24" AD6 BS3+ S4 AP-1 DD3'
TARGET = "5x Marine: T4 Sv3+ W3 [INFANTRY]"
VEHICLE = "Tank: T9 Sv3+ W12 [VEHICLE]"


def same(left, right, tol=1e-12):
    """Two exact results with the same distributions (and P(unit destroyed)) to ``tol``."""
    for outcome in ("damage", "models_destroyed"):
        a = left.distributions[outcome].probabilities
        b = right.distributions[outcome].probabilities
        n = max(len(a), len(b))
        a, b = np.pad(a, (0, n - len(a))), np.pad(b, (0, n - len(b)))
        assert np.max(np.abs(a - b)) <= tol, outcome
    assert abs(left.probability("unit_destroyed")
               - right.probability("unit_destroyed")) <= tol


# (buff, the same thing given directly: weapon line, target line, options)
GRANTS = [
    ("[LETHAL HITS]", GUN + " [LETHAL HITS]", TARGET, {}),
    ("[SUSTAINED HITS 1]", GUN + " [SUSTAINED HITS 1]", TARGET, {}),
    ("[ANTI-INFANTRY 4+]", GUN + " [ANTI-INFANTRY 4+]", TARGET, {}),
    ("[DEVASTATING WOUNDS], [LETHAL HITS]", GUN + " [DEVASTATING WOUNDS, LETHAL HITS]",
     TARGET, {}),
    ("[LETHAL HITS] against INFANTRY", GUN + " [LETHAL HITS: INFANTRY]", TARGET, {}),
    ("[LETHAL HITS] against VEHICLE", GUN, TARGET, {}),
    ("+1 to hit", GUN, TARGET, {"hit_mod": 1}),
    ("-1 to hit", GUN, TARGET, {"hit_mod": -1}),
    ("+1 to wound", GUN, TARGET, {"wound_mod": 1}),
    ("+1 to save", GUN, TARGET, {"save_mod": 1}),
    ("re-roll hits", GUN, TARGET, {"reroll_hits": "failed"}),
    ("re-roll hits of 1", GUN, TARGET, {"reroll_hits": "ones"}),
    ("re-roll all wounds", GUN, TARGET, {"reroll_wounds": "all"}),
    ("re-roll non-critical hits", GUN, TARGET, {"reroll_hits": "noncrit"}),
    ("re-roll saves", GUN, TARGET, {"reroll_saves": "failed"}),
    ("re-roll damage", RANDOM, TARGET, {"reroll_damage": "low"}),
    ("re-roll ones attacks", RANDOM, TARGET, {"reroll_attacks": "ones"}),
    ("+1 strength", GUN, TARGET, {"strength_mod": 1}),
    ("+1 S", 'Gun: 24" A2 BS3+ S5 AP-1 D2', TARGET, {}),
    ("+1 AP", GUN, TARGET, {"ap_mod": 1}),
    ("+1 AP", 'Gun: 24" A2 BS3+ S4 AP-2 D2', TARGET, {}),
    ("-1 AP", GUN, TARGET, {"ap_mod": -1}),
    ("+1 damage", GUN, TARGET, {"damage_plus": 1}),
    ("+1 damage", 'Gun: 24" A2 BS3+ S4 AP-1 D 3', TARGET, {}),
    ("+1 attacks", 'Gun: 24" A3 BS3+ S4 AP-1 D2', TARGET, {}),
    ("+1 damage", RANDOM, TARGET, {"damage_plus": 1}),
    ("critical hits on 5+", GUN, TARGET, {"crit_hits": 5}),
    ("critical wounds on 5+", GUN, TARGET, {"crit_wounds": 5}),
    ("FNP 5+", GUN, TARGET, {"fnp": 5}),
    ("feel no pain 5+", GUN, "5x Marine: T4 Sv3+ W3 FNP5+ [INFANTRY]", {}),
    ("invulnerable 4+", 'Gun: 24" A2 BS3+ S4 AP-3 D2', "5x Marine: T4 Sv3+ InSv4+ W3",
     {}),
    ("cover", GUN, TARGET, {"cover": True}),
    ("-1 damage", GUN, TARGET, {"damage_minus": 1}),
    ("halve damage", GUN, TARGET, {"damage_halved": True}),
]


@pytest.mark.parametrize("buff, line, target, options", GRANTS,
                         ids=[f"{g[0]}={g[1][-12:]}{g[3]}" for g in GRANTS])
def test_a_buff_equals_the_same_thing_given_directly(buff, line, target, options):
    weapon = RANDOM if line == RANDOM else (
        'Gun: 24" A2 BS3+ S4 AP-3 D2' if "AP-3" in line else GUN)
    bare_target = "5x Marine: T4 Sv3+ W3" if "InSv" in target else TARGET
    same(mh.exact(weapon, bare_target, buffs=[buff]), mh.exact(line, target, **options))


def test_buffs_combine_by_the_rules_with_options_given_directly():
    # roll modifiers add, then the engine caps them: +1 to hit and hit_mod=1 is hit_mod=2
    same(mh.exact(GUN, TARGET, buffs=["+1 to hit"], hit_mod=1, roll_mod_cap=False),
         mh.exact(GUN, TARGET, hit_mod=2, roll_mod_cap=False))
    # re-roll policies take the wider; Feel No Pain, critical thresholds the best
    same(mh.exact(GUN, TARGET, buffs=["re-roll hits of 1"], reroll_hits="failed"),
         mh.exact(GUN, TARGET, reroll_hits="failed"))
    same(mh.exact(GUN, TARGET, buffs=["FNP 6+"], fnp=5), mh.exact(GUN, TARGET, fnp=5))
    same(mh.exact(GUN, "5x Marine: T4 Sv3+ W3 FNP4+", buffs=["FNP 5+"]),
         mh.exact(GUN, "5x Marine: T4 Sv3+ W3 FNP4+"))
    same(mh.exact(GUN, TARGET, buffs=["critical hits on 5+"], crit_hits=4),
         mh.exact(GUN, TARGET, crit_hits=4))
    # characteristic changes add to the option's
    same(mh.exact(GUN, TARGET, buffs=["+1 strength"], strength_mod=1),
         mh.exact(GUN, TARGET, strength_mod=2))
    # the target's own better invulnerable save stays
    same(mh.exact(GUN, "5x Marine: T4 Sv3+ InSv4+ W3", buffs=["invulnerable 5+"]),
         mh.exact(GUN, "5x Marine: T4 Sv3+ InSv4+ W3"))


MIXED = ['Bolt rifle: 24" A2 BS3+ S4 AP-1 D1', "Chainsword: Melee A3 WS3+ S4 AP0 D1"]


def test_a_melee_scoped_buff_leaves_ranged_lines_unchanged():
    result = mh.exact(MIXED, TARGET, buffs=["+1 strength, [LETHAL HITS] to MELEE weapons"])
    assert result.inputs["weapons"][0] == str(mh.parse_weapon(MIXED[0]))
    typed = [MIXED[0], "Chainsword: Melee A3 WS3+ S5 AP0 D1 [LETHAL HITS]"]
    same(result, mh.exact(typed, TARGET))
    ranged = mh.exact(MIXED, TARGET, buffs=["[SUSTAINED HITS 1] in the shooting phase"])
    same(ranged, mh.exact([MIXED[0] + " [SUSTAINED HITS 1]", MIXED[1]], TARGET))


def test_a_weapon_ability_scope_picks_the_lines_with_it():
    lines = ['Pistol: 12" A1 BS3+ S4 AP0 D1 [PISTOL]', 'Rifle: 24" A2 BS3+ S4 AP0 D1']
    same(mh.exact(lines, TARGET, buffs=["+1 damage to PISTOL weapons"]),
         mh.exact(['Pistol: 12" A1 BS3+ S4 AP0 D2 [PISTOL]', lines[1]], TARGET))


def test_an_activation_wide_grant_on_some_lines_only_is_refused_in_one_line():
    with pytest.raises(OptionError) as info:
        mh.exact(MIXED, TARGET, buffs=["Fury: +1 to hit to MELEE weapons"])
    assert "\n" not in str(info.value) and "Fury" in str(info.value)
    assert "1 of 2 lines" in str(info.value)
    # picking every line (or none) is fine
    same(mh.exact(MIXED[1], TARGET, buffs=["+1 to hit to MELEE weapons"]),
         mh.exact(MIXED[1], TARGET, hit_mod=1))
    same(mh.exact(MIXED[0], TARGET, buffs=["+1 to hit to MELEE weapons"]),
         mh.exact(MIXED[0], TARGET))


def test_a_defensive_buff_for_a_keyword_follows_the_target():
    same(mh.exact(GUN, TARGET, buffs=["FNP 5+ to INFANTRY"]), mh.exact(GUN, TARGET, fnp=5))
    same(mh.exact(GUN, VEHICLE, buffs=["FNP 5+ to INFANTRY"]), mh.exact(GUN, VEHICLE))
    same(mh.exact(GUN, VEHICLE, buffs=["+1 to wound against VEHICLE"]),
         mh.exact(GUN, VEHICLE, wound_mod=1))
    same(mh.exact(GUN, TARGET, buffs=["+1 to wound against VEHICLE"]), mh.exact(GUN, TARGET))


def test_conditions_follow_the_situation():
    buff = "Bolter drill: [SUSTAINED HITS 1] when stationary"
    same(mh.exact(GUN, TARGET, buffs=[buff]), mh.exact(GUN, TARGET))
    same(mh.exact(GUN, TARGET, buffs=[buff], stationary=True),
         mh.exact(GUN + " [SUSTAINED HITS 1]", TARGET, stationary=True))
    last = "Last stand: +1 to wound when below half strength and charged"
    same(mh.exact(GUN, TARGET, buffs=[last], charged=True), mh.exact(GUN, TARGET))
    same(mh.exact(GUN, TARGET, buffs=[last], charged=True, below_half_strength=True),
         mh.exact(GUN, TARGET, wound_mod=1, charged=True))
    result = mh.exact(GUN, TARGET, buffs=[buff])
    assert result.inputs["buffs"]["not_applied"] == ["Bolter drill (needs stationary)"]


def test_compare_and_sweep_take_buffs_and_read_each_cells_situation():
    buff = "[SUSTAINED HITS 1] when stationary"
    frame = mh.compare([GUN], [TARGET, VEHICLE], method="exact", buffs=[buff],
                       stationary=True)
    typed = mh.compare([GUN + " [SUSTAINED HITS 1]"], [TARGET, VEHICLE], method="exact",
                       stationary=True)
    assert np.allclose(frame["value"], typed["value"], rtol=0, atol=1e-12)
    swept = mh.sweep([GUN], TARGET, "stationary", [False, True], method="exact",
                     buffs=[buff])
    damage = swept.query("metric == 'expected_damage'")["value"].tolist()
    assert damage[0] == pytest.approx(mh.exact(GUN, TARGET).mean("damage"), abs=1e-12)
    assert damage[1] == pytest.approx(
        mh.exact(GUN + " [SUSTAINED HITS 1]", TARGET).mean("damage"), abs=1e-12)


def test_a_buff_file_names_buffs(tmp_path):
    path = tmp_path / "buffs.toml"
    path.write_text('[buffs]\n"Oath of Moment" = "re-roll hits (1CP)"\n'
                    'Drill = "[SUSTAINED HITS 1] to RANGED weapons"\n', encoding="utf-8")
    library = load_buff_file(path)
    assert library["Oath of Moment"].cost == 1 and library["Drill"].weapons == "RANGED"
    named = resolve_buffs(["oath of moment", "Drill", "+1 to wound"], library)
    assert [b.name for b in named] == ["Oath of Moment", "Drill", "+1 to wound"]
    same(mh.exact(GUN, TARGET, buffs=named),
         mh.exact(GUN + " [SUSTAINED HITS 1]", TARGET, reroll_hits="failed", wound_mod=1))


def test_hostile_buff_items_and_files_are_refused_in_one_line(tmp_path):
    for items in ([3], {"a": "b"}, ["re-roll hits"] * 65):
        with pytest.raises(OptionError) as info:
            resolve_buffs(items)
        assert "\n" not in str(info.value)
    library = {"Oath of Moment": parse_buff("re-roll hits")}
    with pytest.raises(OptionError, match="unknown buff 'Oath of Moments'.*Oath of Moment"):
        resolve_buffs(["Oath of Moments"], library)
    bad = {"missing.toml": None, "notoml.toml": "[buffs\n", "notable.toml": "a = 1\n",
           "number.toml": "[buffs]\nOath = 3\n", "badtext.toml": '[buffs]\nOath = "+1 to x"\n'}
    for name, text in bad.items():
        path = tmp_path / name
        if text is not None:
            path.write_text(text, encoding="utf-8")
        with pytest.raises(MathhammerError) as info:
            load_buff_file(path)
        assert "\n" not in str(info.value) and name in str(info.value)




SCENARIO = """
[units.Marines]
models = [{ name = "Marine", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1RIFLE",
                       "Knife: Melee A3 WS3+ S4 AP0 D1"] }]

[units.Boyz]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
BUFFS
[[activations]]
phase = "shooting"
attacker = "Marines"
target = "Boyz"
situation = { stationary = true }
SHOOT
[[activations]]
phase = "fight"
attacker = "Marines"
target = "Boyz"
FIGHT
"""


def scenario(buffs="", shoot="", fight="", rifle=""):
    return mh.parse_scenario(SCENARIO.replace("BUFFS", buffs).replace("SHOOT", shoot)
                             .replace("FIGHT", fight).replace("RIFLE", rifle))


def test_scenario_buffs_equal_the_typed_scenario():
    buffed = scenario(buffs='[buffs]\nOath = "re-roll hits (1CP)"\n'
                            'Drill = "[SUSTAINED HITS 1] to RANGED weapons when stationary"\n',
                      shoot='buffs = ["Oath", "Drill"]\n',
                      fight='buffs = ["Drill", "+1 strength to MELEE weapons"]\n')
    typed = scenario(shoot='modifiers = { reroll_hits = "failed" }\n',
                     rifle=" [SUSTAINED HITS 1]")
    assert buffed.attacks[0] == typed.attacks[0]
    assert buffed.activations[0].modifiers == typed.activations[0].modifiers
    # the fight: Drill needs stationary (not given there) and picks no melee line
    assert [str(a.weapon) for a in buffed.attacks[1]] == ["Knife: Melee A3 WS3+ S5 AP0 D1"]


def test_scenario_buff_refusals_name_the_activation():
    with pytest.raises(MathhammerError, match="activation 1.*Oath of Moments"):
        scenario(buffs='[buffs]\n"Oath of Moment" = "re-roll hits"\n',
                 shoot='buffs = ["Oath of Moments"]\n')
    with pytest.raises(MathhammerError, match="defender's"):
        scenario(shoot='buffs = ["FNP 5+"]\n')
    with pytest.raises(MathhammerError, match="buff 'Bad'"):
        scenario(buffs='[buffs]\nBad = "+1 to flavour"\n')


def test_a_scenario_built_again_applies_its_buffs_once():
    # dataclasses.replace(scenario, rounds=...) (mathhammer run --rounds) builds it again from
    # its own activations: +1 to hit stays +1, critical hits on 5+ stay 5+, +1 S stays +1
    import dataclasses

    text = """[units.A]
side = "us"
models = [{ name = "G", count = 5, profile = "T4 Sv3+ W1", weapons = ['Gun: 24" A1 BS3+ S3 AP0 D1'] }]
[units.B]
side = "them"
models = [{ name = "M", count = 10, profile = "T4 Sv- W1" }]
[[activations]]
phase = "shooting"
attacker = "A"
target = "B"
buffs = ["Drill: +1 S", "Aim: +1 to hit", "Crits: critical hits on 5+"]
"""
    scenario = mh.parse_scenario(text)
    again = dataclasses.replace(dataclasses.replace(scenario, rounds=2), rounds=1)
    for built in (scenario, again):
        modifiers = built.activations[0].modifiers
        assert (modifiers.hit_mod, modifiers.crit_hits) == (1, 5)
        assert built.attacks[0][0].weapon.strength == 4
