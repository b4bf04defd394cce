"""40k Monte Carlo against the exact engine over generated situations (issue 23): the same
random weapon lines, targets and options the exact engine is checked on against brute force
(``test_reference_vs_exact.scenarios``), simulated and compared with the statistical check
every game's property test uses (:mod:`tests.agreement`)."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings

import mathhammer as mh
from mathhammer.errors import MathhammerError
from tests.agreement import disagreements
from tests.wh40k.test_reference_vs_exact import scenarios

TRIALS = 40_000


def _check(scenario) -> None:
    lines, target, options = scenario
    try:
        exact = mh.exact(lines, target, **options)
    except MathhammerError:
        assume(False)   # a combination the engines refuse with a message
        return
    simulated = mh.simulate(lines, target, trials=TRIALS, seed=11, progress=False, **options)
    problems = disagreements(simulated, exact, TRIALS)
    assert not problems, (lines, target, options, problems)


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenarios())
def test_monte_carlo_agrees_with_exact_on_generated_situations(scenario) -> None:
    _check(scenario)


@settings(max_examples=20, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenarios(edition=10))
def test_monte_carlo_agrees_with_exact_on_generated_10th_edition_situations(scenario) -> None:
    _check(scenario)
