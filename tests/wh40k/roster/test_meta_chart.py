"""The meta heat map: ordering, and readable with many lists."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.roster.meta import meta
from mathhammer.wh40k.roster.meta_chart import list_order, meta_heatmap

from .event_lists import event_lists

matplotlib.use("Agg")


def _table(values, names):
    return pd.DataFrame(values, index=names, columns=names)


def test_clustering_puts_alike_lists_side_by_side():
    # a and c fare alike, b and d fare alike
    v = np.array([[np.nan, 50, 1, 50], [-50, np.nan, -49, 0], [-1, 49, np.nan, 49],
                  [-50, 0, -49, np.nan]])
    order = list_order(_table(v, list("abcd")), "cluster")
    assert {frozenset(order[:2]), frozenset(order[2:])} == {frozenset("ac"), frozenset("bd")}
    assert order[0] in "ac"   # the stronger block on top
    assert list_order(_table(v, list("abcd")), "file") == list("abcd")
    with pytest.raises(OptionError, match="--order 'size'"):
        list_order(_table(v, list("abcd")), "size")


def test_heat_map_of_a_few_lists_prints_its_values(tmp_path):
    result = meta(event_lists(tmp_path, 3, units=2, seed=3), method="exact",
                  phases="shooting")
    art = meta_heatmap(result)
    assert len(art.texts) == 6 and sorted(art.order) == sorted(result.lists)
    assert [t.get_text() for t in art.ax.get_yticklabels()] == art.order


def test_heat_map_of_many_lists_labels_every_list_without_cell_texts():
    names = [f"Tournament list number {i:03d} of a long name" for i in range(60)]
    rng = np.random.default_rng(1)
    values = rng.normal(size=(60, 60)) * 100
    np.fill_diagonal(values, np.nan)

    class Fake:
        plan_rule = "rule"
        lists = dict.fromkeys(names)

        def matrix(self, metric):
            return _table(values, names)

    art = meta_heatmap(Fake(), order="mean")
    labels = [t.get_text() for t in art.ax.get_yticklabels()]
    assert len(labels) == 60 and len(set(labels)) == 60 and not art.texts
    assert max(len(label) for label in labels) <= 22
    assert art.ax.get_yticklabels()[0].get_fontsize() >= 4.5
