"""Scenarios: the units on the table, activations in sequence, battle rounds (model layer).

A :class:`Scenario` holds the units and a list of :class:`Activation` s (a unit shoots,
fights, or fires overwatch at one or more targets), repeated for ``rounds`` battle rounds.
Building one checks it against 04.01 (Select Weapons) and 04.02 (Select Targets) through
:mod:`.selection`, once, and keeps the selected attacks in :attr:`Scenario.attacks`.
Scenario files are read by :mod:`.reader`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from mathhammer.errors import MathhammerError, OptionError, ScenarioError, did_you_mean
from mathhammer.wh40k.profiles import Modifiers, Rules
from mathhammer.wh40k.scenario.activations import PHASES, Activation, Attack, Phase, WeaponChoice
from mathhammer.wh40k.scenario.selection import infer_sides, select_attacks
from mathhammer.wh40k.scenario.units import Unit

#: Most battle rounds a scenario may repeat (a game has five).
MAX_ROUNDS = 100
#: Most activations a scenario may list (a battle round has a few dozen; each is compiled and
#: checked, so an unbounded list would only turn a typo into minutes of waiting).
MAX_ACTIVATIONS = 1_000

#: ``ScenarioRules.retarget_on_destroyed`` values.
RETARGET_CHOICES = ("lost", "retarget")
#: ``precision_pick`` policies; any other value names a CHARACTER model group.
PRECISION_POLICIES = ("best", "first")

#: Choices an activation may leave open besides the :class:`Modifiers` fields (rule switches
#: the engine applies to a whole scenario).
RULE_CHOICES = ("lethal_policy",)

__all__ = ["MAX_ACTIVATIONS", "MAX_ROUNDS", "PHASES", "PRECISION_POLICIES", "RETARGET_CHOICES",
           "RULE_CHOICES", "Activation", "Attack", "OpenChoices", "Phase", "Scenario",
           "ScenarioRules", "WeaponChoice", "check_precision_pick"]


@dataclass(frozen=True)
class ScenarioRules:
    """Switches of the whole-unit engine only (spec section 10); a scenario file gives them
    in its ``[rules]`` table beside the :class:`~mathhammer.wh40k.profiles.Rules` switches.
    Single-target entry points (``mh.simulate``, ``mh.exact``, compare) have one target and
    no allocation between CHARACTER groups, so they do not take these.

    Parameters
    ----------
    retarget_on_destroyed
        A weapon whose target was destroyed before it gathered its dice (before the
        activation or by an earlier batch of it, 04.03.03): ``lost`` (default; UNCERTAIN in
        the spec) or ``retarget``: its attacks go to the first still-standing unit among
        the activation's other targets (in the order the activation names them), then, when
        shooting or firing overwatch, the other enemy units in file order (a fight knows
        only its own targets to be in engagement range). Hunter profiles only go to units
        with one of their keywords; a split melee weapon does not retarget. A retargeted
        weapon is resolved as a batch of its own, not merged with a batch already aimed at
        its new target; its [BLAST]/[CLEAVE] count the new target's models at the start of
        the activation; a retargeted [HAZARDOUS] weapon was used, so it rolls.
    precision_pick
        Which CHARACTER group [PRECISION] makes current (24.28): ``best`` (default): the one
        worth most to the attacker per wound left, the highest points per model divided by
        the wounds left on its model (with no points for the target's CHARACTERs: the fewest
        wounds left), ties in allocation order; ``first``: the first CHARACTER group in the
        batch's allocation order; or the name of a CHARACTER model group: that group while
        it is alive in the target, else ``best``. An activation may override it.
    """

    retarget_on_destroyed: str = "lost"
    precision_pick: str = "best"

    def __post_init__(self) -> None:
        if self.retarget_on_destroyed not in RETARGET_CHOICES:
            raise ScenarioError(f"retarget_on_destroyed = {self.retarget_on_destroyed!r}: use "
                                f"one of {', '.join(RETARGET_CHOICES)}",
                                token="retarget_on_destroyed")
        check_precision_pick_kind(self.precision_pick)


def check_precision_pick_kind(value: object) -> None:
    """Refuse a ``precision_pick`` that is not a non-empty string."""
    if not isinstance(value, str) or not value.strip():
        raise ScenarioError(f"precision_pick = {value!r}: use one of "
                            f"{', '.join(PRECISION_POLICIES)} or the name of a CHARACTER "
                            "model group", token="precision_pick")


def check_precision_pick(units: dict[str, Unit], value: str) -> None:
    """A ``precision_pick`` is a policy or the name of a CHARACTER model group of a unit.

    Raises
    ------
    ScenarioError
        Naming the token, the allowed values and the nearest CHARACTER group name.
    """
    check_precision_pick_kind(value)
    if value in PRECISION_POLICIES:
        return
    characters = {g.name for u in units.values() for g in u.groups if g.is_character}
    if value.lower() in {n.lower() for n in characters}:
        return
    listed = ", ".join(sorted(characters)) or "none in this scenario"
    raise ScenarioError(f"precision_pick = '{value}': use {', '.join(PRECISION_POLICIES)} or "
                        f"the name of a CHARACTER model group ({listed})"
                        f"{did_you_mean(value, characters | set(PRECISION_POLICIES))}",
                        token=value)


@dataclass(frozen=True)
class OpenChoices:
    """What one activation leaves to the decision optimiser (:mod:`mathhammer.wh40k.optimise`).

    ``run`` resolves the activation as written (at its ``target``, with its own modifiers);
    only the optimiser reads these.

    Parameters
    ----------
    targets
        Candidate target units (04.02: each weapon may pick one); the activation's
        ``target`` must be one of them. Empty: the target is fixed.
    options
        ``(name, candidates)`` pairs: a :class:`~mathhammer.wh40k.profiles.Modifiers` field
        the player chooses (``reroll_hits``, ``reroll_wounds``, ``command_reroll``...) or a
        name of :data:`RULE_CHOICES` (one value for the whole scenario), and the values to
        choose from.
    """

    targets: tuple[str, ...] = ()
    options: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def check(self, units: dict[str, Unit], activation: Activation) -> None:
        """Refuse unknown or repeated candidate targets and impossible option values."""
        try:
            self._check(units, activation)
        except ScenarioError as exc:
            raise exc.about(activation.label) from None

    def _check(self, units: dict[str, Unit], activation: Activation) -> None:
        where = f"activation '{activation.label}'"
        if not isinstance(self.targets, tuple) or not all(isinstance(t, str)
                                                          for t in self.targets):
            raise ScenarioError(f"{where}: targets = {self.targets!r:.60} must be unit names",
                                token="targets")
        for name in self.targets:
            if name not in units:
                raise ScenarioError(f"{where}: unknown unit '{name}' in targets"
                                    f"{did_you_mean(name, units)}", token=name)
            if name == activation.attacker:
                raise ScenarioError(f"{where}: '{name}' cannot target itself: remove it from "
                                    "targets", token=name)
        if len(set(self.targets)) != len(self.targets):
            twice = next(t for t in self.targets if self.targets.count(t) > 1)
            raise ScenarioError(f"{where}: targets names '{twice}' twice: list each unit once",
                                token=twice)
        if self.targets and activation.target not in self.targets:
            raise ScenarioError(f"{where}: its target '{activation.target}' is not one of its "
                                f"candidate targets ({', '.join(self.targets)})",
                                token=activation.target)
        fields = {f.name for f in dataclasses.fields(Modifiers)}
        for name, candidates in self.options:
            if name not in fields and name not in RULE_CHOICES:
                raise ScenarioError(f"{where}: cannot choose '{name}'"
                                    f"{did_you_mean(name, fields | set(RULE_CHOICES))}; "
                                    "choose a modifier (reroll_hits, reroll_wounds, "
                                    "command_reroll, ...) or lethal_policy", token=name)
            if not isinstance(candidates, tuple) or not candidates:
                raise ScenarioError(f"{where}: choose {name} = {candidates!r:.60} must be a "
                                    "non-empty list of values", token=name)
            for value in candidates:
                try:
                    if name in RULE_CHOICES:
                        Rules(**{name: value})
                    else:
                        dataclasses.replace(activation.modifiers, **{name: value})
                except MathhammerError as exc:
                    raise ScenarioError(f"{where}: choose {name}: {exc}", token=name) from None


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
    switches
        The whole-unit engine's own switches (:class:`ScenarioRules`).
    origins
        Where each activation was written (``"FILE:LINE"``), when the scenario was read from
        a file: errors found later, when the scenario is compiled, name that place.
    open_choices
        Empty, or one :class:`OpenChoices` per activation: what the decision optimiser may
        choose (``run`` ignores them).
    """

    units: dict[str, Unit]
    activations: tuple[Activation, ...]
    rounds: int = 1
    sides: dict[str, str] = field(default_factory=dict)
    rules: Rules = Rules()
    switches: ScenarioRules = ScenarioRules()
    origins: tuple[str, ...] = field(default=(), compare=False, repr=False)
    open_choices: tuple[OpenChoices, ...] = ()
    attacks: tuple[tuple[Attack, ...], ...] = field(default=(), init=False, compare=False,
                                                    repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.rounds, bool) or not isinstance(self.rounds, int) \
                or not 1 <= self.rounds <= MAX_ROUNDS:
            raise ScenarioError(f"rounds = {self.rounds!r}: a scenario repeats its activations "
                                f"for a whole number of rounds from 1 to {MAX_ROUNDS}")
        if not self.activations:
            raise ScenarioError("the scenario has no activations: add [[activations]]")
        if len(self.activations) > MAX_ACTIVATIONS:
            raise ScenarioError(f"{len(self.activations):,} activations: a scenario lists at "
                                f"most {MAX_ACTIVATIONS:,}; split it into several scenarios")
        for activation in self.activations:
            for name in (activation.attacker, activation.target):
                if name is not None and name not in self.units:
                    raise ScenarioError(f"unknown unit '{name}'"
                                        f"{did_you_mean(name, self.units)} (activation "
                                        f"'{activation.label}')", token=name,
                                        activation=activation.label)
        if not isinstance(self.switches, ScenarioRules):
            raise ScenarioError(f"switches = {self.switches!r:.60}: give a ScenarioRules, e.g. "
                                "ScenarioRules(retarget_on_destroyed='retarget')")
        for pick in [self.switches.precision_pick] + [
                a.precision_pick for a in self.activations if a.precision_pick is not None]:
            check_precision_pick(self.units, pick)
        self._check_open_choices()
        attacks = tuple(tuple(_selected(self.units, a)) for a in self.activations)
        if any(a.buffs for a in self.activations):
            from mathhammer.wh40k.buffs import buffed_activations

            activations, attacks = buffed_activations(self.units, self.activations, attacks)
            object.__setattr__(self, "activations", activations)
        object.__setattr__(self, "attacks", attacks)
        if not self.sides:
            object.__setattr__(self, "sides", infer_sides(self.units, self.activations, attacks))
        missing = [u for u in self.units if u not in self.sides]
        if missing:
            raise ScenarioError(f"unit '{missing[0]}' has no side; give every unit a side or "
                                "none", token=missing[0])

    def _check_open_choices(self) -> None:
        if not isinstance(self.open_choices, tuple) or not all(
                isinstance(c, OpenChoices) for c in self.open_choices):
            raise ScenarioError(f"open_choices = {self.open_choices!r:.60} must be a tuple of "
                                "OpenChoices")
        if self.open_choices and len(self.open_choices) != len(self.activations):
            raise ScenarioError(f"open_choices gives {len(self.open_choices)} entries for "
                                f"{len(self.activations)} activations: give one per activation")
        for choices, activation in zip(self.open_choices, self.activations):
            choices.check(self.units, activation)

    def locate(self, error: MathhammerError) -> MathhammerError:
        """``error`` said at ``FILE:LINE`` of the activation it concerns, when known (a
        scenario read from a file knows where each activation was written). It reads the
        error's :attr:`~mathhammer.errors.MathhammerError.activation`, never its message."""
        if not isinstance(error, MathhammerError):
            raise OptionError(f"locate takes a MathhammerError (its activation field), not "
                              f"{type(error).__name__} {error!r:.40}")
        for activation, origin in zip(self.activations, self.origins):
            if error.activation is not None and activation.label == error.activation:
                return error.located(origin)
        return error


def _selected(units: dict[str, Unit], activation: Activation) -> list[Attack]:
    """:func:`select_attacks`, its refusals marked as concerning ``activation``."""
    try:
        return select_attacks(units, activation)
    except ScenarioError as exc:
        raise exc.about(activation.label) from None
