"""Dust Tactics value objects: weapon lines, declared weapons, targets, units and rules.

Stdlib only (no numpy, no numba), so the model layer imports quickly. Every object is a
frozen, hashable dataclass; text forms come from :mod:`mathhammer.dust.parse` and ``str()``
gives canonical text back (``parse_weapon(str(w)) == w``).

Dust dice are six-sided symbol dice. A success rule is a set of faces, and the engines only
need how many of the six faces count, called a *threshold* here: a "single" success (the hit
or army symbol) is 2 faces of 6, p = 1/3; a "double" success is 4 faces of 6, p = 2/3.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from mathhammer.core.inputs import optional_instance, switch, whole_number
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.errors import OptionError, ProfileError, did_you_mean

INFANTRY = "infantry"
VEHICLE = "vehicle"
AIRCRAFT = "aircraft"

#: Armour levels per target class. Aircraft levels are UNCERTAIN (``Rules.aircraft_levels``);
#: the parser accepts up to this many and the compiler checks against the rules.
MAX_LEVELS = {INFANTRY: 4, VEHICLE: 7, AIRCRAFT: 9}
CLASSES = (INFANTRY, VEHICLE, AIRCRAFT)

OPEN, SOFT, HARD = "open", "soft", "hard"
COVER_STATES = (OPEN, SOFT, HARD)

#: Cover save kinds and how many faces of six save: hit symbol 2/6, blank 4/6.
SAVE_FACES = {"hit_save": 2, "miss_save": 4, "none": 0}

SINGLE, DOUBLE = "single", "double"
SUCCESS_FACES = {SINGLE: 2, DOUBLE: 4}

#: Tags a weapon line may carry (canonical spelling).
WEAPON_TAGS = ("IGNORES COVER", "FLAME", "NAPALM", "ARTILLERY", "LASER", "SNIPER",
               "CLOSE COMBAT")
#: Tags that make a weapon skip the cover save (section 8 of the rules reference).
COVER_IGNORING_TAGS = frozenset({"IGNORES COVER", "FLAME", "NAPALM", "ARTILLERY"})

CASUALTY_POLICIES = ("protect_special", "owner_optimal", "random", "attacker_worst")


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of a weapon line: dice per carrier and damage per hit.

    A phaser cell ``XzY`` has ``dice = X``, ``phaser = Y`` and ``damage = 1``: each of the X
    dice that hits rolls Y damage dice, and each damage die that hits deals 1 damage point.

    Examples
    --------
    >>> str(Cell(3, 1)), str(Cell(2, 1, phaser=3))
    ('3/1', '2z3')
    """

    dice: int
    damage: int = 1
    phaser: int = 0

    def __post_init__(self) -> None:
        if self.dice < 0:
            raise ProfileError(f"a weapon cell cannot roll {self.dice} dice")
        if self.damage < 1:
            raise ProfileError(f"a weapon cell must deal at least 1 damage per hit, "
                               f"not {self.damage}")
        if self.phaser < 0 or (self.phaser and self.damage != 1):
            raise ProfileError("a phaser cell XzY deals 1 damage per damage-die hit")

    def __str__(self) -> str:
        return f"{self.dice}z{self.phaser}" if self.phaser else f"{self.dice}/{self.damage}"


