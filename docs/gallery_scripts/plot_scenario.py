"""
Whole units over battle rounds
==============================

A scenario (Intercessors led by a Captain shoot, then fight a mob of Boyz, for two rounds):
one unit's losses at a checkpoint, and every unit's survival by battle round.
"""

import mathhammer as mh
from mathhammer import charts

SCENARIO = '''
rounds = 2

[units.Intercessors]
attached = ["Captain"]
models = [
  { name = "Intercessor", count = 4, profile = "T4 Sv3+ W2 [INFANTRY]",
    weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]",
               "Close combat weapon: Melee A3 WS3+ S4 AP0 D1"] },
  { name = "Sergeant", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]",
    weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]",
               "Power weapon: Melee A4 WS3+ S5 AP-2 D1"] },
]

[units.Captain]
models = [{ name = "Captain", count = 1, profile = "T4 Sv3+ InSv4+ W5 [CHARACTER, INFANTRY]",
            weapons = ["Master-crafted bolt rifle: 24\\" A2 BS2+ S4 AP-1 D2",
                       "Power fist: Melee A4 WS2+ S8 AP-2 D2"] }]

[units.Boyz]
models = [
  { name = "Boy", count = 19, profile = "T5 Sv5+ W1 [INFANTRY]",
    weapons = ["Slugga: 12\\" A1 BS5+ S4 AP0 D1 [PISTOL]", "Choppa: Melee A3 WS3+ S4 AP-1 D1"] },
  { name = "Boss Nob", count = 1, profile = "T5 Sv5+ W2 [INFANTRY]",
    weapons = ["Power klaw: Melee A3 WS4+ S9 AP-2 D2"] },
]

[[activations]]
phase = "shooting"
attacker = "Intercessors"
target = "Boyz"
situation = { half_range = true, stationary = true }

[[activations]]
phase = "fight"
attacker = "Boyz"
target = "Intercessors"
situation = { charged = true }

[[activations]]
phase = "fight"
attacker = "Intercessors"
target = "Boyz"
'''

result = mh.run(mh.parse_scenario(SCENARIO), trials=20_000, seed=1)
losses = charts.distribution(result.models_destroyed("Intercessors", "round 2 end"))

# %%
# Survival by battle round, with ±2 s.e. bands.

survival = result.plot()
