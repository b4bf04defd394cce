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


# --- buffs (issue 35) -------------------------------------------------------------------------
def _csv(answer):
    import io

    import pandas as pd

    return pd.read_csv(io.BytesIO(answer.downloads["matrix.csv"].make()))


def _same(page, api):
    import numpy as np

    api = api.reset_index(drop=True)
    assert list(page["attacker"]) == list(api["attacker"])
    assert list(page["metric"]) == list(api["metric"])
    np.testing.assert_allclose(page["value"].to_numpy(float), api["value"].to_numpy(float),
                               rtol=0, atol=1e-12)


def test_ticked_and_typed_buffs_equal_the_python_api(store):
    import mathhammer as mh

    typed = "Storm of Fire: [LETHAL HITS] to RANGED weapons"
    query = {"list": store.key, "targets": "MEQ\nT10 Sv3+ W12 [VEHICLE]", "buff_oath": "on",
             "buff_wound": "on", "buffs": typed, "metric": "expected_damage"}
    answer = matrix_job(query, store)()
    army = mh.load_roster(FILES / "leaders_11e.json")
    buffs = ["Oath of Moment: re-roll hits", "+1 to wound: +1 to wound", typed]
    api = army.compare(["MEQ", "T10 Sv3+ W12 [VEHICLE]"], buffs=buffs)
    _same(_csv(answer), api)
    assert not np_allclose(_csv(answer), army.compare(["MEQ", "T10 Sv3+ W12 [VEHICLE]"]))
    assert "Buffs: Oath of Moment: re-roll hits; +1 to wound: +1 to wound; Storm of Fire" \
        in answer.html


def np_allclose(page, api) -> bool:
    import numpy as np

    return bool(np.allclose(page["value"].to_numpy(float),
                            api.reset_index(drop=True)["value"].to_numpy(float)))


def test_protecting_buffs_go_to_the_opponents_list(store):
    import mathhammer as mh

    store.other = store.add(Upload("real_11e.json", (FILES / "real_11e.json").read_bytes()))
    query = {"list": store.key, "against": store.other, "buff_lethal": "on", "buff_fnp": "on",
             "buff_minus": "on", "phase": "shooting"}
    answer = matrix_job(query, store)()
    army, other = mh.load_roster(FILES / "leaders_11e.json"), mh.load_roster(
        FILES / "real_11e.json")
    api = army.against(other, buffs=["Lethal Hits: [LETHAL HITS]"], phases=("shooting",),
                       other_buffs=["Target FNP 5+: FNP 5+", "Target -1 Damage: -1 damage"])
    _same(_csv(answer), api)
    import html

    assert "The opponent's buffs: Target FNP 5+: FNP 5+; Target -1 Damage: -1 damage" \
        in html.unescape(answer.html)


def test_bad_buffs_are_refused_in_one_line(store):
    from mathhammer.errors import MathhammerError

    with pytest.raises(MathhammerError) as info:
        matrix_job({"list": store.key, "buffs": "+1 to wound\nOath: re-roll hitz"}, store)
    assert info.value.token == "hitz" and info.value.location == "buffs line 2"
    assert str(info.value).startswith("buffs line 2: 'hitz' at column 15")
    assert "\n" not in str(info.value)
    with pytest.raises(OptionError, match="protects the targets") as info:
        matrix_job({"list": store.key, "buff_fnp": "on"}, store)
    assert info.value.token == "Target FNP 5+" and "\n" not in str(info.value)
