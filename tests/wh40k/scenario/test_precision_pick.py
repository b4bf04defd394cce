"""``precision_pick``: which CHARACTER group [PRECISION] makes current (spec 4 step 3).

Scripted trials force the dice: one [PRECISION] sniper shot, D 3, at a bodyguard unit with
two attached CHARACTERs; which CHARACTER dies shows which group the engine picked. The Monte
Carlo case checks hand-derived probabilities of each CHARACTER being destroyed.
"""

import json

import pytest

from mathhammer.cli import main

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.scenario.api import run, run_scripted
from mathhammer.wh40k.scenario.reader import parse_scenario

SNIPER = '"Sniper: 36\\" A1 BS3+ S4 AP-2 D 3 [PRECISION]"'

# hit 4 (BS3+), wound 4 (S4 vs T3: 3+), save 1 (fails): 3 damage, enough for W3 or W2
ONE_KILLING_SHOT = [4, 4, 1]


def scenario(*args, **kwargs):
    return parse_scenario(scenario_text(*args, **kwargs))


def scenario_text(first="Ancient", second="Captain", first_points=None, second_points=None,
                  rules="", override="", extra_activation=""):
    """Guards (5 troopers) led by two CHARACTERs; Snipers shoot them once (or twice)."""
    wounds = {"Ancient": 2, "Captain": 3}

    def character(name, points):
        cost = f", points = {points}" if points is not None else ""
        return (f'{{ name = "{name}", count = 1, profile = "T3 Sv3+ W{wounds[name]} '
                f'[CHARACTER, INFANTRY]"{cost} }}')

    return f"""
[rules]
{rules}

[units.Snipers]
models = [{{ name = "Sniper", count = 1, profile = "T3 Sv4+ W1", weapons = [{SNIPER}] }}]

[units.Guards]
attached = ["Command"]
models = [{{ name = "Trooper", count = 5, profile = "T3 Sv5+ W1 [INFANTRY]" }}]

[units.Command]
models = [{character(first, first_points)}, {character(second, second_points)}]

[[activations]]
phase = "shooting"
attacker = "Snipers"
target = "Guards"
{override}
{extra_activation}
"""


def killed(out):
    groups = out["units"]["Guards"]["groups"]
    return sorted(name for name in ("Ancient", "Captain") if groups[name])


def test_first_takes_the_first_character_group_in_allocation_order():
    out = run_scripted(scenario(rules='precision_pick = "first"'), ONE_KILLING_SHOT)
    assert killed(out) == ["Ancient"]
    assert out["dice_used"] == len(ONE_KILLING_SHOT)


def test_best_with_points_takes_the_most_points_per_wound_left_and_differs_from_first():
    # Ancient 60 pts / 2 W = 30 per wound; Captain 120 pts / 3 W = 40 per wound
    sc = scenario(first_points=60, second_points=120)
    assert killed(run_scripted(sc, ONE_KILLING_SHOT)) == ["Captain"]
    first = scenario(first_points=60, second_points=120, rules='precision_pick = "first"')
    assert killed(run_scripted(first, ONE_KILLING_SHOT)) == ["Ancient"]


def test_best_with_points_breaks_a_tie_in_allocation_order():
    # 60 / 2 = 90 / 3: equal worth per wound, so the first in allocation order (Ancient)
    sc = scenario(first_points=60, second_points=90)
    assert killed(run_scripted(sc, ONE_KILLING_SHOT)) == ["Ancient"]


def test_best_without_points_takes_the_fewest_wounds_left():
    # Captain (W3) is listed first, Ancient has W2: best picks Ancient, first picks Captain
    sc = scenario(first="Captain", second="Ancient")
    assert killed(run_scripted(sc, ONE_KILLING_SHOT)) == ["Ancient"]
    first = scenario(first="Captain", second="Ancient", rules='precision_pick = "first"')
    assert killed(run_scripted(first, ONE_KILLING_SHOT)) == ["Captain"]


