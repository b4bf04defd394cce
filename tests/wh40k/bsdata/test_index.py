"""Datasheets by name from a BSData checkout (issue 32), on catalogues written for the tests
in the real schemas: 11th edition JSON, 10th edition XML, zipped. Expected values are read off
the catalogues by hand (mathhammer/wh40k/bsdata/example.py says what they hold)."""

from __future__ import annotations

import io
import json
import os
import zipfile

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import RosterError
from mathhammer.wh40k.bsdata import datasheets, files, index
from mathhammer.wh40k.bsdata.named import using_data
from tests.hostile import refused, run_cli
from mathhammer.wh40k.bsdata.example import write_checkout

LAYOUTS = [(11, False), (10, False), (10, True)]
SQUAD_MODELS = [
    {"name": "Sergeant", "count": 1, "profile": "T4 Sv3+ W2 [INFANTRY]",
     "weapons": ["Close combat weapon: Melee A2 WS3+ S4 AP0 D1",
                 'Plasma pistol: 12" A1 BS3+ S7 AP-2 D1 [PISTOL]']},
    {"name": "Trooper", "count": 4, "profile": "T4 Sv3+ W2 [INFANTRY]",
     "weapons": ["4x Close combat weapon: Melee A2 WS3+ S4 AP0 D1",
                 '4x Pulse rifle: 24" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1]']}]


@pytest.fixture(autouse=True)
def _own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHHAMMER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)


@pytest.fixture(params=LAYOUTS, ids=["11e-json", "10e-xml", "10e-zipped"])
def checkout(request, tmp_path):
    edition, zipped = request.param
    return edition, write_checkout(tmp_path / "data", edition, zipped=zipped)


def test_the_datasheets_players_read(checkout):
    edition, folder = checkout
    sheets = datasheets(folder, progress=False)
    # Legends and hidden entries left out; the library's root entry imported by id
    assert sheets.names() == [("Test Faction", "Drone Wing"), ("Test Faction", "Hero"),
                              ("Test Faction", "Strike Squad")]
    squad = sheets.get("Strike Squad")
    assert squad.to_dict() == {"name": "Strike Squad", "faction": "Test Faction",
                               "edition": edition, "size": 5, "points": 100.0,
                               "models": SQUAD_MODELS, "notes": []}
    hero = sheets.get("hero")  # any case
    assert hero.models == [{"name": "Hero", "count": 1,
                            "profile": "T5 Sv2+ InSv4+ W7 FNP4+(mortal) [CHARACTER, INFANTRY]",
                            "weapons": ["Relic blade: Melee A5 WS2+ S6 AP-3 D2 "
                                        "[DEVASTATING WOUNDS]"]}]
    assert hero.points == 75
    said = " | ".join(hero.notes)
    assert "'Ghost gun' links to id 'NO-SUCH-ID'" in said          # missing target said
    assert "'Loop'" in said and "cycle" in said                    # a cycle not followed
    assert "'Feel No Pain 4+' is the glossary entry" in said       # no general FNP
    drones = sheets.get("Drone Wing")
    assert drones.target_line() == "2x Drone Wing: T3 Sv4+ W1 [FLY]"


def test_sizes_and_points_by_model_count(checkout):
    _, folder = checkout
    sheets = datasheets(folder, progress=False)
    assert [sheets.get("Strike Squad", n).points for n in range(5, 11)] == \
        [100, 190, 190, 190, 190, 190]   # 190 once the Troopers group holds 5
    ten = sheets.get("Strike Squad", 10)
    assert [(m["name"], m["count"]) for m in ten.models] == [("Sergeant", 1), ("Trooper", 9)]
    assert ten.target_line() == "10x Strike Squad: T4 Sv3+ W2 [INFANTRY]"
    for size in (4, 11):
        with pytest.raises(RosterError, match=f"unit of 5 to 10 models, not {size}"):
            sheets.get("Strike Squad", size)
    with pytest.raises(RosterError, match="single model, not a unit of 2"):
        sheets.get("Hero", 2)


def test_unknown_names_get_the_nearest(checkout):
    _, folder = checkout
    with pytest.raises(RosterError, match="no datasheet 'Strike Squads'.*did you mean "
                                          "'Strike Squad'"):
        datasheets(folder, progress=False).get("Strike Squads")


