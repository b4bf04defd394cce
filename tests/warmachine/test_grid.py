"""Damage on a warjack grid or warbeast spiral (warmachine/grid.py, rules 7.2), placed by hand."""

import itertools

import pytest

from mathhammer.errors import OptionError
from mathhammer.warmachine.grid import fill_lanes, mark_lanes

LANES = [4, 5, 6, 6, 5, 4]


def test_damage_fills_the_lane_then_moves_on_and_wraps():
    # lane 6 holds 4, the rest (3) wraps to lane 1
    assert mark_lanes(LANES, 6, 7) == (3, 0, 0, 0, 0, 4)
    # lane 2 (5) then lane 3 (6) then 1 into lane 4
    assert mark_lanes(LANES, 2, 12) == (0, 5, 6, 1, 0, 0)


def test_marked_boxes_are_skipped_and_a_full_grid_stops():
    assert mark_lanes(LANES, 1, 2, marked=[3, 0, 0, 0, 0, 0]) == (4, 1, 0, 0, 0, 0)
    assert mark_lanes(LANES, 3, 100) == tuple(LANES)
    assert mark_lanes(LANES, 3, 0) == (0,) * 6


@pytest.mark.parametrize("kwargs, message", [
    (dict(lane_lengths=[], start_lane=1, damage=1), "non-negative box counts"),
    (dict(lane_lengths=LANES, start_lane=7, damage=1), "start lane 7 is not between 1 and 6"),
    (dict(lane_lengths=LANES, start_lane=1, damage=-1), "must not be negative"),
    (dict(lane_lengths=LANES, start_lane=1, damage=1, marked=[5, 0, 0, 0, 0, 0]),
     "0..length marks"),
])
def test_refusals(kwargs, message):
    with pytest.raises(OptionError, match=message):
        mark_lanes(**kwargs)


def test_the_engines_unchecked_placing_equals_mark_lanes():
    # fill_lanes is mark_lanes without the argument checks (the exact engine's inner loop):
    # every start lane, damage from none to more than the grid holds, on grids part marked
    lengths = [1, 2, 0, 3, 2, 1]
    for marked in itertools.product(*(range(n + 1) for n in lengths)):
        for start in range(1, 7):
            for damage in range(sum(lengths) + 2):
                assert fill_lanes(lengths, start, damage, marked) == \
                    mark_lanes(lengths, start, damage, marked=list(marked))
