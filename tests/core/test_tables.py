"""Tables ready to paste: fixed decimals, percentages, exact zeros, no scientific notation,
Markdown with a caption line and the same in HTML."""

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.core.result import MONTE_CARLO, Distribution, Result
from mathhammer.core.tables import Table, format_estimate, format_number, format_value


@pytest.mark.parametrize("value, digits, percent, text", [
    (0.0, 3, False, "0"), (2.0, 2, False, "2.00"), (2.34567, 3, False, "2.346"),
    (5e-06, 3, False, "0.0000050"), (1234567.89, 2, False, "1234567.89"),
    (0.0, 3, True, "0%"), (1.0, 3, True, "100%"), (0.41234, 3, True, "41.2%"),
    (0.00006, 3, True, "0.0060%"), (0.99996, 4, True, ">99.99%"), (0.05, 2, True, "5%"),
    (float("nan"), 3, False, ""), (-0.25, 2, False, "-0.25"),
])
def test_format_value(value, digits, percent, text):
    assert format_value(value, digits, percent=percent) == text


def test_no_scientific_notation_anywhere():
    for value in (5e-06, 6e-05, 1e-09, 3.2e12, 123456789.0):
        for text in (format_number(value), format_value(value, 3),
                     format_value(value / 1e12, 3, percent=True)):
            assert "e" not in text.lower(), text


def test_estimates_read_value_plus_minus_stderr_and_zeros_stay_zero():
    assert format_estimate(6e-05, 2.4e-05, 3) == "0.000060 ± 0.000024"
    assert format_estimate(0.0, 0.0, 3) == "0"
    assert format_estimate(0.25, None, 3) == "0.250"
    assert format_estimate(0.25, float("nan"), 3) == "0.250"
    assert format_estimate(0.4, 0.01, 3, percent=True) == "40.0% ± 1.0%"


def test_table_markdown_and_html():
    table = Table(pd.DataFrame({"unit": ["A <b>", "B|C"], "P": ["41.2%", "0%"]}), "caption")
    md = table.to_markdown().splitlines()
    assert md[0] == "*caption*" and md[2] == "| unit | P |" and md[3] == "|---|---:|"
    assert md[5] == "| B\\|C | 0% |"
    html = table._repr_html_()
    assert html.startswith("<table><caption") and "A &lt;b&gt;" in html
    assert '<td style="text-align:right">41.2%</td>' in html


def test_result_table_names_outcomes_and_shows_probabilities_as_percentages():
    r = Result(MONTE_CARLO, {"damage": Distribution.from_counts(np.array([50, 30, 20]))},
               probabilities={"unit_destroyed": 0.2}, trials=100, seed=3,
               labels={"damage": "wounds lost", "unit_destroyed": "unit destroyed"},
               inputs={"situation": {"cover": True, "charged": False}})
    table = r.table(digits=2)
    assert table.caption == "Monte Carlo, 100 trials, seed 3; cover"
    rows = table.frame.set_index("outcome")
    assert rows.loc["wounds lost", "mean"] == "0.70"
    assert rows.loc["P(unit destroyed)", "mean"] == "20%"
    assert rows.loc["P(unit destroyed)", "stderr"] == "4%"
    md = r.to_markdown(digits=2)
    assert md.startswith("*Monte Carlo, 100 trials, seed 3; cover*")
    assert "| 1 | 30% | 50% |" in md
    assert "<caption" in r._repr_html_()


def test_scenario_table_is_human_readable():
    scenario = mh.parse_scenario("""
[units.A]
models = [{ name = "Marine", count = 2, profile = "T4 Sv3+ W2", weapons = ["Gun: 24\\" A4 BS3+ S4 AP-1 D1"] }]
[units.B]
models = [{ name = "Boy", count = 3, profile = "T5 Sv6+ W1", weapons = ["Gun: 24\\" A1 BS5+ S4 AP0 D1"] }]
[[activations]]
phase = "shooting"
attacker = "A"
target = "B"
""")
    result = mh.run(scenario, trials=2_000, seed=1)
    table = result.table()
    assert list(table.frame.columns) == ["unit", "models destroyed", "wounds lost",
                                         "P(destroyed)"]
    assert table.frame.loc[0, "models destroyed"] == "0"  # nothing shoots at A
    assert table.frame.loc[1, "P(destroyed)"].endswith("%")
    assert "<table>" in result._repr_html_()
