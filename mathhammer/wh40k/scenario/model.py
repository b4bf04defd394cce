"""Scenarios: units, activations in sequence, battle rounds; and their TOML files.

Model layer (stdlib only). A :class:`Scenario` holds the units on the table and a list of
:class:`Activation` s (a unit shoots, fights, or fires overwatch at one or more targets),
repeated for ``rounds`` battle rounds. :func:`select_attacks` turns an activation into the
weapons each model group actually uses, following 04.01 (Select Weapons) and 04.02 (Select
Targets); everything that breaks those rules is a :class:`ScenarioError` naming the unit,
the weapon and the fix (and, for files, the file and line).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import tomli

from mathhammer.errors import MathhammerError, ScenarioError, did_you_mean
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation, Weapon
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit, attach
from mathhammer.wh40k.parse import parse_target, parse_weapon

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
    """

    name: str
    target: str | None = None
    split: tuple[tuple[str, int], ...] = ()
    models: str | None = None


@dataclass(frozen=True, slots=True)
class Activation:
    """One unit making attacks: a shooting phase, a fight, or an out-of-phase overwatch."""

    phase: Phase
    attacker: str
    target: str | None = None
    weapons: tuple[WeaponChoice, ...] = ()
    situation: Situation = Situation()
    modifiers: Modifiers = Modifiers()
    order: tuple[str, ...] = ()
    label: str = ""

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
    """A selected weapon profile, used by every model of one model group, at one target."""

    group: str
    weapon: Weapon          # the chosen profile, count 1
    per_model: int          # how many of these weapons each model carries
    target: str
    split_attacks: int | None = None  # attacks per model when a melee weapon is split


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

    def __post_init__(self) -> None:
        if self.rounds < 1:
            raise ScenarioError(f"rounds = {self.rounds}: a scenario needs at least 1 round")
        if not self.activations:
            raise ScenarioError("the scenario has no activations: add [[activations]]")
        for activation in self.activations:
            for name in (activation.attacker, activation.target):
                if name is not None and name not in self.units:
                    raise ScenarioError(f"unknown unit '{name}'"
                                        f"{did_you_mean(name, self.units)} (activation "
                                        f"'{activation.label}')")
            select_attacks(self, activation)
        if not self.sides:
            object.__setattr__(self, "sides", infer_sides(self))
        missing = [u for u in self.units if u not in self.sides]
        if missing:
            raise ScenarioError(f"unit '{missing[0]}' has no side; give every unit a side or "
                                "none")


def infer_sides(scenario: Scenario) -> dict[str, str]:
    """Two-colour the attack graph: attackers and their targets are on opposite sides."""
    sides: dict[str, str] = {}
    edges = []
    for act in scenario.activations:
        for attack in select_attacks(scenario, act):
            edges.append((act.attacker, attack.target))
    names = list(scenario.units)
    for start in names:
        if start in sides:
            continue
        sides[start] = "A" if not sides else _fresh_side(sides)
        stack = [start]
        while stack:
            unit = stack.pop()
            for a, b in edges:
                for x, y in ((a, b), (b, a)):
                    if x != unit:
                        continue
                    other = "B" if sides[unit] == "A" else "A"
                    if y not in sides:
                        sides[y] = other
                        stack.append(y)
                    elif sides[y] == sides[unit]:
                        raise ScenarioError(
                            f"'{x}' attacks a unit on its own side ('{y}'); give every unit a "
                            "side explicitly (side = \"...\")")
    return sides


def _fresh_side(sides: dict[str, str]) -> str:
    return "A" if "A" not in sides.values() else ("B" if "B" not in sides.values() else "A")


