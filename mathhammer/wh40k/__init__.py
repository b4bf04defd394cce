"""Warhammer 40,000 (11th and 10th edition) attack statistics, exact and by Monte Carlo.

The same calls as :mod:`mathhammer.warmachine` and :mod:`mathhammer.dust` (see the user
guide's "One shape for every game"), loaded lazily so the command line starts quickly:

- :func:`exact`, :func:`simulate`: one unit's weapons against one target.
- :func:`compare`, :func:`sweep`, :func:`results`: every attacker against every target (over
  the values of one parameter), the tidy frame of every game; ``method="auto"`` by default.
- :func:`run`: whole units, activations and battle rounds from a scenario.
- :func:`parse_weapon`, :func:`parse_target`, :class:`Weapon`, :class:`TargetProfile`,
  :class:`Situation`, :class:`Modifiers`, :class:`Rules`: lines, profiles and rule switches.

``import mathhammer as mh`` serves the same 40k names at the top level (``mh.simulate``,
``mh.compare``...) plus army lists (``mh.roster``), decisions (``mh.optimise``) and units by
name (``mh.datasheets``). Engines live in :mod:`~mathhammer.wh40k.exact_engine` and
:mod:`~mathhammer.wh40k.monte_carlo`; whole units in :mod:`~mathhammer.wh40k.scenario`.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names

_LAZY = {
    "simulate": "mathhammer.wh40k.api",
    "exact": "mathhammer.wh40k.api",
    "compare": "mathhammer.wh40k.comparisons",
    "sweep": "mathhammer.wh40k.comparisons",
    "results": "mathhammer.wh40k.comparisons",
    "run": "mathhammer.wh40k.scenario.api",
    "parse_weapon": "mathhammer.wh40k.parse",
    "parse_target": "mathhammer.wh40k.targets",
    "Weapon": "mathhammer.wh40k.profiles",
    "TargetProfile": "mathhammer.wh40k.profiles",
    "Situation": "mathhammer.wh40k.profiles",
    "Modifiers": "mathhammer.wh40k.profiles",
    "Rules": "mathhammer.wh40k.profiles",
    "optimise": "mathhammer.wh40k.optimise.api",
    "Objective": "mathhammer.wh40k.optimise.objectives",
    "SearchOptions": "mathhammer.wh40k.optimise.settings",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
