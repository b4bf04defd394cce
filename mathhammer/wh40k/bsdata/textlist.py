"""Plain-text army lists (the GW app's export, and lists in its shape) read against the
user's BSData checkout.

A text list names units, model counts, wargear and points but no statlines. Each unit is
found by name among the checkout's datasheets; each model group (``4x Intercessors``) among
the datasheet's model kinds; each weapon (``4x Bolt rifle``) among the wargear the datasheet
can take. The result is a roster tree in BattleScribe's shape (:func:`roster_tree`), read by
the roster reader as an exported file is; every name that cannot be resolved, and every
unit whose listed points differ from the checkout's, becomes a note of the list.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from mathhammer.errors import RosterError
from mathhammer.wh40k.bsdata.index import Datasheets, SheetRecord, node_from_plain
from mathhammer.wh40k.bsdata.modifiers import copied, resolve
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.convert import EDITIONS
from mathhammer.wh40k.roster.read import ROSTER_NAMESPACE, Node

_POINTS = re.compile(r"^(?P<name>.+?)\s*\((?P<points>[0-9][0-9,]*)\s*(?:points|pts)\)\s*$",
                     re.IGNORECASE)
_COUNTED = re.compile(r"^(?P<count>[0-9]{1,4})\s*x\s+(?P<name>.+)$", re.IGNORECASE)
_BULLET = re.compile(r"^(?P<indent>\s*)(?P<bullet>[\u2022\u25e6\u25aa\-*])?\s*(?P<text>.*)$")
_SECTIONS = {"ATTACHED UNITS", "CHARACTERS", "BATTLELINE", "DEDICATED TRANSPORTS",
             "OTHER DATASHEETS", "ALLIED UNITS", "FORTIFICATIONS"}
_ENHANCEMENT = re.compile(r"(?i)^enhancements?\s*:\s*(?P<name>.+?)\s*"
                          r"(?:\(\s*\+?\s*[0-9][0-9,]*\s*(?:points|pts)\s*\))?$")
_BATTLE_SIZES = ("combat patrol", "incursion", "strike force", "onslaught")
#: Most lines one text list may hold (a 3,000-point list has a few hundred).
MAX_LINES = 5_000


@dataclass
class _Group:
    name: str
    count: int
    wargear: list[tuple[str, int]] = field(default_factory=list)


@dataclass
class _Unit:
    name: str
    points: float
    line: int
    groups: list[_Group] = field(default_factory=list)
    wargear: list[tuple[str, int]] = field(default_factory=list)
    role: str = ""          # leader, support, bodyguard
    attached: int | None = None
    enhancements: list[str] = field(default_factory=list)


def looks_like_text_list(data: bytes) -> bool:
    """Whether ``data`` reads as a plain-text army list (not XML, zip or JSON)."""
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head[:1] in (b"<", b"{", b"[") or head[:2] == b"PK" or b"\x00" in head:
        return False
    return bool(re.search(rb"\([0-9][0-9,]*\s*(points|pts)\)", data[:20_000], re.IGNORECASE))


def parse_text_list(text: str, source: str) -> tuple[str, float | None, list[_Unit]]:
    """``(list name, listed points, units)`` of a text list.

    Raises
    ------
    RosterError
        For a list with no units or more than :data:`MAX_LINES` lines, naming the file.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise RosterError(f"{source}: {len(lines):,} lines; a text army list has at most "
                          f"{MAX_LINES:,}")
    title: str = ""
    listed: float | None = None
    units: list[_Unit] = []
    has_sections = any(line.strip().upper() in _SECTIONS for line in lines)
    in_header, attached, current = True, None, None
    base_indent: int | None = None
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped or stripped.lower().startswith("exported with"):
            continue
        if stripped.upper() in _SECTIONS:
            in_header, attached = False, None
            continue
        match = _BULLET.match(raw)
        assert match is not None  # the pattern matches every line
        bullet, indent = match.group("bullet"), len(match.group("indent"))
        heading = _POINTS.match(stripped)
        if not title and heading:
            title, listed = heading.group("name"), _points(heading.group("points"))
            continue
        if re.fullmatch(r"(?i)attached unit\s*[0-9]+", stripped):
            attached = int(re.findall("[0-9]+", stripped)[0])
            continue
        if bullet is None and heading and indent == 0 and (not in_header or not has_sections) \
                and not heading.group("name").lower().startswith(_BATTLE_SIZES):
            current = _Unit(heading.group("name").strip(), _points(heading.group("points")),
                            number, attached=attached)
            units.append(current)
            base_indent = None
            continue
        if current is None or (bullet is None and indent == 0):
            continue
        body = match.group("text").strip()
        if _counted(body)[1] is not None and base_indent is None:
            base_indent = indent   # a unit's first counted line sets its first level
        deeper = bullet == "\u25e6" or (base_indent is not None and indent > base_indent)
        _read_item(current, body, deeper)
    if not units:
        raise RosterError(f"{source}: a text list, but no unit line such as 'Intercessor Squad "
                          "(80 Points)' was found")
    return title, listed, units


