"""Compile a kernel's helpers in a second process while this one compiles the kernel itself
(issue 43: the first answer of a cold cache).

numba compiles a kernel and every helper it calls in one thread: typing the kernel stops at
each helper's first call until that helper is compiled. On a machine with a second core,
another process can compile the same helpers, for the argument types the kernel will give
them, and write them to numba's cache; the kernel's compile, reaching a helper, loads it
from the cache when the other process has finished it and compiles it as always when not.
The code is the same either way, so the answers are the same bits.

The argument types are recorded once from a real compile (:func:`record_compiles`, run by a
game's own recording command into a file it ships) and read back by the second process,
which compiles them in the order the file gives (a game writes it last-called first, so the
two processes meet in the middle rather than race for the same helper). Each is compiled at
the optimisation level it had in the recording (an :func:`~mathhammer.core.jit.
optimised_at_level` kernel lowers its helpers' level too). Game-neutral: the file names
modules and functions.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple


class HelperCompile(NamedTuple):
    """One compile seen by :func:`record_compiles`: the function, its argument types (numba
    types) and numba's optimisation level when it began."""

    module: str
    name: str
    args: tuple[Any, ...]
    level: int


def record_compiles(action: Callable[[], object]) -> list[HelperCompile]:
    """The compiles numba runs while ``action()`` runs, in the order they begin (a kernel
    before the helpers it calls). Run it with an empty numba cache: a cached function loads
    and is not seen."""
    import numba
    import numba.core.event

    config: Any = numba.config   # its settings are set at run time: typed as Any
    seen: list[HelperCompile] = []

    class Listener(numba.core.event.Listener):
        def on_start(self, event: numba.core.event.Event) -> None:
            function = event.data["dispatcher"].py_func
            seen.append(HelperCompile(function.__module__, function.__qualname__,
                                      tuple(event.data["args"]), int(config.OPT)))

        def on_end(self, event: numba.core.event.Event) -> None:
            pass

    with numba.core.event.install_listener("numba:compile", Listener()):
        action()
    return seen


def write_helper_file(compiles: list[HelperCompile], path: Path) -> None:
    """Write ``compiles`` (in the order the second process should compile them) to ``path``."""
    path.write_bytes(pickle.dumps([tuple(c) for c in compiles], protocol=4))


def read_helper_file(path: Path) -> list[HelperCompile]:
    """The compiles :func:`write_helper_file` wrote (the package's own file: trusted)."""
    return [HelperCompile(*entry) for entry in pickle.loads(path.read_bytes())]


def compile_helpers(path: Path) -> None:
    """Compile every helper of ``path`` in this process, in the file's order, each at its
    recorded optimisation level (numba's own level is put back after)."""
    from importlib import import_module

    import numba

    config: Any = numba.config
    saved = config.OPT
    try:
        for entry in read_helper_file(path):
            config.OPT = type(saved)(entry.level)
            getattr(import_module(entry.module), entry.name).compile(entry.args)
    finally:
        config.OPT = saved


def compile_alongside(path: Path, unless_cached: str) -> bool:
    """Start a process that compiles the helpers of ``path`` into numba's cache, unless the
    kernel ``unless_cached`` (``"module:name"``) is cached already, and return at once.

    One such process at a time per file and cache (the marker of
    :func:`mathhammer.core.background_compile.start_detached`); it writes nothing to this
    process's terminal or pipes and may outlive it (what it compiled serves the next run).
    Returns whether it started; a system that cannot start one compiles as always.
    """
    from mathhammer.core.background_compile import start_detached

    return start_detached(_CHILD, ["helpers", str(path)], [str(path), unless_cached])


def cache_index_seen(source: Path, name: str) -> bool:
    """Whether numba's cache seems to hold function ``name`` of the file ``source``: its
    index file, looked for where numba's cache locators put it, without importing numba
    (a guess made before numba loads, so that the second process starts early; the process
    checks with numba itself before compiling)."""
    folder = source.resolve().parent
    subfolder = f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        places = [Path(chosen) / subfolder]
    else:
        user_cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        places = [folder / "__pycache__", user_cache / "numba" / subfolder]
    pattern = f"{source.stem}.{name}-*.nbi"
    return any(any(place.glob(pattern)) for place in places if place.is_dir())


#: The second process (:func:`compile_helpers`), with numba started as the command line starts
#: it (:func:`~mathhammer.core.numba_startup.for_this_package_only`: the helpers take no cffi
#: or other package's types); a numba that cannot read the file (another version) or compile
#: an entry leaves the rest to the kernel's own compile.
_CHILD = """
import sys
from importlib import import_module
from pathlib import Path
try:
    from mathhammer.core.numba_startup import for_this_package_only
    for_this_package_only()
    from mathhammer.core.jit import is_cached
    module, name = sys.argv[3].split(":")
    if not is_cached(getattr(import_module(module), name)):
        from mathhammer.core.helper_compile import compile_helpers
        compile_helpers(Path(sys.argv[2]))
finally:
    Path(sys.argv[1]).unlink(missing_ok=True)
"""
