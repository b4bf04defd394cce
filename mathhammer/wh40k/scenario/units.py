"""Whole units: model groups, the weapons they carry, attached Leaders, allocation groups.

Model layer (stdlib only). A :class:`Unit` is a list of :class:`ModelGroup` s as the player
lists them. For attacks against it, the models are re-grouped into *allocation groups*
(05.03): every CHARACTER model is a group of its own and all other models are grouped by
identical (W, Sv, InSv). Within an allocation group, models are removed in the order their
model groups are listed (list the sergeant last to keep him longest).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field, replace
from typing import Literal

from mathhammer.core.limits import MAX_TOTAL_WOUNDS
from mathhammer.errors import ScenarioError
from mathhammer.wh40k.profiles import TargetProfile, Weapon

CHARACTER = "CHARACTER"
Role = Literal["bodyguard", "leader", "support"]
ALLOCATION_POLICIES = ("listed", "best_save_first", "worst_save_first")


@dataclass(frozen=True, slots=True)
class CarriedWeapon:
    """A weapon a model carries, with one or more profiles (04.01.03).

    Parameters
    ----------
    name
        How activations select it ("Plasma gun").
    profiles
        One :class:`Weapon` per profile; each profile's own name selects that profile
        ("Plasma gun - supercharge"). The first profile is the default.
    hunter
        Per profile, keywords the target must have one of (Hunter profiles); empty for any.
    per_model
        How many of this weapon each model carries (``2x`` on the line).
    """

    name: str
    profiles: tuple[Weapon, ...]
    hunter: tuple[frozenset[str], ...] = ()
    per_model: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ScenarioError(f"a weapon's name = {self.name!r:.60} must be text")
        if not isinstance(self.profiles, tuple) or not all(isinstance(p, Weapon)
                                                           for p in self.profiles):
            raise ScenarioError(f"weapon '{self.name}': profiles must be a tuple of Weapon")
        if not isinstance(self.hunter, tuple) or not all(
                isinstance(h, frozenset) and all(isinstance(k, str) for k in h)
                for h in self.hunter):
            raise ScenarioError(f"weapon '{self.name}': hunter = {self.hunter!r:.60} must be "
                                "keywords (text)")
        if isinstance(self.per_model, bool) or not isinstance(self.per_model, int):
            raise ScenarioError(f"weapon '{self.name}': per_model = {self.per_model!r:.60} "
                                "must be a whole number")
        if self.per_model < 1:
            raise ScenarioError(f"weapon '{self.name}': each model carries at least 1")
        if not self.profiles:
            raise ScenarioError(f"weapon '{self.name}' has no profile")
        if not self.hunter:
            object.__setattr__(self, "hunter", tuple(frozenset() for _ in self.profiles))
        melee = {p.melee for p in self.profiles}
        if len(melee) > 1:
            raise ScenarioError(f"weapon '{self.name}' mixes melee and ranged profiles; list "
                                "them as two weapons")

    @classmethod
    def single(cls, weapon: Weapon) -> CarriedWeapon:
        return cls(weapon.name or str(weapon), (weapon.with_count(1),), per_model=weapon.count)

    @property
    def melee(self) -> bool:
        return self.profiles[0].melee

    def profile_named(self, name: str) -> int | None:
        """Index of the profile called ``name`` (case-insensitive), or None."""
        wanted = name.strip().lower()
        for i, p in enumerate(self.profiles):
            if p.name.strip().lower() == wanted:
                return i
        return None


@dataclass(frozen=True, slots=True)
class ModelGroup:
    """``count`` identical models: their profile, weapons and points.

    Parameters
    ----------
    name
        The group's name ("Intercessor", "Sergeant").
    count
        Number of models.
    profile
        Defensive profile (T, Sv, InSv, W, FNP, keywords); its own count is ignored.
    weapons
        What each model carries.
    points
        Points cost of the whole group, if known.
    role
        ``bodyguard`` (the default), or ``leader``/``support`` inside an attached unit.
    """

    name: str
    count: int
    profile: TargetProfile
    weapons: tuple[CarriedWeapon, ...] = ()
    points: float | None = None
    role: Role = "bodyguard"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ScenarioError(f"a model group's name = {self.name!r:.60} must be text")
        if isinstance(self.count, bool) or not isinstance(self.count, int):
            raise ScenarioError(f"model group '{self.name}': count = {self.count!r:.60} must "
                                "be a whole number")
        if not isinstance(self.profile, TargetProfile):
            raise ScenarioError(f"model group '{self.name}': profile must be a TargetProfile "
                                f"(or a line in a scenario file), not {self.profile!r:.60}")
        if not isinstance(self.weapons, tuple) or not all(isinstance(w, CarriedWeapon)
                                                          for w in self.weapons):
            raise ScenarioError(f"model group '{self.name}': weapons must be a tuple of "
                                "CarriedWeapon")
        if self.points is not None and (isinstance(self.points, bool) or not isinstance(
                self.points, numbers.Real) or not 0 <= self.points < math.inf):
            raise ScenarioError(f"model group '{self.name}': points = {self.points!r:.60} "
                                "must be a finite number of at least 0")
        if self.count < 1:
            raise ScenarioError(f"model group '{self.name}' has count {self.count}; it needs at "
                                "least 1 model")
        if self.role not in ("bodyguard", "leader", "support"):
            raise ScenarioError(f"model group '{self.name}': role '{self.role}' must be "
                                "bodyguard, leader or support")

    @property
    def is_character(self) -> bool:
        return CHARACTER in self.profile.keywords

    @property
    def is_monster_or_vehicle(self) -> bool:
        return bool({"MONSTER", "VEHICLE"} & self.profile.keywords)


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit as fielded: model groups in the order the player lists them.

    Parameters
    ----------
    name
        Unique name within a scenario.
    groups
        Model groups; for an attached unit, the bodyguard's groups then the Leaders'.
    allocation_order
        The defender's allocation order: a policy name (``listed``, ``best_save_first``,
        ``worst_save_first``) or an explicit list of model-group names. The rules' forced
        moves (a wounded group first, CHARACTERs last) are applied on top, batch by batch.
    damage_minus, damage_halved, reroll_saves
        The unit's defensive rules against every attack it suffers.
    """

    name: str
    groups: tuple[ModelGroup, ...]
    allocation_order: str | tuple[str, ...] = "listed"
    damage_minus: int = 0
    damage_halved: bool = False
    reroll_saves: str = "none"
    leaders: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise ScenarioError(f"a unit's name = {self.name!r:.60} must be text")
        if not isinstance(self.groups, tuple) or not all(isinstance(g, ModelGroup)
                                                         for g in self.groups):
            raise ScenarioError(f"unit '{self.name}': groups must be a tuple of ModelGroup")
        order = self.allocation_order
        if not isinstance(order, (str, tuple)) or (
                isinstance(order, tuple) and not all(isinstance(n, str) for n in order)):
            raise ScenarioError(f"unit '{self.name}': allocation_order = {order!r:.60} must be "
                                f"a policy ({', '.join(ALLOCATION_POLICIES)}) or a list of "
                                "model-group names")
        if not self.groups:
            raise ScenarioError(f"unit '{self.name}' has no models")
        wounds = sum(g.count * g.profile.wounds for g in self.groups)
        if wounds > MAX_TOTAL_WOUNDS:
            raise ScenarioError(f"unit '{self.name}' has {wounds:,} wounds in all (models times "
                                f"W): at most {MAX_TOTAL_WOUNDS:,}; fewer models or wounds")
        names = [g.name for g in self.groups]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise ScenarioError(f"unit '{self.name}' lists model group "
                                f"'{sorted(dupes)[0]}' twice; give each group its own name")
        if len(self.leaders) > 2:
            raise ScenarioError(f"unit '{self.name}' has {len(self.leaders)} attached units "
                                f"({', '.join(self.leaders)}): a bodyguard unit takes at most "
                                "one Leader and one Support unit (19.01)")
        if isinstance(self.allocation_order, str):
            if self.allocation_order not in ALLOCATION_POLICIES:
                raise ScenarioError(f"unit '{self.name}': allocation order "
                                    f"'{self.allocation_order}' is not a policy; use one of "
                                    f"{', '.join(ALLOCATION_POLICIES)} or a list of model-group "
                                    "names")
        else:
            validate_allocation_order(self, self.allocation_order)

    @property
    def models(self) -> int:
        return sum(g.count for g in self.groups)

    @property
    def keywords(self) -> frozenset[str]:
        """19.03: an (attached) unit has every keyword of every model."""
        out: set[str] = set()
        for g in self.groups:
            out |= g.profile.keywords
        return frozenset(out)

    @property
    def all_monster_or_vehicle(self) -> bool:
        return all(g.is_monster_or_vehicle for g in self.groups)

    @property
    def has_stealth(self) -> bool:
        return all(g.profile.has_stealth for g in self.groups)

    @property
    def points(self) -> float | None:
        costs = [g.points for g in self.groups]
        known = [c for c in costs if c is not None]
        return float(sum(known)) if len(known) == len(costs) else None

    def group(self, name: str) -> ModelGroup:
        for g in self.groups:
            if g.name.lower() == name.lower():
                return g
        raise ScenarioError(f"unit '{self.name}' has no model group '{name}'; it has "
                            f"{', '.join(g.name for g in self.groups)}")


