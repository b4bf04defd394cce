"""The roster's text tables (wh40k/roster/tables.py): cells short enough for a terminal."""

import math

import pandas as pd
import pytest

from mathhammer.wh40k.roster.tables import format_cell, metric_table


@pytest.mark.parametrize("value, stderr, metric, method, expected", [
    (5.5491, 0.031, "expected_damage", "monte-carlo", "5.55±0.03"),
    (5.5491, 0.031, "expected_damage", "exact", "5.55"),
    (0.0456, 0.0, "expected_damage", "exact", "0.0456"),  # the one rule: 3 significant
    (0.0004, 0.0, "expected_damage", "exact", "<0.001"),
    (0.0, 0.0, "expected_damage", "exact", "0"),
    (0.25, 0.004, "p_unit_destroyed", "monte-carlo", "25.0%±0.4%"),
    (3.4e-21, 0.0, "p_unit_destroyed", "exact", "<0.01%"),
    (1 - 1e-9, 0.0, "p_unit_destroyed", "exact", ">99.99%"),
    (1.0, 0.0, "p_unit_destroyed", "exact", "100%"),
    (0.0, 0.0, "p_unit_destroyed", "exact", "0%"),
    (2.0, 0.0004, "expected_damage", "monte-carlo", "2.0000±0.0004"),  # never ±0.00
    (math.nan, math.nan, "damage_per_100pts", "exact", "-"),
])
def test_format_cell(value, stderr, metric, method, expected):
    assert format_cell(value, stderr, metric, method) == expected


def test_metric_table_is_units_by_targets():
    frame = pd.DataFrame({"attacker": ["A", "A", "B"], "target": ["MEQ", "TEQ", "MEQ"],
                          "metric": ["expected_damage"] * 3, "value": [1.0, 0.5, 2.25],
                          "stderr": [0.0] * 3, "method": ["exact"] * 3})
    table = metric_table(frame, "expected_damage")
    assert table.to_dict("index") == {"A": {"MEQ": "1.00", "TEQ": "0.500"},
                                      "B": {"MEQ": "2.25", "TEQ": ""}}
