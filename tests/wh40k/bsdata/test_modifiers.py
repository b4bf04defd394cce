"""Unconditional modifiers of a selected entry (mathhammer.wh40k.bsdata.modifiers)."""

from __future__ import annotations

import pytest

from mathhammer.wh40k.bsdata.modifiers import apply_modifiers, changed, copied, unconditional
from mathhammer.wh40k.roster.read import Node


@pytest.mark.parametrize("text, kind, value, expected", [
    ("3+", "decrement", "1", "2+"), ("4", "increment", "2", "6"), ('24"', "increment", "6", '30"'),
    ("-1", "decrement", "1", "-2"), ("D6+1", "increment", "1", "D6+1"),   # no single number
    ("3+", "set", "2+", "2+"), ("Lethal Hits", "append", "Precision", "Lethal Hits, Precision"),
    ("-", "append", "Precision", "Precision"), ("4", "increment", "x", "4")])
def test_changed_by_hand(text, kind, value, expected):
    assert changed(text, kind, value) == expected


def _profile(type_name: str, **chars: str) -> Node:
    return Node("profile", {"typeName": type_name}, children=[Node("characteristics", children=[
        Node("characteristic", {"name": k, "typeId": f"id-{k}"}, v) for k, v in chars.items()])])


def _source(*modifiers: Node) -> Node:
    return Node("selectionEntry", children=[Node("modifiers", children=list(modifiers))])


def _modifier(kind: str, field: str, value: str, affects: str = "", *conditions: Node) -> Node:
    attrs = {"type": kind, "field": field, "value": value}
    if affects:
        attrs["affects"] = affects
    return Node("modifier", attrs, children=[Node("conditions", children=list(conditions))]
                if conditions else [])


def _value(profile: Node, name: str) -> str:
    return next(c.text for c in profile.list("characteristics") if c.get("name") == name)


def test_own_and_below_by_affects_and_type():
    unit = _profile("Unit", T="4", W="2")
    gun = _profile("Ranged Weapons", BS="4+", S="5")
    blade = _profile("Melee Weapons", WS="3+", S="4")
    source = _source(_modifier("increment", "id-W", "1"),                         # own
                     _modifier("decrement", "id-BS", "1",
                               "self.entries.recursive.profiles.Ranged Weapons"),  # below
                     _modifier("increment", "S", "1", "self.entries.profiles.Melee Weapons"),
                     _modifier("set", "id-T", "9", "", Node("condition", {"type": "atLeast"})),
                     _modifier("set", "id-T", "8", "forces.profiles.Unit"))         # not ours
    apply_modifiers(source, [unit], [gun, blade])
    assert (_value(unit, "W"), _value(unit, "T")) == ("3", "4")
    assert (_value(gun, "BS"), _value(gun, "S")) == ("3+", "5")
    assert _value(blade, "S") == "5"


def test_modifier_groups_with_conditions_are_not_applied():
    grouped = Node("modifierGroup", children=[
        Node("conditions", children=[Node("condition", {"type": "equalTo"})]),
        Node("modifiers", children=[_modifier("set", "id-W", "9")])])
    plain = Node("modifierGroup", children=[Node("modifiers", children=[
        _modifier("set", "id-W", "5")])])
    source = Node("selectionEntry", children=[Node("modifierGroups", children=[grouped, plain])])
    assert [m.get("value") for m in unconditional(source)] == ["5"]


def test_copies_leave_the_catalogue_alone():
    original = _profile("Unit", W="2")
    copy = copied(original)
    apply_modifiers(_source(_modifier("set", "id-W", "7")), [copy], [])
    assert _value(original, "W") == "2" and _value(copy, "W") == "7"
