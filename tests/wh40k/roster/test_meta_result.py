"""The meta matrix's views: matrix, summary, team table, JSON, text and Markdown."""

import json

import pandas as pd
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.roster.meta import meta
from mathhammer.wh40k.roster.meta_result import METRICS

from .event_lists import event_lists


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    return meta(event_lists(tmp_path_factory.mktemp("event"), 4, units=2, seed=7),
                method="exact", phases="shooting")


def test_margin_is_points_destroyed_minus_points_lost(result):
    destroyed, lost = result.matrix("points_destroyed"), result.matrix("points_lost")
    pd.testing.assert_frame_equal(result.matrix("margin"), destroyed - lost)
    pd.testing.assert_frame_equal(lost, destroyed.T, check_names=False)
    assert result.matrix().isna().values.diagonal().all()


def test_summary_has_each_lists_mean_and_worst_pairing(result):
    summary = result.summary()
    table = result.matrix()
    for label, row in summary.iterrows():
        assert row["mean"] == pytest.approx(table.loc[label].mean())
        assert row["worst"] == table.loc[label].min()
        assert table.loc[label, row["worst_opponent"]] == row["worst"]


def test_team_table_and_its_refusals(result):
    names = list(result.lists)
    table = result.team_table(",".join(names[:2]), names[2:])
    assert list(table.index) == names[:2] and list(table.columns) == names[2:]
    with pytest.raises(OptionError, match="no list 'list_9'"):
        result.team_table("list_9", names[:1])
    with pytest.raises(OptionError, match="metric 'margn'.*did you mean 'margin'"):
        result.matrix("margn")


def test_json_text_and_markdown_say_the_plan_and_the_cache(result):
    document = json.loads(json.dumps(result.to_dict()))
    assert document["plan_rule"] == result.plan_rule
    assert set(document["counts"]) >= {"pairings", "solved", "from_cache", "resumed"}
    assert len(document["matrix"]) == 4 * 3 * len(METRICS)
    text, markdown = result.to_text(), result.to_markdown("models_destroyed")
    assert "Plan: each unit at its own best target" in text and "from the cache" in text
    assert markdown.startswith("### Expected models destroyed") and "| list" in markdown


def test_a_matrix_too_wide_for_the_terminal_is_pointed_at_not_wrapped(result):
    narrow = result.to_text(width=30)
    assert "the 4 x 4 matrix is too wide for a terminal" in narrow and "--csv FILE" in narrow
    assert "Summary (" in narrow
    wide = result.to_text(width=200)
    assert "(row list against column list):" in wide and "too wide" not in wide
