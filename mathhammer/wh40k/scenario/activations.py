"""What one activation asks for: a unit, a phase, targets and weapon choices (model layer).

:class:`Activation` and :class:`WeaponChoice` are what a scenario file or the Python API
says; :class:`Attack` is what :mod:`.selection` makes of them under 04.01 and 04.02.
Standard library only, plain validation only.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.profiles import Modifiers, Situation, Weapon

Phase = Literal["shooting", "fight", "overwatch"]
PHASES = ("shooting", "fight", "overwatch")


@dataclass(frozen=True, slots=True)
class WeaponChoice:
    """One entry of an activation's ``weapons`` list.

    Parameters
    ----------
    name
        A weapon name, or a profile name of a multi-profile weapon.
    target
        Target unit for this weapon (default: the activation's target).
    split
        Melee split (04.03.02): attacks per model sent to each named target, e.g.
        ``(("Boyz", 2), ("Gretchin", 1))``; must add up to the weapon's A.
    models
        Only this model group uses the weapon (default: every group that carries it).
    count
        Up to this many models of the group fire this profile (default: every model). The
        group's other models fire the same weapon with the profile of another choice of it
        without a count, or else the weapon's first profile not chosen with a count.
        Counted choices of one weapon stack in the order listed and are filled first when
        models have died. A count is models, not weapons: a model carrying ``2x`` fires
        both with the profile it was given.

    Examples
    --------
    Two of five marines supercharge, the other three fire the standard profile:

    >>> WeaponChoice("Plasma gun - supercharge", count=2, models="Marine").count
    2
    """

    name: str
    target: str | None = None
    split: tuple[tuple[str, int], ...] = ()
    models: str | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        _check_texts(self, ("name",), ("target", "models"), "a weapon choice")
        if not isinstance(self.split, tuple) or not all(
                isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str)
                and isinstance(p[1], int) and not isinstance(p[1], bool) for p in self.split):
            raise ScenarioError(f"weapon '{self.name}': split = {self.split!r:.60} must be "
                                "pairs (unit name, attacks per model)", token=self.name)
        if self.count is None:
            return
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ScenarioError(f"weapon '{self.name}': count = {self.count!r} must be a whole "
                                "number of models, at least 1 (leave it out for every model)",
                                token=self.name)
        if self.split:
            raise ScenarioError(f"weapon '{self.name}': count = {self.count} cannot be combined "
                                "with split (a split sends every model's attacks); use one or "
                                "the other", token=self.name)


@dataclass(frozen=True, slots=True)
class Activation:
    """One unit making attacks: a shooting phase, a fight, or an out-of-phase overwatch.

    ``precision_pick``, when given, overrides the scenario's
    :attr:`~mathhammer.wh40k.scenario.model.ScenarioRules.precision_pick` for this
    activation's [PRECISION] attacks. ``buffs`` are the activation's named buffs
    (:class:`~mathhammer.wh40k.buffs.Buff`), applied to its attacks and modifiers when the
    scenario selects them; ``unbuffed`` keeps the (situation, modifiers) they were applied to,
    so a scenario built again from its own activations (``dataclasses.replace(scenario,
    rounds=...)``, the optimiser's orders) applies them once, not twice.
    """

    phase: Phase
    attacker: str
    target: str | None = None
    weapons: tuple[WeaponChoice, ...] = ()
    situation: Situation = Situation()
    modifiers: Modifiers = Modifiers()
    order: tuple[str, ...] = ()
    label: str = ""
    precision_pick: str | None = None
    buffs: tuple[object, ...] = ()
    unbuffed: tuple[Situation, Modifiers] | None = dataclasses.field(default=None,
                                                                    compare=False, repr=False)

    def __post_init__(self) -> None:
        _check_texts(self, ("phase", "attacker", "label"), ("target", "precision_pick"),
                     "an activation")
        _check_kinds(self)
        if self.phase not in PHASES:
            raise ScenarioError(f"phase '{self.phase}' must be one of {', '.join(PHASES)}",
                                token=self.phase)
        if self.phase == "overwatch" and not self.situation.overwatch:
            object.__setattr__(self, "situation",
                               dataclasses.replace(self.situation, overwatch=True))
        if not self.label:
            verb = {"shooting": "shoots", "fight": "fights", "overwatch": "fires overwatch at"}
            target = f" {self.target}" if self.target else ""
            object.__setattr__(self, "label", f"{self.attacker} {verb[self.phase]}{target}")


@dataclass(frozen=True, slots=True)
class Attack:
    """A selected weapon profile, used by the models of one model group, at one target.

    Of the group's models still alive, the first ``models_skipped`` fire other profiles of
    the weapon and at most ``models_cap`` of the rest fire this one (``None``: all of them);
    both are 0 / ``None`` unless a :class:`WeaponChoice` has a ``count``.
    """

    group: str
    weapon: Weapon          # the chosen profile, count 1
    per_model: int          # how many of these weapons each model carries
    target: str
    split_attacks: int | None = None  # attacks per model when a melee weapon is split
    models_skipped: int = 0
    models_cap: int | None = None


def _check_texts(obj: object, required: tuple[str, ...], optional: tuple[str, ...],
                 what: str) -> None:
    """Refuse a field of ``obj`` that is not text (a name of 5 or ["B"] would fail deep in
    the engine, or silently become '5')."""
    for name in required + optional:
        value = getattr(obj, name)
        if not (isinstance(value, str) or (value is None and name in optional)):
            raise ScenarioError(f"{what}: {name} = {value!r:.60} must be text (a name)",
                                token=name)


def _check_kinds(act: Activation) -> None:
    """The weapons, order, situation and modifiers of an activation are of the right kind."""
    if not isinstance(act.weapons, tuple) or not all(isinstance(w, WeaponChoice)
                                                      for w in act.weapons):
        raise ScenarioError(f"activation '{act.attacker}': weapons = {act.weapons!r:.60} must "
                            "be a tuple of WeaponChoice")
    if not isinstance(act.order, tuple) or not all(isinstance(n, str) for n in act.order):
        raise ScenarioError(f"activation '{act.attacker}': order = {act.order!r:.60} must be a "
                            "tuple of weapon names")
    for name, kind in (("situation", Situation), ("modifiers", Modifiers)):
        if not isinstance(getattr(act, name), kind):
            raise ScenarioError(f"activation '{act.attacker}': {name} must be a "
                                f"{kind.__name__}, not {getattr(act, name)!r:.60}")
