"""Datasheets by name from the user's own BSData checkout (10th edition XML, 11th edition
JSON): read the files, follow links across them, write each datasheet's default unit as a
roster selection that the roster reader reads.

Public face: :func:`datasheets` (the index of one checkout), :class:`Datasheets` (``get``,
``find``, ``names``) and :class:`Datasheet` (one unit at a size: ``target_line``,
``weapon_lines``, ``to_dict``); ``@Name`` in lines is read by :mod:`.named`, plain-text
lists by :mod:`.textlist`. Loaded on first use, so the command line starts quickly.
"""

from typing import Any

__all__ = ["Datasheet", "Datasheets", "datasheets"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from mathhammer.wh40k.bsdata import index

        return getattr(index, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
