"""Metric words (report/labels.py): the frame's own words, then registered ones, then the id."""

import pandas as pd

from mathhammer.report.labels import metric_label, register_metric_labels


def test_metric_label_order_of_sources():
    register_metric_labels({"test_metric_words": "words for the test"})
    assert metric_label("test_metric_words") == "words for the test"
    frame = pd.DataFrame()
    frame.attrs["labels"] = {"test_metric_words": "the frame's own words"}
    assert metric_label("test_metric_words", frame) == "the frame's own words"
    # nothing registered: the id with spaces
    assert metric_label("never_registered_metric") == "never registered metric"


def test_later_registrations_win():
    register_metric_labels({"test_metric_later": "first"})
    register_metric_labels({"test_metric_later": "second"})
    assert metric_label("test_metric_later") == "second"


def test_games_register_their_words_on_first_need():
    # 40k's expected_damage is "expected wounds lost" (wh40k/metric_words.py)
    assert metric_label("expected_damage") != "expected damage"
