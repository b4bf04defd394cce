"""Weapon lines and targets the batched exact engine's tests draw their generated grids from
(tests/wh40k/exact_engine/test_batches.py, tests/wh40k/test_compare_exact_batched.py): every rule the
batch reads ([SUSTAINED HITS], [LETHAL HITS], [DEVASTATING WOUNDS], [ANTI-X], [BLAST], [MELTA],
[HAZARDOUS], [PSYCHIC], random attacks and damage) against units of one and several models,
saves, invulnerable saves and Feel No Pain."""

WEAPONS = [
    '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
    '4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1, HEAVY]',
    '2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1',
    "5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]",
    '10x Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT, IGNORES COVER]',
    '5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1, HAZARDOUS]',
    '2x Melta rifle: 18" A1 BS3+ S9 AP-4 DD6 [MELTA D3]',
    "3x Claw: Melee A4 WS3+ S5 AP-1 D1 [LETHAL HITS, TWIN-LINKED]",
    '3x Launcher: 24" AD3 BS3+ S6 AP-1 D1 [BLAST, SUSTAINED HITS D3]',
    '2x Needle: 18" A2 BS2+ S2 AP0 D2 [ANTI-INFANTRY 2+, DEVASTATING WOUNDS]',
    '3x Storm: 24" A2 BS3+ S5 AP-1 D1 [SUSTAINED HITS 2, LETHAL HITS, DEVASTATING WOUNDS]',
    '2x Smite: 18" AD6 BS3+ S6 AP-1 DD3 [PSYCHIC, ANTI-VEHICLE 4+]',
    '4x Cannon: 36" A2 BS4+ S7 AP-2 D 3 [BLAST, LETHAL HITS: VEHICLE]',
]
TARGETS = ["GEQ", "MEQ", "TEQ", "VEQ", "10x T3 Sv5+ W1", "5x T5 Sv3+ W3 FNP5+",
           "3x Ogryn: T6 Sv4+ InSv5+ W4 FNP6+ [INFANTRY]", "Tank: T11 Sv2+ W14 [VEHICLE]",
           "20x T3 Sv6+ W1 [INFANTRY, STEALTH]", "Knight: T11 Sv3+ InSv5+(ranged) W22 [VEHICLE]",
           "2x T6 Sv2+ W8 FNP4+ [MONSTER]"]
