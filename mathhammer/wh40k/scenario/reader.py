"""Scenario files: TOML text to a :class:`~.model.Scenario` (schema in
docs/guide/wh40k/scenarios.md).

Errors are :class:`~mathhammer.errors.ScenarioError` with ``FILE:LINE`` where the offending
key or value can be found in the text.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import tomli

from mathhammer.core.files import MAX_TOML_NESTING, read_bounded, too_deeply_nested
from mathhammer.core.inputs import real_number, switch, text, texts
from mathhammer.core.limits import MAX_MODELS, MAX_NUMBER
from mathhammer.errors import MathhammerError, ScenarioError, did_you_mean
from mathhammer.wh40k.options import build_checked
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.profiles import Modifiers, Rules, Situation
from mathhammer.wh40k.scenario.activations import Activation, WeaponChoice
from mathhammer.wh40k.scenario.model import (MAX_ACTIVATIONS, MAX_ROUNDS, RULE_CHOICES,
                                             OpenChoices, Scenario, ScenarioRules,
                                             check_precision_pick, check_precision_pick_kind)
from mathhammer.wh40k.scenario.plain_text import refuse_unsafe_texts
from mathhammer.wh40k.scenario.toml_lines import canonical_lines
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit, attach


#: Most points a unit or model group may cost (real units cost tens to hundreds).
MAX_POINTS = 1_000_000


def load_scenario(path: str | Path, *, open_choices: bool = False) -> Scenario:
    """Read a scenario file (TOML; schema in the README).

    With ``open_choices``, activations may leave choices to the decision optimiser
    (``targets = [...]``, a ``choose`` table; kept in :attr:`Scenario.open_choices`);
    without it such an activation is refused, since ``run`` needs one target.

    Raises
    ------
    ScenarioError
        ``FILE:LINE: message`` for anything the rules or the schema do not allow.
    """
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise ScenarioError(f"a scenario is a Scenario or the path of a TOML file, not "
                            f"{type(path).__name__} {path!r:.60}")
    switch(open_choices, "open_choices")   # bool('no') is True
    path = Path(path)
    try:
        raw = read_bounded(path)
        text = raw.decode("utf-8")
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario file '{path}': {exc.strerror or exc}") \
            from None
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ScenarioError(f"{path}:{line}: the file is not UTF-8 text (byte "
                            f"0x{exc.object[exc.start]:02x}); save it as UTF-8") from None
    return parse_scenario(text, source=str(path), open_choices=open_choices)


def parse_scenario(text: str, source: str = "<scenario>", *,
                   open_choices: bool = False, buffs: Any = ()) -> Scenario:
    """Build a :class:`Scenario` from TOML text (see :func:`load_scenario`). ``buffs``
    (texts, names of the scenario's ``[buffs]`` table or :class:`~mathhammer.wh40k.buffs.Buff`
    objects) are added to every activation's ``buffs = [...]``, as if typed there."""
    if not isinstance(text, str):
        raise ScenarioError(f"a scenario is TOML text (or load_scenario(path)), not "
                            f"{type(text).__name__} {text!r:.60}")
    switch(open_choices, "open_choices")
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some editors save UTF-8
    deep = too_deeply_nested(text)
    if deep is not None:
        raise ScenarioError(f"{source}:{deep}: arrays or tables nested more than "
                            f"{MAX_TOML_NESTING} deep; a scenario needs three levels at most")
    try:
        data = tomli.loads(text)
    except tomli.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        line = max(range(len(text.splitlines())), key=lambda i: text.splitlines()[i].count("."),
                   default=0) + 1
        raise ScenarioError(f"{source}:{line}: a key or table name of too many dotted parts; "
                            "a scenario needs three at most ([units.NAME])") from None
    locator = _Locator(text, source)
    refuse_unsafe_texts(data, locator)
    _check_keys(data, {"units", "activations", "rounds", "rules", "buffs"}, "the top level",
                locator, None)
    library = _buff_library(data.get("buffs"), locator)
    raw_units = data.get("units")
    if not isinstance(raw_units, dict) or not raw_units:
        raise locator.error(None, "the scenario has no units: add [units.NAME] "
                            "tables")
    units: dict[str, Unit] = {}
    sides: dict[str, str] = {}
    attachments: dict[str, list[str]] = {}
    for name, spec in raw_units.items():
        anchor = f"[units.{name}]"
        try:
            unit, side, attached = _unit_from_toml(name, spec)
        except MathhammerError as exc:
            raise locator.error(anchor, str(exc), name) from None
        units[name] = unit
        if side is not None:
            sides[name] = side
        if attached:
            attachments[name] = attached
    leaders = _check_attachments(attachments, locator)
    for bodyguard, attached in attachments.items():
        anchor = f"[units.{bodyguard}]"
        for leader in attached:
            if leader not in units:
                raise locator.error(anchor, f"unit '{bodyguard}' attaches unknown "
                                    f"unit '{leader}'{did_you_mean(leader, units)}",
                                    leader)
        try:
            units[bodyguard] = attach(units[bodyguard], *(units[n] for n in attached))
        except MathhammerError as exc:
            raise locator.error(anchor, str(exc), "attached") from None
        for leader in attached:
            del units[leader]
            sides.pop(leader, None)
    rounds = data.get("rounds", 1)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise locator.error("rounds", f"rounds = {rounds!r} must be a whole number "
                            f"from 1 to {MAX_ROUNDS}")
    rules, switches = _rules_from_toml(data.get("rules", {}), units, locator)
    raw_acts = data.get("activations")
    if not isinstance(raw_acts, list) or not raw_acts:
        raise locator.error(None, "the scenario has no activations: add "
                            "[[activations]] tables")
    if len(raw_acts) > MAX_ACTIVATIONS:
        raise locator.error(("[[activations]]", MAX_ACTIVATIONS), (
            f"{len(raw_acts):,} [[activations]]: a scenario lists at most "
            f"{MAX_ACTIVATIONS:,}; split it into several scenarios"))
    activations, choices = [], []
    for i, spec in enumerate(raw_acts):
        line_anchor = ("[[activations]]", i)
        try:
            activation, open_choice = _activation_from_toml(spec, open_choices, library)
        except MathhammerError as exc:
            raise locator.error(line_anchor, f"activation {i + 1}: {exc}", exc.token) from None
        activations.append(activation)
        choices.append(open_choice)
    if buffs:   # issue 35: the web page's buffs, on every activation
        from mathhammer.wh40k.buffs import resolve_buffs

        extra = tuple(resolve_buffs(buffs, library))
        activations = [dataclasses.replace(a, buffs=tuple(a.buffs) + extra)
                       for a in activations]
    _check_activations(activations, units, sides, leaders, locator, choices)
    try:
        origins = tuple(locator.where(("[[activations]]", i)) for i in range(len(activations)))
        return Scenario(units=units, activations=tuple(activations), rounds=rounds,
                        sides=sides if sides else {}, rules=rules, switches=switches,
                        origins=origins,
                        open_choices=tuple(choices)
                        if any(c.targets or c.options for c in choices) else ())
    except MathhammerError as exc:
        named: tuple[str, int] | None = None   # the activation the error concerns
        for i, act in enumerate(activations):
            if act.label == exc.activation:
                named = ("[[activations]]", i)
        raise locator.error(named, str(exc), exc.token) from None


