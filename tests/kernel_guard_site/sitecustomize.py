"""The kernel guard (tests/kernel_guard.py) in Python processes a test starts.

pytest puts this folder on ``PYTHONPATH`` only while the guard is on (``-m "not kernels"``, or
``MATHHAMMER_LIST_KERNEL_TESTS=1``), so a child process that would compile or run a numba
kernel is caught as the test process itself is. numba is not imported here: the guard goes in
when something else imports ``numba.core.dispatcher``.
"""

from __future__ import annotations

import importlib.abc
import os
import sys

RECORD = os.environ.get("MATHHAMMER_KERNEL_GUARD")


class _GuardOnImport(importlib.abc.MetaPathFinder):
    """Installs the guard right after ``numba.core.dispatcher`` is executed."""

    def find_spec(self, name, path, target=None):
        if name != "numba.core.dispatcher":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            bar(module.Dispatcher)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


class KernelsBarred(RuntimeError):
    """A numba kernel was about to compile (or load from the cache) under the guard."""


def bar(dispatcher_class) -> None:
    """Make every numba compile (a kernel's first call in a process) record the test that
    asked for it in ``RECORD`` and raise :class:`KernelsBarred` instead."""

    def barred(self, sig):
        test = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" (", 1)[0]
        with open(RECORD, "a", encoding="utf-8") as out:
            out.write(test + "\n")
        raise KernelsBarred(
            f"KernelsBarred: {self.py_func.__module__}.{self.py_func.__qualname__} would compile "
            f"or run a numba kernel in {test or 'a module being imported'}; mark the test "
            "(python -m tests.kernel_guard lists them, see CONTRIBUTING.md)")

    dispatcher_class.compile = barred


if RECORD:
    sys.meta_path.insert(0, _GuardOnImport())
