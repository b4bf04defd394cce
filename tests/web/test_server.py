"""The web page's routes under Starlette's test client: pages, line checks, jobs (numbers
equal to the library's), downloads, uploads (hostile ones refused in one line), battles,
Warmachine and Dust, and requests from other sites refused."""

from __future__ import annotations

import html
import io
import re
import time
import zipfile
from pathlib import Path

import pytest

import mathhammer as mh
from tests.web.conftest import BASE, PORT, run_job, upload

ROSTER_FILES = Path(__file__).resolve().parents[1] / "wh40k" / "roster" / "files"
BOLTER = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'


def _one_line(message: str) -> None:
    assert message and "\n" not in message and "Traceback" not in message


# -- pages --------------------------------------------------------------------------------
@pytest.mark.parametrize("path, heading", [("/", "Weapons against targets"),
                                           ("/army", "My army"), ("/battle", "Battle"),
                                           ("/warmachine", "Warmachine"), ("/dust", "Dust")])
def test_every_page_renders_its_form(client, path, heading):
    response = client.get(path)
    assert response.status_code == 200
    assert heading in response.text and '<form class="compute"' in response.text
    assert "default-src 'self'" in response.headers["content-security-policy"]
    assert "http://" not in re.sub(r'xmlns="[^"]*"', "", response.text)  # nothing from elsewhere


def test_the_query_string_fills_the_form(client):
    response = client.get("/", params={"weapons": BOLTER, "targets": "MEQ", "cover": "on",
                                       "hit_mod": "-1", "engine": "monte-carlo"})
    text = html.unescape(response.text)
    assert BOLTER in text and re.search(r'name="cover"\s+checked', text)
    assert re.search(r'name="hit_mod" min="-6" max="6"\s+value="-1"', text)
    assert re.search(r'value="monte-carlo"\s+checked', text)
    assert not re.search(r'name="stationary"\s+checked', text)


def test_overlong_input_is_refused_in_one_line(client):
    response = client.post("/api/jobs", data={"page": "40k", "weapons": "x" * 300_000})
    assert response.status_code == 400
    _one_line(response.json()["message"])
    assert "at most" in response.json()["message"]
    response = client.post("/api/jobs", data={"page": "40k", "weapons": "x" * 20_000,
                                              "targets": "MEQ"})
    assert "weapons: 20,000 characters is too long" in response.json()["message"]


def test_static_files_come_from_the_package_only(client):
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")
    assert "function" in client.get("/static/app.js").text
    for name in ("../__init__.py", "..%2F__init__.py", "templates", "%2Fetc%2Fpasswd"):
        assert client.get(f"/static/{name}").status_code == 404


# -- checked as you type ----------------------------------------------------------------------
def test_a_good_line_comes_back_as_read(client):
    answer = client.get("/api/check", params={"game": "40k", "kind": "weapon",
                                              "line": "bolt rifle: a2 bs3+ s4 ap-1 d1"}).json()
    assert answer == {"ok": True, "read": "bolt rifle: A2 BS3+ S4 AP-1 D1"}


@pytest.mark.parametrize("game, kind, line, parse", [
    ("40k", "weapon", "Bolt rifle: A2 BS3+ S4 AP-1 D1 [SUSTAINED HIT 1]", mh.parse_weapon),
    ("40k", "target", "T4 Sv3+ W2 FNP9+", mh.parse_target),
])
def test_a_bad_line_gets_the_parsers_own_message(client, game, kind, line, parse):
    with pytest.raises(mh.MathhammerError) as error:
        parse(line)
    answer = client.get("/api/check", params={"game": game, "kind": kind, "line": line}).json()
    assert answer == {"ok": False, "message": " ".join(str(error.value).split())}


def test_warmachine_and_dust_lines_are_checked_too(client):
    def check(game, kind, line):
        return client.get("/api/check", params={"game": game, "kind": kind,
                                                "line": line}).json()

    assert check("warmachine", "attack", "Hammer: MAT7 POW12")["ok"]
    assert not check("warmachine", "target", "Jack: DEFX ARM16 BOXES10")["ok"]
    assert check("dust", "weapon", "Rifle: 3/1")["ok"]
    refused = check("dust", "weapon", "/etc/passwd.toml#Unit")
    assert not refused["ok"] and "does not read unit-card files" in refused["message"]
    assert not check("chess", "weapon", "x")["ok"]
    assert not check("40k", "weapon", "x" * 5000)["ok"]


