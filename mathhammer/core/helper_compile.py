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

import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from mathhammer.core.kernel_cache import cache_folder, kernel_cache_folders


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


#: Set to ``0`` to compile without the second process (measuring, or a machine of one core).
SWITCH = "MATHHAMMER_COMPILE_ALONGSIDE"


class KernelHelpers(NamedTuple):
    """A kernel whose helpers a second process may compile on a cold cache: the file of
    recorded helper signatures, the kernel's source file and its ``"module:name"``."""

    helper_file: Path
    kernels_file: Path
    kernel: str

    def start_alongside(self) -> bool:
        """When the kernel is not in numba's cache, start the process compiling its helpers
        and return whether one started (none on a warm cache, with :data:`SWITCH` ``0``, on
        a machine of one core, or when one is running already). Imports no numba: a caller
        calls it first, so that the process's start overlaps its own."""
        if os.environ.get(SWITCH) == "0" or (os.cpu_count() or 1) < 2:
            return False
        name = self.kernel.split(":")[1]
        if not self.helper_file.is_file() or cache_index_seen(self.kernels_file, name):
            return False
        return compile_alongside(self.helper_file, self.kernel)

    def start_once(self) -> bool:
        """:meth:`start_alongside` on this process's first call for the kernel only: after
        that the process has compiled or loaded the kernel itself."""
        if self.kernel in _ASKED:
            return False
        _ASKED.add(self.kernel)
        return self.start_alongside()


_ASKED: set[str] = set()   # the kernels this process has asked for a helpers' process

#: Set in the process a recording command re-runs itself as (:func:`record_in_empty_cache`).
_RECORDING = "MATHHAMMER_RECORDING_HELPERS"


def write_recorded_helpers(action: Callable[[], object], path: Path, package: str,
                           leave_out: frozenset[str] = frozenset()) -> int:
    """Run ``action`` (which compiles a kernel first, in an empty cache), write the helpers
    it compiled to ``path``, last called first, and return how many.

    Kept: functions of ``package`` other than the kernel itself (the first compile) and
    ``leave_out``; numba's own overloads (functions local to another) compile with whatever
    calls them."""
    compiles = record_compiles(action)
    helpers = [c for c in compiles[1:] if c.module.startswith(package)
               and "<locals>" not in c.name and c.name not in leave_out]
    write_helper_file(helpers[::-1], path)
    return len(helpers)


def record_in_empty_cache(module: str, record: Callable[[Path], int], default: Path) -> None:
    """A recording command's ``main``: ``python -m module [FILE]`` re-runs itself with an
    empty numba cache and no second process, then ``record(FILE or default)``."""
    import subprocess
    import sys
    import tempfile

    if os.environ.get(_RECORDING) == "1":
        path = Path(sys.argv[1]) if len(sys.argv) > 1 else default
        print(f"{record(path)} helper signatures written to {path}")
        return
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, _RECORDING: "1", SWITCH: "0"}
        raise SystemExit(subprocess.call([sys.executable, "-m", module, *sys.argv[1:]],
                                         env=env))


def cache_index_seen(source: Path, name: str) -> bool:
    """Whether numba's cache seems to hold function ``name`` of the file ``source``: its
    index file, looked for where numba's cache locators put it, without importing numba
    (a guess made before numba loads, so that the second process starts early; the process
    checks with numba itself before compiling)."""
    folder = source.resolve().parent
    places = [cache_folder(folder)] if os.environ.get("NUMBA_CACHE_DIR") else \
        kernel_cache_folders(folder)
    pattern = f"{source.stem}.{name}-*.nbi"
    return any(any(place.glob(pattern)) for place in places if place.is_dir())


#: The second process (:func:`compile_helpers`): at the lowest priority when a background
#: compile started it; numba started as the command line starts it
#: (:func:`~mathhammer.core.numba_startup.for_this_package_only`: the helpers take no cffi or
#: other package's types); a numba that cannot read the file (another version) or compile an
#: entry leaves the rest to the kernel's own compile.
_CHILD = """
import sys
from importlib import import_module
from pathlib import Path
try:
    import os
    from mathhammer.core.background_compile import LOWERED, lower_priority
    if os.environ.get(LOWERED) == "1":   # started by a background compile
        lower_priority()
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