WOUNDING_THEN_KILLING = f"""
[units.Snipers]
models = [{{ name = "Sniper", count = 1, profile = "T3 Sv4+ W1",
             weapons = ["Light sniper: 36\\" A1 BS3+ S4 AP-2 D2 [PRECISION]", {SNIPER}] }}]

[units.Guards]
attached = ["Command"]
models = [{{ name = "Trooper", count = 5, profile = "T3 Sv5+ W1 [INFANTRY]" }}]

[units.Command]
models = [{{ name = "Captain", count = 1, profile = "T3 Sv3+ W3 [CHARACTER, INFANTRY]",
             points = 90 }},
          {{ name = "Ancient", count = 1, profile = "T3 Sv3+ W2 [CHARACTER, INFANTRY]",
             points = 80 }}]

[[activations]]
phase = "shooting"
attacker = "Snipers"
target = "Guards"
weapons = ["Light sniper"]
precision_pick = "Captain"

[[activations]]
phase = "shooting"
attacker = "Snipers"
target = "Guards"
weapons = ["Sniper"]
"""


def test_best_counts_the_wounds_left_on_a_wounded_character():
    sc = parse_scenario(WOUNDING_THEN_KILLING)
    # The light sniper's save passes (6): the Captain is unwounded, 90 pts / 3 W = 30 per
    # wound against the Ancient's 80 / 2 = 40: the D 3 shot kills the Ancient.
    out = run_scripted(sc, [4, 4, 6] + ONE_KILLING_SHOT)
    assert killed(out) == ["Ancient"]
    # The light sniper's save fails: the Captain has 1 wound left, 90 / 1 = 90 beats 40.
    out = run_scripted(sc, [4, 4, 1] + ONE_KILLING_SHOT)
    assert out["units"]["Guards"]["wounds_lost"] == 3
    assert killed(out) == ["Captain"]


def test_a_named_group_is_taken_while_alive():
    sc = scenario(first_points=60, second_points=120, rules='precision_pick = "Ancient"')
    assert killed(run_scripted(sc, ONE_KILLING_SHOT)) == ["Ancient"]


def test_an_activation_overrides_the_scenario_pick():
    sc = scenario(first_points=60, second_points=120, rules='precision_pick = "first"',
                  override='precision_pick = "Captain"')
    assert killed(run_scripted(sc, ONE_KILLING_SHOT)) == ["Captain"]


NAMED_THEN_DEAD = f"""
rounds = 2

[rules]
precision_pick = "Ancient"

[units.Snipers]
models = [{{ name = "Sniper", count = 1, profile = "T3 Sv4+ W1", weapons = [{SNIPER}] }}]

[units.Guards]
attached = ["Command"]
models = [{{ name = "Trooper", count = 5, profile = "T3 Sv5+ W1 [INFANTRY]" }}]

[units.Command]
models = [{{ name = "Ancient", count = 1, profile = "T3 Sv3+ W2 [CHARACTER, INFANTRY]" }},
          {{ name = "Captain", count = 1, profile = "T3 Sv3+ W3 [CHARACTER, INFANTRY]" }},
          {{ name = "Apothecary", count = 1, profile = "T3 Sv3+ W1 [CHARACTER, INFANTRY]" }}]

[[activations]]
phase = "shooting"
attacker = "Snipers"
target = "Guards"
"""


def test_a_named_group_that_is_dead_falls_back_to_best():
    out = run_scripted(parse_scenario(NAMED_THEN_DEAD), ONE_KILLING_SHOT * 2)
    groups = out["units"]["Guards"]["groups"]
    # round 1: the named Ancient (not the Apothecary, best); round 2, the Ancient gone:
    # best without points = the fewest wounds left, the Apothecary (W1), not the Captain
    # that comes first in allocation order
    assert (groups["Ancient"], groups["Captain"], groups["Apothecary"]) == (1, 0, 1)
    assert groups["Trooper"] == 0