# -- weapons against targets ------------------------------------------------------------------
def _float(text: str, name: str) -> float:
    return float(re.search(rf'data-{name}="([^"]+)"', text).group(1))


def test_an_exact_pairing_equals_mh_exact(client):
    status = run_job(client, {"page": "40k", "weapons": f"10x {BOLTER}", "targets": "MEQ",
                              "engine": "exact", "cover": "on", "hit_mod": "-1"})
    assert status["state"] == "done"
    expected = mh.exact([f"10x {BOLTER}"], "MEQ", cover=True, hit_mod=-1)
    assert _float(status["html"], "mean-damage") == expected.mean("damage")
    assert _float(status["html"], "mean-models") == expected.mean("models_destroyed")
    assert f"{expected.mean('damage'):.3f}</b>" in status["html"]
    views = re.findall(r'data-view="(chart-[^"]+)"', status["html"])
    assert views == ["chart-damage", "chart-models-destroyed"]  # drawn after the numbers
    for view in views:
        svg = client.get(f"/api/jobs/{status['id']}/views/{view}").text
        assert svg.startswith("<svg") and "Intercessor" in svg


def test_a_grid_draws_a_heat_map_and_the_at_least_k_chart(client):
    status = run_job(client, {"page": "40k", "weapons": f"{BOLTER}\nLascannon: 48\" A1 BS4+ "
                              "S12 AP-3 DD6+1", "targets": "MEQ\n10x GEQ", "engine": "exact"})
    assert status["state"] == "done"
    assert 'data-chart="heatmap"' in status["html"]
    assert 'data-chart="at-least-k"' in status["html"]
    csv = client.get(f"/api/jobs/{status['id']}/files/grid.csv").text
    assert csv.startswith("attacker,target") and "Lascannon" in csv
    frame = mh.compare([BOLTER], ["MEQ"], method="exact")
    value = frame.query("metric == 'expected_damage'")["value"].iloc[0]
    assert f"{value:.3g}" in status["html"]


def test_monte_carlo_is_the_same_as_the_library_with_the_same_seed(client):
    status = run_job(client, {"page": "40k", "weapons": BOLTER, "targets": "MEQ",
                              "engine": "monte-carlo", "trials": "20000", "seed": "5",
                              "half_range": "on"})
    expected = mh.simulate([BOLTER], "MEQ", trials=20_000, seed=5, half_range=True)
    assert _float(status["html"], "mean-damage") == expected.mean("damage")
    assert "Monte Carlo, 20,000 trials, seed 5" in status["html"]


def test_a_single_pairing_reports_its_trials_and_can_be_cancelled(client):
    job = client.post("/api/jobs", data={"page": "40k", "weapons": f"10x {BOLTER}",
                                         "targets": "10x GEQ", "engine": "monte-carlo",
                                         "trials": "2000000"}).json()
    status = job
    while status["state"] in ("waiting", "running") and status["total"] == 0:
        time.sleep(0.05)
        status = client.get(f"/api/jobs/{job['id']}").json()
    if status["state"] == "running":  # a fast machine may have finished already
        assert status["total"] == 2_000_000 and status["desc"] == "simulate"
        assert client.post(f"/api/jobs/{job['id']}/cancel").json()["state"] == "cancelled"


@pytest.mark.parametrize("fields, words", [
    ({"hit_mod": "x"}, "hit_mod: 'x' is not a whole number"),
    ({"hit_mod": "9"}, "hit_mod: 9 is out of range"),
    ({"trials": "99999999999", "engine": "monte-carlo"}, "trials"),
    ({"engine": "quantum"}, "engine: 'quantum' is not one of"),
    ({"weapons": ""}, "type at least one weapon line"),
    ({"weapons": "\n".join([BOLTER] * 30)}, "at most 24 at once"),
    ({"targets": "\n".join(["MEQ"] * 20), "weapons": "\n".join([BOLTER] * 20)}, "pairings"),
    ({"page": "nothing"}, "no page 'nothing'"),
])
def test_bad_fields_are_refused_at_once_in_one_line(client, fields, words):
    data = {"page": "40k", "weapons": BOLTER, "targets": "MEQ", **fields}
    response = client.post("/api/jobs", data=data)
    assert response.status_code == 400
    message = response.json()["message"]
    _one_line(message)
    assert words in message


