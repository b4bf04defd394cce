"""Units by name on the 40k page (issue 32): ``serve --data DIR`` (or MATHHAMMER_DATA), the
``/api/units`` completion route, ``@Name`` lines checked and computed, refusals in one line.

The checkout is the package's invented example (:func:`write_checkout`); expected lines
and numbers are typed here from what that module writes (Strike Squad: 5 models T4 Sv3+ W2,
a plasma pistol and four pulse rifles; Drone Wing: 2 drones T3 Sv4+ W1; Hero's relic blade),
not read back from the index the page uses.
"""

from __future__ import annotations

import time

import pytest

import mathhammer as mh
from tests.web.conftest import BASE, PORT, run_job

SQUAD_WEAPONS = ['Plasma pistol: 12" A1 BS3+ S7 AP-2 D1 [PISTOL]',
                 '4x Pulse rifle: 24" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1]']
SQUAD_TARGET = "5x Strike Squad: T4 Sv3+ W2 [INFANTRY]"
DRONES = "2x Drone Wing: T3 Sv4+ W1 [FLY]"
RELIC_BLADE = "Relic blade: Melee A5 WS2+ S6 AP-3 D2 [DEVASTATING WOUNDS]"


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    from mathhammer.wh40k.bsdata.example import write_checkout

    return write_checkout(tmp_path_factory.mktemp("bsdata"), 11)


@pytest.fixture(scope="module")
def named_client(checkout):
    from starlette.testclient import TestClient

    from mathhammer.web.app import create_app

    with TestClient(create_app(port=PORT, data=checkout), base_url=BASE) as test_client:
        yield test_client


@pytest.fixture()
def bare_client(monkeypatch):
    """A page started with no checkout (and none in the environment)."""
    from starlette.testclient import TestClient

    from mathhammer.web.app import create_app

    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    with TestClient(create_app(port=PORT), base_url=BASE) as test_client:
        yield test_client


def _mean(status: dict) -> float:
    import re

    assert status["state"] == "done", status
    return float(re.search(r'data-mean-damage="([^"]+)"', status["html"]).group(1))


def test_the_unit_box_completes_names_of_the_checkout(named_client):
    every = named_client.get("/api/units").json()
    assert every["ok"] and every["more"] == 0
    assert [u["name"] for u in every["units"]] == ["Drone Wing", "Hero", "Strike Squad"]
    found = named_client.get("/api/units", params={"find": "  SQU "}).json()["units"]
    assert found == [{"name": "Strike Squad", "faction": "Test Faction",
                      "line": "@Strike Squad", "sizes": [5, 10]}]
    assert named_client.get("/api/units", params={"find": "wing"}).json()["units"][0][
        "sizes"] == [2, 4]
    assert named_client.get("/api/units", params={"find": "zzz"}).json() == {
        "ok": True, "units": [], "more": 0}
    page = named_client.get("/").text
    assert 'id="unit-name"' in page and 'list="unit-names"' in page
    assert 'data-unit-into="weapons"' in page and 'data-unit-into="targets"' in page


def test_named_lines_are_checked_as_typed(named_client):
    def check(kind, line):
        return named_client.get("/api/check", params={"game": "40k", "kind": kind,
                                                       "line": line}).json()

    assert check("target", "@Strike Squad") == {"ok": True, "read": SQUAD_TARGET}
    assert check("target", "@strike  squad:8")["read"] == "8x Strike Squad: T4 Sv3+ W2 [INFANTRY]"
    assert check("weapon", "@Strike Squad")["read"] == "; ".join(SQUAD_WEAPONS)
    assert check("weapon", '@Hero:melee + Bolter: 24" A2 BS3+ S4 AP0 D1')["read"] == \
        RELIC_BLADE + ' + Bolter: 24" A2 BS3+ S4 AP0 D1'
    bad = check("target", "@Strik Squad")
    assert not bad["ok"] and "'Strik Squad'" in bad["message"]
    assert "did you mean 'Strike Squad'" in bad["message"]
    assert "the Units by name box lists names" in bad["message"]
    assert "--" not in bad["message"] and "\n" not in bad["message"]


