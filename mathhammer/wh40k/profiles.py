"""Warhammer 40,000 value objects: weapons, target profiles, situation, modifiers, rules.

Frozen, hashable, stdlib only. Text goes in through :mod:`mathhammer.wh40k.parse`
(``parse_weapon``, ``parse_target``; that module imports this one, never the reverse) and comes
back out through ``str()``, so ``parse_weapon(str(w)) == w``. Validation of characteristics
happens here, so a profile built in Python is held to the same rules as one parsed from text.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field, replace
from typing import Literal

from mathhammer.core.dice import DiceExpr
from mathhammer.core.limits import MAX_MODELS, MAX_NUMBER, MAX_TOTAL_WOUNDS
from mathhammer.errors import OptionError, ProfileError, UnknownWordError
from mathhammer.wh40k import abilities as ab

NO_SAVE = 7
#: The editions whose rules the engines resolve.
EDITIONS: tuple[int, ...] = (10, 11)
REROLL_POLICIES: tuple[str, ...] = ("none", "ones", "failed", "noncrit", "all")
#: Re-roll policies for a random characteristic (the Attacks or Damage roll): ``ones``
#: re-rolls the lowest result the dice can give (a 1 on one die), ``low`` any result below
#: the dice expression's average.
DICE_REROLL_POLICIES: tuple[str, ...] = ("none", "ones", "low")
#: Damage re-roll policies: the fixed ones, and ``best`` (see :class:`Modifiers`).
DAMAGE_REROLL_POLICIES: tuple[str, ...] = (*DICE_REROLL_POLICIES, "best")
#: What ``reroll_damage="best"`` maximises: a mean, or the chance the unit is destroyed.
REROLL_GOALS: tuple[str, ...] = ("models_destroyed", "damage", "unit_destroyed")
#: Rolls a Command Re-roll can be spent on (once per activation, on the first that fails).
COMMAND_REROLLS: tuple[str, ...] = ("none", "hit", "wound", "damage", "save", "damage_best")


def _is_bool(value: object) -> bool:
    return isinstance(value, bool) or type(value).__name__ == "bool_"  # numpy's, by name


#: Fast answers for the common exact types: ``type(value) in _EXACT_KINDS[kind]`` needs no
#: further check (a bool is not an int here, and numpy's bool is checked by name below).
_EXACT_KINDS = {"bool": (bool,), "int": (int,), "str": (str,)}


def _kind_problem(value: object, kinds: tuple[str, ...]) -> str | None:
    """What ``value`` should be when it does not fit the field annotation (split at ``|``),
    else None.

    Only the simple annotations of the value objects are checked (``bool``, ``int``,
    ``str``, ``Literal[...]``, each optionally ``| None``); others are left to the
    constructor's own checks."""
    kind = kinds[0]
    if type(value) in _EXACT_KINDS.get(kind, ()) or (value is None and "None" in kinds):
        return None
    if kind == "bool" and not _is_bool(value):
        return "True or False"
    if kind == "int" and (_is_bool(value) or not isinstance(value, numbers.Integral)):
        return "a whole number"
    if (kind == "str" or kind.startswith("Literal[")) and not isinstance(value, str):
        return "text"
    if kind.startswith("frozenset[str]") and (
            not isinstance(value, (frozenset, set, tuple, list))
            or not all(isinstance(k, str) for k in value)):
        return "a set of keywords (text), e.g. frozenset({'VEHICLE'})"
    return None


#: Per value-object class: (field name, its annotation split at ``|``, the types that need
#: no further check or None for a field not checked), read once per class.
_FIELD_KINDS: dict[type, tuple[tuple[str, tuple[str, ...], tuple[type, ...] | None], ...]] = {}


def _field_kinds(cls: type) -> tuple[tuple[str, tuple[str, ...], tuple[type, ...] | None], ...]:
    kinds = _FIELD_KINDS.get(cls)
    if kinds is None:
        import dataclasses

        split = [(f.name, tuple(k.strip() for k in str(f.type).split("|")))
                 for f in dataclasses.fields(cls)]
        kinds = tuple((name, parts, _plain_types(parts)) for name, parts in split)
        _FIELD_KINDS[cls] = kinds
    return kinds


