"""The 40k exact engine: pmfs of a compiled plan by Markov chains over the wounds lost.

It reads the same :class:`~mathhammer.wh40k.compile.CompiledPlan` as the Monte Carlo kernels
(:mod:`mathhammer.wh40k.monte_carlo`), so a disagreement points at one of the two engines.
Modules, each importing only those before it:

- :mod:`.tables`: per-batch generating functions and damage transitions, memoised;
- :mod:`.chains`: one plan against one unit of identical models (:func:`solve`,
  :func:`compiled_plan`, :func:`clear_caches`);
- :mod:`.command`: the same with a Command Re-roll in hand (``command.solve``);
- :mod:`.cells` and :mod:`.batches`: many one-line cells at once, each weapon compiled once
  per class of targets (:func:`cell_tables`), every chain by numpy over the stacked cells
  (:func:`solve_tables`);
- :mod:`.unit_space` and :mod:`.mixed`: one whole-unit activation against a unit of several
  statlines (:func:`solve_activation`, on the scenario engine's plan), [PRECISION] and a
  Command Re-roll included.

The front doors are :func:`mathhammer.exact` (one answer) and
:func:`mathhammer.wh40k.exact_grid.solve_cells` (grids, sweeps, roster matrices). The names
below load lazily.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names

_LAZY = {
    "compiled_plan": "mathhammer.wh40k.exact_engine.chains",
    "solve": "mathhammer.wh40k.exact_engine.chains",
    "clear_caches": "mathhammer.wh40k.exact_engine.chains",
    "CellTables": "mathhammer.wh40k.exact_engine.cells",
    "cell_tables": "mathhammer.wh40k.exact_engine.cells",
    "SolvedTables": "mathhammer.wh40k.exact_engine.batches",
    "solve_tables": "mathhammer.wh40k.exact_engine.batches",
    "solve_activation": "mathhammer.wh40k.exact_engine.mixed",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
