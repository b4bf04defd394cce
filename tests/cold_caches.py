"""Shared by the cold-compile tests (wh40k/scenario, wh40k/monte_carlo): a numba cache that
a kernel's helpers' process alone filled, and a fresh process run against it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from mathhammer.core.helper_compile import SWITCH

_COMPILE_HELPERS = ("import sys; from pathlib import Path; from mathhammer.core.helper_compile "
                    "import compile_helpers; compile_helpers(Path(sys.argv[1]))")


def cache_with_helpers(cache: Path, helper_file: Path) -> dict[str, str]:
    """Compile the helpers ``helper_file`` records into the numba cache ``cache`` in another
    process, as a cold run's second process does; return an environment that uses that
    cache and starts no such process of its own."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), **{SWITCH: "0"})
    done = subprocess.run([sys.executable, "-c", _COMPILE_HELPERS, str(helper_file)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return env


def run_with(env: dict[str, str], code: str, *args: str) -> tuple[str, list[str]]:
    """Run ``code`` (which prints its answer on stdout and, last on stderr, a JSON list of
    the functions it compiled) in a fresh process; return both."""
    done = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, json.loads(done.stderr.strip().splitlines()[-1])
