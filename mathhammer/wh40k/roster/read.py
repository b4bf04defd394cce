"""Read a roster file safely into a neutral tree of :class:`Node` s.

Three containers hold the same tree: BattleScribe / New Recruit XML (``.ros``), a zip with
one such XML inside (``.rosz``) and New Recruit's JSON export. The container is recognised
by its first bytes, not by the file name. Every file is untrusted:

- files larger than :data:`MAX_FILE_BYTES` are refused before they are read;
- a zip member is decompressed in blocks, counting the bytes, and refused as soon as it
  passes :data:`MAX_XML_BYTES` (the sizes in a zip's headers can lie);
- XML is parsed with ``defusedxml``: no entity expansion (billion laughs), no external
  entities, no DTD retrieval;
- the tree may hold at most :data:`MAX_NODES` elements nested at most :data:`MAX_DEPTH` deep.

Every problem is a :class:`~mathhammer.errors.RosterError` naming the file and what is wrong.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mathhammer.core.files import FileTooLarge, read_bounded
from mathhammer.core.limits import shown
from mathhammer.errors import RosterError

ROSTER_NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_XML_BYTES = 32 * 1024 * 1024
MAX_NODES = 60_000
MAX_DEPTH = 100
_BLOCK = 1 << 16

#: JSON arrays are repeated children without a wrapper; their elements get these tags.
_SINGULAR = {"categories": "category", "entries": "entry", "forces": "force",
             "selections": "selection", "profiles": "profile", "rules": "rule",
             "costs": "cost", "characteristics": "characteristic",
             "associations": "association", "incomingAssociations": "incomingAssociation",
             "costLimits": "costLimit", "publications": "publication", "tags": "tag",
             # BattleScribe data files (catalogues and game systems, 11th edition JSON)
             "selectionEntries": "selectionEntry", "sharedSelectionEntries": "selectionEntry",
             "selectionEntryGroups": "selectionEntryGroup",
             "sharedSelectionEntryGroups": "selectionEntryGroup", "entryLinks": "entryLink",
             "infoLinks": "infoLink", "categoryLinks": "categoryLink",
             "constraints": "constraint", "modifiers": "modifier", "conditions": "condition",
             "conditionGroups": "conditionGroup", "modifierGroups": "modifierGroup",
             "localConditionGroups": "localConditionGroup", "repeats": "repeat",
             "sharedProfiles": "profile", "sharedRules": "rule", "infoGroups": "infoGroup",
             "sharedInfoGroups": "infoGroup", "catalogueLinks": "catalogueLink",
             "categoryEntries": "categoryEntry", "profileTypes": "profileType",
             "costTypes": "costType"}
#: ``(element, key)`` pairs where the format writes a number under a list key's name: a
#: modifier's ``repeats`` list holds ``repeat`` elements, each with a ``repeats`` count
#: (``"repeats": 1`` in BSData's 11th-edition JSON, ``<repeat repeats="1">`` in its XML), and
#: a local condition group counts its repeats the same way (BattleScribe's schema).
_ATTRIBUTES_NAMED_AS_LISTS = {("repeat", "repeats"), ("localConditionGroup", "repeats")}


@dataclass(frozen=True)
class TreeKind:
    """What a file of one kind holds and how large it may be: roster files (the module's
    limits, read when a file is read) or BattleScribe data files (catalogues, game systems).
    """

    noun: str                       # "roster", "catalogue": in messages
    roots: tuple[str, ...]          # the root element tags / JSON root keys taken
    namespaces: tuple[str, ...]     # XML namespaces of those roots
    zip_suffixes: tuple[str, ...]   # the member a zip holds
    zip_name: str                   # ".rosz", "zipped catalogue"
    json_name: str                  # "New Recruit roster", "BSData catalogue"
    max_file_bytes: int | None = None   # None: the module's roster limits
    max_xml_bytes: int | None = None
    max_nodes: int | None = None

    def limits(self) -> tuple[int, int, int]:
        """``(file bytes, unpacked bytes, nodes)``."""
        return (self.max_file_bytes or MAX_FILE_BYTES, self.max_xml_bytes or MAX_XML_BYTES,
                self.max_nodes or MAX_NODES)


ROSTER = TreeKind("roster", ("roster",), (ROSTER_NAMESPACE,), (".ros",), ".rosz",
                  "New Recruit roster")


@dataclass(slots=True)
class Node:
    """One element: its tag (namespace removed), attributes, text and children."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def get(self, name: str, default: str = "") -> str:
        return self.attrs.get(name, default)

    def list(self, wrapper: str) -> list[Node]:
        """The children of this node's ``wrapper`` child (``selections``, ``profiles``...)."""
        out: list[Node] = []
        for child in self.children:
            if child.tag == wrapper:
                out.extend(child.children)
        return out

    def child_text(self, tag: str) -> str:
        """Text of a child element (``description``), or of an attribute of that name."""
        for child in self.children:
            if child.tag == tag:
                return child.text
        return self.attrs.get(tag, "")


