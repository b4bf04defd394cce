"""The options of an army analysis, split and checked once, and read per cell: the fight
takes no shooting-only situation, the attacking unit's keywords and the target unit's own
defences change them (:class:`AnalysisOptions`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mathhammer.wh40k import api
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation

if TYPE_CHECKING:
    from mathhammer.wh40k.scenario.units import Unit

#: Situations that only the shooting phase has.
SHOOTING_ONLY = ("half_range", "indirect", "spotted", "overwatch", "advanced", "cover",
                 "stationary")


@dataclasses.dataclass(frozen=True)
class AnalysisOptions:
    """The analysis's situation, modifier and rule options, split and checked once.

    ``monster_vehicle`` is ``attacker_monster_vehicle`` as given, or None when not given (each
    unit's own keywords then decide it).
    """

    situation: Situation
    modifiers: Modifiers
    rules: Rules
    monster_vehicle: bool | None = None

    @classmethod
    def build(cls, options: Mapping[str, Any]) -> AnalysisOptions:
        given = options.get("attacker_monster_vehicle")
        situation, modifiers, rules, monster_vehicle = api.build_options(dict(options))
        return cls(situation, modifiers, rules, None if given is None else monster_vehicle)

    def for_cell(self, unit: Unit, defense: Iterable[tuple[str, Any]],
                 phase: str) -> AnalysisOptions:
        """The options of one cell: no shooting-only situation in the fight, the attacking
        unit's MONSTER / VEHICLE keywords unless given, and the target unit's own damage
        reduction combined with any given, its hit / wound roll penalties for the attacks
        of ``phase`` (``hit_minus_ranged`` ...) added to ``hit_mod`` / ``wound_mod``, its
        buffs' save modifier added to ``save_mod`` and their benefit of cover (``cover``)
        in the shooting phase."""
        situation, modifiers = self.situation, self.modifiers
        if phase == "fight":
            cleared = Situation()
            situation = dataclasses.replace(
                situation, **{k: getattr(cleared, k) for k in SHOOTING_ONLY})
        attacks = "ranged" if phase == "shooting" else "melee"
        changes: dict[str, Any] = {}
        for key, value in defense:
            if key.startswith(("hit_minus_", "wound_minus_")):
                roll, _, scope = key.partition("_minus_")
                if scope in ("all", attacks):
                    field = f"{roll}_mod"
                    changes[field] = changes.get(field, getattr(modifiers, field)) - int(value)
            elif key == "damage_minus":
                changes[key] = max(modifiers.damage_minus or 0, value)
            elif key == "save_mod":
                changes[key] = modifiers.save_mod + int(value)
            elif key == "cover":
                if phase == "shooting":   # the benefit of cover holds against ranged attacks
                    situation = dataclasses.replace(situation, cover=True)
            else:
                changes[key] = True
        monster_vehicle = (unit.all_monster_or_vehicle if self.monster_vehicle is None
                           else self.monster_vehicle)
        return AnalysisOptions(situation, dataclasses.replace(modifiers, **changes), self.rules,
                        monster_vehicle)

    def keywords(self) -> dict[str, Any]:
        """The options as keywords of :func:`mathhammer.exact` and
        :func:`mathhammer.compare` (checked objects, which they take as they are)."""
        return dict(situation=self.situation, modifiers=self.modifiers, rules=self.rules,
                    edition=self.rules.edition,
                    attacker_monster_vehicle=bool(self.monster_vehicle))
