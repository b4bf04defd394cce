"""A process's first kernel call without numba's start-up work that no kernel needs (issue 43).

The first time a process compiles a function or loads one from the cache, numba readies its
typing and lowering registries: about 0.5 s on a two-core machine, for a kernel that then
runs a million trials in 0.04 s. Parts of that, and of a first compile, serve no kernel of
this package:

- ``numba.np.arraymath`` checks that a BLAS is there by importing ``scipy.linalg`` whole
  (0.2-0.3 s; scipy's array-API layer imports ``numpy.f2py`` on the way). No kernel calls
  BLAS. The check is answered from the extension module scipy ships
  (``scipy/linalg/cython_blas*``), without importing it, and numba's own check is put back
  afterwards, so that a later ``np.dot`` in someone's own jitted code still imports what it
  needs.
- numba's cffi support builds a C parser when cffi is installed (``cffi.FFI()``, about
  0.1 s), and numba reads every installed package's entry points for third-party numba
  extensions (25 ms). The command line leaves both out of its own process
  (:func:`for_this_package_only`): none of its kernels takes a cffi function or a type
  from another package. A Python session keeps both.
- Every time a process loads a kernel from numba's cache, numba first refreshes its typing
  and lowering registries (``BaseContext.refresh``: imports numba's own implementation
  modules and installs some 2,000 registrations, 0.15-0.3 s), which only a compile uses:
  rebuilding cached machine code reads none of them. The command line loads without that
  refresh (:func:`_load_without_refresh`); a compile in the same process still refreshes
  first, as numba's compiler always does. A Python session keeps numba's own loading.
- ``import numba`` imports scipy (for a version check: mathhammer's own requirement is
  newer), PyYAML (to read a ``.numba_config.yaml`` in the working directory) and colorama
  (for coloured messages): 40-50 ms. The command line imports numba without the three
  (:func:`importing_numba`) when there is no such file and its messages are plain; all
  three stay importable afterwards.
- numba dresses the message of every failed typing attempt (about 4,900 while the scenario
  kernel compiles) in terminal escape codes through colorama, even under its default
  ``no_color`` scheme: 0.1-0.18 s of a cold compile. The command line sets numba's own
  switch, ``NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING``, unless the user chose a colour
  scheme (``NUMBA_COLOR_SCHEME``) or set the switch; its processes' numba messages are plain
  text.

The BLAS check and cffi support are readied when numba first refreshes its registries (a
first compile, or a Python session's first cache load; nothing changes before then), the
entry-point scan is marked done and the command line's cache loads are changed when
:mod:`mathhammer.core.jit` calls :func:`install`.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_OTHER_PACKAGES = True   # whether numba readies cffi and other packages' extensions
_READY = False
_LOCK = threading.Lock()


def for_this_package_only() -> None:
    """Let numba leave out its cffi support and other packages' numba extensions in this
    process (the command line's: its kernels take neither), and write its messages
    without escape codes unless a colour scheme was chosen. Call it before
    :mod:`mathhammer.core.jit` is imported; it does not import numba. cffi support stays
    when the process has imported cffi already."""
    global _OTHER_PACKAGES
    _OTHER_PACKAGES = False
    if "NUMBA_COLOR_SCHEME" not in os.environ:   # read when numba.core.errors imports
        os.environ.setdefault("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "1")


@contextlib.contextmanager
def importing_numba() -> Iterator[None]:
    """Around ``import numba``: in the command line's process, the modules numba would import
    only for its checks (see above) look missing until the import is done."""
    left_out = [] if _OTHER_PACKAGES or "numba" in sys.modules else _numbas_optional_imports()
    for name in left_out:
        sys.modules[name] = None  # type: ignore[assignment]  # import name -> ImportError
    try:
        yield
    finally:
        for name in left_out:
            if sys.modules.get(name, False) is None:
                del sys.modules[name]


def _numbas_optional_imports() -> list[str]:
    """The modules ``import numba`` may go without in this process, not imported yet."""
    names = ["scipy"]
    if not Path(".numba_config.yaml").exists():
        names.append("yaml")
    if os.environ.get("NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING", "0") not in ("", "0"):
        names.append("colorama")
    return [name for name in names if name not in sys.modules]


def scipy_ships_blas() -> bool:
    """Whether scipy's ``linalg.cython_blas`` extension module is installed, read from the
    files without importing scipy's ``linalg``."""
    spec = importlib.util.find_spec("scipy")
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if (Path(folder) / "linalg" / f"cython_blas{suffix}").is_file():
                return True
    return False


def _blas_check_from_files() -> None:
    """Stands in for ``numba.np.linalg.ensure_blas`` while numba's array maths imports."""
    if not scipy_ships_blas():
        raise ImportError("scipy 0.16+ is required for linear algebra")


def _import_array_maths() -> None:
    """Import ``numba.np.arraymath`` with its BLAS check answered from scipy's files, then
    give every numba module that took the stand-in numba's own check back."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    import numba.np.linalg

    numbas_check = numba.np.linalg.ensure_blas
    numba.np.linalg.ensure_blas = _blas_check_from_files
    try:
        importlib.import_module("numba.np.arraymath")
    finally:
        for name, module in list(sys.modules.items()):
            if name.startswith("numba.") and \
                    getattr(module, "ensure_blas", None) is _blas_check_from_files:
                setattr(module, "ensure_blas", numbas_check)


def _import_cffi_support() -> None:
    """Import numba's cffi support as if cffi were missing (only when the process asked so
    and has not imported cffi itself); cffi stays importable afterwards."""
    if _OTHER_PACKAGES or "cffi" in sys.modules or \
            "numba.core.typing.cffi_utils" in sys.modules:
        return
    sys.modules["cffi"] = None  # type: ignore[assignment]  # import cffi -> ImportError
    try:
        importlib.import_module("numba.core.typing.cffi_utils")
    finally:
        del sys.modules["cffi"]


def _ready_once() -> None:
    """Ready numba's array maths and cffi support as above, once per process, whichever
    thread comes first."""
    global _READY
    if _READY:
        return
    with _LOCK:
        if not _READY:
            try:
                _import_array_maths()
                _import_cffi_support()
            finally:
                _READY = True


def install() -> None:
    """Ready numba as above just before it first fills its registries (a first compile, or a
    cache load in a Python session); in the command line's process, load cached kernels
    without filling them. Imports numba; :func:`for_this_package_only` does not."""
    import numba.core.base
    import numba.core.caching
    import numba.core.entrypoints
    import numba.core.typing.context
    import numba.core.typing.typeof

    if not _OTHER_PACKAGES:   # numba's own flag: entry points read already
        numba.core.entrypoints._already_initialized = True
        setattr(numba.core.caching.Cache, "load_overload", _load_without_refresh)
        setattr(numba.core.typing.typeof, "np", _NumpySeenByTypeof())
    for context_class in (numba.core.base.BaseContext,
                          numba.core.typing.context.BaseContext):
        setattr(context_class, "refresh", _readied_first(context_class.refresh))


def _readied_first(numbas_refresh: Any) -> Any:
    """numba's ``refresh`` of a typing or target context, after :func:`_ready_once`."""
    if getattr(numbas_refresh, "readies_numba_first", False):
        return numbas_refresh

    def refresh(context: Any) -> None:
        _ready_once()
        numbas_refresh(context)

    refresh.readies_numba_first = True  # type: ignore[attr-defined]
    return refresh


