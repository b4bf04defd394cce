"""What the optimiser maximises (wh40k/optimise/objectives.py): objectives, the units they
add up, their values and the lexicographic ranking, on outcomes written by hand."""

import math

import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.optimise.objectives import (Objective, lexicographic_best,
                                                  units_measured, value_of)

SIDES = {"Marines": "A", "Boyz": "B", "Grots": "B"}


class Outcome:
    """Means and standard errors written out for the test."""

    def models(self, unit):
        return {"Boyz": (3.0, 0.3), "Grots": (4.0, 0.4)}[unit]

    def wounds(self, unit):
        return {"Boyz": (5.0, 0.0), "Grots": (4.0, 0.0)}[unit]

    def p_destroyed(self, units):
        return (0.25, 0.0)

    def p_at_least(self, unit, k):
        return (1 / k, 0.0)

    def points(self, unit, weights):
        return (weights.get(unit, 1.0) * self.models(unit)[0], 0.0)


def test_objectives_refuse_what_cannot_be_measured():
    with pytest.raises(OptionError, match="objective 'expected_damge' is unknown; did you"):
        Objective("expected_damge")
    with pytest.raises(OptionError, match="unit or its side, not both"):
        Objective("expected_damage", unit="Boyz", side="B")
    with pytest.raises(OptionError, match="p_at_least needs k"):
        Objective("p_at_least", unit="Boyz")
    with pytest.raises(OptionError, match="only for the p_at_least"):
        Objective("expected_damage", k=2)
    assert Objective("p_at_least", unit="Boyz", k=3).describe().endswith("of Boyz")


def test_units_measured():
    assert units_measured(Objective("expected_damage", unit="Boyz"), SIDES, []) == ["Boyz"]
    assert units_measured(Objective("expected_damage", side="B"), SIDES, []) == ["Boyz",
                                                                                   "Grots"]
    assert units_measured(Objective("expected_damage"), SIDES, ["Grots"]) == ["Grots"]
    with pytest.raises(OptionError, match="unknown side 'C'"):
        units_measured(Objective("expected_damage", side="C"), SIDES, [])


def test_values_add_over_units_with_errors_in_quadrature():
    value, se = value_of(Objective("expected_models_destroyed", side="B"), Outcome(),
                         ["Boyz", "Grots"])
    assert value == 7.0 and se == pytest.approx(math.hypot(0.3, 0.4))   # 0.5
    assert value_of(Objective("p_at_least", unit="Boyz", k=4), Outcome(), ["Boyz"]) == (
        0.25, 0.0)
    weighted = Objective("expected_points_destroyed", unit="Grots", weights=(("Grots", 2.0),))
    assert value_of(weighted, Outcome(), ["Grots"]) == (8.0, 0.0)


def test_lexicographic_ranking():
    # orders 0 and 2 tie on the first objective (exact values), so the second decides
    values = [[(1.0, 0.0), (0.2, 0.0)], [(0.5, 0.0), (0.9, 0.0)], [(1.0, 0.0), (0.4, 0.0)]]
    assert lexicographic_best(values) == [2, 0, 1]
    # Monte Carlo: within two standard errors of the best counts as tied
    noisy = [[(1.0, 0.1), (0.1, 0.0)], [(0.9, 0.1), (0.8, 0.0)]]
    assert lexicographic_best(noisy) == [1, 0]