def test_an_engine_refusal_is_the_jobs_one_line_message(client):
    status = run_job(client, {"page": "40k", "weapons": "Bolt rifle: A2 BS3+ S4 AP-1 D1 [BOOM]",
                              "targets": "MEQ"})
    assert status["state"] == "error" and "unknown ability 'BOOM'" in status["message"]
    _one_line(status["message"])


def test_downloads_are_the_charts_and_tables(client):
    status = run_job(client, {"page": "40k", "weapons": BOLTER, "targets": "MEQ"})
    job = status["id"]
    png = client.get(f"/api/jobs/{job}/files/damage.png")
    assert png.content.startswith(b"\x89PNG") and "attachment" in png.headers[
        "content-disposition"]
    assert client.get(f"/api/jobs/{job}/files/damage.svg").content.lstrip().startswith(b"<?xml")
    assert client.get(f"/api/jobs/{job}/files/result.md").text.startswith("*exact")
    assert client.get(f"/api/jobs/{job}/files/result.csv").text.startswith("outcome,")
    assert client.get(f"/api/jobs/{job}/files/nothing.png").status_code == 404
    assert client.get("/api/jobs/nojob/files/damage.png").status_code == 404


def test_unknown_jobs_and_views_are_404(client):
    assert client.get("/api/jobs/nojob").status_code == 404
    assert client.post("/api/jobs/nojob/cancel").status_code == 404
    assert client.get("/api/jobs/nojob/views/cell-0").status_code == 404


def test_a_long_job_can_be_cancelled_and_never_blocks_the_page(client):
    data = {"page": "40k", "weapons": "\n".join(f"{n}x {BOLTER}" for n in range(1, 9)),
            "targets": "MEQ\nGEQ\nTEQ\nVEQ\nKEQ\nCEQ\nMEQ+\nRhino", "engine": "monte-carlo",
            "trials": "2000000"}
    job = client.post("/api/jobs", data=data).json()
    started = time.monotonic()
    assert client.get("/api/check", params={"game": "40k", "kind": "target",
                                            "line": "MEQ"}).json()["ok"]
    assert client.get("/").status_code == 200
    answered = time.monotonic() - started
    while client.get(f"/api/jobs/{job['id']}").json()["done"] < 1:
        time.sleep(0.05)  # at least one cell done: progress is reported
    assert client.post(f"/api/jobs/{job['id']}/cancel").json()["state"] == "cancelled"
    assert client.get(f"/api/jobs/{job['id']}").json()["state"] == "cancelled"
    assert answered < 10  # the other requests did not wait for the 64-cell grid


def test_a_bug_is_one_line_on_the_page(client, monkeypatch):
    from mathhammer.wh40k import api

    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr(api, "exact", broken)
    status = run_job(client, {"page": "40k", "weapons": BOLTER, "targets": "MEQ"})
    assert status["state"] == "error" and status["message"].startswith("internal error")
    _one_line(status["message"])


def test_too_many_computations_at_once_are_refused(client, monkeypatch):
    from mathhammer.web import jobs

    monkeypatch.setattr(jobs, "MAX_PENDING", 0)
    response = client.post("/api/jobs", data={"page": "40k", "weapons": BOLTER,
                                              "targets": "MEQ"})
    assert response.status_code == 400
    assert "wait for one to finish or cancel one" in response.json()["message"]


def test_a_bug_in_a_page_is_one_line_too(client, roster_files, monkeypatch):
    from mathhammer.web import army

    key = upload(client, roster_files["marines.ros"]).json()["id"]

    def broken(*args, **kwargs):
        raise KeyError("oops")

    monkeypatch.setattr(army, "listing", broken)
    from starlette.testclient import TestClient

    quiet = TestClient(client.app, base_url=BASE, raise_server_exceptions=False)
    response = quiet.get("/army", params={"list": key})
    assert response.status_code == 500 and response.text.startswith("internal error (KeyError)")
    _one_line(response.text)


