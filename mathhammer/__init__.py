"""mathhammer: what does this unit actually do to that one?

Exact and Monte Carlo attack statistics for Warhammer 40,000 (11th edition), Warmachine MkIV
and Dust Tactics. The public API is loaded lazily so ``import mathhammer`` stays quick.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__version__ = "0.1.0"

_LAZY = {
    "simulate": "mathhammer.wh40k.api",
    "exact": "mathhammer.wh40k.api",
    "parse_weapon": "mathhammer.wh40k.parse",
    "parse_target": "mathhammer.wh40k.parse",
    "Weapon": "mathhammer.wh40k.profiles",
    "TargetProfile": "mathhammer.wh40k.profiles",
    "Situation": "mathhammer.wh40k.profiles",
    "Modifiers": "mathhammer.wh40k.profiles",
    "Rules": "mathhammer.wh40k.profiles",
    "targets": "mathhammer.wh40k.targets",
    "run": "mathhammer.wh40k.scenario_api",
    "run_scripted": "mathhammer.wh40k.scenario_api",
    "ScenarioResult": "mathhammer.wh40k.scenario_api",
    "load_scenario": "mathhammer.wh40k.scenario",
    "parse_scenario": "mathhammer.wh40k.scenario",
    "Scenario": "mathhammer.wh40k.scenario",
    "Activation": "mathhammer.wh40k.scenario",
    "WeaponChoice": "mathhammer.wh40k.scenario",
    "Unit": "mathhammer.wh40k.units",
    "ModelGroup": "mathhammer.wh40k.units",
    "CarriedWeapon": "mathhammer.wh40k.units",
    "attach": "mathhammer.wh40k.units",
    "ScenarioError": "mathhammer.errors",
    "compare": "mathhammer.compare",
    "sweep": "mathhammer.compare",
    "DiceExpr": "mathhammer.core.dice",
    "Result": "mathhammer.core.result",
    "Distribution": "mathhammer.core.result",
    "MathhammerError": "mathhammer.errors",
    "ProfileError": "mathhammer.errors",
    "OptionError": "mathhammer.errors",
    "UnsupportedError": "mathhammer.errors",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mathhammer' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
