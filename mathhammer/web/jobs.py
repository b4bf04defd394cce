"""Engine work off the event loop: a small thread pool of jobs with progress and cancelling.

A job is one press of a page's button. It runs in a worker thread inside
:func:`mathhammer.core.progress.listen`, so the engines' own progress steps (grid cells,
chunks of trials) update the job, and a cancelled job stops at its next step (a kernel
already running finishes in the background, its answer dropped). Finished jobs keep their
answer (HTML and downloads) in memory for a while, the oldest dropped first.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from mathhammer.core.progress import Cancelled, listen
from mathhammer.errors import MathhammerError
from mathhammer.web.words import page_message

log = logging.getLogger("mathhammer.web")

#: Jobs computing at once; more wait in the pool's queue.
WORKERS = 2
#: Jobs running or waiting at once: a further request is refused (the page says why).
MAX_PENDING = 8
#: Finished jobs whose answers are kept for downloads and cell clicks.
KEEP = 24


@dataclass
class Download:
    """A file the answer offers: its media type and how to make its bytes."""

    media_type: str
    make: Callable[[], bytes]


@dataclass
class Answer:
    """What a job hands back: an HTML fragment, files to download and extra views (such
    as the full distributions of a matrix cell) made on demand."""

    html: str
    downloads: dict[str, Download] = field(default_factory=dict)
    views: dict[str, Callable[[], str]] = field(default_factory=dict)


@dataclass
class Job:
    """One computation: its state, progress and answer."""

    id: str
    state: str = "waiting"  # waiting, running, done, error, cancelled
    done: int = 0
    total: int = 0
    desc: str = ""
    message: str = ""
    answer: Answer | None = None
    started: float = field(default_factory=time.monotonic)
    seconds: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)

    def report(self, done: int, total: int, desc: str) -> None:
        """Progress from the engine (through ``listen``); stops the work once cancelled."""
        self.done, self.total, self.desc = done, total, desc
        if self.cancel.is_set():
            raise Cancelled("cancelled")

    def status(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "state": self.state, "done": self.done,
                               "total": self.total, "desc": self.desc}
        # no step done after half a second while numba compiles (here or in the start-up
        # warm-up, whose lock this job then waits for): say why
        if self.state == "running" and self.done == 0 and \
                time.monotonic() - self.started > 0.5:
            preparing = _compiling()
            if preparing:
                out["preparing"] = f"compiling {preparing}"
        if self.state == "error":
            out["message"] = self.message
        if self.state == "done" and self.answer is not None:
            out["html"] = self.answer.html
            out["seconds"] = self.seconds
        return out


class Busy(MathhammerError):
    """Too many computations at once."""


class JobRunner:
    """Runs jobs in a thread pool and keeps the latest ones."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="mh-web")
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()

    def submit(self, work: Callable[[], Answer]) -> Job:
        """Start ``work`` in the pool; refuse with :class:`Busy` past :data:`MAX_PENDING`."""
        with self._lock:
            pending = sum(j.state in ("waiting", "running") for j in self._jobs.values())
            if pending >= MAX_PENDING:
                raise Busy(f"{pending} computations are already running or waiting: wait "
                           "for one to finish or cancel one")
            job = Job(secrets.token_urlsafe(12))
            self._jobs[job.id] = job
            self._forget_old()
        self._pool.submit(self._run, job, work)
        return job

    def _forget_old(self) -> None:
        finished = [k for k, j in self._jobs.items() if j.state not in ("waiting", "running")]
        for key in finished[:max(0, len(finished) - KEEP)]:
            del self._jobs[key]

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def cancel(self, job_id: str) -> Job | None:
        job = self.get(job_id)
        if job is not None and job.state in ("waiting", "running"):
            job.cancel.set()
            job.state = "cancelled"
        return job

    def _run(self, job: Job, work: Callable[[], Answer]) -> None:
        if job.cancel.is_set():
            return
        job.state = "running"
        job.started = time.monotonic()
        try:
            with listen(job.report):
                answer = work()
        except Cancelled:
            job.state = "cancelled"
            return
        except MathhammerError as exc:
            self._fail(job, page_message(exc))
            return
        except (MemoryError, RecursionError) as exc:
            self._fail(job, f"this question needs more memory or depth than the machine has "
                            f"({type(exc).__name__}): ask for less")
            return
        except Exception as exc:  # a bug: logged with its traceback, one line on the page
            log.error("job %s failed:\n%s", job.id, traceback.format_exc())
            said = page_message(exc)[:200]
            self._fail(job, f"internal error ({type(exc).__name__}: {said}); this is a bug "
                            "in mathhammer, please report it")
            return
        job.seconds = time.monotonic() - job.started
        if job.cancel.is_set():
            job.state = "cancelled"
            return
        job.answer = answer
        job.state = "done"

    @staticmethod
    def _fail(job: Job, message: str) -> None:
        if not job.cancel.is_set():
            job.message = message
            job.state = "error"

    def shutdown(self) -> None:
        for job in list(self._jobs.values()):
            job.cancel.set()
        self._pool.shutdown(wait=False, cancel_futures=True)


def _compiling() -> str | None:
    """What numba compiles now (an engine's first question on a cold cache), if anything."""
    from mathhammer.core.compile_notice import compiling

    return compiling()
