"""A datasheet's default unit, written as the roster selection an army builder would make.

A catalogue describes every legal unit; a player asks for one: the smallest legal unit
(each model entry at its ``min``; a group's ``min`` filled with its default entry) with its
default wargear (entries with ``min`` 1 or more, fixed entries with no constraints, each
wargear group's ``defaultSelectionEntryId``). The result is a roster ``selection`` node
(:func:`template`), so the roster reader (:mod:`mathhammer.wh40k.roster.convert`) reads
statlines, weapons, keywords and abilities exactly as it reads an exported list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.nodes import weapon_kind
from mathhammer.wh40k.roster.read import Node
from mathhammer.wh40k.bsdata.library import (MAX_LINK_DEPTH, Library, entries_below,
                                             is_hidden)
from mathhammer.wh40k.bsdata.modifiers import carried, copied

POINTS_TYPE = "51b2-306e-1021-d207"
#: Entries and groups kept out of a datasheet: campaign and army-building content.
_LEFT_OUT = re.compile(r"(?i)^(crusade|weapon modifications|battle honours|enhancements?|"
                       r"warlord|battle scars?)\b")
_ENHANCEMENTS = re.compile(r"(?i)^enhancements?\b")
_RULE_FNP = re.compile(r"(?i)^feel no pain (\d)\+$")


@dataclass
class ModelKind:
    """One model entry of a datasheet: its node, its counts and its default wargear."""

    node: Node
    name: str
    low: int
    high: int
    filler: bool               # takes the models a group's minimum leaves over
    wargear: list[tuple[Node, int]] = field(default_factory=list)  # (entry, per model)
    ids: tuple[str, ...] = ()  # its entry's and link's ids and those of the groups around it


def constraint(node: Node, kind: str) -> int | None:
    """The ``min`` or ``max`` selections constraint of ``node`` on its parent, if any."""
    for item in node.list("constraints"):
        if item.get("type") == kind and item.get("field") == "selections" and \
                item.get("scope", "parent") == "parent":
            value = kw.clean(item.get("value"))
            try:
                return max(0, min(int(float(value)), 10_000))
            except ValueError:
                return None
    return None


def _kept(node: Node) -> bool:
    return not is_hidden(node) and not _LEFT_OUT.search(kw.clean(node.get("name")))


def model_kinds(library: Library, unit: Node, notes: list[str]) -> list[ModelKind]:
    """The model entries of a datasheet with their smallest legal counts."""
    if unit.get("type") == "model":
        kind = ModelKind(unit, kw.clean(unit.get("name")), 1, 1, False)
        kind.wargear = default_wargear(library, unit, notes, 0)
        return [kind]
    kinds: list[ModelKind] = []
    _collect_models(library, unit, kinds, notes, 0)
    return kinds


def _collect_models(library: Library, node: Node, kinds: list[ModelKind], notes: list[str],
                    depth: int) -> None:
    if depth > MAX_LINK_DEPTH:
        notes.append(f"'{kw.clean(node.get('name'))}': entries nested more than "
                     f"{MAX_LINK_DEPTH} deep (a cycle of links?): not followed")
        return
    for child in entries_below(node):
        entry = library.resolve(child, notes)
        if entry is None or not _kept(entry):
            continue
        if entry.tag == "selectionEntryGroup":
            before = len(kinds)
            _collect_models(library, entry, kinds, notes, depth + 1)
            _fill_group(entry, kinds[before:])
            for kind in kinds[before:]:
                kind.ids += _ids(entry)
        elif entry.get("type") == "model":
            low = constraint(entry, "min") or 0
            high = constraint(entry, "max")
            kind = ModelKind(entry, kw.clean(entry.get("name")), low,
                             high if high is not None else max(low, 1), False,
                             ids=_ids(entry))
            kind.wargear = default_wargear(library, entry, notes, depth + 1)
            kinds.append(kind)


def _ids(node: Node) -> tuple[str, ...]:
    return tuple(i for i in (node.get("id"), node.get("linkId")) if i)


def largest_unit(library: Library, unit: Node, kinds: list[ModelKind]) -> int:
    """The most models the unit may hold: each model group's ``max`` (or its members'),
    summed over the groups and loose model entries."""
    total = 0
    counted: set[int] = set()
    for child in entries_below(unit):
        entry = library.resolve(child)
        if entry is None:
            continue
        members = [i for i, k in enumerate(kinds) if set(_ids(entry)) & set(k.ids)]
        members = [i for i in members if i not in counted]
        counted.update(members)
        own = sum(kinds[i].high for i in members)
        cap = constraint(entry, "max") if entry.tag == "selectionEntryGroup" else None
        total += min(own, cap) if cap is not None else own
    return max(total, sum(k.low for k in kinds), 1)


def _fill_group(group: Node, members: list[ModelKind]) -> None:
    """A group's minimum: what its members' own minimums leave goes to the default member
    (``defaultSelectionEntryId``, matched on the entry's or the link's id), else the first."""
    if not members:
        return
    low = constraint(group, "min") or 0
    high = constraint(group, "max")
    default = group.get("defaultSelectionEntryId")
    widest = max(members, key=lambda m: m.high - m.low)  # no default: the usual model
    chosen = next((m for m in members if default and default in
                   (m.node.get("id"), m.node.get("linkId"))), widest)
    chosen.filler = True
    chosen.low += max(0, low - sum(m.low for m in members))
    if high is not None:
        room = high - sum(m.low for m in members if m is not chosen)
        chosen.high = max(chosen.low, min(max(chosen.high, low), room))


def default_wargear(library: Library, node: Node, notes: list[str], depth: int
                    ) -> list[tuple[Node, int]]:
    """The entries with profiles a model (or unit) carries by default, with how many."""
    out: list[tuple[Node, int]] = []
    if depth > MAX_LINK_DEPTH:
        notes.append(f"'{kw.clean(node.get('name'))}': wargear nested more than "
                     f"{MAX_LINK_DEPTH} deep (a cycle of links?): not followed")
        return out
    for child in entries_below(node):
        entry = library.resolve(child, notes)
        if entry is None or not _kept(entry) or entry.get("type") in ("model", "unit"):
            continue
        if entry.tag == "selectionEntryGroup":
            out.extend(_group_choice(library, entry, notes, depth))
            continue
        count = _default_count(entry)
        if count:
            out.extend(_taken(library, entry, count, notes, depth))
    return out


def _default_count(entry: Node) -> int:
    """How many of an entry a default selection takes: its ``min``; one of a fixed entry
    that has no constraints at all and carries a weapon (a model's close combat weapon)."""
    low = constraint(entry, "min")
    if low:
        return low
    if low is None and constraint(entry, "max") is None and _carries_weapon(entry):
        return 1
    return 0


def _carries_weapon(entry: Node) -> bool:
    return any(weapon_kind(p) for p in entry.list("profiles"))


def _group_choice(library: Library, group: Node, notes: list[str], depth: int
                  ) -> list[tuple[Node, int]]:
    """A wargear group with a minimum: its default entry (else its first) that many times;
    a group without one adds only what its own members take by default."""
    if depth > MAX_LINK_DEPTH:
        notes.append(f"'{kw.clean(group.get('name'))}': wargear groups nested more than "
                     f"{MAX_LINK_DEPTH} deep (a cycle of links?): not followed")
        return []
    low = constraint(group, "min") or 0
    members = [m for m in (library.resolve(c, notes) for c in entries_below(group))
               if m is not None and _kept(m) and m.get("type") not in ("model", "unit")]
    if not low:
        return [pair for m in members if m.tag != "selectionEntryGroup"
                for pair in _taken(library, m, _default_count(m), notes, depth)
                if pair[1]] + [pair for m in members if m.tag == "selectionEntryGroup"
                               for pair in _group_choice(library, m, notes, depth + 1)]
    default = group.get("defaultSelectionEntryId")
    chosen = next((m for m in members if default and default in
                   (m.get("id"), m.get("linkId"))), members[0] if members else None)
    if chosen is None:
        return []
    if chosen.tag == "selectionEntryGroup":
        return _group_choice(library, chosen, notes, depth + 1)
    return _taken(library, chosen, low, notes, depth)


def _taken(library: Library, entry: Node, count: int, notes: list[str], depth: int
           ) -> list[tuple[Node, int]]:
    """An entry taken ``count`` times, with what it holds by default (a "bolt rifle with
    grenade launcher" entry holds both weapons)."""
    if count <= 0:
        return []
    out = [(entry, count)] if entry.list("profiles") else []
    for inner, n in default_wargear(library, entry, notes, depth + 1):
        out.append((inner, n * count))
    return out


# -- the roster selection --------------------------------------------------------------------
def template(library: Library, unit: Node, kinds: list[ModelKind], counts: list[int],
             notes: list[str]) -> Node:
    """A roster ``selection`` of ``unit`` with ``counts[i]`` models of ``kinds[i]``; the
    modifiers of the unit, its models and their wargear kept on their selections
    (:func:`.modifiers.carried`) for :func:`.modifiers.resolve` to apply once the unit is
    complete; the wargear it may take (``armoury``) and its enhancements beside it."""
    categories = _categories(library, unit)
    profiles, rules = _abilities(library, unit, notes)
    children: list[Node] = []
    single = unit.get("type") == "model"
    if single:
        children = [_weapon_selection(library, e, n * counts[0]) for e, n in kinds[0].wargear]
    else:
        for kind, count in zip(kinds, counts):
            if count <= 0:
                continue
            children.append(_model_selection(library, kind, count, notes))
        children += [_weapon_selection(library, e, n)
                     for e, n in default_wargear(library, unit, notes, 0)]
    unit_profiles = [copied(p) for p in unit.list("profiles") + profiles]
    selection = _selection(kw.clean(unit.get("name")), "model" if single else "unit",
                           counts[0] if single else 1, unit_profiles, rules, children,
                           categories, _carry(library, unit))
    selection.children.append(Node("armoury", children=[
        _weapon_selection(library, e, 1) for e in armoury(library, unit, notes)]))
    selection.children.append(Node("enhancements", children=[
        _enhancement(library, e) for e in enhancements(library, unit, notes)]))
    return selection


def _model_selection(library: Library, kind: ModelKind, count: int, notes: list[str]) -> Node:
    own_profiles, own_rules = _abilities(library, kind.node, notes)
    profiles = [copied(p) for p in own_profiles + kind.node.list("profiles")]
    weapons = [_weapon_selection(library, e, n * count) for e, n in kind.wargear]
    return _selection(kind.name, "model", count, profiles, own_rules, weapons,
                      _categories(library, kind.node), _carry(library, kind.node))


def _carry(library: Library, entry: Node) -> list[Node]:
    """What a selection keeps of its entry for :func:`.modifiers.resolve`: its ids, its
    category ids (hidden ones too: the catalogues filter weapons by them) and its
    modifiers."""
    ids = " ".join(dict.fromkeys(i for i in (entry.get("id"), entry.get("linkId"),
                                             entry.get("targetId")) if i))
    categories = " ".join(dict.fromkeys(
        link.get("targetId").rpartition("::")[2] for link in entry.list("categoryLinks")
        if link.get("targetId")))

    def name_of(ident: str) -> str:
        found = library.by_id.get(ident)
        return kw.clean(found.get("name")) if found is not None else ident

    return [Node("ids", {"entryId": ids, "categoryIds": categories}),
            Node("modifiers", children=carried(entry, name_of))]


def _profiles_below(selections: list[Node]) -> list[Node]:
    out: list[Node] = []
    stack = list(selections)
    while stack:
        node = stack.pop()
        out.extend(node.list("profiles"))
        stack.extend(node.list("selections"))
    return out


#: Most wargear entries kept for one datasheet (for lists that name other loadouts).
MAX_ARMOURY = 300


def armoury(library: Library, unit: Node, notes: list[str]) -> list[Node]:
    """Every wargear entry with a weapon profile a datasheet can take, default or not, once
    by name (a text list names the loadout it took); kept out of the roster reader's way."""
    found: dict[str, Node] = {}
    stack = [(unit, 0)]
    while stack and len(found) < MAX_ARMOURY:
        node, depth = stack.pop()
        if depth > MAX_LINK_DEPTH:
            continue
        for child in entries_below(node):
            entry = library.resolve(child)
            if entry is None or not _kept(entry):
                continue
            if entry.tag == "selectionEntry" and _carries_weapon(entry):
                found.setdefault(kw.clean(entry.get("name")).lower(), entry)
            stack.append((entry, depth + 1))
    return list(found.values())


#: Most enhancements kept for one datasheet.
MAX_ENHANCEMENTS = 120


def enhancements(library: Library, unit: Node, notes: list[str]) -> list[Node]:
    """The entries of the groups named Enhancements below a datasheet or its model entries
    (a text list names the one its character took), once by name."""
    found: dict[str, Node] = {}
    nodes = [unit] + [e for e in (library.resolve(c) for c in entries_below(unit))
                      if e is not None and e.get("type") == "model"]
    for node in nodes:
        for child in entries_below(node):
            group = library.resolve(child)
            if group is None or group.tag != "selectionEntryGroup" or is_hidden(group) or \
                    not _ENHANCEMENTS.search(kw.clean(group.get("name"))):
                continue
            for entry in _group_entries(library, group, 0):
                found.setdefault(kw.clean(entry.get("name")).lower(), entry)
    return list(found.values())[:MAX_ENHANCEMENTS]


def _enhancement(library: Library, entry: Node) -> Node:
    """An enhancement as a selection: its name, ids and modifiers (its text is not read)."""
    ids, modifiers = _carry(library, entry)
    return Node("selection", {"name": kw.clean(entry.get("name")), "type": "upgrade",
                              "number": "1", **{k: v for k, v in ids.attrs.items() if v}},
                children=[modifiers] if modifiers.children else [])


def _group_entries(library: Library, group: Node, depth: int) -> list[Node]:
    out: list[Node] = []
    for child in entries_below(group):
        entry = library.resolve(child)
        if entry is None or is_hidden(entry) or depth > MAX_LINK_DEPTH:
            continue
        if entry.tag == "selectionEntryGroup":
            out += _group_entries(library, entry, depth + 1)
        else:
            out.append(entry)
    return out


def _selection(name: str, kind: str, number: int, profiles: list[Node], rules: list[Node],
               selections: list[Node], categories: list[str],
               carry: list[Node] | None = None) -> Node:
    children = [Node("profiles", children=list(profiles)), Node("rules", children=list(rules)),
                Node("selections", children=selections),
                Node("categories", children=[Node("category", {"name": c})
                                             for c in categories])]
    attrs = {"name": name, "type": kind, "number": str(number)}
    for item in carry or []:
        if item.tag == "ids":
            attrs.update({k: v for k, v in item.attrs.items() if v})
        elif item.children:
            children.append(item)
    return Node("selection", attrs, children=children)


def _weapon_selection(library: Library, entry: Node, count: int) -> Node:
    profiles = [copied(p) for p in entry.list("profiles") if not is_hidden(p)]
    return _selection(kw.clean(entry.get("name")), "upgrade", count, profiles, [], [], [],
                      _carry(library, entry))


def _categories(library: Library, node: Node) -> list[str]:
    out = []
    for link in node.list("categoryLinks"):
        target = library.target(link)
        name = link.get("name") or (target.get("name") if target is not None else "")
        if name and not is_hidden(link):
            out.append(name)
    return out


def _abilities(library: Library, node: Node, notes: list[str]) -> tuple[list[Node], list[Node]]:
    """The profiles and rules ``node``'s info links name (an info group's contents too)."""
    profiles: list[Node] = []
    rules: list[Node] = []
    for link in node.list("infoLinks") + node.list("infoGroups"):
        found = library.resolve(link, notes)
        if found is None or is_hidden(found):
            continue
        if found.tag == "profile":
            profiles.append(found)
        elif found.tag == "rule":
            rules.append(found)
        elif found.tag == "infoGroup":
            inner_profiles, inner_rules = _abilities(library, found, notes)
            profiles += found.list("profiles") + inner_profiles
            rules += found.list("rules") + inner_rules
    return profiles, _without_glossary_fnp(rules, node, notes)


def _without_glossary_fnp(rules: list[Node], node: Node, notes: list[str]) -> list[Node]:
    """A "Feel No Pain N+" rule link that is only the glossary entry of a restricted ability
    (the datasheet's own text grants it against mortal wounds or psychic attacks only)."""
    texts = " ".join(c.text for p in node.list("profiles") for c in p.list("characteristics"))
    out = []
    for rule in rules:
        match = _RULE_FNP.match(kw.clean(rule.get("name")))
        restricted = match and re.search(
            rf"(?i)feel no pain {match.group(1)}\+ (ability )?against (mortal|psychic)",
            kw.clean(texts))
        if restricted:
            notes.append(f"rule '{kw.clean(rule.get('name'))}' is the glossary entry of a "
                         "restricted ability: not applied to every attack")
            continue
        out.append(rule)
    return out


def points_for(unit: Node, models: int, by_id: dict[str, int] | None = None) -> float:
    """The unit's ``pts`` for ``models`` models: its cost, raised by modifiers whose
    conditions count the unit's models (points by model-count tiers); ``by_id`` counts the
    models of each model entry or group id a condition may name."""
    base = 0.0
    for cost in unit.list("costs"):
        if cost.get("typeId") == POINTS_TYPE or kw.clean(cost.get("name")).lower() == "pts":
            base += _number(cost.get("value"))
    for modifier in unit.list("modifiers"):
        if modifier.get("field") != POINTS_TYPE or not _holds(modifier, models, by_id or {}):
            continue
        value = _number(modifier.get("value"))
        kind = modifier.get("type")
        if kind == "set":
            base = value
        elif kind == "increment":
            base += value
        elif kind == "decrement":
            base -= value
    return max(base, 0.0)


def _holds(modifier: Node, models: int, by_id: dict[str, int]) -> bool:
    """Whether every condition of a points modifier holds for a unit of ``models`` models;
    a condition on anything but a count of the unit's models does not."""
    conditions = modifier.list("conditions") + [
        c for g in modifier.list("conditionGroups") if g.get("type", "and") == "and"
        for c in g.list("conditions")]
    if not conditions or any(g.get("type") == "or" for g in modifier.list("conditionGroups")):
        return False
    for condition in conditions:
        child = condition.get("childId")
        if condition.get("field") != "selections" or (child != "model" and child not in by_id):
            return False
        counted = models if child == "model" else by_id[child]
        value = _number(condition.get("value"))
        test = condition.get("type")
        checks = {"atLeast": counted >= value, "greaterThan": counted > value,
                  "atMost": counted <= value, "lessThan": counted < value,
                  "equalTo": counted == value, "notEqualTo": counted != value}
        if not checks.get(test, False):
            return False
    return True


def _number(text: str) -> float:
    try:
        value = float(kw.clean(text))
    except ValueError:
        return 0.0
    return value if 0 <= value < 1e7 else 0.0
