"""Every orders scored by the optimiser's exact evaluator (wh40k/optimise/evaluate.py) as the
scenario engine resolves that orders's scenario (issue 34): one Command Re-roll per
activation whatever its targets, batches in the scenario engine's order, and a cache that
never hands one orders's value to another. The expected values come from a brute-force
resolver written from the rules (``brute_force.py``) or by hand in the comments."""

import random
from fractions import Fraction as F

import pytest

import mathhammer as mh
from mathhammer.wh40k.optimise.api import optimise
from mathhammer.wh40k.optimise.evaluate import ExactEvaluator
from mathhammer.wh40k.optimise.space import build_space, concrete_scenario

from .brute_force import gather, resolve, targets_of


def _model(name: str, count: int, profile: str, weapons: list[str] | None = None) -> str:
    listed = "" if weapons is None else ", weapons = [" + ", ".join(weapons) + "]"
    return f'{{ name = "{name}", count = {count}, profile = "{profile}"{listed} }}'


def _scenario(attacker: list[str], targets: dict[str, str], choose: str = "",
              extra: str = "") -> mh.wh40k.Scenario:
    units = "\n".join(f'[units.{name}]\nside = "them"\nmodels = [{models}]'
                      for name, models in targets.items())
    names = ", ".join(f'"{n}"' for n in targets)
    text = f"""[units.S]
side = "us"
models = [{", ".join(attacker)}]
{units}
[[activations]]
phase = "shooting"
attacker = "S"
targets = [{names}]
{extra}
{choose}
"""
    return mh.parse_scenario(text, open_choices=True)


def _expected(scenario, wounds: bool = False) -> tuple[dict[str, F], F]:
    """E[models destroyed] (or E[wounds lost]) per target and P(every target destroyed), by
    brute force."""
    joint = resolve(scenario)
    names = targets_of(scenario)
    per_model = [scenario.units[t].groups[0].profile.wounds if wounds else None for t in names]
    means = {t: sum(p * (states[i][0] * per_model[i] + states[i][1] if wounds
                         else states[i][0]) for states, p in joint.items())
             for i, t in enumerate(names)}
    counts = [scenario.units[t].models for t in names]
    wiped = sum(p for states, p in joint.items()
                if all(s[0] == n for s, n in zip(states, counts)))
    return means, wiped


def _check_every_plan(scenario) -> dict:
    """Every orders's exact score against the brute force; returns each orders's E[models
    destroyed] over every target, by brute force."""
    space = build_space(scenario)
    evaluator = ExactEvaluator(space)
    names = targets_of(scenario)
    plans = list(space.every_orders())
    truth = {}
    for orders in plans:
        outcome = evaluator.outcome(orders)
        means, wiped = _expected(concrete_scenario(space, orders))
        wounds, _ = _expected(concrete_scenario(space, orders), wounds=True)
        for t in names:
            assert outcome.models(t)[0] == pytest.approx(float(means[t]), abs=1e-12), orders
            assert outcome.wounds(t)[0] == pytest.approx(float(wounds[t]), abs=1e-12), orders
        assert outcome.p_destroyed(names)[0] == pytest.approx(float(wiped), abs=1e-12), orders
        truth[orders] = sum(means.values())
    return truth


# --- 1. One Command Re-roll per activation, not per target ----------------------------------

