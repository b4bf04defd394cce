"""Tables ready to paste: fixed decimals, percentages, exact zeros, no scientific notation,
Markdown with a caption line and the same in HTML."""

import re

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.core.result import MONTE_CARLO, Distribution, Result
from mathhammer.report.tables import (Table, check_digits, estimate_parts, format_estimate,
                                      format_number, format_value)
from mathhammer.errors import OptionError


@pytest.mark.parametrize("value, digits, percent, text", [
    (0.0, 3, False, "0"), (2.0, 2, False, "2.0"), (2.34567, 3, False, "2.35"),
    (7.0, 3, False, "7.00"), (0.919, 3, False, "0.919"),
    (5e-06, 3, False, "<0.001"), (1234567.89, 2, False, "1234568"),
    (0.0, 3, True, "0%"), (1.0, 3, True, "100%"), (0.41234, 3, True, "41.2%"),
    (0.00006, 3, True, "<0.01%"), (0.99996, 4, True, ">99.99%"), (0.05, 2, True, "5.0%"),
    (0.036, 2, True, "3.6%"), (0.039, 2, True, "3.9%"), (0.0064, 3, True, "0.640%"),
    (0.9995, 3, True, "99.95%"), (0.9999, 2, True, "99.99%"),
    (float("nan"), 3, False, ""), (-0.25, 2, False, "-0.25"),
])
def test_format_value(value, digits, percent, text):
    assert format_value(value, digits, percent=percent) == text


def significant_figures(text):
    digits = text.strip("<>%-").replace(".", "").lstrip("0")
    return len(digits)


VALUES = [1e-19, 6.4e-19, 1.88e-19, 3e-9, 1e-5, 9.99e-5, 1e-4, 0.000123, 0.00064, 0.001,
          0.0064, 0.036, 0.039, 0.1, 0.4567, 0.5, 0.919, 0.95, 0.995, 0.9995, 0.9999]


@pytest.mark.parametrize("digits", [1, 2, 3, 4])
@pytest.mark.parametrize("percent", [True, False])
def test_one_rule_from_1e_19_to_0_9999(digits, percent):
    """Fixed significant figures, floors instead of strings of zeros, never scientific."""
    for value in VALUES:
        text = format_value(value, digits, percent=percent)
        assert "e" not in text and len(text) <= 9, (value, text)
        floor = 1e-4 if percent else 1e-3
        if value < floor:
            assert text == ("<0.01%" if percent else "<0.001"), (value, text)
            continue
        shown = float(text.rstrip("%")) / (100 if percent else 1)
        assert shown == pytest.approx(value, rel=0.5 * 10 ** (1 - digits) + 1e-9), text
        if not (percent and value > 0.5):
            assert significant_figures(text) == digits or \
                (float(text.rstrip("%")) >= 10 ** digits), (value, text)


def test_near_certain_probabilities_keep_their_distance_to_certainty():
    for digits in (1, 2, 3):
        assert format_value(0.9999, digits, percent=True) == "99.99%"
        assert format_value(0.99999, digits, percent=True) == ">99.99%"
        assert format_value(0.995, digits, percent=True) == "99.5%"


def test_monte_carlo_values_never_read_as_exact():
    # the error sets the decimals of value and error alike: no more than it supports, and
    # no fewer (an error measured is shown, never "± <0.1%")
    assert format_estimate(4.99512, 0.021, 3) == "5.00 ± 0.02"
    assert format_estimate(0.036, 0.0019, 2, percent=True) == "3.60% ± 0.19%"
    assert format_estimate(0.02, 0.00032, 2, percent=True) == "2.00% ± 0.03%"
    assert format_estimate(0.4, 0.01, 3, percent=True) == "40.0% ± 1.0%"
    for value in VALUES:
        for digits in (1, 2, 3, 4):
            se = (value * (1 - value) / 10_000) ** 0.5
            text = format_estimate(value, se, digits, percent=True, trials=10_000)
            if " ± " in text:
                shown, error = text.split(" ± ")
                places = len(shown.rstrip("%").partition(".")[2])
                assert len(error.lstrip("<").rstrip("%").partition(".")[2]) == places, text


