"""What the plot methods draw: the chart kinds of a result and of a comparison."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer.charts import methods  # noqa: E402
from mathhammer.errors import MathhammerError  # noqa: E402

BOLTER = "Bolter: A2 BS3+ S4 AP0 D1"


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_a_result_draws_its_kinds():
    result = mh.exact(BOLTER, "MEQ")
    assert type(result.plot()).__name__ == "DistributionArtists"
    assert type(result.plot(kind="at_least")).__name__ == "OverlayArtists"
    with pytest.raises(MathhammerError, match="unknown chart kind 'pie'"):
        methods.result(result, "damage", "pie")
    with pytest.raises(MathhammerError, match="no outcome 'hits'"):
        result.plot("hits")


def test_a_comparison_draws_its_kinds():
    kept = mh.compare([BOLTER, "Gun: A1 BS4+ S5 AP0 D1"], ["MEQ", "GEQ"], keep_results=True)
    assert type(kept.plot()).__name__ == "BarsArtists"
    assert type(kept.plot("heatmap", metric="expected_damage")).__name__ == "HeatmapArtists"
    overlay = kept.plot("overlay", outcome="damage", title="Bolters")
    assert type(overlay).__name__ == "OverlayArtists"
    with pytest.raises(MathhammerError, match="'bars', 'heatmap' or 'overlay'"):
        kept.plot("pie")