def _rules_from_toml(spec: Any, units: dict[str, Unit], locator: _Locator
                     ) -> tuple[Rules, ScenarioRules]:
    """The ``[rules]`` table: the attack switches (:class:`Rules`) and the whole-unit
    engine's own (:class:`ScenarioRules`), told apart by name."""
    if not isinstance(spec, dict):
        raise locator.error("[rules]", "[rules] must be a table { key = value, ... }")
    own_fields = {f.name for f in dataclasses.fields(ScenarioRules)}
    allowed = {f.name for f in dataclasses.fields(Rules)} | own_fields
    _check_keys(spec, allowed, "[rules]", locator, "[rules]")
    own = {k: v for k, v in spec.items() if k in own_fields}
    try:
        rules = _dataclass_from(Rules, {k: v for k, v in spec.items() if k not in own}, "[rules]")
    except MathhammerError as exc:
        raise locator.error("[rules]", str(exc), exc.token) from None
    for key, value in own.items():
        try:
            if key == "precision_pick":
                check_precision_pick(units, value)
            else:
                ScenarioRules(**{key: value})
        except MathhammerError as exc:
            raise locator.error("[rules]", f"[rules] {exc}", key) from None
    return rules, ScenarioRules(**own)


def _check_attachments(attachments: dict[str, list[str]], locator: _Locator) -> dict[str, str]:
    """Refuse a unit attached to itself, to two units, or one that is both attached and a
    bodyguard (a cycle); return leader -> bodyguard."""
    leaders: dict[str, str] = {}
    for bodyguard, attached in attachments.items():
        anchor = f"[units.{bodyguard}]"
        for leader in attached:
            problem = None
            if leader == bodyguard:
                problem = f"unit '{bodyguard}' is attached to itself: remove it from attached"
            elif leader in leaders:
                problem = (f"unit '{leader}' is attached to both '{leaders[leader]}' and "
                           f"'{bodyguard}': attach it to one unit")
            elif leader in attachments:
                problem = (f"unit '{leader}' is attached to '{bodyguard}' and has units "
                           "attached itself: an attached unit cannot take attachments (19.01)")
            if problem:
                raise locator.error(anchor, problem, "attached")
            leaders[leader] = bodyguard
    return leaders


