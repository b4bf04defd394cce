"""The army of the real roster files (issue 20), in either edition (run as a script to
rewrite them).

Each unit exercises one thing a real list builder's file holds beside the numbers:

- Warded Sentinels: Feel No Pain 4+ against mortal wounds only (a sentence of its own);
- Split Horrors: weapon profiles hung on the unit for models not in the list (a unit whose
  models split), beside the weapon the listed models carry;
- Star Engine: weapons under a power-like profile type ("Star Powers");
- Oath Keeper: a weapon selection with no profile in the file;
- Unknown Beast: a 280-point monster whose statline is missing;
- Iron Warden: -1 Damage, +1 Wounds and a unit-wide Feel No Pain 5+, unconditional, and a
  conditional -1 to be wounded;
- Veiled Stalkers: -1 to be hit by ranged attacks, and Stealth;
- Lord Castellan: a Leader whose ability lists the units it can lead ("- UNIT" bullets in
  10th edition, "■" in 11th) and grants Feel No Pain 5+ to the unit it leads;
- Iron Chariot: a transport (no Leader may join it).

``python -m tests.wh40k.roster.real_lists`` writes ``files/real_10e.ros``,
``real_10e.json``, ``real_11e.rosz`` and ``real_11e.json``.
"""

from __future__ import annotations

from pathlib import Path

from tests.wh40k.roster import builder as b

FILES = Path(__file__).resolve().parent / "files"


def _kw(edition: int, text: str) -> str:
    return text.upper() if edition == 11 and text != "-" else text


def army(edition: int) -> dict:
    units = [sentinels(edition), horrors(edition), star_engine(edition), oath_keeper(edition),
             beast(edition), warden(edition), stalkers(edition), castellan(edition),
             chariot(edition)]
    return b.roster(edition, "Test - Wardens of the Veil", units)


def sentinels(edition: int) -> dict:
    gun = b.selection("Ward carbine", number=5, profiles=[
        b.ranged("Ward carbine", '24"', "2", "3+", "4", "-1", "1", _kw(edition, "Assault"))])
    model = b.selection("Sentinel", "model", 5, selections=[gun])
    return b.selection("Warded Sentinels", "unit", pts=100, id="unit-sentinels",
                       categories=["Infantry", "Battleline", "Faction: Wardens"],
                       profiles=[b.statline("Warded Sentinels", edition, 4, "3+", 2),
                                 b.ability("Null Ward", "Models in this unit have the Feel No "
                                           "Pain 4+ ability against mortal wounds.")],
                       selections=[model])


def horrors(edition: int) -> dict:
    flame = b.selection("Blue flame", number=10, profiles=[
        b.ranged("Blue flame", '12"', "1", "4+", "3", "0", "1", "-")])
    model = b.selection("Blue Horror", "model", 10, selections=[flame])
    unit_only = [b.ranged("Pink flame", '12"', "2", "4+", "4", "0", "1", "-"),
                 b.ranged("Brimstone flame", '12"', "1", "4+", "2", "0", "1", "-")]
    return b.selection("Split Horrors", "unit", pts=120,
                       categories=["Infantry", "Faction: Wardens"],
                       profiles=[b.statline("Blue Horror", edition, 3, "6+", 1, insv="5+")]
                       + unit_only, selections=[model])


def star_engine(edition: int) -> dict:
    powers = [b.selection(name, profiles=[b.ranged(name, rng, a, "2+", s, ap, d, kw,
                                                   type_name="Star Powers")])
              for name, rng, a, s, ap, d, kw in (
                  ("Solar lash", '18"', "6", "6", "-1", "1", "-"),
                  ("Void spear", '24"', "1", "14", "-4", "D6+2", "-"),
                  ("Gravity well", '12"', "D6", "8", "-2", "2", _kw(edition, "Blast")))]
    return b.selection("Star Engine", "model", pts=300, categories=["Vehicle", "Fly"],
                       profiles=[b.statline("Star Engine", edition, 11, "4+", 14, insv="4+")],
                       selections=powers)


def oath_keeper(edition: int) -> dict:
    blade = b.selection("Oathblade", profiles=[b.melee("Oathblade", "5", "2+", "6", "-2",
                                                       "2")])
    relic = b.selection("Ancestral hammer")  # no profile in the file
    return b.selection("Oath Keeper", "model", pts=90, categories=["Infantry", "Character"],
                       profiles=[b.statline("Oath Keeper", edition, 4, "2+", 5, insv="4+")],
                       selections=[blade, relic])


