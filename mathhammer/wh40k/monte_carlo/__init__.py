"""The 40k Monte Carlo engine: numba kernels over a compiled plan.

The kernels read a :class:`~mathhammer.wh40k.compile.CompiledPlan`'s arrays and nothing
else (the sampling tables among them are built by :mod:`mathhammer.wh40k.sampling_tables`
at compile time), the same plan the exact engine (:mod:`mathhammer.wh40k.exact_engine`)
reads. Modules:

- :mod:`.dice_steps`: one roll of a pool, die by die or as counts (shared with the
  whole-unit kernels of :mod:`mathhammer.wh40k.scenario`);
- :mod:`.kernels`: the attack sequence, trial by trial, into per-chunk histograms
  (:func:`run_chunks`, and :func:`run_chain_chunks` for plans every batch of which takes a
  chain shortcut; :class:`Histograms`, :class:`Scratch`);
- :mod:`.cold_compile` and :mod:`.helper_recording`: on a cold cache, the kernel's helpers
  compiled in a second process meanwhile, from their recorded argument types.

The thin wrapper that seeds the chunks, allocates the histograms and shows progress is
:func:`mathhammer.wh40k.api.run_monte_carlo`; the front door is :func:`mathhammer.simulate`.
The names below load lazily (importing the kernels loads numba and their cached machine code).
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names

_LAZY = {
    "run_chunks": "mathhammer.wh40k.monte_carlo.kernels",
    "run_chain_chunks": "mathhammer.wh40k.monte_carlo.kernels",
    "Histograms": "mathhammer.wh40k.monte_carlo.kernels",
    "Scratch": "mathhammer.wh40k.monte_carlo.kernels",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)
