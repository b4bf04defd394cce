"""Hostile inputs, round 4 (issue 39), on the web page: names with mathtext's marks in every
page's charts (views and downloads), and uploads whose Content-Type the multipart parser
cannot take."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from tests.core.test_chart_literal_text import SCENARIO, dollar_roster, svg_texts
from tests.web.conftest import run_job

PROFILE = ": A2 BS3+ S4 AP0 D1"
TARGET = ": T4 Sv3+ W2"

PAGES = {
    "40k-pairing": ({"page": "40k", "weapons": f"$${PROFILE}", "targets": f"$t${TARGET}",
                     "engine": "exact"}, "$$ vs $t$"),
    "40k-grid": ({"page": "40k", "weapons": f"$${PROFILE}\n$x^2$ a_b{PROFILE}",
                  "targets": f"$t${TARGET}\nMEQ", "engine": "exact"}, "$x^2$ a_b"),
    "warmachine": ({"page": "warmachine", "attacks": "$$ Fist: MAT6 POW12",
                    "targets": "$j$: DEF13 ARM14 BOXES30", "engine": "exact"}, "$$ Fist"),
    "dust": ({"page": "dust", "weapons": "$$ Gun: 6/1", "targets": "5x $G$: INFANTRY2",
              "engine": "exact"}, "$$ Gun"),
    "battle": ({"page": "battle", "scenario": SCENARIO, "trials": "2000"}, "$$ Shooter"),
}


def _inline_texts(svg: str) -> list[str]:
    """The texts of an inline ``<svg>`` element (no XML declaration, ids prefixed)."""
    return ["".join(e.itertext()) for e in ET.fromstring(svg).iter(
        "{http://www.w3.org/2000/svg}text")]


def _charts_are_literal(client, status: dict, name: str) -> list[str]:
    """Every chart view and download of a finished job: 200, a picture, ``name`` as written."""
    assert status["state"] == "done", status.get("message")
    views = re.findall(r'data-view="(chart-[^"]+)"', status["html"])
    assert views
    for view in views:
        response = client.get(f"/api/jobs/{status['id']}/views/{view}")
        assert response.status_code == 200, response.text
        texts = _inline_texts(response.text)
        assert any(name in t for t in texts), (view, name, texts)
        chart = view.removeprefix("chart-")
        png = client.get(f"/api/jobs/{status['id']}/files/{chart}.png")
        assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
        svg = client.get(f"/api/jobs/{status['id']}/files/{chart}.svg")
        assert svg.status_code == 200 and any(name in t for t in svg_texts(svg.content))
    return views


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_pages_charts_draw_dollar_names_as_written(client, page):
    data, name = PAGES[page]
    _charts_are_literal(client, run_job(client, data), name)


def test_the_army_matrix_and_its_cells_draw_dollar_names_as_written(client, tmp_path):
    from tests.web.conftest import upload
    from tests.wh40k.roster import builder as b

    path = tmp_path / "$$ army.json"
    path.write_text(b.to_json(dollar_roster()), encoding="utf-8")
    key = upload(client, path).json()["id"]
    status = run_job(client, {"page": "army", "list": key, "targets": f"$t${TARGET}",
                              "engine": "exact", "phase": "shooting"})
    assert _charts_are_literal(client, status, "$x^2$ Squad") == ["chart-matrix"]
    cell = re.search(r'data-view="(cell-\d+)">', status["html"]).group(1)
    fragment = client.get(f"/api/jobs/{status['id']}/views/{cell}")
    assert fragment.status_code == 200 and "<svg" in fragment.text
    svgs = re.findall(r"<svg.*?</svg>", fragment.text, flags=re.S)
    assert any("$t$" in t for svg in svgs for t in _inline_texts(svg))
