"""Select Weapons (04.01): which weapons and profiles a model group may attack with in a
phase, written once for every caller.

The whole-unit engine (:mod:`~mathhammer.wh40k.scenario.selection`) takes the first choice
of each :class:`Slot` when an activation names no weapon, and checks the weapons it does
name against the same rules; the roster analysis
(:mod:`~mathhammer.wh40k.roster.analyse`) takes the choice with the highest expected damage
(or the first). The rules:

- **Shooting.** Every ranged weapon with a profile the shooting allows: in assault shooting
  (``advanced``, 10.05) only [ASSAULT] profiles; in indirect shooting (``indirect``, 10.07),
  which applies to every attack of the activation here, only [INDIRECT FIRE] profiles. A
  model that is not a MONSTER or VEHICLE fires its [PISTOL] / [CLOSE-QUARTERS] weapons only
  when it has no other ranged weapon it may fire (24.07): the two kinds never go together.
- **Fighting.** One melee weapon per model, any profile of any of its weapons without
  [EXTRA ATTACKS], plus every [EXTRA ATTACKS] weapon (24.11).

A weapon is classed (sidearm, [EXTRA ATTACKS]) by its first profile, as a datasheet lists it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.profiles import Situation, Weapon
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup

#: A weapon a model carries and the index of one of its profiles.
Choice = tuple[CarriedWeapon, int]
SlotKind = Literal["ranged", "melee", "extra attacks"]


@dataclass(frozen=True)
class Slot:
    """One weapon each model of a group attacks with: one of ``choices``.

    Attributes
    ----------
    kind
        ``"ranged"`` (one ranged weapon: its allowed profiles), ``"melee"`` (the model's one
        melee weapon: every profile of every melee weapon without [EXTRA ATTACKS]) or
        ``"extra attacks"`` (an [EXTRA ATTACKS] weapon: its profiles).
    choices
        The weapons and profiles allowed, in the order listed; the first is the default.
    """

    kind: SlotKind
    choices: tuple[Choice, ...]

    @property
    def default(self) -> Choice:
        """The choice made when none is named: the one listed first."""
        return self.choices[0]


def is_sidearm(profile: Weapon) -> bool:
    """A [PISTOL] or [CLOSE-QUARTERS] profile (the two are one rule, 24.07/24.27)."""
    return profile.has(ab.PISTOL) or profile.has(ab.CLOSE_QUARTERS)


def is_extra_attacks(profile: Weapon) -> bool:
    """A profile with [EXTRA ATTACKS] (24.11), used on top of the model's melee weapon."""
    return profile.has(ab.EXTRA_ATTACKS)


def allowed_in(profile: Weapon, situation: Situation) -> bool:
    """Whether the shooting of ``situation`` allows this ranged profile (10.05, 10.07)."""
    if situation.advanced and not profile.has(ab.ASSAULT):
        return False
    if situation.indirect and not profile.has(ab.INDIRECT_FIRE):
        return False
    return True


def weapon_slots(group: ModelGroup, phase: str,
                 situation: Situation | None = None) -> list[Slot]:
    """The weapons each model of ``group`` attacks with in ``phase``, one :class:`Slot` each.

    Parameters
    ----------
    group
        The model group.
    phase
        ``"fight"`` for melee weapons; any other phase shoots.
    situation
        The shooting's situation (``advanced``, ``indirect``); ignored in the fight.

    Returns
    -------
    list of Slot
        In the order the group lists its weapons (the melee slot before the [EXTRA ATTACKS]
        ones); empty when the group has no weapon for the phase.
    """
    if phase == "fight":
        return _fight_slots(group)
    return _shooting_slots(group, situation or Situation())


def _shooting_slots(group: ModelGroup, situation: Situation) -> list[Slot]:
    allowed = {id(w): tuple((w, i) for i, p in enumerate(w.profiles)
                            if allowed_in(p, situation))
               for w in group.weapons if not w.melee}
    ranged = [w for w in group.weapons if allowed.get(id(w))]
    others = [w for w in ranged if not is_sidearm(w.profiles[0])]
    if others and not group.is_monster_or_vehicle:
        ranged = others
    return [Slot("ranged", allowed[id(w)]) for w in ranged]


def _fight_slots(group: ModelGroup) -> list[Slot]:
    melee = [w for w in group.weapons if w.melee]
    main = [(w, i) for w in melee if not is_extra_attacks(w.profiles[0])
            for i in range(len(w.profiles))]
    slots = [Slot("melee", tuple(main))] if main else []
    return slots + [Slot("extra attacks", tuple((w, i) for i in range(len(w.profiles))))
                    for w in melee if is_extra_attacks(w.profiles[0])]


def mixes_sidearms(group: ModelGroup, profiles: list[Weapon]) -> bool:
    """Whether ``group`` would fire [PISTOL] / [CLOSE-QUARTERS] ``profiles`` together with
    its other ranged ones, which only a MONSTER or VEHICLE may (24.07)."""
    if group.is_monster_or_vehicle:
        return False
    return len({is_sidearm(p) for p in profiles}) > 1
