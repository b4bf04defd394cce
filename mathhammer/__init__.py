"""mathhammer: what does this unit actually do to that one?

Exact and Monte Carlo attack statistics for Warhammer 40,000 (11th edition), Warmachine MkIV
and Dust Tactics. The public API is loaded lazily so ``import mathhammer`` stays quick.

The top level holds what every game shares, the three games and a short set of 40k
shortcuts:

- the games: :mod:`mathhammer.wh40k`, :mod:`mathhammer.warmachine`, :mod:`mathhammer.dust`
  (each with ``simulate``, ``exact``, ``compare``, ``sweep``, ``parse_weapon``,
  ``parse_target``), and :mod:`mathhammer.charts`;
- shared: :class:`DiceExpr`, :class:`Result`, :class:`Distribution`, :class:`Comparison`
  (what ``compare(..., keep_results=True)`` returns), the errors
  (:class:`MathhammerError`, :class:`ProfileError`, :class:`OptionError`,
  :class:`UnknownNameError`, :class:`UnsupportedError`), :func:`warmup`,
  :func:`allow_long_runs`;
- 40k shortcuts (``mh.simulate`` is ``mh.wh40k.simulate``): :func:`simulate`, :func:`exact`,
  :func:`compare`, :func:`sweep`, :func:`parse_weapon`, :func:`parse_target`, ``targets``,
  :func:`run`, :func:`parse_scenario`, :func:`load_scenario`, :func:`optimise`,
  :func:`load_roster`, :class:`Roster`, ``datasheets``.

40k's profiles, scenario parts and options (``Weapon``, ``Rules``, ``Scenario``,
``Objective``...) live in :mod:`mathhammer.wh40k`; the names they had here still answer for
one release, with a DeprecationWarning naming that home.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names

__version__ = "0.1.0"

#: The games and the charts, served as the package's own subpackages.
_GAMES = {"wh40k": "mathhammer.wh40k", "warmachine": "mathhammer.warmachine",
          "dust": "mathhammer.dust", "charts": "mathhammer.charts"}

_LAZY = {
    **_GAMES,
    # shared by every game
    "DiceExpr": "mathhammer.core.dice",
    "Result": "mathhammer.core.result",
    "Distribution": "mathhammer.core.result",
    "Comparison": "mathhammer.core.comparison",
    "MathhammerError": "mathhammer.errors",
    "ProfileError": "mathhammer.errors",
    "OptionError": "mathhammer.errors",
    "UnknownNameError": "mathhammer.errors",
    "UnsupportedError": "mathhammer.errors",
    "warmup": "mathhammer.precompile",
    "allow_long_runs": "mathhammer.core.limits",
    # the documented 40k shortcuts
    "simulate": "mathhammer.wh40k.api",
    "exact": "mathhammer.wh40k.api",
    "compare": "mathhammer.wh40k.comparisons",
    "sweep": "mathhammer.wh40k.comparisons",
    "parse_weapon": "mathhammer.wh40k.parse",
    "parse_target": "mathhammer.wh40k.targets",
    "targets": "mathhammer.wh40k.targets",
    "run": "mathhammer.wh40k.scenario.api",
    "parse_scenario": "mathhammer.wh40k.scenario.reader",
    "load_scenario": "mathhammer.wh40k.scenario.reader",
    "optimise": "mathhammer.wh40k.optimise.api",
    "load_roster": "mathhammer.wh40k.roster.api",
    "Roster": "mathhammer.wh40k.roster.api",
    "datasheets": "mathhammer.wh40k.bsdata.index",
}

#: Names the top level served before (40k's under generic names, a reader not named
#: ``load_*``): their spelling now. They answer for one release with a DeprecationWarning.
_MOVED = {
    **{name: f"mathhammer.wh40k.{name}" for name in (
        "Weapon", "TargetProfile", "Situation", "Modifiers", "Rules", "Objective",
        "run_scripted", "ScenarioResult", "Scenario", "ScenarioRules", "Activation",
        "WeaponChoice", "Unit", "ModelGroup", "CarriedWeapon", "attach", "Datasheet")},
    "ScenarioError": "mathhammer.errors.ScenarioError",
    "RosterError": "mathhammer.errors.RosterError",
    "roster": "mathhammer.load_roster",
}

__all__ = sorted(name for name in _LAZY if name not in _GAMES)


__getattr__, __dir__ = lazy_names(__name__, _LAZY, _MOVED)

from mathhammer.report.labels import add_label_source  # noqa: E402  (stdlib only)

add_label_source("mathhammer.wh40k.metric_words")  # words of saved grids in any process

from mathhammer.core.drawing import use_charts  # noqa: E402  (stdlib only)

use_charts("mathhammer.charts.methods")  # what results' and comparisons' .plot() draw with

from mathhammer.core.writing import use_writer  # noqa: E402  (stdlib only)

use_writer("mathhammer.report.results")  # what writes results' text, tables and HTML
