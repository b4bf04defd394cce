"""Plain-text army lists (the GW app's export) read against a BSData checkout written for the
tests (mathhammer/wh40k/bsdata/example.py): units, model groups and wargear resolved by name,
attached units formed, every unresolved name and every points difference said."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.errors import RosterError
from tests.hostile import run_cli
from mathhammer.wh40k.bsdata.example import write_checkout

IOS = """Test list (1,000 Points)

Test Faction
Strike Force (2,000 Points)

ATTACHED UNITS

Attached unit 1
Hero (75 Points)
  \u2022 Attached as: Leader (Character)
  \u2022 Warlord
  \u2022 1x Relic blade
Strike Squad (190 Points)
  \u2022 Attached as: Bodyguard
  \u2022 1x Sergeant
    \u25e6 1x Power sword
    \u25e6 1x Close combat weapon
  \u2022 5x Troopers
    \u25e6 5x Pulse rifle
    \u25e6 5x Close combat weapon

OTHER DATASHEETS

Drone Wing (35 Points)
  \u2022 3x Drone
    \u25e6 3x Twin carbine
    \u25e6 1x Laser cannon
Mystery Unit (50 Points)
  \u2022 1x Laser sword

Exported with App Version: v2.7.0 (1), Data Version: v972
"""
# the Android shape: bullets at both levels, a group's later wargear without a bullet,
# "Attached as" at the left margin
ANDROID = IOS.replace("    \u25e6 1x Close combat weapon", "      1x Close combat weapon") \
    .replace("    \u25e6", "    \u2022").replace("  \u2022 Attached as: Bodyguard",
                                               "\u2022 Attached as: Bodyguard")


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    monkeypatch.setenv("MATHHAMMER_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    return write_checkout(tmp_path / "data", 11)


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize("text", [IOS, ANDROID], ids=["ios", "android"])
def test_a_text_list_read_against_the_checkout(tmp_path, checkout, text):
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    army = mh.load_roster(path, data=checkout)
    assert army.edition == 11 and army.faction == "Test Faction" and army.points == 1000
    loadouts = {e.name: [(g.name, g.count, sorted((w.name, w.per_model) for w in g.weapons))
                         for g in e.groups] for e in army.entries}
    assert loadouts == {
        "Hero": [("Hero", 1, [("Relic blade", 1)])],
        "Strike Squad": [("Sergeant", 1, [("Close combat weapon", 1), ("Power sword", 1)]),
                         ("Trooper", 5, [("Close combat weapon", 1), ("Pulse rifle", 1)])],
        "Drone Wing": [("Drone", 3, [("Twin carbine", 1)])]}
    assert [(a.attached, a.bodyguard) for a in army.attachments] == [("Hero", "Strike Squad")]
    notes = " | ".join(army.notes)
    assert f"line {_line(text, 'Drone Wing')}: 'Drone Wing' Drone: wargear 'Laser cannon'" \
        in notes
    assert "the list says 35 pts, the checkout 30 pts for 3 models" in notes
    assert f"line {_line(text, 'Mystery Unit')}: unit 'Mystery Unit' left out" in notes


def test_the_command_line_reads_a_text_list_with_data(tmp_path, checkout):
    path = tmp_path / "list.txt"
    path.write_text(IOS, encoding="utf-8")
    status, out, err, _ = run_cli(["roster", str(path), "--data", str(checkout),
                                   "--target", "MEQ", "--exact"])
    assert status == 0, err
    assert "Strike Squad" in out and "Drone Wing" in out
    status, _, err, _ = run_cli(["roster", str(path), "--target", "MEQ"])
    assert status == 2 and "plain-text army list" in err and "--data DIR" in err


def test_a_list_of_unknown_units_is_refused_naming_them(tmp_path, checkout):
    path = tmp_path / "list.txt"
    path.write_text("Mine (100 Points)\n\nCHARACTERS\n\nNobody (100 Points)\n"
                    "  \u2022 1x Sword\n", encoding="utf-8")
    with pytest.raises(RosterError, match="none of the 1 units.*'Nobody'"):
        mh.load_roster(path, data=checkout)