def test_a_named_unit_answers_as_its_typed_lines(checkout):
    _, folder = checkout
    with using_data(folder):
        named = mh.exact("@Strike Squad", "@Strike Squad:10", half_range=True)
        melee = mh.exact("@Hero:melee", "@Drone Wing", charged=True)
    typed = mh.exact(['Plasma pistol: 12" A1 BS3+ S7 AP-2 D1 [PISTOL]',
                      '4x Pulse rifle: 24" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1]'],
                     "10x Strike Squad: T4 Sv3+ W2 [INFANTRY]", half_range=True)
    typed_melee = mh.exact(["Relic blade: Melee A5 WS2+ S6 AP-3 D2 [DEVASTATING WOUNDS]"],
                           "2x Drone Wing: T3 Sv4+ W1 [FLY]", charged=True)
    for a, b in ((named, typed), (melee, typed_melee)):
        for metric in ("damage", "models_destroyed"):
            np.testing.assert_allclose(a.pmf(metric).to_numpy(), b.pmf(metric).to_numpy(),
                                       atol=1e-12)
    # by hand: the pistol hits 2/3, wounds 4/6 (S7 > T4: 3+), Sv3+ at AP-2 fails on 1-4;
    # 4 rifles A2 + 1 (RAPID FIRE 1 at half range) = 12 attacks of 2/3 x 1/2 x 1/2 (Sv3+ at
    # AP-1 fails on 1-3)
    assert named.mean("damage") == pytest.approx(2 / 3 * 4 / 6 * 4 / 6 + 12 * (2 / 3 / 4))


def test_the_python_api_takes_datasheet_objects(checkout):
    _, folder = checkout
    sheets = mh.datasheets(folder, progress=False)
    squad, drones = sheets.get("Strike Squad"), sheets.get("Drone Wing")
    frame = mh.compare({"squad": squad}, [drones], method="exact")
    result = mh.exact(squad, drones)
    row = frame[frame["metric"] == "expected_damage"].iloc[0]
    assert row["target"] == "Drone Wing (2)" and row["attacker"] == "squad"
    assert row["value"] == pytest.approx(result.mean("damage"))
    assert sheets.find("squad") == [("Test Faction", "Strike Squad")]


def _hostile(tmp_path, name: str, content: bytes) -> str:
    folder = tmp_path / name.replace(".", "_")
    folder.mkdir()
    (folder / name).write_bytes(content)
    status, _, err, _ = run_cli(["units", "--data", str(folder)])
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_hostile_files_refused_in_one_line(tmp_path):
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("x.cat", b"<" + b" " * (200 * 2**20))
    assert "zip bomb" in _hostile(tmp_path, "bomb.catz", bomb.getvalue())
    entities = (b'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaa">]>'
                b'<catalogue xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
                b'&a;</catalogue>')
    assert "entities" in _hostile(tmp_path, "laughs.cat", entities)
    assert "not valid JSON" in _hostile(tmp_path, "broken.json", b'{"catalogue": {')
    assert "not a catalogue" in _hostile(tmp_path, "other.cat", b"<roster/>")
    deep = b'{"catalogue": ' + b'{"a": ' * 200 + b"1" + b"}" * 201
    assert "nested" in _hostile(tmp_path, "deep.json", deep)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "CATALOGUE", files.CATALOGUE.__class__(
        **{**files.CATALOGUE.__dict__, "max_file_bytes": 1000}))
    folder = write_checkout(tmp_path / "data", 11)
    with pytest.raises(RosterError, match="MiB; a catalogue file may be at most"):
        datasheets(folder, progress=False)


def test_the_index_is_kept_until_a_file_changes(tmp_path, monkeypatch):
    folder = write_checkout(tmp_path / "data", 11)
    first = datasheets(folder, progress=False)
    calls = []
    original = index.read_data_file
    monkeypatch.setattr(index, "read_data_file", lambda f: calls.append(f) or original(f))
    again = datasheets(folder, progress=False)
    assert calls == [] and again.get("Hero").to_dict() == first.get("Hero").to_dict()
    target = folder / "Xenos - Test Faction.json"
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 10**9))
    datasheets(folder, progress=False)
    assert len(calls) == 4  # every file read again (the package.json among them)


@pytest.mark.parametrize("name", ["mathhammer.wh40k.bsdata.index",
                                  "mathhammer.wh40k.bsdata.example"])
def test_docstring_examples(name):
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failures == 0


