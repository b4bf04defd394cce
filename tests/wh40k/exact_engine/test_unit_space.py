"""The states of a unit of several statlines (mathhammer/wh40k/exact_engine/unit_space.py),
hand-derived on a squad of two W2 models with a W3 Leader."""

from __future__ import annotations

import numpy as np

from mathhammer.wh40k.exact_engine.unit_space import (damage_matrix, precision_group, routed,
                                                      unit_space)
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.layout import B_TARGET, PICK_BEST
from tests.wh40k.exact_engine.test_mixed import model, scenario


def _plan(tmp_path):
    return compile_scenario(scenario(
        tmp_path, ['Gun: 24" A1 BS3+ S4 AP0 D1 [PRECISION]'],
        [model("Marine", 2, "T4 Sv3+ W2 [INFANTRY]")],
        leader=model("Captain", 1, "T4 Sv3+ W3 [CHARACTER, INFANTRY]")))


def test_one_chain_without_precision(tmp_path) -> None:
    plan = _plan(tmp_path)
    space = unit_space(plan, _target(plan), split_characters=False)
    assert space.size == 2 * 2 + 3 + 1
    assert space.models.tolist() == [0, 0, 1, 1, 2, 2, 2, 3]
    captain = int(space.front[4])
    assert (space.front[:4] != captain).all() and (space.front[4:7] == captain).all()
    assert space.front[-1] == -1


def test_precision_splits_the_leader_off(tmp_path) -> None:
    plan = _plan(tmp_path)
    space = unit_space(plan, _target(plan), split_characters=True)
    assert space.size == (2 * 2 + 1) * (3 + 1)   # (bodyguard wounds lost, Leader's)
    assert space.lost.tolist() == [i + j for j in range(4) for i in range(5)]
    captain = precision_group(plan, space, 0, PICK_BEST)
    assert captain >= 0 and int(space.front[0]) != captain
    # the Leader destroyed (3 wounds lost, state 15): attacks go to the bodyguard again
    to_captain = routed(space, captain)
    assert to_captain[0] == captain and to_captain[15] == space.front[15] != captain
    # one point of damage on the Leader moves the state by the bodyguard's stride (5)
    step = damage_matrix(space, to_captain, np.array([0.0, 1.0]),
                         np.full(plan.subs.shape[0], 7))
    assert step[0, 5] == 1.0 and step[15, 16] == 1.0 and step[-1, -1] == 1.0


def _target(plan) -> int:
    return int(plan.batches[0, B_TARGET])
