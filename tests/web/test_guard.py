"""The web page's request guard (web/guard.py): Host, Origin and Sec-Fetch-Site rules."""

import asyncio

import pytest

from mathhammer.web.guard import OriginGuard, host_names, refusal

NAMES = frozenset({"localhost", "127.0.0.1"})


def refused(headers, method="POST", path="/api/answer"):
    return refusal(headers, method, path, NAMES, 8765)


def test_the_page_itself_may_ask():
    assert refused({"host": "127.0.0.1:8765", "origin": "http://127.0.0.1:8765"}) is None
    assert refused({"host": "localhost:8765"}) is None
    assert refused({"host": "[::1]:8765"}) is None   # an IP address


@pytest.mark.parametrize("headers, words", [
    ({"host": "evil.example:8765"}, "answers only at its own address"),    # DNS rebinding
    ({"host": "127.0.0.1:9999"}, "answers only at its own address"),      # another port
    ({"host": "127.0.0.1"}, "answers only at its own address"),           # port 80
    ({}, "answers only at its own address"),
    ({"host": "127.0.0.1:8765", "origin": "http://evil.example"}, "another site (Origin"),
    ({"host": "127.0.0.1:8765", "sec-fetch-site": "cross-site"}, "another site may not"),
])
def test_other_sites_are_refused(headers, words):
    assert words in refused(headers)


def test_following_a_link_to_a_page_is_allowed():
    headers = {"host": "127.0.0.1:8765", "sec-fetch-site": "cross-site",
               "sec-fetch-mode": "navigate"}
    assert refused(headers, "GET", "/") is None
    assert refused(headers, "GET", "/api/answer") is not None   # never the API


def test_host_names_and_the_middleware_answers_403():
    assert {"localhost", "0.0.0.0"} <= host_names("0.0.0.0")
    sent = []

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        raise AssertionError("a refused request reached the app")

    async def send(message):
        sent.append(message)

    guard = OriginGuard(app, port=8765)
    scope = {"type": "http", "method": "GET", "path": "/",
             "headers": [(b"host", b"evil.example:8765")]}
    asyncio.run(guard(scope, None, send))
    assert sent[0]["status"] == 403
    assert sent[1]["body"].decode().startswith("refused: ")