def read_tree(path: str | Path) -> Node:
    """The root ``roster`` node of a .ros, .rosz or New Recruit .json file.

    Raises
    ------
    RosterError
        ``FILE: what is wrong`` for a missing, oversized, truncated, hostile or foreign file.
    """
    path = Path(path)
    return tree_from_bytes(_read_bytes(path), path)


def tree_from_bytes(data: bytes, source: str | Path, kind: TreeKind = ROSTER) -> Node:
    """The root node of a roster file's bytes (or of another ``kind`` of BattleScribe
    file), read in memory (an upload); ``source`` names the file in messages. The same
    checks as :func:`read_tree`.

    Raises
    ------
    RosterError
        ``SOURCE: what is wrong`` for an oversized, truncated, hostile or foreign file.
    """
    path = Path(source)
    max_file, _, _ = kind.limits()
    if not isinstance(data, (bytes, bytearray)):
        raise RosterError(f"{source}: a {kind.noun}'s content is bytes, not "
                          f"{type(data).__name__}")
    if len(data) > max_file:
        raise RosterError(f"{source}: the file is {len(data) / 2**20:.1f} MiB; a {kind.noun} "
                          f"file may be at most {max_file // 2**20} MiB")
    data = bytes(data)
    head = data[:4]
    if head.startswith(b"PK"):
        data = _unzip(path, data, kind)
    text_head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with a byte-order mark
        text_head = b"<"
    if text_head in (b"{", b"["):   # "[": JSON too, refused for its depth or its shape
        if text_head == b"[" and kind is ROSTER:
            _refuse_text_export(path, data)   # a text list may begin "[Army]"
        root = _from_json(path, data, kind)
    elif text_head == b"<":
        root = _from_xml(path, data, kind)
    elif not data.strip():
        raise RosterError(f"{path}: the file is empty; export the {kind.noun} again from "
                          "BattleScribe or New Recruit")
    elif kind is not ROSTER:
        raise RosterError(f"{path}: not a {kind.noun} file: it is neither XML, a zip nor "
                          "JSON")
    else:
        _refuse_text_export(path, data)
        raise RosterError(f"{path}: not a roster file: it is neither XML (.ros), a zip "
                          "(.rosz) nor New Recruit JSON")
    return root


_TEXT_MARKS = {"GW app": (b"exported with app version", b"attached as:", b"strike force (",
                          b"incursion (", b"onslaught (", b"enhancement:", b"warlord",
                          b"characters\n", b"battleline\n"),
               "New Recruit": (b"++ army roster", b"+ faction keyword", b"+ detachment",
                               b"+ total army points", b"char1:", b"+++")}


