"""Progress bars for long work: one small API every engine and grid uses.

A bar goes to stderr, never stdout, so ``--json`` output and pipes stay clean. Whether it
shows is decided by ``progress``:

- ``None`` (the default everywhere): on when stderr is a terminal or the code runs in a
  notebook (where ``tqdm.auto`` draws the notebook bar), off otherwise; and off inside work
  that already has a bar (a grid shows one bar for its cells, not one per cell) or inside
  :func:`quiet` (the command line's ``--quiet``);
- ``True`` / ``False``: forced on or off.

Work that ends within :data:`DELAY` seconds shows nothing. Bars are updated per unit of work
(a grid cell, a finished chunk of trials), never per trial, so they cost no measurable time;
:func:`watch` polls a running kernel's output from the calling thread instead of asking the
kernel to report. ``tqdm`` is imported only when a bar is actually drawn.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from mathhammer.errors import MathhammerError, OptionError

T = TypeVar("T")

#: Seconds before a bar appears: shorter work shows nothing.
DELAY = 2.0
#: Seconds between two looks at a running kernel's progress (:func:`watch`).
POLL = 0.2

_lock = threading.Lock()
_depth = 0   # bars (or quiet scopes) open in this process
_quiet = 0   # quiet scopes open in this process (no bars, no compile notice)
_compiling = threading.Event()   # set while numba compiles (see set_compiling)


class Bar:
    """What a progress scope hands out: ``update(n)`` and ``update_to(done)``.

    The silent bar does nothing; a shown one forwards to a ``tqdm`` bar.
    """

    def __init__(self, bar: Any = None, report: Callable[[int], None] | None = None) -> None:
        self._bar = bar
        self._report = report  # a listener's callback (see listen()), told the count done
        self._done = 0

    @property
    def shown(self) -> bool:
        """Whether a bar is drawn or a listener follows it (callers may skip gathering
        progress when neither is)."""
        return self._bar is not None or self._report is not None

    def update(self, n: int = 1) -> None:
        """Count ``n`` more units of work done."""
        self._done += n
        if self._bar is not None:
            self._bar.update(n)
        if self._report is not None:
            self._report(self._done)

    def update_to(self, done: int) -> None:
        """Set the count of units done (never moves backwards)."""
        if done > self._done:
            self.update(done - self._done)

    def restart_clock(self) -> None:
        """Start the bar's clock again (its rate counts work from now on), keeping its count:
        the kernels compiled meanwhile, which is no work done."""
        if self._bar is not None:   # tqdm's clock: its delay and rate count from now
            now = self._bar._time()
            self._bar.start_t = self._bar.last_print_t = now

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()


def check_progress(progress: Any) -> bool | None:
    """``progress`` as given, or a one-line :class:`OptionError` if it is not None/True/False."""
    if progress is not None and not isinstance(progress, bool):
        raise OptionError(f"progress={progress!r:.60} must be None (automatic), True or False")
    return progress


def wanted(progress: bool | None) -> bool:
    """Whether a bar should show for ``progress`` (see the module docstring)."""
    chosen = check_progress(progress)
    if chosen is not None:
        return chosen
    return _depth == 0 and (_stderr_is_terminal() or in_notebook())


@contextlib.contextmanager
def bar(total: int, desc: str, *, progress: bool | None = None,
        unit: str = "cell") -> Iterator[Bar]:
    """A progress scope over ``total`` units of work.

    Parameters
    ----------
    total
        Units of work (grid cells, trials...).
    desc
        A few words shown before the bar, e.g. ``"compare"``.
    progress
        ``None`` (automatic), ``True`` or ``False``; see the module docstring.
    unit
        What one unit is; ``"trial"`` counts are shown with k/M prefixes.

    Yields
    ------
    Bar
        Call ``update(n)`` as units finish. Work run inside the scope with
        ``progress=None`` shows no bar of its own.

    Examples
    --------
    >>> with bar(3, "cells", progress=False) as b:
    ...     for _ in range(3):
    ...         b.update()
    """
    global _depth
    listener = getattr(_thread, "listener", None)
    owner = listener if listener is not None and not listener.open else None
    if owner is not None:  # the outermost scope of a listening thread
        shown = Bar(report=owner.scope(total, desc))
    else:
        shown = Bar(_make(total, desc, unit) if listener is None and wanted(progress) else None)
    with _lock:
        _depth += 1
    try:
        yield shown
    finally:
        with _lock:
            _depth -= 1
        shown.close()
        if owner is not None:
            owner.open = False


class Cancelled(MathhammerError):
    """Work stopped on purpose by whoever followed its progress (see :func:`listen`)."""


class _Listener:
    """The callback of :func:`listen` and whether its progress scope is open."""

    def __init__(self, report: Callable[[int, int, str], None]) -> None:
        self.report = report
        self.open = False

    def scope(self, total: int, desc: str) -> Callable[[int], None]:
        self.open = True
        self.report(0, total, desc)
        return lambda done: self.report(done, total, desc)


_thread = threading.local()


@contextlib.contextmanager
def listen(report: Callable[[int, int, str], None]) -> Iterator[None]:
    """Send the progress of work run in this thread to ``report(done, total, desc)``
    instead of a bar.

    Only the outermost progress scope reports (a grid's cells, not each cell's trials),
    and no bar is drawn on stderr. ``report`` is called from the thread doing the work
    (or polling its kernel, see :func:`watch`), at each step; raising there, e.g.
    :class:`Cancelled`, stops the work at that step. A local web page uses it to show
    progress and to cancel.
    """
    previous = getattr(_thread, "listener", None)
    _thread.listener = _Listener(report)
    try:
        yield
    finally:
        _thread.listener = previous


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """No automatic bars and no compile notice inside this scope (``--quiet``);
    ``progress=True`` still shows a bar."""
    global _quiet
    with _lock:
        _quiet += 1
    try:
        with bar(0, "", progress=False):
            yield
    finally:
        with _lock:
            _quiet -= 1


def set_compiling(on: bool) -> None:
    """Told by :mod:`mathhammer.core.compile_notice` while kernels compile: a bar of
    :func:`watch` holds still meanwhile (the compile notice moves instead) and restarts its
    clock after, so its rate counts trials only."""
    if on:
        _compiling.set()
    else:
        _compiling.clear()


def is_quiet() -> bool:
    """Whether a :func:`quiet` scope is open."""
    return _quiet > 0


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (where bars and notices may be shown)."""
    return _stderr_is_terminal()


