"""The fast lane: ``python -m pytest -m "not kernels"`` runs every test that compiles or runs
no numba kernel.

Which tests those are is measured, not guessed. With the guard on, numba's compile step (a
kernel's first call in a process, whether it compiles or loads from the cache) records the
test that asked for it and raises :class:`KernelsBarred` instead, in the test process and in
any Python process the test starts (``kernel_guard_site/sitecustomize.py``). A run with
``MATHHAMMER_LIST_KERNEL_TESTS=1`` (``python -m tests.kernel_guard``: the whole suite, every
kernel test stopping at its first kernel; 15 minutes on two busy cores) writes the tests that
met the guard, by test function, to ``kernel_tests.txt``; ``tests/conftest.py`` marks them
``kernels``. ``-m "not kernels"``
runs with the guard on too, so a new test that meets a kernel fails there, saying to re-list.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: The measured list: one test function (``path::name``, no parameters) or module per line.
KERNEL_TESTS = HERE / "kernel_tests.txt"
SITE = HERE / "kernel_guard_site"
#: Set to 1 to measure and rewrite :data:`KERNEL_TESTS`.
LIST_VARIABLE = "MATHHAMMER_LIST_KERNEL_TESTS"
#: The record file of the guard, inherited by the processes a test starts.
RECORD_VARIABLE = "MATHHAMMER_KERNEL_GUARD"
BARRED = "KernelsBarred"


def function_id(nodeid: str) -> str:
    """A test's id without its parameters: the unit the list names."""
    return nodeid.split("[", 1)[0]


def listed() -> frozenset[str]:
    if not KERNEL_TESTS.exists():
        return frozenset()
    return frozenset(line.strip() for line in KERNEL_TESTS.read_text(encoding="utf-8").splitlines()
                     if line.strip() and not line.startswith("#"))


def is_kernel_test(nodeid: str, kernel_tests: frozenset[str]) -> bool:
    return function_id(nodeid) in kernel_tests or nodeid.split("::", 1)[0] in kernel_tests


def switch_on(record: Path) -> None:
    """Bar numba compiles in this process and in every Python process started from it."""
    os.environ[RECORD_VARIABLE] = str(record)
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(SITE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    spec = importlib.util.spec_from_file_location("_kernel_guard_site",
                                                  SITE / "sitecustomize.py")
    assert spec is not None and spec.loader is not None
    site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(site)   # installs the guard for when numba is imported
    if "numba.core.dispatcher" in sys.modules:
        site.bar(sys.modules["numba.core.dispatcher"].Dispatcher)


def recorded(record: Path) -> list[str]:
    if not record.exists():
        return []
    return [line for line in record.read_text(encoding="utf-8").splitlines() if line]


def write_list(record: Path) -> int:
    """Rewrite :data:`KERNEL_TESTS` from a measuring run's record; returns how many entries."""
    names = sorted({function_id(n) for n in recorded(record)})
    KERNEL_TESTS.write_text(
        "# Tests that compile or run a numba kernel, marked `kernels` by tests/conftest.py.\n"
        "# Measured: python -m tests.kernel_guard rewrites it; a test the fast lane's guard names\n"
        "# is added by hand (see tests/kernel_guard.py)\n"
        + "".join(f"{n}\n" for n in names), encoding="utf-8")
    return len(names)


def main() -> int:
    env = dict(os.environ, **{LIST_VARIABLE: "1"})
    return subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            *sys.argv[1:]], env=env, cwd=HERE.parent)


if __name__ == "__main__":
    raise SystemExit(main())
