"""Compile every kernel once per test run, before the test workers start.

With an empty numba cache (a fresh clone, a new machine) each pytest-xdist worker would
otherwise compile the kernels it meets itself, both workers the same ones at the same time.
Here the controlling process runs ``mathhammer warmup`` first, the engines split over two
processes (one per core), so the workers find every kernel in the cache and only load it.
With a warm cache this costs about a second.
"""

from __future__ import annotations

import subprocess
import sys

#: Engines warmed in each of the two processes, balanced by cold compile time.
_SPLIT = (("scenario", "dust"), ("40k", "warmachine"))


def pytest_sessionstart(session) -> None:
    if hasattr(session.config, "workerinput"):
        return   # an xdist worker: the controller has warmed the cache already
    warmers = [subprocess.Popen([sys.executable, "-m", "mathhammer", "warmup", "--json",
                                 *[arg for engine in engines for arg in ("--engine", engine)]],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
               for engines in _SPLIT]
    for warmer in warmers:
        _, err = warmer.communicate()
        if warmer.returncode:
            # the tests that use the engine will show the failure in full
            sys.stderr.write(f"warmup failed: {err.decode(errors='replace')[-500:]}\n")