def _plain_types(kinds: tuple[str, ...]) -> tuple[type, ...] | None:
    """The value types :func:`_kind_problem` accepts for an annotation without looking
    further, or None for an annotation it does not check (a ``DiceExpr``, a tuple)."""
    kind = kinds[0]
    if kind.startswith("Literal["):
        plain: tuple[type, ...] = (str,)
    elif kind in _EXACT_KINDS:
        plain = _EXACT_KINDS[kind]
    elif kind.startswith("frozenset[str]"):
        plain = ()
    else:
        return None
    return plain + ((type(None),) if "None" in kinds else ())


def field_values(obj: object) -> dict[str, object]:
    """Field name -> value of a frozen dataclass such as :class:`Situation` (the field names
    read once per class: ``dataclasses.fields`` per call cost more than the copy)."""
    return {name: getattr(obj, name) for name, _, _ in _field_kinds(type(obj))}


def check_field_kinds(obj: object, error: type[Exception] = OptionError) -> None:
    """Refuse a field of a frozen dataclass whose value is not of its annotated kind
    (``roll_mod_cap='no'``, ``hit_mod=1.5``, ``keywords='VEHICLE'``, ``save=3.5``) instead of
    reading it loosely.

    Raises
    ------
    OptionError or ``error``
        Naming the field, the value and what it takes.
    """
    for name, kinds, plain in _field_kinds(type(obj)):
        if plain is None:
            continue
        value = getattr(obj, name)
        if type(value) in plain:
            continue
        wanted = _kind_problem(value, kinds)
        if wanted is not None:
            raise error(f"{type(obj).__name__} {name}={value!r:.60} must be {wanted}")


@dataclass(frozen=True, slots=True)
class Ability:
    """One weapon ability, e.g. ``SUSTAINED HITS 1``, ``ANTI-INFANTRY 4+`` or
    ``LETHAL HITS: VEHICLE``.

    Parameters
    ----------
    name
        Canonical name from :data:`mathhammer.wh40k.abilities.WEAPON_ABILITIES`.
    value
        X for abilities that carry one (SUSTAINED HITS, RAPID FIRE, MELTA, BLAST, CLEAVE).
    anti_keyword, threshold
        For ANTI: the keyword X (``NON-`` prefix allowed) and the critical threshold Y.
    scope
        Keywords after a colon: the ability applies only if the target has one of them
        (or none of them, for ``NON-`` keywords).
    """

    name: str
    value: DiceExpr | None = None
    anti_keyword: str | None = None
    threshold: int | None = None
    scope: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.name not in ab.WEAPON_ABILITIES:
            raise UnknownWordError(f"unknown ability '{self.name}'", token=self.name)
        if self.name == ab.ANTI and (self.anti_keyword is None or self.threshold is None):
            raise ProfileError("ANTI needs a keyword and a threshold, e.g. ANTI-INFANTRY 4+")
        if ab.WEAPON_ABILITIES[self.name].param is ab.Param.DICE and self.value is None:
            raise ProfileError(self.name, token=self.name,
                               detail=f" needs a value, e.g. {self.name} D3")
        if self.threshold is not None and not 2 <= self.threshold <= 6:
            raise ProfileError(f"ANTI threshold {self.threshold}+ must be between 2+ and 6+",
                               token=f"{self.threshold}+")

    def applies_to(self, keywords: frozenset[str]) -> bool:
        """Whether this instance is active against a target with ``keywords``."""
        if not self.scope and self.anti_keyword is None:   # most abilities: always active
            return True
        if self.anti_keyword is not None and not _keyword_matches(self.anti_keyword, keywords):
            return False
        # Keywords after the colon: any listed keyword will do, but a NON- keyword excludes
        # (ABILITY: NON-MONSTER/NON-VEHICLE needs a target that is neither).
        excluded = [k for k in self.scope if k.startswith("NON-")]
        wanted = [k for k in self.scope if not k.startswith("NON-")]
        if not all(_keyword_matches(k, keywords) for k in excluded):
            return False
        return not wanted or any(_keyword_matches(k, keywords) for k in wanted)

    @property
    def number(self) -> int:
        """X as a fixed number: 1 when omitted ([BLAST]); the fixed part of a random X."""
        if self.value is None:
            return 1
        return self.value.constant

    def __str__(self) -> str:
        if self.name == ab.ANTI:
            text = f"ANTI-{self.anti_keyword} {self.threshold}+"
        elif self.value is not None:
            text = f"{self.name} {self.value}"
        else:
            text = self.name
        return f"{text}: {'/'.join(self.scope)}" if self.scope else text


