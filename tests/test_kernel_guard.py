"""``tests/kernel_guard.py``: the fast lane's list is read as written, and the guard stops a
numba kernel in the test process and in a Python process it starts, recording the test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import kernel_guard

ROOT = Path(__file__).resolve().parent.parent


def test_the_list_names_functions_without_parameters_or_whole_modules():
    listed = frozenset({"tests/a.py::test_x", "tests/b.py"})
    assert kernel_guard.function_id("tests/a.py::test_x[1-2]") == "tests/a.py::test_x"
    assert kernel_guard.is_kernel_test("tests/a.py::test_x[1-2]", listed)
    assert kernel_guard.is_kernel_test("tests/b.py::Class::test_y", listed)
    assert not kernel_guard.is_kernel_test("tests/a.py::test_xy", listed)


def test_every_listed_test_still_exists():
    files = {name.split("::", 1)[0] for name in kernel_guard.listed()}
    assert [f for f in sorted(files) if not (ROOT / f).exists()] == []


CHILD = """
import os, subprocess, sys
from pathlib import Path
from tests import kernel_guard
kernel_guard.switch_on(Path(sys.argv[1]))
os.environ["PYTEST_CURRENT_TEST"] = "tests/x.py::test_here (call)"
import mathhammer as mh
try:
    mh.simulate("Bolter: A2 BS3+ S4 AP0 D1", "MEQ", trials=100, seed=1)
except Exception as error:
    print(type(error).__name__)
os.environ["PYTEST_CURRENT_TEST"] = "tests/x.py::test_child (call)"
grandchild = ("import mathhammer as mh; "
              "mh.simulate('Bolter: A2 BS3+ S4 AP0 D1', 'MEQ', trials=100, seed=1)")
done = subprocess.run([sys.executable, "-c", grandchild], capture_output=True, text=True)
print(done.returncode, "KernelsBarred" in done.stderr)
"""


@pytest.mark.kernels   # starts Python processes that import numba
def test_the_guard_stops_kernels_here_and_in_child_processes(tmp_path):
    record = tmp_path / "record.txt"
    env = {k: v for k, v in os.environ.items() if k != kernel_guard.RECORD_VARIABLE}
    done = subprocess.run([sys.executable, "-c", CHILD, str(record)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.split() == ["KernelsBarred", "1", "True"], done.stderr[-2000:]
    assert set(kernel_guard.recorded(record)) == {"tests/x.py::test_here",
                                                  "tests/x.py::test_child"}
