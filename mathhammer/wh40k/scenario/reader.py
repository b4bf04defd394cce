"""Scenario files: TOML text to a :class:`~.model.Scenario` (schema in the README).

Errors are :class:`~mathhammer.errors.ScenarioError` with ``FILE:LINE`` where the offending
key or value can be found in the text.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import tomli

from mathhammer.errors import MathhammerError, ScenarioError, did_you_mean
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation
from mathhammer.wh40k.scenario.activations import Activation, WeaponChoice
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit, attach


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