def _check_activations(activations: list[Activation], units: dict[str, Unit],
                       sides: dict[str, str], leaders: dict[str, str],
                       locator: _Locator, choices: list[OpenChoices]) -> None:
    """Name attached units, same-side attacks and unknown weapon names in ``order``."""
    for i, (act, choice) in enumerate(zip(activations, choices)):
        anchor = ("[[activations]]", i)
        targets = [act.target] + [w.target for w in act.weapons] + \
            [name for w in act.weapons for name, _ in w.split] + list(choice.targets)
        for name in [act.attacker, *targets]:
            if name in leaders:
                raise locator.error(anchor, (
                    f"activation {i + 1}: unit '{name}' is attached to '{leaders[name]}' and "
                    f"fights as part of it: name '{leaders[name]}' instead"), name)
        side = sides.get(act.attacker)
        for name in targets:
            if name is not None and side is not None and sides.get(name) == side:
                raise locator.error(anchor, (
                    f"activation {i + 1}: '{act.attacker}' attacks '{name}' of its own side "
                    f"'{side}': attack a unit of the other side"), name)
        if act.precision_pick is not None:
            try:
                check_precision_pick(units, act.precision_pick)
            except MathhammerError as exc:
                raise locator.error(anchor, f"activation {i + 1}: {exc}",
                                    act.precision_pick) from None
        unit = units.get(act.attacker)
        if unit is None:
            continue
        groups = {g.name.lower(): g.name for g in unit.groups}
        for weapon in act.weapons:
            if weapon.models is not None and weapon.models.lower() not in groups:
                raise locator.error(anchor, (
                    f"activation {i + 1}: weapon '{weapon.name}' names models "
                    f"'{weapon.models}', but '{act.attacker}' has no such model group "
                    f"(groups: {', '.join(groups.values())})"), weapon.models)
        known = {w.name.lower(): w.name for g in unit.groups for w in g.weapons}
        known.update({p.name.lower(): p.name for g in unit.groups for w in g.weapons
                      for p in w.profiles if p.name})
        for name in act.order:
            if str(name).lower() not in known:
                raise locator.error(anchor, (
                    f"activation {i + 1}: order names '{name}', which '{act.attacker}' does "
                    f"not carry{did_you_mean(str(name), known.values())}"), str(name))


class _Locator:
    """Find the line of a TOML table or value, for error messages.

    Each header's lines are found in one pass over the file and kept, so naming the origin of
    every activation costs a look-up each, not a pass over the file each.
    """

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.stripped = canonical_lines(text)   # [units."A B"] read as [units.A B]
        self.source = source
        self._headers: dict[str, list[int]] = {}

    def error(self, anchor, message: str, needle: str | None = None) -> ScenarioError:
        """A :class:`ScenarioError` saying ``message`` at the line of ``needle`` (else of
        ``anchor``)."""
        return ScenarioError(message, token=needle, location=self.where(anchor, needle))

    def where(self, anchor, needle: str | None = None) -> str:
        """``FILE:LINE`` of ``anchor`` (just ``FILE`` when it cannot be found)."""
        line = self._find(anchor, needle)
        return f"{self.source}:{line}" if line else self.source

    def _starts(self, prefix: str) -> list[int]:
        """0-based numbers of the lines that start with ``prefix`` as a whole key (found once
        per prefix): ``units.Boy`` is not the start of ``units.Boyz = ...``."""
        if prefix not in self._headers:
            self._headers[prefix] = [i for i, text in enumerate(self.stripped)
                                     if _starts_with_key(text, prefix)]
        return self._headers[prefix]

    def _find(self, anchor, needle) -> int | None:
        start = 0
        if isinstance(anchor, tuple):
            header, index = anchor
            hits = self._starts(header)
            if index >= len(hits):
                return None
            start = hits[index]
        elif isinstance(anchor, str):
            hits = sorted(set(self._starts(anchor)) | set(self._starts(anchor.strip("[]"))))
            if not hits:
                return None
            start = hits[0]
        if needle:
            for i in range(start, len(self.lines)):
                if needle in self.lines[i]:
                    return i + 1
        return start + 1 if anchor is not None else None


