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

import os
from pathlib import Path

#: The helpers' recorded argument types, last called first.
HELPER_FILE = Path(__file__).with_name("helper_signatures.pickle")

#: The kernel whose helpers they are (not imported here: importing numba takes a second).
KERNELS_FILE = Path(__file__).with_name("kernels.py")
KERNELS_MODULE = "mathhammer.wh40k.scenario.kernels"
KERNEL = "scenario_trials"

#: Set to ``0`` to compile without the second process (measuring, or a machine of one core).
SWITCH = "MATHHAMMER_COMPILE_ALONGSIDE"


_asked = False   # whether this process has asked already: after that the kernel is loaded


def compile_helpers_alongside() -> bool:
    """When the scenario kernel is not in numba's cache, start the process compiling its
    helpers and return whether one started (none on a warm cache, with ``SWITCH=0``, on a
    machine of one core, when one is running already, or on a process's later calls: by then
    this process has the kernel). Imports no numba: a command calls it first, so that the
    process's start overlaps this one's."""
    from mathhammer.core.helper_compile import cache_index_seen, compile_alongside

    global _asked
    if _asked:
        return False
    _asked = True
    if os.environ.get(SWITCH) == "0" or (os.cpu_count() or 1) < 2:
        return False
    if not HELPER_FILE.is_file() or cache_index_seen(KERNELS_FILE, KERNEL):
        return False
    return compile_alongside(HELPER_FILE, f"{KERNELS_MODULE}:{KERNEL}")