def attach(bodyguard: Unit, *attached: Unit) -> Unit:
    """Form an attached unit (19.01): the bodyguard plus one Leader and/or one Support unit.

    The attached units' model groups become ``leader`` groups (``support`` for a unit whose
    groups are all non-CHARACTER) listed after the bodyguard's.

    Raises
    ------
    ScenarioError
        With three or more attached units, or a Leader unit without a CHARACTER model.
    """
    if len(attached) > 2:
        raise ScenarioError(f"unit '{bodyguard.name}' cannot take {len(attached)} attached "
                            f"units ({', '.join(u.name for u in attached)}): at most one Leader "
                            "and one Support unit (19.01)")
    groups = list(bodyguard.groups)
    taken = {g.name for g in groups}
    for unit in attached:
        role: Role = "leader" if any(g.is_character for g in unit.groups) else "support"
        for g in unit.groups:
            name = g.name if g.name not in taken else f"{unit.name} {g.name}"
            taken.add(name)
            groups.append(replace(g, name=name, role=role))
    return replace(bodyguard, groups=tuple(groups),
                   leaders=bodyguard.leaders + tuple(u.name for u in attached))


@dataclass(frozen=True, slots=True)
class AllocationGroup:
    """Models that share an allocation group (05.03), as (model-group index, models) parts."""

    parts: tuple[tuple[int, int], ...]
    character: bool
    wounds: int
    save: int
    invuln: int | None

    @property
    def models(self) -> int:
        return sum(n for _, n in self.parts)


