"""Model groups of one datasheet (wh40k/roster/groups.py), on small trees built by hand."""

from mathhammer.wh40k.roster.groups import ModelSelection, model_groups
from mathhammer.wh40k.roster.nodes import subtree
from tests.wh40k.roster.test_nodes import STATLINE, profile, selection

RIFLE = profile("Bolt rifle", "Ranged Weapons", {"Range": '24"', "A": "2", "BS": "3+", "S": "4",
                                                 "AP": "0", "D": "1"})
PLASMA = profile("Plasma gun", "Ranged Weapons", {"Range": '24"', "A": "1", "BS": "3+",
                                                  "S": "8", "AP": "-3", "D": "2"})


def _groups(models_node, unit):
    model = ModelSelection(models_node, int(models_node.get("number")),
                           models_node.get("name"), subtree(models_node))
    notes = []
    groups, complete = model_groups("Squad", [model], [unit], unit, notes, "army.ros", [[]])
    return groups, complete, notes


def test_weapons_shared_among_models_and_grouped_by_loadout():
    # five models with five rifles and one plasma gun: the first model takes the plasma gun
    models = selection("Intercessor", "5", profiles=[STATLINE],
                       selections=[selection("Bolt rifle", "5", profiles=[RIFLE]),
                                   selection("Plasma gun", "1", profiles=[PLASMA])])
    unit = selection("Squad", selections=[models])
    groups, complete, notes = _groups(models, unit)
    assert complete and notes == []
    assert [(g.name, g.count) for g in groups] == [("Intercessor", 4),
                                                   ("Intercessor w/ Plasma gun", 1)]
    assert [(w.name, w.per_model) for w in groups[1].weapons] == [("Bolt rifle", 1),
                                                                  ("Plasma gun", 1)]
    assert groups[0].profile.toughness == 4 and groups[0].profile.wounds == 2


def test_a_model_without_a_statline_gets_a_placeholder_and_a_note():
    models = selection("Drone", "2", selections=[selection("Bolt rifle", "2", profiles=[RIFLE])])
    unit = selection("Squad", selections=[models])
    groups, complete, notes = _groups(models, unit)
    assert not complete and [(g.name, g.count) for g in groups] == [("Drone", 2)]
    assert groups[0].profile.toughness == 1
    assert any("no statline in the file for Drone" in n for n in notes)
