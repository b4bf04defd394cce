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
- numba dresses the message of every failed typing attempt (about 4,900 while the scenario
  kernel compiles) in terminal escape codes through colorama, even under its default
  ``no_color`` scheme: 0.1-0.18 s of a cold compile. The command line sets numba's own
  switch, ``NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING``, unless the user chose a colour
  scheme (``NUMBA_COLOR_SCHEME``) or set the switch; its processes' numba messages are plain
  text.

The BLAS check and cffi support are readied by a listener on numba's compiler lock, the first
thing a first compile or cache load takes (nothing changes before a process calls a kernel);
the entry-point scan is marked done when :mod:`mathhammer.core.jit` installs that listener.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
import threading
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
    """Ready numba as above the first time any thread takes numba's compiler lock (a first
    compile or cache load). Imports numba; :func:`for_this_package_only` does not."""
    import numba.core.entrypoints
    import numba.core.event

    if not _OTHER_PACKAGES:   # numba's own flag: entry points read already
        numba.core.entrypoints._already_initialized = True

    class FirstCall(numba.core.event.Listener):
        def on_start(self, event: Any) -> None:
            _ready_once()

        def on_end(self, event: Any) -> None:
            pass

    numba.core.event.register(  # type: ignore[no-untyped-call]  # numba's is unannotated
        "numba:compiler_lock", FirstCall())
