"""Issue 39, cause 7: a True/False parameter takes True or False (a numpy bool too) and
nothing else, at every public entry of the three games. ``bool('no')`` is True: a value of
another kind was read with the opposite meaning (``attacker_monster_vehicle='no'`` on,
``compare(exact='no')`` exact, ``unit_sizes='no'`` sizes added) or accepted (``exact=None``,
``exact=1``). ``exact=`` is now the old spelling of ``method=``; it still refuses them.
"""

from __future__ import annotations

import warnings
from importlib import import_module

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.report.frame_tables import pivot, table, to_markdown
from mathhammer.errors import MathhammerError
from tests.test_hostile_counts_kinds_and_outputs import BASE_SCENARIO

WM_API = import_module("mathhammer.warmachine.api")
WM_COMPARE = import_module("mathhammer.warmachine.comparisons")
WM_PROFILES = import_module("mathhammer.warmachine.profiles")
DUST_API = import_module("mathhammer.dust.api")
DUST_COMPARE = import_module("mathhammer.dust.comparisons")
DUST_PLANS = import_module("mathhammer.dust.plans")
DUST_PROFILES = import_module("mathhammer.dust.profiles")
DUST_EXCHANGE = import_module("mathhammer.dust.exchanges")
ROSTER_API = import_module("mathhammer.wh40k.roster.api")

W40K = "Bolter: A2 BS3+ S4 AP0 D1"
ATTACK, JACK = "Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30"
GUN, SQUAD = "Gun: 6/1", "5x G: INFANTRY2"
OPEN_SCENARIO = """
[units.Marines]
models = [{ name = "Marine", count = 2, profile = "T4 Sv3+ W2",
            weapons = ['Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'] }]
[units.Gaunts]
models = [{ name = "Gaunt", count = 1, profile = "T3 Sv5+ W1" }]
[units.Warrior]
models = [{ name = "Warrior", count = 1, profile = "T5 Sv4+ W3" }]
[[activations]]
phase = "shooting"
attacker = "Marines"
targets = ["Gaunts", "Warrior"]
"""


def _army():
    return mh.load_roster(ROSTER_API.example("orks"))


def _dust_units():
    from mathhammer.dust import load_unit

    return load_unit("seed.toml", "Pounder"), load_unit("seed.toml", "Assault Rangers")


#: (name, call taking the switch's value): every public True/False parameter.
def old_spelling(call):
    """``call`` through an old keyword spelling (``exact=``), its DeprecationWarning
    silenced: the old spelling still refuses what is not True or False."""
    def quiet(value):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            return call(value)
    return quiet


SWITCHES = [
    ("40k attacker_monster_vehicle",
     lambda v: mh.exact(W40K, "MEQ", attacker_monster_vehicle=v)),
    ("40k half_range", lambda v: mh.exact(W40K, "MEQ", half_range=v)),
    ("40k cover", lambda v: mh.simulate(W40K, "MEQ", trials=100, cover=v)),
    ("40k roll_mod_cap", lambda v: mh.exact(W40K, "MEQ", roll_mod_cap=v)),
    ("40k damage_halved", lambda v: mh.exact(W40K, "MEQ", damage_halved=v)),
    ("compare exact", old_spelling(lambda v: mh.compare(W40K, "MEQ", exact=v, trials=100))),
    ("compare unit_sizes",
     lambda v: mh.compare(W40K, {"Squad": "5x MEQ"}, method="exact", unit_sizes=v)),
    ("compare stationary", lambda v: mh.compare(W40K, "MEQ", method="exact", stationary=v)),
    ("compare attacker_monster_vehicle",
     lambda v: mh.compare(W40K, "MEQ", method="exact", attacker_monster_vehicle=v)),
    ("sweep exact", old_spelling(lambda v: mh.sweep(W40K, "MEQ", "save", [3], exact=v, trials=100))),
    ("sweep over a flag", lambda v: mh.sweep(W40K, "MEQ", "charged", [v], method="exact")),
    ("sweep over range", lambda v: mh.sweep(W40K, "MEQ", "range", [v], method="exact")),
    ("roster compare exact",
     old_spelling(lambda v: _army().compare("MEQ", exact=v, phases=["shooting"],
                                            trials=100))),
    ("parse_scenario open_choices",
     lambda v: mh.parse_scenario(BASE_SCENARIO, open_choices=v)),
    ("optimise split", lambda v: mh.wh40k.SearchOptions(split=v)),
    ("frames stderr", lambda v: pivot(mh.compare(W40K, "MEQ", method="exact"), stderr=v)),
    ("frames table stderr", lambda v: table(mh.compare(W40K, "MEQ", method="exact"), stderr=v)),
    ("frames caption", lambda v: to_markdown(mh.compare(W40K, "MEQ", method="exact"),
                                             caption=v)),
    ("warmachine compare exact",
     old_spelling(lambda v: WM_COMPARE.compare(ATTACK, JACK, exact=v, trials=100))),
    ("warmachine sweep exact",
     old_spelling(lambda v: WM_COMPARE.sweep(ATTACK, JACK, "tough_allowed", [True], exact=v,
                                             trials=100))),
    ("warmachine Rules", lambda v: WM_API.exact(ATTACK, JACK,
                                                rules=WM_PROFILES.Rules(tough_allowed=v))),
    ("warmachine Attack", lambda v: WM_API.exact(WM_PROFILES.Attack("Fist", stat=6, pow=12,
                                                                    charge=v), JACK)),
    ("warmachine Target", lambda v: WM_API.exact(ATTACK, WM_PROFILES.Target(
        "Jack", defense=13, armor=14, boxes=30, knocked_down=v))),
    ("dust exact sustained", lambda v: DUST_API.exact(GUN, SQUAD, sustained=v)),
    ("dust compare exact",
     old_spelling(lambda v: DUST_COMPARE.compare(GUN, SQUAD, exact=v, trials=100))),
    ("dust compare sustained", lambda v: DUST_COMPARE.compare(GUN, SQUAD, sustained=v)),
    ("dust sweep sustained",
     lambda v: DUST_COMPARE.sweep(GUN, SQUAD, "sustained", [True], sustained=v)),
    ("dust losses_table sustained", lambda v: DUST_PLANS.losses_table(GUN, sustained=v)),
    ("dust losses_table damage_resilient",
     lambda v: DUST_PLANS.losses_table(GUN, damage_resilient=v)),
    ("dust exchange sustained", lambda v: DUST_EXCHANGE.exchange(*_dust_units(),
                                                                 sustained=v)),
    ("dust Target damage_resilient",
     lambda v: DUST_API.exact(GUN, DUST_PROFILES.Target("G", "infantry", 2, models=5,
                                                        damage_resilient=v))),
    ("dust Rules", lambda v: DUST_API.exact(GUN, SQUAD, hero_joined=v)),
]
#: The switches that also take None (a three-way choice: None lets mathhammer decide).
TAKES_NONE = {"roster compare exact"}


