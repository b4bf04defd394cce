"""How the optimiser scores a orders (wh40k/optimise/evaluate.py): exact where it can, and the
points of models removed, by hand."""

import dataclasses

import numpy as np

from mathhammer.wh40k.optimise.evaluate import exact_obstacle, one_profile, removal_points
from mathhammer.wh40k.optimise.space import build_space
from mathhammer.wh40k.parse import parse_target
from mathhammer.wh40k.scenario.units import ModelGroup, Unit

from .test_api import scenario


def test_one_profile():
    boyz = Unit("Boyz", (ModelGroup("Boy", 9, parse_target("T5 Sv5+ W1")),
                         ModelGroup("Nob", 1, parse_target("T5 Sv5+ W1"))))
    assert one_profile(boyz).count == 10
    mixed = Unit("Mixed", boyz.groups[:1] + (ModelGroup("Nob", 1, parse_target("T5 Sv4+ W2")),))
    assert one_profile(mixed) is None


def test_removal_points_follow_the_declared_order():
    # 9 boys of 90 points (10 each), a 2-wound nob of 20 points in a group of its own (W2)
    unit = Unit("Boyz", (ModelGroup("Boy", 9, parse_target("T5 Sv5+ W1"), points=90),
                         ModelGroup("Nob", 1, parse_target("T5 Sv5+ W2"), points=20)))
    points = removal_points(unit, {})
    assert points[:3].tolist() == [0, 10, 20] and points[-1] == 110
    assert np.allclose(removal_points(unit, {"Boyz": 3}), 3 * np.arange(11))


def test_exact_obstacles():
    assert exact_obstacle(build_space(scenario())) is None
    two_rounds = dataclasses.replace(scenario(), rounds=2)
    assert exact_obstacle(build_space(two_rounds)) == ("2 battle rounds (the exact "
                                                       "evaluation covers one)")