@pytest.mark.parametrize("pick, captain, ancient", [
    ("best", 64 / 216, 0.0),      # Captain 120 / 3 beats Ancient 60 / 2
    ("first", 0.0, 64 / 216),
])
def test_monte_carlo_character_destroyed_matches_hand_derived(pick, captain, ancient):
    # one shot: hits 4/6 (BS3+), wounds 4/6 (S4 vs T3: 3+), the save (Sv3+ AP-2: 5+) fails
    # 4/6; 3 damage destroys either CHARACTER: 4/6 * 4/6 * 4/6 = 64/216
    sc = scenario(first_points=60, second_points=120, rules=f'precision_pick = "{pick}"')
    result = run(sc, trials=60_000, seed=5)
    for name, p in (("Captain", captain), ("Ancient", ancient)):
        dist = result.group_models_destroyed("Guards", name)
        stderr = max(dist.stderr, 1e-12)
        assert abs(dist.mean - p) < 5 * stderr + 1e-12
    assert result.group_models_destroyed("Guards", "Trooper").mean == 0.0


@pytest.mark.parametrize("rules, token", [
    ('precision_pick = "Captian"', "Captian"),
    ('precision_pick = "Trooper"', "Trooper"),
    ('precision_pick = 3', "precision_pick"),
    ('retarget_on_destroyed = "again"', "again"),
])
def test_bad_values_name_the_token_the_line_and_the_choices(rules, token):
    with pytest.raises(ScenarioError) as info:
        scenario(rules=rules)
    message = str(info.value)
    assert "\n" not in message and token in message
    assert message.startswith("<scenario>:3:")
    if "Captian" in rules:
        assert "did you mean 'Captain'" in message and "best, first" in message
    if "again" in rules:
        assert "lost, retarget" in message


def test_a_bad_activation_pick_names_the_activation_line():
    with pytest.raises(ScenarioError, match=r"^<scenario>:\d+: activation 1: precision_pick "
                                            r"= 'Nobody'.*best, first"):
        scenario(override='precision_pick = "Nobody"')


def test_the_command_line_overrides_the_pick_and_refuses_a_bad_one(tmp_path, capsys):
    path = tmp_path / "snipers.toml"
    path.write_text(scenario_text(first_points=60, second_points=120), encoding="utf-8")
    means = {}
    for pick in ("best", "first"):
        assert main(["run", str(path), "--precision-pick", pick, "--trials", "4000",
                     "--json"]) == 0
        groups = json.loads(capsys.readouterr().out)["units"]["Guards"]["groups"]
        means[pick] = {g: groups[g]["models_destroyed"]["mean"] for g in ("Captain", "Ancient")}
    assert means["best"]["Ancient"] == means["first"]["Captain"] == 0.0
    assert means["best"]["Captain"] > 0.2 and means["first"]["Ancient"] > 0.2
    assert main(["run", str(path), "--precision-pick", "Captian"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "'Captian'" in err and "did you mean 'Captain'" in err


@pytest.mark.parametrize("switches, token", [
    ("retarget", "'retarget'"),
    (None, "None"),
])
def test_python_switches_of_the_wrong_kind_are_one_line_errors(switches, token):
    import dataclasses
    sc = scenario()
    with pytest.raises(ScenarioError) as info:
        dataclasses.replace(sc, switches=switches)
    assert "\n" not in str(info.value) and token in str(info.value)


@pytest.mark.parametrize("kwargs, token", [
    ({"retarget_on_destroyed": "sometimes"}, "sometimes"),
    ({"precision_pick": ""}, "precision_pick"),
    ({"precision_pick": 7}, "7"),
])
def test_scenario_rules_refuse_bad_values(kwargs, token):
    from mathhammer.wh40k.scenario.model import ScenarioRules
    with pytest.raises(ScenarioError, match=token):
        ScenarioRules(**kwargs)
