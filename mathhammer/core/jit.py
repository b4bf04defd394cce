"""The one place that decides numba's compilation options.

Every kernel in the package is compiled with ``cache=True`` so that the JIT cost is paid once
per installation, not once per process. ``nogil`` lets a Dask or thread pool run kernels side
by side. ``fastmath`` stays off: the kernels compare probabilities and integer thresholds, and
re-associated floating-point sums would break bit-for-bit reproducibility.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mathhammer.core import compile_notice, numba_startup
from mathhammer.core.kernel_cache import cache_folder, kernel_cache_folders, user_cache_root

with numba_startup.importing_numba():
    import numba
    import numba.core.caching
    import numba.core.event

JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "fastmath": False,
                               "error_model": "numpy"}

# numba's type hints list its public options only; the decorators below also pass real
# private ones (_nrt, no_cpython_wrapper, no_cfunc_wrapper), and numba.config's settings are
# made at run time: both are reached through these untyped names.
_njit: Any = numba.njit
_config: Any = numba.config

# What the first compile costs, and why the decorators below look as they do: numba compiles
# each function once per distinct tuple of argument types (benchmarks/RESULTS.md). Two
# things multiplied that. A global Python ``int`` passed as an argument is typed as a
# literal (``Literal[int](3)``), so a helper called with three table numbers compiled three
# times: table numbers handed to helpers are ``numpy.int64`` instead, and call sites pass
# variables or those constants, never a bare ``0`` or ``1`` (``tests/core/test_jit_compile``
# checks every helper compiles once). And numba's own IR inlining (``inline="always"``)
# copied and re-typed a helper's IR at every call site, in Python; LLVM's inliner does the
# same job in a fraction of the time.
#
# What a helper compiled on its own costs besides: numba optimises it and emits its machine
# code in a library of its own, then again inside every library that calls it (a caller
# links its callees' code in, inlined or not). A helper called from one place only is
# cheaper as part of its caller (:data:`inlined_once`).
#
# numba passes the ``forceinline`` of the function being compiled on to every helper it
# compiles for it that does not set its own (``Flags.inherit_if_not_set``): a
# :data:`step_kernel` or :data:`kernel` first compiled for an inlined helper, or for a
# :data:`lean_inlining_kernel`, is inlined too.

#: Decorator for kernels called from Python: the entry points and the dice primitives tests
#: roll directly.
kernel = _njit(**JIT_OPTIONS)

#: Decorator for small helpers called in hot loops, per die or per batch. LLVM inlines them
#: into every caller (``alwaysinline``), so they cost no call; each is compiled once, without
#: reference counting (they never allocate) and without the Python and C entry points only
#: a call from Python needs. They cannot be called from Python.
inline_kernel = _njit(forceinline=True, _nrt=False, no_cpython_wrapper=True,
                      no_cfunc_wrapper=True, **JIT_OPTIONS)

#: Decorator for a helper called from one place only: numba copies its code into the caller
#: before typing (``inline="always"``), so it is never compiled, optimised and turned into
#: machine code in a library of its own. Copying costs time in Python that grows with the
#: helper's size (numba copies its variables once per block): for small and medium helpers.
inlined_once = _njit(inline="always", **JIT_OPTIONS)

#: Decorator for larger steps that stay out of line (a per-pool dice loop called from a few
#: places), and for small helpers no Python code calls: one copy of the machine code, no
#: reference counting, no Python entry point (whose wrappers cost about 0.1 s of a cold
#: compile per function).
step_kernel = _njit(_nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True,
                    **JIT_OPTIONS)

#: Decorator for the hot trial loops: compiled without numba's reference counting (NRT).
#: Every array a function touches is otherwise reference-counted with atomic operations; in
#: a loop that runs once per trial that was a large share of the time. Such a function
#: cannot allocate: callers pass scratch arrays.
lean_kernel = _njit(_nrt=False, **JIT_OPTIONS)

#: Decorator for a trial loop whose helpers are all inlined into it: a :data:`lean_kernel`
#: compiled with ``forceinline``, which numba passes on to the helpers compiled for it
#: (above). A kernel called from Python keeps its entry point; only its own caller, that
#: entry point, inlines it.
lean_inlining_kernel = _njit(forceinline=True, _nrt=False, **JIT_OPTIONS)


def optimised_at_level(level: int) -> Callable[[Any], Any]:
    """Decorator factory: compile this entry kernel, and the helpers compiled for it, at LLVM
    optimisation level ``level`` instead of numba's 3 (``NUMBA_OPT``).

    For the scenario kernel LLVM's work is most of a cold compile and buys little warm speed
    (each level lower cut seconds from a cold ``mathhammer run`` for a few per cent of warm
    speed; figures in benchmarks/RESULTS.md): a new user waits seconds for what a large run
    regains in milliseconds. numba has no per-function level, so ``numba.config.OPT`` is
    lowered while this kernel compiles (numba compiles one function at a time, under its
    global lock) and restored after; the machine code is cached at that level.
    """
    if not 0 <= level <= 3:
        raise ValueError(f"LLVM optimisation level {level} is not 0-3")

    def at_level(dispatcher: Any) -> Any:
        _LEVELS[dispatcher.py_func] = level
        return dispatcher
    return at_level


_LEVELS: dict[object, int] = {}   # a kernel's Python function (py_func): its level


class _OptimisationLevel(numba.core.event.Listener):
    """Lowers ``numba.config.OPT`` while an :func:`optimised_at_level` kernel compiles."""

    def __init__(self) -> None:
        # (dispatcher, level it replaced), innermost last
        self.saved: list[tuple[Any, Any]] = []

    def on_start(self, event: numba.core.event.Event) -> None:
        dispatcher = (event.data or {}).get("dispatcher")
        level = _LEVELS.get(getattr(dispatcher, "py_func", None))
        if level is not None and not self.saved:
            self.saved.append((dispatcher, _config.OPT))
            _config.OPT = type(_config.OPT)(min(level, int(_config.OPT)))

    def on_end(self, event: numba.core.event.Event) -> None:
        dispatcher = (event.data or {}).get("dispatcher")
        if self.saved and self.saved[-1][0] is dispatcher:
            _config.OPT = self.saved.pop()[1]


def is_cached(dispatcher: Any) -> bool:
    """Whether numba's cache holds compiled code of ``dispatcher`` (an ``@kernel``), read
    from its cache index without loading or compiling anything.

    A first call of a kernel that is not cached compiles it (seconds); a caller may answer
    another way meanwhile (:mod:`mathhammer.wh40k.first_answer`). When numba keeps no
    cache for the kernel, or its private layout is not the one expected, answers True: the
    kernel then runs as always.
    """
    try:
        return Path(dispatcher._cache._cache_file._index_path).is_file()
    except AttributeError:
        return True


def clear_stale_caches(package_root: Path) -> bool:
    """Delete numba's cache files of ``package_root``'s kernels when a kernel's source has
    changed.

    numba keys a kernel's cache on the kernel's own source file only: when a helper it calls
    from another module changes (a dice step in ``core/rng.py``, say), or a constant it reads
    (a column number in a ``compile.py``), the old machine code is loaded again and silently
    computes the old rules. A digest of every module a kernel module imports, directly or
    not (:func:`kernel_sources`), kept beside the caches, catches that; on a mismatch every
    ``.nbi``/``.nbc`` file of the package's folders goes, wherever numba may have put it
    (:func:`~mathhammer.core.kernel_cache.kernel_cache_folders`), and the kernels compile
    afresh once. A change elsewhere (a chart, the CLI) keeps the caches. Returns whether
    caches were cleared.

    Every process that imports a kernel runs this, so the stamp also keeps each source's
    size and modification time: while none has changed, the sources are not read again
    (27 ms of every warm command otherwise). A module that starts importing another changes
    itself, so the list of sources needs no new scan either.
    """
    places = kernel_cache_folders(package_root)
    active = next((place for place in places if _writable(place)), None)
    if active is None:
        return False   # a read-only installation and cache: numba caches nothing here
    recorded = _read(active / _STAMP)
    if recorded and _unchanged_since(package_root, recorded):
        return False
    sources = kernel_sources(package_root)
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.relative_to(package_root).as_posix().encode())
        digest.update(path.read_bytes())
    stale = recorded.split("\n", 1)[0] != digest.hexdigest()
    if stale:
        for source_folder in {path.parent for path in package_root.rglob("*.py")}:
            for folder in kernel_cache_folders(source_folder):
                for cached in folder.glob("*.nb[ic]"):
                    _remove(cached)
        for place in places:
            _remove(place / _STAMP)   # an earlier version's too, inside the package
    (active / _STAMP).write_text("\n".join([digest.hexdigest(),
                                            *(_file_stamp(package_root, p) for p in sources)]))
    return stale


_STAMP = "numba-sources.sha256"


def _read(path: Path) -> str:
    """``path``'s text, or ``""`` when it cannot be read."""
    try:
        return path.read_text()
    except OSError:
        return ""


