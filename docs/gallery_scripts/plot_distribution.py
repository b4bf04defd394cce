"""
The distribution of one outcome
===============================

``Result.plot`` draws P(exactly k) above and P(at least k) below, the mean through both;
the caption names the engine (here Monte Carlo with its trials and seed) and the situation.
"""

import mathhammer as mh

result = mh.simulate('3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2, HEAVY]',
                     "Leman Russ Battle Tank: T11 Sv2+ W13 [VEHICLE]",
                     trials=20_000, seed=1, half_range=True)
art = result.plot("damage")

# %%
# The exact engine's answer to the same question, models destroyed of a squad.

exact = mh.exact('Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]',
                 "5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]", charged=True)
models = exact.plot("models_destroyed")
