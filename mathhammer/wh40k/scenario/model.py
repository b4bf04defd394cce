"""Scenarios: the units on the table, activations in sequence, battle rounds (model layer).

A :class:`Scenario` holds the units and a list of :class:`Activation` s (a unit shoots,
fights, or fires overwatch at one or more targets), repeated for ``rounds`` battle rounds.
Building one checks it against 04.01 (Select Weapons) and 04.02 (Select Targets) through
:mod:`.selection`, once, and keeps the selected attacks in :attr:`Scenario.attacks`.
Scenario files are read by :mod:`.reader`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mathhammer.errors import ScenarioError, did_you_mean
from mathhammer.wh40k.profiles import Rules
from mathhammer.wh40k.scenario.activations import PHASES, Activation, Attack, Phase, WeaponChoice
from mathhammer.wh40k.scenario.selection import infer_sides, select_attacks
from mathhammer.wh40k.scenario.units import Unit

#: Most battle rounds a scenario may repeat (a game has five).
MAX_ROUNDS = 100

__all__ = ["MAX_ROUNDS", "PHASES", "Activation", "Attack", "Phase", "Scenario", "WeaponChoice"]


@dataclass(frozen=True)
class Scenario:
    """Units, an activation script and how many battle rounds to repeat it.

    Parameters
    ----------
    units
        Unit name to :class:`Unit` (attached units already formed).
    activations
        Resolved in order, every battle round.
    rounds
        How many times the activation list repeats.
    sides
        Unit name to side; a trial stops when one side is wiped out. Inferred from who
        attacks whom when not given.
    rules
        Engine switches (see :class:`~mathhammer.wh40k.profiles.Rules`).
    """

    units: dict[str, Unit]
    activations: tuple[Activation, ...]
    rounds: int = 1
    sides: dict[str, str] = field(default_factory=dict)
    rules: Rules = Rules()
    attacks: tuple[tuple[Attack, ...], ...] = field(default=(), init=False, compare=False,
                                                    repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) \
                or not 1 <= self.rounds <= MAX_ROUNDS:
            raise ScenarioError(f"rounds = {self.rounds!r}: a scenario repeats its activations "
                                f"for a whole number of rounds from 1 to {MAX_ROUNDS}")
        if not self.activations:
            raise ScenarioError("the scenario has no activations: add [[activations]]")
        for activation in self.activations:
            for name in (activation.attacker, activation.target):
                if name is not None and name not in self.units:
                    raise ScenarioError(f"unknown unit '{name}'"
                                        f"{did_you_mean(name, self.units)} (activation "
                                        f"'{activation.label}')")
        attacks = tuple(tuple(select_attacks(self.units, a)) for a in self.activations)
        object.__setattr__(self, "attacks", attacks)
        if not self.sides:
            object.__setattr__(self, "sides", infer_sides(self.units, self.activations, attacks))
        missing = [u for u in self.units if u not in self.sides]
        if missing:
            raise ScenarioError(f"unit '{missing[0]}' has no side; give every unit a side or "
                                "none")