def _starts_with_key(line: str, key: str) -> bool:
    """Whether canonical ``line`` starts with the header or whole dotted ``key``."""
    return line.startswith(key) and (key.endswith("]") or line[len(key):len(key) + 1] in
                                     ("", " ", "."))


def _check_keys(spec: dict, allowed: set[str], what: str, locator=None, anchor=None) -> None:
    for key in spec:
        if key not in allowed:
            message = (f"unknown key '{key}' in {what}{did_you_mean(key, allowed).lower()}; "
                       f"allowed: {', '.join(sorted(allowed))}")
            raise (locator.error(anchor, message, key) if locator
                   else ScenarioError(message, token=key))


def _unit_from_toml(name: str, spec: Any) -> tuple[Unit, str | None, list[str]]:
    if not isinstance(spec, dict):
        raise ScenarioError(f"unit '{name}' must be a table with a models list")
    _check_keys(spec, {"models", "unit", "points", "attached", "allocation_order", "defense",
                       "side"}, f"unit '{name}'")
    if "unit" in spec:
        groups = _named_groups(name, spec)
    else:
        models = spec.get("models")
        if not isinstance(models, list) or not models:
            raise ScenarioError(f"unit '{name}' needs models = [{{ name = ..., count = ..., "
                                "profile = ..., weapons = [...] }}] (or unit = \"@Name\", a "
                                "datasheet of your BSData checkout)")
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
        order = tuple(order)  # Unit refuses an item that is not a group name
    attached = spec.get("attached", [])
    if isinstance(attached, str):
        attached = [attached]
    if not isinstance(attached, list) or not all(isinstance(a, str) for a in attached):
        raise ScenarioError(f"unit '{name}': attached = {attached!r} must be a unit name or a "
                            "list of unit names")
    damage_minus = defense.get("damage_minus", 0)
    if isinstance(damage_minus, bool) or not isinstance(damage_minus, int) \
            or not 0 <= damage_minus <= MAX_NUMBER:
        raise ScenarioError(f"unit '{name}': defense damage_minus = {damage_minus!r} must be a "
                            "whole number of at least 0")
    if not isinstance(defense.get("damage_halved", False), bool):
        raise ScenarioError(f"unit '{name}': defense damage_halved = "
                            f"{defense['damage_halved']!r} must be true or false")
    unit = Unit(name=name, groups=groups, allocation_order=order,
                damage_minus=damage_minus,
                damage_halved=defense.get("damage_halved", False),
                reroll_saves=text(defense.get("reroll_saves", "none"),
                                  f"unit '{name}' defense reroll_saves"))
    if len(attached) > 2:
        raise ScenarioError(f"unit '{name}' attaches {len(attached)} units "
                            f"({', '.join(attached)}): a bodyguard unit takes at most one "
                            "Leader and one Support unit (19.01)")
    return unit, text(spec.get("side"), f"unit '{name}' side", optional=True), list(attached)


def _named_groups(name: str, spec: dict) -> tuple[ModelGroup, ...]:
    """``unit = "@Necron Warriors:20"``: the datasheet's model groups (statlines and default
    weapons as the roster reader reads them), its points shared over its models."""
    from mathhammer.wh40k.bsdata.named import named_sheet

    if "models" in spec:
        raise ScenarioError(f"unit '{name}': give models = [...] or unit = \"@Name\", not both")
    named = text(spec["unit"], f"unit '{name}': unit")
    if not named.lstrip().startswith("@"):
        raise ScenarioError(f"unit '{name}': unit = {named!r:.60} names a datasheet as "
                            "\"@Name\" or \"@Name:size\"")
    sheet = named_sheet(named)
    if not sheet.entry.has_statline:
        raise ScenarioError(f"unit '{name}': datasheet '{sheet.name}' has no statline in the "
                            "data")
    share = sheet.points / max(sum(g.count for g in sheet.entry.groups), 1)
    return tuple(dataclasses.replace(g, points=share * g.count) for g in sheet.entry.groups)


