"""Dust Tactics: "Open fire!" attack statistics, exact and by Monte Carlo.

Layers: :mod:`~mathhammer.dust.model` (frozen value objects) and
:mod:`~mathhammer.dust.parse` (text and TOML) → :mod:`~mathhammer.dust.compile` (flat
arrays) → :mod:`~mathhammer.dust.kernels` (numba) and :mod:`~mathhammer.dust.exact`
(rationals) → :mod:`~mathhammer.dust.api` (results, tables) → :mod:`~mathhammer.dust.cli`.
The public names below load lazily, so ``import mathhammer.dust`` stays quick.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_LAZY = {
    "exact": "mathhammer.dust.api",
    "simulate": "mathhammer.dust.api",
    "fire_plan": "mathhammer.dust.api",
    "exact_pmfs": "mathhammer.dust.api",
    "losses_table": "mathhammer.dust.api",
    "exchange": "mathhammer.dust.api",
    "effective_probability": "mathhammer.dust.api",
    "dice_to_kill": "mathhammer.dust.api",
    "pool_after_losses": "mathhammer.dust.api",
    "compare": "mathhammer.dust.api",
    "weapon_breakdown": "mathhammer.dust.api",
    "best_fire_plan": "mathhammer.dust.api",
    "plot_pmfs": "mathhammer.dust.charts",
    "removal_order": "mathhammer.dust.api",
    "count_successes": "mathhammer.dust.model",
    "apply_damage": "mathhammer.dust.model",
    "Casualties": "mathhammer.dust.model",
    "parse_weapon": "mathhammer.dust.parse",
    "parse_weapons": "mathhammer.dust.parse",
    "parse_target": "mathhammer.dust.parse",
    "load_units": "mathhammer.dust.parse",
    "load_unit": "mathhammer.dust.parse",
    "Cell": "mathhammer.dust.model",
    "WeaponLine": "mathhammer.dust.model",
    "Weapon": "mathhammer.dust.model",
    "Target": "mathhammer.dust.model",
    "Unit": "mathhammer.dust.model",
    "ModelGroup": "mathhammer.dust.model",
    "Rules": "mathhammer.dust.model",
    "plot_losses": "mathhammer.dust.charts",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'mathhammer.dust' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
