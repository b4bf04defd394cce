"""The web page's army matrix (web/army.py) on leaders_11e.json, checked by hand."""

import pytest

from mathhammer.errors import OptionError, RosterError
from mathhammer.web.army import listing, load, matrix_job
from mathhammer.web.uploads import RosterStore, Upload

from ..wh40k.roster.conftest import FILES


@pytest.fixture
def store():
    s = RosterStore()
    s.key = s.add(Upload("leaders_11e.json", (FILES / "leaders_11e.json").read_bytes()))
    return s


def test_listing(store):
    html = listing(load(store, store.key))
    assert "Intercessor Squad" in html and "attached to Intercessor Squad" in html


def test_matrix_cell_by_hand(store):
    # the led Intercessor Squad shooting one T4 W1 model without a save:
    # P(destroyed) = 1 - (2/3)^11 (7/12)^2 = 99.6% (see tests/wh40k/roster/test_cli.py)
    answer = matrix_job({"list": store.key, "targets": "T4 Sv7+ W1", "phase": "shooting",
                         "metric": "p_unit_destroyed"}, store)()
    assert "99.6%" in answer.html
    assert any(name.startswith("cell-") for name in answer.views)
    assert "matrix.csv" in answer.downloads


def test_refusals(store):
    with pytest.raises(OptionError, match="drop a roster file first"):
        matrix_job({}, store)
    with pytest.raises(RosterError, match="no longer in memory"):
        matrix_job({"list": "0" * 20}, store)
    with pytest.raises(OptionError, match="metric: 'bogus' is not one of"):
        matrix_job({"list": store.key, "metric": "bogus"}, store)