def _group_from_toml(unit: str, spec: Any) -> ModelGroup:
    if not isinstance(spec, dict):
        raise ScenarioError(f"unit '{unit}': each model entry must be a table "
                            "{ name = ..., count = ..., profile = ..., weapons = [...] }")
    _check_keys(spec, {"name", "count", "profile", "weapons", "points"},
                f"a model entry of unit '{unit}'")
    name = text(spec.get("name", unit), f"a model entry of unit '{unit}': name")
    count = spec.get("count", 1)
    if not isinstance(count, int) or isinstance(count, bool):
        raise ScenarioError(f"model group '{name}': count = {count!r} must be a whole number")
    if count > MAX_MODELS:
        raise ScenarioError(f"model group '{name}': count = {count:,} is too large: at most "
                            f"{MAX_MODELS:,}")
    if "profile" not in spec:
        raise ScenarioError(f"model group '{name}' needs profile = \"T4 Sv3+ W2 [INFANTRY]\"")
    profile = parse_target(text(spec["profile"], f"model group '{name}' profile"))
    weapons = []
    entries = spec.get("weapons", [])
    if not isinstance(entries, list):
        raise ScenarioError(f"model group '{name}': weapons = {entries!r:.60} must be a list")
    for entry in entries:
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
    if not isinstance(lines, list):
        raise ScenarioError(f"model group '{group}': profiles = {lines!r:.60} must be a list "
                            "of weapon lines")
    parsed = [parse_weapon(text(line, f"a weapon profile of '{group}'")) for line in lines]
    profiles = tuple(p.with_count(1) for p in parsed)
    hunter = frozenset(k.upper() for k in texts(entry.get("hunter", []),
                                                   f"hunter of a weapon of '{group}'"))
    name = text(entry.get("name") or profiles[0].name, f"a weapon name of '{group}'")
    return CarriedWeapon(name, profiles, tuple(hunter for _ in profiles),
                         per_model=parsed[0].count)


def _buff_library(spec: Any, locator: _Locator) -> dict[str, Any]:
    """The scenario's ``[buffs]`` table of named buffs (name = "text"), read."""
    if spec is None:
        return {}
    from mathhammer.wh40k.buffs import parse_buff

    if not isinstance(spec, dict):
        raise locator.error("buffs", "buffs must be a table: [buffs] then NAME = \"text\"")
    library = {}
    for name, written in spec.items():
        try:
            if not isinstance(written, str):
                raise ScenarioError(f"buff '{name}' must be text such as \"re-roll hits\"")
            library[name] = dataclasses.replace(parse_buff(written), name=name)
        except MathhammerError as exc:
            raise locator.error("[buffs]", f"buff '{name}': {exc}", name) from None
    return library


def _activation_from_toml(spec: Any, open_choices: bool, library: dict[str, Any] | None = None
                          ) -> tuple[Activation, OpenChoices]:
    if not isinstance(spec, dict):
        raise ScenarioError("each [[activations]] entry must be a table")
    _check_keys(spec, {"phase", "attacker", "target", "targets", "choose", "weapons",
                       "situation", "modifiers", "order", "label", "precision_pick", "buffs"},
                "an activation")
    for key in ("phase", "attacker"):
        if key not in spec:
            raise ScenarioError(f"missing {key} = \"...\"")
    situation = _dataclass_from(Situation, spec.get("situation", {}), "situation")
    choice = _open_choices_from_toml(spec, open_choices)
    raw_modifiers = spec.get("modifiers", {})
    if isinstance(raw_modifiers, dict):
        for name, candidates in choice.options:
            if name in raw_modifiers:
                raise ScenarioError(f"'{name}' is in both modifiers and choose: give it in "
                                    "one of them", token=name)
            if name not in RULE_CHOICES:
                raw_modifiers = {**raw_modifiers, name: candidates[0]}
    modifiers = _dataclass_from(Modifiers, raw_modifiers, "modifiers")
    weapons = []
    choices = spec.get("weapons", [])
    if not isinstance(choices, list):
        raise ScenarioError(f"weapons = {choices!r:.60} must be a list of weapon names",
                            token="weapons")
    for entry in choices:
        if isinstance(entry, str):
            weapons.append(WeaponChoice(entry))
            continue
        if not isinstance(entry, dict) or "name" not in entry:
            raise ScenarioError("each weapon choice is a name or { name = ..., target = ..., "
                                "split = { UNIT = N, ... }, models = ..., count = N }")
        _check_keys(entry, {"name", "target", "split", "models", "count"}, "a weapon choice")
        split = entry.get("split", {})
        if not isinstance(split, dict):
            raise ScenarioError("split must be a table { UNIT = attacks per model, ... }",
                                token="split")
        models = entry.get("models")
        if models is not None and not isinstance(models, str):
            raise ScenarioError(f"weapon '{entry['name']}': models = {models!r} must be the "
                                "name of a model group (e.g. models = \"Sergeant\")",
                                token=str(entry["name"]))
        for key, value in split.items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ScenarioError(f"weapon '{entry['name']}': split {key} = {value!r} must "
                                    "be a whole number of attacks per model",
                                    token=str(entry["name"]))
        weapons.append(WeaponChoice(entry["name"], entry.get("target"),
                                    tuple((str(k), v) for k, v in split.items()), models,
                                    entry.get("count")))
    precision_pick = spec.get("precision_pick")
    if precision_pick is not None:
        check_precision_pick_kind(precision_pick)
    target = choice.targets[0] if choice.targets else spec.get("target")
    return Activation(phase=spec["phase"], attacker=spec["attacker"],
                      target=target, weapons=tuple(weapons), situation=situation,
                      modifiers=modifiers, order=_names(spec.get("order", []), "order"),
                      label=spec.get("label", ""), precision_pick=precision_pick,
                      buffs=_activation_buffs(spec.get("buffs", []), library or {})), choice


