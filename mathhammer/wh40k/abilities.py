"""The weapon abilities of core-rules section 24, and how each is written.

Every ability a datasheet can print is listed here, including the ones that only matter for
weapon or target selection (ASSAULT, PISTOL, ...): they are parsed and kept on the weapon, and
honoured where they change a result. Anything else is an error with a suggestion.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Param(Enum):
    """What follows an ability's name."""

    NONE = "none"          # [LANCE]
    DICE = "dice"          # [SUSTAINED HITS D3], [CLEAVE 1], [MELTA D6], [RAPID FIRE D6+3]
    OPTIONAL_NUMBER = "optional number"  # [BLAST], [BLAST 2] or [BLAST D3] (dice allowed)
    ANTI = "anti"          # [ANTI-INFANTRY 4+]


@dataclass(frozen=True, slots=True)
class AbilitySpec:
    name: str
    param: Param
    section: str
    effect: str


ANTI = "ANTI"
ASSAULT = "ASSAULT"
BLAST = "BLAST"
CLEAVE = "CLEAVE"
CLOSE_QUARTERS = "CLOSE-QUARTERS"
CONVERSION = "CONVERSION"
DEVASTATING_WOUNDS = "DEVASTATING WOUNDS"
EXTRA_ATTACKS = "EXTRA ATTACKS"
HAZARDOUS = "HAZARDOUS"
HEAVY = "HEAVY"
IGNORES_COVER = "IGNORES COVER"
INDIRECT_FIRE = "INDIRECT FIRE"
LANCE = "LANCE"
LETHAL_HITS = "LETHAL HITS"
MELTA = "MELTA"
ONE_SHOT = "ONE SHOT"
PISTOL = "PISTOL"
PRECISION = "PRECISION"
PSYCHIC = "PSYCHIC"
RAPID_FIRE = "RAPID FIRE"
SUSTAINED_HITS = "SUSTAINED HITS"
TORRENT = "TORRENT"
TWIN_LINKED = "TWIN-LINKED"

WEAPON_ABILITIES: dict[str, AbilitySpec] = {spec.name: spec for spec in (
    AbilitySpec(ANTI, Param.ANTI, "24.03", "critical wound on Y+ against keyword X"),
    AbilitySpec(ASSAULT, Param.NONE, "24.04", "may shoot after advancing (selection only)"),
    AbilitySpec(BLAST, Param.OPTIONAL_NUMBER, "24.05", "+X dice per 5 target models"),
    AbilitySpec(CLEAVE, Param.DICE, "24.06", "+X dice per 5 models of a single target"),
    AbilitySpec(CLOSE_QUARTERS, Param.NONE, "24.07", "close-quarters shooting (selection only)"),
    AbilitySpec(CONVERSION, Param.NONE, "10e",
                "10th edition only: critical hit on 4+ against a target more than 12\" away"),
    AbilitySpec(DEVASTATING_WOUNDS, Param.NONE, "24.10",
                "critical wound ends the sequence; D mortal wounds to one model"),
    AbilitySpec(EXTRA_ATTACKS, Param.NONE, "24.11", "used in addition to another melee weapon"),
    AbilitySpec(HAZARDOUS, Param.NONE, "24.15", "hazard roll after attacking"),
    AbilitySpec(HEAVY, Param.NONE, "24.16", "+1 to hit if no model moved more than 3\""),
    AbilitySpec(IGNORES_COVER, Param.NONE, "24.18", "target never has benefit of cover"),
    AbilitySpec(INDIRECT_FIRE, Param.NONE, "24.19", "may fire indirectly, with penalties"),
    AbilitySpec(LANCE, Param.NONE, "24.21", "+1 to wound after a charge"),
    AbilitySpec(LETHAL_HITS, Param.NONE, "24.23", "critical hit may wound automatically"),
    AbilitySpec(MELTA, Param.DICE, "24.25", "+X damage within half range"),
    AbilitySpec(ONE_SHOT, Param.NONE, "24.26", "once per battle (selection only)"),
    AbilitySpec(PISTOL, Param.NONE, "24.27", "same as CLOSE-QUARTERS (selection only)"),
    AbilitySpec(PRECISION, Param.NONE, "24.28", "may pick a visible CHARACTER group"),
    AbilitySpec(PSYCHIC, Param.NONE, "24.29", "may ignore harmful hit and BS modifiers"),
    AbilitySpec(RAPID_FIRE, Param.DICE, "24.30", "+X dice within half range"),
    AbilitySpec(SUSTAINED_HITS, Param.DICE, "24.36", "critical hit scores X extra hits"),
    AbilitySpec(TORRENT, Param.NONE, "24.37", "hits automatically"),
    AbilitySpec(TWIN_LINKED, Param.NONE, "24.38", "may re-roll the wound roll"),
)}

#: Abilities that change no number in a single attack sequence; kept for selection rules.
SELECTION_ONLY = frozenset({ASSAULT, CLOSE_QUARTERS, PISTOL, ONE_SHOT, EXTRA_ATTACKS})

#: Spellings seen on datasheets and in data files, mapped to the canonical name.
ALIASES = {
    "TWIN LINKED": TWIN_LINKED,
    "CLOSE QUARTERS": CLOSE_QUARTERS,
}

#: Abilities that exist in one edition only: name -> the edition that has it.
EDITION_ONLY = {CLEAVE: 11, CONVERSION: 10}

#: Target-side abilities accepted among a target line's keywords.
STEALTH = "STEALTH"