# -- Select Weapons and Select Targets ---------------------------------------------------
def select_attacks(scenario: Scenario, activation: Activation) -> list[Attack]:
    """The weapons each model group uses in ``activation`` and their targets (04.01-04.02).

    Defaults: when shooting, every ranged weapon a model has (but not its [PISTOL] /
    [CLOSE-QUARTERS] sidearms when it has other ranged weapons, unless it is a MONSTER or
    VEHICLE); when fighting, each model's first listed melee weapon plus all its
    [EXTRA ATTACKS] weapons. A ``weapons`` list overrides this by name.

    Raises
    ------
    ScenarioError
        Unknown weapons or units, melee weapons while shooting (and the reverse), Hunter
        profiles at a forbidden target, splits that do not add up, two melee weapons on one
        model, sidearms mixed with other ranged weapons.
    """
    unit = scenario.units[activation.attacker]
    melee = activation.phase == "fight"
    where = f"activation '{activation.label}'"
    chosen: dict[str, list[tuple[CarriedWeapon, int, WeaponChoice | None]]] = {
        g.name: [] for g in unit.groups}
    if activation.weapons:
        for choice in activation.weapons:
            matched = False
            for group in unit.groups:
                if choice.models is not None and group.name.lower() != choice.models.lower():
                    continue
                for carried in group.weapons:
                    index = _match(carried, choice.name)
                    if index is None:
                        continue
                    if carried.melee != melee:
                        kind = "melee" if carried.melee else "ranged"
                        fix = ("use it in a fight activation" if carried.melee
                               else "use it in a shooting activation")
                        raise ScenarioError(f"{where}: '{choice.name}' is a {kind} weapon and "
                                            f"the phase is {activation.phase}; {fix}")
                    chosen[group.name].append((carried, index, choice))
                    matched = True
            if not matched:
                names = {w.name for g in unit.groups for w in g.weapons} | {
                    p.name for g in unit.groups for w in g.weapons for p in w.profiles}
                raise ScenarioError(f"{where}: unit '{unit.name}' has no weapon "
                                    f"'{choice.name}'{did_you_mean(choice.name, names)}")
    for group in unit.groups:
        picks = chosen[group.name]
        if melee:
            picks = _fight_selection(group, picks, where)
        elif not picks and not activation.weapons:
            picks = _shooting_defaults(group)
            if activation.situation.advanced:  # 10.05: assault shooting
                picks = [p for p in picks if p[0].profiles[p[1]].has(ab.ASSAULT)]
        _check_sidearms(group, picks, where, melee)
        chosen[group.name] = picks

    attacks: list[Attack] = []
    for group in unit.groups:
        seen: set[tuple[int, int]] = set()
        for carried, index, choice in chosen[group.name]:
            if (id(carried), index) in seen:
                raise ScenarioError(f"{where}: model group '{group.name}' selects "
                                    f"'{carried.profiles[index].name or carried.name}' twice")
            seen.add((id(carried), index))
            profile = carried.profiles[index]
            if choice is not None and choice.split:
                attacks.extend(_split(scenario, activation, carried, index, profile,
                                      carried.per_model, choice, where, group.name))
                continue
            target = (choice.target if choice and choice.target else activation.target)
            if target is None:
                raise ScenarioError(f"{where}: '{carried.name}' has no target; set target = "
                                    "\"...\" on the activation or the weapon")
            _check_target(scenario, activation, carried, index, target, where)
            attacks.append(Attack(group.name, profile, carried.per_model, target))
    if not attacks:
        raise ScenarioError(f"{where}: unit '{unit.name}' has no "
                            f"{'melee' if melee else 'ranged'} weapon to use")
    return attacks


def _match(carried: CarriedWeapon, name: str) -> int | None:
    if carried.name.strip().lower() == name.strip().lower():
        return 0
    return carried.profile_named(name)


def _shooting_defaults(group: ModelGroup):
    ranged = [w for w in group.weapons if not w.melee]
    sidearm = {id(w) for w in ranged
               if w.profiles[0].has(ab.PISTOL) or w.profiles[0].has(ab.CLOSE_QUARTERS)}
    others = [w for w in ranged if id(w) not in sidearm]
    if group.is_monster_or_vehicle or not others:
        return [(w, 0, None) for w in ranged]
    return [(w, 0, None) for w in others]


def _fight_selection(group: ModelGroup, picks, where: str):
    extra = [w for w in group.weapons if w.melee and w.profiles[0].has(ab.EXTRA_ATTACKS)]
    main = [p for p in picks if not p[0].profiles[p[1]].has(ab.EXTRA_ATTACKS)]
    if len({id(p[0]) for p in main}) > 1:
        raise ScenarioError(f"{where}: model group '{group.name}' would fight with two melee "
                            f"weapons ({', '.join(p[0].name for p in main)}); each model uses "
                            "one melee weapon plus its [EXTRA ATTACKS] weapons (04.01, 24.11)")
    if not main:
        first = next((w for w in group.weapons
                      if w.melee and not w.profiles[0].has(ab.EXTRA_ATTACKS)), None)
        main = [(first, 0, None)] if first is not None else []
    chosen_extra = [p for p in picks if p[0].profiles[p[1]].has(ab.EXTRA_ATTACKS)]
    for w in extra:
        if not any(p[0] is w for p in chosen_extra):
            chosen_extra.append((w, 0, None))
    return main + chosen_extra


