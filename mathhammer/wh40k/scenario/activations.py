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
        if self.count is None:
            return
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise ScenarioError(f"weapon '{self.name}': count = {self.count!r} must be a whole "
                                "number of models, at least 1 (leave it out for every model)")
        if self.split:
            raise ScenarioError(f"weapon '{self.name}': count = {self.count} cannot be combined "
                                "with split (a split sends every model's attacks); use one or "
                                "the other")


@dataclass(frozen=True, slots=True)
class Activation:
    """One unit making attacks: a shooting phase, a fight, or an out-of-phase overwatch.

    ``precision_pick``, when given, overrides the scenario's
    :attr:`~mathhammer.wh40k.scenario.model.ScenarioRules.precision_pick` for this
    activation's [PRECISION] attacks.
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

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise ScenarioError(f"phase '{self.phase}' must be one of {', '.join(PHASES)}")
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