def test_a_scenario_unit_by_name_is_the_unit_typed_out(checkout, tmp_path):
    _, folder = checkout
    named = ('[units.Squad]\nunit = "@Strike Squad:6"\n[units.Drones]\nunit = "@Drone Wing"\n'
             '[[activations]]\nphase = "shooting"\nattacker = "Squad"\ntarget = "Drones"\n'
             'situation = { half_range = true }\n')
    typed = ('[units.Squad]\nmodels = [\n'
             '  { name = "Sergeant", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]", weapons = ['
             '"Close combat weapon: Melee A2 WS3+ S4 AP0 D1", '
             '"Plasma pistol: 12\\" A1 BS3+ S7 AP-2 D1 [PISTOL]"] },\n'
             '  { name = "Trooper", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]", weapons = ['
             '"Close combat weapon: Melee A2 WS3+ S4 AP0 D1", '
             '"Pulse rifle: 24\\" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1]"] }]\n'
             '[units.Drones]\nmodels = [{ name = "Drone", count = 2, profile = '
             '"T3 Sv4+ W1 [FLY]", weapons = ["Twin carbine: 18\\" A2 BS4+ S5 AP0 D1 '
             '[TWIN-LINKED]"] }]\n'
             + named.split("[[activations]]", 1)[1].join(["[[activations]]", ""]))
    with using_data(folder):
        by_name = mh.run(mh.parse_scenario(named), trials=20_000, seed=3)
    by_hand = mh.run(mh.parse_scenario(typed), trials=20_000, seed=3)
    assert by_name.summary().equals(by_hand.summary())
    path = tmp_path / "named.toml"
    path.write_text(named.replace("@Drone Wing", "@Drone Wings"))
    refused(["run", str(path), "--data", str(folder)], f"{path}:", "no datasheet 'Drone Wings'",
            "did you mean 'Drone Wing'")


@pytest.mark.parametrize("edition", [11, 10])
def test_a_linked_catalogue_missing_from_the_checkout_is_named(tmp_path, edition):
    # A partial download: the faction links its library, whose file is not there. Its
    # datasheets cannot be listed; the listing says so on stderr (stdout unchanged) and a
    # name that is not found says why it may be missing, in the same one line.
    folder = write_checkout(tmp_path / "data", edition)
    whole = datasheets(folder, progress=False)
    assert whole.missing == () and whole.missing_note() is None
    for library in folder.glob("Library - Test Armoury.*"):
        library.unlink()
    partial = datasheets(folder, progress=False)
    assert partial.missing == (("Test Faction", "a library by another name"),)
    note = (f"{folder.resolve()} lacks 1 catalogue file(s) its factions link ('a library by "
            "another name'): their datasheets are not listed; complete or update the "
            "checkout (git pull)")
    assert partial.missing_note() == note
    assert datasheets(folder, progress=False).missing == partial.missing   # from the cache

    status, out, err, _ = run_cli(["units", "--data", str(folder), "--json"])
    assert status == 0 and err == f"mathhammer: note: {note}\n"
    assert {"faction": "Test Faction", "name": "Strike Squad"} in json.loads(out)
    line = refused(["datasheet", "Intercessor Squad", "--data", str(folder)],
                   "no datasheet 'Intercessor Squad'")
    assert line.endswith(f"; {note}")


def test_a_complete_checkout_lists_without_a_note(tmp_path):
    folder = write_checkout(tmp_path / "data", 11)
    status, _, err, _ = run_cli(["units", "--data", str(folder)])
    assert status == 0 and err == ""


def test_a_name_in_two_factions_says_how_a_line_picks_one(tmp_path):
    # Two factions import the library that writes Drone Wing: 'datasheet' picks one with
    # --faction, a line with @Name@Faction (exact has no --faction to give).
    folder = write_checkout(tmp_path / "data", 11)
    faction = json.loads((folder / "Xenos - Test Faction.json").read_text(encoding="utf-8"))
    faction["catalogue"].update(id="other-faction-id", name="Xenos - Other Faction")
    (folder / "Xenos - Other Faction.json").write_text(json.dumps(faction), encoding="utf-8")
    line = refused(["exact", "@Drone Wing", "--target", "MEQ", "--data", str(folder)])
    assert line == ("mathhammer: error: datasheet 'Drone Wing' is in 2 factions (Other "
                    "Faction, Test Faction): write '@Drone Wing@FACTION' in the line (any part "
                    "of one of their names, e.g. '@Drone Wing@Other Faction')")
    refused(["datasheet", "Drone Wing", "--data", str(folder)], "choose one with --faction")
    status, out, _, _ = run_cli(["exact", "@Drone Wing@Test", "--target", "MEQ", "--data",
                                 str(folder)])
    assert status == 0 and "Twin carbine" in out


