"""The web application (web/app.py): pages, security headers, the guard in front; the
questions themselves are tests/web/test_server.py's."""

import pytest

from mathhammer.web.app import HEADERS, PAGES

from .conftest import BASE


@pytest.mark.parametrize("kind", sorted(PAGES))
def test_every_page_answers_with_the_security_headers(client, kind):
    path, label = PAGES[kind]
    response = client.get(path)
    assert response.status_code == 200 and label in response.text
    for name, value in HEADERS.items():
        assert response.headers[name] == value
    assert "default-src 'self'" in HEADERS["Content-Security-Policy"]


def test_unknown_paths_and_other_hosts(client):
    assert client.get("/nowhere").status_code == 404
    refused = client.get("/", headers={"host": "evil.example:8765"})
    assert refused.status_code == 403 and refused.text.startswith("refused: ")
    assert client.get(f"{BASE}/api/jobs/unknown").status_code == 404
