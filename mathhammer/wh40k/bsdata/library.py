"""Every file of a checkout as one library of ids: links followed to their targets across
files, each link merged with its target.

A BattleScribe entry is spread over files: a faction's root ``entryLink`` points at a shared
entry, whose weapons are ``entryLinks`` into a library catalogue, whose rules are
``infoLinks`` into the game system. :meth:`Library.resolve` turns a link into one node that
holds what both hold (the target's profiles, constraints, costs and children, plus the
link's own), named by the link, hidden if either is. Missing targets and cycles of links
are said, never followed forever.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.read import Node

#: Tags whose ``id`` a link may target.
TARGET_TAGS = {"selectionEntry", "selectionEntryGroup", "profile", "rule", "infoGroup",
               "categoryEntry"}
LINK_TAGS = {"entryLink", "infoLink", "categoryLink"}
#: Deepest chain of entries (links followed included) walked below a datasheet.
MAX_LINK_DEPTH = 40
#: Most links followed while one datasheet is read. Links that fan out and meet again (a
#: group linking twice to the next, thirty deep) are walked once per path: 2**30 of them ran
#: for hours; a real datasheet follows a few hundred.
MAX_LINKS_FOLLOWED = 100_000


@dataclass
class CatalogueFile:
    """One catalogue or game system: its id, name, edition id and root node."""

    id: str
    name: str
    system_id: str
    library: bool
    root: Node
    source: str
    links: list[tuple[str, bool]] = field(default_factory=list)  # (target id, import roots)


def is_hidden(node: Node) -> bool:
    return node.get("hidden").strip().lower() == "true"


class Library:
    """Nodes by id over every file of a checkout; links resolved on demand."""

    def __init__(self, files: list[CatalogueFile]) -> None:
        self.files = files
        self.by_id: dict[str, Node] = {}
        self.file_of: dict[str, CatalogueFile] = {}
        self.catalogues = {f.id: f for f in files}
        #: Links still to follow for the datasheet being read (None: no bound).
        self.links_left: int | None = None
        for file in files:
            self._index(file)

    def start_datasheet(self) -> None:
        """Allow the next datasheet :data:`MAX_LINKS_FOLLOWED` links."""
        self.links_left = MAX_LINKS_FOLLOWED

    def _index(self, file: CatalogueFile) -> None:
        stack = [file.root]
        while stack:
            node = stack.pop()
            if node.tag in TARGET_TAGS:
                ident = node.get("id")
                if ident and ident not in self.by_id:
                    self.by_id[ident] = node
                    self.file_of[ident] = file
            stack.extend(node.children)

    def target(self, link: Node) -> Node | None:
        """The node a link's ``targetId`` names (its last part in ``a::b`` ids)."""
        ident = link.get("targetId").rpartition("::")[2]
        return self.by_id.get(ident)

    def resolve(self, node: Node, notes: list[str] | None = None) -> Node | None:
        """``node`` itself, or for a link its target merged with the link; None (and a note)
        for a link whose target no file holds."""
        if node.tag not in LINK_TAGS:
            return node
        if self.links_left is not None:
            self.links_left -= 1
            if self.links_left < 0:
                if notes is not None and self.links_left == -1:
                    notes.append(f"more than {MAX_LINKS_FOLLOWED:,} links followed (links "
                                 "that fan out and meet again?): the rest are left out")
                return None
        target = self.target(node)
        if target is None:
            if notes is not None:
                notes.append(f"'{kw.clean(node.get('name'))}' links to id "
                             f"'{node.get('targetId')}', which no data file holds: left out")
            return None
        if target.tag in LINK_TAGS:  # a link to a link is not part of the format
            return None
        return merged(node, target)


def merged(link: Node, target: Node) -> Node:
    """The target with the link's name, hidden flag, and children added to the target's."""
    attrs = dict(target.attrs)
    attrs["name"] = link.get("name") or target.get("name")
    attrs["hidden"] = "true" if is_hidden(link) or is_hidden(target) else "false"
    attrs["linkId"] = link.get("id")
    for key in ("collective",):
        if link.get(key):
            attrs[key] = link.get(key)
    children: list[Node] = []
    wrappers: dict[str, Node] = {}
    for child in target.children + link.children:
        if child.tag in wrappers:
            wrappers[child.tag].children.extend(child.children)
            continue
        copy = Node(child.tag, dict(child.attrs), child.text, list(child.children))
        if child.children and child.tag.endswith(("s", "Groups")):
            wrappers[child.tag] = copy
        children.append(copy)
    return Node(target.tag, attrs, target.text, children)


def entries_below(node: Node) -> list[Node]:
    """The entries, entry links and entry groups directly below ``node``, in file order."""
    out: list[Node] = []
    for wrapper in ("selectionEntries", "entryLinks", "selectionEntryGroups"):
        out.extend(node.list(wrapper))
    return out