# -- my army ----------------------------------------------------------------------------------
def test_an_uploaded_list_is_listed(client, roster_files):
    answer = upload(client, roster_files["marines.ros"]).json()
    assert answer["ok"] and answer["name"] == "marines.ros"
    for unit in ("Intercessor Squad", "Hellblaster Squad", "Redemptor Dreadnought"):
        assert unit in answer["html"]
    page = client.get("/army", params={"list": answer["id"]}).text
    assert "Test - Web Marines" in page and "Plasma incinerator" in page


def _cell_texts(fragment: str, phase: str) -> dict[tuple[str, str], str]:
    table = re.search(rf'<table class="grid matrix" data-phase="{phase}">(.*?)</table>',
                      fragment, re.S).group(1)
    targets = [html.unescape(t) for t in re.findall(r"<th>([^<]+)</th>",
                                                     table.split("</thead>")[0])
               if t != "points"]   # the unit's points column holds no pairing
    cells = {}
    for attacker, row in re.findall(r"<tr><th>([^<]+)</th>(.*?)</tr>", table.split(
            "</thead>")[1]):
        texts = re.findall(r'class="cell" data-view="[^"]+">([^<]+)</a>', row)
        for target, text in zip(targets, texts):
            cells[(html.unescape(attacker), target)] = html.unescape(text)
    return cells


def test_the_matrix_equals_the_command_lines(client, roster_files, capsys):
    from mathhammer.cli import main
    from mathhammer.wh40k.roster.tables import format_cell

    key = upload(client, roster_files["marines.ros"]).json()["id"]
    status = run_job(client, {"page": "army", "list": key, "targets": "MEQ\n10x GEQ",
                              "engine": "exact", "metric": "expected_damage"})
    assert status["state"] == "done", status.get("message")
    assert main([ "roster", str(roster_files["marines.ros"]), "--target", "MEQ",
                  "--target", "10x GEQ", "--exact", "--json"]) == 0
    import json

    rows = json.loads(capsys.readouterr().out)["rows"]
    for phase in ("shooting", "fight"):
        cells = _cell_texts(status["html"], phase)
        expected = {(r["attacker"], r["target"]): format_cell(r["value"], r["stderr"] or 0.0,
                                                              r["metric"], r["method"])
                    for r in rows if r["phase"] == phase and r["metric"] == "expected_damage"}
        assert cells == expected


def test_a_cell_opens_its_full_distributions(client, roster_files):
    key = upload(client, roster_files["marines.ros"]).json()["id"]
    status = run_job(client, {"page": "army", "list": key, "targets": "MEQ",
                              "engine": "exact", "phase": "shooting"})
    view = re.search(r'data-view="(cell-\d+)">', status["html"]).group(1)
    fragment = client.get(f"/api/jobs/{status['id']}/views/{view}").text
    assert "against MEQ" in fragment and "<svg" in fragment and "wounds lost" in fragment
    assert client.get(f"/api/jobs/{status['id']}/views/cell-999").status_code == 404
    csv = client.get(f"/api/jobs/{status['id']}/files/matrix.csv").text
    assert csv.startswith("attacker,target,phase,metric")


def test_list_against_list_and_attachments(client, roster_files):
    ours = upload(client, roster_files["marines.rosz"]).json()["id"]
    theirs = upload(client, roster_files["orks.json"], "against").json()["id"]
    status = run_job(client, {"page": "army", "list": ours, "against": theirs,
                              "engine": "exact", "phase": "fight"})
    assert status["state"] == "done", status.get("message")
    cells = _cell_texts(status["html"], "fight")
    assert {t for _, t in cells} == {"Boyz", "Meganobz"}
    page = client.get("/army", params={"list": ours, "against": theirs,
                                       "attach": "Nobody=Boyz"}).text
    assert 'class="error"' in page and "Nobody" in page


def test_a_forgotten_list_is_named(client):
    status = client.post("/api/jobs", data={"page": "army", "list": "0" * 20})
    assert status.status_code == 400 and "drop the file again" in status.json()["message"]
    assert "drop a roster file first" in client.post("/api/jobs", data={
        "page": "army"}).json()["message"]


