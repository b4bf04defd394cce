"""Reference target profiles (archetypes such as GEQ, MEQ, TEQ, KEQ) and user profile files.

The built-in library lives in ``mathhammer/wh40k/data/targets.toml`` (package data, with the source
of every number). :data:`targets` is a read-only mapping from names to
:class:`~mathhammer.wh40k.profiles.TargetProfile`; look-ups ignore case, spaces, hyphens and
underscores and accept the aliases players use (``"Intercessor"`` finds ``MEQ``).
:func:`load_targets` reads a user TOML file and returns a new library in which its profiles
add to or override the built-in ones.

Anywhere a target line is accepted, a name works too, optionally with a model count and
extra keywords: ``"MEQ"``, ``"10x MEQ"``, ``"3x TEQ [STEALTH]"``.

Examples
--------
>>> from mathhammer.wh40k.targets import targets
>>> str(targets["MEQ"])
'5x Intercessor: T4 Sv3+ W2 [INFANTRY]'
>>> str(resolve_target("10x meq"))
'10x Intercessor: T4 Sv3+ W2 [INFANTRY]'
>>> targets.info("KEQ").data
'10e =11e'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from mathhammer.core.files import read_bounded, read_toml_tables
from mathhammer.errors import OptionError, ProfileError, UnknownWordError, did_you_mean
from mathhammer.wh40k.profiles import NO_SAVE, TargetProfile
from mathhammer.core.inputs import text as text_value
from mathhammer.core.limits import (MAX_MODELS, check_number_text, refuse_foreign_digits, shown,
                                    unsafe_text)
from mathhammer.core.numbers import refuse_malformed_count
from mathhammer.core.reference_names import (UnknownTargetError, normalize, split_name_line,
                                             table_line as _line_of)
from mathhammer.wh40k.parse import common_target_line, parse_keywords
from mathhammer.wh40k.parse import parse_target as parse_target_line

_FIELDS = {"aliases", "name", "models", "T", "Sv", "W", "InSv", "InSv_scope", "FNP",
           "FNP_mortal", "keywords", "data", "note", "line", "10e"}
#: Fields an other-edition sub-table (``[KEQ.10e]``) may override.
_EDITION_FIELDS = _FIELDS - {"aliases", "note", "10e"}
_LOOKS_LIKE_PROFILE_RE = re.compile(r"(?i)(^|\s)(T|Sv|W)\s*[\d-]")


@dataclass(frozen=True, slots=True)
class TargetEntry:
    """One library entry: the profile plus its names and where its numbers come from.

    Attributes
    ----------
    key
        Canonical name (the TOML table name), e.g. ``"MEQ"``.
    profile
        The reference unit as a :class:`TargetProfile`.
    aliases
        Other names that find this entry.
    data
        Source of the numbers (``"10e"``, ``"10e =11e"``, or a user file's own note).
    note
        Anything else worth knowing (e.g. UNCERTAIN values).
    source
        The file the entry was read from.
    other_editions
        ``(edition, profile, data)`` for an edition whose statline differs (a ``[NAME.10e]``
        sub-table in the file); ``profile`` is the 11th-edition one.
    """

    key: str
    profile: TargetProfile
    aliases: tuple[str, ...] = ()
    data: str = ""
    note: str = ""
    source: str = ""
    other_editions: tuple[tuple[int, TargetProfile, str], ...] = ()

    def profile_for(self, edition: int = 11) -> TargetProfile:
        """The statline under ``edition``'s rules (the 11th-edition one unless the entry
        carries a different one for that edition)."""
        for other, profile, _ in self.other_editions:
            if other == edition:
                return profile
        return self.profile


class TargetLibrary(Mapping[str, TargetProfile]):
    """A read-only mapping of names (and aliases) to :class:`TargetProfile`.

    Iterating gives the canonical names; ``library["intercessor"]`` finds ``MEQ``. A name
    that is not known raises :class:`UnknownTargetError` (a ``KeyError``) listing the known
    names with a suggestion.
    """

    def __init__(self, entries: Mapping[str, TargetEntry] | None = None,
                 index: Mapping[str, str] | None = None) -> None:
        self._entries: dict[str, TargetEntry] = dict(entries or {})
        self._index: dict[str, str] = dict(index or {})
        # names exactly as the entries write them ("GEQ", "Intercessor"): found without
        # reading the text as a name line (what resolve() would find for them, the same)
        self._as_written: dict[str, str] = {
            name: key for key, entry in self._entries.items() for name in (key, *entry.aliases)
            if name.isascii() and split_name_line(name) == (None, name, None)
            and self._index.get(normalize(name)) == key}

    # -- Mapping --------------------------------------------------------------------------
    def __getitem__(self, name: str) -> TargetProfile:
        return self.info(name).profile

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and normalize(name) in self._index

    def __repr__(self) -> str:
        return f"<TargetLibrary: {', '.join(self._entries)}>"

    # -- look-ups -------------------------------------------------------------------------
    def info(self, name: str) -> TargetEntry:
        """The :class:`TargetEntry` (profile, aliases, source notes) for ``name``."""
        if not isinstance(name, str):
            raise UnknownTargetError(f"target names are strings, not {type(name).__name__}")
        key = self._index.get(normalize(name))
        if key is None:
            names = list(self._entries) + [a for e in self._entries.values() for a in e.aliases]
            hint = _suggest(name, names)
            raise UnknownTargetError(f"unknown reference target '{name}'{hint}; known: "
                                     f"{', '.join(self._entries)}", name=name)
        return self._entries[key]

    def aliases(self) -> dict[str, str]:
        """Every accepted name (canonical names and aliases) to its canonical name."""
        out = {}
        for key, entry in self._entries.items():
            out[key] = key
            for alias in entry.aliases:
                if self._index.get(normalize(alias)) == key:
                    out[alias] = key
        return out

    def knows(self, text: str) -> bool:
        """Whether ``text`` names an entry (``"10x MEQ [STEALTH]"``), as :meth:`resolve`
        reads it, without building its profile."""
        if text in self._as_written:
            return True
        parts = split_name_line(text)
        return parts is not None and normalize(parts[1]) in self._index

    def named(self, text: str, edition: int = 11) -> TargetProfile | None:
        """The profile of an entry named exactly as the library writes it (``"GEQ"``, an
        alias as written), or ``None``: :meth:`resolve` reads every other way of naming one.
        """
        key = self._as_written.get(text)
        return self._entries[key].profile_for(edition) if key is not None else None

    def resolve(self, text: str, edition: int = 11) -> TargetProfile | None:
        """``"10x MEQ [STEALTH]"`` to a profile, or ``None`` when ``text`` names no entry.

        ``edition`` picks the statline of entries that carry one per edition."""
        parts = split_name_line(text)
        if parts is None:
            return None
        count, name, extra = parts
        key = self._index.get(normalize(name))
        if key is None:
            return None
        refuse_foreign_digits(text, text)
        profile = self._entries[key].profile_for(edition)
        if count is not None:
            number = check_number_text(count, MAX_MODELS, "model count")
            if number < 1:
                raise ProfileError(f"model count {count}x must be at least 1", line=text)
            profile = profile.with_count(number)
        if extra is not None:
            if _LOOKS_LIKE_PROFILE_RE.search(extra):
                raise ProfileError(f"'[{extra}]' after the reference name '{name}' holds "
                                   "characteristics: brackets add keywords only; write a whole "
                                   "target line (e.g. '5x Intercessor: T4 Sv3+ W2') to change "
                                   "them", token=extra, line=text)
            from dataclasses import replace

            words = parse_keywords(extra, text)
            profile = replace(profile, keywords=profile.keywords | words)
        return profile

    def with_entries(self, entries: list[TargetEntry]) -> TargetLibrary:
        """A new library with ``entries`` added; an entry whose name is already a canonical
        name replaces that entry, one whose name is an alias takes the alias over."""
        new_entries = dict(self._entries)
        index = dict(self._index)
        for entry in entries:
            existing = index.get(normalize(entry.key))
            key = existing if existing is not None and normalize(existing) == normalize(
                entry.key) else entry.key
            if key != entry.key:
                entry = TargetEntry(key, entry.profile, entry.aliases, entry.data, entry.note,
                                    entry.source, entry.other_editions)
            new_entries[key] = entry
            index[normalize(key)] = key
            for alias in entry.aliases:
                index[normalize(alias)] = key
        return TargetLibrary(new_entries, index)

    def with_file(self, path: str | os.PathLike[str]) -> TargetLibrary:
        """This library plus the profiles of a TOML file (see :func:`load_targets`)."""
        return self.with_entries(read_file(path))

    def to_rows(self) -> list[dict[str, Any]]:
        """One dict per entry: name, aliases, line, data, note (``pandas.DataFrame(rows)``)."""
        return [{"name": e.key, "aliases": ", ".join(e.aliases), "line": str(e.profile),
                 "data": e.data, "note": e.note} for e in self._entries.values()]


def _suggest(name: str, names: list[str]) -> str:
    hint = did_you_mean(name, names)
    if hint:
        upper = hint.split("'")[1]
        for candidate in names:
            if candidate.upper() == upper:
                return f"; did you mean '{candidate}'?"
    return hint


# -- files ------------------------------------------------------------------------------
def read_file(path: str | os.PathLike[str]) -> list[TargetEntry]:
    """Read the entries of one TOML profile file.

    Raises
    ------
    ProfileError
        When the file cannot be read, is not valid TOML, or a profile in it is incomplete or
        impossible; the message names the file and the line.
    """
    path = os.fspath(path)
    try:
        raw = read_bounded(path)
    except OSError as exc:
        raise ProfileError(f"cannot read target file {path}: {exc.strerror or exc}") from None
    return _parse_text(raw, path)


def _parse_text(raw: bytes, source: str) -> list[TargetEntry]:
    text, document = read_toml_tables(raw, source, "a profile", ProfileError)
    entries = []
    for key, table in document.items():
        if not isinstance(table, dict):
            line = _line_of(text, key)
            raise ProfileError(f"{source}, line {line}: '{shown(key)}' must be a table "
                               f"([{shown(key)}] followed by T = ..., Sv = ..., W = ...)")
        entries.append(_entry(key, table, text, source))
    return entries


def _entry(key: str, table: dict[str, Any], text: str, source: str) -> TargetEntry:
    def fail(message: str, field: str | None = None) -> ProfileError:
        line = _line_of(text, key, field)
        return ProfileError(f"[{shown(key)}] {message}").located(f"{source}, line {line}")

    _check_name_text(key, "the table name", fail)
    unknown = [f for f in table if f not in _FIELDS]
    if unknown:
        hint = did_you_mean(unknown[0], _FIELDS)
        _check_name_text(unknown[0], "a field name", fail, unknown[0])
        raise fail(f"unknown field '{unknown[0]}'{hint}; fields: {', '.join(sorted(_FIELDS))}",
                   unknown[0])
    aliases = table.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise fail("aliases must be a list of strings", "aliases")
    for alias in aliases:
        _check_name_text(alias, "an alias", fail, "aliases")
    try:
        if "line" in table:
            if not isinstance(table["line"], str):
                raise fail("line must be a string such as \"5x Intercessor: T4 Sv3+ W2\"",
                           "line")
            try:
                profile = parse_target_line(table["line"])
            except ProfileError as exc:
                raise fail(str(exc), "line") from None
            if "models" in table:
                profile = profile.with_count(_int(table, "models", fail))
        else:
            profile = _profile_from_fields(key, table, fail)
    except ProfileError as exc:
        if exc.location is not None:   # said at its line already
            raise
        raise fail(str(exc)) from None
    return TargetEntry(key=key, profile=profile, aliases=tuple(aliases),
                       data=_text(table, "data", fail), note=_text(table, "note", fail),
                       source=source, other_editions=_other_editions(key, table, text, source))


def _other_editions(key: str, table: dict[str, Any], text: str,
                    source: str) -> tuple[tuple[int, TargetProfile, str], ...]:
    """A ``[NAME.10e]`` sub-table: the fields whose 10th-edition values differ, with their
    own ``data`` (source); the rest is taken from the entry."""
    if "10e" not in table:
        return ()
    sub = table["10e"]
    where = f"{key}.10e"

    def fail(message: str, field: str | None = None) -> ProfileError:
        return ProfileError(f"[{shown(where)}] {message}").located(
            f"{source}, line {_line_of(text, where, field)}")

    if not isinstance(sub, dict):
        raise fail("must be a table of the fields whose 10th-edition values differ")
    unknown = [f for f in sub if f not in _EDITION_FIELDS]
    if unknown:
        hint = did_you_mean(unknown[0], _EDITION_FIELDS)
        _check_name_text(unknown[0], "a field name", fail, unknown[0])
        raise fail(f"unknown field '{unknown[0]}'{hint}", unknown[0])
    try:
        if "line" in table or "line" in sub:
            if not isinstance(sub.get("line"), str):
                raise fail("the entry is written as a line: give the 10th-edition statline as "
                           "line = \"...\" too", "line")
            profile = parse_target_line(sub["line"])
        else:
            merged = {k: v for k, v in table.items() if k != "10e"}
            merged.update(sub)
            profile = _profile_from_fields(where, merged, fail)
    except ProfileError as exc:
        if exc.location is not None:   # said at its line already
            raise
        raise fail(str(exc)) from None
    return ((10, profile, _text(sub, "data", fail)),)


def _profile_from_fields(key: str, table: dict[str, Any], fail) -> TargetProfile:
    for required in ("T", "Sv", "W"):
        if required not in table:
            raise fail(f"missing {required}: give T, Sv and W (or a `line = \"...\"`)")
    save = table["Sv"]
    if isinstance(save, str):
        stripped = save.strip().rstrip("+")
        if stripped in ("-", "", "7"):
            save = NO_SAVE
        elif _ASCII_DIGITS_RE.fullmatch(stripped):
            save = int(stripped)
        else:
            raise fail(f"Sv = {table['Sv']!r}: write a number such as 3, or \"-\" for none", "Sv")
    elif not isinstance(save, int) or isinstance(save, bool):
        raise fail(f"Sv = {save!r}: write a number such as 3, or \"-\" for none", "Sv")
    keywords = table.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
        raise fail("keywords must be a list of strings such as [\"INFANTRY\"]", "keywords")
    for keyword in keywords:
        _check_name_text(keyword, "a keyword", fail, "keywords")
    scope = table.get("InSv_scope", "all")
    if scope not in ("all", "ranged", "melee"):
        raise fail(f"InSv_scope = {scope!r} must be \"all\", \"ranged\" or \"melee\"",
                   "InSv_scope")
    return TargetProfile(
        toughness=_int(table, "T", fail), save=save, wounds=_int(table, "W", fail),
        count=_int(table, "models", fail, default=1), name=_text(table, "name", fail, key),
        invuln=_int(table, "InSv", fail, default=None), invuln_scope=scope,
        fnp=_int(table, "FNP", fail, default=None),
        fnp_mortal=_int(table, "FNP_mortal", fail, default=None),
        keywords=frozenset(keywords))


def _text(table: dict[str, Any], field: str, fail, default: str = "") -> str:
    """A text field (``name``, ``data``, ``note``): a string in quotes, without control
    characters (``name = [[1]]`` or ``data = 4096`` is refused, not written out as text)."""
    if field not in table:
        return default
    try:
        value = text_value(table[field], field)
    except OptionError as exc:
        raise fail(f"{exc}: write it in quotes, {field} = \"...\"", field) from None
    _check_name_text(value, field, fail, field)
    return value


def _check_name_text(value: str, what: str, fail, field: str | None = None) -> None:
    """Refuse a control or text-direction character in a name or text of the file, named
    as an escape (printed raw it would drive the terminal)."""
    problem = unsafe_text(value, what)
    if problem is not None:
        raise fail(problem, field)


_MISSING = object()
#: A whole number in a library file's text field: ASCII digits only (``str.isdigit`` takes
#: '٣' and '²', and ``int('²')`` fails), at most 40 of them (the profile checks the range).
_ASCII_DIGITS_RE = re.compile(r"[0-9]{1,40}")


def _int(table: dict[str, Any], field: str, fail, default: Any = _MISSING) -> Any:
    if field not in table:
        return default
    value = table[field]
    if isinstance(value, str) and _ASCII_DIGITS_RE.fullmatch(value.strip().rstrip("+")):
        value = int(value.strip().rstrip("+"))
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(f"{field} = {value!r} must be a whole number", field)
    return value


def _builtin() -> TargetLibrary:
    ref = resources.files("mathhammer.wh40k").joinpath("data", "targets.toml")
    entries = _parse_text(ref.read_bytes(), "mathhammer/wh40k/data/targets.toml")
    return TargetLibrary().with_entries(entries)


#: The built-in reference profiles (read-only mapping).
targets: TargetLibrary = _builtin()


def load_targets(*paths: str | os.PathLike[str],
                 base: TargetLibrary | None = None) -> TargetLibrary:
    """The built-in library (or ``base``) plus the profiles of one or more TOML files.

    Each table of a file is one profile, named by the table, with the fields of the built-in
    file (``T``, ``Sv``, ``W``, optional ``InSv``, ``InSv_scope``, ``FNP``, ``FNP_mortal``,
    ``models``, ``name``, ``keywords``, ``aliases``, ``data``, ``note``) or a whole
    ``line = "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"``. A table named like an existing
    profile replaces it; later files override earlier ones.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "mine.toml"
    >>> _ = f.write_text('[Sisters]\\nline = "10x Battle Sister: T3 Sv3+ W1"\\n')
    >>> lib = load_targets(f)
    >>> str(lib["sisters"]), "MEQ" in lib
    ('10x Battle Sister: T3 Sv3+ W1', True)
    """
    library = targets if base is None else base
    for path in paths:
        library = library.with_file(path)
    return library


def load(*paths: str | os.PathLike[str], base: TargetLibrary | None = None) -> TargetLibrary:
    """The old name of :func:`load_targets` (``load_*`` reads paths, ``parse_*`` text): it
    still works for one release, with a DeprecationWarning."""
    import warnings

    warnings.warn("mathhammer.wh40k.targets.load is deprecated and will be removed; use "
                  "load_targets", DeprecationWarning, stacklevel=2)
    return load_targets(*paths, base=base)


def check_library(library: Any) -> None:
    """Refuse a ``library`` that is neither None (the built-in one) nor a
    :class:`TargetLibrary` (from :func:`load_targets`), naming what it is."""
    if library is not None and not isinstance(library, TargetLibrary):
        raise OptionError(f"library must be a TargetLibrary (mathhammer.wh40k.targets."
                          f"load_targets('my_targets.toml')) or None for the built-in one, not "
                          f"{type(library).__name__} {library!r:.60}")


def parse_target(text: str, *, library: TargetLibrary | None = None,
                 edition: int = 11) -> TargetProfile:
    """A target written as text, read as every function that takes a target reads it: a
    target line (``"5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]"``) or a reference name
    (``"MEQ"``, ``"10x TEQ"``; ``library`` and ``edition`` as in :func:`resolve_target`).

    Raises
    ------
    ProfileError
        Naming the offending token, its column and the fix, or the closest reference name.

    Examples
    --------
    >>> parse_target("MEQ").wounds, parse_target("10x Cultist: T3 Sv6+ W1").count
    (2, 10)
    """
    if not isinstance(text, str):
        raise ProfileError(f"a target is text: a target line or a reference name such as "
                           f"'MEQ', not {type(text).__name__} {text!r:.40}")
    return resolve_target(text, library, edition)


def resolve_target(target: str | TargetProfile, library: TargetLibrary | None = None,
                   edition: int = 11) -> TargetProfile:
    """A target line or reference name (``"MEQ"``, ``"10x TEQ"``) to a :class:`TargetProfile`.

    Names are tried first, then the text is parsed as a target line. Text that looks like
    neither gets an error suggesting the closest reference name. ``edition`` picks the
    statline of a reference profile that carries one per edition.
    """
    check_library(library)
    if isinstance(target, TargetProfile):
        return target
    if isinstance(target, str) and ":" in target:   # a line with a name: never a reference
        common = common_target_line(target)
        if common is not None:
            return common
    library = targets if library is None else library
    if isinstance(target, str):
        named = library.named(target, edition)   # "MEQ" as written: the usual reference
        if named is not None:
            return named
        refuse_malformed_count(target, target, "10x MEQ")
        found = library.resolve(target, edition)
        if found is not None:
            return found
    try:
        return parse_target_line(target)
    except ProfileError:
        if isinstance(target, str) and target.strip() and ":" not in target \
                and not _LOOKS_LIKE_PROFILE_RE.search(target):
            parts = split_name_line(target)
            name = parts[1] if parts else target
            names = list(library) + [a for e in library._entries.values() for a in e.aliases]
            hint = _suggest(name, names)
            raise UnknownWordError(
                f"unknown target '{target.strip()}'{hint} (reference profiles: "
                f"{', '.join(library)}; or write a target line such as "
                f"'5x Intercessor: T4 Sv3+ W2')", token=target.strip()) from None
        raise


__all__ = [
    "TargetEntry",
    "TargetLibrary",
    "UnknownTargetError",
    "load_targets",
    "normalize",
    "read_file",
    "resolve_target",
    "targets",
]