@dataclass(frozen=True)
class WeaponLine:
    """A weapon line of a unit card.

    Parameters
    ----------
    name
        Weapon name, e.g. ``"17-pounder"``.
    cells
        Either one :class:`Cell` that applies to whatever is attacked (the short form
        ``"Shotgun: 3/1"``), or ``None`` with ``per_target`` filled in.
    per_target
        ``((class, (cell or None, ...)), ...)`` with one entry per armour level; ``None``
        is the card's ``-`` (this target cannot be attacked). A class that is absent cannot
        be attacked either.
    range
        Range in squares, or ``None`` for unlimited (``U``).
    special
        A special weapon, marked ``(1)`` on the card: at most one carrier per squad.
    tags
        Canonical tags from :data:`WEAPON_TAGS`.
    """

    name: str
    cell: Cell | None = None
    per_target: tuple[tuple[str, tuple[Cell | None, ...]], ...] = ()
    range: int | None = None
    special: bool = False
    tags: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        switch(self.special, "WeaponLine special")   # bool("no") is True
        if not self.name.strip():
            raise ProfileError("a weapon line needs a name")
        if (self.cell is None) == (not self.per_target):
            raise ProfileError(f"weapon {self.name!r}: give either one cell (3/1) or cells per "
                               "target class (INF ... VEH ...), not both or neither")
        seen = set()
        for cls, cells in self.per_target:
            if cls not in CLASSES:
                raise ProfileError(f"weapon {self.name!r}: unknown target class {cls!r}")
            if cls in seen:
                raise ProfileError(f"weapon {self.name!r}: target class {cls} given twice")
            seen.add(cls)
            if cls != AIRCRAFT and len(cells) != MAX_LEVELS[cls]:
                raise ProfileError(f"weapon {self.name!r}: {cls} needs {MAX_LEVELS[cls]} cells "
                                   f"(armour 1..{MAX_LEVELS[cls]}), got {len(cells)}")
            if cls == AIRCRAFT and not 1 <= len(cells) <= MAX_LEVELS[AIRCRAFT]:
                raise ProfileError(f"weapon {self.name!r}: aircraft needs 1..9 cells")
        if self.range is not None and self.range < 0:
            raise ProfileError(f"weapon {self.name!r}: range {self.range} is negative")
        unknown = set(self.tags) - set(WEAPON_TAGS)
        if unknown:
            raise ProfileError(f"weapon {self.name!r}: unknown tags {sorted(unknown)}")

    def cell_for(self, target_class: str, armour: int) -> Cell | None:
        """The cell used against ``target_class`` at armour level ``armour`` (or ``None``)."""
        if self.cell is not None:
            return self.cell
        for cls, cells in self.per_target:
            if cls == target_class:
                return cells[armour - 1] if 1 <= armour <= len(cells) else None
        return None

    @property
    def is_phaser(self) -> bool:
        cells = [self.cell] if self.cell is not None else [c for _, cs in self.per_target
                                                           for c in cs]
        return any(c is not None and c.phaser for c in cells)

    @property
    def ignores_cover(self) -> bool:
        """Flame, napalm, artillery, phasers and ``IGNORES COVER`` skip the cover save."""
        return bool(self.tags & COVER_IGNORING_TAGS) or self.is_phaser

    def body(self) -> str:
        """The cells as text: ``3/1`` or ``INF 4/1 4/1 2/1 2/1 VEH ...``."""
        if self.cell is not None:
            return str(self.cell)
        parts = []
        for cls, cells in self.per_target:
            parts.append(_CLASS_SHORT[cls] + " " + " ".join("-" if c is None else str(c)
                                                            for c in cells))
        return " ".join(parts)

    def tag_text(self) -> list[str]:
        tags = [t for t in WEAPON_TAGS if t in self.tags]
        if self.range is not None:
            tags.insert(0, f"RANGE {self.range}")
        return tags

    def __str__(self) -> str:
        name = self.name + (" (1)" if self.special else "")
        tags = self.tag_text()
        return f"{name}: {self.body()}" + (f" [{', '.join(tags)}]" if tags else "")


_CLASS_SHORT = {INFANTRY: "INF", VEHICLE: "VEH", AIRCRAFT: "AIR"}