def test_one_command_reroll_shared_by_two_targets():
    # Two gunners, one A1 BS4+ shot each, S4 v T4 (4+), no save, at two single W1 models.
    # P(a shot kills) = 1/2 * 1/2 = 1/4; with the hit re-roll in hand, P(hit) = 3/4.
    # Split 1-1 with the re-roll: U0's shot takes it when it misses (1/2): U0 dies with
    # 3/4 * 1/2 = 3/8. U1's shot has it only when U0's hit landed (1/2): P(hit) =
    # 1/2 * 1/2 + 1/2 * 3/4 = 5/8, dies with 5/16. Total 3/8 + 5/16 = 11/16 (one re-roll
    # per target, as before issue 34, gave 3/8 + 3/8 = 3/4). The other five plans are
    # checked against the brute-force resolver.
    gun = ["'Gun: 24\" A1 BS4+ S4 AP0 D1'"]
    sc = _scenario([_model("G", 2, "T4 Sv3+ W2", gun)],
                   {"U0": _model("M", 1, "T4 Sv- W1"), "U1": _model("M", 1, "T4 Sv- W1")},
                   choose='choose = { command_reroll = ["none", "hit"] }')
    space = build_space(sc)
    evaluator = ExactEvaluator(space)
    split = next(p for p in space.every_orders()
                 if len(p.allocations[0]) == 2 and p.options == ("hit",))
    outcome = evaluator.outcome(split)
    assert outcome.models("U0")[0] + outcome.models("U1")[0] == pytest.approx(11 / 16,
                                                                             abs=1e-12)
    assert len(_check_every_plan(sc)) == 6


def test_the_issue_case_one_command_reroll_is_scored_once():
    # Issue 34's first case: G and H (A2 BS3+ S4 each) split between U0 (two T5 Sv5+ W1)
    # and U1 (one T3 W1, no save), with the hit Command Re-roll. Scored with a re-roll for
    # each target, "G at U0, H at U1" came out best at 32/27 = 1.1852; resolved by the
    # scenario engine (the brute force here) it is 2452/2187 = 1.1212, and the best orders is
    # "G at U1, H at U0" (2492/2187 = 1.1394: U1, named first, takes the re-roll first).
    gun = ["'Gun: 24\" A2 BS3+ S4 AP0 D1'"]
    sc = _scenario([_model("G", 1, "T4 Sv3+ W2", gun), _model("H", 1, "T4 Sv3+ W2", gun)],
                   {"U0": _model("M", 2, "T5 Sv5+ W1"), "U1": _model("M", 1, "T3 Sv- W1")},
                   choose='choose = { command_reroll = ["none", "hit"] }')
    truth = _check_every_plan(sc)
    result = optimise(sc, "expected_models_destroyed")
    assert result.optimal
    assert truth[result.best.orders] == max(truth.values()) == F(2492, 2187)
    assert result.best.orders.allocations == (((("U1", 0), 1),), ((("U0", 0), 1),))
    assert result.value == pytest.approx(2492 / 2187, abs=1e-12)
    old_best = next(p for p in truth if p.allocations == (((("U0", 0), 1),), ((("U1", 0), 1),))
                    and p.options == ("hit",))
    assert truth[old_best] == F(2452, 2187)


# --- 2. Batch order ----------------------------------------------------------------------

TWO_PROFILES = ['{ name = "Gun", profiles = ["Gun - light: 24\\" A2 BS3+ S4 AP0 D1", '
                '"Gun - heavy: 24\\" A1 BS3+ S8 AP-2 D2"] }']


def test_two_profiles_of_one_weapon_at_one_target_in_the_scenario_engines_order():
    # Two groups carry one weapon of two profiles (light A2 D1, heavy A1 D2). A orders where
    # G fires heavy at U1 and H fires light then heavy at U0 runs, in its own scenario,
    # heavy before light at U0 (the orders's weapon order names heavy first); the wounds
    # lost then differ from light first (a D1 wound then a D2 on the same W2 model loses a
    # point). Every orders's models and wounds are checked against the brute force, which
    # follows the scenario's gather loop; the evaluator scored 10 of these 100 plans in
    # another order before issue 34.
    sc = _scenario([_model("G", 2, "T4 Sv3+ W2", TWO_PROFILES),
                    _model("H", 2, "T4 Sv3+ W2", TWO_PROFILES)],
                   {"U0": _model("M", 2, "T4 Sv4+ W2"), "U1": _model("M", 1, "T4 Sv- W2")})
    assert len(_check_every_plan(sc)) == 100
    space = build_space(sc)
    orders = next(p for p in space.every_orders()
                if p.allocations == (((("U1", 1), 2),), ((("U0", 0), 1), (("U0", 1), 1))))
    gathered = [(t, [w.name for w, _ in batch]) for t, batch in
                gather(concrete_scenario(space, orders))]
    assert gathered == [("U1", ["Gun - heavy"]), ("U0", ["Gun - heavy"]),
                        ("U0", ["Gun - light"])]


