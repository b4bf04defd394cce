"""The package, the benchmarks, the tests and the notebooks pass ruff with the configuration in
pyproject.toml (pycodestyle and pyflakes: line length 99, no unused imports or names)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "mathhammer", "benchmarks",
                           "tests", "notebooks"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-1000:]
