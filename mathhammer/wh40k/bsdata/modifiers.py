"""BattleScribe modifiers of characteristics, applied to a datasheet's finished selection.

A catalogue entry (a unit, a model, a weapon, an enhancement) or one of its profiles may
carry ``<modifier type="set|increment|decrement|append|replace" field="..." value="..."
scope="..." affects="..."/>``, alone or in a ``modifierGroup``, with conditions. The 10th
edition catalogues write them like this (counted over the whole checkout):

- an enhancement, ``scope="model"`` (or ``model-or-unit``, ``parent``, ``root-entry``) and
  ``affects="self.entries.recursive.profiles.Melee Weapons"``: every melee profile below the
  bearer; ``affects="self.entries.recursive.<ID>.profiles.Melee Weapons"`` only the entries
  with that entry or category id (``Extra Attacks Weapon``...); ``profiles.Unit`` the scope's
  own profiles;
- a weapon's profile, no ``affects``: that profile, usually under a condition on a
  selection (``atLeast 1 selections`` of an upgrade with ``scope="self"``,
  ``instanceOf ... scope="ancestor"`` a category such as Captain);
- the field is the characteristic's ``typeId`` (or its name), the value a number or a text.

:func:`carried` keeps an entry's modifiers on the selection written for it (with its ids and
category ids); :func:`resolve` applies them once the unit's selection is complete (its
wargear swapped, its enhancement added): each condition is evaluated on that selection
(counts of selections by entry or category id, ``instanceOf`` its ancestors); a condition on
the force, the roster or anything else outside the unit is a one-line note naming the
modifier and the unit, and the modifier is not applied.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.read import Node

_KINDS = ("set", "increment", "decrement", "append", "replace")
#: Modifier fields that are no characteristic of a profile.
_OTHER_FIELDS = {"name", "hidden", "category", "annotation", "error", "warning", "info",
                 "page", "publicationId", "description", "51b2-306e-1021-d207"}
_NUMBER = re.compile(r"^(?P<lead>[^\dDd]*?)(?P<number>-?\d+)(?P<rest>[^\d]*)$")
_DICE = re.compile(r"^(?P<dice>\d*[Dd]\d+)\s*(?:(?P<sign>[+-])\s*(?P<plus>\d+))?$")
_COMPARE: dict[str, Callable[[float, float], bool]] = {
    "atLeast": lambda a, b: a >= b, "greaterThan": lambda a, b: a > b,
    "atMost": lambda a, b: a <= b, "lessThan": lambda a, b: a < b,
    "equalTo": lambda a, b: a == b, "notEqualTo": lambda a, b: a != b}
#: Modifiers that one selection may keep (a datasheet holds a few dozen).
MAX_CARRIED = 200


def copied(node: Node) -> Node:
    """A deep copy of a (small) profile node."""
    return Node(node.tag, dict(node.attrs), node.text, [copied(c) for c in node.children])


# -- kept on a selection ---------------------------------------------------------------------
def carried(entry: Node, name_of: Callable[[str], str] | None = None) -> list[Node]:
    """Copies of ``entry``'s modifiers that may change a characteristic, each with the
    conditions of the modifier groups around it folded in (as ``conditionGroups``), its
    conditions' ``childId`` named (``childName``) by ``name_of`` for the notes."""
    out: list[Node] = []
    for modifier in entry.list("modifiers"):
        if _kept(modifier):
            out.append(copied(modifier))
    for group in entry.list("modifierGroups"):
        _flatten(group, [], out)
    if name_of is not None:
        for modifier in out:
            for condition in _walk(modifier, "condition"):
                ident = condition.get("childId")
                if ident and not condition.get("childName"):
                    condition.attrs["childName"] = name_of(ident)
    return out[:MAX_CARRIED]


def _kept(modifier: Node) -> bool:
    return modifier.get("type") in _KINDS and modifier.get("field") not in _OTHER_FIELDS


def _flatten(group: Node, outer: list[Node], out: list[Node]) -> None:
    own = [copied(c) for c in group.children
           if c.tag in ("conditions", "conditionGroups", "localConditionGroups", "repeats")]
    conditions = outer + ([Node("conditionGroup", {"type": "and"}, children=own)] if own else [])
    for modifier in group.list("modifiers"):
        if _kept(modifier):
            copy = copied(modifier)
            if conditions:
                copy.children.append(Node("conditionGroups", children=list(conditions)))
            out.append(copy)
    for inner in group.list("modifierGroups"):
        _flatten(inner, conditions, out)


def _walk(node: Node, tag: str) -> Iterator[Node]:
    stack = [node]
    while stack:
        item = stack.pop()
        if item.tag == tag:
            yield item
        stack.extend(item.children)


