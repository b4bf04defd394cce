"""The web page in a real browser: Debian's headless Chromium driven by Selenium, against one
server shared by every test (uvicorn in a thread, on a free port).

Typing a weapon and a target shows the numbers of ``mh.exact``; a bad line shows the
parser's message by its field; a dropped roster lists its units and gives the command
line's matrix; hostile uploads are refused on the page in under a second; a hostile page
of another origin posting to the server is refused. Each page's screenshot is saved in
``tests/web/screenshots/`` (git-ignored) to be looked at.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import mathhammer as mh

pytest.importorskip("selenium", reason="selenium is not installed: pip install '.[test]'")
pytest.importorskip("uvicorn", reason="the web extra is not installed: pip install '.[web]'")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip("no Chromium browser: install Debian's chromium and chromium-driver "
                "(.ci/run does: apt-get install -y chromium chromium-driver)",
                allow_module_level=True)

SHOTS = Path(__file__).resolve().parent / "screenshots"
ROSTER_FILES = Path(__file__).resolve().parents[1] / "wh40k" / "roster" / "files"
WAIT = 120  # seconds an answer may take (a cold numba cache compiles first)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    import uvicorn

    from mathhammer.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(create_app(port=port), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="off")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not instance.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    instance.should_exit = True
    thread.join(10)


def chrome(profile: Path, mobile: dict | None = None):
    """Headless Chromium with its own profile folder; ``mobile``: Chrome's mobileEmulation
    (``{"deviceMetrics": {"width": 390, ...}}``), else a 1280 x 1000 window."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if mobile:
        options.add_experimental_option("mobileEmulation", mobile)
    else:
        options.add_argument("--window-size=1280,1000")
    SHOTS.mkdir(exist_ok=True)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chrome(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def _wait(browser, condition, timeout: float = WAIT):
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # a page that rebuilds what a condition reads makes an element stale: look again
    return WebDriverWait(browser, timeout, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(condition)


def _shown(css: str, words: str = ""):
    """A condition: an element matching ``css`` is shown with text (holding ``words``)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By

    def found(browser):
        try:
            for element in browser.find_elements(By.CSS_SELECTOR, css):
                if element.is_displayed() and element.text.strip() and words in element.text:
                    return element
        except StaleElementReferenceException:  # replaced while looked at: look again
            pass
        return False
    return found


def _screenshot(browser, name: str) -> None:
    """The whole page, as tall as its content, once every chart is drawn."""
    from selenium.webdriver.common.by import By

    _wait(browser, lambda b: not b.find_elements(By.CSS_SELECTOR, "figure.chart p.hint"))
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1280, min(max(height, 800), 6000))
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(SHOTS / f"{name}.png"))
    browser.set_window_size(1280, 1000)


#: Whether a line field (``arguments[0]``) shows one check answer per line it holds now.
_CHECKS_SHOWN = ("const list = document.getElementById(arguments[0].id + '-checks');"
                 "return list.children.length === "
                 "arguments[0].value.split('\\n').filter((line) => line.trim()).length")


def _checked_lines_shown(driver) -> bool:
    """Every line field of the page shows the check answers of the lines it holds now (they
    arrive after a pause in typing and move what is below them: click after they have)."""
    from selenium.webdriver.common.by import By

    return all(driver.execute_script(_CHECKS_SHOWN, area)
               for area in driver.find_elements(By.CSS_SELECTOR, "textarea[data-check-game]"))


def _type(browser, css: str, text: str) -> None:
    """Type ``text`` into a field; a line field waits for its lines' check answers, which
    arrive after a pause in typing and move what is below (a click before they arrive can
    land where a box was)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    field = browser.find_element(By.CSS_SELECTOR, css)
    field.clear()
    field.send_keys(text)
    if text and field.get_attribute("data-check-game"):  # clear() alone sends no input event
        WebDriverWait(browser, WAIT, poll_frequency=0.05).until(
            lambda driver: driver.execute_script(_CHECKS_SHOWN, field))


def _click(browser, css: str) -> None:
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, css).click()


WEAPON = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'
TARGET = "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"


def test_typed_lines_give_the_numbers_of_mh_exact(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    _type(browser, "#weapons", WEAPON)
    _type(browser, "#targets", TARGET)
    _click(browser, "input[name=stationary]")
    _click(browser, "form.compute button[type=submit]")
    shown = _wait(browser, _shown("#mean-damage")).text
    expected = mh.exact([WEAPON], TARGET, stationary=True)
    assert shown == f"{expected.mean('damage'):.3f}"
    headline = browser.find_element(By.ID, "headline")
    assert float(headline.get_attribute("data-mean-damage")) == expected.mean("damage")
    assert "stationary=on" in browser.current_url and "run=1" in browser.current_url
    _wait(browser, _shown("#answer figure.chart svg"))
    _screenshot(browser, "1-weapons")
    # the address is the situation: opening it again answers the same
    started = time.monotonic()
    browser.get(browser.current_url)
    _wait(browser, _shown("#mean-damage", shown))
    print(f"\nbookmarked exact pairing answered in {time.monotonic() - started:.2f} s")


def test_a_bad_line_shows_the_parsers_message_by_the_field(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    line = "Bolt rifle: 24\" A2 BS3+ S4 AP-1 D1 [SUSTAINED HIT 1]"
    _type(browser, "#weapons", line)
    with pytest.raises(mh.ProfileError) as error:
        mh.parse_weapon(line)
    expected = " ".join(str(error.value).split())
    _wait(browser, _shown("#weapons-checks li.bad", expected), 10)
    assert "invalid" in browser.find_element(By.ID, "weapons").get_attribute("class")
    _type(browser, "#targets", "MEQ")
    _wait(browser, _shown("#targets-checks li.ok", "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"),
          10)
    _screenshot(browser, "1-weapons-bad-line")


def _drop(browser, slot: str, path: Path) -> None:
    from selenium.webdriver.common.by import By

    field = browser.find_element(By.CSS_SELECTOR, f'.drop[data-slot="{slot}"] input[type=file]')
    field.send_keys(str(path))


def _matrix_cells(browser, phase: str) -> dict[tuple[str, str], str]:
    from selenium.webdriver.common.by import By

    table = browser.find_element(By.CSS_SELECTOR, f'table.matrix[data-phase="{phase}"]')
    targets = [th.text for th in table.find_elements(By.CSS_SELECTOR, "thead th")][1:]
    cells = {}
    for row in table.find_elements(By.CSS_SELECTOR, "tbody tr"):
        attacker = row.find_element(By.TAG_NAME, "th").text
        for target, cell in zip(targets, row.find_elements(By.TAG_NAME, "td")):
            if target != "points":   # the unit's points, beside its figures (issue 41)
                cells[(attacker, target)] = cell.text
    return cells


def test_a_dropped_roster_lists_its_units_and_the_clis_matrix(server, browser, roster_files,
                                                              capsys):
    import json

    from selenium.webdriver.common.by import By

    from mathhammer.cli import main
    from mathhammer.wh40k.roster.tables import format_cell

    browser.get(server + "/army")
    _drop(browser, "list", roster_files["marines.ros"])
    listing = _wait(browser, _shown("#listing"), 30)
    units = [row.get_attribute("data-unit")
             for row in listing.find_elements(By.CSS_SELECTOR, "tr.unit")]
    assert units == ["Intercessor Squad", "Hellblaster Squad", "Redemptor Dreadnought"]
    _type(browser, "#targets", "MEQ\n10x GEQ\nTEQ")
    _click(browser, "input[name=engine][value=exact]")
    _click(browser, "form.compute button[type=submit]")
    _wait(browser, _shown("table.matrix"))
    _wait(browser, _shown("#answer figure.chart svg"))
    assert main(["roster", str(roster_files["marines.ros"]), "--target", "MEQ", "--target",
                 "10x GEQ", "--target", "TEQ", "--exact", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    for phase in ("shooting", "fight"):
        expected = {(r["attacker"], r["target"]): format_cell(r["value"], r["stderr"] or 0.0,
                                                              r["metric"], r["method"])
                    for r in rows if r["phase"] == phase and r["metric"] == "damage_per_100pts"}
        assert _matrix_cells(browser, phase) == expected
    _screenshot(browser, "2-army")
    browser.find_element(By.CSS_SELECTOR, "table.matrix a.cell").click()
    cell = _wait(browser, _shown("#cell h2"), 30)
    assert cell.text.startswith("Intercessor Squad against")
    _wait(browser, _shown("#cell figure.chart svg"), 30)
    _screenshot(browser, "2-army-cell")


def _zip_bomb(folder: Path) -> Path:
    bomb = folder / "bomb.rosz"
    block = b"<" * 2**20
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("army.ros", "w") as member:
            for _ in range(40):
                member.write(block)
    return bomb


def test_a_list_dropped_on_the_page_is_read(server, browser, roster_files):
    """A real drop event (the file built in the page, as a drag from the desktop gives it)."""
    from selenium.webdriver.common.by import By

    browser.get(server + "/army")
    _drop(browser, "list", roster_files["marines.ros"])
    _wait(browser, _shown("#listing"), 30)
    content = roster_files["orks.json"].read_text(encoding="utf-8")
    browser.execute_script(
        "const data = new DataTransfer();"
        "data.items.add(new File([arguments[0]], 'orks.json', {type: 'application/json'}));"
        "document.querySelector('.drop[data-slot=against]')"
        ".dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true}));", content)
    other = _wait(browser, _shown("#other-listing"), 30)
    units = [row.get_attribute("data-unit")
             for row in other.find_elements(By.CSS_SELECTOR, "tr.unit")]
    assert units == ["Boyz", "Meganobz"]
    assert "against=" in browser.current_url and "list=" in browser.current_url
    _screenshot(browser, "2-army-two-lists")


def test_hostile_uploads_are_refused_on_the_page_at_once(server, browser, tmp_path):
    big = tmp_path / "big.ros"
    with open(big, "wb") as stream:
        stream.truncate(17 * 2**20)
    cases = [(ROSTER_FILES / "billion_laughs.ros", "entities"),
             (_zip_bomb(tmp_path), "zip bomb"), (big, "at most 16 MiB")]
    for path, words in cases:
        browser.get(server + "/army")
        started = time.monotonic()
        _drop(browser, "list", path)
        message = _wait(browser, _shown('.drop[data-slot="list"] .drop-error'), 10)
        seconds = time.monotonic() - started
        assert words in message.text and "Traceback" not in message.text
        print(f"\n{path.name} refused on the page in {seconds:.2f} s")
        assert seconds < 1.0
    _screenshot(browser, "2-army-refused")


class _Hostile(BaseHTTPRequestHandler):
    """Another origin: a page that posts a form to the mathhammer server as it opens."""

    target = ""

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = (f'<form id="f" method="post" action="{self.target}/api/jobs">'
                '<input name="page" value="40k"><input name="weapons" value="A1 BS2+ S4 AP0 D1">'
                '<input name="targets" value="MEQ"></form>'
                "<script>document.getElementById('f').submit()</script>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_hostile_page_posting_to_the_server_is_refused(server, browser):
    _Hostile.target = server
    hostile = ThreadingHTTPServer(("127.0.0.1", 0), _Hostile)
    threading.Thread(target=hostile.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{hostile.server_address[1]}/")  # another port: another origin
        _wait(browser, lambda b: "/api/jobs" in b.current_url, 10)
        assert "refused: a request from another site" in browser.page_source
    finally:
        hostile.shutdown()
        hostile.server_close()


def test_battle_warmachine_and_dust_pages_answer(server, browser):
    browser.get(server + "/battle")
    _type(browser, "input[name=trials]", "5000")
    _click(browser, "form.compute button[type=submit]")
    _wait(browser, _shown("#answer .rounds"))
    _wait(browser, _shown("#answer figure.chart svg"))
    _screenshot(browser, "3-battle")
    for page, name in (("/warmachine", "4-warmachine"), ("/dust", "5-dust")):
        browser.get(server + page)
        _click(browser, "form.compute button[type=submit]")
        _wait(browser, _shown("#answer figure.chart svg"))
        _screenshot(browser, name)