def test_a_named_pairing_equals_its_typed_lines(named_client):
    status = run_job(named_client, {"page": "40k", "weapons": "@Strike Squad",
                                    "targets": "@Drone Wing"})
    assert _mean(status) == pytest.approx(mh.exact(SQUAD_WEAPONS, DRONES).mean("damage"),
                                          rel=1e-12)
    # a unit that charged fights with its melee weapons (as --charged on the command line)
    status = run_job(named_client, {"page": "40k", "weapons": "@Hero", "targets": "MEQ",
                                    "charged": "on"})
    assert _mean(status) == pytest.approx(
        mh.exact([RELIC_BLADE], "MEQ", charged=True).mean("damage"), rel=1e-12)
    # a size, and a grid of named and typed lines
    status = run_job(named_client, {"page": "40k", "weapons": "@Strike Squad\n" +
                                    '10x Bolter: 24" A2 BS3+ S4 AP0 D1',
                                    "targets": "@Strike Squad:7\nMEQ"})
    assert status["state"] == "done", status
    expected = mh.exact(SQUAD_WEAPONS, "7x Strike Squad: T4 Sv3+ W2 [INFANTRY]").mean("damage")
    assert f"{expected:.2f}" in status["html"]


def test_a_refused_name_is_one_line_400_before_anything_runs(named_client):
    started = time.monotonic()
    answer = named_client.post("/api/jobs", data={"page": "40k", "weapons": "@Strike Squad",
                                                  "targets": "@Drone Wingz"})
    assert answer.status_code == 400
    message = answer.json()["message"]
    assert "'Drone Wingz'" in message and "did you mean 'Drone Wing'" in message
    assert "\n" not in message and "Traceback" not in message
    assert time.monotonic() - started < 5
    size = named_client.post("/api/jobs", data={"page": "40k", "weapons": "@Strike Squad",
                                                "targets": "@Strike Squad:40"})
    assert size.status_code == 400
    assert "5 to 10 models, not 40" in size.json()["message"]


def test_without_a_checkout_the_box_says_how_to_give_one(bare_client):
    from mathhammer.web.units import NO_DATA

    page = bare_client.get("/").text
    assert 'id="unit-name"' not in page
    assert "mathhammer serve --data DIR" in page.replace("&#39;", "'")
    units = bare_client.get("/api/units", params={"find": "x"})
    assert units.status_code == 404 and units.json()["message"] == NO_DATA
    named = bare_client.post("/api/jobs", data={"page": "40k", "weapons": "@Strike Squad",
                                                "targets": "MEQ"})
    assert named.status_code == 400
    assert named.json()["message"] == f"'@Strike Squad': {NO_DATA}"
    # the rest of the page works as before
    typed = run_job(bare_client, {"page": "40k", "weapons": SQUAD_WEAPONS[1],
                                  "targets": "MEQ"})
    assert _mean(typed) == pytest.approx(mh.exact(SQUAD_WEAPONS[1], "MEQ").mean("damage"))


def test_the_environment_names_the_checkout(checkout, monkeypatch):
    from starlette.testclient import TestClient

    from mathhammer.web.app import create_app

    monkeypatch.setenv("MATHHAMMER_DATA", str(checkout))
    with TestClient(create_app(port=PORT), base_url=BASE) as client:
        assert client.get("/api/units", params={"find": "hero"}).json()["units"][0][
            "name"] == "Hero"


def test_serve_refuses_a_data_folder_that_is_not_one(tmp_path, capsys):
    from mathhammer.cli import main

    missing = tmp_path / "no-such-checkout"
    assert main(["serve", "--data", str(missing), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(missing) in err and "--data" in err
