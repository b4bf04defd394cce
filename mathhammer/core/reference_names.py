"""Names of reference profiles, shared by every game's library of reference targets.

A game's library (40k's ``MEQ``, Warmachine's ``HEAVY_JACK``) is read from a TOML file of
named tables and looked up by name, with a count and extra keywords
(``"3x LIGHT_JACK [KNOCKED DOWN]"``). What does not depend on the game lives here: how a
name is normalised, how such a text splits, the error of an unknown name, and where a
table (or one of its fields) starts in the file, for one-line error messages.
"""

from __future__ import annotations

import re

from mathhammer.core.limits import written_pattern
from mathhammer.errors import UnknownTargetError as UnknownTargetError  # its home before errors.py

_COUNT_PREFIX_RE = re.compile(r"(\d+)\s*[x×]\s*")


#: What a look-up key ignores between words.
_SEPARATORS_RE = re.compile(r"[\s_\-]+")


def normalize(name: str) -> str:
    """The look-up key of a name: case, spaces, hyphens and underscores ignored.

    Examples
    --------
    >>> normalize("Heavy war-jack"), normalize("HEAVY_WARJACK")
    ('heavywarjack', 'heavywarjack')
    """
    return _SEPARATORS_RE.sub("", name).casefold()


def split_name_line(text: str) -> tuple[str | None, str, str | None] | None:
    """``"3x LIGHT_JACK [KNOCKED DOWN]"`` to ``("3", "LIGHT_JACK", "KNOCKED DOWN")``.

    ``None`` when the text is not an optional count, a name and an optional bracketed list
    of keywords (a profile line has a ``:``). Linear in the length of the text.

    Examples
    --------
    >>> split_name_line("10x MEQ [STEALTH]"), split_name_line("Jack: DEF12 ARM19")
    (('10', 'MEQ', 'STEALTH'), None)
    """
    body = text.strip()
    extra = None
    if body.endswith("]") and body.count("[") == 1 and body.count("]") == 1:
        start = body.index("[")
        body, extra = body[:start].rstrip(), body[start + 1:-1]
    if not body or any(mark in body for mark in ":[]"):
        return None
    count = None
    match = _COUNT_PREFIX_RE.match(body)
    if match:
        count, body = match.group(1), body[match.end():]
    return (count, body, extra) if body else None


def table_line(text: str, table: str, field: str | None = None, parent: str = "") -> int:
    """1-based line of ``[table]`` (or of ``field =`` inside it) in TOML ``text``; 1 if not
    found. With ``parent``, the table is ``[parent.table]`` (``[units."Pounder"]``).

    Examples
    --------
    >>> table_line('[A]\\nx = 1\\n["B C"]\\ny = 2\\n', "B C", "y")
    4
    """
    lines = text.splitlines()
    name = written_pattern(table)   # a refused control character may be written \u001b
    quoted = "|".join((f'"{name}"', re.escape(f"'{table}'"), name))
    outer = re.escape(parent) + r"\s*\.\s*" if parent else ""
    header = re.compile(r"^\s*\[\s*" + outer + "(?:" + quoted + r")\s*\]")
    start = next((i for i, line in enumerate(lines) if header.match(line)), None)
    if start is None:
        return 1
    if field is None:
        return start + 1
    key_re = re.compile(r"^\s*\"?" + written_pattern(field) + r"\"?\s*=")
    for i in range(start + 1, len(lines)):
        if lines[i].lstrip().startswith("["):
            break
        if key_re.match(lines[i]):
            return i + 1
    return start + 1