def _activation_buffs(items: Any, library: dict[str, Any]) -> tuple[Any, ...]:
    """An activation's ``buffs = [...]``: texts or names of the scenario's [buffs] table."""
    if not items:
        return ()
    from mathhammer.wh40k.buffs import resolve_buffs

    if not isinstance(items, list):
        raise ScenarioError(f"buffs = {items!r:.60} must be a list of buff texts or names, "
                            "e.g. buffs = [\"Oath of Moment\", \"+1 to wound\"]", token="buffs")
    return resolve_buffs(items, library)


def _open_choices_from_toml(spec: dict, open_choices: bool) -> OpenChoices:
    """An activation's ``targets`` list and ``choose`` table (the optimiser's choices)."""
    if not open_choices:
        for key, what in (("targets", "gives candidate targets"),
                          ("choose", "leaves choices open")):
            if key in spec:
                raise ScenarioError(f"'{key}': the activation {what}, which `mathhammer "
                                    "optimise FILE` decides; to run it, give one target = "
                                    "\"...\" and fixed modifiers", token=key)
        return OpenChoices()
    targets = spec.get("targets", [])
    if "target" in spec and "targets" in spec:
        raise ScenarioError(f"give target = {spec['target']!r:.30} or targets = [...] (the "
                            "candidates), not both", token="targets")
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise ScenarioError(f"targets = {targets!r:.60} must be a list of unit names, e.g. "
                            "targets = [\"Termagants\", \"Carnifex\"]", token="targets")
    if "targets" in spec and not targets:
        raise ScenarioError("targets = [] is empty: list the candidate target units",
                            token="targets")
    choose = spec.get("choose", {})
    if not isinstance(choose, dict):
        raise ScenarioError(f"choose = {choose!r:.60} must be a table, e.g. choose = "
                            "{ reroll_hits = [\"failed\", \"noncrit\"] }", token="choose")
    _check_keys(choose, {f.name for f in dataclasses.fields(Modifiers)} | set(RULE_CHOICES),
                "choose")
    options = []
    for name, candidates in choose.items():
        if isinstance(candidates, (str, int, bool)):
            candidates = [candidates]
        if not isinstance(candidates, list) or not candidates:
            raise ScenarioError(f"choose {name} = {candidates!r:.60} must be a non-empty list "
                                "of the values to choose from", token=str(name))
        options.append((str(name), tuple(candidates)))
    return OpenChoices(targets=tuple(targets), options=tuple(options))


def _names(value: Any, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ScenarioError(f"{what} = {value!r} must be a list of weapon names", token=what)
    return tuple(value)


def _dataclass_from(cls, spec: Any, what: str):
    if not isinstance(spec, dict):
        raise ScenarioError(f"{what} must be a table {{ key = value, ... }}")
    fields = {f.name for f in dataclasses.fields(cls)}
    _check_keys(spec, fields, what)
    return build_checked(cls, spec)


def _number(value: Any, what: str) -> float:
    try:
        return real_number(value, what, 0, MAX_POINTS)
    except MathhammerError:
        raise ScenarioError(f"{what} = {value!r:.40} must be a number from 0 to "
                            f"{MAX_POINTS:,}") from None
