"""
Fourteen series against one target
==================================

Seven Okabe–Ito colours (colour-blind safe); each further group of seven changes the line
style, the marker and its fill, so every series looks different. By default fourteen series
split into two panels of seven.
"""

from mathhammer import charts
from mathhammer.wh40k.comparisons import results

fourteen = {
    "Devastator Squad – 4 lascannons": '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles": '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2]',
    "Hellblaster Squad, 10 plasma incinerators": '10x Plasma: 24" A2 BS3+ S8 AP-3 D2',
    "Intercessor Squad with bolt rifles": '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
    "Aggressor Squad, flamestorm gauntlets": '6x Flamestorm: 12" AD6 BS3+ S7 AP-2 D1 [TORRENT]',
    "Sternguard Veterans with combi-weapons":
        '10x Combi: 24" A2 BS3+ S4 AP0 D1 [DEVASTATING WOUNDS]',
    "Inceptor Squad, plasma exterminators": '3x Plasma exterminator: 18" A2 BS3+ S8 AP-3 D2',
    "Desolation Squad, superfrag rockets": '5x Missile: 48" AD6 BS3+ S5 AP0 D1 [BLAST]',
    "Infernus Squad, pyreblasters": '10x Pyreblaster: 12" AD6 BS3+ S5 AP0 D1 [TORRENT]',
    "Heavy Intercessors, heavy bolt rifles": '5x Heavy bolt rifle: 30" A2 BS3+ S5 AP-1 D2',
    "Suppressor Squad, accelerator autocannons": '3x Accelerator: 48" A2 BS3+ S7 AP-1 D2',
    "Eliminator Squad, las fusils": '3x Las fusil: 36" A1 BS3+ S9 AP-3 D 3',
    "Outrider Squad, twin bolt rifles": '3x Twin bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
    "Bladeguard Veterans, master-crafted swords": '3x Sword: Melee A4 WS3+ S5 AP-2 D2',
}
cells = results(fourteen, {"Ork Boyz mob (20)": "20x Boy: T5 Sv5+ W1 [INFANTRY]"},
                method="exact")
two_panels = charts.overlay(cells)

# %%
# The same fourteen in one panel (``facet=None``): the legend keys show each look.

one_panel = charts.overlay(cells, facet=None)
