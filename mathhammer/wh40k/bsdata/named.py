"""``@Name`` wherever a line goes: a datasheet of the user's checkout as weapon or target lines.

``@Necron Warriors`` is the smallest legal unit, ``@Necron Warriors:20`` a unit of 20;
as weapons its default ranged weapons, ``@Necron Warriors:melee`` its melee weapons (the
command line asks for melee by itself with ``--charged`` or in the fight phase).
``@Name@Faction`` picks the faction when a name is in several. The checkout is the one
:func:`using_data` names (``--data``), else ``$MATHHAMMER_DATA``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from mathhammer.errors import AmbiguousDatasheetError, ProfileError, RosterError
from mathhammer.wh40k.bsdata.index import Datasheet, Datasheets, datasheets

_FOLDER: ContextVar[str | None] = ContextVar("bsdata_folder", default=None)
_OPEN: dict[tuple[str, bool, tuple], Datasheets] = {}
_PART = re.compile(r"[0-9]+|melee|ranged")


@contextmanager
def using_data(folder: str | os.PathLike[str] | None) -> Iterator[None]:
    """Resolve ``@Name`` against ``folder`` inside the block (``None``: the environment)."""
    token = _FOLDER.set(None if folder is None else os.fspath(folder))
    try:
        yield
    finally:
        _FOLDER.reset(token)


def checkout_named(folder: str | os.PathLike[str] | None = None) -> bool:
    """Whether a checkout is named: ``folder``, :func:`using_data` or ``$MATHHAMMER_DATA``."""
    return folder is not None or _FOLDER.get() is not None or \
        bool(os.environ.get("MATHHAMMER_DATA"))


def is_named(value: Any) -> bool:
    """Whether ``value`` names a datasheet: a :class:`Datasheet` or text starting with ``@``."""
    return isinstance(value, Datasheet) or (isinstance(value, str)
                                             and value.lstrip().startswith("@"))


def parse_named(text: str) -> tuple[str, int | None, bool | None, str | None]:
    """``(name, size, melee, faction)`` of ``@Name[@Faction][:size][:melee|:ranged]``.

    Raises
    ------
    ProfileError
        For an empty name or a part after ``:`` that is neither a size nor melee/ranged.
    """
    body = text.strip()[1:]
    size: int | None = None
    melee: bool | None = None
    while ":" in body:
        head, _, tail = body.rpartition(":")
        word = tail.strip().lower()
        if not _PART.fullmatch(word):
            break
        if word.isdigit():
            if len(word) > 5 or size is not None:
                raise ProfileError(f"'{tail}' in {text!r} is not a unit size: write "
                                   "@Name:10 (a whole number of models)", token=tail)
            size = int(word)
        else:
            melee = word == "melee"
        body = head
    name, _, faction = body.partition("@")
    if not name.strip():
        raise ProfileError(f"{text!r} names no datasheet: write @Name, e.g. "
                           "'@Necron Warriors' or '@Necron Warriors:20'", token=text)
    return " ".join(name.split()), size, melee, (faction.strip() or None)


def named_sheet(value: str | Datasheet) -> Datasheet:
    """The :class:`Datasheet` a ``@Name`` text names (a Datasheet is itself)."""
    if isinstance(value, Datasheet):
        return value
    name, size, _, faction = parse_named(value)
    try:
        return open_datasheets().get(name, size, faction)
    except AmbiguousDatasheetError as exc:   # its fix names --faction, which lines lack
        shown = ", ".join(exc.factions[:6]) + (", ..." if len(exc.factions) > 6 else "")
        raise RosterError(f"datasheet '{exc.name}' is in {len(exc.factions)} factions "
                          f"({shown}): write '@{exc.name}@FACTION' in the line (any part of "
                          f"one of their names, e.g. '@{exc.name}@{exc.factions[0]}')") from None


def named_target_line(value: str | Datasheet) -> str:
    """The unit a ``@Name`` (or :class:`Datasheet`) names, as one target line."""
    return named_sheet(value).target_line()


def named_weapon_lines(value: str | Datasheet, melee: bool | None = None) -> list[str]:
    """The default weapons of the unit a ``@Name`` names, as weapon lines: ranged unless
    ``:melee`` (or ``melee=True``) asks for melee."""
    if isinstance(value, str):
        written = parse_named(value)[2]
        melee = written if written is not None else melee
    return named_sheet(value).weapon_lines(bool(melee))


def open_datasheets(folder: str | os.PathLike[str] | None = None, *,
                    legends: bool = False) -> Datasheets:
    """The index of the checkout in use, kept for the process while its files are unchanged.

    Raises
    ------
    RosterError
        When no checkout is named (saying how to name one), or it cannot be read.
    """
    from mathhammer.wh40k.bsdata.files import data_files, data_folder

    chosen = folder if folder is not None else _FOLDER.get()
    path = data_folder(chosen).resolve()
    key = (str(path), legends,
           tuple((f.path.name, f.size, f.modified_ns) for f in data_files(path)))
    found = _OPEN.get(key)
    if found is None:
        found = datasheets(Path(path), legends=legends)
        _OPEN.clear()
        _OPEN[key] = found
    return found


__all__ = ["RosterError", "checkout_named", "is_named", "named_sheet", "named_target_line",
           "named_weapon_lines",
           "open_datasheets", "parse_named", "using_data"]