@pytest.mark.parametrize("edition", [10, 11])
def test_named_lines_are_read_by_the_rules_of_their_datas_edition(tmp_path, edition):
    # 10th-edition datasheets under 10th's rules, as a 10th-edition roster is read;
    # --edition still decides when given, and a line without @Name keeps the default 11.
    folder = write_checkout(tmp_path / "data", edition)
    data = ["--data", str(folder)]

    def rules(*argv: str) -> str:
        status, out, err, _ = run_cli(list(argv) + data)
        assert status == 0, err
        return out.splitlines()[0]

    assert rules("exact", "@Strike Squad", "--target", "MEQ") == f"Rules:   {edition}th edition"
    assert rules("exact", 'Gun: 24" A2 BS3+ S4 AP0 D1', "--target", "@Strike Squad") == \
        f"Rules:   {edition}th edition"
    assert rules("exact", "@Strike Squad", "--target", "MEQ", "--edition", "11") == \
        "Rules:   11th edition"
    assert rules("exact", 'Gun: 24" A2 BS3+ S4 AP0 D1', "--target", "MEQ") == \
        "Rules:   11th edition"


def test_python_questions_about_datasheets_follow_their_datas_edition(tmp_path, monkeypatch):
    folder = write_checkout(tmp_path / "data", 10)
    monkeypatch.setenv("MATHHAMMER_DATA", str(folder))
    assert mh.exact(["@Strike Squad"], "MEQ").inputs["rules"]["edition"] == 10
    assert mh.exact('Gun: 24" A2 BS3+ S4 AP0 D1', "@Strike Squad").inputs["rules"][
        "edition"] == 10
    assert mh.exact(["@Strike Squad"], "MEQ", edition=11).inputs["rules"]["edition"] == 11
    assert mh.exact('Gun: 24" A2 BS3+ S4 AP0 D1', "MEQ").inputs["rules"]["edition"] == 11
    grid = mh.compare({"Squad": "@Strike Squad"}, ["MEQ"], method="exact")
    assert grid.attrs["situation"] == "edition 10"
    plain = mh.compare(['Gun: 24" A2 BS3+ S4 AP0 D1'], ["MEQ"], method="exact")
    assert "edition 10" not in plain.attrs.get("situation", "")


def test_links_that_fan_out_and_meet_again_are_followed_a_bounded_number_of_times(
        tmp_path, monkeypatch):
    # a group linking twice to the next, thirty deep, walked 2**30 paths: `units` ran for
    # hours; twelve deep is 4,096 paths, beyond a limit shrunk to 500
    import json

    from mathhammer.wh40k.bsdata import library

    folder = write_checkout(tmp_path / "data", 11)
    path = folder / "Xenos - Test Faction.json"
    tree = json.loads(path.read_text(encoding="utf-8"))
    catalogue = tree["catalogue"]
    depth = 12
    catalogue.setdefault("sharedSelectionEntryGroups", []).extend(
        {"name": f"G{k}", "id": f"g{k}", "hidden": False,
         "entryLinks": [{"name": f"G{k + 1}", "id": f"l{k}-{j}", "hidden": False,
                         "type": "selectionEntryGroup", "targetId": f"g{k + 1}"}
                        for j in range(2)] if k < depth else []}
        for k in range(depth + 1))
    squad = next(e for e in catalogue["sharedSelectionEntries"] if e["name"] == "Strike Squad")
    squad.setdefault("entryLinks", []).append({"name": "G0", "id": "l-root", "hidden": False,
                                "type": "selectionEntryGroup", "targetId": "g0"})
    path.write_text(json.dumps(tree), encoding="utf-8")
    monkeypatch.setattr(library, "MAX_LINKS_FOLLOWED", 500)
    sheet = datasheets(folder, progress=False).get("Strike Squad")
    assert "more than 500 links followed (links that fan out and meet again?): the rest are " \
           "left out" in sheet.notes
    assert [(m["name"], m["count"]) for m in sheet.models] == [("Sergeant", 1), ("Trooper", 4)]
