import numba
import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k.api import run_monte_carlo
from mathhammer.wh40k.compile import compile_plan
from mathhammer.wh40k.parse import parse_target, parse_weapon

RIFLES = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
GUARD = "10x Guardsman: T3 Sv5+ W1"


def test_issue_example_runs_and_engines_agree():
    r = mh.simulate([RIFLES], GUARD, trials=200_000, seed=1, half_range=True)
    e = mh.exact([RIFLES], GUARD)
    assert r.trials == 200_000 and r.seed == 1 and r.method == "monte-carlo"
    assert abs(r.mean("damage") - e.mean("damage")) < 5 * r.stderr("damage")
    assert list(r.pmf("damage").index[:3]) == [0, 1, 2]
    assert {"mean", "stderr"} <= set(r.summary().columns)


def test_profile_objects_are_accepted_wherever_lines_are():
    by_line = mh.exact(RIFLES, GUARD)
    by_object = mh.exact([parse_weapon(RIFLES)], parse_target(GUARD))
    assert np.array_equal(by_line.distributions["damage"].probabilities,
                          by_object.distributions["damage"].probabilities)


def test_same_seed_bit_identical_on_any_thread_count():
    plan = compile_plan([parse_weapon('5x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]')],
                        parse_target("10x Intercessor: T4 Sv3+ W2"))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = run_monte_carlo(plan, 50_000, seed=42)
        numba.set_num_threads(max(2, before))
        multi = run_monte_carlo(plan, 50_000, seed=42)
    finally:
        numba.set_num_threads(before)
    assert single.histograms.keys() == multi.histograms.keys()
    for name, counts in single.histograms.items():
        assert np.array_equal(counts, multi.histograms[name])
    assert single.events == multi.events
    other = run_monte_carlo(plan, 50_000, seed=43)
    assert not np.array_equal(single.histograms["damage"], other.histograms["damage"])


@pytest.mark.parametrize("kwargs, fragment", [
    ({"trials": 0}, "at least 1"),
    ({"trials": 2.5}, "whole number"),
    ({"seed": -1}, "non-negative"),
    ({"half_rnage": True}, "did you mean 'half_range'"),
    ({"reroll_hits": "sixes"}, "re-roll policy"),
    ({"lethal_policy": "sometimes"}, "lethal_policy"),
])
def test_bad_options(kwargs, fragment):
    with pytest.raises(OptionError, match=fragment):
        mh.simulate(RIFLES, GUARD, **{"trials": 10, **kwargs})


def test_exact_refuses_what_it_cannot_do():
    hammer = "40x Thunder hammer: Melee A12 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]"
    with pytest.raises(UnsupportedError, match="Monte Carlo"):
        mh.exact([hammer, hammer], "5x Terminator: T5 Sv2+ InSv4+ W3", dw_timing="unit_end")
