"""The smallest legal unit and its default wargear, and points by model count
(mathhammer.wh40k.bsdata.loadout), on nodes written by hand."""

from __future__ import annotations

from mathhammer.wh40k.bsdata import loadout
from mathhammer.wh40k.roster.read import Node


def _limits(**values: int) -> Node:
    return Node("constraints", children=[
        Node("constraint", {"type": k, "value": str(v), "field": "selections",
                            "scope": "parent"}) for k, v in values.items()])


def test_constraints_read_and_bounded():
    node = Node("selectionEntry", children=[_limits(min=2, max=99999)])
    assert loadout.constraint(node, "min") == 2 and loadout.constraint(node, "max") == 10_000
    assert loadout.constraint(Node("selectionEntry"), "min") is None


def _unit(*modifiers: Node) -> Node:
    return Node("selectionEntry", {"type": "unit"}, children=[
        Node("costs", children=[Node("cost", {"name": "pts", "typeId": loadout.POINTS_TYPE,
                                              "value": "100"})]),
        Node("modifiers", children=list(modifiers))])


def _modifier(kind: str, value: int, *conditions: tuple[str, str, int]) -> Node:
    return Node("modifier", {"type": kind, "value": str(value), "field": loadout.POINTS_TYPE},
                children=[Node("conditions", children=[
                    Node("condition", {"type": t, "childId": child, "value": str(v),
                                       "field": "selections"}) for t, child, v in conditions])])


def test_points_by_model_count_tiers():
    unit = _unit(_modifier("set", 190, ("atLeast", "model", 6)),
                 _modifier("increment", 15, ("greaterThan", "G", 8)))
    assert [loadout.points_for(unit, n, {"G": n - 1}) for n in (5, 6, 9, 10)] == \
        [100, 190, 190, 205]


def test_a_points_modifier_on_anything_else_is_not_applied():
    unit = _unit(_modifier("set", 0, ("atLeast", "some-upgrade", 1)),
                 Node("modifier", {"type": "set", "value": "5", "field": loadout.POINTS_TYPE}))
    assert loadout.points_for(unit, 10) == 100   # no condition, or one we cannot count


def test_default_counts():
    weapon = Node("profiles", children=[Node("profile", {"typeName": "Melee Weapons"}, children=[
        Node("characteristics", children=[Node("characteristic", {"name": n}, t) for n, t in
                                          (("Range", "Melee"), ("A", "1"), ("S", "4"),
                                           ("D", "1"))])])])
    fixed = Node("selectionEntry", children=[weapon])
    optional = Node("selectionEntry", children=[weapon, _limits(max=1)])
    taken = Node("selectionEntry", children=[weapon, _limits(min=2, max=2)])
    assert [loadout._default_count(e) for e in (fixed, optional, taken)] == [1, 0, 2]