def _read_item(unit: _Unit, body: str, deeper: bool) -> None:
    lowered = body.lower()
    if lowered.startswith("attached as:"):
        words = lowered.split(":", 1)[1].split()
        unit.role = words[0] if words else ""
        return
    enhancement = _ENHANCEMENT.match(body)
    if enhancement:
        unit.enhancements.append(enhancement.group("name").strip())
        return
    count, name = _counted(body)
    if name is None:
        return    # Warlord (not modelled here)
    if deeper and unit.groups:
        unit.groups[-1].wargear.append((name, count))
    else:
        unit.groups.append(_Group(name, count))


def _counted(body: str) -> tuple[int, str | None]:
    match = _COUNTED.match(body.strip())
    if match is None:
        return 1, None
    return int(match.group("count")), " ".join(match.group("name").split())


def _points(text: str) -> float:
    return float(text.replace(",", ""))


# -- against the checkout ------------------------------------------------------------------
def roster_tree(data: bytes, source: str, sheets: Datasheets) -> Node:
    """The roster tree of a text list, its units resolved against ``sheets``.

    Raises
    ------
    RosterError
        For text that is not UTF-8, holds no unit, or none the checkout knows.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RosterError(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") \
            from None
    title, listed, units = parse_text_list(text, source)
    notes: list[str] = []
    selections: list[Node] = []
    records: list[SheetRecord] = []
    ids: dict[int, str] = {}
    for index, unit in enumerate(units):
        try:
            record = sheets.record(unit.name)
        except RosterError as exc:
            notes.append(f"line {unit.line}: unit '{unit.name}' left out: {exc}")
            continue
        records.append(record)
        selection = _unit_selection(sheets, record, unit, notes)
        ids[index] = selection.attrs["id"] = f"text-{index}"
        selections.append(selection)
    if not records:
        raise RosterError(f"{source}: none of the {len(units)} units of this text list is in "
                          f"the checkout {sheets.folder}: {'; '.join(notes[:3])}")
    _associate(units, ids, selections)
    edition = records[0].edition
    system = next(k for k, v in EDITIONS.items() if v == edition)
    settings = [Node("selection", {"name": note, "type": "upgrade", "number": "1"})
                for note in notes]
    force = Node("force", {"catalogueName": records[0].faction},
                 children=[Node("selections", children=settings + selections)])
    costs = [Node("cost", {"name": "pts", "value": f"{listed:g}"})] if listed else []
    return Node("roster", {"name": title, "gameSystemId": system, "xmlns": ROSTER_NAMESPACE},
                children=[Node("forces", children=[force]), Node("costs", children=costs)])


def _unit_selection(sheets: Datasheets, record: SheetRecord, unit: _Unit,
                    notes: list[str]) -> Node:
    """The datasheet's selection with the listed model groups and wargear."""
    template = node_from_plain(sheets.template_of(record))
    armoury = {kw.clean(s.get("name")).lower(): s for s in template.list("armoury")}
    where = f"line {unit.line}: '{unit.name}'"
    if record.single:
        wargear = [g for g in unit.groups] + [_Group(n, c) for n, c in unit.wargear]
        listed = [(g.name, g.count) for g in wargear] + \
            [w for g in wargear for w in g.wargear]
        _set_children(template, _weapons(listed, armoury, where, notes))
    else:
        models = [s for s in template.list("selections") if s.get("type") == "model"]
        chosen: list[Node] = []
        for group in unit.groups:
            model = _closest(group.name, models)
            if model is None:
                weapon = _weapons([(group.name, group.count)], armoury, where, notes)
                chosen += weapon
                continue
            copy = copied(model)
            copy.attrs["number"] = str(group.count)
            _set_children(copy, _weapons(group.wargear, armoury, f"{where} {group.name}",
                                         notes))
            chosen.append(copy)
        _set_children(template, chosen)
    _enhance(template, unit, where, notes)
    resolve(template, notes, unit.name)
    size = sum(int(s.get("number", "1")) for s in template.list("selections")
               if s.get("type") == "model") if not record.single else 1
    expected = record.points[min(max(size - record.min_size, 0), len(record.points) - 1)] \
        if record.points else None
    if expected is not None and abs(expected - unit.points) > 1e-9:
        notes.append(f"{where}: the list says {unit.points:g} pts, the checkout "
                     f"{expected:g} pts for {size} models (data versions differ?)")
    for cost in template.list("costs"):
        cost.attrs["value"] = f"{unit.points:g}"
    if not template.list("costs"):
        template.children.append(Node("costs", children=[
            Node("cost", {"name": "pts", "value": f"{unit.points:g}"})]))
    return template