def beast(edition: int) -> dict:
    maw = b.selection("Devouring maw", profiles=[b.melee("Devouring maw", "6", "3+", "8",
                                                         "-2", "3")])
    return b.selection("Unknown Beast", "model", pts=280, categories=["Monster"],
                       selections=[maw])


def warden(edition: int) -> dict:
    gun = b.selection("Siege cannon", profiles=[b.ranged("Siege cannon", '36"', "2", "3+",
                                                         "10", "-2", "3", "-")])
    return b.selection("Iron Warden", "model", pts=200, categories=["Vehicle", "Walker"],
                       profiles=[
                           b.statline("Iron Warden", edition, 10, "2+", 12),
                           b.ability("Iron Hide", "Each time an attack is allocated to this "
                                     "model, subtract 1 from that attack's Damage "
                                     "characteristic."),
                           b.ability("Reinforced Frame", "Add 1 to the Wounds characteristic "
                                     "of this model."),
                           b.ability("Hold the Line", "While this model is within range of "
                                     "an objective marker, each time an attack targets this "
                                     "model, subtract 1 from that attack's Wound roll.")],
                       rules=[b.rule("Feel No Pain 5+", "Each time a model with this "
                                     "ability would lose a wound, roll one D6: on a 5+, that "
                                     "wound is not lost.")],
                       selections=[gun])


def stalkers(edition: int) -> dict:
    knife = b.selection("Veil knife", number=5, profiles=[
        b.melee("Veil knife", "3", "3+", "4", "-1", "1", "-")])
    model = b.selection("Veiled Stalker", "model", 5, selections=[knife])
    return b.selection("Veiled Stalkers", "unit", pts=85,
                       categories=["Infantry", "Faction: Wardens"],
                       profiles=[b.statline("Veiled Stalker", edition, 4, "4+", 2),
                                 b.ability("Shroud", "Each time a ranged attack targets "
                                           "this unit, subtract 1 from that attack's Hit "
                                           "roll."),
                                 b.ability("Stealth", "")],
                       selections=[model])


def castellan(edition: int) -> dict:
    bullet = "- " if edition == 10 else "\u25a0 "
    leader = ("This model can be attached to the following units:\n"
              f"{bullet}Warded Sentinels\n{bullet}Veiled Stalkers\n"
              "A second sentence the list builder adds after the list.")
    sword = b.selection("Castellan blade", profiles=[b.melee("Castellan blade", "6", "2+",
                                                             "6", "-2", "2")])
    extra = {}
    if edition == 11:
        extra["associations"] = [{"type": "outgoing", "to": "unit-sentinels",
                                  "name": "Leading"}]
    return b.selection("Lord Castellan", "model", pts=95,
                       categories=["Infantry", "Character"],
                       profiles=[b.statline("Lord Castellan", edition, 4, "2+", 5, insv="4+"),
                                 b.ability("Leader", leader),
                                 b.ability("Bulwark", "While this model is leading a unit, "
                                           "models in that unit have the Feel No Pain 5+ "
                                           "ability.")],
                       selections=[sword], **extra)


def chariot(edition: int) -> dict:
    gun = b.selection("Twin stubber", profiles=[b.ranged("Twin stubber", '24"', "3", "4+",
                                                         "4", "0", "1",
                                                         _kw(edition, "Twin-linked"))])
    return b.selection("Iron Chariot", "model", pts=75, categories=["Vehicle", "Transport"],
                       profiles=[b.statline("Iron Chariot", edition, 9, "3+", 10),
                                 b.profile("Iron Chariot", "Transport",
                                           [("Capacity", "This model can carry 10 models.")])],
                       selections=[gun])


def write() -> None:
    (FILES / "real_10e.ros").write_text(b.to_xml(army(10)), encoding="utf-8")
    (FILES / "real_10e.json").write_text(b.to_json(army(10)), encoding="utf-8")
    (FILES / "real_11e.rosz").write_bytes(b.to_rosz(army(11)))
    (FILES / "real_11e.json").write_text(b.to_json(army(11)), encoding="utf-8")


if __name__ == "__main__":
    write()
