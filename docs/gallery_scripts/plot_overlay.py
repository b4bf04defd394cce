"""
"At least k" curves, head to head
=================================

``charts.overlay`` draws each result's P(at least k) as steps. Beyond seven series it draws
one panel per target (``facet="auto"``); every attacker keeps its look in every panel.
"""

import mathhammer as mh
from mathhammer import charts
from mathhammer.wh40k.comparisons import results

attackers = {
    "Devastator Squad with 4 lascannons": '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles": '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2]',
    "Hellblaster Squad, 10 plasma incinerators": '10x Plasma: 24" A2 BS3+ S8 AP-3 D2',
    "Lascannon": 'Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Plasma gun": 'Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1]',
}
cells = results(attackers, {"VEQ": "VEQ", "MEQ": "MEQ"}, method="exact")
panels = charts.overlay(cells, "damage")

# %%
# The same ten series forced into one panel (``facet=None``).

one_panel = charts.overlay(cells, "damage", facet=None)

# %%
# Two results by name, the usual head-to-head of an article.

lascannon = mh.exact('Lascannon: 48" A1 BS3+ S12 AP-3 D6+1', "VEQ")
melta = mh.exact('Multi-melta: 18" A2 BS3+ S9 AP-4 DD6 [MELTA 2]', "VEQ", half_range=True)
head_to_head = charts.overlay({"Lascannon": lascannon, "Multi-melta (half range)": melta},
                              "damage")
