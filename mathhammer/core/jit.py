"""The one place that decides numba's compilation options.

Every kernel in the package is compiled with ``cache=True`` so that the JIT cost is paid once
per installation, not once per process. ``nogil`` lets a Dask or thread pool run kernels side
by side. ``fastmath`` stays off: the kernels compare probabilities and integer thresholds, and
re-associated floating-point sums would break bit-for-bit reproducibility.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numba

JIT_OPTIONS = {"cache": True, "nogil": True, "fastmath": False, "error_model": "numpy"}

#: Decorator for serial kernels.
kernel = numba.njit(**JIT_OPTIONS)

#: Decorator for small helpers called in hot loops: numba inlines their IR into every caller.
#: LLVM does not inline a numba function that takes arrays on its own (each call then
#: costs reference counting of every array argument), so the few helpers a trial calls
#: per die or per batch use this; everything larger stays out of line to keep the cold
#: compile short.
inline_kernel = numba.njit(inline="always", **JIT_OPTIONS)

#: Decorator for the hot trial loops: compiled without numba's reference counting (NRT).
#: Every array a function touches is otherwise reference-counted with atomic operations,
#: and inlined helpers repeat that per call; in a loop that runs once per trial that was a
#: large share of the time. Such a function cannot allocate: callers pass scratch arrays.
lean_kernel = numba.njit(_nrt=False, **JIT_OPTIONS)

#: Decorator for kernels that use ``numba.prange`` over a fixed number of chunks.
parallel_kernel = numba.njit(parallel=True, **JIT_OPTIONS)

prange = numba.prange


def clear_stale_caches(package_root: Path) -> bool:
    """Delete numba's cache files under ``package_root`` when any source file has changed.

    numba keys a kernel's cache on the kernel's own source file only: when a helper it calls
    from another module changes (a dice step in ``core/rng.py``, say), the old machine code
    is loaded again and silently computes the old rules. A digest of every ``.py`` file of
    the package, kept beside the caches, catches that; on a mismatch every ``.nbi``/``.nbc``
    file goes and the kernels compile afresh once. Returns whether caches were cleared.
    Caches numba keeps elsewhere (a read-only installation) are not checked.
    """
    digest = hashlib.sha256()
    for path in sorted(package_root.rglob("*.py")):
        digest.update(path.relative_to(package_root).as_posix().encode())
        digest.update(path.read_bytes())
    stamp = package_root / "__pycache__" / "numba-sources.sha256"
    try:
        if stamp.read_text() == digest.hexdigest():
            return False
    except OSError:
        pass
    for cached in package_root.rglob("__pycache__/*.nb[ic]"):
        cached.unlink(missing_ok=True)
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        pass  # a read-only installation: numba caches elsewhere, nothing to guard here
    return True


clear_stale_caches(Path(__file__).resolve().parents[1])
