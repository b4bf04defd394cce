"""Links merged with their targets across files (mathhammer.wh40k.bsdata.library)."""

from __future__ import annotations

from mathhammer.wh40k.bsdata.library import (CatalogueFile, Library, entries_below, merged)
from mathhammer.wh40k.roster.read import Node


def _entry(ident: str, name: str, hidden: str = "false", *children: Node) -> Node:
    return Node("selectionEntry", {"id": ident, "name": name, "hidden": hidden, "type": "upgrade"},
                children=list(children))


def _wrapper(tag: str, *items: Node) -> Node:
    return Node(tag, children=list(items))


def test_a_link_is_its_target_with_the_links_name_and_children_added():
    target = _entry("t1", "Rifle", "false",
                    _wrapper("profiles", Node("profile", {"name": "Rifle"})),
                    _wrapper("constraints", Node("constraint", {"type": "max", "value": "1"})))
    link = Node("entryLink", {"id": "l1", "name": "Rifle (sergeant)", "hidden": "true",
                              "targetId": "t1"},
                children=[_wrapper("constraints", Node("constraint", {"type": "min",
                                                                      "value": "1"}))])
    out = merged(link, target)
    assert out.tag == "selectionEntry" and out.get("name") == "Rifle (sergeant)"
    assert out.get("hidden") == "true" and out.get("id") == "t1" and out.get("linkId") == "l1"
    assert [c.get("type") for c in out.list("constraints")] == ["max", "min"]
    assert len(target.list("constraints")) == 1   # the target is not changed


def test_resolve_across_files_and_say_missing_targets():
    root_a = Node("catalogue", {"id": "A"}, children=[_wrapper(
        "sharedSelectionEntries", _entry("t1", "Rifle"))])
    root_b = Node("catalogue", {"id": "B"})
    library = Library([CatalogueFile("A", "a", "s", True, root_a, "a.cat"),
                       CatalogueFile("B", "b", "s", False, root_b, "b.cat")])
    notes: list[str] = []
    found = library.resolve(Node("entryLink", {"name": "R", "targetId": "x::t1"}), notes)
    assert found is not None and found.get("name") == "R" and library.file_of["t1"].id == "A"
    assert library.resolve(Node("entryLink", {"name": "Ghost", "targetId": "nope"}),
                           notes) is None
    assert notes == ["'Ghost' links to id 'nope', which no data file holds: left out"]


def test_entries_below_in_file_order_by_kind():
    node = Node("selectionEntry", children=[
        _wrapper("selectionEntryGroups", Node("selectionEntryGroup", {"id": "g"})),
        _wrapper("entryLinks", Node("entryLink", {"id": "l"})),
        _wrapper("selectionEntries", Node("selectionEntry", {"id": "e"}))])
    assert [n.get("id") for n in entries_below(node)] == ["e", "l", "g"]
