"""What each buff is worth (issue 35): attribution reconciles with results computed apart,
by hand-typed lines and options (never through the buff code)."""

from __future__ import annotations

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.wh40k.buff_attribution import ALL_BUFFS, attribution, attribution_text

GUN = 'Gun: 24" A2 BS3+ S4 AP-1 D2'
TARGET = "5x Marine: T4 Sv3+ W3 [INFANTRY]"


def test_attribution_reconciles_with_results_computed_apart():
    buffs = ["Oath: re-roll hits (1CP)", "Lethal: [LETHAL HITS] (2CP)", "+1 to wound"]
    frame = attribution(GUN, TARGET, buffs, method="exact")
    full = mh.exact(GUN + " [LETHAL HITS]", TARGET, reroll_hits="failed", wound_mod=1)
    without = {"Oath": mh.exact(GUN + " [LETHAL HITS]", TARGET, wound_mod=1),
               "Lethal": mh.exact(GUN, TARGET, reroll_hits="failed", wound_mod=1),
               "+1 to wound": mh.exact(GUN + " [LETHAL HITS]", TARGET, reroll_hits="failed"),
               ALL_BUFFS: mh.exact(GUN, TARGET)}
    damage = frame.query("metric == 'expected_damage'").set_index("buff")
    for name, result in without.items():
        row = damage.loc[name]
        assert row.with_buffs == pytest.approx(full.mean("damage"), abs=1e-12)
        assert row.without_buff == pytest.approx(result.mean("damage"), abs=1e-12)
        assert row.gain == pytest.approx(full.mean("damage") - result.mean("damage"),
                                         abs=1e-12)
    assert damage.loc["Lethal"].gain_per_cost == pytest.approx(damage.loc["Lethal"].gain / 2)
    assert np.isnan(damage.loc["+1 to wound"].gain_per_cost)
    assert set(frame["method"]) == {"exact"}


def test_the_attribution_table_names_each_buff_and_its_gain_per_cost():
    frame = attribution(GUN, TARGET, ["Oath: re-roll hits (1CP)", "+1 to wound"],
                        method="exact")
    text = attribution_text(frame)
    assert "Oath" in text and "per CP (1 CP)" in text and "(all buffs)" in text


def test_attribution_by_monte_carlo_uses_common_seeds():
    frame = attribution(GUN, TARGET, ["+1 to wound"], method="monte-carlo", trials=2_000,
                        seed=3)
    row = frame.query("metric == 'expected_damage' and buff == '+1 to wound'").iloc[0]
    full = mh.simulate(GUN, TARGET, wound_mod=1, trials=2_000, seed=3, progress=False)
    assert row.with_buffs == full.mean("damage")
    assert set(frame["method"]) == {"monte-carlo"}


def test_attribution_refuses_in_one_line():
    for kwargs in ({"buffs": []}, {"buffs": ["+1 to hit"], "method": "guess"}):
        with pytest.raises(mh.OptionError) as info:
            attribution(GUN, TARGET, **kwargs)
        assert "\n" not in str(info.value)


# -- over a grid: mh.compare(..., attribution=True) ---------------------------------------------
BOLTER = "Bolter: A1 BS3+ S4 AP0 D1"


def test_a_grids_attribution_by_hand():
    # one BS3+ S4 shot at T4 without a save: 2/3 x 1/2 = 1/3 a wound; +1 to wound: 2/3 x 2/3;
    # re-roll hits: 8/9 x 1/2; both: 8/9 x 2/3 = 16/27
    frame = mh.compare([BOLTER], ["T4 Sv- W1"], method="exact", attribution=True,
                       buffs=["Oath: re-roll hits (1CP)", "+1 to wound"])
    damage = frame.query("metric == 'expected_damage'").set_index("buff")
    assert list(frame.columns[:4]) == ["buff", "attacker", "target", "metric"]
    assert damage.loc["Oath", "with_buffs"] == pytest.approx(16 / 27, abs=1e-12)
    assert damage.loc["Oath", "without_buff"] == pytest.approx(4 / 9, abs=1e-12)
    assert damage.loc["Oath", "gain_per_cost"] == pytest.approx(16 / 27 - 4 / 9, abs=1e-12)
    assert damage.loc["+1 to wound", "without_buff"] == pytest.approx(4 / 9, abs=1e-12)
    assert damage.loc[ALL_BUFFS, "gain"] == pytest.approx(16 / 27 - 1 / 3, abs=1e-12)
    assert np.isnan(damage.loc["+1 to wound", "cost"])


@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
def test_a_grids_attribution_reconciles_with_grids_run_apart(method):
    attackers, targets = [GUN, BOLTER], [TARGET, "MEQ"]
    common = dict(method=method, trials=4_000, seed=7, charged=True)
    frame = mh.compare(attackers, targets, attribution=True, **common,
                       buffs=["Oath: re-roll hits", "[LETHAL HITS] when charged"])
    typed = [a + " [LETHAL HITS]" for a in attackers]
    full = mh.compare(typed, targets, reroll_hits="failed", **common)
    apart = {"Oath": mh.compare(typed, targets, **common),
             "[LETHAL HITS] when charged": mh.compare(attackers, targets, reroll_hits="failed",
                                                      **common),
             ALL_BUFFS: mh.compare(attackers, targets, **common)}
    for name, grid in apart.items():
        rows = frame[frame["buff"] == name]
        np.testing.assert_allclose(rows["with_buffs"], full["value"], rtol=0, atol=1e-12)
        np.testing.assert_allclose(rows["without_buff"], grid["value"], rtol=0, atol=1e-12)
    assert set(frame["method"]) == {method}


def test_a_grids_attribution_refusals():
    from mathhammer.errors import OptionError

    with pytest.raises(OptionError, match="give buffs="):
        mh.compare([BOLTER], ["MEQ"], attribution=True)
    with pytest.raises(OptionError, match="drop keep_results"):
        mh.compare([BOLTER], ["MEQ"], attribution=True, buffs=["+1 to hit"],
                   keep_results=True)
