"""The optimiser's chart (wh40k/optimise/chart.py): one bar per orders, the best first."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from mathhammer.wh40k.optimise.api import optimise  # noqa: E402
from mathhammer.wh40k.optimise.chart import orders_chart  # noqa: E402

from .test_api import scenario  # noqa: E402


def test_bars_of_the_plans():
    result = optimise(scenario(), "expected_models_destroyed")
    ax = orders_chart(result)
    widths = sorted((p.get_width() for p in ax.patches), reverse=True)
    # the best orders's bar is its value, 56/81 (see test_api)
    assert widths[0] == pytest.approx(56 / 81)
    texts = " ".join(t.get_text() for t in ax.texts + ax.get_yticklabels())
    assert "best orders" in texts
