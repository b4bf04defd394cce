"""Words for the 40k comparison metrics (stdlib only, quick to import).

Registered as a label source by :mod:`mathhammer` itself, so a tidy frame read back from a
CSV in a new Python process is labelled in words ("expected wounds lost") without importing
:mod:`mathhammer.wh40k.comparisons` first.
"""

from __future__ import annotations

METRIC_LABELS = {
    "expected_damage": "expected wounds lost",
    "expected_models_destroyed": "expected models destroyed",
    "p_unit_destroyed": "P(unit destroyed)",
    "expected_attacker_mortal_wounds": "expected hazard mortal wounds (attacker)",
    "damage_per_100pts": "wounds lost per 100 points",
    "models_destroyed_per_100pts": "models destroyed per 100 points",
}
