"""What charts read of their data (charts/data.py): expected values worked out by hand."""

import numpy as np
import pandas as pd
import pytest

from mathhammer.charts.data import (TIDY, fold_extra, frame_note, metric_rows,
                                    named_distribution, padded, visible_max)
from mathhammer.core.result import Distribution
from mathhammer.errors import OptionError


def test_named_distribution_takes_the_distributions_own_words():
    dist = Distribution.from_pmf(np.array([0.25, 0.5, 0.25]), label="boxes marked",
                                 subject="Juggernaut", note="exact")
    named = named_distribution(dist, "damage")
    assert (named.label, named.subject, named.note) == ("boxes marked", "Juggernaut", "exact")
    assert named.dist is dist
    assert named_distribution(dist, "damage", label="wounds").label == "wounds"


def test_named_distribution_of_a_result_asks_it_for_the_outcome():
    class Source:
        def distribution(self, outcome):
            return Distribution.from_pmf(np.array([1.0]), subject=f"{outcome} of A")

    named = named_distribution(Source(), "models_destroyed")
    # no label: the outcome's name with spaces
    assert named.label == "models destroyed" and named.subject == "models_destroyed of A"


def test_visible_max_stops_where_the_tail_is_negligible():
    # P(at least k): [1, 0.5001, 0.0001]; 0.0001 < 5e-4, so k = 1 is the last drawn
    assert visible_max(Distribution.from_pmf(np.array([0.4999, 0.5, 0.0001]))) == 1
    # certain 2: P(at least 2) = 1
    assert visible_max(Distribution.from_pmf(np.array([0.0, 0.0, 1.0]))) == 2
    # certain 0 still draws k = 0..1
    assert visible_max(Distribution.from_pmf(np.array([1.0]))) == 1


def test_padded_cuts_or_fills_with_zeros():
    assert padded(np.array([1.0, 2.0, 3.0]), 5).tolist() == [1, 2, 3, 0, 0]
    assert padded(np.array([1.0, 2.0, 3.0]), 2).tolist() == [1, 2]


def frame():
    return pd.DataFrame({"attacker": ["A", "A", "B", "B"], "target": ["T"] * 4,
                         "metric": ["expected_damage", "p_kill"] * 2,
                         "value": [1.5, 0.2, 2.5, 0.4], "stderr": [np.nan] * 4})


def test_metric_rows_picks_one_metric_first_by_default():
    part, metric = metric_rows(frame(), None, rows="attacker", columns="target")
    assert metric == "expected_damage" and part["value"].tolist() == [1.5, 2.5]
    part, metric = metric_rows(frame(), "p_kill", rows="attacker", columns="target")
    assert part["value"].tolist() == [0.2, 0.4]


def test_metric_rows_refuses_what_the_frame_lacks():
    with pytest.raises(OptionError, match="no metric 'mean' in this frame; it has: "
                                          "expected_damage, p_kill"):
        metric_rows(frame(), "mean", rows="attacker", columns="target")
    with pytest.raises(OptionError, match="needs a 'setting' column"):
        metric_rows(frame(), None, rows="setting", columns="target")


def test_fold_extra_names_a_varying_setting_in_the_row_label():
    part = frame().assign(save=[2, 2, 7, 7], cover=[True] * 4)
    folded = fold_extra(part.copy(), "attacker", "target")
    # 'save' varies: folded; 'cover' is the same on every row: left out
    assert folded["attacker"].tolist() == ["A (save 2)", "A (save 2)", "B (save 7)",
                                           "B (save 7)"]
    assert fold_extra(frame(), "attacker", "target")["attacker"].tolist() == ["A", "A",
                                                                             "B", "B"]
    assert set(TIDY) >= {"attacker", "target", "metric", "value", "stderr", "method"}


def test_frame_note_says_engine_trials_seed_and_situation():
    f = frame()
    f.attrs.update(method="exact")
    assert frame_note(f) == "exact"
    f.attrs.update(method="monte-carlo", trials=20000, seed=3, situation="half range, cover")
    assert frame_note(f) == "Monte Carlo, 20,000 trials per cell, seed 3; half range, cover"
    assert frame_note(frame()) == ""