def _refuse_text_export(path: Path, data: bytes) -> None:
    """A plain-text army list (GW app or New Recruit 'text' export): refused naming the
    export to use, since it names units and wargear but gives no statlines."""
    head = data[:20_000].lower().replace(b"\r\n", b"\n")
    if b"\x00" in head:
        return
    found = [kind for kind, marks in _TEXT_MARKS.items() if any(m in head for m in marks)]
    looks_like_list = found or (b"pts" in head or b"points" in head) and (
        b"\xe2\x80\xa2" in head or b"\n- " in head or b"x " in head)
    if not looks_like_list:
        return
    kind = found[0] if found else "a list builder's"
    raise RosterError(f"{path}: a plain-text army list ({kind} text export): it names units "
                      "and wargear but no statlines: pass --data DIR (your BSData checkout; "
                      "Python: data=DIR) to read it against your datasheets, or export the "
                      "list from New Recruit as JSON or from BattleScribe as .rosz")


def _read_bytes(path: Path) -> bytes:
    return read_bounded_bytes(path, MAX_FILE_BYTES, "roster")


def read_bounded_bytes(path: Path, limit: int, noun: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (a pipe or device is refused,
    not waited on), or a :class:`RosterError` naming the ``noun`` file and what is wrong."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise RosterError(f"{path}: the file is {size / 2**20:.1f} MiB; a {noun} file may "
                              f"be at most {limit // 2**20} MiB")
        return read_bounded(path, limit)
    except FileTooLarge:
        raise RosterError(f"{path}: the file is larger than {limit // 2**20} MiB") from None
    except OSError as exc:
        raise RosterError(f"cannot read {noun} file '{path}': {exc.strerror or exc}") from None


def _unzip(path: Path, data: bytes, kind: TreeKind = ROSTER) -> bytes:
    _, max_xml, _ = kind.limits()
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise RosterError(f"{path}: not a complete zip archive (truncated or corrupt: {exc}); "
                          f"export the {kind.zip_name} again") from None
    rosters = [m for m in members if m.filename.lower().endswith(kind.zip_suffixes)] \
        or members
    if len(rosters) != 1:
        names = ", ".join(m.filename for m in members[:5]) or "nothing"
        raise RosterError(f"{path}: a {kind.zip_name} holds exactly one {kind.noun}; this zip "
                          f"holds {len(members)} files ({names})")
    member = rosters[0]
    out = bytearray()
    try:
        with archive.open(member) as stream:
            while True:
                block = stream.read(_BLOCK)
                if not block:
                    break
                out += block
                if len(out) > max_xml:
                    raise RosterError(
                        f"{path}: '{member.filename}' unpacks to more than "
                        f"{max_xml // 2**20} MiB (a zip bomb?); a {kind.noun} is far smaller")
    except RosterError:
        raise
    except RuntimeError as exc:  # encrypted member
        raise RosterError(f"{path}: cannot unpack '{member.filename}': {exc}") from None
    except NotImplementedError as exc:
        raise RosterError(f"{path}: '{member.filename}' uses a compression method that is "
                          f"not supported ({exc})") from None
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError, ValueError) as exc:
        raise RosterError(f"{path}: '{member.filename}' is damaged inside the zip ({exc}); "
                          "export the .rosz again") from None
    return bytes(out)


