"""Distribution charts and overlays (charts/distributions.py): what is drawn is the
distribution, checked on pmfs written out by hand."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mathhammer.charts.distributions import distribution, overlay  # noqa: E402
from mathhammer.core.result import Distribution  # noqa: E402
from mathhammer.errors import OptionError  # noqa: E402

# two D6 rolls hitting on 4+: P(0, 1, 2 hits) = 1/4, 1/2, 1/4; mean 1
TWO_HITS = np.array([0.25, 0.5, 0.25])


def test_distribution_bars_steps_and_mean():
    art = distribution(Distribution.from_pmf(TWO_HITS, label="hits", subject="2 bolters"))
    assert [p.get_height() for p in art.bars] == [0.25, 0.5, 0.25]
    # P(at least k) = 1, 3/4, 1/4
    assert art.curve.get_ydata().tolist() == [1.0, 0.75, 0.25]
    assert art.mean_line.get_xdata()[0] == pytest.approx(1.0)
    assert art.ax.get_title(loc="left").startswith("Hits: 2 bolters")
    assert art.twin.get_xlabel() == "k (hits)"


def test_overlay_draws_each_results_at_least_steps():
    certain = Distribution.from_pmf(np.array([0.0, 0.0, 1.0]), label="hits")
    art = overlay({"4+": Distribution.from_pmf(TWO_HITS, label="hits"), "auto": certain})
    assert [line.get_ydata().tolist() for line in art.lines] == [[1.0, 0.75, 0.25],
                                                                [1.0, 1.0, 1.0]]
    labels = [line.get_label() for line in art.lines]
    assert labels[0].startswith("4+ (mean 1") and labels[1].startswith("auto (mean 2")
    assert art.axes == [art.ax]


def test_overlay_keys_name_attacker_and_target():
    d = Distribution.from_pmf(TWO_HITS, label="hits")
    art = overlay({("Bolter", "MEQ"): d, ("Melta", "MEQ"): d})
    # one shared target: said once in the title, the legend names the attackers
    assert art.ax.get_title(loc="left").endswith("vs MEQ")
    assert [line.get_label().split(" (mean")[0] for line in art.lines] == ["Bolter", "Melta"]


def test_overlay_refusals():
    with pytest.raises(OptionError, match="at least one result"):
        overlay({})
    with pytest.raises(OptionError, match="1 labels for 2 results"):
        overlay([Distribution.from_pmf(TWO_HITS)] * 2, labels=["only one"])



def test_an_overlay_beyond_the_series_limit_is_refused(monkeypatch):
    # 50 x 50 curves ran for more than 200 s without a word
    from mathhammer.core import limits

    d = Distribution.from_pmf(TWO_HITS, label="hits")
    monkeypatch.setattr(limits, "MAX_CHART_SERIES", 1)
    with pytest.raises(OptionError, match="^an overlay of 2 curves is more than 1 curves"):
        overlay({("Bolter", "MEQ"): d, ("Melta", "MEQ"): d})
    assert len(overlay({("Bolter", "MEQ"): d}).lines) == 1

@pytest.mark.parametrize("subplot", [False, True])
def test_a_callers_axes_is_split_into_two_panels_that_do_not_overlap(subplot):
    """Drawn into a caller's axes (a subplot, or a free-standing ``fig.add_axes`` one), the
    P(exactly k) panel stays above the P(at least k) panel, both inside the axes' rectangle
    (the free-standing one's upper panel was put back over the whole rectangle)."""
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=(7, 4.5))
    ax = fig.add_subplot(1, 1, 1) if subplot else fig.add_axes((0.1, 0.1, 0.8, 0.8))
    box = ax.get_position().frozen()
    art = distribution(Distribution.from_pmf(TWO_HITS, label="hits"), ax=ax)
    upper, lower = art.ax.get_position(), art.twin.get_position()
    assert upper.y0 >= lower.y1 > lower.y0
    if not subplot:
        assert box.y0 <= lower.y0 and upper.y1 <= box.y1 + 1e-9
    plt.close(fig)
