"""Issue 39 cause 6 (charts): a chart's ax, title, label(s) and ylim of the wrong kind are
refused in one line naming the parameter, for every chart kind, never a built-in error from
deep inside matplotlib."""

from __future__ import annotations

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer import charts
from mathhammer.errors import MathhammerError

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)

WRONG = st.one_of(st.integers(), st.floats(), st.text(max_size=3), st.booleans(),
                  st.lists(st.integers(), max_size=3), st.just(object()))


@pytest.fixture(scope="module")
def results():
    first = mh.exact(["Gun: A2 BS3+ S4 AP0 D1"], "T4 Sv3+ W2")
    second = mh.exact(["Gun: A3 BS3+ S4 AP0 D1"], "T4 Sv3+ W2")
    frame = mh.compare(["Gun: A2 BS3+ S4 AP0 D1"], ["MEQ", "GEQ"], method="exact")
    return first, second, frame


def _calls(results, name, value):
    first, second, frame = results
    return {
        "distribution": lambda: charts.distribution(first, "damage", **{name: value}),
        "overlay": lambda: charts.overlay({"a": first, "b": second}, "damage", **{name: value}),
        "plot": lambda: first.plot(**{name: value}),
        "bars": lambda: charts.bars(frame, **{name: value}),
        "heatmap": lambda: charts.heatmap(frame, **{name: value}),
    }


@settings(max_examples=40, deadline=None)
@given(value=WRONG, name=st.sampled_from(["ax", "title"]))
def test_property_wrong_axes_or_title_refused_naming_it(results, value, name):
    if name == "title" and isinstance(value, str):
        return   # any text is a title
    for kind, call in _calls(results, name, value).items():
        with pytest.raises(MathhammerError, match=f"^{name} must be"):
            call()
    plt.close("all")


@pytest.mark.parametrize("ylim", ["x", (1, 0), (0, float("nan")), (0, 1, 2), [None, 1]])
def test_bad_ylim_refused(results, ylim):
    with pytest.raises(MathhammerError, match="ylim"):
        charts.distribution(results[0], "damage", ylim=ylim)


@pytest.mark.parametrize("labels, message", [(5, "a list of texts"), (["a"], "1 labels for 2"),
                                             ([1, 2], "each of labels must be text"),
                                             ({"a", "b"}, "a list of texts")])
def test_bad_overlay_labels_refused(results, labels, message):
    with pytest.raises(MathhammerError, match=message):
        charts.overlay({"a": results[0], "b": results[1]}, "damage", labels=labels)


def test_good_options_still_draw(results):
    drawn = charts.distribution(results[0], "damage", ylim=(0, 1), label="Wounds", title="T")
    assert drawn.ax.get_ylim() == (0.0, 1.0)
    plt.close("all")
