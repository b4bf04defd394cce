"""Game-independent building blocks: dice, random streams, results, charts.

Nothing in ``core`` knows about any game.
"""
