"""'mathhammer datasheet' and 'mathhammer units' (mathhammer.wh40k.bsdata.cli), on the
invented example checkout."""

from __future__ import annotations

import json

import pytest

from mathhammer.wh40k.bsdata.example import write_checkout
from tests.hostile import refused, run_cli

SQUAD_MODELS = [
    {"name": "Sergeant", "count": 1, "profile": "T4 Sv3+ W2 [INFANTRY]",
     "weapons": ["Close combat weapon: Melee A2 WS3+ S4 AP0 D1",
                 'Plasma pistol: 12" A1 BS3+ S7 AP-2 D1 [PISTOL]']},
    {"name": "Trooper", "count": 4, "profile": "T4 Sv3+ W2 [INFANTRY]",
     "weapons": ["4x Close combat weapon: Melee A2 WS3+ S4 AP0 D1",
                 '4x Pulse rifle: 24" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1]']}]


@pytest.fixture(params=[(11, False), (10, True)], ids=["11e-json", "10e-zipped"])
def checkout(request, tmp_path, monkeypatch):
    monkeypatch.setenv("MATHHAMMER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    edition, zipped = request.param
    return edition, write_checkout(tmp_path / "data", edition, zipped=zipped)


def test_the_command_line(checkout):
    edition, folder = checkout
    status, out, err, _ = run_cli(["datasheet", "Strike Squad", "--data", str(folder),
                                   "--json"])
    assert status == 0, err
    data = json.loads(out)
    assert set(data) == {"name", "faction", "edition", "size", "points", "models", "notes"}
    assert data["models"] == SQUAD_MODELS and data["edition"] == edition
    status, out, _, _ = run_cli(["datasheet", "Strike Squad", "--size", "6", "--data",
                                 str(folder)])
    assert status == 0 and "6 models, 190 pts" in out and "5x Trooper" in out
    status, out, _, _ = run_cli(["units", "--data", str(folder), "--find", "WING", "--json"])
    assert status == 0 and json.loads(out) == [{"faction": "Test Faction",
                                                "name": "Drone Wing"}]
    status, out, err, _ = run_cli(["exact", "@Hero", "--target", "@Drone Wing", "--charged",
                                   "--data", str(folder)])
    assert status == 0, err   # --charged: the Hero's melee weapon
    assert "Weapon 1: Relic blade: Melee A5" in out and "Target:  2x Drone Wing" in out
    status, out, err, _ = run_cli(["compare", "@Strike Squad", "--target", "@Hero",
                                   "--target", "MEQ", "--exact", "--data", str(folder)])
    assert status == 0 and "Strike Squad" in out and "Hero" in out, err


def test_one_line_refusals(tmp_path, checkout):
    _, folder = checkout
    refused(["datasheet", "Strike Squad"], "no BSData checkout given", "--data",
            "MATHHAMMER_DATA")
    refused(["datasheet", "X", "--data", str(tmp_path / "nowhere")], "is not a folder")
    (tmp_path / "empty").mkdir()
    refused(["units", "--data", str(tmp_path / "empty")], "no BSData files")
    refused(["exact", "@Strike Squads", "--target", "MEQ", "--data", str(folder)],
            "no datasheet 'Strike Squads'", "did you mean 'Strike Squad'")
    refused(["exact", "@Strike Squad:99", "--target", "MEQ", "--data", str(folder)],
            "unit of 5 to 10 models, not 99")
    refused(["exact", "@", "--target", "MEQ", "--data", str(folder)], "names no datasheet")
    refused(["exact", "@Drone Wing:melee", "--target", "MEQ", "--data", str(folder)],
            "has no default melee weapon")




def test_legends_only_when_asked(checkout):
    _, folder = checkout
    status, out, _, _ = run_cli(["units", "--data", str(folder), "--json"])
    assert status == 0 and "Old Guard [Legends]" not in out
    status, out, _, _ = run_cli(["units", "--data", str(folder), "--legends", "--json"])
    assert status == 0 and {"faction": "Test Faction", "name": "Old Guard [Legends]"} in \
        json.loads(out)
