"""Every datasheet of a checkout, indexed by name once and kept in a cache.

:func:`datasheets` reads the checkout's files (progress on a terminal), finds each faction's
datasheets (its root entries and those of the libraries it imports), writes each one's
smallest legal unit as a roster selection (:mod:`.loadout`) and keeps those selections in a
cache keyed on the files' names, sizes and times. A later call with unchanged files reads
only the cache. :class:`Datasheet` is one unit at a chosen size, read by the roster reader.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathhammer.errors import (NAMED, AmbiguousDatasheetError, Command, MathhammerError,
                               RosterError, UnknownDatasheetError, did_you_mean)
from mathhammer.wh40k.bsdata import loadout
from mathhammer.wh40k.bsdata.files import DataFile, data_files, data_folder, read_data_file
from mathhammer.wh40k.bsdata.library import CatalogueFile, Library, is_hidden
from mathhammer.wh40k.bsdata.modifiers import resolve
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.convert import EDITIONS, RosterEntry, for_edition, read_entry
from mathhammer.wh40k.roster.read import Node

CACHE_VERSION = 8
#: Unit sizes whose points are kept (a datasheet's largest legal unit is far smaller).
MAX_SIZES = 200


# -- a datasheet ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SheetRecord:
    """What the cache keeps of one datasheet: enough to write it at any legal size."""

    name: str
    faction: str
    edition: int
    single: bool
    kinds: tuple[tuple[str, int, int, bool], ...]   # (name, low, high, filler)
    points: tuple[float, ...]                        # points at min_size, min_size + 1, ...
    largest: int
    template: Any      # the roster selection as nested lists, or (offset, length) in the cache
    notes: tuple[str, ...]
    home: bool = True  # the faction's own entry, not one imported from another catalogue

    @property
    def min_size(self) -> int:
        return max(1, sum(low for _, low, _, _ in self.kinds))

    @property
    def max_size(self) -> int:
        return max(self.min_size, min(self.largest, sum(h for _, _, h, _ in self.kinds)))

    def counts(self, size: int | None) -> list[int]:
        """Models of each kind for a unit of ``size`` models (None: the smallest)."""
        counts = [low for _, low, _, _ in self.kinds]
        if not any(counts):
            counts[0] = 1
        if size is None or self.single:
            return counts
        extra = size - sum(counts)
        order = [i for i, k in enumerate(self.kinds) if k[3]] + \
            [i for i, k in enumerate(self.kinds) if not k[3]]
        for i in order:
            room = self.kinds[i][2] - counts[i]
            take = max(0, min(room, extra))
            counts[i] += take
            extra -= take
        return counts


@dataclass(frozen=True)
class Datasheet:
    """One unit of a datasheet at a chosen size, as mathhammer reads it.

    Attributes
    ----------
    name, faction, edition
        As the data names them (edition 10 or 11, from the game system id).
    size, points
        Models in the unit and its points at that size.
    entry
        The unit read by the roster reader: model groups with statlines and weapons, notes.
    """

    name: str
    faction: str
    edition: int
    size: int
    points: float
    entry: RosterEntry = field(repr=False, compare=False)
    notes: tuple[str, ...] = ()

    @property
    def models(self) -> list[dict[str, Any]]:
        """Each model group: ``name``, ``count``, ``profile`` (a target line) and
        ``weapons`` (weapon lines for the whole group, in our syntax)."""
        return [{"name": g.name, "count": g.count, "profile": _profile_text(g.profile),
                 "weapons": [_weapon_line(p, w.per_model * g.count)
                             for w in g.weapons for p in w.profiles[:1]]}
                for g in self.entry.groups]

    def target_line(self) -> str:
        """The unit as one target line (``10x Warrior: T4 Sv4+ W1 [INFANTRY]``).

        Raises
        ------
        RosterError
            When its models have different statlines (a single line cannot hold them).
        """
        profiles = {str(_profile_text(g.profile)) for g in self.entry.groups}
        if not self.entry.has_statline:
            raise RosterError(f"datasheet '{self.name}' has no statline in the data: it can "
                              "attack but not be a target")
        if len(profiles) != 1:
            raise RosterError(f"datasheet '{self.name}' has models with different statlines "
                              f"({'; '.join(sorted(profiles))}): a target line holds one; "
                              "use it in a roster or scenario, or type the line you want")
        count = sum(g.count for g in self.entry.groups)
        return f"{count}x {self.name}: {profiles.pop()}"

    def weapon_lines(self, melee: bool = False) -> list[str]:
        """The unit's default ranged (or melee) weapons as weapon lines, one per weapon and
        model group (a weapon with several profiles: its first, with a note)."""
        lines = []
        for group in self.entry.groups:
            for weapon in group.weapons:
                profile = weapon.profiles[0]
                if profile.melee == melee:
                    lines.append(_weapon_line(profile, weapon.per_model * group.count))
        if not lines:
            raise RosterError(f"datasheet '{self.name}' has no default "
                              f"{'melee' if melee else 'ranged'} weapon")
        return lines

    def to_dict(self) -> dict[str, Any]:
        """``name``, ``faction``, ``edition``, ``points``, ``models``, ``notes``."""
        return {"name": self.name, "faction": self.faction, "edition": self.edition,
                "size": self.size, "points": self.points, "models": self.models,
                "notes": list(self.notes)}


def _profile_text(profile: Any) -> str:
    text = str(profile)
    return text.split(": ", 1)[1] if ": " in text else text


def _weapon_line(profile: Any, count: int) -> str:
    text = str(profile)
    text = text.split("x ", 1)[1] if text[:1].isdigit() and "x " in text else text
    return f"{count}x {text}" if count != 1 else text


# -- the index -----------------------------------------------------------------------------
class Datasheets:
    """The datasheets of one checkout, by name.

    Examples
    --------
    >>> import tempfile, mathhammer as mh
    >>> from mathhammer.wh40k.bsdata.example import write_checkout
    >>> sheets = mh.datasheets(write_checkout(tempfile.mkdtemp()), progress=False)
    >>> sheets.get("Strike Squad", 10).target_line()
    '10x Strike Squad: T4 Sv3+ W2 [INFANTRY]'
    >>> sheets.find("wing")
    [('Test Faction', 'Drone Wing')]
    """

    def __init__(self, folder: Path, records: list[SheetRecord],
                 templates: Path | None = None,
                 missing: tuple[tuple[str, str], ...] = ()) -> None:
        self.folder = folder
        self.records = records
        self.templates = templates
        #: ``(faction, catalogue)`` for each catalogue a faction links that the checkout
        #: lacks (a partial download): the datasheets it holds are not listed.
        self.missing = missing
        self._by_name: dict[str, list[SheetRecord]] = {}
        for record in records:
            self._by_name.setdefault(record.name.lower(), []).append(record)

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[SheetRecord]:
        return iter(self.records)

    def missing_note(self) -> str | None:
        """One line naming the catalogues the checkout lacks, or None when it lacks none."""
        names = sorted({catalogue for _, catalogue in self.missing})
        if not names:
            return None
        shown = ", ".join(f"'{name}'" for name in names[:3]) + (", ..." if len(names) > 3 else "")
        return (f"{self.folder} lacks {len(names)} catalogue file(s) its factions link "
                f"({shown}): their datasheets are not listed; complete or update the "
                "checkout (git pull)")

    def names(self, faction: str | None = None) -> list[tuple[str, str]]:
        """``(faction, name)`` of every datasheet, sorted (of one faction, when given)."""
        return sorted((r.faction, r.name) for r in self.records
                      if faction is None or faction.lower() in r.faction.lower())

    def find(self, text: str, faction: str | None = None) -> list[tuple[str, str]]:
        """``(faction, name)`` of the datasheets whose name holds ``text`` (any case)."""
        if not isinstance(text, str):
            raise RosterError(f"find(text): text is a part of a name, not {type(text).__name__}")
        wanted = text.lower()
        return [(f, n) for f, n in self.names(faction) if wanted in n.lower()]

    def get(self, name: str, size: int | None = None, faction: str | None = None) -> Datasheet:
        """One datasheet at ``size`` models (None: the smallest legal unit).

        Raises
        ------
        RosterError
            For an unknown name (with the nearest names), a name in several factions
            without ``faction``, or a size the datasheet does not allow.
        """
        record = self.record(name, faction)
        if size is not None and (isinstance(size, bool) or not isinstance(size, int)):
            raise RosterError(f"size={size!r} must be a whole number of models")
        if size is not None and not (record.min_size <= size <= record.max_size) \
                and not record.single:
            raise RosterError(f"'{record.name}' is a unit of {record.min_size} to "
                              f"{record.max_size} models, not {size}")
        if record.single and size not in (None, 1):
            raise RosterError(f"'{record.name}' is a single model, not a unit of {size}")
        counts = record.counts(size)
        selection = _scaled(node_from_plain(self.template_of(record)), counts, record.single)
        changes: list[str] = []
        resolve(selection, changes, record.name)
        entry = for_edition(read_entry(selection, f"{self.folder}: {record.faction}"),
                            record.edition)
        total = sum(counts) if not record.single else 1
        points = record.points[min(total - record.min_size, len(record.points) - 1)] \
            if record.points else entry.points
        notes = tuple(dict.fromkeys(record.notes + tuple(changes) + entry.notes))
        return Datasheet(record.name, record.faction, record.edition, total, points, entry,
                         notes)

    def template_of(self, record: SheetRecord) -> Any:
        """The record's roster selection (one model of each kind, as nested lists): kept, or
        read from its place in the cache."""
        if not isinstance(record.template, tuple):
            return record.template
        offset, length = record.template
        if self.templates is None:
            raise RosterError(f"datasheet '{record.name}': its cached selection has no file")
        try:
            with open(self.templates, "rb") as stream:
                stream.seek(offset)
                return json.loads(stream.read(length))
        except (OSError, ValueError) as exc:
            raise RosterError(f"the datasheet cache {self.templates} cannot be read ({exc}); "
                              "delete it and ask again") from None

    def record(self, name: str, faction: str | None = None) -> SheetRecord:
        if not isinstance(name, str) or not name.strip():
            raise RosterError(f"a datasheet name is text, not {name!r:.40}")
        found = self._by_name.get(" ".join(name.split()).lower(), [])
        if faction is not None:
            found = [r for r in found if faction.lower() in r.faction.lower()]
        if not found:
            near = did_you_mean(name, sorted({r.name for r in self.records}))
            where = f" of faction '{faction}'" if faction else ""
            lacking = f"; {self.missing_note()}" if self.missing else ""
            raise UnknownDatasheetError(
                f"no datasheet '{name}'{where} in {self.folder}{near}; {{find}} lists "
                f"names{lacking}",
                name=name, options={"find": Command("mathhammer units --find TEXT")})
        homes = [r for r in found if r.home]
        if len({r.faction for r in homes}) == 1:
            return homes[0]   # the faction that writes the datasheet, not one importing it
        factions = sorted({r.faction for r in (homes or found)})
        if len(factions) > 1:
            raise AmbiguousDatasheetError(
                f"datasheet '{name}' is in {len(factions)} factions "
                f"({', '.join(factions[:6])}): {{choose one with faction}}", name=name,
                factions=factions, options={"faction": NAMED})
        return found[0]


def datasheets(folder: str | os.PathLike[str] | None = None, *, progress: bool | None = None,
               legends: bool = False) -> Datasheets:
    """The datasheets of a BSData checkout (``folder``, else ``$MATHHAMMER_DATA``).

    The first call reads every file (a progress bar on a terminal) and keeps a cache keyed
    on the files' names, sizes and times; later calls with the same files read only it.

    Raises
    ------
    RosterError
        For a missing folder, a folder with no data files, or a damaged or hostile file
        (naming it).
    """
    if not isinstance(legends, bool):
        raise RosterError(f"legends={legends!r} must be True or False")
    path = data_folder(folder).resolve()
    files = data_files(path)
    key = _cache_key(files, legends)
    cached = _read_cache(path, key)
    if cached is not None:
        records, missing = cached
        return Datasheets(path, records, _cache_path(path).with_suffix(".templates"),
                          missing)
    records, missing = _build(files, legends, progress)
    if not records:
        raise RosterError(f"{path}: the data files hold no datasheets (no unit or model "
                          "entries in a faction catalogue)")
    _write_cache(path, key, records, missing)
    return Datasheets(path, records, missing=missing)


def _build(files: list[DataFile], legends: bool,
           progress: bool | None) -> tuple[list[SheetRecord], tuple[tuple[str, str], ...]]:
    """The checkout's datasheets, and ``(faction, catalogue)`` for each catalogue link whose
    file the checkout lacks."""
    from mathhammer.core.progress import bar

    catalogues: list[CatalogueFile] = []
    with bar(len(files), "reading BSData", progress=progress, unit="file") as shown:
        for file in files:
            root = read_data_file(file)
            shown.update(1)
            if root is None:
                continue
            catalogues.append(CatalogueFile(
                id=root.get("id"), name=kw.clean(root.get("name")),
                system_id=root.get("gameSystemId") or root.get("id"),
                library=root.get("library").lower() == "true" or root.tag == "gameSystem",
                root=root, source=str(file.path),
                links=[(link.get("targetId"), link.get("importRootEntries").lower() == "true")
                       for link in root.list("catalogueLinks")]))
    library = Library(catalogues)
    records: list[SheetRecord] = []
    missing: list[tuple[str, str]] = []
    for catalogue in catalogues:
        if catalogue.library or catalogue.root.tag != "catalogue":
            continue
        edition = EDITIONS.get(catalogue.system_id.strip())
        if edition is None:
            continue
        missing += [(_faction(catalogue.name), kw.clean(link.get("name")) or link.get("targetId"))
                    for link in catalogue.root.list("catalogueLinks")
                    if link.get("targetId") not in library.catalogues]
        for entry in _root_entries(library, catalogue, legends):
            home = library.file_of.get(entry.get("id")) is catalogue
            library.start_datasheet()
            record = _record(library, entry, catalogue, edition, home)
            if record is not None:
                records.append(record)
    return records, tuple(dict.fromkeys(missing))


def _root_entries(library: Library, catalogue: CatalogueFile, legends: bool) -> list[Node]:
    """A faction's datasheets: its root entries and links, and those of the libraries it
    imports (``importRootEntries``, followed transitively), each once."""
    out: list[Node] = []
    seen: set[str] = set()
    stack, visited = [catalogue], {catalogue.id}
    while stack:
        current = stack.pop()
        for node in current.root.list("entryLinks") + current.root.list("selectionEntries"):
            entry = library.resolve(node)
            if entry is None or entry.tag != "selectionEntry" or \
                    entry.get("type") not in ("unit", "model"):
                continue
            name = kw.clean(entry.get("name"))
            if is_hidden(entry) or (not legends and "legends" in name.lower()):
                continue
            if entry.get("id") in seen:
                continue
            seen.add(entry.get("id"))
            out.append(entry)
        for target, imports in current.links:
            linked = library.catalogues.get(target)
            if imports and linked is not None and linked.id not in visited:
                visited.add(linked.id)
                stack.append(linked)
    return out


def _record(library: Library, unit: Node, catalogue: CatalogueFile, edition: int,
            home: bool) -> SheetRecord | None:
    notes: list[str] = []
    kinds = loadout.model_kinds(library, unit, notes)
    if not kinds:
        return None
    single = unit.get("type") == "model"
    template = loadout.template(library, unit, kinds, [1] * len(kinds), notes)
    record = SheetRecord(
        name=kw.clean(unit.get("name")), faction=_faction(catalogue.name), edition=edition,
        single=single, kinds=tuple((k.name, k.low, max(k.high, k.low), k.filler)
                                   for k in kinds),
        points=(), largest=1 if single else loadout.largest_unit(library, unit, kinds),
        template=_plain(template), notes=tuple(dict.fromkeys(notes)), home=home)
    points = []
    for size in range(record.min_size, min(record.max_size, record.min_size + MAX_SIZES) + 1):
        counts = record.counts(size)
        by_id: dict[str, int] = {}
        for kind, count in zip(kinds, counts):
            for ident in kind.ids:
                by_id[ident] = by_id.get(ident, 0) + count
        points.append(loadout.points_for(unit, sum(counts), by_id))
    return dataclasses.replace(record, points=tuple(points))


def _faction(name: str) -> str:
    """``Xenos - Necrons`` as ``Necrons``; ``Imperium - Space Marines`` as ``Space Marines``."""
    return name.split(" - ", 1)[1] if " - " in name else name


# -- the roster selection as plain lists (the cache) ----------------------------------------
def _plain(node: Node) -> list:
    return [node.tag, node.attrs, node.text, [_plain(c) for c in node.children]]


def node_from_plain(value: list) -> Node:
    """A roster selection kept in the cache (nested ``[tag, attrs, text, children]`` lists)
    as a :class:`Node` again."""
    tag, attrs, text, children = value
    return Node(tag, dict(attrs), text, [node_from_plain(c) for c in children])


def _scaled(selection: Node, counts: list[int], single: bool) -> Node:
    """The template (one model of each kind) with ``counts[i]`` models of kind ``i``: model
    numbers set, their weapons' numbers multiplied."""
    if single:
        return selection
    models = [s for s in selection.list("selections") if s.get("type") == "model"]
    for model, count in zip(models, counts):
        model.attrs["number"] = str(count)
        for weapon in model.list("selections"):
            weapon.attrs["number"] = str(int(weapon.get("number", "1")) * count)
    return selection


