"""The whole-unit engine of Warhammer 40,000: units, activations and battle rounds.

Layers, each importing only those before it: :mod:`.units` (model groups, attached leaders,
allocation groups) and :mod:`.model` (Scenario, Activation, WeaponChoice and the TOML
reader) → :mod:`.compile` (flat arrays) → :mod:`.kernels` (numba) → :mod:`.api`
(``run``, ``ScenarioResult``) → :mod:`.cli` (``mathhammer run``).
"""
