"""Running one serial kernel per thread, from Python.

The 40k single-target engine splits its trials into a fixed number of chunks and lets each
thread run a share of them with a serial ``nogil`` kernel, started from a small thread pool.
Compared with a ``parallel=True`` kernel wrapping the trial loop this compiles faster on a
cold cache (figures: benchmarks/RESULTS.md; numba re-optimises a callee inside every
caller, and parfor lowering is slow) and skips starting numba's threading layer on a warm
one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Any

import numba

from mathhammer.core import numba_startup

numba_startup.ready_numpy_for_worker_threads()


def thread_count(limit: int) -> int:
    """Threads to use: numba's thread count (``NUMBA_NUM_THREADS``, or
    ``numba.set_num_threads`` once numba's threading layer is running), at most ``limit``."""
    from numba.np.ufunc import parallel

    if getattr(parallel, "_is_initialized", False):
        threads = numba.get_num_threads()
    else:  # asking numba would start its threading layer (~50 ms) for nothing
        # numba.config sets its settings from the environment at import, unseen by mypy
        threads = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    return max(1, min(int(threads), limit))


@functools.lru_cache(maxsize=None)
def _pool(n_threads: int) -> ThreadPoolExecutor:
    # Kept for the life of the process: starting threads cost ~0.5 ms per simulation.
    return ThreadPoolExecutor(max_workers=n_threads, thread_name_prefix="mathhammer")


def run_chunk_shares(kernel: Callable[..., None], n_chunks: int, *args: Any) -> None:
    """Run ``kernel(first, step, *args)`` on as many threads as allowed (at most
    ``n_chunks``): a serial ``nogil`` kernel that runs chunks ``first, first + step, ...``.
    """
    run_shares(lambda first, step: kernel(first, step, *args), thread_count(n_chunks))


def run_shares(share: Callable[[int, int], None], n_threads: int) -> None:
    """Call ``share(first, step)`` for ``first`` in ``0..n_threads-1``, one per thread.

    ``share`` must release the GIL (a ``nogil`` numba kernel) and write only its own part of
    the output; exceptions are re-raised here.
    """
    if n_threads == 1:
        share(0, 1)
        return
    futures = [_pool(n_threads).submit(share, first, n_threads) for first in range(n_threads)]
    wait(futures)  # every share finishes before any error is raised
    for future in futures:
        future.result()
