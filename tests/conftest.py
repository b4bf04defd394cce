"""Compile every kernel once per test run, before the test workers start.

With an empty numba cache (a fresh clone, a new machine) each pytest-xdist worker would
otherwise compile the kernels it meets itself, both workers the same ones at the same time.
Here the controlling process runs ``mathhammer warmup`` first, the engines split over two
processes (one per core), so the workers find every kernel in the cache and only load it.
With a warm cache this costs about a second.

It also marks ``kernels`` the tests that compile or run a numba kernel, from the measured list
of :mod:`tests.kernel_guard`, and keeps that list honest: ``-m "not kernels"`` (the fast lane)
runs with the guard on and fails a test that meets a kernel unmarked. The tests of the
measured list of :mod:`tests.slow_tests` are marked ``slow``: ``-m "not kernels and not
slow"`` is the lane in seconds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from mathhammer.core.helper_compile import SWITCH
from tests import kernel_guard, slow_tests

#: Engines warmed in each of the two processes, near balanced by cold compile time (about 16
#: and 12 s); 40k and its scenario engine together, so that one process holds every kernel
#: helper they share (see _WARMER).
_SPLIT = (("40k", "scenario"), ("warmachine", "dust"))

#: The environment variable naming the folder where each warmup process writes what it saw:
#: whether every kernel compiled (a cold cache) and which functions compiled more than once.
#: tests/core/test_jit.py reads it instead of compiling every kernel again.
COMPILE_REPORTS = "MATHHAMMER_TEST_COMPILE_REPORTS"

#: A warmup process: ``mh.warmup`` of the engines named, then its report (JSON).
_WARMER = """
import gc, json, sys
import mathhammer as mh
from numba.core.registry import CPUDispatcher
report, engines = sys.argv[1], sys.argv[2:]
mh.warmup(engines)
dispatchers = [d for d in gc.get_objects() if isinstance(d, CPUDispatcher)]
cold = any(d.stats.cache_misses for d in dispatchers) and not any(
    d.stats.cache_hits for d in dispatchers)
twice = [[d.py_func.__module__, d.py_func.__name__, [str(s) for s in d.overloads]]
         for d in dispatchers if len(d.overloads) > 1]
with open(report, "w") as f:
    json.dump({"engines": engines, "cold": cold, "twice": twice}, f)
"""


def _guard_mode(config) -> str | None:
    """``"list"`` while measuring the list, ``"guard"`` in the fast lane, else None."""
    if os.environ.get(kernel_guard.LIST_VARIABLE) == "1":
        return "list"
    if "not kernels" in (config.getoption("markexpr", "") or ""):
        return "guard"
    return None


def pytest_configure(config) -> None:
    config._kernel_guard = _guard_mode(config)
    if config._kernel_guard:
        # xdist workers inherit the controller's record file through the environment
        record = os.environ.get(kernel_guard.RECORD_VARIABLE) or tempfile.mkstemp(
            prefix="mathhammer-kernel-guard-", suffix=".txt")[1]
        config._kernel_record = Path(record)
        kernel_guard.switch_on(config._kernel_record)


def pytest_collection_modifyitems(config, items) -> None:
    kernel_tests, slow = kernel_guard.listed(), slow_tests.listed()
    for item in items:
        if kernel_guard.is_kernel_test(item.nodeid, kernel_tests):
            item.add_marker(pytest.mark.kernels)
        elif kernel_guard.function_id(item.nodeid) in slow:
            item.add_marker(pytest.mark.slow)


def pytest_collectreport(report) -> None:
    # a module that meets a kernel when it is imported: every test of it
    if report.failed and kernel_guard.BARRED in str(report.longrepr):
        record = os.environ.get(kernel_guard.RECORD_VARIABLE)
        if record:
            with open(record, "a", encoding="utf-8") as out:
                out.write(report.nodeid + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    mode = getattr(item.config, "_kernel_guard", None)
    if not mode:
        return
    report = outcome.get_result()
    record = item.config._kernel_record
    if mode == "list":
        # a test that met a kernel raised in a fixture another test set up first
        if report.failed and kernel_guard.BARRED in str(report.longrepr):
            with open(record, "a", encoding="utf-8") as out:
                out.write(item.nodeid + "\n")
    elif report.when == "call" and report.passed and item.nodeid in kernel_guard.recorded(record):
        # met a kernel although unmarked, and caught the guard's error
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} compiles or runs a numba kernel but is not marked "
                           "`kernels`: re-list them with python -m tests.kernel_guard")


def pytest_sessionfinish(session) -> None:
    config = session.config
    reports = os.environ.get(COMPILE_REPORTS)
    if reports and not hasattr(config, "workerinput"):
        shutil.rmtree(reports, ignore_errors=True)
    if getattr(config, "_kernel_guard", None) == "list" and not hasattr(config, "workerinput"):
        count = kernel_guard.write_list(config._kernel_record)
        sys.stderr.write(f"\n{count} kernel tests listed in {kernel_guard.KERNEL_TESTS}\n")


def pytest_sessionstart(session) -> None:
    if hasattr(session.config, "workerinput"):
        return   # an xdist worker: the controller has warmed the cache already
    if getattr(session.config, "_kernel_guard", None):
        return   # no kernel will run: nothing to warm
    reports = Path(tempfile.mkdtemp(prefix="mathhammer-warmup-"))
    os.environ[COMPILE_REPORTS] = str(reports)   # inherited by the xdist workers
    # each warmer compiles its kernels' helpers itself: a helpers' process
    # (mathhammer.core.helper_compile) would take the other warmer's core, and helpers loaded
    # from the cache would make the report say "not cold", so tests/core/test_jit.py would
    # compile every kernel again (18 s)
    alone = {**os.environ, SWITCH: "0"}
    warmers = [subprocess.Popen([sys.executable, "-c", _WARMER,
                                 str(reports / f"{'-'.join(engines)}.json"), *engines],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=alone)
               for engines in _SPLIT]
    for warmer in warmers:
        _, err = warmer.communicate()
        if warmer.returncode:
            # the tests that use the engine will show the failure in full
            sys.stderr.write(f"warmup failed: {err.decode(errors='replace')[-500:]}\n")
