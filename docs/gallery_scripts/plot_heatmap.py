"""
Heat map of a comparison grid
=============================

Five units with long names against four targets, by Monte Carlo: each cell shows its
value and, on a second line, its standard error. Long row labels wrap onto up to three lines.
"""

import mathhammer as mh
from mathhammer import charts

attackers = {
    "Devastator Squad with 4 lascannons (Armour of Contempt ignored)":
        '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles":
        '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2, HEAVY]',
    "Hellblaster Squad, 10 plasma incinerators (supercharged)":
        '10x Plasma incinerator: 24" A2 BS3+ S8 AP-3 D2 [HAZARDOUS, RAPID FIRE 1]',
    "Predator Annihilator, twin lascannon and lascannon sponsons":
        '3x Twin lascannon: 48" A1 BS3+ S12 AP-3 D6+1 [TWIN-LINKED]',
    "Broadside Battlesuits with heavy rail rifles":
        '3x Heavy rail rifle: 60" A2 BS4+ S12 AP-4 D6+1 [DEVASTATING WOUNDS, HEAVY]',
}
targets = {
    "Leman Russ Battle Tank": "Leman Russ Battle Tank: T11 Sv2+ W13 [VEHICLE]",
    "Rhino": "Rhino: T9 Sv3+ W10 [VEHICLE]",
    "Terminator Squad (5)": "5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]",
    "Ork Boyz mob (20)": "20x Boy: T5 Sv5+ W1 [INFANTRY]",
}
grid = mh.compare(attackers, targets, trials=20_000, seed=1, stationary=True)
damage = charts.heatmap(grid, "expected_damage")

# %%
# The same grid, P(unit destroyed): small probabilities keep a decimal.

destroyed = charts.heatmap(grid, "p_unit_destroyed")
