"""Shared fixtures of the web page's tests: the application under Starlette's test client,
the test rosters written to a temporary folder, and a helper running a page's job."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed: "
                                        'pip install ".[web]" (the test extra includes it)')

PORT = 8765
BASE = f"http://127.0.0.1:{PORT}"


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from mathhammer.web.app import create_app

    with TestClient(create_app(port=PORT), base_url=BASE) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def roster_files(tmp_path_factory):
    from tests.web.rosters import write

    return write(tmp_path_factory.mktemp("rosters"))


def refusal(call) -> BaseException:
    """The error ``call()`` refuses with (a test fails when it does not refuse)."""
    try:
        call()
    except Exception as exc:  # noqa: BLE001  (the refusal under test)
        return exc
    raise AssertionError("not refused")


def run_job(client, data: dict, timeout: float = 120.0) -> dict:
    """Start a page's job and wait for it to end; its last status."""
    started = client.post("/api/jobs", data=data)
    status = started.json()
    if started.status_code != 200:
        return status
    deadline = time.monotonic() + timeout
    while status["state"] in ("waiting", "running"):
        assert time.monotonic() < deadline, f"job still {status['state']} after {timeout} s"
        time.sleep(0.05)
        status = client.get(f"/api/jobs/{status['id']}").json()
    return status


def upload(client, path, slot: str = "list"):
    """Post a roster file as the page's drop does."""
    with open(path, "rb") as stream:
        return client.post("/api/rosters", data={"slot": slot},
                           files={"file": (path.name, stream.read())})
