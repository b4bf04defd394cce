"""One share per thread: every share runs once with the right (first, step), errors surface."""

import threading

import pytest

from mathhammer.core.threads import run_shares, thread_count


@pytest.mark.parametrize("n_threads", [1, 2, 3])
def test_every_share_runs_once_with_its_own_first_chunk(n_threads):
    calls, lock = [], threading.Lock()

    def share(first, step):
        with lock:
            calls.append((first, step))

    run_shares(share, n_threads)
    assert sorted(calls) == [(first, n_threads) for first in range(n_threads)]


def test_an_error_in_a_share_is_raised_to_the_caller():
    def share(first, step):
        if first == 1:
            raise ValueError("share 1 failed")

    with pytest.raises(ValueError, match="share 1 failed"):
        run_shares(share, 2)


def test_thread_count_is_positive_and_capped():
    assert thread_count(1) == 1
    assert 1 <= thread_count(64) <= 64
