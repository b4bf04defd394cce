"""Dust Tactics: "Open fire!" attack statistics, exact and by Monte Carlo.

Layers: :mod:`~mathhammer.dust.profiles` (frozen value objects) and
:mod:`~mathhammer.dust.parse` (text and TOML) → :mod:`~mathhammer.dust.compile` (flat
arrays) → :mod:`~mathhammer.dust.kernels` (numba) and :mod:`~mathhammer.dust.exact_engine`
(rationals: one volley and exchanges' Markov chains) → :mod:`~mathhammer.dust.monte_carlo`
(kernel runs) → :mod:`~mathhammer.dust.api` (core's contract, results, fire orders),
:mod:`~mathhammer.dust.exchanges`, :mod:`~mathhammer.dust.plans` (tables, the best fire orders)
and :mod:`~mathhammer.dust.comparisons` (tidy frames) → :mod:`~mathhammer.dust.cli`.
The public names below load lazily, so ``import mathhammer.dust`` stays quick.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names
from mathhammer.core.subjects import register_subject_lines

_LAZY = {
    "exact": "mathhammer.dust.api",
    "simulate": "mathhammer.dust.api",
    "fire_orders": "mathhammer.dust.api",
    "exact_pmfs": "mathhammer.dust.api",
    "losses_table": "mathhammer.dust.plans",
    "exchange": "mathhammer.dust.exchanges",
    "Combatant": "mathhammer.dust.exchanges",
    "effective_probability": "mathhammer.dust.api",
    "dice_to_kill": "mathhammer.dust.api",
    "pool_after_losses": "mathhammer.dust.exchanges",
    "compare": "mathhammer.dust.comparisons",
    "sweep": "mathhammer.dust.comparisons",
    "weapon_breakdown": "mathhammer.dust.plans",
    "best_fire_orders": "mathhammer.dust.plans",
    "removal_order": "mathhammer.dust.exchanges",
    "count_successes": "mathhammer.dust.profiles",
    "apply_damage": "mathhammer.dust.profiles",
    "Casualties": "mathhammer.dust.profiles",
    "parse_weapon": "mathhammer.dust.parse",
    "parse_weapons": "mathhammer.dust.parse",
    "parse_target": "mathhammer.dust.parse",
    "load_units": "mathhammer.dust.parse",
    "load_unit": "mathhammer.dust.parse",
    "Cell": "mathhammer.dust.profiles",
    "WeaponLine": "mathhammer.dust.profiles",
    "Weapon": "mathhammer.dust.profiles",
    "Target": "mathhammer.dust.profiles",
    "Unit": "mathhammer.dust.profiles",
    "ModelGroup": "mathhammer.dust.profiles",
    "Rules": "mathhammer.dust.profiles",
}

#: Old names ("plan" is kept for a compiled plan): they answer for one release with a
#: DeprecationWarning naming the new one.
_MOVED = {"fire_plan": "mathhammer.dust.fire_orders",
          "best_fire_plan": "mathhammer.dust.best_fire_orders"}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY, _MOVED)

# A Dust result's subject: its weapon lines against its target line (an exchange names its
# own ``subject``).
register_subject_lines("dust", lambda inputs: (inputs.get("weapons"), inputs.get("target")))
