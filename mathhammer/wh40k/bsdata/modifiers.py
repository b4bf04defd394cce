"""Modifiers that always apply: a selected entry's unconditional ``set``, ``increment``,
``decrement`` and ``append`` of a characteristic, on its own profiles or, through the JSON
files' (and newer XML's) ``affects``, on the profiles of the entries below it.

A modifier with conditions (or inside a modifier group that has some) depends on the rest
of an army list and is not applied: a datasheet is read as it stands alone. Profiles are
changed on copies (:func:`copied`), never on the catalogue's nodes, which other datasheets
share.
"""

from __future__ import annotations

import re

from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.read import Node

_KINDS = ("set", "increment", "decrement", "append")
_NUMBER = re.compile(r"^(?P<lead>\D*?)(?P<number>-?\d+)(?P<rest>\D*)$")


def copied(node: Node) -> Node:
    """A deep copy of a (small) profile node."""
    return Node(node.tag, dict(node.attrs), node.text, [copied(c) for c in node.children])


def unconditional(node: Node) -> list[Node]:
    """The modifiers of ``node`` that hold whatever else the list holds."""
    out = [m for m in node.list("modifiers") if not _conditional(m)]
    for group in node.list("modifierGroups"):
        if not _conditional(group):
            out += [m for m in group.list("modifiers") if not _conditional(m)]
    return [m for m in out if m.get("type") in _KINDS]


def _conditional(node: Node) -> bool:
    return bool(node.list("conditions") or node.list("conditionGroups")
                or node.list("localConditionGroups") or node.list("repeats"))


def apply_modifiers(source: Node, own: list[Node], below: list[Node]) -> None:
    """Apply ``source``'s unconditional modifiers: to ``own`` (its selection's profiles) when
    they name no ``affects`` or ``profiles.TYPE``, to ``below`` (the profiles of the entries
    under it) when they affect ``self.entries[.recursive].profiles.TYPE``."""
    for modifier in unconditional(source):
        affects = modifier.get("affects").strip()
        if not affects or affects.startswith(("profiles", "self.profiles")):
            targets = own
        elif affects.startswith("self.entries") and ".profiles" in affects:
            targets = below
        else:
            continue   # forces, roster or other scopes: not part of one datasheet
        wanted = affects.split("profiles", 1)[1].lstrip(".") if "profiles" in affects else ""
        for profile in targets:
            if wanted and kw.clean(profile.get("typeName")).lower() != wanted.lower():
                continue
            _change_profile(profile, modifier)


def _change_profile(profile: Node, modifier: Node) -> None:
    field = modifier.get("field")
    for characteristic in profile.list("characteristics"):
        if field in (characteristic.get("typeId"), characteristic.get("name")):
            characteristic.text = changed(characteristic.text, modifier.get("type"),
                                          modifier.get("value"))


def changed(text: str, kind: str, value: str) -> str:
    """A characteristic after one modifier: ``set`` replaces it, ``append`` adds to it,
    ``increment``/``decrement`` change its number and keep the rest (``3+`` less 1 is
    ``2+``); a text with no single number is left as it is."""
    if kind == "set":
        return value
    if kind == "append":
        return f"{text}, {value}" if text.strip() not in ("", "-") else value
    match = _NUMBER.match(text.strip())
    try:
        step = int(float(value))
    except ValueError:
        return text
    if match is None:
        return text
    number = int(match.group("number")) + (step if kind == "increment" else -step)
    return f"{match.group('lead')}{number}{match.group('rest')}"
