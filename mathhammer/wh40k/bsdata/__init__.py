"""Datasheets by name from the user's own BSData checkout (10th edition XML, 11th edition
JSON): read the files, follow links across them, write each datasheet's default unit as a
roster selection that the roster reader reads.

Public face: :func:`datasheets` (the index of one checkout), :class:`Datasheets` (``get``,
``find``, ``names``), :class:`Datasheet` (one unit at a size: ``target_line``,
``weapon_lines``, ``to_dict``) and :func:`resolve_named` (``@Name`` and ``@Name:size`` in a
line).
"""

from mathhammer.wh40k.bsdata.index import Datasheet, Datasheets, datasheets

__all__ = ["Datasheet", "Datasheets", "datasheets"]
