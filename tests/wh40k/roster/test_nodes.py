"""Questions asked of one roster node (wh40k/roster/nodes.py), on small trees built by hand."""

import pytest

from mathhammer.errors import RosterError
from mathhammer.wh40k.roster.nodes import (
    MAX_WEAPON_COUNT, ability_texts, category_names, characteristics, plain_number,
    raw_ability_texts, selection_count, shortened, statline_profiles, subtree,
    visible_profiles, weapon_kind)
from mathhammer.wh40k.roster.read import Node


def wrap(tag, items):
    return Node(tag, children=list(items))


def profile(name, type_name, chars, hidden="false"):
    return Node("profile", {"name": name, "typeName": type_name, "hidden": hidden},
                children=[wrap("characteristics", [Node("characteristic", {"name": k}, v)
                                                   for k, v in chars.items()])])


def selection(name, number="1", profiles=(), selections=(), categories=(), rules=()):
    return Node("selection", {"name": name, "number": number},
                children=[wrap("profiles", profiles), wrap("selections", selections),
                          wrap("categories", [Node("category", {"name": c}) for c in categories]),
                          wrap("rules", rules)])


GUN = profile("Bolt rifle", "Ranged Weapons", {"Range": '24"', "A": "2", "S": "4", "D": "1"})
POWER = profile("Lance", "Psychic Powers", {"Range": "Melee", "A": "3", "S": "6", "D": "2"})
STATLINE = profile("Intercessor", "Unit", {"T": "4", "Sv": "3+", "W": "2"})
ABILITY = profile("Shield", "Abilities", {"Description": "A 4+\ninvulnerable save."})


def test_profiles_by_kind():
    node = selection("x", profiles=[GUN, POWER, STATLINE, ABILITY,
                                    profile("Secret", "Unit", {}, hidden="true")])
    assert [p.get("name") for p in visible_profiles(node)] == ["Bolt rifle", "Lance",
                                                               "Intercessor", "Shield"]
    assert [p.get("name") for p in statline_profiles(node)] == ["Intercessor"]
    # typed weapons by their type; any other type with Range, A, S and D by its Range
    assert [weapon_kind(p) for p in visible_profiles(node)] == ["ranged", "melee", None, None]
    assert characteristics(GUN) == {"range": '24"', "a": "2", "s": "4", "d": "1"}


def test_ability_texts_cleaned_or_raw():
    rule = Node("rule", {"name": "Oath"}, children=[Node("description", {}, "Re-roll\nhits")])
    node = selection("x", profiles=[ABILITY, GUN], rules=[rule])
    assert ability_texts([node]) == [("Shield", "A 4+ invulnerable save."),
                                     ("Oath", "Re-roll hits")]
    assert raw_ability_texts([node]) == [("Shield", "A 4+\ninvulnerable save."),
                                         ("Oath", "Re-roll\nhits")]


def test_subtree_and_categories_in_file_order():
    leaf_a, leaf_b = selection("a"), selection("b")
    middle = selection("m", selections=[leaf_a], categories=["Infantry"])
    root = selection("r", selections=[middle, leaf_b], categories=["Battleline"])
    assert [n.get("name") for n in subtree(root)] == ["r", "m", "a", "b"]
    assert category_names([root, middle]) == ["Battleline", "Infantry"]


@pytest.mark.parametrize("number, expected", [("3", 3), ("", 1), ("0", 0)])
def test_selection_count(number, expected):
    assert selection_count(selection("x", number), "army.ros", "Squad") == expected


@pytest.mark.parametrize("number, match", [("-1", "whole number"), ("2.5", "whole number"),
                                           ("1e3", "whole number"),
                                           (str(MAX_WEAPON_COUNT + 1), "more than any")])
def test_selection_count_refuses_in_one_line(number, match):
    with pytest.raises(RosterError, match=match) as info:
        selection_count(selection("Bolters", number), "army.ros", "Squad")
    assert "army.ros" in str(info.value) and "'Bolters'" in str(info.value)
    assert "\n" not in str(info.value)


def test_plain_numbers_and_shortened_text():
    assert plain_number("12.5") == 12.5
    assert plain_number("nan") is None and plain_number("1_0") is None
    assert shortened("x" * 50) == "x" * 37 + "..." and shortened("short") == "short"
