"""Refusing a control or text-direction character anywhere in a scenario file's keys and texts.

Every name and text of a scenario (unit, model group and weapon names, ``side``,
``attached``, an activation's ``attacker``, ``target``, ``label``, a ``choose`` entry, a key
nobody knows...) can come back in a message or a table; printed raw, ``ESC ]0;`` would
retitle the terminal and U+202E would reorder what it shows. The whole file is checked once,
before it is read, so no later message has to escape what it echoes.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from mathhammer.core.limits import (refuse_control_characters, shown, unsafe_character,
                                    unsafe_text, written_pattern)
from mathhammer.errors import ProfileError, ScenarioError


class _Locator(Protocol):
    lines: list[str]

    def where(self, anchor: Any, needle: str | None = None) -> str: ...


#: Paths (string keys only, list positions dropped) of the texts read as profile lines: their
#: parser refuses a control character at its column and takes a tab as a space.
_LINES = {("units", "models", "weapons"): "a weapon line",
          ("units", "models", "weapons", "line"): "a weapon line",
          ("units", "models", "weapons", "profiles"): "a weapon line",
          ("units", "models", "profile"): "a target line", ("buffs",): "a buff",
          ("activations", "buffs"): "a buff"}

#: What a name is called in a message, by the path of the key or value that gives it.
_NAMED = {("units",): "unit name", ("units", "models", "name"): "model group name",
          ("units", "models", "weapons", "name"): "weapon name", ("buffs",): "buff name"}


def refuse_unsafe_texts(data: dict[str, Any], locator: _Locator) -> None:
    r"""Raise a :class:`ScenarioError` at the line of the first key or text of ``data`` (the
    file, read) that holds a control or text-direction character, naming it as an escape:
    ``army.toml:12: unit 'Squad' side 'A\x1b' holds '\x1b' (a control character): delete it``.
    """
    stack: list[tuple[tuple[Any, ...], Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            for key in value:
                _check(path + (key,), key, True, locator)
            stack.extend((path + (key,), item) for key, item in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((path + (i,), item) for i, item in reversed(list(enumerate(value))))
        elif isinstance(value, str):
            _check(path, value, False, locator)


def _check(path: tuple[Any, ...], value: str, is_key: bool, locator: _Locator) -> None:
    keys = tuple(part for part in path if isinstance(part, str))
    shape = (keys[0], *keys[2:]) if keys[:1] in (("units",), ("buffs",)) else keys
    line = None if is_key else _LINES.get(shape)
    if unsafe_character(value, tab=line is not None) is None:
        return
    if line is not None:
        try:
            refuse_control_characters(value, value, line)
        except ProfileError as exc:
            message = str(exc)
        else:
            return   # a line break at either end: the line's parser strips it
    else:
        message = str(unsafe_text(value, _what(path, keys, shape, is_key)))
    anchor, needle = _place(path, value, is_key, locator)
    raise ScenarioError(message, token=shown(needle) if needle else None,
                        location=locator.where(anchor, needle))


def _what(path: tuple[Any, ...], keys: tuple[str, ...], shape: tuple[str, ...],
          is_key: bool) -> str:
    """``unit 'Squad' side``, ``activation 2 attacker``, ``unit name``, ``key``..."""
    if is_key and len(keys) == 2 and keys[0] in ("units", "buffs"):
        return _NAMED[keys[:1]]
    if not is_key and shape in _NAMED:
        return _NAMED[shape]
    if keys[:1] in (("units",), ("buffs",)) and len(keys) > 1:
        owner, rest = f"{keys[0][:-1]} '{shown(keys[1])}'", list(keys[2:])
    elif keys[:1] == ("activations",) and len(path) > 1 and isinstance(path[1], int):
        owner, rest = f"activation {path[1] + 1}", list(keys[1:])
    else:
        owner, rest = "", list(keys)
    if is_key:
        rest = [*rest[:-1], "key"]
    return " ".join([owner, *map(shown, rest)]).strip()


def _place(path: tuple[Any, ...], value: str, is_key: bool, locator: _Locator
           ) -> tuple[Any, str | None]:
    """The anchor (the table) and the needle (the text, else its key) of the line to name."""
    anchor: Any = None
    if len(path) >= 2 and path[0] == "units" and isinstance(path[1], str):
        anchor = f"[units.{path[1]}]"
    elif len(path) >= 2 and path[0] == "activations" and isinstance(path[1], int):
        anchor = ("[[activations]]", path[1])
    elif path[:1] in (("rules",), ("buffs",)):
        anchor = f"[{path[0]}]"
    written = _written(value, locator.lines)
    if written is not None:
        return anchor, written
    keys = [part for part in path if isinstance(part, str)]
    own = keys[-2] if is_key and len(keys) > 1 else keys[-1] if keys and not is_key else None
    return anchor, own


def _written(value: str, lines: list[str]) -> str | None:
    r"""``value`` as the file writes it on one line (``Kn\u0007ife`` for ``Kn\x07ife``), or
    None when no line holds it so (a value over several lines, other characters escaped)."""
    if not value or "\n" in value:
        return None
    pattern = re.compile(written_pattern(value))
    for line in lines:
        match = pattern.search(line)
        if match:
            return match.group()
    return None
