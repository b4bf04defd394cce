"""How to write a line, beside each box of lines: the grammar, examples, and what the 40k line
writer offers (abilities and their parameters). The words are the documentation's (the
profile lines guide of each game), shortened to what fits beside a box."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Syntax:
    """One kind of line: its grammar in one line, examples, and a note."""

    grammar: str
    examples: tuple[str, ...]
    note: str = ""


SYNTAX: dict[tuple[str, str], Syntax] = {
    ("40k", "weapon"): Syntax(
        '[Nx] [Name:] [range" | Melee] A… BS…+ (WS…+ in melee) S… AP… D… [ABILITIES]',
        ('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
         "Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]",
         'Melta rifle: 18" A1 BS3+ S9 AP-4 DD6 [MELTA 2]'),
        "Dice: D3, D6, D6+3, 2D6. Write DD6 for a D6 damage roll and D 6 for six damage. "
        "One attacker per line; join one unit's weapons with ' + '; @Name uses a datasheet."),
    ("40k", "target"): Syntax(
        "[Nx] [Name:] T… Sv…+ (Sv- for none) [InSv…+] W… [FNP…+] [KEYWORDS]",
        ("5x Intercessor: T4 Sv3+ W2 [INFANTRY]", "5x Terminator: T5 Sv2+ InSv4+ W3",
         "10x Cultist: T3 Sv6+ W1 FNP6+", "MEQ", "10x GEQ"),
        "A reference name (MEQ, TEQ, GEQ, VEQ, KEQ…) works as a whole line, with a count."),
    ("40k", "buff"): Syntax(
        "[NAME:] GRANT[, GRANT] [to MELEE|RANGED weapons] [against KEYWORD] [to KEYWORD] "
        "[when CONDITION] [(1CP)]",
        ("Storm of Fire: [IGNORES COVER] to RANGED weapons (1CP)",
         "Honour the Chapter: +1 to hit to MELEE weapons when charged",
         "[ANTI-VEHICLE 4+] against VEHICLE", "Armour of Contempt: -1 damage"),
        "Grants: [ABILITY], +1 to hit, +1 to wound, re-roll hits (of 1), re-roll wounds, +1 "
        "strength/attacks/damage/AP, critical hits on 5+; the target's: FNP 5+, invulnerable "
        "4+, cover, -1 damage. Conditions (charged, stationary, half range, below half "
        "strength...) follow the Situation boxes."),
    ("warmachine", "attack"): Syntax(
        "[Nx] [Name:] MAT… or RAT… POW… [ABILITIES]",
        ("2x Battle hammer: MAT7 POW16 [CHARGE]", "Flamer: RAT5 POW12 [SPRAY 3]"),
        "Join one model's attacks with ' + '."),
    ("warmachine", "target"): Syntax(
        "[Nx] [Name:] DEF… ARM… BOXES… [KEYWORDS]",
        ("Heavy warjack: DEF12 ARM19 BOXES30", "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]",
         "HEAVY_JACK"),
        "A reference name (HEAVY_JACK, INFANTRY, SOLO…) works as a whole line."),
    ("dust", "weapon"): Syntax(
        "[Nx] [Name:] dice/damage per target class [ABILITIES]",
        ("4x Shotgun: 3/1", "17-pounder: 4/1 [IGNORES COVER]"),
        "The numbers are the weapon's entry for the target's class and armour."),
    ("dust", "target"): Syntax(
        "[Nx] [Name:] CLASS+ARMOUR [BOXES…] [KEYWORDS]",
        ("5x Laser Grenadier: INFANTRY2 [SOFT COVER]", "Luther: VEHICLE6 BOXES4"),
        ""),
}


#: The 40k weapon abilities the line writer offers, with what follows each name:
#: ``""`` nothing, ``"X"`` a number or dice, ``"KEYWORD Y+"`` (ANTI).
def ability_choices() -> list[tuple[str, str]]:
    """``(name, parameter hint)`` of every 40k weapon ability, in the rules' order."""
    from mathhammer.wh40k.abilities import WEAPON_ABILITIES, Param

    hints = {Param.NONE: "", Param.DICE: "X", Param.OPTIONAL_NUMBER: "[X]",
             Param.ANTI: "KEYWORD Y+"}
    return [(name, hints[spec.param]) for name, spec in WEAPON_ABILITIES.items()]