def watch(work: Callable[[], T], done: Callable[[], int], total: int, desc: str, *,
          progress: bool | None = None, unit: str = "trial") -> T:
    """Run ``work()`` and return its result, with a bar fed by ``done()`` meanwhile.

    With a bar, ``work`` runs in a helper thread (it should be a ``nogil`` kernel call, or
    threads that run one) while this thread reads ``done()`` every :data:`POLL` seconds:
    e.g. the trials counted so far in the kernel's per-chunk histograms. The kernel is the
    same call either way, so results do not depend on whether a bar shows. Without a bar
    ``work()`` simply runs here.
    """
    with bar(total, desc, progress=progress, unit=unit) as b:
        if not b.shown:
            return work()
        outcome: dict[str, Any] = {}

        def run() -> None:
            try:
                outcome["value"] = work()
            except BaseException as exc:  # re-raised in the calling thread
                outcome["error"] = exc

        # A daemon thread: Ctrl-C in the calling thread ends the process without waiting.
        thread = threading.Thread(target=run, name="mathhammer-work", daemon=True)
        thread.start()
        held = False
        while thread.is_alive():
            thread.join(POLL)
            if _compiling.is_set():   # kernels compiling: no trials run, the notice ticks
                held = True
                continue
            if held:
                b.restart_clock()
                held = False
            b.update_to(min(int(done()), total))
        if "error" in outcome:
            raise outcome["error"]
        b.update_to(total)
        value: T = outcome["value"]
        return value


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (IPython is never imported to find out)."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython else None
    try:
        return shell is not None and "IPKernelApp" in shell.config
    except Exception:  # an unusual shell: no notebook bar
        return False


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr is not None and sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


def _make(total: int, desc: str, unit: str) -> Any:
    import warnings

    with warnings.catch_warnings():
        # tqdm.auto warns once when a notebook lacks ipywidgets, then draws a text bar.
        warnings.simplefilter("ignore")
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=desc, unit=unit, delay=DELAY, leave=False,
                    unit_scale=unit == "trial", **_size())


def _size() -> dict[str, Any]:
    """Follow the terminal's width; 80x24 for one that reports no size (a bare
    pseudo-terminal: tqdm would hide the bar there)."""
    import os

    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, OSError, ValueError):  # no file descriptor (e.g. a notebook)
        return {}
    return {"ncols": 80, "nrows": 24} if columns <= 0 else {"dynamic_ncols": True}
