"""The decision optimiser against optima derived by hand.

Every expected value below is worked out in the comments from the dice (hit, wound and
save chances), independently of the engines; the optimiser must find the orders and value.
"""

from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer.errors import MathhammerError
from mathhammer.wh40k.optimise.api import optimise
from mathhammer.wh40k.optimise.objectives import Objective
from mathhammer.wh40k.optimise.settings import SearchOptions

# [TORRENT] S8 against T4, no save: every attack hits, wounds on 2+ and is never saved.
TORCH = 'Torch: 12" A1 BS- S8 AP0 D1 [TORRENT]'


def scenario(attacker_models: str, targets: dict[str, str], *, choose: str = "",
             weapons: str = "", rounds: int = 1) -> mh.wh40k.Scenario:
    """One shooting activation of unit ``Gunners`` with candidate targets ``targets``
    (name -> models list)."""
    units = "\n".join(f'[units."{name}"]\nside = "enemy"\nmodels = [{models}]'
                      for name, models in targets.items())
    names = ", ".join(f'"{n}"' for n in targets)
    text = f"""rounds = {rounds}
[units.Gunners]
side = "us"
models = [{attacker_models}]
{units}
[[activations]]
phase = "shooting"
attacker = "Gunners"
targets = [{names}]
{weapons}
{choose}
"""
    return mh.parse_scenario(text, open_choices=True)


def torches(n: int) -> str:
    return f'{{ name = "Gunner", count = {n}, profile = "T4 Sv3+ W2", weapons = [\'{TORCH}\'] }}'


def one_model(profile: str, name: str = "Model", count: int = 1) -> str:
    return f'{{ name = "{name}", count = {count}, profile = "{profile}" }}'


def orders(result, orders=None):
    orders = result.best.orders if orders is None else orders
    return sorted((o["target"], o["profile"], o["count"]) for o in result.orders(orders))


def test_splitting_fire_beats_focusing_on_single_wound_models():
    # Two shots, each kills a W1 model with p = 5/6. Split: 5/6 + 5/6 = 5/3 models.
    # Focused: P(the one model dies) = 1 - (1/6)^2 = 35/36. Splitting wins.
    sc = scenario(torches(2), {"A": one_model("T4 Sv- W1"), "B": one_model("T4 Sv- W1")})
    result = optimise(sc, "expected_models_destroyed")
    assert result.method == "enumeration" and result.optimal and result.engine == "exact"
    assert result.orders_in_space == 3                  # 2-0, 1-1, 0-2
    assert orders(result) == [("A", "Torch", 1), ("B", "Torch", 1)]
    assert result.value == pytest.approx(float(F(5, 3)), abs=1e-12)
    lead, stderr = result.margin()
    assert lead == pytest.approx(float(F(5, 3) - F(35, 36)), abs=1e-12) and stderr == 0
    assert [s.values[0][0] for _, s in result.naive] == pytest.approx([35 / 36] * 2)


def test_focusing_beats_splitting_on_two_wound_models():
    # Two D1 shots at single W2 models: split, each takes at most one wound and none dies;
    # focused, the model dies when both wound: (5/6)^2 = 25/36.
    sc = scenario(torches(2), {"A": one_model("T4 Sv- W2"), "B": one_model("T4 Sv- W2")})
    result = optimise(sc, "expected_models_destroyed")
    assert result.optimal
    targets = {o["target"] for o in result.orders(result.best.orders)}
    assert len(targets) == 1
    assert result.value == pytest.approx(25 / 36, abs=1e-12)
    split = next(s for s in result.ranked if len(s.orders.allocations[0]) == 2)
    assert split.values[0][0] == pytest.approx(0.0, abs=1e-12)


PROFILES = ('{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2", weapons = [{ name = "Gun", '
            'profiles = ["Gun - light: 12\\" A2 BS- S4 AP0 D1 [TORRENT]", '
            '"Gun - heavy: 12\\" A1 BS- S8 AP0 D1 [TORRENT]"] }] }')


@pytest.mark.parametrize("toughness, best, value", [
    # light: 2 hits wounding S4 v T4 on 4+ = 1.0; heavy: 1 hit, S8 v T4 on 2+ = 5/6
    (4, "Gun - light", F(1)),
    # light: S4 v T8 on 6+: 2/6 = 1/3; heavy: S8 v T8 on 4+: 1/2
    (8, "Gun - heavy", F(1, 2)),
])
def test_profile_choice_flips_with_toughness(toughness, best, value):
    sc = scenario(PROFILES, {"Big": one_model(f"T{toughness} Sv- W20")})
    result = optimise(sc, "expected_damage", unit="Big")
    assert result.optimal and result.orders_in_space == 2
    assert orders(result) == [("Big", best, 1)]
    assert result.value == pytest.approx(float(value), abs=1e-12)