def _check_sidearms(group: ModelGroup, picks, where: str, melee: bool) -> None:
    if melee or group.is_monster_or_vehicle:
        return
    kinds = {p[0].profiles[p[1]].has(ab.PISTOL) or p[0].profiles[p[1]].has(ab.CLOSE_QUARTERS)
             for p in picks}
    if len(kinds) > 1:
        raise ScenarioError(f"{where}: model group '{group.name}' cannot shoot its [PISTOL] / "
                            "[CLOSE-QUARTERS] weapons together with its other ranged weapons "
                            "(24.07); select one kind")


def _check_target(scenario: Scenario, activation: Activation, carried: CarriedWeapon,
                  index: int, target: str, where: str) -> None:
    if target not in scenario.units:
        raise ScenarioError(f"{where}: unknown target unit '{target}'"
                            f"{did_you_mean(target, scenario.units)}")
    if target == activation.attacker:
        raise ScenarioError(f"{where}: unit '{target}' cannot attack itself")
    hunter = carried.hunter[index]
    if hunter and not (hunter & scenario.units[target].keywords):
        raise ScenarioError(f"{where}: '{carried.profiles[index].name or carried.name}' is a "
                            f"Hunter profile that may only target {'/'.join(sorted(hunter))} "
                            f"units, and '{target}' is none of them (04.01.03)")


def _split(scenario, activation, carried, index, profile, per_model, choice, where, group):
    if profile.attacks.is_random:
        raise ScenarioError(f"{where}: '{carried.name}' has random attacks (A{profile.attacks}); "
                            "splitting it between targets is not supported")
    total = sum(n for _, n in choice.split)
    if total != profile.attacks.constant:
        raise ScenarioError(f"{where}: the split of '{carried.name}' sends {total} attacks per "
                            f"model but the weapon has A{profile.attacks.constant}; make the "
                            "numbers add up (04.03.02)")
    if any(n < 1 for _, n in choice.split):
        raise ScenarioError(f"{where}: every target of a split gets at least 1 attack")
    out = []
    for target, n in choice.split:
        _check_target(scenario, activation, carried, index, target, where)
        out.append(Attack(group, profile, per_model, target, split_attacks=n))
    return out


# -- TOML files ---------------------------------------------------------------------------
def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file (TOML; schema in the README).

    Raises
    ------
    ScenarioError
        ``FILE:LINE: message`` for anything the rules or the schema do not allow.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario file '{path}': {exc.strerror or exc}") \
            from None
    return parse_scenario(text, source=str(path))


def parse_scenario(text: str, source: str = "<scenario>") -> Scenario:
    """Build a :class:`Scenario` from TOML text (see :func:`load_scenario`)."""
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None
    locator = _Locator(text, source)
    _check_keys(data, {"units", "activations", "rounds", "rules"}, "the top level", locator, None)
    raw_units = data.get("units")
    if not isinstance(raw_units, dict) or not raw_units:
        raise ScenarioError(locator.at(None, "the scenario has no units: add [units.NAME] "
                                             "tables"))
    units: dict[str, Unit] = {}
    sides: dict[str, str] = {}
    attachments: dict[str, list[str]] = {}
    for name, spec in raw_units.items():
        anchor = f"[units.{name}]"
        try:
            unit, side, attached = _unit_from_toml(name, spec)
        except MathhammerError as exc:
            raise ScenarioError(locator.at(anchor, str(exc), name)) from None
        units[name] = unit
        if side is not None:
            sides[name] = side
        if attached:
            attachments[name] = attached
    for bodyguard, attached in attachments.items():
        anchor = f"[units.{bodyguard}]"
        for leader in attached:
            if leader not in units:
                raise ScenarioError(locator.at(anchor, f"unit '{bodyguard}' attaches unknown "
                                               f"unit '{leader}'{did_you_mean(leader, units)}",
                                               leader))
        try:
            units[bodyguard] = attach(units[bodyguard], *(units[n] for n in attached))
        except MathhammerError as exc:
            raise ScenarioError(locator.at(anchor, str(exc), "attached")) from None
        for leader in attached:
            del units[leader]
            sides.pop(leader, None)
    rounds = data.get("rounds", 1)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1:
        raise ScenarioError(locator.at("rounds", f"rounds = {rounds!r} must be a whole number "
                                                 "of at least 1"))
    try:
        rules = Rules(**data.get("rules", {}))
    except TypeError as exc:
        raise ScenarioError(locator.at("[rules]", f"unknown rule switch: {exc}")) from None
    except MathhammerError as exc:
        raise ScenarioError(locator.at("[rules]", str(exc))) from None
    raw_acts = data.get("activations")
    if not isinstance(raw_acts, list) or not raw_acts:
        raise ScenarioError(locator.at(None, "the scenario has no activations: add "
                                             "[[activations]] tables"))
    activations = []
    for i, spec in enumerate(raw_acts):
        line_anchor = ("[[activations]]", i)
        try:
            activations.append(_activation_from_toml(spec))
        except MathhammerError as exc:
            raise ScenarioError(locator.at(line_anchor, f"activation {i + 1}: {exc}",
                                           _quoted(str(exc), first=True))) from None
    try:
        return Scenario(units=units, activations=tuple(activations), rounds=rounds,
                        sides=sides if sides else {}, rules=rules)
    except MathhammerError as exc:
        message = str(exc)
        anchor = None
        for i, act in enumerate(activations):
            if f"'{act.label}'" in message:
                anchor = ("[[activations]]", i)
        raise ScenarioError(locator.at(anchor, message, _quoted(message))) from None


