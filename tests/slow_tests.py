"""The measured list of slow tests, for a fast lane in seconds.

``python -m pytest --durations=0 > durations.txt`` then ``python -m tests.slow_tests
durations.txt`` rewrites ``slow_tests.txt``: every test function (parameters folded, as
:mod:`tests.kernel_guard` lists them) that took more than :data:`THRESHOLD` seconds in one
of its cases (call, set-up and tear-down added), leaving out the kernel tests, which the
fast lane skips anyway. ``tests/conftest.py`` marks the listed tests ``slow``, so
``python -m pytest -m "not kernels and not slow"`` runs the rest: the parsers, the rules
tables, the errors, the layout, the small exact answers.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from tests import kernel_guard

HERE = Path(__file__).resolve().parent
SLOW_TESTS = HERE / "slow_tests.txt"
#: Seconds above which a test is slow.
THRESHOLD = 0.3
_LINE = re.compile(r"\s*([\d.]+)s (?:call|setup|teardown)\s+(tests/\S+)")


def listed() -> frozenset[str]:
    """The test functions listed slow."""
    if not SLOW_TESTS.exists():
        return frozenset()
    return frozenset(line.strip() for line in SLOW_TESTS.read_text(encoding="utf-8").splitlines()
                     if line.strip() and not line.startswith("#"))


def slow_functions(durations: str, kernel_tests: frozenset[str]) -> list[str]:
    """The test functions of a ``--durations=0`` report slower than :data:`THRESHOLD` in
    one case, kernel tests left out, sorted."""
    per_case: Counter[str] = Counter()
    for line in durations.splitlines():
        found = _LINE.match(line)
        if found:
            per_case[found.group(2)] += float(found.group(1))
    return sorted({kernel_guard.function_id(case) for case, seconds in per_case.items()
                   if seconds > THRESHOLD
                   and not kernel_guard.is_kernel_test(case, kernel_tests)})


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.slow_tests DURATIONS_FILE (pytest --durations=0 output)",
              file=sys.stderr)
        return 2
    names = slow_functions(Path(argv[0]).read_text(encoding="utf-8"), kernel_guard.listed())
    SLOW_TESTS.write_text("# Test functions slower than %.1f s in a case, kernel tests left "
                          "out: marked `slow` by tests/conftest.py.\n# Measured: python -m "
                          "tests.slow_tests DURATIONS_FILE (see tests/slow_tests.py)\n"
                          % THRESHOLD + "".join(f"{n}\n" for n in names), encoding="utf-8")
    print(f"{len(names)} slow test functions listed in {SLOW_TESTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
