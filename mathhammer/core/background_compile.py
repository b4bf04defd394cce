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

#: The detached process: at the lowest priority (:func:`lower_priority`), warm up, then give
#: the marker up whatever happened.
_BACKGROUND = """
import sys
from pathlib import Path
try:
    from mathhammer.core.background_compile import lower_priority
    lower_priority()
    from mathhammer.precompile import warmup
    warmup(sys.argv[2:])
finally:
    Path(sys.argv[1]).unlink(missing_ok=True)
"""


#: The nice value a background compile runs at, and its session's scheduling group's.
LOWEST_PRIORITY = 19

#: Set in a process :func:`lower_priority` lowered, and so in the processes it starts: a
#: background compile's own second process (:mod:`~mathhammer.core.helper_compile`) lowers
#: itself too (its session, and so its scheduling group, is its own).
LOWERED = "MATHHAMMER_LOWEST_PRIORITY"


def lower_priority() -> None:
    """Make this process yield the processor to every other: nice :data:`LOWEST_PRIORITY`,
    and on Linux the same for its session's scheduling group.

    A detached process has a session of its own, and Linux's scheduler (with autogroups, its
    default on desktops and many servers) shares the processor between sessions before it
    looks at nice values: a nice background compile took as much as the user's next command
    (three of them turned a first ``mathhammer run`` of 6-7 s into 15-21 s). Lowering the
    group's own nice value (``/proc/self/autogroup``, allowed to any process for its own
    group) puts it behind: 6-7 s again. Anything that refuses is left as it is.
    """
    import os
    import time

    os.environ[LOWERED] = "1"   # for the processes this one starts (helper_compile's)
    if hasattr(os, "nice"):
        try:
            os.nice(LOWEST_PRIORITY - os.nice(0))
        except OSError:
            pass
    for _ in range(5):   # the kernel takes one such change per 0.1 s, machine-wide
        try:
            with open("/proc/self/autogroup", "w") as group:
                group.write(str(LOWEST_PRIORITY))
            return
        except FileNotFoundError:
            return   # not Linux, or autogroups switched off
        except OSError:
            time.sleep(0.11)


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