LETHAL = ('{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2", weapons = ['
          '\'Gun: 12" A6 BS4+ S4 AP0 D1 [LETHAL HITS, DEVASTATING WOUNDS]\'] }')


@pytest.mark.parametrize("target, best, per_attack", [
    # T4 Sv2+: a wound roll gives 1/6 (critical: a mortal wound) + 2/6 * 1/6 (saved on 2+)
    # = 2/9; an auto-wound only 1/6 (saved on 2+). Declining: 1/2 * 2/9 = 12/108 per
    # attack; taking it: 1/6 * 1/6 + 2/6 * 2/9 = 11/108.
    ("T4 Sv2+ W20", "never", F(12, 108)),
    # T8 no save: a wound roll gives 1/6 (only the critical 6 wounds); an auto-wound 1.
    # Declining: 1/2 * 1/6 = 1/12; taking it: 1/6 + 2/6 * 1/6 = 4/18.
    ("T8 Sv- W20", "always", F(4, 18)),
])
def test_lethal_hits_choice_flips_with_the_target(target, best, per_attack):
    sc = scenario(LETHAL, {"Foe": one_model(target)},
                  choose='choose = { lethal_policy = ["always", "never"] }')
    result = optimise(sc, "expected_damage", unit="Foe")
    assert result.optimal and result.orders_in_space == 2
    assert result.choices(result.best.orders) == {"lethal_policy": best}
    assert result.value == pytest.approx(float(6 * per_attack), abs=1e-12)


def test_lexicographic_kill_a_then_as_much_of_b():
    # Three shots, p = 5/6 each. P(A's one W1 model dies) with n shots: 1 - (1/6)^n:
    # n=3: 0.9954, n=2: 0.9722, n=1: 0.8333. Within 0.05 of the best, n=2 and n=3 tie;
    # then B's expected models: n=2 leaves one shot, 5/6; n=3 none. Best: 2 at A, 1 at B.
    sc = scenario(torches(3), {"A": one_model("T4 Sv- W1"),
                               "B": one_model("T4 Sv- W1", count=10)})
    result = optimise(sc, [Objective("p_unit_destroyed", unit="A"),
                           Objective("expected_models_destroyed", unit="B")], tolerance=0.05)
    assert orders(result) == [("A", "Torch", 2), ("B", "Torch", 1)]
    assert result.best.values[0][0] == pytest.approx(35 / 36, abs=1e-12)
    assert result.best.values[1][0] == pytest.approx(5 / 6, abs=1e-12)
    alone = optimise(sc, Objective("p_unit_destroyed", unit="A"))
    assert orders(alone) == [("A", "Torch", 3)]


def test_points_and_p_at_least():
    # 2 shots, p = 5/6 at single W1 models A (10 points) and B (weights).
    # B worth 5: split = 5/6 * 10 + 5/6 * 5 = 12.5 beats both at A = 35/36 * 10 = 9.72.
    # B worth 1: split = 5/6 * 11 = 9.17 loses to both at A (9.72).
    sc = scenario(torches(2), {"A": one_model("T4 Sv- W1"), "B": one_model("T4 Sv- W1")})
    result = optimise(sc, "expected_points_destroyed", weights={"A": 10, "B": 5})
    assert orders(result) == [("A", "Torch", 1), ("B", "Torch", 1)]
    assert result.value == pytest.approx(12.5, abs=1e-12)
    result = optimise(sc, "expected_points_destroyed", weights={"A": 10, "B": 1})
    assert orders(result) == [("A", "Torch", 2)]
    assert result.value == pytest.approx(350 / 36, abs=1e-12)
    # P(at least 1 of B's 10 models): all shots at B: 35/36
    many = scenario(torches(2), {"A": one_model("T4 Sv- W1"),
                                 "B": one_model("T4 Sv- W1", count=10)})
    best = optimise(many, "p_at_least", unit="B", k=1)
    assert orders(best) == [("B", "Torch", 2)]
    assert best.value == pytest.approx(35 / 36, abs=1e-12)