def test_batch_order_decides_with_a_command_reroll():
    # One light shot (BS2+, S4 v T4: 4+) and one heavy shot (BS2+, S8 v T4: 2+) at one W1
    # model, no save, the wound Command Re-roll in hand; whichever wound roll fails first
    # takes it.
    # Light first: light hits 5/6, wounds 1/2 + 1/2 * 1/2 = 3/4 with the re-roll:
    #   P(light kills) = 5/6 * 3/4 = 5/8. The heavy shot is rolled only if the model stands;
    #   it has the re-roll iff the light wound did not take it: the light missed (1/6).
    #   Light missed (1/6): heavy kills 5/6 * (5/6 + 1/6 * 5/6) = 5/6 * 35/36.
    #   Light hit, wound failed twice (5/6 * 1/4): heavy kills 5/6 * 5/6.
    #   P = 5/8 + 1/6 * 175/216 + 5/24 * 25/36 = 5/8 + 175/1296 + 125/864.
    # Heavy first (named first in the activation's order): another value (the brute force's);
    # the evaluator follows the order the scenario names.
    light_first = F(5, 8) + F(175, 1296) + F(125, 864)
    weapon = ['{ name = "Gun", profiles = ["Gun - light: 24\\" A1 BS2+ S4 AP0 D1", '
              '"Gun - heavy: 24\\" A1 BS2+ S8 AP0 D1"] }']
    weapons = ('weapons = [{ name = "Gun - light", models = "G" }, '
               '{ name = "Gun - heavy", models = "H" }]')
    for order, expected in (("", light_first), ('order = ["Gun - heavy"]', None)):
        sc = _scenario([_model("G", 1, "T4 Sv3+ W2", weapon), _model("H", 1, "T4 Sv3+ W2",
                                                                     weapon)],
                       {"U0": _model("M", 1, "T4 Sv- W1")},
                       choose='choose = { command_reroll = ["wound"] }',
                       extra=weapons + "\n" + order)
        space = build_space(sc, open_profiles=False)
        (orders,) = list(space.every_orders())
        value = ExactEvaluator(space).outcome(orders).models("U0")[0]
        truth, _ = _expected(concrete_scenario(space, orders))
        assert value == pytest.approx(float(truth["U0"]), abs=1e-12)
        if expected is not None:
            assert truth["U0"] == expected
        else:
            assert truth["U0"] != light_first


# --- 3. The cache -------------------------------------------------------------------------

def test_a_plans_value_does_not_depend_on_what_was_scored_before():
    # A target of several statlines (the mixed-unit engine): two plans sent light then
    # heavy at U0 as the optimiser listed them, but their scenarios resolve them in two
    # orders. Keyed without the order, the second orders got the first one's value (1.0741
    # wounds lost instead of 0.9712 when scored alone). Every orders scored after all the
    # others, in reverse, and alone must give one value.
    mixed = _model("M", 2, "T4 Sv4+ W2") + ", " + _model("Sarge", 1, "T4 Sv3+ W1")
    light_heavy = ['{ name = "Gun", profiles = ["Gun - a: 24\\" A2 BS3+ S4 AP0 D1", '
                   '"Gun - b: 24\\" A1 BS3+ S8 AP-1 D2"] }']
    sc = _scenario([_model("G", 2, "T4 Sv3+ W2", light_heavy),
                    _model("H", 2, "T4 Sv3+ W2", light_heavy)],
                   {"U0": mixed, "U1": _model("M", 1, "T4 Sv- W2")})
    space = build_space(sc)
    plans = list(space.every_orders())
    shared = ExactEvaluator(space)
    forwards = {p: shared.outcome(p).wounds("U0")[0] for p in plans}
    backwards = ExactEvaluator(space)
    for p in reversed(plans):
        alone = ExactEvaluator(space).outcome(p).wounds("U0")[0]
        assert forwards[p] == alone
        assert backwards.outcome(p).wounds("U0")[0] == alone


