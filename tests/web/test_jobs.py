"""The web page's jobs (web/jobs.py): answers, one-line errors, cancelling, the cap."""

import threading
import time

import pytest

from mathhammer.errors import OptionError
from mathhammer.web import jobs
from mathhammer.web.jobs import Answer, Busy, JobRunner


def wait(runner, job, states=("done", "error", "cancelled")):
    for _ in range(500):
        if runner.get(job.id).state in states:
            return runner.get(job.id)
        time.sleep(0.01)
    raise AssertionError(f"job still {job.state}")


@pytest.fixture
def runner():
    r = JobRunner(workers=1)
    yield r
    r.shutdown()


def test_an_answer_and_an_error(runner):
    done = wait(runner, runner.submit(lambda: Answer("<p>3 wounds</p>")))
    assert done.status()["html"] == "<p>3 wounds</p>" and done.status()["seconds"] >= 0

    def bad():
        raise OptionError("hit_mod=9\n is impossible")

    failed = wait(runner, runner.submit(bad))
    assert failed.status() == {"id": failed.id, "state": "error", "done": 0, "total": 0,
                               "desc": "", "message": "hit_mod=9 is impossible"}

    def bug():
        raise KeyError("x")

    assert "this is a bug in mathhammer" in wait(runner, runner.submit(bug)).message


def test_a_cancelled_job_stops_at_its_next_step(runner):
    from mathhammer.core.progress import bar

    started, steps = threading.Event(), []

    def work():
        with bar(1000, "work", progress=True) as shown:
            for _ in range(1000):
                started.set()
                time.sleep(0.005)
                steps.append(1)
                shown.update()
        return Answer("never")

    job = runner.submit(work)
    started.wait(5)
    runner.cancel(job.id)
    cancelled_at = len(steps)
    # the work raises at its next progress step (5 ms away); a loaded machine may starve its
    # thread for a while, so wait until the count holds still, then check it stays put
    stopped_at = -1
    for _ in range(100):
        time.sleep(0.1)
        if len(steps) == stopped_at:
            break
        stopped_at = len(steps)
    time.sleep(0.2)
    assert len(steps) == stopped_at < 1000 and stopped_at - cancelled_at < 500
    assert runner.get(job.id).state == "cancelled" and job.answer is None


def test_too_many_jobs_are_refused(monkeypatch, runner):
    monkeypatch.setattr(jobs, "MAX_PENDING", 1)
    gate = threading.Event()
    runner.submit(lambda: gate.wait(5) and Answer(""))
    with pytest.raises(Busy, match="already running or waiting"):
        runner.submit(lambda: Answer(""))
    gate.set()


def test_a_refusal_is_one_line_in_the_pages_words():
    from mathhammer.errors import OptionError
    from mathhammer.web.words import page_message

    assert page_message(OptionError("a\n  b\tc ")) == "a b c"
