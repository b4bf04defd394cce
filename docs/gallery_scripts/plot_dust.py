"""
Dust Tactics
============

A sustained attack of laser rifles and a heavy laser against a squad in soft cover; the
caption names the weapons, the target and the sustained attack. Curly quotes in names
survive.
"""

from mathhammer import dust

result = dust.exact(["4x Laser rifle: 3/1", "Heavy laser: 4/2"],
                    "5x Ranger squad “Death Dealers”: INFANTRY2 [SOFT COVER]",
                    sustained=True)
art = result.plot("models_destroyed")