def _remove(path: Path) -> None:
    """Delete the file ``path`` if it is there and may be deleted."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass   # not a folder on the way, or read-only: numba cannot have cached there


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists or can be made, and a file can be written in it: numba's own
    test before it caches in a folder."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _file_stamp(package_root: Path, path: Path) -> str:
    """``path``'s place under ``package_root``, size and modification time, in one line."""
    status = path.stat()
    return f"{path.relative_to(package_root).as_posix()}\t{status.st_size}\t{status.st_mtime_ns}"


def _unchanged_since(package_root: Path, recorded: str) -> bool:
    """Whether every source a stamp lists still has the size and modification time it
    recorded (a stamp without them, from an older version, never matches)."""
    lines = recorded.split("\n")[1:]
    try:
        return bool(lines) and all(
            _file_stamp(package_root, package_root / line.split("\t", 1)[0]) == line
            for line in lines)
    except OSError:
        return False   # a source gone


_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]*)|import\s+([\w.]+))",
                     re.MULTILINE)


def kernel_sources(package_root: Path) -> list[Path]:
    """The package's kernel modules (those importing ``core.jit``) and every package module
    they import, directly or through others, sorted: what a kernel's machine code can
    depend on. Imports are read from the text, so nothing is imported to find them.
    ``core.jit`` itself counts (its options shape every kernel), not what it imports."""
    package = package_root.name
    files = {p.relative_to(package_root).with_suffix("").as_posix().replace("/", "."): p
             for p in package_root.rglob("*.py")}
    files = {(name[: -len(".__init__")] if name.endswith(".__init__") else name): path
             for name, path in files.items()}
    todo = [name for name, path in files.items()
            if f"{package}.core.jit import" in path.read_text(encoding="utf-8")]
    todo.append("core.jit")
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in files:
            continue
        seen.add(name)
        if name == "core.jit":
            continue   # its options are digested; its imports (the notice) are not kernel code
        for source, names, plain in _IMPORT.findall(files[name].read_text(encoding="utf-8")):
            module = source or plain
            if not module.startswith(package + "."):
                continue
            module = module[len(package) + 1:]
            todo.append(module)
            for imported in re.findall(r"\w+", names):
                todo.append(f"{module}.{imported}")   # ``from pkg.sub import module``
    return sorted(files[name] for name in seen)


