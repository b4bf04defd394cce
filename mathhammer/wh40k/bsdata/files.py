"""The data files of a user's BSData checkout: which files hold catalogues, read safely.

10th edition keeps its catalogues as XML (``.cat``, ``.gst``, zipped ``.catz``, ``.gstz``),
11th edition as JSON (``.json`` whose root key is ``catalogue`` or ``gameSystem``). Each file
is read by the roster reader's safe parser (:mod:`mathhammer.wh40k.roster.read`) with the
larger limits of a data file: a faction's catalogue runs to several MB.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from mathhammer.errors import RosterError
from mathhammer.wh40k.roster.read import Node, TreeKind, read_bounded_bytes, tree_from_bytes

CATALOGUE_NAMESPACE = "http://www.battlescribe.net/schema/catalogueSchema"
GAME_SYSTEM_NAMESPACE = "http://www.battlescribe.net/schema/gameSystemSchema"
#: The environment variable naming the checkout when ``--data`` is not given.
DATA_VARIABLE = "MATHHAMMER_DATA"
#: Most data files one checkout may hold (the real ones hold about 50).
MAX_FILES = 400
SUFFIXES = (".cat", ".gst", ".catz", ".gstz", ".json")

CATALOGUE = TreeKind("catalogue", ("catalogue", "gameSystem"),
                     (CATALOGUE_NAMESPACE, GAME_SYSTEM_NAMESPACE), (".cat", ".gst", ".json"),
                     "zipped catalogue", "BSData catalogue",
                     max_file_bytes=64 * 2**20, max_xml_bytes=128 * 2**20,
                     max_nodes=2_000_000)


@dataclass(frozen=True)
class DataFile:
    """One data file of the checkout and what identifies its content for the cache."""

    path: Path
    size: int
    modified_ns: int


def data_folder(folder: str | os.PathLike[str] | None = None) -> Path:
    """The checkout to read: ``folder``, else ``$MATHHAMMER_DATA``; one line when neither
    names a folder.

    Raises
    ------
    RosterError
        Naming what was given and how to point at a checkout.
    """
    if folder is None:
        folder = os.environ.get(DATA_VARIABLE) or None
        if folder is None:
            raise RosterError("no BSData checkout given: pass --data DIR (Python: "
                              "mh.datasheets(DIR)) or set MATHHAMMER_DATA=DIR, where DIR is "
                              "your clone of BSData/wh40k-10e or BSData/wh40k-11e")
    if not isinstance(folder, (str, os.PathLike)):
        raise RosterError(f"the data folder is a path, not {type(folder).__name__}")
    path = Path(folder).expanduser()
    if not path.is_dir():
        raise RosterError(f"data folder '{path}' is not a folder: point --data (or "
                          "MATHHAMMER_DATA) at your BSData checkout")
    return path


def data_files(folder: Path) -> list[DataFile]:
    """The catalogue and game-system files directly in ``folder``, sorted by name.

    Raises
    ------
    RosterError
        For a folder that holds none, or more than :data:`MAX_FILES`.
    """
    found: list[DataFile] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        raise RosterError(f"cannot list data folder '{folder}': {exc.strerror or exc}") \
            from None
    for entry in entries:
        if not entry.name.lower().endswith(SUFFIXES) or entry.name.startswith("."):
            continue
        try:
            if not entry.is_file():
                continue
            stat = entry.stat()
        except OSError:
            continue
        found.append(DataFile(Path(entry.path), stat.st_size, stat.st_mtime_ns))
        if len(found) > MAX_FILES:
            raise RosterError(f"{folder}: more than {MAX_FILES} data files; a BSData "
                              "checkout holds about 50: point --data at the checkout itself")
    if not found:
        raise RosterError(f"{folder}: no BSData files (.cat, .catz, .gst, .gstz or .json): "
                          "point --data at your clone of BSData/wh40k-10e or wh40k-11e")
    return found


def read_data_file(file: DataFile) -> Node | None:
    """The root node of one data file, or None for a ``.json`` that is not BSData (a
    checkout also holds other JSON: package files, editor settings).

    Raises
    ------
    RosterError
        ``FILE: what is wrong`` for an oversized, truncated, hostile or damaged file.
    """
    data = read_bounded_bytes(file.path, CATALOGUE.limits()[0], CATALOGUE.noun)
    if file.path.suffix.lower() == ".json" and not _looks_like_bsdata_json(data):
        return None
    return tree_from_bytes(data, file.path, CATALOGUE)


def _looks_like_bsdata_json(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and (b'"catalogue"' in head or b'"gameSystem"' in head)
