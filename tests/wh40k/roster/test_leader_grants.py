"""What a Leader grants the weapons of the unit it leads (issue 35): read from the ability's
text in roster files written here (New Recruit JSON with the file's Leading link, BattleScribe
XML with attach=), applied to the attached unit; the analysis equals the same list with the
ability typed in its weapons' Keywords (or the roll option given directly), exact to 1e-12.
Every ability text here is written for these tests."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.wh40k.roster.leader_grants import read_grants

from tests.wh40k.bsdata.test_textlist import IOS

from . import builder as b

TARGETS = ["MEQ", "T10 Sv3+ W12 [VEHICLE]"]
LEAD = "While this model is leading a unit, "


def _army(edition: int, captain_text: str | None = None, typed: dict | None = None,
          squad_text: str | None = None) -> dict:
    """A Captain (pistol, sword) leading a Squad (5 troopers: rifle, knife).

    ``typed`` maps "captain" / "squad" to a function(keywords, melee) -> keywords, and may
    raise "S" to a function(strength, melee) -> strength: the hand-typed equivalent."""
    typed = typed or {}

    def weapons(who: str, rows) -> list[dict]:
        change = typed.get(who, lambda k, melee: k)
        strength = typed.get(who + " S", lambda s, melee: s)
        out = []
        for name, n, melee, a, skill, s, ap, d in rows:
            kw = change("-", melee)
            if edition == 11 and kw != "-":
                kw = kw.upper()
            profile = (b.melee(name, a, skill, strength(s, True), ap, d, kw) if melee else
                       b.ranged(name, '18"', a, skill, strength(s, False), ap, d, kw))
            out.append(b.selection(name, number=n, profiles=[profile]))
        return out

    abilities = [b.ability("Leader", "This model can be attached to the following unit:\n"
                           "- Test Squad")]
    if captain_text:
        abilities.append(b.ability("Battle Focus", captain_text))
    link = {"associations": [{"type": "outgoing", "to": "test-squad", "name": "Leading"}]} \
        if edition == 11 else {}
    captain = b.selection("Test Captain", "model", pts=80, categories=["Infantry", "Character"],
                          profiles=[b.statline("Test Captain", edition, 4, "3+", 5)] + abilities,
                          selections=weapons("captain", [("Heavy pistol", 1, False, "2", "2+",
                                                          "5", "-1", "2"),
                                                         ("Honed sword", 1, True, "5", "2+",
                                                          "5", "-2", "2")]), **link)
    model = b.selection("Trooper", "model", 5, selections=weapons(
        "squad", [("Service rifle", 5, False, "2", "3+", "4", "0", "1"),
                  ("Combat knife", 5, True, "3", "3+", "4", "0", "1")]))
    squad_profiles = [b.statline("Test Squad", edition, 4, "3+", 2)]
    if squad_text:
        squad_profiles.append(b.ability("Drilled", squad_text))
    squad = b.selection("Test Squad", "unit", pts=90, id="test-squad",
                        categories=["Infantry", "Battleline"], profiles=squad_profiles,
                        selections=[model])
    return b.roster(edition, "Test - Grants", [captain, squad])


def _load(tmp_path, tree: dict, edition: int, name: str):
    if edition == 11:
        path = tmp_path / f"{name}.json"
        path.write_text(b.to_json(tree), encoding="utf-8")
        return mh.load_roster(path)
    path = tmp_path / f"{name}.ros"
    path.write_text(b.to_xml(tree), encoding="utf-8")
    return mh.load_roster(path, attach="Test Captain=Test Squad")


def _with(keyword: str, melee_only: bool | None = None):
    def change(kw: str, melee: bool) -> str:
        if melee_only is not None and melee != melee_only:
            return kw
        return keyword if kw == "-" else f"{kw}, {keyword}"
    return change


def _same(a, b, rows=None):
    if rows is not None:
        a, b = a[rows(a)], b[rows(b)]
    assert list(a["attacker"]) == list(b["attacker"]) and list(a["metric"]) == list(b["metric"])
    np.testing.assert_allclose(a["value"].to_numpy(float), b["value"].to_numpy(float),
                               rtol=0, atol=1e-12)


def _compare(army, **kwargs):
    return army.compare(TARGETS, method="exact", **kwargs)


@pytest.mark.parametrize("edition", [10, 11])
def test_lethal_hits_for_the_led_unit_equals_the_keyword_typed_on_every_line(tmp_path, edition):
    text = LEAD + "weapons equipped by models in that unit have the [LETHAL HITS] ability."
    granted = _load(tmp_path, _army(edition, text), edition, "granted")
    typed = _load(tmp_path, _army(edition, typed={"captain": _with("Lethal Hits"),
                                                  "squad": _with("Lethal Hits")}),
                  edition, "typed")
    plain = _load(tmp_path, _army(edition), edition, "plain")
    assert [u.name for u in granted.units] == ["Test Squad"]
    _same(_compare(granted), _compare(typed))
    assert not np.allclose(_compare(granted)["value"], _compare(plain)["value"])
    assert any("Test Squad: 'Battle Focus' of Test Captain applied: [LETHAL HITS]" in n
               for n in granted.notes)


def test_melee_only_grants_change_only_the_melee_lines(tmp_path):
    text = (LEAD + "melee weapons equipped by models in that unit have the [SUSTAINED HITS 1] "
            "ability. " + LEAD + "add 1 to the Strength characteristic of melee weapons "
            "equipped by models in that unit.")
    granted = _load(tmp_path, _army(11, text), 11, "granted")
    plus_one = {"captain S": lambda s, melee: str(int(s) + melee),
                "squad S": lambda s, melee: str(int(s) + melee)}
    typed = _load(tmp_path, _army(11, typed={"captain": _with("Sustained Hits 1", True),
                                             "squad": _with("Sustained Hits 1", True),
                                             **plus_one}), 11, "typed")
    _same(_compare(granted), _compare(typed))
    plain = _load(tmp_path, _army(11), 11, "plain")
    _same(_compare(granted), _compare(plain), rows=lambda f: f["phase"] == "shooting")


def test_this_models_weapons_are_the_leaders_alone(tmp_path):
    text = LEAD + "weapons equipped by this model have the [DEVASTATING WOUNDS] ability."
    granted = _load(tmp_path, _army(11, text), 11, "granted")
    typed = _load(tmp_path, _army(11, typed={"captain": _with("Devastating Wounds")}), 11,
                  "typed")
    _same(_compare(granted), _compare(typed))


@pytest.mark.parametrize("sentence, phase, option", [
    ("each time a model in that unit makes a melee attack, add 1 to the Hit roll.", "fight",
     {"hit_mod": 1}),
    ("each time a model in that unit makes a ranged attack, re-roll a Hit roll of 1.",
     "shooting", {"reroll_hits": "ones"}),
    ("each time a model in that unit makes an attack, you can re-roll the Wound roll.", None,
     {"reroll_wounds": "failed"}),
])
def test_roll_grants_equal_the_option_given_directly(tmp_path, sentence, phase, option):
    granted = _load(tmp_path, _army(11, LEAD + sentence), 11, "granted")
    plain = _load(tmp_path, _army(11), 11, "plain")
    direct = _compare(plain, **option)
    mine = _compare(granted)
    if phase is None:
        _same(mine, direct)
        return
    _same(mine, direct, rows=lambda f: f["phase"] == phase)
    _same(mine, _compare(plain), rows=lambda f: f["phase"] != phase)


def test_a_bodyguards_own_grant_when_led(tmp_path):
    squad_text = ("While a CHARACTER model is leading this unit, each time a model in this unit "
                  "makes an attack, add 1 to the Wound roll.")
    granted = _load(tmp_path, _army(11, squad_text=squad_text), 11, "granted")
    plain = _load(tmp_path, _army(11), 11, "plain")
    _same(_compare(granted), _compare(plain, wound_mod=1))


def test_a_condition_follows_the_situation(tmp_path):
    text = (LEAD + "weapons equipped by models in that unit have the [LETHAL HITS] ability, if "
            "that unit remained stationary this turn.")
    granted = _load(tmp_path, _army(11, text), 11, "granted")
    typed = _load(tmp_path, _army(11, typed={"captain": _with("Lethal Hits", False),
                                             "squad": _with("Lethal Hits", False)}), 11, "typed")
    plain = _load(tmp_path, _army(11), 11, "plain")
    _same(_compare(granted, stationary=True), _compare(typed, stationary=True))
    _same(_compare(granted), _compare(plain))


@pytest.mark.parametrize("text, words", [
    (LEAD + "each time a model in that unit makes an attack that targets a unit within range "
     "of an objective marker, add 1 to the Hit roll.", "cannot be read"),
    (LEAD + "weapons equipped by models in that unit have the [HOLY FIRE] ability.",
     "cannot be read"),
    (LEAD + "each time this model makes an attack, add 1 to the Hit roll.",
     "its own attacks only) is not applied"),
])
def test_what_cannot_be_read_or_applied_is_a_note_and_changes_nothing(tmp_path, text, words):
    granted = _load(tmp_path, _army(11, text), 11, "granted")
    plain = _load(tmp_path, _army(11), 11, "plain")
    notes = list(granted.notes) + [n for e in granted.entries for n in e.notes]
    found = [n for n in notes if words in n]
    assert len(found) == 1 and "'Battle Focus'" in found[0]
    assert "Test Squad" in found[0] or any(
        "'Battle Focus'" in n for n in granted.entries[0].notes if words in n)
    assert not any("is not modelled" in n for n in notes)
    _same(_compare(granted), _compare(plain))


def test_an_unattached_leader_grants_nothing_and_says_when_it_would(tmp_path):
    tree = _army(11, LEAD + "weapons equipped by models in that unit have the [LETHAL HITS] "
                 "ability.")
    tree["roster"]["forces"][0]["selections"][1].pop("associations")
    path = tmp_path / "apart.json"
    path.write_text(json.dumps(tree), encoding="utf-8")
    army = mh.load_roster(path)
    assert army.granted_buffs() == {} and [u.name for u in army.units] == ["Test Captain",
                                                                           "Test Squad"]
    captain = army.entries[0]
    assert any("applied when it leads a unit" in n for n in captain.notes)
    weapons = [p for g in army.unit("Test Captain").groups for c in g.weapons for p in c.profiles]
    assert not any(p.has("LETHAL HITS") for p in weapons)


def test_the_reader_words():
    grants, notes = read_grants([
        ("A", LEAD + "ranged weapons equipped by models in that unit have the [sustained hits "
         "1] and [lethal hits] abilities."),
        ("B", LEAD + "each time a model in that unit makes a melee attack, if that unit made a "
         "charge move this turn, add 1 to the Wound roll."),
        ("C", LEAD + "improve the Armour Penetration characteristic of ranged weapons equipped "
         "by models in that unit by 1."),
        ("D", LEAD + "models in that unit have the Feel No Pain 5+ ability."),
    ])
    assert [(g.ability, str(g.buff.grants[0]), g.buff.weapons, g.buff.conditions, g.who)
            for g in grants] == [
        ("A", "[SUSTAINED HITS 1]", "RANGED", (), "unit"),
        ("B", "+1 to wound", "MELEE", ("charged",), "unit"),
        ("C", "+1 AP", "RANGED", (), "unit")]
    assert len(grants[0].buff.grants) == 2 and notes == ()


# -- a 10th-edition BSData datasheet (the user's checkout) printing such a Leader ability -----
def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _checkout(folder, ability_text: str | None = None, keyword: str | None = None):
    """The example checkout in 10th-edition XML, with ``ability_text`` printed on the Hero's
    datasheet, or ``keyword`` typed in the Keywords of the Hero's and the Strike Squad's
    weapons."""
    from mathhammer.wh40k.bsdata import example

    folder.mkdir(parents=True)
    for stem, (root, tree) in example.checkout(10).items():
        for node in _walk(tree):
            if ability_text and node.get("type") == "model" and node.get("name") == "Hero":
                node["profiles"].append(example.ability("Veteran's Eye", ability_text))
            if keyword and node.get("typeName") in ("Ranged Weapons", "Melee Weapons") \
                    and not stem.startswith("Library"):   # not the Drone Wing's
                for char in node["characteristics"]:
                    if char["name"] == "Keywords":
                        old = char["$text"]
                        char["$text"] = keyword if old == "-" else f"{old}, {keyword}"
        suffix = ".gst" if root == "gameSystem" else ".cat"
        (folder / f"{stem}{suffix}").write_text(example.to_xml(root, tree), encoding="utf-8")
    return folder


def test_a_bsdata_datasheets_leader_ability_is_applied_through_the_same_path(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setenv("MATHHAMMER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    path = tmp_path / "list.txt"
    path.write_text(IOS, encoding="utf-8")   # Hero leading Strike Squad, a Drone Wing
    text = LEAD + "weapons equipped by models in that unit have the [LETHAL HITS] ability."
    granted = mh.load_roster(path, data=_checkout(tmp_path / "granted", text))
    typed = mh.load_roster(path, data=_checkout(tmp_path / "typed", keyword="Lethal Hits"))
    plain = mh.load_roster(path, data=_checkout(tmp_path / "plain"))
    assert granted.edition == 10
    assert [u.name for u in granted.units] == ["Strike Squad", "Drone Wing"]
    _same(_compare(granted), _compare(typed))
    assert not np.allclose(_compare(granted)["value"], _compare(plain)["value"])
    assert any("'Veteran's Eye' of Hero applied" in n for n in granted.notes)


def test_the_scenario_file_carries_the_grants(tmp_path):
    text = (LEAD + "weapons equipped by models in that unit have the [LETHAL HITS] ability. "
            + LEAD + "each time a model in that unit makes a ranged attack, re-roll a Hit roll "
            "of 1.")
    army = _load(tmp_path, _army(11, text), 11, "granted")
    toml = army.to_toml()
    squad = toml.split('[units."Test Squad"]')[1].split("[units.")[0]
    assert 'Service rifle: 18\\" A2 BS3+ S4 AP0 D1 [LETHAL HITS]' in squad
    assert "# granted by its Leader: Battle Focus" in toml
    assert 'buffs = ["re-roll hits of 1 to RANGED weapons"]' in toml
    path = tmp_path / "list.toml"
    path.write_text(toml, encoding="utf-8")
    assert mh.load_scenario(path).activations[0].buffs[0].grants[0].value == "ones"


def test_the_meta_matrix_applies_the_roll_grants(tmp_path):
    from mathhammer.wh40k.roster.meta import meta

    text = LEAD + "each time a model in that unit makes a melee attack, add 1 to the Hit roll."
    granted = _load(tmp_path, _army(11, text), 11, "granted")
    plain = _load(tmp_path, _army(11), 11, "plain")
    result = meta({"granted": granted, "plain": plain}, method="exact", phases="fight")
    assert "Leader grants applied: granted: Test Squad: +1 to hit to MELEE weapons" in \
        result.footer()
    frame = granted.against(plain, method="exact", phases=["fight"])
    rows = frame[(frame["metric"] == "expected_models_destroyed")
                 & (frame["attacker"] == "Test Squad")]
    plan = result.plans.set_index(["list", "unit"]).loc[("granted", "Test Squad")]
    assert plan["models"] == pytest.approx(rows["value"].max(), rel=1e-12, abs=1e-300)
    without = plain.against(plain, method="exact", phases=["fight"])
    assert rows["value"].max() > without[(without["metric"] == "expected_models_destroyed")
                                         & (without["attacker"] == "Test Squad")]["value"].max()