def cache_outside_the_package(package_root: Path) -> None:
    """Make numba cache the kernels of ``package_root``'s files in the user's numba cache
    folder instead of the ``__pycache__`` folders inside the installed package
    (:mod:`mathhammer.core.kernel_cache` says why), unless ``NUMBA_CACHE_DIR`` chooses a
    folder. numba picks a function's cache place from a list of locator classes, first
    that accepts it; this one accepts the package's files only, when the folder can be
    written, and goes right after the one for ``NUMBA_CACHE_DIR``. The list is numba's
    private (renamed in numba 0.60): without it numba keeps its own default.
    """
    caching: Any = numba.core.caching
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    base = (getattr(caching, "UserWideCacheLocator", None)
            or getattr(caching, "_UserWideCacheLocator", None))
    if impl is None or base is None or not isinstance(impl._locator_classes, list):
        return
    root = package_root.resolve()

    class PackageCacheLocator(base):  # type: ignore[misc, valid-type]
        """numba's user-wide locator for ``package_root``'s files, at the place
        :func:`~mathhammer.core.kernel_cache.cache_folder` names."""

        def __init__(self, py_func: Any, py_file: str) -> None:
            super().__init__(py_func, py_file)
            self._cache_path = str(cache_folder(Path(py_file).parent, user_cache_root()))

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not Path(py_file).resolve().is_relative_to(root):
                return None
            return super().from_function(py_func, py_file)

    classes = [c for c in impl._locator_classes if c.__name__ != PackageCacheLocator.__name__]
    chosen = [i for i, c in enumerate(classes) if c.__name__.lstrip("_").startswith("UserProv")]
    classes.insert(chosen[0] + 1 if chosen else 0, PackageCacheLocator)
    impl._locator_classes[:] = classes


cache_outside_the_package(Path(__file__).resolve().parents[1])
clear_stale_caches(Path(__file__).resolve().parents[1])
compile_notice.install()
numba_startup.install()
numba.core.event.register(  # type: ignore[no-untyped-call]  # numba's is unannotated
    "numba:compile", _OptimisationLevel())
