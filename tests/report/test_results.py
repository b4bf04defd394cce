"""A result in words (issue 40, item 5: presentation in one formatting module): the thin
methods of Result give exactly what the report functions write."""

import numpy as np

import mathhammer as mh
from mathhammer.core.result import Distribution, Result
from mathhammer.report import results as report


def _results():
    exact = mh.exact('Lascannon: 48" A1 BS3+ S12 AP-3 D6+1', "VEQ")
    simulated = mh.simulate('Lascannon: 48" A1 BS3+ S12 AP-3 D6+1', "VEQ", trials=5_000,
                            seed=3)
    return exact, simulated


def test_the_methods_are_the_report():
    for result in _results():
        assert result.to_text() == report.result_text(result)
        assert result.to_text(5) == report.result_text(result, 5)
        assert result.to_markdown(2) == report.result_markdown(result, 2)
        assert result.table(4).to_markdown() == report.result_table(result, 4).to_markdown()
        assert result._repr_html_() == report.result_html(result)


def test_the_text_report_says_the_engine_and_thins_long_tables():
    flat = Result(method="monte-carlo", trials=1_000, seed=9, distributions={
        "damage": Distribution.from_counts(np.full(300, 4))})
    text = report.result_text(flat, max_rows=50)
    assert text.startswith("Engine: Monte Carlo, 1,000 trials, seed 9")
    assert "(every 6th k shown, and the last)" in text


def test_rows_to_show_thins_only_beyond_max_rows():
    pmf = np.full(10, 0.1)
    assert report.rows_to_show(pmf, 20) == (list(range(10)), 1)
    assert report.rows_to_show(pmf, 4) == ([0, 3, 6, 9], 3)
    assert report.rows_to_show(np.array([1e-6]), 4) == ([0], 1)


def test_the_text_report_imports_no_pandas():
    """The command line's text output never imports pandas (about 0.5 s at start-up)."""
    import subprocess
    import sys

    code = ("import sys, mathhammer as mh\n"
            "r = mh.exact('Bolter: A2 BS3+ S4 AP0 D1', 'MEQ')\n"
            "r.to_text()\n"
            "assert 'pandas' not in sys.modules, 'pandas imported'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]
