"""The one place that decides numba's compilation options.

Every kernel in the package is compiled with ``cache=True`` so that the JIT cost is paid once
per installation, not once per process. ``nogil`` lets a Dask or thread pool run kernels side
by side. ``fastmath`` stays off: the kernels compare probabilities and integer thresholds, and
re-associated floating-point sums would break bit-for-bit reproducibility.
"""

from __future__ import annotations

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
