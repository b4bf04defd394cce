"""Warmachine MkIV attack statistics, exact and by Monte Carlo.

Public API (loaded lazily so the command line starts quickly):

- :func:`exact`, :func:`simulate`: a sequence of attack lines against one or more target units.
- :func:`compare`, :func:`sweep`: every attacker against every target (over the values of
  one rule switch), the tidy frame of every game.
- :func:`compare_focus`, :func:`focus_policies`, :class:`FocusPolicy`: rank focus/fury spends
  (:func:`focus_frame`: the same cells as a tidy frame).
- :func:`attacks_to_kill`: how many attacks it takes to destroy a target.
- :class:`Attack`, :class:`Target`, :class:`Rules`: profiles and rule switches
  (``parse_attack("3x Battle hammer: MAT7 POW16 [CHARGE]")``).
- :data:`targets`, :func:`load_targets`, :func:`resolve_target`: reference targets
  (``targets["HEAVY_JACK"]``; a name such as ``"3x LIGHT_JACK"`` works wherever a target line
  does), from ``data/targets.toml`` plus your own TOML files.
- :func:`mark_lanes`: where damage lands on a warjack grid or warbeast spiral.
- :func:`attack_roll_counts`, :func:`damage_pmf`: single rolls, exactly.

Rules reference: ``docs/warmachine.md``.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names
from mathhammer.core.subjects import register_subject_lines

_LAZY = {
    "exact": "mathhammer.warmachine.api",
    "simulate": "mathhammer.warmachine.api",
    "plan": "mathhammer.warmachine.api",
    "compare": "mathhammer.warmachine.comparisons",
    "sweep": "mathhammer.warmachine.comparisons",
    "compare_focus": "mathhammer.warmachine.policies",
    "focus_frame": "mathhammer.warmachine.policies",
    "focus_policies": "mathhammer.warmachine.policies",
    "FocusPolicy": "mathhammer.warmachine.policies",
    "attacks_to_kill": "mathhammer.warmachine.policies",
    "Attack": "mathhammer.warmachine.profiles",
    "parse_attack": "mathhammer.warmachine.parse",
    "parse_target": "mathhammer.warmachine.parse",
    "format_attack": "mathhammer.warmachine.parse",
    "format_target": "mathhammer.warmachine.parse",
    "Target": "mathhammer.warmachine.profiles",
    "Rules": "mathhammer.warmachine.profiles",
    "targets": "mathhammer.warmachine.reference_targets",
    "load_targets": "mathhammer.warmachine.reference_targets",
    "resolve_target": "mathhammer.warmachine.reference_targets",
    "mark_lanes": "mathhammer.warmachine.grid",
    "attack_roll_counts": "mathhammer.warmachine.rolls",
    "damage_pmf": "mathhammer.warmachine.rolls",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)

# A Warmachine result's subject: its attack lines (one ``attack`` for a policy's attacks to
# destroy) against its target lines.
register_subject_lines("warmachine", lambda inputs: (
    inputs.get("attacks") or inputs.get("attack"), inputs.get("targets")))
