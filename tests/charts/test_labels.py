"""Words on a chart (mathhammer/charts/labels.py): wrapping, and shortened labels that stay
distinct (issue 41)."""

import numpy as np
import pytest

from mathhammer.charts.fitting import CrowdedChart
from mathhammer.charts.labels import distinct_labels, wrap


def test_the_words_that_differ_are_kept():
    names = ["Hellblasters, 5 plasma incinerators (supercharge)",
             "Hellblasters, 5 plasma incinerators (standard)"]
    for width, lines in ((12, 2), (16, 2), (20, 1), (26, 2)):
        shown = distinct_labels(names, width, lines)
        assert "super" in shown[0] and "standard" in shown[1], shown
        assert all(len(line) <= width + 1 for s in shown for line in s.split("\n")), shown


def test_labels_that_cannot_be_told_apart_are_numbered_after_one_warning():
    names = [f"{'Supercalifragilistic' * 3} {i}" for i in range(3)]
    with pytest.warns(CrowdedChart) as caught:
        shown = distinct_labels(names[:3] + ["A" * 25 + f"{c}" + "A" * 25 for c in "xyz"],
                                1, 1)
    assert len(caught) == 1
    assert len(set(shown)) == len(shown), shown


@pytest.mark.parametrize("seed", range(6))
def test_generated_names_stay_distinct_wherever_there_is_room(seed):
    """Names that share most of their words, any width and number of lines: the shortened
    labels differ whenever the labels do, each line fits its width, and nothing warns when
    the width and lines hold the words that differ."""
    rng = np.random.default_rng(seed)
    base = ["Intercessor Squad with", "Devastator Squad with 4", "Hellblasters, 5 plasma"]
    ends = ["bolt rifles (5)", "bolt rifles (10)", "lascannons", "multi-meltas",
            "incinerators (supercharge)", "incinerators (standard)"]
    names = list(dict.fromkeys(f"{rng.choice(base)} {rng.choice(ends)}" for _ in range(14)))
    for width, lines in ((18, 2), (24, 2), (30, 3), (16, 3)):
        shown = distinct_labels(names, width, lines)
        assert len(set(shown)) == len(names), shown
        assert all(len(line) <= width + 1 for s in shown for line in s.split("\n"))
        assert all(s.count("\n") < lines for s in shown)


def test_wrap_never_breaks_a_word():
    assert wrap("Terminator Squad of the First Company", 12, 3) == \
        "Terminator\nSquad of the\nFirst…"
