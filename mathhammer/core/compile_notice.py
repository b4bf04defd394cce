"""One line on stderr when an engine's kernels compile, so a first run does not look hung.

numba compiles a kernel the first time it is called with an empty cache (a new installation,
a new ``NUMBA_CACHE_DIR``), which takes seconds; later processes load the cached machine code.
numba announces each real compile (not a cache load) as a ``numba:compile`` event: the first
one of an engine's entry kernel in this process prints, once, for example::

    mathhammer: compiling the 40k simulation kernels once (about 5 s; later runs start at once)

While the compile runs the line ticks (seconds elapsed, functions compiled so far) and says
how long it took when it ends, so a first run shows that something moves; progress bars hold
still meanwhile and restart their clocks after (a rate counts trials, not compiling). It
prints only when stderr is a terminal or the process is a Jupyter kernel (a notebook's first
``mh.simulate`` waits as long; there the line is rewritten with a bare carriage return, which
notebooks honour and whose erase-to-end escape they would not) and no ``--quiet`` scope is
open (:func:`mathhammer.core.progress.quiet`), so pipes, ``--json`` output and logs never see
it.
``mathhammer warmup`` compiles every engine ahead of time.
"""

from __future__ import annotations

import sys
import threading
import time

from mathhammer.core.progress import in_notebook, is_quiet, set_compiling, stderr_is_terminal

#: Module of an engine's entry kernels -> (what compiles, cold seconds measured on an idle
#: 2-core machine, rounded up). Helpers compiled from inside a kernel are not announced.
ENGINES: dict[str, tuple[str, int]] = {
    "mathhammer.wh40k.monte_carlo.kernels": ("the 40k simulation kernels", 6),
    "mathhammer.wh40k.scenario.kernels": ("the 40k scenario kernels", 6),
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
#: Seconds between two ticks of the compile notice.
TICK = 0.5
#: The terminal's erase-to-end-of-line, after each rewrite of the line.
ERASE_TO_END = "\x1b[K"


class _Ticker:
    """The announced compile's line, rewritten every :data:`TICK` seconds on the terminal
    (or in the notebook) with the seconds elapsed and the functions compiled so far, finished
    with its time. ``erase`` ends each rewrite: the terminal's erase-to-end, or nothing."""

    def __init__(self, line: str, erase: str) -> None:
        self.line, self.erase, self.start, self.functions = line, erase, time.monotonic(), 1
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="mathhammer-compile-notice",
                                       daemon=True)
        self.thread.start()

    def _say(self, words: str, end: str = "") -> None:
        # \r (and erase-to-end on a terminal): one line rewritten in place
        print(f"\r{self.line} {words}{self.erase}", end=end, file=sys.stderr, flush=True)

    def _run(self) -> None:
        while not self.done.wait(TICK):
            self._say(f"{time.monotonic() - self.start:.0f} s, {self.functions} functions "
                      "compiled")

    def finish(self) -> None:
        self.done.set()
        self.thread.join()
        self._say(f"done in {time.monotonic() - self.start:.1f} s", end="\n")


_ticker: _Ticker | None = None


def compiling() -> str | None:
    """What numba is compiling now (``"the 40k simulation kernels"``), or None: for a
    progress display that says why a first answer waits (the web page's "preparing")."""
    return _compiling


def _on_compile_start(module: str) -> None:
    global _depth, _compiling, _ticker
    with _lock:
        top_level = _depth == 0
        _depth += 1
        if top_level:
            _compiling = ENGINES.get(module, ("mathhammer's kernels", 0))[0]
            set_compiling(True)
        elif _ticker is not None:
            _ticker.functions += 1
        if not top_level or module in _announced:
            return
        line = notice(module)
        if line is None or is_quiet():
            return
        if stderr_is_terminal():
            erase = ERASE_TO_END
        elif in_notebook():
            erase = ""
        else:
            return
        _announced.add(module)
        _ticker = _Ticker(line, erase)


def _on_compile_end() -> None:
    global _depth, _compiling, _ticker
    with _lock:
        _depth = max(_depth - 1, 0)
        if _depth:
            return
        _compiling, ticker, _ticker = None, _ticker, None
        set_compiling(False)
    if ticker is not None:
        ticker.finish()


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
        # numba's event.register carries no annotations
        event.register("numba:compile", _Listener())  # type: ignore[no-untyped-call]
        install.done = True  # type: ignore[attr-defined]