def _name(value):
    return value[0] if isinstance(value, tuple) else None


# -- the issue's examples -------------------------------------------------------------------
@pytest.mark.parametrize("call, words", [
    (lambda: mh.exact(W40K, "MEQ", attacker_monster_vehicle="no"),
     "attacker_monster_vehicle must be True or False, not str 'no'"),
    (lambda: mh.compare(W40K, "MEQ", method="no"), "method='no' is not an engine"),
    (lambda: mh.compare(W40K, "MEQ", method=None), "method=None is not an engine"),
    (lambda: mh.compare(W40K, "MEQ", method=1), "method=1 is not an engine"),
    (lambda: mh.compare(W40K, {"Squad": "5x MEQ"}, method="exact", unit_sizes="no"),
     "unit_sizes must be True or False"),
    (lambda: _army().compare("MEQ", method="x"), "method='x' is not an engine"),
], ids=["attacker_monster_vehicle", "method='no'", "method=None", "method=1", "unit_sizes",
        "roster method"])
def test_the_issue_examples_are_refused(call, words):
    with pytest.raises(MathhammerError) as info:
        call()
    assert words in str(info.value) and "\n" not in str(info.value)


def test_a_range_band_is_half_or_full_or_a_switch():
    frame = mh.sweep(W40K, "MEQ", "range", ["half", "FULL", True, False], method="exact")
    assert frame["range"].tolist()[::3] == ["half", "FULL", True, False]
    for band in (1, 0, "1", "true", "yes", None):
        with pytest.raises(MathhammerError, match="range band"):
            mh.sweep(W40K, "MEQ", "range", [band], method="exact")


def test_numpy_booleans_are_booleans():
    on = mh.exact(W40K, "MEQ", attacker_monster_vehicle=np.bool_(True))
    assert on.mean("damage") == mh.exact(W40K, "MEQ", attacker_monster_vehicle=True) \
        .mean("damage")
    with pytest.warns(DeprecationWarning, match="method='exact'"):
        assert mh.compare(W40K, "MEQ", exact=np.True_).attrs["method"] == "exact"


# -- the property: any value that is not True or False, at any switch --------------------------
NOT_A_SWITCH = (st.text(max_size=6) | st.integers(-3, 3) | st.floats(allow_nan=True)
                | st.sampled_from([[True], (False,), {"on": True}, b"yes", 1j]))


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SWITCHES), NOT_A_SWITCH | st.none())
def test_only_true_or_false_is_a_switch(switch, value):
    name, call = switch
    if value is None and name in TAKES_NONE:
        call(value)   # None: the documented "decide for me"
        return
    with pytest.raises(MathhammerError) as info:
        call(value)
    message = str(info.value)
    assert "\n" not in message
    assert ("True" in message and "False" in message) or "range band" in message, (name,
                                                                                   message)


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SWITCHES), st.booleans())
def test_true_and_false_are_taken(switch, value):
    import matplotlib.pyplot as plt

    name, call = switch
    try:
        call(value)
    except MathhammerError as exc:   # refused for what the value means, never its kind
        assert "must be True" not in str(exc), (name, str(exc))
    finally:
        plt.close("all")