def _enhance(template: Node, unit: _Unit, where: str, notes: list[str]) -> None:
    """The listed enhancements, found among the datasheet's, as selections of their bearer
    (the datasheet's model, or its one model group), where their modifiers apply."""
    known = {kw.clean(s.get("name")).lower(): s for s in template.list("enhancements")}
    models = [s for s in template.list("selections") if s.get("type") == "model"]
    bearer = models[0] if template.get("type") != "model" and len(models) == 1 else template
    for name in unit.enhancements:
        near = difflib.get_close_matches(name.lower(), list(known), 1, 0.8)
        if not near:
            notes.append(f"{where}: enhancement '{name}' is not among the checkout's "
                         "enhancements of this datasheet: its changes are not applied")
            continue
        found = known[near[0]]
        copy = copied(found)
        _set_children(bearer, bearer.list("selections") + [copy])


def _closest(name: str, models: list[Node]) -> Node | None:
    """The model selection a listed group names: the same name in any case, without a
    plural s, or a close spelling."""
    wanted = name.lower().rstrip("s")
    names = [kw.clean(m.get("name")).lower() for m in models]
    for model, candidate in zip(models, names):
        if candidate.rstrip("s") == wanted:
            return model
    near = difflib.get_close_matches(wanted, [n.rstrip("s") for n in names], 1, 0.75)
    return models[[n.rstrip("s") for n in names].index(near[0])] if near else None


def _weapons(listed: list[tuple[str, int]], armoury: dict[str, Node], where: str,
             notes: list[str]) -> list[Node]:
    out = []
    for name, count in listed:
        key = name.lower()
        found = armoury.get(key) or armoury.get(key.rstrip("s"))
        if found is None:
            near = difflib.get_close_matches(key, list(armoury), 1, 0.8)
            found = armoury[near[0]] if near else None
        if found is None:
            known = ", ".join(sorted(armoury)[:6])
            notes.append(f"{where}: wargear '{name}' is not in the checkout's datasheet "
                         f"(it knows: {known or 'none'}): not modelled")
            continue
        copy = copied(found)
        copy.attrs["number"] = str(count)
        out.append(copy)
    return out


def _set_children(node: Node, selections: list[Node]) -> None:
    node.children = [c for c in node.children if c.tag != "selections"] + \
        [Node("selections", children=selections)]


def _associate(units: list[_Unit], ids: dict[int, str], selections: list[Node]) -> None:
    """Leaders and supports of an attached unit point at its bodyguard, as New Recruit's
    associations do."""
    by_id = {s.attrs["id"]: s for s in selections}
    groups: dict[int, list[int]] = {}
    for index, unit in enumerate(units):
        if unit.attached is not None and index in ids:
            groups.setdefault(unit.attached, []).append(index)
    for members in groups.values():
        guards = [i for i in members if units[i].role == "bodyguard"]
        if len(guards) != 1:
            continue
        for i in members:
            if i != guards[0] and units[i].role in ("leader", "support"):
                kind = "Leading" if units[i].role == "leader" else "Supporting"
                by_id[ids[i]].children.append(Node("associations", children=[Node(
                    "association", {"type": "outgoing", "name": kind,
                                    "to": ids[guards[0]]})]))