def _bomb() -> bytes:
    buffer = io.BytesIO()
    block = b"<" * 2**20
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("army.ros", "w") as member:
            for _ in range(40):
                member.write(block)
    return buffer.getvalue()


@pytest.mark.parametrize("name, content, words", [
    ("laughs.ros", (ROSTER_FILES / "billion_laughs.ros").read_bytes(), "entities"),
    ("bomb.rosz", _bomb(), "zip bomb"),
    ("big.ros", b"<" + b" " * (17 * 2**20), "at most 16 MiB"),
    ("empty.ros", b"", "empty"),
    ("notes.txt", b"++ Army Roster ++ [1000 pts]\nCHAR1: Captain", "plain-text army list"),
])
def test_hostile_uploads_are_refused_in_one_line(client, name, content, words):
    started = time.monotonic()
    response = client.post("/api/rosters", files={"file": (name, content)})
    seconds = time.monotonic() - started
    assert response.status_code == 400
    message = response.json()["message"]
    _one_line(message)
    assert words in message
    assert seconds < 5  # refused while reading, never computed


def test_an_upload_must_be_one_file_in_a_form(client, roster_files):
    assert "form upload" in client.post("/api/rosters", content=b"x", headers={
        "content-type": "application/octet-stream"}).json()["message"]
    no_file = client.post("/api/rosters", files={"slot": (None, "list")})
    assert "one roster file" in no_file.json()["message"]
    bad = client.post("/api/rosters", content=b"--zz\r\nbroken", headers={
        "content-type": "multipart/form-data; boundary=zz"})
    assert bad.status_code == 400


def test_uploads_never_touch_the_disk(client, roster_files, monkeypatch):
    import tempfile

    def refuse(*args, **kwargs):
        raise AssertionError("a temporary file was made")

    monkeypatch.setattr(tempfile, "SpooledTemporaryFile", refuse)
    monkeypatch.setattr(tempfile, "NamedTemporaryFile", refuse)
    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    assert upload(client, roster_files["marines.rosz"]).json()["ok"]


# -- battle, Warmachine, Dust ----------------------------------------------------------------
def test_the_example_battle_runs_round_by_round(client):
    from mathhammer.web.battle import EXAMPLE

    status = run_job(client, {"page": "battle", "scenario": EXAMPLE, "trials": "5000"})
    assert status["state"] == "done", status.get("message")
    assert "Round by round" in status["html"] and "round 2" in status["html"]
    expected = mh.run(mh.parse_scenario(EXAMPLE), trials=5000, seed=1)
    assert f"{expected.models_destroyed('Boyz').mean:.2f}" in status["html"]


def test_a_bad_scenario_is_refused_with_the_readers_message(client):
    response = client.post("/api/jobs", data={"page": "battle",
                                              "scenario": "[units.A]\nmodels = 3"})
    assert response.status_code == 400
    _one_line(response.json()["message"])
    assert "scenario" in response.json()["message"]


def test_a_battle_is_written_from_two_lists(client, roster_files):
    ours = upload(client, roster_files["marines.ros"]).json()["id"]
    theirs = upload(client, roster_files["orks.json"]).json()["id"]
    page = html.unescape(client.get("/battle", params={"list": ours, "against": theirs}).text)
    text = page.split('name="scenario"')[1].split("</textarea>")[0].split(">", 1)[1]
    scenario = mh.parse_scenario(text)
    assert {"Intercessor Squad", "Boyz", "Meganobz"} <= set(scenario.units)


def test_warmachine_equals_its_api(client):
    from mathhammer.warmachine import api

    status = run_job(client, {"page": "warmachine", "attacks": "2x Hammer: MAT7 POW16",
                              "targets": "Jack: DEF12 ARM18 BOXES20", "engine": "exact"})
    assert status["state"] == "done", status.get("message")
    expected = api.exact(["2x Hammer: MAT7 POW16"], ["Jack: DEF12 ARM18 BOXES20"])
    assert expected.table().to_html() in status["html"]


