"""The package, the benchmarks, the tests and the notebooks pass ruff with the configuration in
pyproject.toml (pycodestyle and pyflakes: line length 99, no unused imports or names); the
package passes mypy with the configuration there (it ships py.typed)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "mathhammer", "benchmarks",
                           "tests", "notebooks"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]


def test_mypy_finds_nothing():
    # the package ships py.typed (PEP 561): its hints are a promise to its users' type checkers.
    # About 17 s of CPU from an empty cache, 3 s once .mypy_cache (git-ignored) holds it.
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (it comes with the test extra: pip install -e '.[test]')")
    done = subprocess.run([sys.executable, "-m", "mypy", "mathhammer"], cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-1000:]