@dataclass(frozen=True)
class Weapon:
    """A weapon line as declared in one attack: how many carriers fire it, and pool hooks.

    Parameters
    ----------
    line
        The :class:`WeaponLine`.
    carriers
        Models carrying it that are still in play when fire opens (``Nx``). For vehicles
        and heroes leave it at 1 (the printed dice).
    multiplier, extra_dice, success_rule
        Optional pool modifiers, applied in this order (section 3 of the reference):
        multiply the dice, add dice, switch the success rule (``"single"`` or ``"double"``).
    """

    line: WeaponLine
    carriers: int = 1
    multiplier: int = 1
    extra_dice: int = 0
    success_rule: str = SINGLE

    def __post_init__(self) -> None:
        if self.carriers < 0:
            raise ProfileError(f"weapon {self.line.name!r}: {self.carriers} carriers is negative")
        if self.line.special and self.carriers > 1:
            raise ProfileError(f"weapon {self.line.name!r} is a special weapon (1): it has at "
                               f"most one carrier per squad, not {self.carriers}")
        if self.multiplier < 1:
            raise ProfileError(f"weapon {self.line.name!r}: dice multiplier must be at least 1")
        if self.extra_dice < 0:
            raise ProfileError(f"weapon {self.line.name!r}: extra dice must not be negative")
        if self.success_rule not in SUCCESS_FACES:
            raise ProfileError(f"weapon {self.line.name!r}: success rule must be 'single' or "
                               f"'double', not {self.success_rule!r}")

    @property
    def name(self) -> str:
        return self.line.name

    def pool(self, target_class: str, armour: int) -> int | None:
        """Dice rolled against this target, after modifiers; ``None`` if it cannot attack."""
        cell = self.line.cell_for(target_class, armour)
        if cell is None:
            return None
        return cell.dice * self.carriers * self.multiplier + self.extra_dice

    def __str__(self) -> str:
        prefix = f"{self.carriers}x " if self.carriers != 1 else ""
        name = self.line.name + (" (1)" if self.line.special else "")
        tags = self.line.tag_text()
        if self.multiplier != 1:
            tags.append(f"DICE x{self.multiplier}")
        if self.extra_dice:
            tags.append(f"EXTRA DICE {self.extra_dice}")
        if self.success_rule == DOUBLE:
            tags.append("DOUBLE SUCCESS")
        text = f"{prefix}{name}: {self.line.body()}"
        return text + (f" [{', '.join(tags)}]" if tags else "")


@dataclass(frozen=True)
class Target:
    """A unit being shot at.

    Parameters
    ----------
    name
        Unit name.
    unit_class, armour
        Target class (``"infantry"``, ``"vehicle"``, ``"aircraft"``) and armour level.
    models
        Models in a squad (``Nx``); 1 for vehicles and heroes.
    boxes
        Damage boxes of a vehicle or hero; ``None`` for a squad (one model per point).
    cover
        ``"open"``, ``"soft"`` or ``"hard"``.
    soft_save, hard_save
        The unit card's cover save kinds (``"hit_save"``, ``"miss_save"``, ``"none"``), or
        ``None`` for the rules' default for the class.
    damage_resilient
        Roll one die per damage point after cover; each hit symbol cancels a point.
    evade
        ``"none"``, ``"evade"`` or ``"improved"`` (``ruleset="dust1947"`` only).
    hero_boxes
        Boxes of a hero joined to the squad (only with ``Rules(hero_joined=True)``).
    """

    name: str
    unit_class: str
    armour: int
    models: int = 1
    boxes: int | None = None
    cover: str = OPEN
    soft_save: str | None = None
    hard_save: str | None = None
    damage_resilient: bool = False
    evade: str = "none"
    hero_boxes: int = 0

    def __post_init__(self) -> None:
        switch(self.damage_resilient, "Target damage_resilient")   # bool("no") is True
        if self.unit_class not in CLASSES:
            raise ProfileError(f"target class must be one of {', '.join(CLASSES)}, "
                               f"not {self.unit_class!r}")
        top = MAX_LEVELS[self.unit_class]
        if not 1 <= self.armour <= top:
            raise ProfileError(f"{self.unit_class} armour must be 1..{top}, not {self.armour}")
        if self.models < 1:
            raise ProfileError(f"a unit needs at least one model, not {self.models}")
        if self.boxes is not None:
            if self.boxes < 1:
                raise ProfileError(f"BOXES must be at least 1, not {self.boxes}")
            if self.models != 1:
                raise ProfileError("a unit with damage boxes (vehicle or hero) is a single "
                                   "model; drop the Nx count or the BOXES")
        elif self.unit_class != INFANTRY:
            raise ProfileError(f"a {self.unit_class} needs its damage boxes, e.g. BOXES4")
        if self.cover not in COVER_STATES:
            raise ProfileError(f"cover must be open, soft or hard, not {self.cover!r}")
        for save in (self.soft_save, self.hard_save):
            if save is not None and save not in SAVE_FACES:
                raise ProfileError(f"cover save kind must be hit_save, miss_save or none, "
                                   f"not {save!r}")
        if self.evade not in ("none", "evade", "improved"):
            raise ProfileError(f"evade must be none, evade or improved, not {self.evade!r}")
        if self.hero_boxes < 0:
            raise ProfileError("a joined hero's boxes must not be negative")
        if self.hero_boxes and self.boxes is not None:
            raise ProfileError("a hero can join a squad, not a vehicle or another hero")

    @property
    def is_squad(self) -> bool:
        return self.boxes is None

    @property
    def capacity(self) -> int:
        """Damage points the unit can absorb before it is destroyed."""
        return self.models + self.hero_boxes if self.boxes is None else self.boxes

    def with_cover(self, cover: str) -> Target:
        from dataclasses import replace
        return replace(self, cover=cover)

    def __str__(self) -> str:
        prefix = f"{self.models}x " if self.models != 1 else ""
        text = f"{prefix}{self.name}: {self.unit_class.upper()}{self.armour}"
        if self.boxes is not None:
            text += f" BOXES{self.boxes}"
        if self.hero_boxes:
            text += f" HERO{self.hero_boxes}"
        tags = []
        if self.cover != OPEN:
            tags.append(f"{self.cover.upper()} COVER")
        for kind, save in (("SOFT", self.soft_save), ("HARD", self.hard_save)):
            if save is not None:
                tags.append(f"{kind} SAVE {save.split('_')[0].upper()}")
        if self.damage_resilient:
            tags.append("DAMAGE RESILIENT")
        if self.evade == "evade":
            tags.append("EVADE")
        elif self.evade == "improved":
            tags.append("IMPROVED EVADE")
        return text + (f" [{', '.join(tags)}]" if tags else "")