def test_dust_equals_its_api_and_reads_no_files(client):
    from mathhammer.dust import api

    status = run_job(client, {"page": "dust", "weapons": "4x Shotgun: 3/1",
                              "targets": "5x Grenadier: INFANTRY2", "engine": "exact"})
    assert status["state"] == "done", status.get("message")
    expected = api.exact(["4x Shotgun: 3/1"], "5x Grenadier: INFANTRY2")
    assert expected.table().to_html() in status["html"]
    refused = client.post("/api/jobs", data={"page": "dust", "weapons": "seed.toml#Pounder",
                                             "targets": "5x Grenadier: INFANTRY2"})
    assert refused.status_code == 400 and "unit-card files" in refused.json()["message"]


# -- other sites ------------------------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"host": f"evil.example:{PORT}"},            # DNS rebinding: a name that is not ours
    {"host": "127.0.0.1:9999"},                   # another port
    {"origin": "http://evil.example"},            # a hostile page posting here
    {"origin": "null"},                           # ... from a sandboxed frame or data: URL
    {"sec-fetch-site": "cross-site"},
])
def test_requests_from_other_sites_are_refused(client, headers):
    response = client.post("/api/jobs", data={"page": "40k", "weapons": BOLTER,
                                              "targets": "MEQ"}, headers=headers)
    assert response.status_code == 403 and response.text.startswith("refused:")
    _one_line(response.text)
    assert client.get("/api/check", params={"game": "40k", "kind": "target", "line": "MEQ"},
                      headers=headers).status_code == 403


def test_the_default_port_may_be_left_out_of_host():
    from mathhammer.web.guard import refusal

    names = frozenset({"localhost"})
    assert refusal({"host": "127.0.0.1"}, "GET", "/", names, 80) is None
    assert refusal({"host": "127.0.0.1"}, "GET", "/", names, 8765) is not None
    assert refusal({"host": "127.0.0.1:x"}, "GET", "/", names, 8765) is not None
    assert refusal({}, "GET", "/", names, 8765) is not None


def test_our_own_names_and_links_from_elsewhere_are_allowed(client):
    for host in (f"localhost:{PORT}", f"127.0.0.1:{PORT}", f"[::1]:{PORT}"):
        assert client.get("/", headers={"host": host}).status_code == 200
    assert client.post("/api/jobs", data={"page": "40k", "weapons": BOLTER, "targets": "MEQ"},
                       headers={"origin": BASE}).status_code == 200
    link = {"sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate"}
    assert client.get("/", headers=link).status_code == 200  # a bookmark shared elsewhere
    assert client.get("/api/jobs/x", headers=link).status_code == 403


# -- the command ------------------------------------------------------------------------------
def test_serve_without_the_extra_names_it(monkeypatch, capsys):
    from mathhammer.cli import main
    from mathhammer.web import cli

    monkeypatch.setattr(cli, "missing_packages", lambda: ["starlette", "uvicorn"])
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    _one_line(err.strip())
    assert 'pip install "mathhammer[web]"' in err


def test_serve_on_a_busy_port_is_one_line(capsys):
    import socket

    from mathhammer.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--no-warmup"]) == 2
    err = capsys.readouterr().err
    _one_line(err.strip())
    assert f"cannot listen on 127.0.0.1:{port}" in err
    assert main(["serve", "--port", "70000"]) == 2


def _serve(*flags: str):
    """``mathhammer serve`` in a child process; its process and first stderr lines."""
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-m", "mathhammer", "serve", "--no-warmup",
                              *flags], stderr=subprocess.PIPE, text=True)
    lines = [child.stderr.readline().strip()]
    return child, lines


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_says_where_the_page_is_and_serves_it():
    import urllib.request

    port = _free_port()
    child, lines = _serve("--port", str(port))
    try:
        assert lines == [f"mathhammer: serving http://127.0.0.1:{port}/ (Ctrl-C to stop)"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/dust", timeout=30) as page:
            assert "Dust Tactics" in page.read().decode()
    finally:
        child.terminate()
        child.wait(30)
        child.stderr.close()


def test_serve_on_another_address_warns():
    from mathhammer.web.server import is_loopback

    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    child, lines = _serve("--host", "0.0.0.0", "--port", str(_free_port()))
    try:
        lines.append(child.stderr.readline().strip())
        assert lines[0].startswith("mathhammer: serving http://127.0.0.1:")
        assert lines[1].startswith("mathhammer: warning: listening on 0.0.0.0")
    finally:
        child.terminate()
        child.wait(30)
        child.stderr.close()
