"""Game-independent building blocks: dice, random streams, jit options, trials, the game
contract, results and frames.

Nothing in ``core`` knows about any game; charts (:mod:`mathhammer.charts`), tables and
labels (:mod:`mathhammer.report`) and the command line (:mod:`mathhammer.cli`) live at the
edge.
"""
