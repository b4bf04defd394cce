"""The whole-unit engine of Warhammer 40,000: units, activations and battle rounds.

Layers, each importing only those before it:

- :mod:`.units` (model groups, attached leaders, allocation groups) and :mod:`.activations`
  (Activation, WeaponChoice, Attack): the model, plain validation only;
- :mod:`.selection`: Select Weapons (04.01) and Select Targets (04.02), and the sides;
- :mod:`.model`: :class:`~.model.Scenario`, which runs the selection once and keeps it;
- :mod:`.reader`: scenario TOML files;
- :mod:`.compile` (flat arrays, grouped for the kernel as ``ScenarioArrays``) →
  :mod:`.damage_steps` (allocation, saves, damage) → :mod:`.kernels` (the trial loop) →
  :mod:`.chunks` (threads, scratch state) → :mod:`.api` (``run``) and :mod:`.result`
  (``ScenarioResult``) → :mod:`.cli` (``mathhammer run``).
"""
