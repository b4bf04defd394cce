"""Branch and bound (wh40k/optimise/branch_bound.py): its bound is never below the value of any
set of orders it stands for, and the optimum it proves is the enumeration's.

The bound's validity is checked directly: on generated problems, for partial sets of orders
taken at random, the bound is compared with the exact value of every completion (all
enumerated). Hand check of the majorant: models destroyed of W3 models under their concave
majorant is wounds / 3.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.wh40k.optimise.api import optimise
from mathhammer.wh40k.optimise.branch_bound import (OrderFreeBound, _upper_hull,
                                                    bound_obstacle)
from mathhammer.wh40k.optimise.evaluate import ExactEvaluator
from mathhammer.wh40k.optimise.objectives import Objective, units_measured, value_of
from mathhammer.wh40k.optimise.settings import SearchOptions
from mathhammer.wh40k.optimise.space import Orders, build_space


def _model(name: str, count: int, profile: str, weapons: list[str] | None = None) -> str:
    listed = "" if weapons is None else ", weapons = [" + ", ".join(weapons) + "]"
    return f'{{ name = "{name}", count = {count}, profile = "{profile}"{listed} }}'


def _generated(rng: random.Random) -> mh.wh40k.Scenario:
    """Two or three weapon groups (some with two profiles, some [DEVASTATING WOUNDS]) at
    three candidate targets of one statline each (W1-W4, some with Feel No Pain)."""
    groups = []
    for g in range(rng.choice([2, 3])):
        def line(name: str) -> str:
            dw = " [DEVASTATING WOUNDS]" if rng.random() < 0.25 else ""
            return (f'{name}: 24\\" A{rng.choice([1, 2, 3])} BS{rng.choice([2, 3, 4])}+ '
                    f'S{rng.choice([4, 5, 8])} AP{rng.choice([0, -1, -2])} '
                    f'{rng.choice(["D1", "D2", "DD3", "DD6", "D 3"])}{dw}')
        name = f"Gun{g}"
        weapon = (f"'{line(name)}'".replace('\\"', '"') if rng.random() < 0.6 else
                  f'{{ name = "{name}", profiles = ["{line(name + " - a")}", '
                  f'"{line(name + " - b")}"] }}')
        groups.append(_model(f"G{g}", rng.choice([1, 2, 3]), "T4 Sv3+ W2", [weapon]))
    units = []
    for t in range(3):
        fnp = " FNP5+" if rng.random() < 0.3 else ""
        profile = (f"T{rng.choice([3, 4, 5])} Sv{rng.choice(['3+', '4+', '6+'])} "
                   f"W{rng.choice([1, 2, 3, 4])}{fnp}")
        units.append(f'[units.U{t}]\nside = "them"\npoints = {rng.choice([20, 60, 90])}\n'
                     f'models = [{_model("M", rng.choice([1, 2, 3]), profile)}]')
    text = "\n".join([f'[units.S]\nside = "us"\nmodels = [{", ".join(groups)}]', *units,
                      '[[activations]]\nphase = "shooting"\nattacker = "S"\n'
                      'targets = ["U0", "U1", "U2"]'])
    return mh.parse_scenario(text, open_choices=True)


KINDS = ["expected_models_destroyed", "expected_damage", "expected_points_destroyed"]


@pytest.mark.parametrize("seed", range(6))
def test_the_bound_is_never_below_a_completion(seed):
    rng = random.Random(3400 + seed)
    scenario = _generated(rng)
    space = build_space(scenario)
    while space.size() > 3000:
        scenario = _generated(rng)
        space = build_space(scenario)
    evaluator = ExactEvaluator(space)
    objective = Objective(KINDS[seed % 3])
    units = units_measured(objective, scenario.sides, space.targets())
    assert bound_obstacle(space, [objective]) is None
    bound = OrderFreeBound(space, objective, units)
    choices = [slot.allocations(space.split) for slot in space.slots]
    values = {o: value_of(objective, evaluator.outcome(o), units)[0]
              for o in space.every_orders()}
    for _ in range(8):
        depth = rng.randrange(len(space.slots))
        fixed = tuple(rng.choice(c) for c in choices[:depth])
        free = list(range(depth, len(space.slots)))
        partial = Orders(fixed + space.as_written().allocations[depth:], ())
        best_completion = max(v for o, v in values.items() if o.allocations[:depth] == fixed)
        assert bound(partial, free) >= best_completion - 1e-9


@pytest.mark.parametrize("seed", range(4))
def test_branch_and_bound_proves_the_enumerations_optimum(seed):
    rng = random.Random(3500 + seed)
    scenario = _generated(rng)
    while not 200 < build_space(scenario).size() <= 2000:   # 10x max_orders at most
        scenario = _generated(rng)
    kind = KINDS[seed % 3]
    every = optimise(scenario, kind, method="exact")
    bounded = optimise(scenario, kind, method="exact", options=SearchOptions(max_orders=200))
    assert every.method == "enumeration" and bounded.method == "branch and bound"
    assert bounded.optimal
    assert bounded.value == pytest.approx(every.value, abs=1e-12)


def test_pruning_scores_few_orders_on_the_example():
    # examples/optimise_shooting.toml: 4,536 sets of orders; models destroyed. The optimum
    # equals the enumeration's (benchmarks/optimise_rows.py checks it on this example, the
    # test above on generated problems); here, how little is scored
    scenario = mh.load_scenario("examples/optimise_shooting.toml", open_choices=True)
    bounded = optimise(scenario, "expected_models_destroyed", method="exact",
                       options=SearchOptions(max_orders=1_000))
    assert bounded.method == "branch and bound" and bounded.optimal
    assert bounded.evaluated < 4_536 / 10
    assert "bounded below the best" in bounded.to_text()


def test_upper_hull_of_a_step_is_its_concave_majorant():
    # models destroyed of 2 W3 models: steps at 3 and 6 wounds; the hull is wounds / 3
    hull = _upper_hull(np.array([0, 3, 6]), np.array([0.0, 1.0, 2.0]), np.arange(7.0))
    assert hull.tolist() == pytest.approx([w / 3 for w in range(7)])
    steps = [w // 3 for w in range(7)]
    assert all(h >= s for h, s in zip(hull, steps))
    # points 10 then 50 per model: hull through (0,0) and (6,60), above (3,10)
    hull = _upper_hull(np.array([0, 3, 6]), np.array([0.0, 10.0, 60.0]), np.arange(7.0))
    assert hull[3] == pytest.approx(30.0) and hull[6] == pytest.approx(60.0)


def test_what_the_bound_cannot_follow_is_named():
    text = """[units.S]
side = "us"
models = [{ name = "G", count = 1, profile = "T4 Sv3+ W2", weapons = ['Gun: 24" A1 BS3+ S4 AP0 D1'] }]
[units.U0]
side = "them"
models = [{ name = "M", count = 1, profile = "T4 Sv3+ W2" }]
[[activations]]
phase = "shooting"
attacker = "S"
targets = ["U0"]
choose = { command_reroll = ["none", "hit"] }
"""
    space = build_space(mh.parse_scenario(text, open_choices=True))
    assert "Command Re-roll" in bound_obstacle(space, [Objective("expected_damage")])
    assert "one objective" in bound_obstacle(space, [Objective("p_unit_destroyed")])