def _quoted(message: str, first: bool = False) -> str | None:
    """A quoted token of an error message to look for in the file."""
    found = re.findall(r"'([^']+)'", message)
    if first or len(found) < 2:
        return found[0] if found else None
    return found[1]


class _Locator:
    """Find the line of a TOML table or value, for error messages."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source

    def at(self, anchor, message: str, needle: str | None = None) -> str:
        line = self._find(anchor, needle)
        where = f"{self.source}:{line}" if line else self.source
        return f"{where}: {message}"

    def _find(self, anchor, needle) -> int | None:
        start = 0
        if isinstance(anchor, tuple):
            header, index = anchor
            hits = [i for i, text in enumerate(self.lines) if text.strip().startswith(header)]
            if index < len(hits):
                start = hits[index]
            else:
                return None
        elif isinstance(anchor, str):
            hits = [i for i, text in enumerate(self.lines)
                    if text.strip().startswith(anchor)
                    or text.strip().startswith(anchor.strip("[]"))]
            if not hits:
                return None
            start = hits[0]
        if needle:
            for i in range(start, len(self.lines)):
                if needle in self.lines[i]:
                    return i + 1
        return start + 1 if anchor is not None else None


def _check_keys(spec: dict, allowed: set[str], what: str, locator=None, anchor=None) -> None:
    for key in spec:
        if key not in allowed:
            message = (f"unknown key '{key}' in {what}{did_you_mean(key, allowed).lower()}; "
                       f"allowed: {', '.join(sorted(allowed))}")
            raise ScenarioError(locator.at(anchor, message, key) if locator else message)


def _unit_from_toml(name: str, spec: Any) -> tuple[Unit, str | None, list[str]]:
    if not isinstance(spec, dict):
        raise ScenarioError(f"unit '{name}' must be a table with a models list")
    _check_keys(spec, {"models", "points", "attached", "allocation_order", "defense", "side"},
                f"unit '{name}'")
    models = spec.get("models")
    if not isinstance(models, list) or not models:
        raise ScenarioError(f"unit '{name}' needs models = [{{ name = ..., count = ..., "
                            "profile = ..., weapons = [...] }}]")
    groups = tuple(_group_from_toml(name, m) for m in models)
    if "points" in spec:
        points = _number(spec["points"], f"unit '{name}' points")
        share = points / sum(g.count for g in groups)
        groups = tuple(dataclasses.replace(g, points=g.points if g.points is not None
                                           else share * g.count) for g in groups)
    defense = spec.get("defense", {})
    if not isinstance(defense, dict):
        raise ScenarioError(f"unit '{name}': defense must be a table")
    _check_keys(defense, {"damage_minus", "damage_halved", "reroll_saves"},
                f"unit '{name}' defense")
    order = spec.get("allocation_order", "listed")
    if isinstance(order, list):
        order = tuple(str(x) for x in order)
    attached = spec.get("attached", [])
    if isinstance(attached, str):
        attached = [attached]
    unit = Unit(name=name, groups=groups, allocation_order=order,
                damage_minus=int(defense.get("damage_minus", 0)),
                damage_halved=bool(defense.get("damage_halved", False)),
                reroll_saves=str(defense.get("reroll_saves", "none")))
    if len(attached) > 2:
        raise ScenarioError(f"unit '{name}' attaches {len(attached)} units "
                            f"({', '.join(attached)}): a bodyguard unit takes at most one "
                            "Leader and one Support unit (19.01)")
    return unit, spec.get("side"), list(attached)


def _group_from_toml(unit: str, spec: Any) -> ModelGroup:
    if not isinstance(spec, dict):
        raise ScenarioError(f"unit '{unit}': each model entry must be a table "
                            "{ name = ..., count = ..., profile = ..., weapons = [...] }")
    _check_keys(spec, {"name", "count", "profile", "weapons", "points"},
                f"a model entry of unit '{unit}'")
    name = str(spec.get("name", unit))
    count = spec.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool):
        raise ScenarioError(f"model group '{name}': count = {count!r} must be a whole number")
    if "profile" not in spec:
        raise ScenarioError(f"model group '{name}' needs profile = \"T4 Sv3+ W2 [INFANTRY]\"")
    profile = parse_target(str(spec["profile"]))
    weapons = []
    for entry in spec.get("weapons", []):
        weapons.append(_weapon_from_toml(name, entry))
    points = _number(spec["points"], f"model group '{name}' points") if "points" in spec \
        else None
    return ModelGroup(name=name, count=count, profile=profile, weapons=tuple(weapons),
                      points=points)


def _weapon_from_toml(group: str, entry: Any) -> CarriedWeapon:
    if isinstance(entry, str):
        return CarriedWeapon.single(parse_weapon(entry))
    if not isinstance(entry, dict):
        raise ScenarioError(f"model group '{group}': a weapon is a line or a table "
                            "{ name = ..., profiles = [...] }")
    _check_keys(entry, {"name", "line", "profiles", "hunter"}, f"a weapon of '{group}'")
    lines = entry.get("profiles") or ([entry["line"]] if "line" in entry else [])
    if not lines:
        raise ScenarioError(f"model group '{group}': weapon {entry.get('name', '?')!r} needs "
                            "line = \"...\" or profiles = [\"...\", ...]")
    parsed = [parse_weapon(str(line)) for line in lines]
    profiles = tuple(p.with_count(1) for p in parsed)
    hunter_spec = entry.get("hunter", [])
    if isinstance(hunter_spec, str):
        hunter_spec = [hunter_spec]
    hunter = frozenset(str(k).upper() for k in hunter_spec)
    name = str(entry.get("name") or profiles[0].name)
    return CarriedWeapon(name, profiles, tuple(hunter for _ in profiles),
                         per_model=parsed[0].count)


def _activation_from_toml(spec: Any) -> Activation:
    if not isinstance(spec, dict):
        raise ScenarioError("each [[activations]] entry must be a table")
    _check_keys(spec, {"phase", "attacker", "target", "weapons", "situation", "modifiers",
                       "order", "label"}, "an activation")
    for key in ("phase", "attacker"):
        if key not in spec:
            raise ScenarioError(f"missing {key} = \"...\"")
    situation = _dataclass_from(Situation, spec.get("situation", {}), "situation")
    modifiers = _dataclass_from(Modifiers, spec.get("modifiers", {}), "modifiers")
    weapons = []
    for entry in spec.get("weapons", []):
        if isinstance(entry, str):
            weapons.append(WeaponChoice(entry))
            continue
        if not isinstance(entry, dict) or "name" not in entry:
            raise ScenarioError("each weapon choice is a name or { name = ..., target = ..., "
                                "split = { UNIT = N, ... }, models = ... }")
        _check_keys(entry, {"name", "target", "split", "models"}, "a weapon choice")
        split = entry.get("split", {})
        if not isinstance(split, dict):
            raise ScenarioError("split must be a table { UNIT = attacks per model, ... }")
        weapons.append(WeaponChoice(str(entry["name"]), entry.get("target"),
                                    tuple((str(k), int(v)) for k, v in split.items()),
                                    entry.get("models")))
    return Activation(phase=str(spec["phase"]), attacker=str(spec["attacker"]),
                      target=spec.get("target"), weapons=tuple(weapons), situation=situation,
                      modifiers=modifiers, order=tuple(spec.get("order", ())),
                      label=str(spec.get("label", "")))


def _dataclass_from(cls, spec: Any, what: str):
    if not isinstance(spec, dict):
        raise ScenarioError(f"{what} must be a table {{ key = value, ... }}")
    fields = {f.name for f in dataclasses.fields(cls)}
    _check_keys(spec, fields, what)
    return cls(**spec)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ScenarioError(f"{what} = {value!r} must be a non-negative number")
    return float(value)
