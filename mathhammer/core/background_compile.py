"""Compile kernels in a detached process, so that a command can answer first and the next
one finds them compiled (issue 43: the first answer without waiting).

Game-neutral: the engines are named as ``mathhammer warmup`` names them, and the child runs
:func:`mathhammer.precompile.warmup`, which checks them.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any


#: Seconds after which a background warmup's marker is taken as left behind (a compile takes
#: well under a minute; a machine switched off mid-compile leaves its marker).
BACKGROUND_MARKER_AGE = 300


def compile_in_background(engines: Iterable[str]) -> bool:
    """Start ``mathhammer warmup`` for ``engines`` in a detached process and return at once.

    The command that called it answers and exits while the kernels compile for the next
    run; the child writes nothing to this process's terminal or pipes. One such process at
    a time per installation and cache: a script that runs many first commands at once starts
    one compile, not one each (a marker file in the temporary folder, taken with an
    exclusive create and given up after :data:`BACKGROUND_MARKER_AGE` seconds). Returns
    whether a process started (a system that cannot start one simply compiles on the next
    run).
    """
    names = list(engines)
    return start_detached(_BACKGROUND, names, names)


def start_detached(script: str, marker_names: list[str], args: list[str]) -> bool:
    """Run ``python -c script MARKER *args`` detached from this process (its own session, no
    terminal or pipes of ours), unless a process holding the same marker runs already.

    The marker (named after ``marker_names``, this installation and ``NUMBA_CACHE_DIR``) is
    taken with an exclusive create, passed to the script as its first argument for it to
    remove when it ends, and given up after :data:`BACKGROUND_MARKER_AGE` seconds. Returns
    whether a process started.
    """
    import os
    import subprocess
    import sys

    marker = _background_marker(marker_names)
    try:
        if time.time() - marker.stat().st_mtime > BACKGROUND_MARKER_AGE:
            marker.unlink(missing_ok=True)
    except OSError:
        pass
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except OSError:
        return False   # one is running already (or the folder is not writable)
    command = [sys.executable, "-c", script, str(marker), *args]
    try:
        _DETACHED.append(subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL, start_new_session=True))
    except OSError:
        marker.unlink(missing_ok=True)
        return False
    return True


#: The processes started, held so that none is collected while it runs (Python would warn
#: "subprocess is still running" in the middle of the caller's work).
_DETACHED: list[Any] = []   # subprocess.Popen, imported when one starts

#: The detached process: at low priority (the user's next commands come first on a small
#: machine), warm up, then give the marker up whatever happened.
_BACKGROUND = """
import os
import sys
from pathlib import Path
if hasattr(os, "nice"):
    os.nice(10)
try:
    from mathhammer.precompile import warmup
    warmup(sys.argv[2:])
finally:
    Path(sys.argv[1]).unlink(missing_ok=True)
"""


def _background_marker(names: list[str]) -> Any:
    """The marker of a background warmup of ``names`` for this installation and numba
    cache."""
    import hashlib
    import os
    import tempfile
    from pathlib import Path

    where = f"{Path(__file__).resolve()}|{os.environ.get('NUMBA_CACHE_DIR', '')}|{names}"
    digest = hashlib.sha256(where.encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"mathhammer-warmup-{digest}.running"
