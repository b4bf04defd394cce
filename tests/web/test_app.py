"""The web application (web/app.py): pages, security headers, the guard in front; the
questions themselves are tests/web/test_server.py's."""

import html
import re

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


def test_the_40k_page_offers_buff_boxes_and_refuses_a_bad_buff_by_its_fields(client):
    from mathhammer.web.forms import WH40K_BUFFS

    from .conftest import run_job

    page = client.get("/?buff_oath=on").text
    for spec in WH40K_BUFFS:
        assert f'name="{spec.name}"' in page
    assert re.search(r'name="buff_oath"[^>]*checked', page)
    assert not re.search(r'name="buff_hit"[^>]*checked', page)
    assert 'data-check-kind="buff"' in page and "How to write a line" in page
    status = run_job(client, {"page": "40k", "weapons": "MEQ", "targets": "MEQ",
                              "buffs": "Oath: re-roll hitz"})
    assert status["state"] == "error" and status["location"] == "buffs line 1"
    assert status["token"] == "hitz" and "'hitz' at column 15" in status["message"]
    # the address of a bad buff line is refused on the page itself, before anything runs
    shown = html.unescape(client.get("/?buffs=Oath%3A+re-roll+hitz").text)
    assert "buffs line 1: 'hitz' at column 15" in shown


def test_a_buff_line_is_checked_as_it_is_typed(client):
    good = client.get("/api/check", params={"game": "40k", "kind": "buff",
                                            "line": "Storm: [lethal hits] to ranged weapons"})
    assert good.json() == {"ok": True, "read": "Storm: [lethal hits] to ranged weapons"}
    bad = client.get("/api/check", params={"game": "40k", "kind": "buff", "line": "+1 tasty"})
    assert bad.json()["ok"] is False and "'tasty'" in bad.json()["message"]
