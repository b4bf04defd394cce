"""One line on stderr when an engine's kernels compile, so a first run does not look hung.

numba compiles a kernel the first time it is called with an empty cache (a new installation,
a new ``NUMBA_CACHE_DIR``), which takes seconds; later processes load the cached machine code.
numba announces each real compile (not a cache load) as a ``numba:compile`` event: the first
one of an engine's entry kernel in this process prints, once, for example::

    mathhammer: compiling the 40k simulation kernels once (about 5 s; later runs start at once)

It prints only when stderr is a terminal and no ``--quiet`` scope is open
(:func:`mathhammer.core.progress.quiet`), so pipes, ``--json`` output and logs never see it.
``mathhammer warmup`` compiles every engine ahead of time.
"""

from __future__ import annotations

import sys
import threading

from mathhammer.core.progress import is_quiet, stderr_is_terminal

#: Module of an engine's entry kernels -> (what compiles, cold seconds measured on an idle
#: 2-core machine, rounded up). Helpers compiled from inside a kernel are not announced.
ENGINES: dict[str, tuple[str, int]] = {
    "mathhammer.wh40k.monte_carlo.kernels": ("the 40k simulation kernels", 6),
    "mathhammer.wh40k.scenario.kernels": ("the 40k scenario kernels", 10),
    "mathhammer.warmachine.kernels": ("the Warmachine kernels", 8),
    "mathhammer.dust.kernels": ("the Dust kernels", 4),
}

_lock = threading.Lock()
_depth = 0                    # compiles in progress (a kernel's helpers compile inside it)
_announced: set[str] = set()  # engines already announced in this process


def notice(module: str) -> str | None:
    """The line announcing the compile of ``module``'s kernels, or None for other modules.

    Examples
    --------
    >>> notice("mathhammer.dust.kernels")
    'mathhammer: compiling the Dust kernels once (about 4 s; later runs start at once)'
    """
    engine = ENGINES.get(module)
    if engine is None:
        return None
    what, seconds = engine
    return f"mathhammer: compiling {what} once (about {seconds} s; later runs start at once)"


_compiling: str | None = None  # what the compile in progress compiles (its top-level kernel)


def compiling() -> str | None:
    """What numba is compiling now (``"the 40k simulation kernels"``), or None: for a
    progress display that says why a first answer waits (the web page's "preparing")."""
    return _compiling


def _on_compile_start(module: str) -> None:
    global _depth, _compiling
    with _lock:
        top_level = _depth == 0
        _depth += 1
        if top_level:
            _compiling = ENGINES.get(module, ("mathhammer's kernels", 0))[0]
        if not top_level or module in _announced:
            return
        line = notice(module)
        if line is None or is_quiet() or not stderr_is_terminal():
            return
        _announced.add(module)
    print(line, file=sys.stderr, flush=True)


def _on_compile_end() -> None:
    global _depth, _compiling
    with _lock:
        _depth = max(_depth - 1, 0)
        if _depth == 0:
            _compiling = None


def install() -> None:
    """Listen to numba's compile events (once per process; called by :mod:`core.jit`)."""
    from numba.core import event

    class _Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            _on_compile_start(getattr(getattr(dispatcher, "py_func", None), "__module__", ""))

        def on_end(self, ev: event.Event) -> None:
            _on_compile_end()

    if not getattr(install, "done", False):
        event.register("numba:compile", _Listener())
        install.done = True  # type: ignore[attr-defined]