def _load_without_refresh(cache: Any, signature: Any, target_context: Any) -> Any:
    """numba's ``Cache.load_overload`` without its ``target_context.refresh()``: rebuilding
    cached machine code reads none of the typing and lowering registries the refresh fills.
    numba's runtime (reference counting), which the refresh would also start (about 40 ms:
    it compiles a module of its own), is started only when the machine code calls it; the
    trial loops, compiled without it, do not."""
    if not cache._enabled:
        return None
    with cache._guard_against_spurious_io_errors():
        data = cache._cache_file.load(cache._index_key(signature, target_context.codegen()))
        if data is None:
            return None
        if _may_call_numba_runtime(data[0]):
            from numba.core.runtime import rtsys

            rtsys.initialize(target_context)
        return cache._impl.rebuild(target_context, data)


def _may_call_numba_runtime(library: Any) -> bool:
    """Whether a cached library's object code names any of numba's runtime functions
    (``NRT_...``); true for anything not laid out as numba 0.5x-0.6x caches it."""
    try:
        _name, kind, (object_code, _bitcode) = library
    except (TypeError, ValueError):
        return True
    return kind != "object" or not isinstance(object_code, bytes) or b"NRT_" in object_code


def ready_numpy_for_worker_threads() -> None:
    """Import ``numpy.ma`` in the calling thread, unless numba's ``typeof`` never asks for it
    in this process (the command line's: :class:`_NumpySeenByTypeof`).

    numpy imports ``numpy.ma`` lazily, in its module ``__getattr__``; when two worker threads
    calling kernels first touch ``np.ma`` at once, the second reads the half-made module
    through the same ``__getattr__`` and recurses (RecursionError). Called by the module that
    starts them, before it does."""
    if not isinstance(getattr(sys.modules.get("numba.core.typing.typeof"), "np", None),
                      _NumpySeenByTypeof):
        import numpy.ma  # noqa: F401


class _NumpySeenByTypeof:
    """numpy, as numba's ``typeof`` module sees it in the command line's process: the same
    module, except that ``np.ma`` is not imported (30-40 ms) to ask whether an argument is a
    masked array while no masked array can exist (``numpy.ma`` not imported yet)."""

    class _NoMaskedArrays:
        class MaskedArray:
            """No value is an instance of this class."""

    def __getattr__(self, name: str) -> Any:
        import numpy

        if name == "ma" and "numpy.ma" not in sys.modules:
            return self._NoMaskedArrays
        return getattr(numpy, name)
