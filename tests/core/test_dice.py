from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer.core.dice import DiceExpr, d3_from_d6
from mathhammer.errors import ProfileError


@pytest.mark.parametrize("text, canonical, low, high, mean", [
    ("3", "3", 3, 3, Fraction(3)),
    ("D3", "D3", 1, 3, Fraction(2)),
    ("d6", "D6", 1, 6, Fraction(7, 2)),
    ("D6+3", "D6+3", 4, 9, Fraction(13, 2)),
    ("2D6", "2D6", 2, 12, Fraction(7)),
    ("2d3", "2D3", 2, 6, Fraction(4)),
    (" D3 + 1 ", "D3+1", 2, 4, Fraction(3)),
])
def test_parse_and_bounds(text, canonical, low, high, mean):
    expr = DiceExpr.parse(text)
    assert str(expr) == canonical
    assert (expr.minimum, expr.maximum, expr.mean) == (low, high, mean)


def test_d3_is_a_halved_d6_rounded_up():
    assert [d3_from_d6(f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert DiceExpr.parse("D3").pmf() == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


def test_2d6_pmf_by_enumeration():
    expected: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            expected[a + b] = expected.get(a + b, Fraction(0)) + Fraction(1, 36)
    assert DiceExpr.parse("2D6").pmf() == expected


def test_2d3_pmf_by_enumeration():
    expected: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            v = d3_from_d6(a) + d3_from_d6(b)
            expected[v] = expected.get(v, Fraction(0)) + Fraction(1, 36)
    assert DiceExpr.parse("2D3").pmf() == expected


@pytest.mark.parametrize("bad", ["A2D", "2D", "3D", "D7", "D", "D6+", "+3", "0D6", "x", "", "D0"])
def test_malformed_expressions_name_the_text(bad):
    with pytest.raises(ProfileError) as err:
        DiceExpr.parse(bad)
    assert "dice expression" in str(err.value)


def test_sample_matches_pmf():
    rng = np.random.default_rng(3)
    expr = DiceExpr.parse("D6+3")
    draws = [expr.sample(rng) for _ in range(6000)]
    assert set(draws) == set(range(4, 10))
    assert abs(np.mean(draws) - 6.5) < 5 * np.std(draws) / np.sqrt(len(draws))


@settings(deadline=None, max_examples=200)
@given(count=st.integers(1, 4), sides=st.sampled_from([3, 6]), constant=st.integers(0, 6))
def test_round_trip_and_probabilities_sum_to_one(count, sides, constant):
    expr = DiceExpr(count, sides, constant)
    assert DiceExpr.parse(str(expr)) == expr
    assert sum(expr.pmf().values()) == 1
    assert abs(sum(expr.probabilities()) - 1) < 1e-12