# --- Every orders of generated problems -------------------------------------------------------

def _generated(rng: random.Random) -> mh.wh40k.Scenario:
    groups = []
    for g in range(rng.choice([1, 2])):
        def profile(name: str) -> str:
            return (f'{name}: 24\\" A{rng.choice([1, 2])} BS{rng.choice([2, 3, 4])}+ '
                    f'S{rng.choice([3, 4, 6, 8])} AP{rng.choice([0, -1, -2])} '
                    f'D{rng.choice([1, 2, "D3", "D6"])}')
        name = f"Gun{g}"
        if rng.random() < 0.5:
            weapon = f"'{profile(name)}'".replace('\\"', '"')
        else:
            weapon = (f'{{ name = "{name}", profiles = ["{profile(name + " - a")}", '
                      f'"{profile(name + " - b")}"] }}')
        groups.append(_model(f"G{g}", rng.choice([1, 2]), "T4 Sv3+ W2", [weapon]))
    targets = {}
    for t in range(2):
        save = rng.choice(["3+", "4+", "6+", "-"])
        targets[f"U{t}"] = _model("M", rng.choice([1, 2]),
                                  f"T{rng.choice([3, 4, 5])} Sv{save} W{rng.choice([1, 2])}")
    kinds = ["none"] + rng.sample(["hit", "wound", "save", "damage"], rng.choice([1, 2]))
    choose = f"choose = {{ command_reroll = {kinds!r} }}".replace("'", '"')
    if rng.random() < 0.3:
        choose = choose[:-2] + ', reroll_hits = ["none", "ones"] }'
    return _scenario(groups, targets, choose=choose)


@pytest.mark.parametrize("seed", range(10))
def test_every_plan_of_generated_problems_is_scored_as_its_scenario_resolves(seed):
    rng = random.Random(1000 + seed)
    scenario = _generated(rng)
    while build_space(scenario).size() > 120:
        scenario = _generated(rng)
    truth = _check_every_plan(scenario)
    assert len(truth) >= 2
    # the optimum the optimiser proves is the brute force's
    result = optimise(scenario, "expected_models_destroyed")
    assert result.optimal
    assert truth[result.best.orders] == max(truth.values())
    assert result.value == pytest.approx(float(max(truth.values())), abs=1e-12)


# --- Keywords of the models still in the unit -----------------------------------------------

def test_a_plan_against_keywords_that_go_with_their_models():
    # tests/wh40k/scenario/test_keywords_of_models_alive.py's case, by hand: a Torch kills
    # the only BEAST (5/6), then three [ANTI-BEAST 2+] Spears wound on 5+ (1/3 each) unless
    # it stands (5/6 each): 5/6 x 2 + 1/6 x 5/2 = 25/12 models; the orders's exact score
    # (a target of two statlines: the mixed-unit engine) is that.
    from tests.wh40k.scenario.test_keywords_of_models_alive import TEXT, MIXED

    sc = mh.parse_scenario(TEXT.format(weapons='["Torch", "Spear"]', target=MIXED),
                           open_choices=True)
    space = build_space(sc)
    (orders,) = list(space.every_orders())
    outcome = ExactEvaluator(space).outcome(orders)
    assert outcome.models("T")[0] == pytest.approx(float(F(25, 12)), abs=1e-12)
