"""Hostile inputs, round 4 (issue 39), on the web page: names with mathtext's marks in every
page's charts (views and downloads), and uploads whose Content-Type the multipart parser
cannot take."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer.errors import RosterError
from mathhammer.web.uploads import Upload, parse_form
from tests.charts.test_literal_text import SCENARIO, dollar_roster, svg_texts
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


# -- uploads: a Content-Type the multipart parser cannot take ----------------------------------
def _form(boundary: str, data: bytes, name: str = "army.ros") -> bytes:
    """A form body around one file part, framed by ``boundary``."""
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{name}"\r\nContent-Type: application/octet-stream\r\n\r\n')
    return head.encode("latin-1") + data + f"\r\n--{boundary}--\r\n".encode("latin-1")


def _refused(response) -> str:
    assert response.status_code == 400, response.text
    message = response.json()["message"]
    assert "\n" not in message and "Traceback" not in message and "internal" not in message
    return message


@pytest.mark.parametrize("length", [257, 300, 5000])
def test_a_boundary_longer_than_the_parser_reads_is_a_400(client, roster_files, length):
    boundary = "x" * length
    response = client.post("/api/rosters", content=_form(boundary, b"<roster/>"), headers={
        "content-type": f"multipart/form-data; boundary={boundary}"})
    message = _refused(response)
    assert f"boundary is {length:,} characters long; at most 256" in message


@pytest.mark.parametrize("content_type", [
    "multipart/form-data",                       # no boundary
    "multipart/form-data; boundary=",            # an empty one
    'multipart/form-data; boundary=""',          # an empty quoted one
    "multipart/form-data; charset=utf-8",        # other parameters only
    "multipart/form-data; boundary*=utf-8''zz",  # RFC 2231 syntax, which forms may not use
    "multipart/mixed; boundary=zz",              # another multipart type
    "text/plain; boundary=zz",
    ";;;=;=\"",                                   # parameters without a type
    "",
])
def test_other_content_types_are_a_400(client, content_type):
    response = client.post("/api/rosters", content=_form("zz", b"<roster/>"),
                           headers={"content-type": content_type})
    assert "as a form upload (multipart/form-data)" in _refused(response)


def test_a_latin1_boundary_is_read_and_a_wider_character_refused():
    """HTTP headers are bytes (Starlette reads them as Latin-1); text past it is refused."""
    fields, files = parse_form("multipart/form-data; boundary=\u00e9t\u00e9",
                               _form("\u00e9t\u00e9", b"<roster/>"))
    assert files == [Upload("army.ros", b"<roster/>")]
    with pytest.raises(RosterError, match="as a form upload"):
        parse_form("multipart/form-data; boundary=\u20ac", b"")


#: Characters RFC 2046 allows in a boundary (a space only inside).
BCHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? "
BOUNDARY = st.integers(1, 400).flatmap(
    lambda n: st.text(st.sampled_from(BCHARS), min_size=n, max_size=n)).filter(
    lambda b: not b.endswith(" "))


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(boundary=BOUNDARY)
def test_any_boundary_is_read_or_refused_in_one_line(client, roster_files, boundary):
    data = roster_files["marines.ros"].read_bytes()
    response = client.post("/api/rosters", content=_form(boundary, data), headers={
        "content-type": f'multipart/form-data; boundary="{boundary}"'})
    if len(boundary) > 256:
        assert "form boundary is" in _refused(response)
    else:
        assert response.status_code == 200 and response.json()["name"] == "army.ros"


CONTENT_TYPE = st.one_of(
    st.text(st.characters(min_codepoint=0, max_codepoint=0x2FFF), max_size=300),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x2FFF), max_size=400).map(
        lambda b: "multipart/form-data; boundary=" + b),
    st.text(st.characters(min_codepoint=0, max_codepoint=0x2FFF), max_size=400).map(
        lambda b: f'multipart/form-data; boundary="{b}"'))


@settings(max_examples=300, deadline=None)
@given(content_type=CONTENT_TYPE, body=st.binary(max_size=200))
def test_parse_form_reads_or_refuses_any_content_type_in_one_line(content_type, body):
    try:
        parse_form(content_type, body)
    except RosterError as exc:
        assert "\n" not in str(exc)
