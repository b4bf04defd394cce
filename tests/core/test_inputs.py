"""Python callers passing the wrong kind of object get one named error in every game."""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from mathhammer import dust, warmachine
from mathhammer.core.inputs import one_or_many, whole_number
from mathhammer.errors import MathhammerError, OptionError

WRONG = [None, 2.5, float("nan"), True, np.int64(3), b"x", {"a": 1}]


def test_one_text_or_object_becomes_a_list_and_lists_pass_through():
    assert one_or_many("a", (int,), "lines", "x") == ["a"]
    assert one_or_many(("a", 3), (int,), "lines", "x") == ["a", 3]


@pytest.mark.parametrize("value", WRONG + [[1.5]])
def test_anything_else_is_named(value):
    with pytest.raises(OptionError, match="lines must be text such as 'x'"):
        one_or_many(value, (), "lines", "x")


@pytest.mark.parametrize("value", [True, 2.5, -1, 11, "3", None])
def test_whole_number_bounds_and_kind(value):
    with pytest.raises(OptionError, match="from 0 to 10"):
        whole_number(value, "n", 0, 10)
    assert whole_number(np.int64(4), "n", 0, 10) == 4


WARJACK = "Heavy warjack: DEF12 ARM19 BOXES30"
HAMMER = "Battle hammer: MAT7 POW16"


@pytest.mark.parametrize("value", WRONG)
def test_every_python_entry_point_names_a_wrong_object(value):
    # each of these was a TypeError or ValueError from deep inside
    calls = [lambda: warmachine.exact(value, WARJACK), lambda: warmachine.exact(HAMMER, value),
             lambda: dust.exact(value, "5x G: INFANTRY2"),
             lambda: dust.exact("4x Shotgun: 3/1", value),
             lambda: mh.load_roster(value),
             lambda: mh.sweep('Gun: A2 BS3+ S4 AP0 D1', "MEQ", "hit_mod", value, method="exact")]
    for call in calls:
        with pytest.raises(MathhammerError) as caught:
            call()
        assert type(value).__name__ in str(caught.value) or repr(value)[:20] in str(caught.value)


@pytest.mark.parametrize("value", ["x", -1, 2.5, [1], True])
def test_dust_distance_must_be_a_whole_number_of_squares(value):
    with pytest.raises(OptionError, match="distance"):
        dust.exact("4x Shotgun: 3/1", "5x G: INFANTRY2", distance=value)


@pytest.mark.parametrize("value", ["x", None, 2.5])
def test_dust_sustained_must_be_true_or_false(value):
    with pytest.raises(OptionError, match="sustained must be True or False"):
        dust.exact("4x Shotgun: 3/1", "5x G: INFANTRY2", sustained=value)