# -- the cache ------------------------------------------------------------------------------
def cache_folder() -> Path:
    """``$MATHHAMMER_CACHE``, else ``$XDG_CACHE_HOME/mathhammer``, else
    ``~/.cache/mathhammer``."""
    base = os.environ.get("MATHHAMMER_CACHE")
    if base:
        return Path(base)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "mathhammer"


def _cache_key(files: list[DataFile], legends: bool) -> str:
    text = json.dumps([CACHE_VERSION, legends] +
                      [[f.path.name, f.size, f.modified_ns] for f in files])
    return hashlib.sha256(text.encode()).hexdigest()


def _cache_path(folder: Path) -> Path:
    name = hashlib.sha256(str(folder).encode()).hexdigest()[:16]
    return cache_folder() / f"bsdata-{name}.json"


def _read_cache(folder: Path, key: str
                ) -> tuple[list[SheetRecord], tuple[tuple[str, str], ...]] | None:
    """The index of a checkout whose files have not changed since it was kept (the
    selections stay in their own file, read one at a time), and its missing catalogues."""
    try:
        data = json.loads(_cache_path(folder).read_text(encoding="utf-8"))
        if data.get("key") != key:
            return None
        return ([SheetRecord(r["name"], r["faction"], r["edition"], r["single"],
                             tuple(tuple(k) for k in r["kinds"]), tuple(r["points"]),
                             r["largest"], tuple(r["at"]), tuple(r["notes"]), r["home"])
                 for r in data["sheets"]],
                tuple((str(f), str(c)) for f, c in data["missing"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None  # no cache, or a damaged one: read the files again


def _write_cache(folder: Path, key: str, records: list[SheetRecord],
                 missing: tuple[tuple[str, str], ...]) -> None:
    index = _cache_path(folder)
    sheets = []
    blobs = bytearray()
    for r in records:
        blob = json.dumps(r.template, separators=(",", ":")).encode()
        sheets.append({"name": r.name, "faction": r.faction, "edition": r.edition,
                       "single": r.single, "kinds": r.kinds, "points": r.points,
                       "largest": r.largest,
                       "at": [len(blobs), len(blob)], "notes": r.notes, "home": r.home})
        blobs += blob
    try:
        index.parent.mkdir(parents=True, exist_ok=True)
        for path, content in ((index.with_suffix(".templates"), bytes(blobs)),
                              (index, json.dumps({"key": key, "sheets": sheets,
                                                  "missing": missing}).encode())):
            temporary = path.with_suffix(f".{os.getpid()}.tmp")
            temporary.write_bytes(content)
            os.replace(temporary, path)
    except OSError:
        pass  # a read-only home: answer without a cache


__all__ = ["Datasheet", "Datasheets", "MathhammerError", "SheetRecord", "cache_folder",
           "datasheets"]
