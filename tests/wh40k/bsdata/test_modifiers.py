"""BattleScribe modifiers of characteristics (mathhammer.wh40k.bsdata.modifiers): by hand on
nodes, then through a 10th-edition XML checkout written here in the real catalogues' shape
(an enhancement's ``scope="model"`` and ``affects="self.entries.recursive.profiles.Melee
Weapons"``, a category filter ``self.entries.recursive.<ID>.profiles...``, a weapon profile's
own modifier under ``instanceOf ancestor``, a force condition): the changed weapon equals the
hand-typed line (exact engine, 1e-12), and what cannot be evaluated is a note."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.wh40k.bsdata import example as ex
from mathhammer.wh40k.bsdata.modifiers import carried, changed, resolve
from mathhammer.wh40k.roster.read import Node


@pytest.mark.parametrize("text, kind, value, expected", [
    ("3+", "decrement", "1", "2+"), ("4", "increment", "2", "6"), ('24"', "increment", "6", '30"'),
    ("-1", "decrement", "1", "-2"), ("D6", "increment", "1", "D6+1"),
    ("D6+1", "increment", "1", "D6+2"), ("2D6+1", "decrement", "1", "2D6"),
    ("D3", "decrement", "1", "D3-1"), ("D6+0", "increment", "2", "D6+2"),
    ("3+", "set", "2+", "2+"), ("Lethal Hits", "append", "Precision", "Lethal Hits, Precision"),
    ("-", "append", "Precision", "Precision"), ("4", "increment", "x", "4"),
    ("4", "set", "true", "4")])
def test_changed_by_hand(text, kind, value, expected):
    assert changed(text, kind, value) == expected


def test_replace_and_join_by_hand():
    assert changed("D6+0", "replace", "", "+0") == "D6"
    assert changed("Assault", "append", "Heavy", join=" | ") == "Assault | Heavy"


def _profile(type_name: str, **chars: str) -> Node:
    return Node("profile", {"typeName": type_name}, children=[Node("characteristics", children=[
        Node("characteristic", {"name": k, "typeId": f"id-{k}"}, v) for k, v in chars.items()])])


def _selection(name: str, kind: str, profiles: list[Node], selections: list[Node] = (),
               modifiers: list[Node] = (), ids: str = "", categories: str = "") -> Node:
    return Node("selection", {"name": name, "type": kind, "number": "1", "entryId": ids,
                              "categoryIds": categories},
                children=[Node("profiles", children=list(profiles)),
                          Node("selections", children=list(selections)),
                          Node("modifiers", children=list(modifiers))])


def _modifier(kind: str, field: str, value: str, scope: str = "", affects: str = "",
              *conditions: Node) -> Node:
    attrs = {"type": kind, "field": field, "value": value, "scope": scope, "affects": affects}
    return Node("modifier", attrs, children=[Node("conditions", children=list(conditions))])


def _value(profile: Node, name: str) -> str:
    return next(c.text for c in profile.list("characteristics") if c.get("name") == name)


def test_scope_affects_and_filters_on_a_tree():
    blade = _profile("Melee Weapons", A="3", S="4")
    claw = _profile("Melee Weapons", A="2", S="8")
    gun = _profile("Ranged Weapons", A="2", S="4")
    enhancement = _selection("Relic", "upgrade", [], modifiers=[
        _modifier("increment", "id-A", "2", "model", "self.entries.recursive.profiles.Melee Weapons"),
        _modifier("increment", "id-S", "1", "model",
                  "self.entries.recursive.CLAW-CAT.profiles.Melee Weapons"),
        _modifier("increment", "id-S", "9", "model", "self.entries.recursive.profiles.Melee Weapons",
                  Node("condition", {"type": "atLeast", "value": "1", "field": "selections",
                                     "scope": "force", "childId": "DET",
                                     "childName": "Some Detachment"}))])
    model = _selection("Boss", "model", [_profile("Unit", W="5")], [
        _selection("Blade", "upgrade", [blade]),
        _selection("Claw", "upgrade", [claw], categories="CLAW-CAT"),
        _selection("Gun", "upgrade", [gun]), enhancement])
    notes: list[str] = []
    resolve(model, notes)
    assert (_value(blade, "A"), _value(blade, "S")) == ("5", "4")
    assert (_value(claw, "A"), _value(claw, "S")) == ("4", "9")
    assert (_value(gun, "A"), _value(gun, "S")) == ("2", "4")     # ranged: not affected
    assert notes == ["'Boss': modifier 'increment S 9' of 'Relic' depends on 'Some Detachment' "
                     "in its force, which a datasheet alone does not hold: not applied"]
    assert not model.list("modifiers")        # applied once: a second pass changes nothing
    resolve(model, notes)
    assert _value(blade, "A") == "5" and len(notes) == 1


def test_conditions_on_selections():
    upgrade = Node("condition", {"type": "atLeast", "value": "1", "field": "selections",
                                 "scope": "self", "childId": "HEIRLOOM"})
    captain = Node("condition", {"type": "instanceOf", "value": "1", "field": "selections",
                                 "scope": "ancestor", "childId": "CAPTAIN"})
    gun = _profile("Ranged Weapons", A="2", BS="3+")
    gun.children.append(Node("modifiers", children=[
        _modifier("append", "id-A", "+0", "", "", upgrade),       # no such selection: false
        _modifier("set", "id-BS", "2+", "", "", captain)]))       # the bearer is a Captain
    unit = _selection("Captain", "model", [], [_selection("Gun", "upgrade", [gun])],
                      categories="CAPTAIN CHARACTER")
    notes: list[str] = []
    resolve(unit, notes)
    assert (_value(gun, "A"), _value(gun, "BS"), notes) == ("2", "2+", [])


def test_carried_folds_group_conditions_and_keeps_only_characteristics():
    entry = Node("selectionEntry", children=[
        Node("modifiers", children=[_modifier("set", "hidden", "true"),
                                    _modifier("increment", "id-A", "1")]),
        Node("modifierGroups", children=[Node("modifierGroup", children=[
            Node("conditions", children=[Node("condition", {"type": "atLeast",
                                                            "childId": "X"})]),
            Node("modifiers", children=[_modifier("set", "id-S", "9")])])])])
    kept = carried(entry, lambda ident: f"name of {ident}")
    assert [m.get("field") for m in kept] == ["id-A", "id-S"]
    condition = kept[1].list("conditionGroups")[0].list("conditions")[0]
    assert condition.get("childName") == "name of X"


# -- a checkout in the real 10th-edition schema -----------------------------------------------
A_MELEE, S_MELEE, AP_MELEE, KW_MELEE = "2337-daa1-6682-b110", "ab33-d393-96ce-ccba", \
    "41a0-1301-112a-e2f2", "893f-9000-ccf7-648e"
BS_RANGED, A_RANGED = "94d-8a98-cf90-183e", "3bb-c35f-f54-fb08"
EXTRA = "84c4-6d1e-e724-bd6e"   # a hidden category the catalogues filter weapons by
BOSS_CAT = "boss-0000-0000-0001"


def _weapon(name: str, rng: str, a: str, skill: str, s: str, ap: str, d: str, keywords: str,
            **extra) -> dict:
    melee = rng == "Melee"
    ids = [("Range", "914c-b413-91e3-a132"), ("A", A_MELEE if melee else A_RANGED),
           ("WS" if melee else "BS", "95d1-95f-45b4-11d6" if melee else BS_RANGED),
           ("S", S_MELEE), ("AP", AP_MELEE), ("D", "3254-9fe6-d824-513e"),
           ("Keywords", KW_MELEE)]
    values = [rng, a, skill, s, ap, d, keywords]
    profile = {"name": name, "id": ex.new_id(), "hidden": False,
               "typeId": ex.MELEE if melee else ex.RANGED,
               "typeName": "Melee Weapons" if melee else "Ranged Weapons",
               "characteristics": [{"name": n, "typeId": i, "$text": v}
                                   for (n, i), v in zip(ids, values)]}
    profile.update(extra)
    return profile


def _mod(kind: str, field: str, value: str, scope: str = "", affects: str = "",
         conditions: list[dict] | None = None) -> dict:
    out = {"type": kind, "value": value, "field": field}
    if scope:
        out["scope"] = scope
    if affects:
        out["affects"] = affects
    if conditions:
        out["conditions"] = conditions
    return out


def _checkout(folder):
    melee = "self.entries.recursive.profiles.Melee Weapons"
    enhancements = {"name": "Enhancements", "id": ex.new_id(), "hidden": False,
                    "constraints": ex.limits(None, 1), "selectionEntries": [
                        ex.entry("Killa Klaw", modifierGroups=[{"type": "and", "modifiers": [
                            _mod("append", "annotation", "Killa Klaw", "model", melee),
                            _mod("increment", A_MELEE, "2", "model", melee),
                            _mod("append", KW_MELEE, "Lethal Hits", "model", melee)]}],
                            costs=[{"name": "pts", "typeId": ex.PTS, "value": 20}]),
                        ex.entry("Extra Choppa", modifiers=[
                            _mod("decrement", AP_MELEE, "1", "model",
                                 f"self.entries.recursive.{EXTRA}.profiles.Melee Weapons")]),
                        ex.entry("Warlord Trophy", modifiers=[
                            _mod("increment", S_MELEE, "1", "model", melee, [
                                {"type": "atLeast", "value": 1, "field": "selections",
                                 "scope": "force", "childId": "DETACHMENT-ID",
                                 "shared": True}])])]}
    choppa = ex.entry("Big choppa", constraints=ex.limits(1, 1), profiles=[
        _weapon("Big choppa", "Melee", "4", "2+", "7", "-1", "2", "-")],
        categoryLinks=[{"name": "Extra Attacks Weapon", "id": ex.new_id(), "hidden": True,
                        "targetId": EXTRA, "primary": False}])
    claw = ex.entry("Power klaw", profiles=[
        _weapon("Power klaw", "Melee", "3", "3+", "9", "-2", "2", "-")])
    slugga = ex.entry("Slugga", constraints=ex.limits(1, 1), profiles=[
        _weapon("Slugga", '12"', "1", "5+", "4", "0", "1", "Pistol", modifiers=[
            _mod("set", BS_RANGED, "4+", conditions=[
                {"type": "instanceOf", "value": 1, "field": "selections",
                 "scope": "ancestor", "childId": BOSS_CAT, "shared": True}]),
            _mod("append", A_RANGED, "+0", conditions=[
                {"type": "atLeast", "value": 1, "field": "selections", "scope": "self",
                 "childId": "HEIRLOOM-ID", "shared": True}])])])
    boss = ex.entry("Warboss", "model",
                    profiles=[ex.statline("Warboss", 10, "5", "4+", "6")],
                    selectionEntries=[choppa, slugga, claw],
                    selectionEntryGroups=[enhancements],
                    costs=[{"name": "pts", "typeId": ex.PTS, "value": 70}],
                    categoryLinks=[{"name": "Boss", "id": ex.new_id(), "targetId": BOSS_CAT,
                                    "primary": True}])
    # a unit whose ability adds 1 to the Strength of every melee weapon of its models
    choppa_boy = ex.entry("Choppa", constraints=ex.limits(1, 1), profiles=[
        _weapon("Choppa", "Melee", "3", "3+", "4", "-1", "1", "-")])
    boy = ex.entry("Boy", "model", constraints=ex.limits(5, 10),
                   profiles=[ex.statline("Boy", 10, "5", "5+", "1")],
                   selectionEntries=[choppa_boy])
    boyz = ex.entry("Boyz", "unit", selectionEntries=[boy],
                    costs=[{"name": "pts", "typeId": ex.PTS, "value": 80}],
                    modifiers=[_mod("increment", S_MELEE, "1", "",
                                    "self.entries.recursive.profiles.Melee Weapons")])
    system = {"id": ex.SYSTEM[10], "name": "Test 40k 10", "revision": 1,
              "battleScribeVersion": 2.03, "type": "gameSystem"}
    faction = {"id": ex.new_id(), "name": "Xenos - Mod Faction", "library": False,
               "gameSystemId": ex.SYSTEM[10], "revision": 1, "type": "catalogue",
               "sharedSelectionEntries": [boss, boyz],
               "entryLinks": [ex.link("Warboss", boss), ex.link("Boyz", boyz)]}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "Test 40k.gst").write_text(ex.to_xml("gameSystem", system), encoding="utf-8")
    (folder / "Xenos - Mod Faction.cat").write_text(ex.to_xml("catalogue", faction),
                                                    encoding="utf-8")
    return folder


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHHAMMER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    return _checkout(tmp_path / "data")


def _weapons(entry) -> dict[str, str]:
    return {w.name: str(w.profiles[0]) for g in entry.groups for w in g.weapons}


def _same(line: str, typed: str, target: str = "MEQ") -> None:
    got, want = mh.exact(line, target), mh.exact(typed, target)
    assert got.mean("damage") == pytest.approx(want.mean("damage"), abs=1e-12, rel=0)
    assert list(got.pmf("damage")) == pytest.approx(list(want.pmf("damage")), abs=1e-12, rel=0)


def test_a_datasheet_by_name_gets_its_unconditional_and_evaluable_modifiers(checkout):
    sheets = mh.datasheets(checkout, progress=False)
    boss = sheets.get("Warboss")
    weapons = _weapons(boss.entry)
    assert "BS4+" in weapons["Slugga"] and "A1 " in weapons["Slugga"]   # instanceOf Boss
    assert "A4 WS2+ S7 AP-1 D2" in weapons["Big choppa"]                # no enhancement
    boyz = sheets.get("Boyz", 10)
    _same(_weapons(boyz.entry)["Choppa"], "Choppa: Melee A3 WS3+ S5 AP-1 D1")  # the unit's +1 S
    assert boyz.notes == ()


def test_a_text_list_applies_its_enhancement_and_notes_a_force_condition(tmp_path, checkout):
    path = tmp_path / "list.txt"
    path.write_text("Mods (500 Points)\n\nCHARACTERS\n\n"
                    "Warboss (90 Points)\n  \u2022 Warlord\n  \u2022 1x Big choppa\n"
                    "  \u2022 1x Slugga\n  \u2022 Enhancement: Killa Klaw (+20 pts)\n\n"
                    "Warboss (70 Points)\n  \u2022 1x Big choppa\n  \u2022 1x Power klaw\n"
                    "  \u2022 1x Slugga\n  \u2022 Enhancements: Extra Choppa\n\n"
                    "Warboss (70 Points)\n  \u2022 1x Big choppa\n"
                    "  \u2022 Enhancement: Warlord Trophy\n"
                    "  \u2022 Enhancement: No Such Thing\n\n"
                    "OTHER DATASHEETS\n\nBoyz (80 Points)\n  \u2022 5x Boy\n"
                    "    \u25e6 5x Choppa\n", encoding="utf-8")
    army = mh.load_roster(path, data=checkout)
    klaw, extra, trophy = (_weapons(e) for e in army.entries[:3])
    _same(klaw["Big choppa"], "Big choppa: Melee A6 WS2+ S7 AP-1 D2 [LETHAL HITS]")
    _same(klaw["Slugga"], 'Slugga: 12" A1 BS4+ S4 AP0 D1 [PISTOL]')     # ranged: unchanged
    # the category filter: only the weapon with the 'Extra Attacks Weapon' category
    _same(extra["Big choppa"], "Big choppa: Melee A4 WS2+ S7 AP-2 D2")
    _same(extra["Power klaw"], "Power klaw: Melee A3 WS3+ S9 AP-2 D2")
    _same(trophy["Big choppa"], "Big choppa: Melee A4 WS2+ S7 AP-1 D2")  # not applied...
    notes = " | ".join(army.notes)
    assert "'Warboss': modifier 'increment S 1' of 'Warlord Trophy' depends on " \
           "'DETACHMENT-ID' in its force, which a datasheet alone does not hold: not " \
           "applied" in notes                                             # ...and said
    assert "enhancement 'No Such Thing' is not among the checkout's enhancements" in notes
    _same(_weapons(army.entries[3])["Choppa"], "Choppa: Melee A3 WS3+ S5 AP-1 D1")
    # by hand: 6 attacks, hits on 2+ (a 6 wounds: Lethal Hits), wounds S7 v T4 on 3+, saves
    # 3+ at AP-1 on 4+, D2 (20 models of W2: none wasted): 6 x (1/6 + 4/6 x 2/3) x 1/2 x 2 = 11/3
    assert mh.exact(klaw["Big choppa"], "20x T4 Sv3+ W2").mean("damage") == \
        pytest.approx(11 / 3, abs=1e-12)
