"""The Examples sections of the comparison, table, chart and reference-profile modules run."""

import doctest
import importlib

import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.mark.parametrize("name", ["mathhammer.wh40k.comparisons", "mathhammer.report.tables",
                                  "mathhammer.charts", "mathhammer.wh40k.targets"])
def test_examples(name):
    module = importlib.import_module(name)
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0
