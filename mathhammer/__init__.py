"""mathhammer: what does this unit actually do to that one?

Exact and Monte Carlo attack statistics for Warhammer 40,000 (11th edition), Warmachine MkIV
and Dust Tactics. The public API is loaded lazily so ``import mathhammer`` stays quick.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names

__version__ = "0.1.0"

_LAZY = {
    "simulate": "mathhammer.wh40k.api",
    "exact": "mathhammer.wh40k.api",
    "parse_weapon": "mathhammer.wh40k.parse",
    "parse_target": "mathhammer.wh40k.targets",
    "Weapon": "mathhammer.wh40k.profiles",
    "TargetProfile": "mathhammer.wh40k.profiles",
    "Situation": "mathhammer.wh40k.profiles",
    "Modifiers": "mathhammer.wh40k.profiles",
    "Rules": "mathhammer.wh40k.profiles",
    "targets": "mathhammer.wh40k.targets",
    "run": "mathhammer.wh40k.scenario.api",
    "optimise": "mathhammer.wh40k.optimise.api",
    "Objective": "mathhammer.wh40k.optimise.objectives",
    "run_scripted": "mathhammer.wh40k.scenario.api",
    "ScenarioResult": "mathhammer.wh40k.scenario.api",
    "load_scenario": "mathhammer.wh40k.scenario.reader",
    "parse_scenario": "mathhammer.wh40k.scenario.reader",
    "Scenario": "mathhammer.wh40k.scenario.model",
    "ScenarioRules": "mathhammer.wh40k.scenario.model",
    "Activation": "mathhammer.wh40k.scenario.activations",
    "WeaponChoice": "mathhammer.wh40k.scenario.activations",
    "Unit": "mathhammer.wh40k.scenario.units",
    "ModelGroup": "mathhammer.wh40k.scenario.units",
    "CarriedWeapon": "mathhammer.wh40k.scenario.units",
    "attach": "mathhammer.wh40k.scenario.units",
    "ScenarioError": "mathhammer.errors",
    "compare": "mathhammer.wh40k.comparisons",
    "roster": "mathhammer.wh40k.roster.api",
    "Roster": "mathhammer.wh40k.roster.api",
    "RosterError": "mathhammer.errors",
    "sweep": "mathhammer.wh40k.comparisons",
    "DiceExpr": "mathhammer.core.dice",
    "Result": "mathhammer.core.result",
    "Distribution": "mathhammer.core.result",
    "MathhammerError": "mathhammer.errors",
    "warmup": "mathhammer.precompile",
    "allow_long_runs": "mathhammer.core.limits",
    "datasheets": "mathhammer.wh40k.bsdata.index",
    "Datasheet": "mathhammer.wh40k.bsdata.index",
    "ProfileError": "mathhammer.errors",
    "OptionError": "mathhammer.errors",
    "UnsupportedError": "mathhammer.errors",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)

from mathhammer.report.labels import add_label_source  # noqa: E402  (stdlib only)

add_label_source("mathhammer.wh40k.metric_words")  # words of saved grids in any process

from mathhammer.core.drawing import use_charts  # noqa: E402  (stdlib only)

use_charts("mathhammer.charts.methods")  # what results' and comparisons' .plot() draw with
