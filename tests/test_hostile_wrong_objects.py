"""Issue 39, cause 6: a Python caller's wrong object is refused in one line naming the
parameter (a :class:`MathhammerError`), never a bare OverflowError, AttributeError,
ZeroDivisionError, KeyError, IndexError or a TypeError from deep inside, in all three games.
"""

from __future__ import annotations

from importlib import import_module

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer import charts
from mathhammer.core.frames import per_points, to_json_dict
from mathhammer.report.frame_tables import pivot, table
from mathhammer.errors import MathhammerError
from tests.test_hostile_counts_kinds_and_outputs import BASE_SCENARIO

WM_API = import_module("mathhammer.warmachine.api")
WM_COMPARE = import_module("mathhammer.warmachine.comparisons")
WM_POLICIES = import_module("mathhammer.warmachine.policies")
DUST_API = import_module("mathhammer.dust.api")
DUST_COMPARE = import_module("mathhammer.dust.comparisons")
DUST_PLANS = import_module("mathhammer.dust.plans")
DUST_EXCHANGE = import_module("mathhammer.dust.exchanges")

W40K = "Bolter: A2 BS3+ S4 AP0 D1"
ATTACK, JACK = "Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30"
GUN, SQUAD = "Gun: 6/1", "5x G: INFANTRY2"


class Junk:
    """An object of no kind mathhammer knows."""


#: Objects of the wrong kind: none of them is what any parameter below takes.
WRONG = [None, "x", [], {}, set(), 1.5, float("nan"), 10**400, Junk(), [None], b"x"]


def _scenario():
    return mh.parse_scenario(BASE_SCENARIO)


