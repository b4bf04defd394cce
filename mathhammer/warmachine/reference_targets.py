"""Reference targets (archetypes: light and heavy warjacks, solos, infantry...) and user files.

The built-in library lives in ``mathhammer/warmachine/data/targets.toml`` (package data, with
the source of every number, most of them typical placeholders). It is read the first time a
name is looked up, never on import. :data:`targets` is a read-only mapping from names to
:class:`~mathhammer.warmachine.profiles.Target`; look-ups ignore case, spaces, hyphens and
underscores and accept aliases (``"heavy warjack"`` finds ``HEAVY_JACK``).
:func:`load_targets` reads user TOML files into a new library that adds to or overrides the
built-in one.

Anywhere a Warmachine target line is accepted, a name works too, with an optional model count
and extra target keywords: ``"HEAVY_JACK"``, ``"3x LIGHT_JACK"``, ``"5x HEAVY_INFANTRY
[TOUGH]"``.

Examples
--------
>>> str(targets["heavy warjack"])
'1x Heavy warjack: DEF12 ARM19 BOXES30'
>>> str(resolve_target("3x solo [KNOCKED DOWN]"))
'3x Solo: DEF15 ARM14 BOXES8 [KNOCKED DOWN]'
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from mathhammer.core.files import read_bounded, read_toml_tables
from mathhammer.core.limits import (MAX_MODELS, check_number_text, refuse_foreign_digits, shown,
                                    unsafe_text)
from mathhammer.core.numbers import refuse_malformed_count
from mathhammer.core.reference_names import (UnknownTargetError, normalize, split_name_line,
                                             table_line as line_of)
from mathhammer.errors import ProfileError, did_you_mean
from mathhammer.warmachine.parse import parse_target
from mathhammer.warmachine.profiles import Target

#: Where the built-in library is read from, as error messages name it.
BUILTIN_SOURCE = "mathhammer/warmachine/data/targets.toml"
#: The fields a table may hold.
FIELDS = ("aliases", "name", "models", "DEF", "ARM", "BOXES", "keywords", "grid", "spiral",
          "line", "data", "note")
_STATS = ("DEF", "ARM", "BOXES")
_EXAMPLE = "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"
_LOOKS_LIKE_LINE_RE = re.compile(r"(?i)(^|\s)(DEF|ARM|BOXES)\s*-?\d")


@dataclass(frozen=True, slots=True)
class TargetEntry:
    """One library entry: the target plus its names and where its numbers come from.

    Attributes
    ----------
    key
        Canonical name (the TOML table name), e.g. ``"HEAVY_JACK"``.
    target
        The reference unit as a :class:`~mathhammer.warmachine.profiles.Target`.
    aliases
        Other names that find this entry.
    data
        Source of the numbers (a rules section, or ``placeholder``).
    note
        Anything else worth knowing.
    source
        The file the entry was read from, and ``line`` its table's line in it.
    """

    key: str
    target: Target
    aliases: tuple[str, ...] = ()
    data: str = ""
    note: str = ""
    source: str = ""
    line: int = 0


class TargetLibrary(Mapping[str, Target]):
    """A read-only mapping of names (and aliases) to :class:`Target`.

    Iterating gives the canonical names; ``library["heavy warjack"]`` finds ``HEAVY_JACK``. A
    name that is not known raises :class:`UnknownTargetError` (a ``KeyError``) with the
    closest name. ``loader`` (instead of ``entries``) defers reading until first use.
    """

    def __init__(self, entries: Iterable[TargetEntry] = (), *,
                 loader: Callable[[], list[TargetEntry]] | None = None) -> None:
        self._loader = loader
        self._given = list(entries)
        self._lock = threading.Lock()
        self._tables: tuple[dict[str, TargetEntry], dict[str, str]] | None = None

    def _table(self) -> tuple[dict[str, TargetEntry], dict[str, str]]:
        """``(canonical name -> entry, normalised name or alias -> canonical name)``."""
        if self._tables is None:
            with self._lock:
                if self._tables is None:
                    given = self._loader() if self._loader is not None else self._given
                    self._tables = _indexed(given)
        return self._tables

    @property
    def is_loaded(self) -> bool:
        """Whether the entries have been read (a library with a loader reads them on first
        use)."""
        return self._tables is not None

    def __getitem__(self, name: str) -> Target:
        return self.info(name).target

    def __iter__(self) -> Iterator[str]:
        return iter(self._table()[0])

    def __len__(self) -> int:
        return len(self._table()[0])

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and normalize(name) in self._table()[1]

    def __repr__(self) -> str:
        return f"<TargetLibrary: {', '.join(self)}>"

    def entries(self) -> list[TargetEntry]:
        """Every entry, in file order."""
        return list(self._table()[0].values())

    def names(self) -> list[str]:
        """Every accepted name: the canonical names, then the aliases."""
        entries = self.entries()
        return [e.key for e in entries] + [a for e in entries for a in e.aliases]

    def info(self, name: str) -> TargetEntry:
        """The :class:`TargetEntry` (target, aliases, source notes) for ``name``.

        Raises
        ------
        UnknownTargetError
            For a name the library does not hold, with the closest one.
        """
        if not isinstance(name, str):
            raise UnknownTargetError(f"target names are strings, not {type(name).__name__}")
        entries, index = self._table()
        key = index.get(normalize(name))
        if key is None:
            raise UnknownTargetError(f"unknown reference target '{name:.60}'"
                                     f"{did_you_mean(name, self.names())}; known: "
                                     f"{', '.join(entries)}", name=name)
        return entries[key]

    def resolve(self, text: str) -> Target | None:
        """``"3x LIGHT_JACK [KNOCKED DOWN]"`` to a target, or ``None`` when ``text`` names no
        entry (it may still be a target line)."""
        parts = split_name_line(text)
        if parts is None:
            return None
        count, name, extra = parts
        key = self._table()[1].get(normalize(name))
        if key is None:
            return None
        refuse_foreign_digits(text, text)
        target = self._table()[0][key].target
        if count is not None:
            number = check_number_text(count, MAX_MODELS, "model count")
            if number < 1:
                raise ProfileError(f"model count {count}x must be at least 1", token=count,
                                   line=text)
            try:
                target = replace(target, count=number)
            except ProfileError as exc:
                raise ProfileError(f"{key}: {exc}", token=count, line=text) from None
        if extra is not None:
            target = _with_keywords(target, extra, f"{key} [{extra}]")
        return target

    def with_entries(self, entries: Iterable[TargetEntry]) -> TargetLibrary:
        """A new library with ``entries`` added; one named like a canonical name replaces
        that entry, one named like an alias takes the alias over."""
        return TargetLibrary(self.entries() + list(entries))

    def with_file(self, path: str | os.PathLike[str]) -> TargetLibrary:
        """This library plus the targets of a TOML file (see :func:`load_targets`)."""
        return self.with_entries(read_targets_file(path))

    def to_rows(self) -> list[dict[str, str]]:
        """One dict per entry: name, aliases, line, data, note (JSON-ready)."""
        return [{"name": e.key, "aliases": ", ".join(e.aliases), "line": str(e.target),
                 "data": e.data, "note": e.note} for e in self.entries()]


def _indexed(entries: Iterable[TargetEntry]) -> tuple[dict[str, TargetEntry], dict[str, str]]:
    """Later entries override earlier ones: a canonical name keeps its place in the order."""
    by_key: dict[str, TargetEntry] = {}
    index: dict[str, str] = {}
    for entry in entries:
        existing = index.get(normalize(entry.key))
        key = entry.key
        if existing is not None and normalize(existing) == normalize(entry.key):
            key = existing
            entry = replace(entry, key=existing)
        by_key[key] = entry
        index[normalize(key)] = key
        for alias in entry.aliases:
            index[normalize(alias)] = key
    return by_key, index


def _with_keywords(target: Target, extra: str, where: str) -> Target:
    """``target`` with the target keywords of ``extra`` added (parsed as a target line is)."""
    line = str(target)
    merged = f"{line[:-1]}, {extra}]" if line.endswith("]") else f"{line} [{extra}]"
    try:
        return parse_target(merged)
    except ProfileError as exc:
        raise ProfileError(f"{where}: {exc}") from None


# -- files ------------------------------------------------------------------------------------
def read_targets_file(path: str | os.PathLike[str]) -> list[TargetEntry]:
    """Read the entries of one TOML file of targets.

    Raises
    ------
    ProfileError
        When the file cannot be read, is not UTF-8 TOML, or an entry is unknown, incomplete or
        impossible: one line naming the file, the line and the fix.
    """
    path = os.fspath(path)
    try:
        raw = read_bounded(path)
    except OSError as exc:
        raise ProfileError(f"cannot read target file {path}: {exc.strerror or exc}") from None
    return parse_targets_text(raw, path)


def parse_targets_text(raw: bytes, source: str) -> list[TargetEntry]:
    """The entries of TOML ``raw`` read from ``source`` (named in error messages)."""
    text, document = read_toml_tables(raw, source, "a target", ProfileError)
    entries: list[TargetEntry] = []
    seen: dict[str, str] = {}
    for key, table in document.items():
        line = line_of(text, key)
        _check_text(key, "the table name", lambda message, _field: ProfileError(
            f"{source}, line {line}: {message}"))
        if not isinstance(table, dict):
            raise ProfileError(f"{source}, line {line}: '{key:.60}' must be a table ([{key:.60}] "
                               "followed by DEF = ..., ARM = ..., BOXES = ...)")
        entry = _entry(key, table, text, source)
        for name in (key, *entry.aliases):
            other = seen.setdefault(normalize(name), key)
            if other != key:
                raise ProfileError(f"{source}, line {line}: [{key:.60}] name '{name:.60}' is "
                                   f"already [{other:.60}]'s; give each name to one target")
        entries.append(entry)
    return entries


def _entry(key: str, table: dict[str, Any], text: str, source: str) -> TargetEntry:
    def fail(message: str, field: str | None = None) -> ProfileError:
        return ProfileError(f"{source}, line {line_of(text, key, field)}: [{key:.60}] {message}")

    if not normalize(key) or split_name_line(key) != (None, key.strip(), None):
        raise fail("a target's name needs letters and no ':', '[' or ']' (e.g. [LIGHT_JACK])")
    for field in table:
        _check_text(field, "a field name", fail, field)
    unknown = [f for f in table if f not in FIELDS]
    if unknown:
        raise fail(f"unknown field '{unknown[0]:.40}'{did_you_mean(unknown[0], FIELDS)}; "
                   f"fields: {', '.join(FIELDS)}", unknown[0])
    for field in ("name", "line", "grid", "spiral", "data", "note"):
        if field in table and not isinstance(table[field], str):
            raise fail(f"{field} must be a string", field)
    for field in ("aliases", "keywords"):
        value = table.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise fail(f"{field} must be a list of strings", field)
        for item in value:
            _check_text(item, "an alias" if field == "aliases" else "a keyword", fail, field)
    for field in ("name", "grid", "spiral", "data", "note"):
        if field in table:
            _check_text(table[field], field, fail, field)
    if "line" in table:
        others = [f for f in ("name", "models", *_STATS, "keywords", "grid", "spiral")
                  if f in table]
        if others:
            raise fail(f"give either line = \"...\" or the fields, not both (drop '{others[0]}')",
                       others[0])
        line = table["line"]
    else:
        line = _line_from_fields(key, table, fail)
    try:
        target = parse_target(line)
    except ProfileError as exc:
        raise fail(str(exc), _field_of(exc.token, table)) from None
    return TargetEntry(key=key, target=target, aliases=tuple(table.get("aliases", [])),
                       data=table.get("data", ""), note=table.get("note", ""), source=source,
                       line=line_of(text, key))


def _check_text(value: str, what: str, fail: Callable[[str, str | None], ProfileError],
                field: str | None = None) -> None:
    """Refuse a control or text-direction character in a name or text of the file, named as
    an escape (printed raw, by a message or ``warmachine targets``, it would drive the
    terminal); a tab too (a line's tab is a space, read by ``parse_target``)."""
    problem = unsafe_text(value, what, written=f"{shown(value):.60}")
    if problem is not None:
        raise fail(problem, field)


def _line_from_fields(key: str, table: dict[str, Any],
                      fail: Callable[[str, str | None], ProfileError]) -> str:
    """The target line the fields of a table describe (``parse_target`` then checks it)."""
    for field in ("models", *_STATS):
        value = table.get(field)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise fail(f"{field} = {value!r:.40} must be a whole number", field)
    missing = [f for f in ("DEF", "ARM") if f not in table]
    if missing:
        raise fail(f"missing {' and '.join(missing)}: give DEF, ARM and BOXES (or a grid or "
                   f"spiral), or a whole line = \"{_EXAMPLE}\"", None)
    if "grid" in table and "spiral" in table:
        raise fail("give a grid (warjack) or a spiral (warbeast), not both", "spiral")
    name = table.get("name", key)
    if split_name_line(name) != (None, name.strip(), None):
        raise fail(f"name '{name:.60}' must not hold ':', '[' or ']'", "name")
    stats = f"DEF{table['DEF']} ARM{table['ARM']}"
    if "BOXES" in table:
        stats += f" BOXES{table['BOXES']}"
    words = list(table.get("keywords", []))
    for field in ("grid", "spiral"):
        if field in table:
            words.append(f"{field.upper()} {table[field]}")
    line = f"{table.get('models', 1)}x {name}: {stats}"
    return f"{line} [{', '.join(words)}]" if words else line


def _field_of(token: str | None, table: dict[str, Any]) -> str | None:
    """The field a ``parse_target`` error points at, from its token (for the line number)."""
    if not token or "line" in table:
        return "line" if "line" in table else None
    upper = token.upper()
    for field in (*_STATS, "grid", "spiral"):
        if upper.startswith(field.upper()) and field in table:
            return field
    for field in ("models", *_STATS):  # a number refused on its own (too large)
        if str(table.get(field)) == upper.rstrip("X"):
            return field
    return "keywords" if "keywords" in table else None


def _builtin_entries() -> list[TargetEntry]:
    ref = resources.files("mathhammer.warmachine").joinpath("data", "targets.toml")
    return parse_targets_text(ref.read_bytes(), BUILTIN_SOURCE)


#: The built-in reference targets (read-only mapping, read from the package on first use).
targets: TargetLibrary = TargetLibrary(loader=_builtin_entries)


def load_targets(*paths: str | os.PathLike[str],
                 base: TargetLibrary | None = None) -> TargetLibrary:
    """The built-in library (or ``base``) plus the targets of one or more TOML files.

    Each table of a file is one target named by the table, with the fields of the built-in
    file (``DEF``, ``ARM``, ``BOXES``, optional ``models``, ``name``, ``keywords``, ``grid``
    or ``spiral``, ``aliases``, ``data``, ``note``) or a whole ``line = "..."``. A table named
    like an existing target replaces it; later files override earlier ones.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "mine.toml"
    >>> _ = f.write_text('[Bane]\\nline = "5x Bane: DEF12 ARM15 BOXES1 [TOUGH]"\\n')
    >>> lib = load_targets(f)
    >>> str(lib["bane"]), "SOLO" in lib
    ('5x Bane: DEF12 ARM15 BOXES1 [TOUGH]', True)
    """
    library = targets if base is None else base
    for path in paths:
        library = library.with_file(path)
    return library


def resolve_target(target: str | Target, library: TargetLibrary | None = None) -> Target:
    """A target line or reference name (``"HEAVY_JACK"``, ``"3x LIGHT_JACK"``) to a
    :class:`Target`.

    A text with no ``:`` is looked up by name first (the library is read then, not before);
    otherwise it is parsed as a target line. Text that is neither gets one line naming the
    closest reference target.

    Raises
    ------
    ProfileError
        For a malformed line, an impossible count or keyword, or an unknown name.
    """
    if isinstance(target, Target):
        return target
    if not isinstance(target, str):
        return parse_target(target)  # refuses it, naming the type
    library = targets if library is None else library
    refuse_malformed_count(target, target, _EXAMPLE)
    parts = split_name_line(target)
    if parts is not None:
        found = library.resolve(target)
        if found is not None:
            return found
    try:
        return parse_target(target)
    except ProfileError:
        if parts is None or _LOOKS_LIKE_LINE_RE.search(target):
            raise
        raise ProfileError(
            f"unknown Warmachine target '{parts[1]:.60}'{did_you_mean(parts[1], library.names())}"
            f" (reference targets: {', '.join(library)}; or write a target line such as "
            f"'{_EXAMPLE}')") from None


__all__ = [
    "BUILTIN_SOURCE",
    "FIELDS",
    "TargetEntry",
    "TargetLibrary",
    "UnknownTargetError",
    "line_of",
    "load_targets",
    "normalize",
    "parse_targets_text",
    "read_targets_file",
    "resolve_target",
    "split_name_line",
    "targets",
]
