"""Running the command line in-process on hostile input: exit status, stderr, time."""

from __future__ import annotations

import contextlib
import io
import time

from mathhammer.cli import main


def run_cli(argv: list[str]) -> tuple[int, str, str, float]:
    """``(exit status, stdout, stderr, seconds)`` of ``mathhammer argv``, run in-process."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue(), time.perf_counter() - start


def refused(argv: list[str], *fragments: str, seconds: float = 10.0) -> str:
    """Assert ``argv`` is refused with exit 2 and one line holding every fragment; return it."""
    status, _, err, took = run_cli(argv)
    assert status == 2, (status, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("mathhammer: error: ") and "Traceback" not in err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert took < seconds, took
    return lines[0]