def test_monte_carlo_reports_the_margin_with_its_standard_error_and_repeats_by_seed():
    # As the first test (split 5/3 against focused 35/36), by Monte Carlo.
    sc = scenario(torches(2), {"A": one_model("T4 Sv- W1"), "B": one_model("T4 Sv- W1")})
    result = optimise(sc, "expected_models_destroyed", method="monte-carlo", trials=20_000,
                      seed=7)
    assert result.engine == "monte-carlo" and not result.optimal
    assert orders(result) == [("A", "Torch", 1), ("B", "Torch", 1)]
    value, stderr = result.best.values[0]
    assert 0 < stderr < 0.02 and abs(value - 5 / 3) < 5 * stderr
    lead, lead_se = result.margin()
    assert lead_se > 0 and abs(lead - float(F(5, 3) - F(35, 36))) < 5 * lead_se
    again = optimise(sc, "expected_models_destroyed", method="monte-carlo", trials=20_000,
                     seed=7)
    assert again.to_dict() == result.to_dict()
    other = optimise(sc, "expected_models_destroyed", method="monte-carlo", trials=20_000,
                     seed=8)
    assert other.best.values[0] != result.best.values[0]
    data = result.to_dict()
    assert data["ranked"][0]["method"] == "monte-carlo" and data["margin"]["stderr"] > 0


def test_exact_scores_match_the_scenario_engine():
    # Split plans with two weapons and a multi-profile one, scored exactly and by running the
    # scenario: every orders's mean models destroyed agree within 5 standard errors.
    attacker = ('{ name = "Marine", count = 4, profile = "T4 Sv3+ W2", weapons = '
                '[\'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1\'] }, { name = "Gunner", count = 1, '
                'profile = "T4 Sv3+ W2", weapons = [{ name = "Plasma", profiles = ['
                '"Plasma - standard: 24\\" A1 BS3+ S7 AP-2 D1", '
                '"Plasma - supercharge: 24\\" A1 BS3+ S8 AP-3 D2"] }] }')
    sc = scenario(attacker, {"Gaunts": one_model("T3 Sv5+ W1", count=5),
                             "Warriors": one_model("T5 Sv4+ W3", count=2)})
    exact = optimise(sc, "expected_damage")
    assert exact.orders_in_space == 5 * 4 and exact.optimal
    by_plan = {s.orders: s for s in exact.ranked}
    monte = optimise(sc, "expected_damage", method="monte-carlo", trials=40_000, seed=3,
                     options=SearchOptions(max_orders=100))
    checked = 0
    for scored in monte.ranked:
        if scored.trials is not None:
            continue  # pruned after the first pass
        for unit in ("Gaunts", "Warriors"):
            mean, se = scored.outcome.models(unit)
            assert abs(mean - by_plan[scored.orders].outcome.models(unit)[0]) < 5 * se + 1e-9
        checked += 1
    assert checked >= 1


def test_large_spaces_are_searched_within_a_budget():
    sc = scenario(torches(10) + ", " + PROFILES.replace('"Gunner"', '"Heavy"'),
                  {"A": one_model("T4 Sv- W1", count=10), "B": one_model("T8 Sv- W3", count=3),
                   "C": one_model("T4 Sv- W2", count=5)})
    result = optimise(sc, "expected_models_destroyed",
                      options=SearchOptions(max_orders=10, budget=300))
    assert result.method == "search" and not result.optimal
    assert result.evaluated <= 300 + 8
    assert any("greedy + local search" in n for n in result.notes)
    exhaustive = optimise(sc, "expected_models_destroyed")
    assert exhaustive.method == "enumeration"
    assert result.value <= exhaustive.value + 1e-12
    assert result.value >= 0.95 * exhaustive.value


