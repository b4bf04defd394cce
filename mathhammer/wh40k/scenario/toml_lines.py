"""The lines of a TOML file with their keys written one way, for naming an error's line.

TOML writes one key many ways: ``[units.Boyz]``, ``[units."Boyz"]``, ``[ units . 'Boyz' ]``,
a dotted key ``units.Boyz.models = ...`` or ``Boyz = { ... }`` under ``[units]``. A unit name
with a space (``[units."Termagant Brood"]``) must be quoted. :func:`canonical_lines` rewrites
every table header to ``[a.b]`` / ``[[a.b]]`` and every ``key = value`` line to its full
dotted path (the current table's key, then its own: ``units.Boyz = { ... }``), the parts
unquoted, so a reader finds ``[units.Termagant Brood]`` however the file spelt it.
"""

from __future__ import annotations

import re

import tomli

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_SPACE = " \t"


def canonical_lines(text: str) -> list[str]:
    """Each line of ``text`` stripped, its header or key written canonically (see above);
    a line that is neither (a continuation, a comment) is only stripped.

    Examples
    --------
    >>> canonical_lines('[units."Termagant Brood"]\\nmodels = []\\n[units]\\nBoyz = {}')
    ['[units.Termagant Brood]', 'units.Termagant Brood.models = []', '[units]', 'units.Boyz = {}']
    """
    table: list[str] = []
    out = []
    for raw in text.splitlines():
        line = raw.strip()
        header = _header(line)
        if header is not None:
            brackets, parts, rest = header
            table = parts
            out.append(f"{brackets}{'.'.join(parts)}{brackets.replace('[', ']')}{rest}")
            continue
        found = _dotted_key(line, 0)
        if found is not None and line[found[1]:found[1] + 1] == "=":
            parts, end = found
            out.append(f"{'.'.join(table + parts)} {line[end:]}")
        else:
            out.append(line)
    return out


def _header(line: str) -> tuple[str, list[str], str] | None:
    """``("[" or "[[", key parts, the rest after the closing brackets)`` of a table header."""
    brackets = "[[" if line.startswith("[[") else "[" if line.startswith("[") else ""
    if not brackets:
        return None
    found = _dotted_key(line, len(brackets))
    closing = brackets.replace("[", "]")
    if found is None or not line.startswith(closing, found[1]):
        return None
    return brackets, found[0], line[found[1] + len(closing):]


def _dotted_key(line: str, start: int) -> tuple[list[str], int] | None:
    """The parts of the dotted key at ``start`` and where it ends (after trailing spaces), or
    None when no key is there."""
    parts: list[str] = []
    i = start
    while True:
        i = _skip_space(line, i)
        found = _key_part(line, i)
        if found is None:
            return None
        part, i = found
        parts.append(part)
        i = _skip_space(line, i)
        if not line.startswith(".", i):
            return parts, i
        i += 1


def _key_part(line: str, i: int) -> tuple[str, int] | None:
    """One bare, "basic" or 'literal' key part at ``i`` and the index after it."""
    quote = line[i:i + 1]
    if quote not in ('"', "'"):
        match = _BARE.match(line, i)
        return (match.group(), match.end()) if match else None
    j = i + 1
    while j < len(line) and line[j] != quote:
        j += 2 if quote == '"' and line[j] == "\\" else 1
    if j >= len(line):
        return None
    inner = line[i + 1:j]
    if quote == '"' and "\\" in inner:
        try:
            inner = tomli.loads(f"k = {line[i:j + 1]}")["k"]
        except tomli.TOMLDecodeError:
            return None
    return inner, j + 1


def _skip_space(line: str, i: int) -> int:
    while i < len(line) and line[i] in _SPACE:
        i += 1
    return i