# -- applied to a finished selection ----------------------------------------------------------
class _Tree:
    """A unit's selection with each selection's parent."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self.parent: dict[int, Node] = {}
        self.order: list[Node] = []
        stack = [root]
        while stack:
            node = stack.pop()
            self.order.append(node)
            children = node.list("selections")
            for child in children:
                self.parent[id(child)] = node
            stack.extend(reversed(children))

    def chain(self, node: Node) -> list[Node]:
        """``node`` and its ancestors, nearest first."""
        out = [node]
        while id(out[-1]) in self.parent:
            out.append(self.parent[id(out[-1])])
        return out

    def scope(self, scope: str, at: Node) -> Node | None:
        chain = self.chain(at)
        if scope in ("", "self"):
            return at
        if scope == "parent":
            return chain[1] if len(chain) > 1 else None
        if scope == "root-entry":
            return chain[-1]
        if scope in ("model", "upgrade"):
            return next((n for n in chain if n.get("type") == scope), None)
        if scope == "unit":   # a single-model datasheet is its own unit
            return next((n for n in chain if n.get("type") == "unit"), chain[-1])
        if scope == "model-or-unit":
            return next((n for n in chain if n.get("type") in ("model", "unit")), None)
        return next((n for n in chain if scope in _ids(n)), None)


def _ids(node: Node) -> set[str]:
    out = set(node.get("entryId").split()) | set(node.get("categoryIds").split())
    out.update(p.get("id") for p in node.list("profiles") if p.get("id"))
    return out


def _is(node: Node, child: str) -> bool:
    if child == "any":
        return True
    if child in ("model", "unit", "upgrade"):
        return node.get("type") == child
    return child in _ids(node)


def _below(node: Node, recursive: bool) -> list[Node]:
    out: list[Node] = []
    stack = list(node.list("selections"))
    while stack:
        item = stack.pop()
        out.append(item)
        if recursive:
            stack.extend(item.list("selections"))
    return out


def _number(text: str) -> float | None:
    try:
        return float(kw.clean(text))
    except ValueError:
        return None


def _condition(condition: Node, at: Node, tree: _Tree) -> bool | None:
    """A condition on the unit's own selections: True, False, or None (depends on what a
    datasheet alone does not hold: the force, the roster, another field)."""
    kind, child, scope = condition.get("type"), condition.get("childId"), condition.get("scope")
    if condition.get("field", "selections") != "selections" or not child:
        return None
    if kind in ("instanceOf", "notInstanceOf"):
        if scope == "ancestor":
            nodes = tree.chain(at)[1:]
        else:
            found = tree.scope(scope, at)
            if found is None:
                return None
            nodes = [found]
        hit = any(_is(n, child) for n in nodes)
        return hit if kind == "instanceOf" else not hit
    compare = _COMPARE.get(kind)
    value = _number(condition.get("value"))
    start = tree.scope(scope, at) if scope != "ancestor" else None
    if compare is None or value is None or start is None:
        return None
    recursive = condition.get("includeChildSelections").lower() == "true"
    count = sum(int(_number(n.get("number", "1")) or 0)
                for n in _below(start, recursive) if _is(n, child))
    return compare(count, value)


def _all(results: list[bool | None]) -> bool | None:
    if False in results:
        return False
    return None if None in results else True


def _any(results: list[bool | None]) -> bool | None:
    if True in results:
        return True
    return None if None in results else False


def _holds(node: Node, at: Node, tree: _Tree, kind: str = "and") -> bool | None:
    results: list[bool | None] = [_condition(c, at, tree) for c in node.list("conditions")]
    results += [_holds(g, at, tree, g.get("type", "and") or "and")
                for g in node.list("conditionGroups")]
    if node.list("repeats") or node.list("localConditionGroups"):
        results.append(None)
    if not results:
        return True
    return _any(results) if kind == "or" else _all(results)


def _unknown(node: Node, at: Node, tree: _Tree) -> str:
    """The words for the first condition that cannot be evaluated."""
    for condition in _walk(node, "condition"):
        if _condition(condition, at, tree) is None:
            what = condition.get("childName") or condition.get("childId") or "?"
            scope = condition.get("scope") or "?"
            return f"'{kw.clean(what)}' in its {scope}" if scope in ("force", "roster") \
                else f"a condition on '{kw.clean(what)}' ({scope})"
    return "a repeat or a condition it cannot read"


def _targets(modifier: Node, holder: Node, profile: Node | None, tree: _Tree
             ) -> list[Node] | None:
    """The profiles a modifier changes (None: outside the unit, such as its force)."""
    affects = modifier.get("affects").strip()
    start = tree.scope(modifier.get("scope", ""), holder)
    if not affects:
        if profile is not None:
            return [profile]
        return None if start is None else start.list("profiles")
    if affects.startswith("profiles"):
        path, wanted = "", affects[len("profiles"):]
    else:
        path, separator, wanted = affects.partition(".profiles")
        if not separator:
            return []     # categories, names or rules of entries: no characteristic
    wanted = wanted.lstrip(".")
    parts = [p for p in path.split(".") if p]
    if parts[:1] == ["self"]:
        parts = parts[1:]
    if start is None:
        return None
    if not parts:
        nodes = [start]
    elif parts[0] == "entries" and len(parts) <= 3:
        recursive = parts[1:2] == ["recursive"]
        rest = parts[2:] if recursive else parts[1:]
        if len(rest) > 1 or rest[:1] == ["forces"]:
            return None
        nodes = [n for n in _below(start, recursive) if not rest or rest[0] in _ids(n)]
    else:
        return None
    return [p for n in nodes for p in n.list("profiles")
            if not wanted or wanted.lower() in (kw.clean(p.get("typeName")).lower(),
                                                p.get("typeId").lower())]


def _has(profile: Node, field: str) -> bool:
    return any(field in (c.get("typeId"), c.get("name")) for c in profile.list("characteristics"))


def _label(modifier: Node, field: str, tree: _Tree) -> str:
    name = field
    for node in tree.order:
        for p in node.list("profiles"):
            for c in p.list("characteristics"):
                if field in (c.get("typeId"), c.get("name")):
                    name = c.get("name") or field
    value = modifier.get("value") or modifier.get("arg")
    return f"{modifier.get('type')} {name} {kw.clean(value)}".strip()


def resolve(root: Node, notes: list[str], unit: str = "") -> None:
    """Apply the modifiers kept on ``root``'s selections (and on their profiles), in place,
    and remove them: a modifier whose conditions hold changes its target profiles; one
    whose conditions need what a unit alone does not hold (its force, the roster) is a
    note naming it and ``unit`` when it would change one of the unit's characteristics."""
    tree = _Tree(root)
    unit = unit or kw.clean(root.get("name"))
    for node in tree.order:
        work: list[tuple[Node, Node | None]] = [(m, None) for m in node.list("modifiers")]
        work += [(m, p) for p in node.list("profiles") for m in p.list("modifiers")]
        for modifier, profile in work:
            _apply_one(modifier, node, profile, tree, notes, unit)
    for node in tree.order:
        node.children = [c for c in node.children if c.tag != "modifiers"]
        for p in node.list("profiles"):
            p.children = [c for c in p.children if c.tag not in ("modifiers", "modifierGroups")]