def test_reroll_choice_per_activation():
    # A2 BS4+ S4 v T4 (4+), no save, re-roll hits: 'failed' re-rolls 1-3 -> P(hit) 3/4,
    # wound 1/2: 2 * 3/4 * 1/2 = 0.75; 'ones' -> P(hit) 1/2 + 1/6 * 1/2 = 7/12: 7/12.
    gun = ('{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2", '
           'weapons = [\'Gun: 12" A2 BS4+ S4 AP0 D1\'] }')
    sc = scenario(gun, {"Foe": one_model("T4 Sv- W20")},
                  choose='choose = { reroll_hits = ["ones", "failed"] }')
    result = optimise(sc, "expected_damage", unit="Foe")
    assert result.choices(result.best.orders) == {"activation 1 reroll_hits": "failed"}
    assert result.value == pytest.approx(0.75, abs=1e-12)
    worst = result.ranked[-1]
    assert worst.values[0][0] == pytest.approx(7 / 12, abs=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    ({"objective": "expected_kills"}, "objective 'expected_kills' is unknown"),
    ({"unit": "Nobody"}, "unknown unit 'Nobody'"),
    ({"side": "Nobody"}, "unknown side 'Nobody'"),
    ({"method": "quantum"}, "method='quantum' is not an engine"),
    ({"objective": "p_at_least", "unit": "A"}, "p_at_least needs k"),
    ({"options": {"max_plans": 100}}, "options must be a SearchOptions"),
    ({"tolerance": float("nan")}, "tolerance=nan"),
    ({"weights": {"A": "ten"}}, "weights['A'] = 'ten'"),
    ({"weights": ["A"]}, "must be a dict"),
])
def test_bad_options_are_one_line(kwargs, message):
    sc = scenario(torches(2), {"A": one_model("T4 Sv- W1"), "B": one_model("T4 Sv- W1")})
    with pytest.raises(MathhammerError) as info:
        optimise(sc, **kwargs)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_exact_refused_with_the_reason():
    sc = scenario(torches(2), {"A": one_model("T4 Sv- W1"), "B": one_model("T4 Sv- W1")},
                  rounds=2)
    with pytest.raises(MathhammerError, match="2 battle rounds"):
        optimise(sc, method="exact")
    result = optimise(sc, trials=2_000)
    assert result.engine == "monte-carlo" and "2 battle rounds" in result.notes[0]


def test_points_follow_the_removal_order_of_a_mixed_points_unit():
    # One shot, p = 5/6, at a unit of identical W1 models: a 20-point model listed first,
    # then four 5-point ones. The first model removed is the 20-point one: 5/6 * 20.
    target = (one_model("T4 Sv- W1", name="Champion") + ", "
              + one_model("T4 Sv- W1", name="Trooper", count=4))
    target = target.replace('"Champion", count = 1,', '"Champion", count = 1, points = 20,')
    target = target.replace('"Trooper", count = 4,', '"Trooper", count = 4, points = 20,')
    sc = scenario(torches(1), {"Mob": target})
    exact = optimise(sc, "expected_points_destroyed", unit="Mob")
    assert exact.engine == "exact"
    assert exact.value == pytest.approx(5 / 6 * 20, abs=1e-12)
    monte = optimise(sc, "expected_points_destroyed", unit="Mob", method="monte-carlo",
                     trials=20_000, seed=2)
    value, stderr = monte.best.values[0]
    assert abs(value - 5 / 6 * 20) < 5 * stderr


def test_points_need_points_or_weights():
    sc = scenario(torches(1), {"A": one_model("T4 Sv- W1")})
    with pytest.raises(MathhammerError, match="unit 'A' has no points"):
        optimise(sc, "expected_points_destroyed")
    with pytest.raises(MathhammerError, match="unknown unit 'Z'"):
        optimise(sc, "expected_points_destroyed", weights={"Z": 1})


def _binomial(n: int, p: float) -> list[float]:
    from math import comb

    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def test_activation_order_blast_first():
    # Ten W1 models. 'Blaster': A2 [TORRENT, BLAST] (+1 attack per 5 models in the target
    # when its activation starts); 'Gunners': ten A1 torches. Every attack kills with p = 5/6.
    # Blaster first: 4 + 10 attacks, E[min(Bin(14, p), 10)].
    # Gunners first: K ~ Bin(10, p) die, then 2 + (10 - K) // 5 blast attacks.
    p = 5 / 6
    blast_first = sum(q * min(k, 10) for k, q in enumerate(_binomial(14, p)))
    gunners_first = 0.0
    for k, q in enumerate(_binomial(10, p)):
        left = 10 - k
        attacks = 2 + left // 5
        gunners_first += q * (k + sum(r * min(j, left)
                                      for j, r in enumerate(_binomial(attacks, p))))
    assert blast_first > gunners_first + 0.05
    text = f"""[units.Blaster]
side = "us"
models = [{{ name = "Blaster", count = 1, profile = "T4 Sv3+ W2",
            weapons = ['Launcher: 24" A2 BS- S8 AP0 D1 [TORRENT, BLAST]'] }}]
[units.Gunners]
side = "us"
models = [{torches(10)}]
[units.Horde]
side = "them"
models = [{one_model("T4 Sv- W1", count=10)}]
[[activations]]
phase = "shooting"
attacker = "Gunners"
target = "Horde"
[[activations]]
phase = "shooting"
attacker = "Blaster"
target = "Horde"
"""
    sc = mh.parse_scenario(text, open_choices=True)
    result = optimise(sc, "expected_models_destroyed", unit="Horde",
                      options=SearchOptions(activation_order=True), trials=40_000, seed=4)
    assert result.engine == "monte-carlo" and "[BLAST]" in result.notes[0]
    assert result.orders_in_space == 2
    best, second = result.ranked[:2]
    assert [sc.activations[k].attacker for k in result.space.activation_order(best.orders)] \
        == ["Blaster", "Gunners"]
    assert abs(best.values[0][0] - blast_first) < 5 * best.values[0][1]
    assert abs(second.values[0][0] - gunners_first) < 5 * second.values[0][1]
    assert "activation order: Blaster shoots Horde, Gunners shoots Horde" in \
        result.describe(best.orders)


