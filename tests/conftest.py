"""Compile every kernel once per test run, before the test workers start.

With an empty numba cache (a fresh clone, a new machine) each pytest-xdist worker would
otherwise compile the kernels it meets itself, both workers the same ones at the same time.
Here the controlling process runs ``mathhammer warmup`` first, the engines split over two
processes (one per core), so the workers find every kernel in the cache and only load it.
With a warm cache this costs about a second.

It also marks ``kernels`` the tests that compile or run a numba kernel, from the measured list
of :mod:`tests.kernel_guard`, and keeps that list honest: ``-m "not kernels"`` (the fast lane)
runs with the guard on and fails a test that meets a kernel unmarked.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests import kernel_guard

#: Engines warmed in each of the two processes, balanced by cold compile time.
_SPLIT = (("scenario", "dust"), ("40k", "warmachine"))


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
    kernel_tests = kernel_guard.listed()
    for item in items:
        if kernel_guard.is_kernel_test(item.nodeid, kernel_tests):
            item.add_marker(pytest.mark.kernels)


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
    if getattr(config, "_kernel_guard", None) == "list" and not hasattr(config, "workerinput"):
        count = kernel_guard.write_list(config._kernel_record)
        sys.stderr.write(f"\n{count} kernel tests listed in {kernel_guard.KERNEL_TESTS}\n")


def pytest_sessionstart(session) -> None:
    if hasattr(session.config, "workerinput"):
        return   # an xdist worker: the controller has warmed the cache already
    if getattr(session.config, "_kernel_guard", None):
        return   # no kernel will run: nothing to warm
    warmers = [subprocess.Popen([sys.executable, "-m", "mathhammer", "warmup", "--json",
                                 *[arg for engine in engines for arg in ("--engine", engine)]],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
               for engines in _SPLIT]
    for warmer in warmers:
        _, err = warmer.communicate()
        if warmer.returncode:
            # the tests that use the engine will show the failure in full
            sys.stderr.write(f"warmup failed: {err.decode(errors='replace')[-500:]}\n")
