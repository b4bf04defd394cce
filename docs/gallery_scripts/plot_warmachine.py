"""
Warmachine MkIV
===============

A charging warjack's three hammer blows against a unit of Trenchers; the caption names
MAT/POW, CHARGE and the target.
"""

from mathhammer import warmachine

result = warmachine.exact(["3x Battle hammer: MAT7 POW16 [CHARGE, ARMOR-PIERCING]"],
                          ["5x Trencher Infantry: DEF13 ARM13 BOXES1 [TOUGH]"])
art = result.plot("damage")
