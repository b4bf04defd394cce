"""Issue 41's web items under Starlette's test client: refusals in the page's own words,
hand-edited addresses refused on the page, the first run's "preparing the engine"."""

from __future__ import annotations

import time

import pytest

from mathhammer.web.jobs import Job
from mathhammer.web.words import page_message
from tests.web.conftest import refusal, run_job


@pytest.mark.parametrize("call, expected", [
    (lambda: __import__("mathhammer").wh40k.Situation(advanced=True, stationary=True),
     "a unit that advanced did not remain stationary; untick 'Advanced' or 'Stationary'"),
    (lambda: __import__("mathhammer").wh40k.Situation(spotted=True),
     "'Spotted' only matters for indirect shooting; tick 'Indirect' or untick 'Spotted'"),
    (lambda: __import__("mathhammer").wh40k.Situation(indirect=True, overwatch=True),
     "indirect shooting and overwatch (snap shooting) are different shooting types; choose "
     "one of 'Indirect' and 'Overwatch'"),
])
def test_flags_are_named_by_the_pages_controls(call, expected):
    assert page_message(refusal(call)) == expected


def test_an_engine_refusal_on_the_page_names_its_boxes(client):
    status = run_job(client, {"page": "40k", "weapons": 'Bolter: 24" A2 BS3+ S4 AP0 D1',
                              "targets": "MEQ", "advanced": "on", "stationary": "on"})
    assert status["state"] == "error"
    assert "untick 'Advanced' or 'Stationary'" in status["message"]
    assert "--" not in status["message"]


@pytest.mark.parametrize("page, field, value", [
    ("/", "edition", "9"), ("/", "reroll_saves", "noncrit"), ("/", "cover", "maybe"),
    ("/", "engine", "fast"), ("/army", "phase", "psychic"), ("/dust", "ruleset", "x"),
    ("/warmachine", "no_tough", "2"), ("/", "trials", "0")])
def test_a_hand_edited_address_is_refused_on_the_page(client, page, field, value):
    text = client.get(page, params={field: value, "run": "1"}).text
    assert 'id="page-error"' in text
    error = text.split('id="page-error">')[1].split("</p>")[0]
    assert error.startswith(f"{field}: "), error
    assert client.get(page, params={"run": "1"}).status_code == 200
    assert 'id="page-error"' not in client.get(page, params={"edition": "10"}).text


def test_a_first_run_says_the_engine_is_being_prepared(monkeypatch):
    from mathhammer.core import compile_notice

    job = Job("x", state="running", started=time.monotonic() - 2)
    assert "preparing" not in job.status()
    monkeypatch.setattr(compile_notice, "_compiling", "the 40k scenario kernels")
    assert job.status()["preparing"] == "compiling the 40k scenario kernels"
    job.done = 1  # once a step is done the page shows the steps
    assert "preparing" not in job.status()


def test_compiling_names_the_engine_while_numba_compiles():
    from mathhammer.core import compile_notice

    compile_notice._on_compile_start("mathhammer.dust.kernels")
    compile_notice._on_compile_start("mathhammer.dust.helpers")  # a helper inside it
    try:
        assert compile_notice.compiling() == "the Dust kernels"
    finally:
        compile_notice._on_compile_end()
        compile_notice._on_compile_end()
    assert compile_notice.compiling() is None