def test_not_seen_is_told_apart_from_impossible():
    assert format_estimate(0.0, 0.0, 3, percent=True, trials=10_000) == \
        "not seen in 10,000 trials"
    assert format_estimate(0.0, None, 3, percent=True) == "0%"
    assert format_estimate(1.0, 0.0, 3, percent=True, trials=500) == "100% in all 500 trials"
    assert estimate_parts(0.0, 0.0, trials=20) == ("not seen", "in 20 trials")


@pytest.mark.parametrize("digits", [0, -1, 7, 1000, 2.5, True])
def test_digits_out_of_range_is_refused(digits):
    with pytest.raises(OptionError, match="significant figures from 1 to 6"):
        check_digits(digits)


def test_no_scientific_notation_anywhere():
    for value in (5e-06, 6e-05, 1e-09, 3.2e12, 123456789.0):
        for text in (format_number(value), format_value(value, 3),
                     format_value(value / 1e12, 3, percent=True)):
            assert "e" not in text.lower(), text


def test_estimates_read_value_plus_minus_stderr_and_zeros_stay_zero():
    assert format_estimate(6e-05, 2.4e-05, 3) == "<0.001"
    assert format_estimate(0.0, 0.0, 3) == "not seen in the trials"
    assert format_estimate(0.25, None, 3) == "0.250"
    assert format_estimate(0.25, float("nan"), 3) == "0.250"


def test_an_estimate_of_zero_with_an_error_reads_zero_plus_minus_the_error():
    # a tie between two estimates (optimise's lead over an equal runner-up) raised
    # ValueError: math domain error from log10(0)
    assert format_estimate(0.0, 0.05, 3) == "0 ± 0.05"
    assert format_estimate(0.0, 0.012, 3) == "0 ± 0.012"
    assert format_estimate(0.0, 0.05, 3, percent=True) == "0% ± 5%"
    assert estimate_parts(-0.0, 0.3, 3) == ("0", "± 0.3")

def test_table_markdown_and_html():
    table = Table(pd.DataFrame({"unit": ["A <b>", "B|C"], "P": ["41.2%", "0%"]}), "caption")
    md = table.to_markdown().splitlines()
    assert md[0] == "*caption*" and md[2] == "| unit | P |" and md[3] == "|---|---:|"
    assert md[5] == "| B\\|C | 0% |"
    html = table._repr_html_()
    assert html.startswith("<table") and "<caption" in html and "A &lt;b&gt;" in html
    assert re.search(r'<td style="[^"]*text-align:right">41.2%</td>', html)
    assert re.search(r'<th style="[^"]*text-align:right[^"]*">P</th>', html)  # over its numbers
    # every cell is padded on the element itself: figures never run together, whatever CSS
    assert html.count("padding:0.2em 0.75em") == 2 + 4


def test_result_table_names_outcomes_and_shows_probabilities_as_percentages():
    r = Result(MONTE_CARLO, {"damage": Distribution.from_counts(np.array([50, 30, 20]))},
               probabilities={"unit_destroyed": 0.2}, trials=100, seed=3,
               labels={"damage": "wounds lost", "unit_destroyed": "unit destroyed"},
               inputs={"situation": {"cover": True, "charged": False}})
    table = r.table(digits=2)
    assert table.caption == "Monte Carlo, 100 trials, seed 3; cover"
    rows = table.frame.set_index("outcome")
    assert rows.loc["wounds lost", "mean"] == "0.70"  # s.e. 0.078: two decimals
    assert rows.loc["wounds lost", "stderr"] == "0.08"
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
    assert table.frame.loc[0, "models destroyed"] == "not seen in 2,000 trials"  # no one shoots A
    assert table.frame.loc[1, "P(destroyed)"].endswith("%")
    assert result._repr_html_().startswith("<table")


def test_a_monte_carlo_figure_reads_the_same_at_any_digits():
    # issue 41: a table (4 figures) read "1.328 ± 0.004", the heat map (3) "1.33 ± <0.01"
    for value, se in ((1.3281, 0.0041), (12.71, 0.23), (0.0831, 0.00094), (250.3, 1.7)):
        texts = {format_estimate(value, se, digits) for digits in range(1, 7)}
        assert len(texts) == 1, texts
        assert "<" not in texts.pop()
    assert format_estimate(1.3281, 0.0041, 3) == "1.328 ± 0.004"
