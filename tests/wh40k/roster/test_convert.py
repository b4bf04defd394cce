"""Roster files to units: one feature of the format per test, on files written for them."""

import json

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import OptionError, RosterError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.roster.api import group_dict

from .conftest import FILES


def entry(roster, name):
    return next(e for e in roster.entries if e.name == name)


def group(roster, unit, name):
    return next(g for g in entry(roster, unit).groups if g.name == name)


@pytest.mark.parametrize("plain, zipped, edition", [("marines_10e.ros", "marines_10e.rosz", 10),
                                                     ("orks_11e.ros", "orks_11e.rosz", 11)])
def test_both_editions_plain_and_zipped(plain, zipped, edition):
    a, b = mh.load_roster(FILES / plain), mh.load_roster(FILES / zipped)
    assert a.edition == b.edition == edition
    assert a.to_dict() == b.to_dict()


def test_listing_json_shape(capsys):
    assert main(["roster", str(FILES / "marines_10e.ros"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"edition", "faction", "points", "units"}
    assert out["edition"] == 10 and out["faction"] == "Imperium - Space Marines"
    assert out["points"] == 255
    assert [u["name"] for u in out["units"]] == ["Captain", "Intercessor Squad",
                                                 "Devastator Squad"]
    for unit in out["units"]:
        assert set(unit) == {"name", "points", "models", "groups", "attached_to", "notes"}
        for g in unit["groups"]:
            assert set(g) == {"name", "count", "profile", "weapons"}
            parse_target(g["profile"])  # pastable as it is
            for line in g["weapons"]:
                parse_weapon(line)


def test_listing_lines_are_exact():
    army = mh.load_roster(FILES / "marines_10e.ros")
    squad = entry(army, "Intercessor Squad")
    assert [group_dict(g) for g in squad.groups] == [
        {"name": "Intercessor", "count": 4, "profile": "T4 Sv3+ W2 [BATTLELINE, IMPERIUM, INFANTRY]",
         "weapons": ['4x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
                     "4x Close combat weapon: Melee A3 WS3+ S4 AP0 D1"]},
        {"name": "Intercessor Sergeant", "count": 1,
         "profile": "T4 Sv3+ W2 [BATTLELINE, IMPERIUM, INFANTRY]",
         "weapons": ['1x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
                     "1x Power fist: Melee A3 WS3+ S8 AP-2 D2"]}]


def test_weapon_counts_on_model_groups():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    boys = group(orks, "Boyz", "Boy")
    assert boys.count == 9
    assert [(w.name, w.per_model) for w in boys.weapons] == [("Slugga", 1), ("Choppa", 1)]
    assert group_dict(boys)["weapons"][0].startswith("9x Slugga:")
    nob = group(orks, "Boyz", "Boss Nob")
    assert group_dict(nob)["weapons"][0] == '1x Slugga: 12" A1 BS5+ S4 AP0 D1 [PISTOL]'


def test_unit_wide_weapons_are_shared_out():
    # two lascannons hang off a five-model unit: two models carry one each
    army = mh.load_roster(FILES / "marines_10e.ros")
    groups = entry(army, "Devastator Squad").groups
    assert [(g.name, g.count) for g in groups] == [("Devastator Marine", 3),
                                                   ("Devastator Marine w/ Lascannon", 2)]
    assert group_dict(groups[1])["weapons"] == ['2x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1 [HEAVY]']


def test_weapon_profiles_directly_on_a_model():
    warboss = group(mh.load_roster(FILES / "orks_11e.ros"), "Warboss", "Warboss")
    assert "Kustom shoota" in [w.name for w in warboss.weapons]


def test_multi_statline_unit():
    army = mh.load_roster(FILES / "multi_statline_10e.ros")
    groups = {g.name: g for g in entry(army, "Kommandos").groups}
    assert groups["Kommando"].count == 8
    assert groups["Kommando Boss Nob"].profile.toughness == 5  # closest name: Kommandos
    squig = groups["Bomb Squigs"].profile  # profile "Bomb Squig"
    assert (squig.toughness, squig.save, squig.wounds) == (3, 6, 1)
    assert entry(army, "Kommandos").models == 11


def test_weapon_with_modes():
    champion = group(mh.load_roster(FILES / "features_10e.ros"), "Blade Champion", "Blade Champion")
    (swords,) = [w for w in champion.weapons if w.name == "Vaultswords"]
    assert [p.name for p in swords.profiles] == ["Vaultswords - Behemor",
                                                 "Vaultswords - Hurricanis",
                                                 "Vaultswords - Victus"]
    kans = group(mh.load_roster(FILES / "orks_11e.ros"), "Killa Kans", "Killa Kan")
    (blasta,) = [w for w in kans.weapons if w.name == "Kan blasta"]
    assert [str(p) for p in blasta.profiles] == [
        'Kan Blasta - Kill Shot: 24" A1 BS5+ S9 AP-2 DD6 [BLAST]',
        'Kan Blasta - Dakka: 24" AD6 BS5+ S5 AP0 D1 [BLAST 2, TORRENT]']


def test_ranged_and_melee_profiles_on_one_selection():
    guard = group(mh.load_roster(FILES / "features_10e.ros"), "Custodian Guard", "Custodian Guard")
    kinds = [(w.name, w.melee) for w in guard.weapons]
    assert kinds == [("Guardian spear", False), ("Guardian spear (melee)", True)]


def test_invulnerable_save_from_ability_text():
    army = mh.load_roster(FILES / "features_10e.ros")
    assert group(army, "Custodian Guard", "Custodian Guard").profile.invuln == 4
    # Blade Champion: only the wargear's text ("The bearer has a 4+ invulnerable save")
    assert group(army, "Blade Champion", "Blade Champion").profile.invuln == 4


def test_invulnerable_save_characteristic_11e():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    assert group(orks, "Warboss", "Warboss").profile.invuln == 5
    assert group(orks, "Killa Kans", "Killa Kan").profile.invuln is None


def test_feel_no_pain_rule_and_conditional_note():
    army = mh.load_roster(FILES / "features_10e.ros")
    plague = entry(army, "Plague Marines")
    assert plague.groups[0].profile.fnp == 5
    # "while a Character model is leading this unit": applied once a Leader is attached
    assert any("Aura of Rot" in n and "a Leader is attached" in n for n in plague.notes)
    assert any("Putrid Bulk" in n and "not applied" in n and "strength greater" in n
               for n in plague.notes)


def test_10th_edition_conversion_is_kept_on_the_weapon():
    # [CONVERSION] is a 10th-edition ability the engines model (edition=10, beyond_12)
    plague = entry(mh.load_roster(FILES / "features_10e.ros"), "Plague Marines")
    assert not any("Conversion" in n for n in plague.notes)
    incinerator = next(w for w in plague.groups[0].weapons if w.name == "Plasma incinerator")
    assert [a.name for a in incinerator.profiles[0].abilities] == ["CONVERSION", "RAPID FIRE"]


def test_an_ability_of_the_other_edition_is_left_out_with_a_note(tmp_path):
    # BSData's 11th-edition data still gives some weapons 10th's [CONVERSION]; under 11th
    # rules the weapon would be refused and the whole list with it. The same list as an
    # 11th-edition file: the ability goes, with a note; the 10th-edition file keeps it.
    text = (FILES / "features_10e.ros").read_text(encoding="utf-8")
    eleventh = tmp_path / "features_11e.ros"
    eleventh.write_text(text.replace("sys-352e-adc2-7639-d6a9", "sys-352e-adc2-7639-d610"),
                        encoding="utf-8")
    plague = entry(mh.load_roster(eleventh), "Plague Marines")
    incinerator = next(w for w in plague.groups[0].weapons if w.name == "Plasma incinerator")
    assert [a.name for a in incinerator.profiles[0].abilities] == ["RAPID FIRE"]
    assert ("Plasma incinerator: [CONVERSION] is a rule of 10th edition, not of 11th: left "
            "out") in plague.notes
    tenth = entry(mh.load_roster(FILES / "features_10e.ros"), "Plague Marines")
    assert not any("rule of 10th edition" in n for n in tenth.notes)


def test_unmodelled_keyword_becomes_a_note():
    plague = entry(mh.load_roster(FILES / "features_10e.ros"), "Plague Marines")
    assert "Plague knife: keyword 'Plague Weapon' is not modelled (ignored)" in plague.notes
    knife = next(w for w in plague.groups[0].weapons if w.name == "Plague knife")
    assert [a.name for a in knife.profiles[0].abilities] == ["LETHAL HITS"]


def test_scoped_keywords_11e():
    warboss = group(mh.load_roster(FILES / "orks_11e.ros"), "Warboss", "Warboss")
    klaw = next(w for w in warboss.weapons if w.name == "Power klaw").profiles[0]
    (lethal,) = klaw.abilities
    assert lethal.scope == ("NON-MONSTER", "NON-VEHICLE")
    assert lethal.applies_to(frozenset({"INFANTRY"}))
    assert not lethal.applies_to(frozenset({"VEHICLE"}))
    assert not lethal.applies_to(frozenset({"MONSTER"}))


def test_unit_without_statline():
    army = mh.load_roster(FILES / "features_10e.ros")
    marker = entry(army, "Objective marker")
    assert marker.points == 0 and not marker.has_statline
    assert str(marker.groups[0].profile) == "T1 Sv- W1 [FORTIFICATION]"  # a placeholder
    assert any("no statline in the file" in n and "never a target" in n for n in marker.notes)
    assert "Objective marker" in [u.name for u in army.units]      # it may attack
    assert "Objective marker" not in [u.name for u in army.targets]


def test_points_with_enhancements_and_other_costs():
    army = mh.load_roster(FILES / "marines_10e.ros")
    assert entry(army, "Captain").points == 90  # 80 + a 10-point enhancement
    assert army.points == 255
    assert army.unit("Captain").points == 90
    orks = mh.load_roster(FILES / "orks_11e.ros")
    assert orks.points == 330
    assert "Detachment: War Horde (1 Detachment Points)" in orks.notes


def test_duplicate_unit_names():
    names = [e.name for e in mh.load_roster(FILES / "orks_11e.ros").entries]
    assert names == ["Warboss", "Boyz", "Boyz (2)", "Killa Kans"]


def test_keywords_from_categories():
    captain = group(mh.load_roster(FILES / "marines_10e.ros"), "Captain", "Captain")
    assert captain.profile.keywords == {"CHARACTER", "INFANTRY", "IMPERIUM"}


def test_new_recruit_json_leading_and_supporting():
    army = mh.load_roster(FILES / "leaders_11e.json")
    assert army.edition == 11 and army.points == 245
    assert army.attached_to("Captain") == "Intercessor Squad"
    assert army.attached_to("Ancient") == "Intercessor Squad"
    squad = army.unit("Intercessor Squad")
    assert [(g.name, g.role) for g in squad.groups] == [
        ("Intercessor", "bodyguard"), ("Captain", "leader"), ("Ancient", "support")]
    assert squad.points == 80 + 80 + 45
    assert [u.name for u in army.units] == ["Intercessor Squad", "Hellblaster Squad"]
    listing = army.to_dict()["units"]
    assert [u["attached_to"] for u in listing] == ["Intercessor Squad", "Intercessor Squad",
                                                   None, None]


def test_attach_option_for_10th_edition():
    army = mh.load_roster(FILES / "marines_10e.ros", attach="Captain=Intercessor Squad")
    squad = army.unit("Intercessor Squad")
    assert [g.role for g in squad.groups] == ["bodyguard", "bodyguard", "leader"]
    assert squad.points == 170
    assert mh.load_roster(FILES / "marines_10e.ros",
                     attach={"Captain": "Intercessor Squad"}).to_dict() == army.to_dict()


@pytest.mark.parametrize("spec, message", [("Captian=Intercessor Squad", "did you mean"),
                                           ("Captain=Captain", "itself")])
def test_attach_errors(spec, message):
    with pytest.raises(RosterError, match=message):
        mh.load_roster(FILES / "marines_10e.ros", attach=spec)


def test_attach_needs_an_equals_sign():
    with pytest.raises(OptionError, match="LEADER=BODYGUARD"):
        mh.load_roster(FILES / "marines_10e.ros", attach="Captain")


def test_to_toml_runs_as_a_scenario(tmp_path):
    army = mh.load_roster(FILES / "leaders_11e.json")
    path = tmp_path / "army.toml"
    army.to_toml(path)
    scenario = mh.load_scenario(path)
    squad = scenario.units["Intercessor Squad"]
    assert squad == army.unit("Intercessor Squad")
    assert scenario.units["Hellblaster Squad"] == army.unit("Hellblaster Squad")
    result = mh.run(scenario, trials=2_000, seed=1)
    assert result.models_destroyed("Enemy").mean > 0


def test_cli_to_scenario(tmp_path, capsys):
    out = tmp_path / "army.toml"
    assert main(["roster", str(FILES / "orks_11e.rosz"), "--to-scenario", str(out)]) == 0
    assert main(["run", str(out), "--trials", "1000", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert "Boyz (2)" in result["units"]


def test_nested_forces_and_custom_names(tmp_path):
    text = (FILES / "marines_10e.ros").read_text()
    start = text.index('<selection id="s-las"')
    end = text.index("</selections>\n    </force>")
    devastators = text[start:end]
    nested = ('<forces><force id="f-2" name="Allied Detachment" entryId="e-f2" '
              'catalogueId="cat-2" catalogueRevision="1" catalogueName="Imperium - Agents">'
              f"<selections>{devastators}</selections></force></forces>")
    text = text[:start] + text[end:]
    text = text.replace("</selections>\n    </force>", "</selections>" + nested + "\n    </force>")
    text = text.replace('name="Captain" entryId="e-cap"',
                        'name="Captain" customName="Captain Titus" entryId="e-cap"')
    path = tmp_path / "nested.ros"
    path.write_text(text)
    army = mh.load_roster(path)
    assert [e.name for e in army.entries] == ["Captain", "Intercessor Squad", "Devastator Squad"]
    assert army.faction == "Imperium - Space Marines + Imperium - Agents"
    assert "custom name: Captain Titus" in entry(army, "Captain").notes


def test_top_level_upgrade_with_a_statline_is_a_unit(tmp_path):
    text = (FILES / "marines_10e.ros").read_text().replace(
        'name="Devastator Squad" entryId="e-dev" number="1" type="unit"',
        'name="Devastator Squad" entryId="e-dev" number="1" type="upgrade"')
    path = tmp_path / "upgrade.ros"
    path.write_text(text)
    army = mh.load_roster(path)
    assert entry(army, "Devastator Squad").models == 5


def test_recorded_links_that_cannot_hold_are_notes(tmp_path):
    data = json.loads((FILES / "leaders_11e.json").read_text())
    selections = data["roster"]["forces"][0]["selections"]
    hellblasters = selections[4]
    hellblasters["associations"] = [{"type": "outgoing", "to": "sq-intercessors",
                                     "name": "Supporting"}]
    path = tmp_path / "three.json"
    path.write_text(json.dumps(data))
    army = mh.load_roster(path)
    assert army.attached_to("Hellblaster Squad") is None
    assert any("already has two units attached" in n for n in army.notes)
    with pytest.raises(RosterError, match="already has two units attached"):
        mh.load_roster(FILES / "leaders_11e.json", attach="Hellblaster Squad=Intercessor Squad")


def test_damage_reduction_from_ability_text():
    army = mh.load_roster(FILES / "features_10e.ros")
    plague = entry(army, "Plague Marines")
    assert (plague.damage_minus, plague.damage_halved) == (1, False)
    assert army.unit("Plague Marines").damage_minus == 1
    assert any("'Putrid Bulk'" in n and "not applied" in n for n in plague.notes)
    assert "damage_minus = 1" in army.to_toml()


def test_leader_ability_suggests_an_attachment():
    army = mh.load_roster(FILES / "marines_10e.ros")
    assert entry(army, "Captain").can_lead == ("Intercessor Squad",)
    assert any(n.startswith("Captain can lead Intercessor Squad") for n in army.notes)
    attached = mh.load_roster(FILES / "marines_10e.ros", attach="Captain=Intercessor Squad")
    assert not any("can lead" in n for n in attached.notes)


def test_html_listing():
    page = mh.load_roster(FILES / "orks_11e.ros")._repr_html_()
    assert "<table" in page and "Boyz (2)" in page and "11th edition" in page


def test_single_model_datasheet_with_an_attendant_model(tmp_path):
    skull = ('<selection id="s-skull" name="Servo-skull" entryId="e-skull" number="1" '
             'type="model"><profiles><profile id="p-skull" name="Servo-skull" hidden="false" '
             'typeId="t-unit" typeName="Unit"><characteristics>'
             '<characteristic name="T" typeId="t">2</characteristic>'
             '<characteristic name="SV" typeId="sv">6+</characteristic>'
             '<characteristic name="W" typeId="w">1</characteristic>'
             '</characteristics></profile></profiles></selection>')
    text = (FILES / "marines_10e.ros").read_text()
    anchor = '<selection id="s-cap-pist"'
    path = tmp_path / "skull.ros"
    path.write_text(text.replace(anchor, skull + anchor, 1))
    captain = entry(mh.load_roster(path), "Captain")
    assert [(g.name, g.count, g.profile.toughness) for g in captain.groups] == [
        ("Captain", 1, 4), ("Servo-skull", 1, 2)]
    assert [w.name for w in captain.groups[0].weapons] == ["Bolt pistol", "Power fist"]
    assert captain.groups[1].weapons == ()
    assert captain.models == 2


def test_incoming_links_in_the_associations_list(tmp_path):
    data = json.loads((FILES / "leaders_11e.json").read_text())
    selections = data["roster"]["forces"][0]["selections"]
    for s in selections:
        s.pop("associations", None)
        if "incomingAssociations" in s:
            s["associations"] = s.pop("incomingAssociations")
    path = tmp_path / "incoming.json"
    path.write_text(json.dumps(data))
    army = mh.load_roster(path)
    assert army.attached_to("Captain") == army.attached_to("Ancient") == "Intercessor Squad"


@pytest.mark.parametrize("cost", [{"name": "pts", "value": ""}, {"name": "pts", "value": None},
                                  {"name": "pts"}])
def test_a_cost_without_a_value_is_refused_not_zero_points(tmp_path, cost):
    """New Recruit writes every cost as {name, typeId, value: number}; a unit whose cost had
    an empty, null or missing value was listed at 0 points (120 in the file it came from)."""
    data = json.loads((FILES / "real_10e.json").read_text(encoding="utf-8"))
    unit = data["roster"]["forces"][0]["selections"][2]
    assert unit["name"] == "Split Horrors" and unit["costs"][0]["value"] == 120
    unit["costs"] = [cost]
    path = tmp_path / "list.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RosterError) as caught:
        mh.load_roster(path)
    assert str(caught.value).startswith(f"{path}: 'Split Horrors' costs ''")
    assert str(caught.value).endswith("a cost is a number from 0 to 999,999,999: export the "
                                      "list again")


def _real_list(tmp_path, edit, suffix=".json"):
    """real_10e.json with ``edit`` applied to its top-level selections, written out."""
    data = json.loads((FILES / "real_10e.json").read_text(encoding="utf-8"))
    edit(data["roster"]["forces"][0]["selections"])
    path = tmp_path / f"list{suffix}"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda units: units[1].update(name="Warded\x1b]0;x\x07 Sentinels"),
     "unit 'Warded\\x1b]0;x\\x07 Sentinels': selection name 'Warded\\x1b]0;x\\x07 Sentinels' "
     "holds '\\x1b' (a control character): rename it in your list builder"),
    (lambda units: units[1]["selections"][0].update(name="Senti\u202enel"),
     "unit 'Warded Sentinels': selection name 'Senti\\u202enel' holds '\\u202e' (right-to-left "
     "override, a text-direction control): rename it in your list builder"),
    (lambda units: units[2]["profiles"][0].update(name="Blue\x9b Horror"),
     "unit 'Split Horrors': profile name 'Blue\\x9b Horror' holds '\\x9b' (a control "
     "character): rename it in your list builder"),
])
def test_a_control_character_in_a_roster_name_is_refused_as_an_escape(tmp_path, edit, message):
    path = _real_list(tmp_path, edit)
    with pytest.raises(RosterError) as caught:
        mh.load_roster(path)
    assert str(caught.value) == f"{path}: {message}"


def test_line_breaks_and_tabs_in_roster_texts_are_spaces(tmp_path):
    def edit(units):
        units[2]["profiles"][0]["name"] = "Blue\tHorror"
        units[2]["profiles"][0]["characteristics"][0]["$text"] = '6"\r\n'
    assert mh.load_roster(_real_list(tmp_path, edit)).entries[1].name == "Split Horrors"


def test_a_control_character_in_an_xml_roster_is_refused(tmp_path):
    text = (FILES / "real_10e.ros").read_text(encoding="utf-8")
    path = tmp_path / "list.ros"
    path.write_text(text.replace('name="Split Horrors"', 'name="Split&#x9b;Horrors"', 1),
                    encoding="utf-8")
    with pytest.raises(RosterError, match=r"unit 'Split\\x9bHorrors': selection name "
                       r"'Split\\x9bHorrors' holds '\\x9b' \(a control character\)"):
        mh.load_roster(path)


@pytest.mark.parametrize("index, name, number, rule", [
    (2, "Split Horrors", 0, "a datasheet in a list is taken at least once"),
    (3, "Star Engine", 0, "a datasheet in a list is taken at least once"),
    (1, "Warded Sentinels", 2, "a datasheet's selection is one unit, its model selections "
     "count its models"),
    (3, "Star Engine", 3, "a datasheet's selection is one unit, its model selections count "
     "its models"),
])
def test_a_datasheet_numbered_other_than_once_is_refused(tmp_path, index, name, number, rule):
    """The numbers below a datasheet are totals (a model x9 > a weapon x9 is nine weapons):
    'number = 2' on a unit gave the same list as 1, 'number = 0' listed '0 model(s), 300
    points'."""
    def edit(units):
        assert units[index]["name"] == name and units[index]["number"] == 1
        units[index]["number"] = number
    path = _real_list(tmp_path, edit)
    with pytest.raises(RosterError) as caught:
        mh.load_roster(path)
    fix = ("export the list again" if number == 0 else
           "export the list again with each unit as a selection of its own")
    assert str(caught.value) == f"{path}: unit '{name}' has number {number}: {rule}; {fix}"


def test_a_model_selection_numbers_its_models(tmp_path):
    def edit(units):
        units[2]["selections"][0]["number"] = 7   # Split Horrors: 10 Blue Horrors in the file
    army = mh.load_roster(_real_list(tmp_path, edit))
    assert army.entries[1].models == 7


def test_an_unreadable_range_on_a_melee_profile_is_a_note(tmp_path):
    """It was dropped without a word (a ranged profile's says so)."""
    def edit(units):
        blade = next(p for p in units[4]["selections"][0]["profiles"]
                     if p["typeName"] == "Melee Weapons")
        blade["characteristics"][0] = {**blade["characteristics"][0], "$text": "x12"}
    army = mh.load_roster(_real_list(tmp_path, edit))
    entry = next(e for e in army.entries if e.name == "Oath Keeper")
    assert ("Oathblade: Range 'x12' cannot be read (a melee weapon's Range is Melee); the "
            "weapon is kept as a melee weapon") in entry.notes
    assert any(w.name == "Oathblade" and w.profiles[0].melee
               for g in entry.groups for w in g.weapons)