def test_where_the_command_reroll_goes():
    # One shot, BS3+ (2/3), S8 v T10 wounds on 5+ (1/3), Sv3+ AP-2 fails on 1-4 (2/3), D6
    # against W4 kills on 4+ (1/2): 4/54. Re-rolling the hit: 8/9 * 1/3 * 2/3 * 1/2 = 16/162;
    # the wound: 2/3 * 5/9 * 2/3 * 1/2 = 20/162; the damage (1-3 again): 2/3 * 1/3 * 2/3 *
    # 3/4 = 18/162. The wound wins.
    gun = ('{ name = "Hammer", count = 1, profile = "T4 Sv3+ W2", '
           'weapons = [\'Hammer: 12" A1 BS3+ S8 AP-2 DD6\'] }')
    sc = scenario(gun, {"Knight": one_model("T10 Sv3+ W4")},
                  choose='choose = { command_reroll = ["none", "hit", "wound", "damage"] }')
    result = optimise(sc, "p_unit_destroyed", unit="Knight")
    values = {result.choices(s.orders)["activation 1 command_reroll"]: s.values[0][0]
              for s in result.ranked}
    assert values == pytest.approx({"none": 12 / 162, "hit": 16 / 162, "wound": 20 / 162,
                                    "damage": 18 / 162}, abs=1e-12)
    assert result.choices(result.best.orders) == {"activation 1 command_reroll": "wound"}


def test_a_profile_given_to_a_count_of_models_stays_and_targets_stay_open():
    # Two of three gunners fire the heavy profile (count = 2), one the light. Against
    # T8 W20 (no save): heavy 1/2 each, light 2 * 1/6 = 1/3; against T4: heavy 5/6, light 1.
    # Expected damage on both: each model's weapon goes where it does most (all to T4 here:
    # 5/6 > 1/2 and 1 > 1/3): 2 * 5/6 + 1 = 8/3.
    gunners = PROFILES.replace("count = 1", "count = 3")
    weapons = 'weapons = [{ name = "Gun - heavy", count = 2 }, "Gun - light"]'
    sc = scenario(gunners, {"Soft": one_model("T4 Sv- W20"), "Hard": one_model("T8 Sv- W20")},
                  weapons=weapons)
    result = optimise(sc, "expected_damage")
    assert [s.models for s in result.space.slots] == [2, 1]
    assert orders(result) == [("Soft", "Gun - heavy", 2), ("Soft", "Gun - light", 1)]
    assert result.value == pytest.approx(8 / 3, abs=1e-12)
    monte = optimise(sc, "expected_damage", method="monte-carlo", trials=20_000, seed=3)
    value, stderr = monte.best.values[0]
    assert abs(value - 8 / 3) < 5 * stderr