def _apply_one(modifier: Node, node: Node, profile: Node | None, tree: _Tree,
               notes: list[str], unit: str) -> None:
    field = modifier.get("field")
    if not _kept(modifier):
        return
    targets = _targets(modifier, node, profile, tree)
    if targets is not None:
        targets = [p for p in targets if _has(p, field)]
        if not targets:
            return
    elif not any(_has(p, field) for n in tree.order for p in n.list("profiles")):
        return
    holds = _holds(modifier, node, tree) if targets is not None else None
    if holds is False:
        return
    if holds is None:
        where = kw.clean((profile or node).get("name"))
        why = _unknown(modifier, node, tree) if targets is not None else \
            f"its scope '{modifier.get('scope')}' / '{modifier.get('affects')}'"
        notes.append(f"'{unit}': modifier '{_label(modifier, field, tree)}' of '{where}' "
                     f"depends on {why}, which a datasheet alone does not hold: not applied")
        return
    for target in targets or []:
        for characteristic in target.list("characteristics"):
            if field in (characteristic.get("typeId"), characteristic.get("name")):
                characteristic.text = changed(characteristic.text, modifier.get("type"),
                                              modifier.get("value"), modifier.get("arg"),
                                              modifier.attrs.get("join"))


def changed(text: str, kind: str, value: str, arg: str = "", join: str | None = None) -> str:
    """A characteristic after one modifier: ``set`` replaces it, ``append`` adds to it
    (with ``join``, else ", "), ``replace`` swaps ``arg`` for the value, ``increment`` /
    ``decrement`` change its number and keep the rest (``3+`` less 1 is ``2+``; a dice
    Attacks or Damage changes its constant: ``D6`` plus 1 is ``D6+1``); a text with no such
    number, or a value of ``true``/``false``, is left as it is.

    Examples
    --------
    >>> changed("3+", "decrement", "1"), changed("D6", "increment", "1")
    ('2+', 'D6+1')
    """
    if value.strip().lower() in ("true", "false"):
        return text
    if kind == "set":
        return value
    if kind == "append":
        if text.strip() in ("", "-"):
            return value
        return f"{text}{', ' if join is None else join}{value}"
    if kind == "replace":
        return text.replace(arg, value) if arg else text
    try:
        step = int(float(value))
    except ValueError:
        return text
    step = step if kind == "increment" else -step
    dice = _DICE.match(text.strip())
    if dice is not None:
        plus = int(dice.group("plus") or 0) * (-1 if dice.group("sign") == "-" else 1) + step
        return dice.group("dice") + (f"+{plus}" if plus > 0 else f"{plus}" if plus else "")
    match = _NUMBER.match(text.strip())
    if match is None:
        return text
    number = int(match.group("number")) + step
    return f"{match.group('lead')}{number}{match.group('rest')}"