def _damage_text(damage: DiceExpr) -> str:
    """``D1``, ``DD6``, and the datasheet's ``D6+1`` where it cannot be misread (a roll plus
    a number: only a bare ``D6``/``D3`` could be a flat 6 or 3, issue 41); a flat 3 or 6 as
    ``D 3``/``D 6`` so it never reads as a roll."""
    text = str(damage)
    if text in ("3", "6"):
        return f"D {text}"
    if damage.count == 1 and damage.sides and damage.constant > 0 and text.startswith("D"):
        return text
    return f"D{text}"


def _check_sizes(where: str, *checks: tuple[str, object, int]) -> None:
    """Refuse a value that is not a whole number, or one beyond what the engines can hold."""
    for label, value, limit in checks:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ProfileError(f"{label}{where} must be a whole number, not {value!r}")
        if value > limit:
            raise ProfileError(f"{label} {value:,}{where} is too large: at most {limit:,}")


def _keyword_matches(keyword: str, keywords: frozenset[str]) -> bool:
    if keyword.startswith("NON-"):
        return keyword[4:] not in keywords
    return keyword in keywords


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile as printed on a datasheet, carried by ``count`` models.

    Parameters
    ----------
    name
        Free text ("Bolt rifle").
    attacks
        A, a dice expression.
    skill
        BS or WS as the number before ``+`` (3 for BS3+), or ``None`` for N/A.
    strength, ap, damage
        S, AP (0 or negative) and D.
    melee
        True for melee weapons (WS), False for ranged weapons (BS).
    range_inches
        Range in inches for ranged weapons, or ``None`` when not given.
    abilities
        The weapon's abilities, in the order written.
    count
        How many models fire this weapon (``10x`` on the line).

    Examples
    --------
    >>> from mathhammer.wh40k.parse import parse_weapon
    >>> w = parse_weapon('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]')
    >>> w.count, w.skill, w.ap, str(w.damage)
    (10, 3, -1, '1')
    """

    attacks: DiceExpr
    skill: int | None
    strength: int
    ap: int
    damage: DiceExpr
    name: str = ""
    melee: bool = False
    range_inches: int | None = None
    abilities: tuple[Ability, ...] = ()
    count: int = 1

    def __post_init__(self) -> None:
        check_field_kinds(self, ProfileError)
        where = f" of '{self.name}'" if self.name else ""
        for label, value in (("attacks", self.attacks), ("damage", self.damage)):
            if not isinstance(value, DiceExpr):
                raise ProfileError(f"{label}{where} must be a DiceExpr, e.g. "
                                   f"DiceExpr.parse('D6'), not {value!r}")
        _check_sizes(where, ("weapon count", self.count, MAX_MODELS),
                     ("S", self.strength, MAX_NUMBER),
                     ("AP", -self.ap if isinstance(self.ap, int) else self.ap, MAX_NUMBER))
        if self.count < 1:
            raise ProfileError(f"weapon count {self.count}{where} must be at least 1",
                               token=f"{self.count}x")
        if self.attacks.minimum < 1 and not self.attacks.is_random:
            raise ProfileError(f"A{self.attacks}{where}: a weapon makes at least 1 attack",
                               token=f"A{self.attacks}")
        if self.skill is not None and not 2 <= self.skill <= 6:
            label = "WS" if self.melee else "BS"
            raise ProfileError(f"{label}{self.skill}+{where} is impossible: {label} runs from "
                               f"2+ to 6+ (write {label}N/A for weapons that never roll to hit)",
                               token=f"{label}{self.skill}+")
        if self.strength < 1:
            raise ProfileError(f"S{self.strength}{where} is impossible: S is at least 1",
                               token=f"S{self.strength}")
        if self.ap > 0:
            raise ProfileError(f"AP{self.ap}{where}: AP is 0 or negative; write AP-{self.ap}",
                               token=f"AP{self.ap}")
        if self.damage.minimum < 1 and not self.damage.is_random:
            raise ProfileError(f"D{self.damage}{where}: damage is at least 1",
                               token=f"D{self.damage}")
        if self.range_inches is not None:
            _check_sizes(where, ("range", self.range_inches, MAX_NUMBER))
        if self.range_inches is not None and self.range_inches < 1:
            raise ProfileError(f"range {self.range_inches}\"{where} must be at least 1\"",
                               token=f'{self.range_inches}"')

    # -- abilities ------------------------------------------------------------------------
    def has(self, name: str) -> bool:
        """Whether any instance of ability ``name`` is printed on the weapon (any scope)."""
        return any(a.name == name for a in self.abilities)

    def active(self, name: str, keywords: frozenset[str]) -> tuple[Ability, ...]:
        """Instances of ``name`` that apply against a target with ``keywords``."""
        return tuple(a for a in self.abilities if a.name == name and a.applies_to(keywords))

    @property
    def auto_hits(self) -> bool:
        """TORRENT, or a skill of N/A: no hit roll."""
        return self.skill is None or self.has(ab.TORRENT)

    def with_count(self, count: int) -> Weapon:
        return replace(self, count=count)

    def __str__(self) -> str:
        parts = []
        if self.count != 1:
            parts.append(f"{self.count}x")
        head = []
        if self.melee:
            head.append("Melee")
        elif self.range_inches is not None:
            head.append(f'{self.range_inches}"')
        label = "WS" if self.melee else "BS"
        skill = f"{label}N/A" if self.skill is None else f"{label}{self.skill}+"
        head += [f"A{self.attacks}", skill, f"S{self.strength}", f"AP{self.ap}",
                 _damage_text(self.damage)]
        text = " ".join(head)
        if self.abilities:
            text += " [" + ", ".join(str(a) for a in self.abilities) + "]"
        if self.name:
            parts.append(f"{self.name}:")
        parts.append(text)
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class TargetProfile:
    """``count`` identical models receiving the attacks.

    Parameters
    ----------
    toughness, save, wounds
        T, Sv (2..6, or 7 for no armour save) and W.
    invuln
        Invulnerable save (2..6) or ``None``.
    invuln_scope
        ``"all"``, ``"ranged"`` or ``"melee"``: which attacks the invulnerable save works
        against (Knights have 5+ against ranged attacks only).
    fnp, fnp_mortal
        Feel No Pain against every wound, and one that works only against mortal wounds.
    fnp_psychic
        Feel No Pain that works only against psychic attacks (weapons with [PSYCHIC]), their
        mortal wounds included; the best Feel No Pain that applies is used for each wound.
    keywords
        Upper-case keywords (INFANTRY, VEHICLE, CHARACTER...), plus STEALTH if every model
        has it.

    Examples
    --------
    >>> from mathhammer.wh40k.parse import parse_target
    >>> t = parse_target("5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]")
    >>> t.count, t.invuln, sorted(t.keywords)
    (5, 4, ['INFANTRY'])
    """

    toughness: int
    save: int
    wounds: int
    count: int = 1
    name: str = ""
    invuln: int | None = None
    invuln_scope: Literal["all", "ranged", "melee"] = "all"
    fnp: int | None = None
    fnp_mortal: int | None = None
    keywords: frozenset[str] = field(default_factory=frozenset)
    fnp_psychic: int | None = None

    def __post_init__(self) -> None:
        check_field_kinds(self, ProfileError)
        where = f" of '{self.name}'" if self.name else ""
        _check_sizes(where, ("model count", self.count, MAX_MODELS),
                     ("T", self.toughness, MAX_NUMBER), ("W", self.wounds, MAX_NUMBER))
        _check_sizes(where, ("wounds in all (models x W)", self.count * self.wounds,
                             MAX_TOTAL_WOUNDS))
        if self.count < 1:
            raise ProfileError(f"model count {self.count}{where} must be at least 1",
                               token=f"{self.count}x")
        if self.toughness < 1:
            raise ProfileError(f"T{self.toughness}{where} is impossible: T is at least 1",
                               token=f"T{self.toughness}")
        if not 2 <= self.save <= NO_SAVE:
            raise ProfileError(f"Sv{self.save}+{where} is impossible: saves run from 2+ to 6+ "
                               "(write Sv- or Sv7+ for none)", token=f"Sv{self.save}+")
        if self.invuln is not None and not 2 <= self.invuln <= 6:
            raise ProfileError(f"InSv{self.invuln}+{where} is impossible: invulnerable saves "
                               "run from 2+ to 6+", token=f"InSv{self.invuln}+")
        if self.wounds < 1:
            raise ProfileError(f"W{self.wounds}{where} is impossible: W is at least 1",
                               token=f"W{self.wounds}")
        for label, value in (("FNP", self.fnp), ("FNP (mortal)", self.fnp_mortal),
                             ("FNP (psychic)", self.fnp_psychic)):
            if value is not None and not 2 <= value <= 6:
                raise ProfileError(f"{label} {value}+{where} is impossible: Feel No Pain runs "
                                   "from 2+ to 6+", token=f"FNP{value}+")
        if self.invuln_scope not in ("all", "ranged", "melee"):
            raise ProfileError(f"invulnerable save scope '{self.invuln_scope}' must be all, "
                               "ranged or melee")
        object.__setattr__(self, "keywords", frozenset(k.upper() for k in self.keywords))

    @property
    def total_wounds(self) -> int:
        return self.count * self.wounds

    @property
    def has_stealth(self) -> bool:
        return ab.STEALTH in self.keywords

    @property
    def all_monster_or_vehicle(self) -> bool:
        return bool({"MONSTER", "VEHICLE"} & self.keywords)

    def with_count(self, count: int) -> TargetProfile:
        return replace(self, count=count)

    def __str__(self) -> str:
        parts = []
        if self.count != 1:
            parts.append(f"{self.count}x")
        if self.name:
            parts.append(f"{self.name}:")
        parts.append(f"T{self.toughness}")
        parts.append("Sv-" if self.save == NO_SAVE else f"Sv{self.save}+")
        if self.invuln is not None:
            scope = "" if self.invuln_scope == "all" else f"({self.invuln_scope})"
            parts.append(f"InSv{self.invuln}+{scope}")
        parts.append(f"W{self.wounds}")
        if self.fnp is not None:
            parts.append(f"FNP{self.fnp}+")
        if self.fnp_mortal is not None:
            parts.append(f"FNP{self.fnp_mortal}+(mortal)")
        if self.fnp_psychic is not None:
            parts.append(f"FNP{self.fnp_psychic}+(psychic)")
        text = " ".join(parts)
        if self.keywords:
            text += " [" + ", ".join(sorted(self.keywords)) + "]"
        return text


@dataclass(frozen=True, slots=True)
class Situation:
    """What happened on the table before the attacks (the CLI's situation flags).

    Parameters
    ----------
    half_range
        The target is within half range of the attacking models ([RAPID FIRE], [MELTA]).
    charged
        The attacking unit made a charge move this turn ([LANCE]).
    stationary
        No attacking model moved more than 3" this turn ([HEAVY]; indirect fire 1-3).
    cover
        The target has the benefit of cover against ranged attacks (BS worsened by 1).
    indirect
        The attacks are made by indirect shooting ([INDIRECT FIRE] weapons only).
    spotted
        For indirect shooting: a friendly unit can see the target.
    overwatch
        Snap shooting (Fire Overwatch): hits only on an unmodified 6.
    advanced
        The attacking unit advanced: assault shooting, only [ASSAULT] weapons (10.05).
    beyond_12
        The target is more than 12" away ([CONVERSION], a 10th-edition ability).
    below_half_strength
        The attacking unit is below half strength: the engines do not read it; it is a
        condition word of buffs (``when below half strength``, :mod:`mathhammer.wh40k.buffs`).
    """

    half_range: bool = False
    charged: bool = False
    stationary: bool = False
    cover: bool = False
    indirect: bool = False
    spotted: bool = False
    overwatch: bool = False
    advanced: bool = False
    beyond_12: bool = False
    below_half_strength: bool = False

    def __post_init__(self) -> None:
        check_field_kinds(self)
        if self.advanced and self.stationary:
            raise OptionError("a unit that advanced did not remain stationary; {drop advanced} "
                              "or {stationary}", options={"advanced": True, "stationary": True})
        if self.advanced and self.indirect:
            raise OptionError("indirect shooting needs a unit that did not advance (10.07); "
                              "{drop advanced} or {indirect}",
                              options={"advanced": True, "indirect": True})
        if self.indirect and self.overwatch:
            raise OptionError("indirect shooting and overwatch (snap shooting) are different "
                              "shooting types; choose one of {indirect} and {overwatch}",
                              options={"indirect": True, "overwatch": True})
        if self.spotted and not self.indirect:
            raise OptionError("{spotted} only matters for indirect shooting; {add indirect} "
                              "or {drop spotted}", options={"spotted": True, "indirect": True})


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Army rules, stratagems and auras a user toggles per run (the CLI's modifier flags).

    Parameters
    ----------
    hit_mod, wound_mod
        Net +N/-N to the hit and wound rolls (capped with every other roll modifier at +-1).
    skill_mod
        Improve (positive) or worsen (negative) BS/WS: a characteristic change, not capped.
    strength_mod
        Add to S (moves the wound-table row; not capped).
    reroll_hits, reroll_wounds, reroll_saves
        ``none``, ``ones``, ``failed``, ``noncrit`` (re-roll anything that is not a critical:
        fishing for criticals) or ``all``. ``reroll_saves`` is the defender's.
    crit_hits, crit_wounds
        Critical hits / wounds on N+ (6 by default).
    ap_mod
        Improve (positive: AP-1 becomes AP-2) or worsen (negative, never past AP0) the AP.
    save_mod
        +N/-N to the defender's save rolls, armour and invulnerable alike. In 10th edition
        a save roll is never improved by more than +1 in total, benefit of cover included.
    damage_plus
        The attacker's +N to D (applied with [MELTA], before halving).
    damage_minus, damage_halved
        The defender's "-N damage" and "halve damage" rules.
    fnp, fnp_mortal, fnp_psychic
        Feel No Pain N+ against all damage / against mortal wounds only / against psychic
        attacks only; override the target line's values when given.
    reroll_damage
        Re-roll the Damage roll of random-damage attacks (per attack): ``none``, ``ones``
        (the lowest result, a 1 on a D6) or ``low`` (a result below the dice expression's
        average: 1-3 on a D6, 2-4 on D6+1). See :data:`DICE_REROLL_POLICIES`. ``best``:
        each roll kept or rolled again as maximises ``reroll_goal``, knowing the wounds the
        model has left, the models left and the batch's rolls still to come (exact engine
        only; :mod:`mathhammer.wh40k.exact_engine.policies`).
    reroll_goal
        What ``reroll_damage="best"`` maximises: ``models_destroyed`` (the mean, the
        default), ``damage`` (mean wounds lost) or ``unit_destroyed`` (the chance).
    reroll_attacks
        Re-roll the Attacks roll of random-A weapons (per weapon), same policies.
    command_reroll
        A Command Re-roll, once per activation (all the weapon lines of one run): ``hit``,
        ``wound`` or ``save`` re-rolls the first such roll that fails and was not re-rolled
        already (``save`` is the defender's, and not on a save that cannot pass); ``damage``
        the first Damage roll below the dice expression's average (only its lowest die for
        a roll of several dice, see :attr:`Rules.cmd_reroll_multi_dice`). Both engines.
        ``damage_best``: on the Damage roll where it gains most for ``reroll_goal``, knowing
        the wounds the model has left and the rolls to come (exact engine only, its whole
        roll re-rolled; :mod:`mathhammer.wh40k.exact_engine.policies`).
    """

    hit_mod: int = 0
    wound_mod: int = 0
    skill_mod: int = 0
    strength_mod: int = 0
    reroll_hits: str = "none"
    reroll_wounds: str = "none"
    reroll_saves: str = "none"
    crit_hits: int = 6
    crit_wounds: int = 6
    ap_mod: int = 0
    save_mod: int = 0
    damage_plus: int = 0
    damage_minus: int = 0
    damage_halved: bool = False
    fnp: int | None = None
    fnp_mortal: int | None = None
    reroll_damage: str = "none"
    reroll_attacks: str = "none"
    fnp_psychic: int | None = None
    command_reroll: str = "none"
    reroll_goal: str = "models_destroyed"

    def __post_init__(self) -> None:
        check_field_kinds(self)
        for name, allowed, what in (
                ("command_reroll", COMMAND_REROLLS, "a roll a Command Re-roll can be spent on"),
                ("reroll_damage", DAMAGE_REROLL_POLICIES, "a re-roll policy for a dice "
                                                          "characteristic"),
                ("reroll_attacks", DICE_REROLL_POLICIES, "a re-roll policy for a dice "
                                                         "characteristic"),
                ("reroll_goal", REROLL_GOALS, "a goal for the best Damage re-roll"),
                *((name, REROLL_POLICIES, "a re-roll policy")
                  for name in ("reroll_hits", "reroll_wounds", "reroll_saves"))):
            if getattr(self, name) not in allowed:
                raise OptionError(f"{{{name}}} is not {what}; use one of {', '.join(allowed)}",
                                  options={name: getattr(self, name)})
        if self.command_reroll == "damage_best" and self.reroll_damage != "none" or \
                self.reroll_damage == "best" and self.command_reroll != "none":
            raise OptionError(f"{{command_reroll}} with reroll_damage = {self.reroll_damage}: "
                              "a Damage roll is re-rolled only once, and the best re-roll is "
                              "found without another; drop one of the two",
                              options={"command_reroll": self.command_reroll})
        if self.reroll_saves == "noncrit":
            raise OptionError("saves have no critical results: {reroll_saves} is not a policy "
                              "for saves; use ones or failed",
                              options={"reroll_saves": "noncrit"})
        for name in ("crit_hits", "crit_wounds"):
            value = getattr(self, name)
            if not 2 <= value <= 6:
                raise OptionError(f"{{{name}}} is impossible: critical results happen on 2+ "
                                  "to 6+ (6 is the default)", options={name: value})
        for name in ("damage_minus", "damage_plus"):
            if getattr(self, name) < 0:
                raise OptionError(f"{{{name}}} must not be negative",
                                  options={name: getattr(self, name)})
        for name in ("fnp", "fnp_mortal", "fnp_psychic"):
            value = getattr(self, name)
            if value is not None and not 2 <= value <= 6:
                raise OptionError(f"{{{name}}} is impossible: Feel No Pain runs from 2+ to 6+",
                                  options={name: value})


@dataclass(frozen=True, slots=True)
class Rules:
    """Engine switches for the points the rules leave open (spec section 10).

    Each default follows the rules as written; each is documented in docs/rules-readings.md.

    Parameters
    ----------
    roll_mod_cap
        Cap the net hit/wound roll modifier at +-1 (02.02.01, UNCERTAIN).
    lethal_policy
        [LETHAL HITS] is optional in 11e: ``always`` take the automatic wound, ``never``, or
        ``ev``: take it only when that gives more expected damage (9.4).
    sustained_extra_are_crit
        Whether [SUSTAINED HITS] extra hits are critical hits (UNCERTAIN, default no).
    torrent_in_snap
        [TORRENT] still hits automatically in snap shooting (UNCERTAIN, default yes).
    indirect_fail_beats_crit
        In indirect shooting, raw 1-5 (1-3) fails even when criticals happen on 5+
        (UNCERTAIN, default yes).
    dw_timing
        [DEVASTATING WOUNDS] mortal wounds after each ``batch`` (default) or at the end of
        the unit's attacks (``unit_end``, the 10e timing) (UNCERTAIN).
    defender_dmg_mods_vs_dw
        Whether the defender's damage reduction applies to [DEVASTATING WOUNDS] mortal
        wounds: ``by_trigger`` (only reductions triggered on being targeted, see
        ``damage_mod_trigger``), ``always`` or ``never`` (UNCERTAIN).
    damage_mod_trigger
        When the defender's damage reduction triggers: ``allocation`` (the usual wording,
        "each time an attack is allocated") or ``target``.
    edition
        ``11`` (default) or ``10``: the 10th-edition rules of the spec's Appendix A (cover on
        the armour save, Stealth as -1 to hit, mandatory [LETHAL HITS], the 10th damage
        modifier order, [DEVASTATING WOUNDS] and [HAZARDOUS] final texts, one-at-a-time
        allocation...). ``lethal_policy`` is an 11th-edition choice and has no effect under
        ``edition=10``; neither has ``dw_timing`` with the final [DEVASTATING WOUNDS] text.
    devastating_text
        10th edition only: ``final`` (default, the Rules Commentary: D mortal wounds on one
        model, after all the unit's other attacks, excess lost) or ``launch`` (the 2023
        text: D mortal wounds that spill over to other models, when ``dw_timing`` says:
        after each batch by default).
    cmd_reroll_multi_dice
        A Command Re-roll spent on a Damage roll of several dice (2D6, 2D3): ``one_die``
        (default) re-rolls one of them, the lowest, as the Command Re-roll picks one die of a
        roll of several (15.02); ``all`` re-rolls the whole roll (UNCERTAIN).
    """

    roll_mod_cap: bool = True
    lethal_policy: Literal["always", "never", "ev"] = "always"
    sustained_extra_are_crit: bool = False
    torrent_in_snap: bool = True
    indirect_fail_beats_crit: bool = True
    dw_timing: Literal["batch", "unit_end"] = "batch"
    defender_dmg_mods_vs_dw: Literal["by_trigger", "always", "never"] = "by_trigger"
    damage_mod_trigger: Literal["allocation", "target"] = "allocation"
    edition: int = 11
    devastating_text: Literal["final", "launch"] = "final"
    cmd_reroll_multi_dice: Literal["one_die", "all"] = "one_die"

    def __post_init__(self) -> None:
        if isinstance(self.edition, bool) or self.edition not in EDITIONS:
            raise OptionError(f"edition {self.edition!r} is not supported; use one of "
                              f"{', '.join(str(e) for e in EDITIONS)} (e.g. edition=10)",
                              token="edition")
        check_field_kinds(self)
        if self.devastating_text == "launch" and self.edition != 10:
            raise OptionError("devastating_text='launch' is a 10th-edition reading; add "
                              "edition=10 or drop it", token="devastating_text")
        choices = {"devastating_text": ("final", "launch"),
                   "lethal_policy": ("always", "never", "ev"),
                   "dw_timing": ("batch", "unit_end"),
                   "defender_dmg_mods_vs_dw": ("by_trigger", "always", "never"),
                   "damage_mod_trigger": ("allocation", "target"),
                   "cmd_reroll_multi_dice": ("one_die", "all")}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise OptionError(f"{name} '{getattr(self, name)}' must be one of "
                                  f"{', '.join(allowed)}", token=name)