def test_targets_of_several_statlines_are_scored_exactly_as_the_scenario_engine_does():
    # A squad led by a CHARACTER (it dies last; its 60 points count only then) and a plain
    # unit: every orders scored exactly (the mixed-unit exact engine) and by running it.
    attacker = ('{ name = "Marine", count = 3, profile = "T4 Sv3+ W2", weapons = '
                '[\'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1\'] }, { name = "Gunner", count = 1, '
                'profile = "T4 Sv3+ W2", weapons = [\'Melta: 12" A1 BS3+ S9 AP-4 DD6\'] }')
    squad = ('{ name = "Trooper", count = 3, profile = "T4 Sv4+ W1", points = 30 }, '
             '{ name = "Boss", count = 1, profile = "T4 Sv3+ InSv4+ W4 [CHARACTER]", '
             'points = 60 }')
    mob_points = 'points = 30\nmodels = [{ name = "Model", count = 6'
    sc = mh.parse_scenario(_scenario_text(attacker, squad, mob_points), open_choices=True)
    exact = optimise(sc, "expected_points_destroyed")
    assert exact.engine == "exact" and exact.optimal and exact.orders_in_space == 4 * 2
    monte = optimise(sc, "expected_points_destroyed", method="monte-carlo", trials=40_000,
                     seed=5, options=SearchOptions(max_orders=100))
    by_plan = {s.orders: s for s in exact.ranked}
    checked = 0
    for scored in monte.ranked:
        if scored.trials is not None:
            continue
        value, stderr = scored.values[0]
        assert abs(value - by_plan[scored.orders].values[0][0]) < 5 * stderr + 1e-9
        for unit in ("Squad", "Mob"):
            mean, se = scored.outcome.models(unit)
            assert abs(mean - by_plan[scored.orders].outcome.models(unit)[0]) < 5 * se + 1e-9
        checked += 1
    assert checked >= 1


def _scenario_text(attacker: str, squad: str, mob: str) -> str:
    return f"""[units.Gunners]
side = "us"
models = [{attacker}]
[units.Squad]
side = "enemy"
models = [{squad}]
[units.Mob]
side = "enemy"
{mob}, profile = "T3 Sv6+ W1" }}]
[[activations]]
phase = "shooting"
attacker = "Gunners"
targets = ["Squad", "Mob"]
"""


def test_a_unit_split_to_shoot_still_fights_with_every_model():
    # Two gunners split their torches between A and B (5/6 + 5/6 = 5/3 models), then both
    # fight C (ten W1 models, no save): knife WS2+ S8 v T4, 5/6 * 5/6 = 25/36 per model.
    # Total 5/3 + 50/36 = 110/36, exactly and by running the orders (both pieces fight).
    gunners = ('{ name = "Gunner", count = 2, profile = "T4 Sv3+ W2", weapons = '
               f'[\'{TORCH}\', \'Knife: Melee A1 WS2+ S8 AP0 D1\'] }}')
    text = f"""[units.Gunners]
side = "us"
models = [{gunners}]
[units.A]
side = "them"
models = [{one_model("T4 Sv- W1")}]
[units.B]
side = "them"
models = [{one_model("T4 Sv- W1")}]
[units.C]
side = "them"
models = [{one_model("T4 Sv- W1", count=10)}]
[[activations]]
phase = "shooting"
attacker = "Gunners"
targets = ["A", "B"]
[[activations]]
phase = "fight"
attacker = "Gunners"
target = "C"
"""
    sc = mh.parse_scenario(text, open_choices=True)
    exact = optimise(sc, "expected_models_destroyed")
    assert exact.engine == "exact" and exact.value == pytest.approx(110 / 36, abs=1e-12)
    monte = optimise(sc, "expected_models_destroyed", method="monte-carlo", trials=40_000,
                     seed=6)
    assert monte.best.orders == exact.best.orders
    value, stderr = monte.best.values[0]
    assert abs(value - 110 / 36) < 5 * stderr


def test_search_options_hold_the_rarely_used_knobs():
    """``options=SearchOptions(...)`` holds split, open_profiles, activation_order,
    max_orders and budget (issue 40, item 8: at most 12 parameters); the old keywords give
    the same plans with a DeprecationWarning naming the new spelling, for one release."""
    import warnings

    sc = scenario(torches(2), {"A": one_model("T4 Sv- W1"), "B": one_model("T4 Sv- W1")})
    new = optimise(sc, "expected_models_destroyed", method="monte-carlo", trials=2_000,
                   options=SearchOptions(split=False, max_orders=50))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = optimise(sc, "expected_models_destroyed", method="monte-carlo", trials=2_000,
                       split=False, max_plans=50)
    assert [w.category for w in caught] == [DeprecationWarning]
    assert "options=SearchOptions(split=False, max_orders=50)" in str(caught[0].message)
    assert [(s.orders, s.values) for s in new.ranked] == [(s.orders, s.values) for s in old.ranked]
    for bad, message in (({"max_orders": 0}, "max_orders=0"), ({"split": "no"}, "split")):
        with pytest.raises(MathhammerError, match=message):
            SearchOptions(**bad)
    with pytest.raises(MathhammerError, match="inside options="), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        optimise(sc, split=False, options=SearchOptions())


