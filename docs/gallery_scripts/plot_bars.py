"""
Bars and dots: one metric per unit
==================================

``charts.bars`` draws one metric per attacker, grouped by target, with ±2 s.e. Monte Carlo
error bars: horizontal bars for one or two targets, a dot chart beyond.
"""

import mathhammer as mh
from mathhammer import charts

attackers = {
    "Devastator Squad with 4 lascannons": '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles": '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2]',
    "Hellblaster Squad, 10 plasma incinerators":
        '10x Plasma incinerator: 24" A2 BS3+ S8 AP-3 D2 [RAPID FIRE 1]',
    "Broadside Battlesuits with heavy rail rifles":
        '3x Heavy rail rifle: 60" A2 BS4+ S12 AP-4 D6+1 [DEVASTATING WOUNDS]',
}
targets = ["Leman Russ Battle Tank: T11 Sv2+ W13 [VEHICLE]", "Rhino: T9 Sv3+ W10 [VEHICLE]",
           "5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]", "20x Boy: T5 Sv5+ W1 [INFANTRY]"]
grid = mh.compare(attackers, targets, trials=20_000, seed=1, points=[120, 95, 230, 240])
dots = charts.bars(grid, "expected_damage")

# %%
# For one or two targets, bars.

two = charts.bars(grid[grid.target.isin(grid.target.unique()[:2])], "expected_damage")

# %%
# The per-100-points variant (the frame needs ``points=``); each row names its points.

per_points = charts.bars(grid, "expected_damage", per_points=True)

# %%
# Small probabilities stay readable: the axis fits the data, so a 4% chance is not flat on
# the floor.

small = charts.bars(grid[grid.target.isin(grid.target.unique()[2:])], "p_unit_destroyed")
