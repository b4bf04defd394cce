"""The decision optimiser: which target each weapon takes, which profile, which re-roll.

A layer above the scenario engine (:mod:`mathhammer.wh40k.scenario`) and the exact engine
(:func:`mathhammer.exact`), using their public API only:

- :mod:`.objectives`: what to maximise (expected models destroyed, wounds lost, P(unit
  destroyed), P(at least k), points, lexicographic lists of them);
- :mod:`.space`: the decisions a scenario leaves open (slots, options) and a set of orders made
  back into an ordinary :class:`~mathhammer.wh40k.scenario.model.Scenario`;
- :mod:`.evaluate`: the value of a set of orders, exactly (target by target) or by Monte Carlo
  with common random numbers;
- :mod:`.search`: enumeration when the sets of orders are few, greedy + local search when not;
- :mod:`.branch_bound`: exact spaces too large to enumerate, solved with proven bounds;
- :mod:`.result` (:class:`~.result.OptimiseResult`), :mod:`.api` (:func:`~.api.optimise`)
  and :mod:`.cli` (``mathhammer optimise``).
"""