def test_best_damage_reroll_is_a_choice_scored_for_the_objective():
    # The hand-derived case of tests/wh40k/exact_engine/test_policies.py: two [TORRENT]
    # S8 attacks at 2x T4 Sv- W3 with D3 damage. Mean models destroyed: best 1525/1458,
    # low 230/243, none 85/108 (worked out there, roll by roll).
    gun = ('{ name = "Gunner", count = 1, profile = "T4 Sv3+ W2", '
           'weapons = [\'Gun: 12" A2 BS- S8 AP0 DD3 [TORRENT]\'] }')
    sc = scenario(gun, {"Foe": one_model("T4 Sv- W3", count=2)},
                  choose='choose = { reroll_damage = ["none", "low", "best"] }')
    result = optimise(sc, "expected_models_destroyed", unit="Foe", method="exact")
    assert result.choices(result.best.orders) == {"activation 1 reroll_damage": "best"}
    assert result.value == pytest.approx(1525 / 1458, abs=1e-12)
    assert sorted(s.values[0][0] for s in result.ranked) == pytest.approx(
        [85 / 108, 230 / 243, 1525 / 1458], abs=1e-12)
    # P(destroyed) needs both models dead: 25/36 (two wounds) times P(3, 3) with re-rolls
    # of 1-2 each time (5/9)^2 under the chance-of-destroying goal; 'low' only (4/9)^2
    chance = optimise(sc, "p_unit_destroyed", unit="Foe", method="exact")
    assert chance.value == pytest.approx(25 / 36 * (5 / 9) ** 2, abs=1e-12)


BUFFED = """[units.A]
side = "us"
models = [{ name = "G", count = 3, profile = "T4 Sv3+ W1", weapons = ['Gun: 24" A2 BS3+ S3 AP0 D1'] }]
[units.B]
side = "them"
models = [{ name = "M", count = 4, profile = "T4 Sv- W1" }]
[units.C]
side = "them"
models = [{ name = "K", count = 1, profile = "T3 Sv4+ W3" }]
[[activations]]
phase = "shooting"
attacker = "A"
targets = ["B", "C"]
buffs = ["Drill: +1 S", "Aim: +1 to hit", "Lethal: [LETHAL HITS]"]
choose = { reroll_hits = ["none", "ones"] }
"""


def _capped_binomial_mean(n: int, p: float, cap: int) -> float:
    from math import comb
    return sum(min(k, cap) * comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def test_activation_buffs_that_change_weapon_lines_are_optimised_once():
    # Six BS3+ shots with +1 to hit (hit on a 2+), [LETHAL HITS] (a 6 wounds) and +1 S (S4
    # wounds T4 on a 4+) at four one-wound models without a save: a shot wounds with
    # 1/6 + 4/6 * 1/2 = 1/2, or re-rolling hit rolls of 1: 7/36 + 28/36 * 1/2 = 7/12; the
    # models destroyed are min(4, Bin(6, p)). The buffs must count once, not twice, and the
    # re-roll option must reach the exact scoring and the orders' own scenario alike.
    from mathhammer.wh40k.optimise.space import concrete_scenario

    scenario = mh.parse_scenario(BUFFED, open_choices=True)
    result = optimise(scenario, "expected_models_destroyed", method="exact")
    assert result.choices(result.best.orders) == {"activation 1 reroll_hits": "ones"}
    assert result.value == pytest.approx(_capped_binomial_mean(6, 7 / 12, 4), abs=1e-12)
    values = sorted(s.values[0][0] for s in result.ranked
                    if {o["target"] for o in result.orders(s.orders)} == {"B"})
    assert values == pytest.approx([_capped_binomial_mean(6, 1 / 2, 4),
                                    _capped_binomial_mean(6, 7 / 12, 4)], abs=1e-12)
    concrete = concrete_scenario(result.space, result.best.orders)
    act = concrete.activations[0]
    assert (act.modifiers.hit_mod, act.modifiers.reroll_hits) == (1, "ones")
    assert str(concrete.attacks[0][0].weapon) == 'Gun: 24" A2 BS3+ S4 AP0 D1 [LETHAL HITS]'
