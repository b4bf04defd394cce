"""The scenario kernel's helpers compiled in a second process on a cold cache (issue 43).

With an empty numba cache, a first ``mathhammer run`` spends most of its time compiling
:func:`~mathhammer.wh40k.scenario.kernels.scenario_trials`, about half of it in the helpers
the kernel calls (damage, saves, allocation, dice). :func:`compile_helpers_alongside` starts
a process that compiles those helpers while this one compiles the kernel
(:mod:`mathhammer.core.helper_compile`); the helpers' argument types come from
``helper_signatures.pickle`` beside this module, recorded from a real compile by::

    python -m mathhammer.wh40k.scenario.helper_recording

which re-runs itself with an empty cache. tests/wh40k/scenario/test_helper_recording.py
checks that the file is what a recording gives today: record again after changing a
helper's arguments.
"""

from __future__ import annotations

from pathlib import Path

from mathhammer.core.helper_compile import SWITCH, KernelHelpers

#: The helpers' recorded argument types, last called first.
HELPER_FILE = Path(__file__).with_name("helper_signatures.pickle")

#: The kernel whose helpers they are (not imported here: importing numba takes a second).
KERNELS_FILE = Path(__file__).with_name("kernels.py")
KERNELS_MODULE = "mathhammer.wh40k.scenario.kernels"
KERNEL = "scenario_trials"

SCENARIO_KERNEL = KernelHelpers(HELPER_FILE, KERNELS_FILE, f"{KERNELS_MODULE}:{KERNEL}")

__all__ = ("HELPER_FILE", "KERNEL", "KERNELS_FILE", "KERNELS_MODULE", "SCENARIO_KERNEL",
           "SWITCH", "compile_helpers_alongside")


def compile_helpers_alongside() -> bool:
    """When the scenario kernel is not in numba's cache, start the process compiling its
    helpers and return whether one started (:meth:`~mathhammer.core.helper_compile.
    KernelHelpers.start_alongside`; also none on a process's later calls: by then this
    process has the kernel). Imports no numba: a command calls it first, so that the
    process's start overlaps this one's."""
    return SCENARIO_KERNEL.start_once()