# -- the issue's examples -------------------------------------------------------------------
@pytest.mark.parametrize("call, words", [
    (lambda: mh.compare(W40K, "MEQ", method="exact", points=[10**400]), "points for 'Bolter'"),
    (lambda: mh.compare(W40K, "MEQ", method="exact", points=10**400), "points for 'Bolter'"),
    (lambda: mh.compare(W40K, "MEQ", method="exact", library=5), "library must be"),
    (lambda: mh.sweep(W40K, "MEQ", "save", [2], method="exact", library="x"), "library must be"),
    (lambda: mh.compare(W40K, "MEQ", method="monte-carlo", trials=100, client="x"), "client must be"),
    (lambda: mh.compare(W40K, "MEQ", method="exact", client="x"), "client must be"),
    (lambda: mh.compare(W40K, "MEQ", method="exact", results_out=[]), "results_out must be"),
    (lambda: mh.exact(W40K, "MEQ").to_text(max_rows=0), "max_rows"),
    (lambda: mh.run(_scenario(), trials=50).group_models_destroyed("Mob", "Nope"),
     "no model group 'Nope'; its groups: Boy"),
    (lambda: mh.run(_scenario(), trials=50).group_models_destroyed("Nope", "Boy"),
     "no unit 'Nope'"),
    (lambda: mh.wh40k.run_scripted(_scenario(), []), "faces"),
    (lambda: mh.wh40k.run_scripted(None, [6]), "scenario must be a Scenario"),
    (lambda: charts.distribution(None), "result must be"),
    (lambda: charts.overlay(None, "damage"), "results must be"),
    (lambda: charts.overlay([None], "damage"), "each of results"),
    (lambda: mh.load_roster(import_module("mathhammer.wh40k.roster.api").example("orks"))
     .compare(None), "give at least one target"),
], ids=lambda value: "" if callable(value) else value)
def test_the_issue_examples_are_refused_naming_the_parameter(call, words):
    with pytest.raises(MathhammerError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


def test_scripted_dice_that_run_out_are_still_an_index_error():
    """Callers that caught IndexError keep working; the message names ``faces``."""
    with pytest.raises(IndexError, match="faces: the scripted dice ran out: the scenario "
                                         "rolled 10 dice but only 0 were given"):
        mh.wh40k.run_scripted(_scenario(), [])


@pytest.mark.parametrize("call, words", [
    (lambda: WM_API.exact(ATTACK, JACK, rules=5), "rules must be a Rules"),
    (lambda: WM_API.simulate(ATTACK, JACK, trials=100, rules="x"), "rules must be a Rules"),
    (lambda: WM_COMPARE.compare(ATTACK, JACK, rules=[]), "rules must be a Rules"),
    (lambda: WM_COMPARE.compare(ATTACK, JACK, results_out=[]), "results_out must be"),
    (lambda: WM_COMPARE.compare(ATTACK, JACK, results_out=()), "results_out must be"),
    (lambda: WM_COMPARE.sweep(ATTACK, JACK, "tough_allowed", [True], rules=5), "rules must"),
    (lambda: WM_POLICIES.compare_focus(ATTACK, JACK, 1, policies=5), "policies must be"),
    (lambda: WM_POLICIES.compare_focus(ATTACK, JACK, 1, policies=[None]), "each of policies"),
    (lambda: WM_POLICIES.compare_focus([ATTACK, ATTACK], JACK, 1),
     "attack must be one attack line"),
    (lambda: WM_POLICIES.focus_policies("2"), "points (focus or fury"),
    (lambda: WM_POLICIES.attacks_to_kill(ATTACK, JACK, rules=5), "rules must be a Rules"),
    (lambda: DUST_API.exact(GUN, SQUAD, rules=5), "rules must be a Rules"),
    (lambda: DUST_COMPARE.compare(GUN, SQUAD, rules="x"), "rules must be a Rules"),
    (lambda: DUST_COMPARE.compare(GUN, SQUAD, results_out=[]), "results_out must be"),
    (lambda: DUST_PLANS.losses_table(GUN, models=10**400), "models (of each target squad)"),
    (lambda: DUST_PLANS.losses_table(GUN, boxes="4"), "boxes (of each target vehicle)"),
    (lambda: DUST_PLANS.best_fire_orders([GUN], 5), "targets must be"),
    (lambda: DUST_EXCHANGE.exchange(None, None), "a must be a Dust Unit"),
    (lambda: DUST_EXCHANGE.pool_after_losses("x", SQUAD), "unit must be a Dust Unit"),
    (lambda: DUST_EXCHANGE.removal_order(5, "protect_special"), "unit must be a Dust Unit"),
], ids=lambda value: "" if callable(value) else value)
def test_warmachine_and_dust_refuse_the_same_kinds(call, words):
    with pytest.raises(MathhammerError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["bars", "heatmap", "sweep_lines", "survival"])
@pytest.mark.parametrize("value", [None, 5, "frame", [], {"metric": ["x"]}])
def test_every_chart_of_a_frame_names_a_wrong_frame(name, value):
    with pytest.raises(MathhammerError, match="frame must be a pandas DataFrame"):
        getattr(charts, name)(value)


def test_a_dust_fire_plan_names_wrong_rules():
    with pytest.raises(MathhammerError, match="rules must be a Rules"):
        DUST_API.compile_fire_orders([], rules=5)
    with pytest.raises(MathhammerError, match="rules must be a Rules"):
        DUST_API.fire_orders([(GUN, SQUAD)], rules="x")


@pytest.mark.parametrize("call, words", [
    (lambda r: r.label(5), "outcome must be"),
    (lambda r: r.probability(["x"]), "no event"),
    (lambda r: r.to_text(max_rows=1.5), "max_rows"),
    (lambda r: r.to_text(max_rows=True), "max_rows"),
])
def test_result_methods_name_their_parameter(call, words):
    with pytest.raises(MathhammerError, match=words):
        call(mh.exact(W40K, "MEQ"))


@pytest.mark.parametrize("call, words", [
    (lambda f: pivot(None), "pivot takes a comparison frame"),
    (lambda f: table(5), "table takes a comparison frame"),
    (lambda f: to_json_dict([]), "to_json_dict takes a comparison frame"),
    (lambda f: pivot(f, 5), "metric must be text"),
    (lambda f: table(f, stderr="no"), "stderr must be True or False"),
    (lambda f: per_points(f, 5), "points must be a dict"),
    (lambda f: per_points(f, {"Bolter": 10}, by=5), "by (the column"),
    (lambda f: per_points(f, {"Bolter": 10**400}), "points for 'Bolter'"),
])
def test_frame_helpers_name_their_parameter(call, words):
    frame = mh.compare(W40K, ["MEQ", "GEQ"], method="exact")
    with pytest.raises(MathhammerError) as info:
        call(frame)
    assert words in str(info.value)


# -- one property per class: any wrong object, any of these parameters ----------------------
def _result():
    return mh.exact(W40K, "MEQ")   # remembered by the engine's caches: cheap to ask again


def _deprecated(call):
    """``call()`` with its DeprecationWarning (the old results_out= dict) let through."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return call()


#: (name, call taking the hostile value, what the refusal names).
PARAMETERS = [
    ("compare points", lambda v: mh.compare(W40K, "MEQ", method="exact", points=v), "points"),
    ("compare library", lambda v: mh.compare(W40K, "MEQ", method="exact", library=v), "library"),
    ("compare client", lambda v: mh.compare(W40K, "MEQ", method="monte-carlo", trials=10, client=v), "client"),
    # results_out= is deprecated: a dict given warns, anything else is refused by name
    ("compare results_out", lambda v: _deprecated(
        lambda: mh.compare(W40K, "MEQ", method="exact", results_out=v)), "results_out"),
    ("sweep results_out", lambda v: _deprecated(
        lambda: mh.sweep(W40K, "MEQ", "save", [3], method="exact", results_out=v)),
     "results_out"),
    ("warmachine results_out", lambda v: _deprecated(
        lambda: WM_COMPARE.compare(ATTACK, JACK, results_out=v)), "results_out"),
    ("dust results_out", lambda v: _deprecated(
        lambda: DUST_COMPARE.compare(GUN, SQUAD, results_out=v)), "results_out"),
    ("compare keep_results",
     lambda v: mh.compare(W40K, "MEQ", method="exact", keep_results=v), "keep_results"),
    ("dust keep_results", lambda v: DUST_COMPARE.compare(GUN, SQUAD, keep_results=v),
     "keep_results"),
    ("warmachine rules", lambda v: WM_API.exact(ATTACK, JACK, rules=v), "rules"),
    ("dust rules", lambda v: DUST_API.exact(GUN, SQUAD, rules=v), "rules"),
    ("to_text max_rows", lambda v: _result().to_text(max_rows=v), "max_rows"),
    ("result label", lambda v: _result().label(v), "outcome"),
    ("charts.distribution", lambda v: charts.distribution(v), "result"),
    ("charts.overlay", lambda v: charts.overlay(v, "damage"), "results"),
    ("charts.bars", lambda v: charts.bars(v), "frame"),
    ("charts.survival", lambda v: charts.survival(v), "frame"),
    ("focus policies", lambda v: WM_POLICIES.compare_focus(ATTACK, JACK, 1, policies=v),
     "policies"),
    ("losses_table models", lambda v: DUST_PLANS.losses_table(GUN, models=v), "models"),
    ("exchange a", lambda v: DUST_EXCHANGE.exchange(v, v), "a must be"),
]


@settings(max_examples=120, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PARAMETERS), st.sampled_from(WRONG) | st.integers(-(10**30), -1)
       | st.text(max_size=5) | st.lists(st.integers(), max_size=2))
def test_any_wrong_object_is_refused_naming_its_parameter(parameter, value):
    import matplotlib.pyplot as plt

    name, call, words = parameter
    try:
        call(value)
    except MathhammerError as exc:
        assert words in str(exc) and "\n" not in str(exc), (name, str(exc))
    finally:
        plt.close("all")