# -- XML ----------------------------------------------------------------------------------
def _from_xml(path: Path, data: bytes, kind: TreeKind = ROSTER) -> Node:
    """Stream the XML into nodes, stopping at the first element past the caps (an expat
    tree of a hostile file would take gigabytes before anything could be counted)."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import iterparse

    _, _, max_nodes = kind.limits()
    if data.count(b"<") > 2 * max_nodes + 16:  # a tag opens with '<': count them first
        raise RosterError(f"{path}: more than {max_nodes:,} XML elements; a {kind.noun} is "
                          "far smaller")
    stack: list[Node] = []
    root: Node | None = None
    count = 0
    try:
        for event, element in iterparse(io.BytesIO(data), events=("start", "end"),
                                        forbid_dtd=False, forbid_entities=True,
                                        forbid_external=True):
            if event == "end":
                stack.pop().text = (element.text or "").strip()
                element.clear()
                continue
            count += 1
            if count > max_nodes:
                raise RosterError(f"{path}: more than {max_nodes:,} XML elements; a "
                                  f"{kind.noun} is far smaller")
            if len(stack) >= MAX_DEPTH:
                raise RosterError(f"{path}: elements nested more than {MAX_DEPTH} deep; a "
                                  f"{kind.noun} is far shallower")
            node = Node(element.tag.rpartition("}")[2],
                        {k.rpartition("}")[2]: v for k, v in element.attrib.items()})
            if stack:
                stack[-1].children.append(node)
            else:
                root = node
                _check_root(path, element.tag, kind)
            stack.append(node)
    except RosterError:
        raise
    except DefusedXmlException as exc:
        raise RosterError(f"{path}: refused: the XML declares entities ({type(exc).__name__});"
                          f" real {kind.noun} files never do (this is how entity-expansion "
                          "attacks work)") from None
    except ParseError as exc:
        line, column = getattr(exc, "position", (None, None))
        where = f"{path}:{line}:{column}" if line else str(path)
        raise RosterError(f"{where}: not well-formed XML ({_first(str(exc))}); the file is "
                          f"damaged or not a {kind.noun}") from None
    except (ValueError, LookupError, RecursionError) as exc:  # e.g. an unknown encoding
        raise RosterError(f"{path}: cannot parse the XML ({_first(str(exc))})") from None
    if root is None:
        raise RosterError(f"{path}: the XML has no root element")
    return root


def _check_root(path: Path, qualified: str, kind: TreeKind = ROSTER) -> None:
    namespace, _, tag = qualified.rpartition("}")
    namespace = namespace.lstrip("{")
    if tag not in kind.roots or (namespace and namespace not in kind.namespaces):
        raise RosterError(f"{path}: not a {kind.noun}: the root element is <{tag}>"
                          f"{' in namespace ' + namespace if namespace else ''}; a "
                          f"BattleScribe {kind.noun} is <{kind.roots[0]} "
                          f"xmlns=\"{kind.namespaces[0]}\">")


# -- JSON ---------------------------------------------------------------------------------
def _from_json(path: Path, data: bytes, kind: TreeKind = ROSTER) -> Node:
    # Objects and arrays, counted before parsing: json.loads of a hostile file would build
    # millions of objects before the tree could be counted.
    _, _, max_nodes = kind.limits()
    if data.count(b"{") + data.count(b"[") > 2 * max_nodes:
        raise RosterError(f"{path}: more than {2 * max_nodes:,} JSON objects and arrays; a "
                          f"{kind.noun} is far smaller")
    try:
        value = json.loads(data.decode("utf-8-sig"), parse_int=_json_int)
    except UnicodeDecodeError as exc:
        raise RosterError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") \
            from None
    except json.JSONDecodeError as exc:
        raise RosterError(f"{path}:{exc.lineno}:{exc.colno}: not valid JSON ({exc.msg})") \
            from None
    except RecursionError:
        raise RosterError(f"{path}: JSON nested too deeply; a roster is far shallower") \
            from None
    except _HugeNumber:
        raise RosterError(f"{path}: the JSON holds a number of more than 4,300 digits; numbers "
                          f"in a {kind.noun} are small: export it again") from None
    except ValueError as exc:
        what = f"a value that cannot be read ({_first(str(exc))[:60]})"
        raise RosterError(f"{path}: the JSON holds {what}; numbers in a {kind.noun} are "
                          "small: export it again") from None
    root_key = next((k for k in kind.roots if isinstance(value, dict)
                     and isinstance(value.get(k), dict)), None)
    if root_key is None:
        keys = ", ".join(list(value)[:5]) if isinstance(value, dict) else type(value).__name__
        expected = " or ".join(f"{{\"{k}\": {{...}}}}" for k in kind.roots)
        raise RosterError(f"{path}: JSON but not a {kind.json_name}: expected an object "
                          f"{expected}, found {keys or 'an empty object'}")
    return _convert_json(path, value[root_key], kind, root_key)


def _convert_json(path: Path, value: dict, kind: TreeKind = ROSTER,
                  root_tag: str = "roster") -> Node:
    _, _, max_nodes = kind.limits()
    count = 0
    root = Node(root_tag)
    stack: list[tuple[str, dict[str, Any], Node, int, tuple[str, str]]] = [
        (root_tag, value, root, 0, ("", ""))]
    while stack:
        tag, item, node, depth, owner = stack.pop()
        count += 1
        if count > max_nodes:
            raise RosterError(f"{path}: more than {max_nodes:,} JSON objects; a {kind.noun} "
                              "is far smaller")
        if depth > MAX_DEPTH:
            raise RosterError(f"{path}: JSON nested more than {MAX_DEPTH} deep; a "
                              f"{kind.noun} is far shallower")
        node.tag = tag
        if not isinstance(item, dict):
            node.text = _scalar(item)
            continue
        owner = _owner(tag, item, owner)
        for key, sub in item.items():
            if not isinstance(sub, (list, type(None))) and key in _SINGULAR and \
                    (tag, key) not in _ATTRIBUTES_NAMED_AS_LISTS:
                _refuse_single_value(path, key, sub, _said(owner, kind.noun), kind)
            if key == "$text":
                node.text = _scalar(sub).strip()
            elif isinstance(sub, list):
                wrapper = Node(key)
                node.children.append(wrapper)
                for index, element in enumerate(sub):
                    if key in _SINGULAR and not isinstance(element, dict):
                        raise RosterError(
                            f"{path}: \"{key}\"[{index}] is {json.dumps(element)[:40]}, not "
                            f"an object; each of a {kind.noun}'s \"{key}\" is {{...}}: the "
                            "file is damaged or not a BattleScribe / New Recruit file")
                    child = Node(_SINGULAR.get(key, key))
                    wrapper.children.append(child)
                    stack.append((child.tag, element, child, depth + 2, owner))
            elif isinstance(sub, dict):
                child = Node(key)
                node.children.append(child)
                stack.append((key, sub, child, depth + 1, owner))
            else:
                node.attrs[key] = _scalar(sub)
    return root


def _owner(tag: str, item: dict, outer: tuple[str, str]) -> tuple[str, str]:
    """``(nearest named object, unit)`` of a JSON object, for messages: a top-level
    selection is the unit; ``("", "")`` outside any named object."""
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        return outer
    written = shown(" ".join(name.split()))[:60]
    if tag == "selection" and not outer[1]:
        return written, written
    return written, outer[1]


def _said(owner: tuple[str, str], noun: str) -> str:
    """``unit 'A'``, ``'B' in unit 'A'``, ``'C'`` or ``the roster``."""
    name, unit = owner
    if not name:
        return f"the {noun}"
    if not unit:
        return f"'{name}'"
    return f"unit '{unit}'" if name == unit else f"'{name}' in unit '{unit}'"


def _refuse_single_value(path: Path, key: str, value: object, owner: str,
                         kind: TreeKind) -> None:
    """Refuse one value where the format has a list (``"costs": "x"``): read as no costs or
    no profiles it would change the points or the statlines without a word."""
    written = "an object {...}" if isinstance(value, dict) else \
        shown(json.dumps(value, ensure_ascii=False))[:40]
    fix = "export the list again" if kind is ROSTER else f"the {kind.noun} is damaged: " \
        "fetch it again"
    raise RosterError(f"{path}: \"{key}\" of {owner} is {written}, not a list [...]; a "
                      f"BattleScribe / New Recruit file writes \"{key}\" as a list: {fix}")


def _scalar(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return value if isinstance(value, str) else str(value)


class _HugeNumber(ValueError):
    """A JSON integer longer than Python converts (4,300 digits)."""


def _json_int(text: str) -> int:
    """``int(text)`` for :func:`json.loads`, refusing what Python's digit limit would."""
    if len(text.lstrip("-")) > 4_300:
        raise _HugeNumber(text[:20])
    return int(text)


def _first(text: str) -> str:
    return " ".join(text.split())[:160]
