"""Searching the optimiser's plans (wh40k/optimise/search.py) with scores written by hand."""

from mathhammer.wh40k.optimise.search import PRUNE_Z, Scored, Search, enumerate_orders, prune
from mathhammer.wh40k.optimise.space import build_space

from .test_space import scenario


def models_at_b(orders):
    """A score written for the test: one point a model firing at B, a tenth for 're-roll
    ones'."""
    at_b = sum(n for (target, _), n in orders.allocations[0] if target == "B")
    return at_b + (0.1 if orders.options == ("ones",) else 0.0)


def search(calls):
    def score(orders, trials):
        calls.append(orders)
        return Scored(orders, [(models_at_b(orders), 0.0)], None, trials)
    return Search(score=score, budget=100)


def test_enumeration_ranks_every_plan_and_scores_each_once():
    calls = []
    s = search(calls)
    ranked = enumerate_orders(build_space(scenario()), s, None, False)
    # the best orders sends both models at B and re-rolls ones: 2.1; the worst fires at A: 0
    assert [round(r.values[0][0], 1) for r in ranked] == [2.1, 2.0, 1.1, 1.0, 0.1, 0.0]
    assert len(calls) == 6
    s.get(ranked[0].orders)
    assert len(calls) == 6  # memoised


def test_prune_keeps_plans_within_the_noise_of_the_best():
    plans = [Scored(None, [(v, se)], None) for v, se in ((1.0, 0.1), (0.8, 0.05), (0.2, 0.05))]
    kept = prune(plans)
    # 1.0 - 0.8 = 0.2 is within PRUNE_Z x hypot(0.1, 0.05); 0.8 below the best is not
    assert 0.2 <= PRUNE_Z * (0.1 ** 2 + 0.05 ** 2) ** 0.5 < 0.8
    assert kept == plans[:2]