def allocation_groups(unit: Unit) -> list[AllocationGroup]:
    """The unit's allocation groups in listed order (first appearance of their models)."""
    out: list[AllocationGroup] = []
    keyed: dict[tuple, int] = {}
    for index, g in enumerate(unit.groups):
        p = g.profile
        if g.is_character:
            for _ in range(g.count):
                out.append(AllocationGroup(((index, 1),), True, p.wounds, p.save, p.invuln))
            continue
        key = (p.wounds, p.save, p.invuln, p.invuln_scope)
        if key in keyed:
            i = keyed[key]
            old = out[i]
            out[i] = replace(old, parts=old.parts + ((index, g.count),))
        else:
            keyed[key] = len(out)
            out.append(AllocationGroup(((index, g.count),), False, p.wounds, p.save, p.invuln))
    return out


def declared_order(unit: Unit) -> list[int]:
    """Indices into :func:`allocation_groups` in the defender's declared order.

    Non-CHARACTER groups always come before CHARACTER groups; the dynamic forced move (a
    group holding a wounded model goes first) is applied by the engines batch by batch.
    """
    groups = allocation_groups(unit)
    indices = list(range(len(groups)))
    order = unit.allocation_order

    def best_save(i: int) -> int:
        g = groups[i]
        return min(g.save, g.invuln if g.invuln is not None else 7)

    if order == "best_save_first":
        indices.sort(key=lambda i: (groups[i].character, best_save(i), groups[i].save))
    elif order == "worst_save_first":
        indices.sort(key=lambda i: (groups[i].character, -best_save(i), -groups[i].save))
    elif isinstance(order, tuple):
        rank: dict[int, int] = {}
        for position, name in enumerate(order):
            gi = next(i for i, g in enumerate(unit.groups) if g.name.lower() == name.lower())
            for ai, ag in enumerate(groups):
                if any(part[0] == gi for part in ag.parts):
                    rank.setdefault(ai, position)
        indices.sort(key=lambda i: (groups[i].character, rank.get(i, len(order) + i)))
    else:
        indices.sort(key=lambda i: groups[i].character)
    return indices


def validate_allocation_order(unit: Unit, order: tuple[str, ...]) -> None:
    """Check an explicit allocation order against 05.03.

    Raises
    ------
    ScenarioError
        For unknown names, repeated names, or a CHARACTER placed before a non-CHARACTER.
    """
    names = [g.name.lower() for g in unit.groups]
    seen: set[str] = set()
    for name in order:
        if name.lower() not in names:
            known = ", ".join(g.name for g in unit.groups)
            raise ScenarioError(f"unit '{unit.name}': allocation order names '{name}', which "
                                f"is not one of its model groups ({known})")
        if name.lower() in seen:
            raise ScenarioError(f"unit '{unit.name}': allocation order names '{name}' twice")
        seen.add(name.lower())
    first_character = None
    for name in order:
        group = unit.group(name)
        if group.is_character:
            first_character = first_character or group.name
        elif first_character is not None:
            raise ScenarioError(
                f"unit '{unit.name}': illegal allocation order: CHARACTER '{first_character}' "
                f"comes before non-CHARACTER '{group.name}'; every non-CHARACTER group must "
                "come first (05.03)")
