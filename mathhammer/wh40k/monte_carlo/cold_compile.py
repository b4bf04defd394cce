"""The 40k Monte Carlo kernel's helpers compiled in a second process on a cold cache (issue
43).

With an empty numba cache, the first run of :func:`~mathhammer.wh40k.monte_carlo.kernels.
run_chunks` (a Python session's first ``mh.simulate``, the command line's background compile,
``--sampler kernel``) spends about two thirds of its compile in the helpers the kernel calls.
:func:`compile_helpers_alongside` starts a process that compiles them while this one compiles
the kernel, as the scenario kernel does (:mod:`mathhammer.wh40k.scenario.cold_compile`,
:mod:`mathhammer.core.helper_compile`). The argument types come from
``helper_signatures.pickle`` beside this module, recorded from a real compile by::

    python -m mathhammer.wh40k.monte_carlo.helper_recording

tests/wh40k/monte_carlo/test_helper_recording.py checks that the file is what a recording gives
today: record again after changing a helper's arguments.
"""

from __future__ import annotations

from pathlib import Path

from mathhammer.core.helper_compile import KernelHelpers

#: The helpers' recorded argument types, last called first.
HELPER_FILE = Path(__file__).with_name("helper_signatures.pickle")

MONTE_CARLO_KERNEL = KernelHelpers(HELPER_FILE, Path(__file__).with_name("kernels.py"),
                                   "mathhammer.wh40k.monte_carlo.kernels:run_chunks")


def compile_helpers_alongside() -> bool:
    """When the Monte Carlo kernel is not in numba's cache, start the process compiling its
    helpers and return whether one started (none on a process's later calls: by then this
    process has the kernel). Imports no numba."""
    return MONTE_CARLO_KERNEL.start_once()
