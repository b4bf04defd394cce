"""A comparison that keeps its results (issue 40, item 5): the frame it holds is the frame
``compare`` returns without ``keep_results``, bit for bit; its results are read-only and
keyed as the frame's cells; the old ``results_out=`` dict still fills, with a warning."""

import warnings

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.core.comparison import Comparison, results_out_deprecated
from mathhammer.core.result import Result
from mathhammer.dust import comparisons as dust_compare
from mathhammer.errors import OptionError
from mathhammer.warmachine import comparisons as warmachine_compare

BOLTER = "Bolter: A2 BS3+ S4 AP0 D1"
PLASMA = 'Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]'


@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
def test_the_kept_frame_is_the_frame_compare_returns(method):
    options = dict(method=method, trials=3_000, seed=7, points=[90, 120])
    frame = mh.compare([BOLTER, PLASMA], ["MEQ", "GEQ"], **options)
    kept = mh.compare([BOLTER, PLASMA], ["MEQ", "GEQ"], keep_results=True, **options)
    assert isinstance(frame, pd.DataFrame) and isinstance(kept, Comparison)
    pd.testing.assert_frame_equal(kept.frame, frame, check_exact=method != "exact",
                                  rtol=1e-12)
    assert kept.frame.attrs == frame.attrs
    assert list(kept.results) == [(a, t) for a in ("Bolter", "Plasma gun")
                                  for t in ("MEQ", "GEQ")]
    for (attacker, target), result in kept.results.items():
        assert isinstance(result, Result)
        row = frame[(frame.attacker == attacker) & (frame.target == target)
                    & (frame.metric == "expected_damage")]
        assert result.mean("damage") == pytest.approx(row.value.iloc[0], rel=1e-12)


def test_monte_carlo_results_are_the_seeded_cells_bit_for_bit():
    kept = mh.compare([BOLTER], ["MEQ", "GEQ"], method="monte-carlo", trials=2_000, seed=3,
                      keep_results=True)
    again = mh.compare([BOLTER], ["MEQ", "GEQ"], method="monte-carlo", trials=2_000, seed=3,
                       keep_results=True)
    for key, result in kept.results.items():
        for outcome in result.outcomes:
            assert (result.distribution(outcome).probabilities
                    == again.results[key].distribution(outcome).probabilities).all()
    pd.testing.assert_frame_equal(kept.frame, mh.compare(
        [BOLTER], ["MEQ", "GEQ"], method="monte-carlo", trials=2_000, seed=3), check_exact=True)


def test_results_are_read_only():
    kept = mh.compare([BOLTER], "MEQ", keep_results=True)
    with pytest.raises(TypeError, match="cannot be changed"):
        kept.results["x"] = None
    with pytest.raises(AttributeError):
        kept.frame = None


def test_it_shows_as_its_frame():
    kept = mh.compare([BOLTER], "MEQ", keep_results=True)
    assert repr(kept) == repr(kept.frame)
    assert kept._repr_html_() == kept.frame._repr_html_()


@pytest.mark.parametrize("compare", [warmachine_compare.compare, dust_compare.compare])
def test_the_other_games_keep_results_too(compare):
    attacker, target = ({warmachine_compare.compare: ("Fist: MAT6 POW12", "Jack: DEF13 ARM14 "
                                                      "BOXES30")}
                        .get(compare, ("Gun: 6/1", "5x G: INFANTRY2")))
    kept = compare(attacker, [target], keep_results=True)
    pd.testing.assert_frame_equal(kept.frame, compare(attacker, [target]))
    assert len(kept.results) == 1


def test_results_out_fills_the_dict_with_a_deprecation_warning():
    cells: dict = {}
    with pytest.warns(DeprecationWarning, match="keep_results=True") as caught:
        frame = mh.compare([BOLTER], ["MEQ", "GEQ"], results_out=cells)
    assert caught[0].filename == __file__   # the warning points at the caller
    assert isinstance(frame, pd.DataFrame) and list(cells) == [("Bolter", "MEQ"),
                                                               ("Bolter", "GEQ")]
    with pytest.warns(DeprecationWarning):
        both = mh.compare([BOLTER], "MEQ", results_out={}, keep_results=True)
    assert isinstance(both, Comparison)


def test_results_out_must_be_a_dict_and_keep_results_a_switch():
    with pytest.raises(OptionError, match="results_out must be a dict"):
        mh.compare([BOLTER], "MEQ", results_out=[])
    with pytest.raises(OptionError, match="keep_results must be True or False"):
        mh.compare([BOLTER], "MEQ", keep_results="yes")


def test_the_decorator_passes_calls_without_results_out_through():
    @results_out_deprecated
    def compare(x, *, keep_results=False):
        return Comparison(pd.DataFrame({"x": [x]}), {("a", "b"): x}) if keep_results else x

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compare(5) == 5
    out: dict = {}
    with pytest.warns(DeprecationWarning):
        assert isinstance(compare(5, results_out=out), pd.DataFrame)
    assert out == {("a", "b"): 5}


def test_a_roster_analysis_keeps_its_results():
    from mathhammer.wh40k.roster.api import example

    roster = mh.load_roster(example("marines"))
    frame = roster.compare(["MEQ"], phases=["shooting"])
    kept = roster.compare(["MEQ"], phases=["shooting"], keep_results=True)
    pd.testing.assert_frame_equal(kept.frame, frame)
    assert {key[1:] for key in kept.results} == {("MEQ", "shooting")}
    cells: dict = {}
    with pytest.warns(DeprecationWarning) as caught:
        roster.compare(["MEQ"], phases=["shooting"], results_out=cells)
    assert caught[0].filename == __file__ and set(cells) == set(kept.results)