@dataclass(frozen=True)
class ModelGroup:
    """``count`` models of a squad that carry the same weapon lines (by name)."""

    count: int
    weapons: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ProfileError(f"a model group needs at least one model, not {self.count}")


@dataclass(frozen=True)
class Unit:
    """A unit card: its profile as a target, its weapon lines, and who carries what.

    For a vehicle or a hero, ``groups`` is empty and every weapon line fires its printed
    dice. For a squad, ``groups`` says how many models carry which lines; a model's pool
    contribution ends when it is removed.
    """

    name: str
    profile: Target
    weapons: tuple[WeaponLine, ...]
    groups: tuple[ModelGroup, ...] = ()

    def __post_init__(self) -> None:
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise ProfileError(f"unit {self.name!r}: two weapon lines share a name")
        if self.profile.is_squad:
            if not self.groups:
                raise ProfileError(f"squad {self.name!r} needs its models (who carries what)")
            total = sum(g.count for g in self.groups)
            if total != self.profile.models:
                raise ProfileError(f"squad {self.name!r}: the model groups hold {total} models "
                                   f"but the profile says {self.profile.models}")
            for g in self.groups:
                for w in g.weapons:
                    if w not in names:
                        raise ProfileError(f"squad {self.name!r}: models carry unknown weapon "
                                           f"{w!r}; the card has {', '.join(names)}")
            for line in self.weapons:
                carriers = sum(g.count for g in self.groups if line.name in g.weapons)
                if line.special and carriers > 1:
                    raise ProfileError(f"squad {self.name!r}: special weapon {line.name!r} (1) "
                                       f"has {carriers} carriers; it exists once per squad")
        elif self.groups:
            raise ProfileError(f"{self.name!r} is a vehicle or hero: its weapons need no "
                               "model groups")

    def weapon(self, name: str) -> WeaponLine:
        for line in self.weapons:
            if line.name.lower() == name.lower():
                return line
        raise ProfileError(f"unit {self.name!r} has no weapon {name!r}"
                           f"{did_you_mean(name, [w.name for w in self.weapons])}", token=name)

    def carriers(self, name: str) -> int:
        """Carriers of a weapon line at full strength (1 for vehicles and heroes)."""
        if not self.profile.is_squad:
            return 1
        return sum(g.count for g in self.groups if name in g.weapons)

    def declared(self, names: tuple[str, ...] | None = None) -> tuple[Weapon, ...]:
        """Weapons at full strength, all lines or those named."""
        lines = self.weapons if names is None else tuple(self.weapon(n) for n in names)
        return tuple(Weapon(line, self.carriers(line.name)) for line in lines)


