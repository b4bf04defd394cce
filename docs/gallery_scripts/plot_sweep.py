"""
A sweep: a metric against one parameter
=======================================

``mh.sweep`` varies one thing (here the range band: full or half range, which changes
[MELTA] damage and [RAPID FIRE] attacks); ``charts.sweep_lines`` draws each
attacker-target pair as a line.
"""

import mathhammer as mh
from mathhammer import charts

attackers = {
    "Eradicator Squad, 3 melta rifles": '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2]',
    "Hellblaster Squad, 10 plasma incinerators":
        '10x Plasma incinerator: 24" A2 BS3+ S8 AP-3 D2 [RAPID FIRE 1]',
}
frame = mh.sweep(attackers, ["VEQ", "TEQ", "MEQ"], "range", ["full", "half"], method="exact")
lines = charts.sweep_lines(frame)
