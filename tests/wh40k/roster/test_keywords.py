"""Roster text to our syntax: characteristics, keywords, invulnerable saves, Feel No Pain."""

import pytest

import mathhammer as mh
from mathhammer.wh40k.roster import keywords as kw

from .conftest import FILES


@pytest.mark.parametrize("chars, melee, expected", [
    ({"range": '24"', "a": "2", "bs": "3+", "s": "4", "ap": "-1", "d": "1",
      "keywords": "Rapid Fire 1, Sustained Hits D3, Anti-Fly 4+"},
     False, 'X: 24" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1, SUSTAINED HITS D3, ANTI-FLY 4+]'),
    ({"range": "Melee", "a": "D6+3", "ws": "2+", "s": "8", "ap": "-2", "d": "D6+1",
      "keywords": "LETHAL HITS: non-MONSTER/VEHICLE"},
     True, "X: Melee AD6+3 WS2+ S8 AP-2 D6+1 [LETHAL HITS: NON-MONSTER/NON-VEHICLE]"),
    ({"range": '12"', "a": "D6", "bs": "N/A", "s": "4", "ap": "-1", "d": "1",
      "keywords": "Ignores Cover, Psychic, Torrent"},
     False, 'X: 12" AD6 BSN/A S4 AP-1 D1 [IGNORES COVER, PSYCHIC, TORRENT]'),
    ({"range": "24\u201d", "a": "1", "bs": "4+", "s": "6", "ap": "0", "d": "2",
      "keywords": "Twin-linked, Blast"},
     False, 'X: 24" A1 BS4+ S6 AP0 D2 [TWIN-LINKED, BLAST]'),
    ({"range": '18"', "a": "3", "bs": "3+", "s": "5", "ap": "0", "d": "1", "keywords": "-"},
     False, 'X: 18" A3 BS3+ S5 AP0 D1'),
    ({"range": '18"', "a": "3", "bs": "3+", "s": "5", "ap": "0", "d": "1",
      "keywords": "LETHAL HITS: VEHICLE, MONSTER"},
     False, 'X: 18" A3 BS3+ S5 AP0 D1 [LETHAL HITS: VEHICLE/MONSTER]'),
])
def test_weapon_profiles(chars, melee, expected):
    notes = []
    assert str(kw.weapon_profile("X", chars, melee, notes)) == expected
    assert notes == []


def test_unreadable_weapon_is_a_note():
    notes = []
    chars = {"range": '12"', "a": "lots", "bs": "3+", "s": "4", "ap": "0", "d": "1"}
    assert kw.weapon_profile("Odd gun", chars, False, notes) is None
    assert notes and notes[0].startswith("weapon 'Odd gun' left out")


def test_mode_names():
    assert kw.profile_name("\u27a4 Bilesword - strike") == "Bilesword - strike"
    assert kw.profile_name("Weapon: special [x]") == "Weapon - special (x)"


@pytest.mark.parametrize("texts, expected", [
    ([("Invulnerable Save", "This model has a 4+ invulnerable save.")], (4, "all")),
    ([("Invulnerable Save (5+)", "")], (5, "all")),
    ([("Invulnerable Save: Fluxmaster", "4+")], (4, "all")),
    ([("Ion Shield", "Models in this unit have a 5+ invulnerable save against ranged attacks.")],
     (5, "ranged")),
    ([("Refractor", "The bearer has an invulnerable save of 5+.")], (5, "all")),
    ([("Rites", "While this model is leading a unit, models in that unit have a 4+ "
                "invulnerable save.")], None),
])
def test_invulnerable_saves(texts, expected):
    assert kw.invulnerable(texts, []) == expected


@pytest.mark.parametrize("texts, expected", [
    ([("Feel No Pain 5+", "Each time a model would lose a wound, roll one D6.")], (5, None)),
    ([("Resilient", "Models in this unit have the Feel No Pain 6+ ability.")], (6, None)),
    ([("Warded", "Models in this unit have the Feel No Pain 4+ ability against mortal "
                 "wounds.")], (None, 4)),
    ([("Aura", "While this model is leading a unit, models in that unit have the Feel No "
               "Pain 5+ ability.")], (None, None)),
    ([("Feel No Pain 6+", ""), ("Feel No Pain 5+", "")], (5, None)),
])
def test_feel_no_pain(texts, expected):
    assert kw.feel_no_pain(texts, []) == expected


def test_statline_and_keywords():
    profile = kw.statline({"t": "4", "sv": "2+*", "w": "3", "insv": "4+"},
                          kw.unit_keywords(["Infantry", "Faction: Adeptus Custodes",
                                            "Epic Hero", "Ætherwing"]), None, 6, None)
    assert str(profile) == "T4 Sv2+ InSv4+ W3 FNP6+ [AETHERWING, EPIC HERO, INFANTRY]"


def test_utf16_roster(tmp_path):
    path = tmp_path / "army.ros"
    text = (FILES / "marines_10e.ros").read_text().replace('encoding="UTF-8"',
                                                              'encoding="UTF-16"')
    path.write_bytes(text.encode("utf-16"))
    assert mh.load_roster(path).to_dict() == mh.load_roster(FILES / "marines_10e.ros").to_dict()