@dataclass(frozen=True)
class Rules:
    """Rule switches, including every UNCERTAIN point of the reference (with its default).

    Parameters
    ----------
    ruleset
        ``"dust_tactics"`` (core rules) or ``"dust1947"`` (community profile: infantry save
        in the open, cover saves on army/army-or-shield, evade, snipers).
    dice_set
        ``"classic"`` or ``"newer"``; both give p = 1/3 single, 2/3 double.
    infantry_soft_save, infantry_hard_save, vehicle_soft_save, vehicle_hard_save
        Default cover save kinds when the unit card gives none. Vehicle defaults ``none`` are
        UNCERTAIN.
    cover_save_per
        ``"hit"`` (default) or ``"damage_point"``: what one cover save die cancels. UNCERTAIN.
    damage_resilient_per
        ``"damage_point"`` (forum-level; the only reading implemented).
    split_weapon_line
        Whether carriers of one weapon line may aim at different targets. UNCERTAIN, False.
    laser_chain_depth
        Generations of extra laser dice (each hit rolls one more die). UNCERTAIN, 1.
        ``None`` means unbounded (the exact engine lists the pmfs up to a 1e-15 tail).
    laser_extra_rerolled
        Whether a sustained attack rerolls dice added by a laser. Default False.
    aircraft_levels
        Armour levels of aircraft. UNCERTAIN, 3.
    aircraft_needs_sustained, aircraft_no_reroll
        Ground fire at aircraft needs a sustained attack, and gets no reroll. Forum-level,
        both True.
    hero_joined
        A hero joined to a squad is its last casualty and absorbs its own boxes. UNCERTAIN,
        False.
    casualty_policy
        Which models a squad loses first: ``protect_special`` (default), ``owner_optimal``,
        ``random`` (each loss a model picked uniformly among those left), ``attacker_worst``.
    """

    ruleset: str = "dust_tactics"
    dice_set: str = "classic"
    infantry_soft_save: str = "hit_save"
    infantry_hard_save: str = "miss_save"
    vehicle_soft_save: str = "none"
    vehicle_hard_save: str = "none"
    cover_save_per: str = "hit"
    damage_resilient_per: str = "damage_point"
    split_weapon_line: bool = False
    laser_chain_depth: int | None = 1
    laser_extra_rerolled: bool = False
    aircraft_levels: int = 3
    aircraft_needs_sustained: bool = True
    aircraft_no_reroll: bool = True
    hero_joined: bool = False
    casualty_policy: str = "protect_special"

    def __post_init__(self) -> None:
        checks = [
            ("ruleset", self.ruleset, ("dust_tactics", "dust1947")),
            ("dice_set", self.dice_set, ("classic", "newer")),
            ("cover_save_per", self.cover_save_per, ("hit", "damage_point")),
            ("damage_resilient_per", self.damage_resilient_per, ("damage_point",)),
            ("casualty_policy", self.casualty_policy, CASUALTY_POLICIES),
        ]
        for kind in ("infantry_soft_save", "infantry_hard_save", "vehicle_soft_save",
                     "vehicle_hard_save"):
            checks.append((kind, getattr(self, kind), tuple(SAVE_FACES)))
        for name, value, allowed in checks:
            if value not in allowed:
                raise OptionError(f"{name} must be one of {', '.join(allowed)}, not {value!r}"
                                  f"{did_you_mean(str(value), allowed)}")
        for name in ("split_weapon_line", "laser_extra_rerolled", "aircraft_needs_sustained",
                     "aircraft_no_reroll", "hero_joined"):
            switch(getattr(self, name), name)   # bool("no") is True: only True or False
        if self.laser_chain_depth is not None:
            whole_number(self.laser_chain_depth, "laser_chain_depth (None: unbounded)", 0,
                         MAX_NUMBER)
        whole_number(self.aircraft_levels, "aircraft_levels", 1, MAX_LEVELS[AIRCRAFT])

    def as_dict(self) -> dict:
        from dataclasses import asdict
        return asdict(self)

    def changes(self, skip: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Every switch that differs from its default, in words a reader understands.

        Chart and table captions print them. ``skip`` leaves out switches the caption
        already names (an exchange always states its casualty policy).

        Examples
        --------
        >>> Rules(ruleset="dust1947", cover_save_per="damage_point").changes()
        ('Dust 1947 rules', 'a cover save cancels a damage point (not a hit)')
        """
        from dataclasses import fields

        default = Rules()
        return tuple(_rule_words(f.name, getattr(self, f.name)) for f in fields(self)
                     if f.name not in skip and getattr(self, f.name) != getattr(default, f.name))


def _rule_words(name: str, value: object) -> str:
    """One non-default :class:`Rules` switch in words."""
    phrases = {
        "dice_set": f"{value} dice",
        "cover_save_per": "a cover save cancels a damage point (not a hit)",
        "split_weapon_line": "carriers of one weapon line may split their fire",
        "laser_chain_depth": "laser extra dice unbounded" if value is None
        else f"laser extra dice {value} generation{'s' if value != 1 else ''} deep",
        "laser_extra_rerolled": "a sustained attack rerolls dice added by lasers",
        "aircraft_levels": f"aircraft have {value} armour levels",
        "aircraft_needs_sustained": "ground fire at aircraft need not be sustained",
        "aircraft_no_reroll": "ground fire at aircraft rerolls",
        "hero_joined": "a joined hero is the squad's last casualty",
        "casualty_policy": f"casualty policy {str(value).replace('_', ' ')}",
    }
    if name == "ruleset":
        return "Dust 1947 rules" if value == "dust1947" else f"{value} rules"
    if name.endswith("_save"):
        kind, cover, _ = name.split("_")
        save = "no save" if value == "none" else str(value).replace("_", " ")
        return f"{kind} in {cover} cover: {save}"
    return phrases.get(name, f"{name.replace('_', ' ')} {value}")


# -- reading dice and applying damage (plain Python, for worked examples) --------------------
#: Faces of a classic (2010) die and of a newer die.
CLASSIC_FACES = ("hit", "hit", "blank", "blank", "blank", "blank")
NEWER_FACES = ("army", "army", "target", "target", "shield", "shield")


def count_successes(faces: Iterable[str], rule: str = SINGLE, purpose: str = "hit") -> int:
    """Successes among rolled faces (``"hit"``/``"blank"`` or ``"army"``/``"target"``/
    ``"shield"``).

    On classic dice a single success is a hit and a double success ("army symbol plus
    another symbol") is a blank. On newer dice a single success is the army symbol; a double
    success adds the target symbol to hit, or the shield to save (``purpose="save"``).

    Examples
    --------
    >>> count_successes(["hit", "hit", "blank", "blank"])
    2
    >>> count_successes(["hit", "hit", "blank", "blank"], rule="double")
    2
    """
    if rule not in SUCCESS_FACES:
        raise OptionError(f"success rule must be 'single' or 'double', not {rule!r}")
    newer_double = {"army", "target"} if purpose == "hit" else {"army", "shield"}
    total = 0
    for face in faces:
        face = str(face).lower()
        if face not in CLASSIC_FACES and face not in NEWER_FACES:
            raise ProfileError(f"unknown die face {face!r}: use hit/blank (classic dice) or "
                               "army/target/shield (newer dice)", token=face)
        if rule == SINGLE:
            total += face in ("hit", "army")
        else:
            total += face == "blank" or face in newer_double
    return total


@dataclass(frozen=True)
class Casualties:
    """What a total of damage points does to a target (section 6 of the reference)."""

    lost: int
    remaining: int
    destroyed: bool
    overkill: int


def apply_damage(target: Target, points: int) -> Casualties:
    """Apply ``points`` damage at once: one model per point for a squad, boxes otherwise.

    Examples
    --------
    >>> apply_damage(Target("Laser Grenadiers", "infantry", 2, models=5), 3)
    Casualties(lost=3, remaining=2, destroyed=False, overkill=0)
    """
    if points < 0:
        raise OptionError(f"damage points must not be negative, not {points}")
    cap = target.capacity
    lost = min(points, cap)
    return Casualties(lost, cap - lost, lost == cap, max(points - cap, 0))


def with_switches(rules: Rules | None, overrides: dict[str, Any]) -> Rules:
    """``rules`` (default :class:`Rules()`) with the keyword switches ``overrides`` set.

    Raises
    ------
    OptionError
        For a switch :class:`Rules` does not have.

    Examples
    --------
    >>> with_switches(None, {"casualty_policy": "random"}).casualty_policy
    'random'
    """
    base = optional_instance(rules, Rules, "rules", "Rules(casualty_policy='random')") \
        or Rules()
    if overrides:
        try:
            return replace(base, **overrides)
        except TypeError as exc:
            raise OptionError(f"unknown rule switch: {exc}") from None
    return base
