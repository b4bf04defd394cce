"""Units by name in a real browser at phone width (360 px): the unit box completes a
datasheet's name from the checkout, its buttons (and Enter) add ``@Name`` lines that the
page checks and computes as ``mh.exact`` does, and nothing is wider than the screen."""

from __future__ import annotations

import threading
import time

import pytest

import mathhammer as mh
from tests.web.test_browser import (SHOTS, _click, _free_port, _shown, _type, _wait,
                                    browser)  # noqa: F401  (the fixture)

PHONE = 360  # px: a small phone's CSS width


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    from mathhammer.wh40k.bsdata.example import write_checkout

    return write_checkout(tmp_path_factory.mktemp("bsdata"), 11)


@pytest.fixture(scope="module")
def named_server(checkout):
    import uvicorn

    from mathhammer.web.app import create_app

    port = _free_port()
    config = uvicorn.Config(create_app(port=port, data=checkout), host="127.0.0.1",
                            port=port, log_level="warning", lifespan="off")
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


@pytest.fixture(scope="module")
def phone(browser):
    """The browser as a phone: 360 CSS px wide, a mobile viewport (overlay scroll bars)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE, "height": 780, "deviceScaleFactor": 1, "mobile": True})
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _no_sideways_scroll(browser) -> None:
    width, inner = browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


def test_a_unit_by_name_at_phone_width(named_server, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser = phone
    browser.get(named_server + "/")
    _no_sideways_scroll(browser)
    _type(browser, "#weapons", "")
    _type(browser, "#targets", "")
    # typing part of a name fills the completion list from the checkout
    _type(browser, "#unit-name", "squ")
    # read in one script: the list is rebuilt as the page hears back (no stale elements)
    _wait(browser, lambda b: b.execute_script(
        "return [...document.querySelectorAll('#unit-names option')].map(o => o.value)")
        == ["Strike Squad"], 10)
    _type(browser, "#unit-name", "Strike Squad")
    _click(browser, 'button[data-unit-into="weapons"]')
    assert browser.find_element(By.ID, "weapons").get_attribute("value") == "@Strike Squad"
    _wait(browser, _shown("#weapons-checks li.ok", "4x Pulse rifle"), 10)
    # keyboard only: the name, Tab to the size, Enter adds it as a target (the form is not sent)
    field = browser.find_element(By.ID, "unit-name")
    field.clear()
    field.send_keys("Drone Wing", Keys.TAB, "3", Keys.ENTER)
    assert browser.find_element(By.ID, "targets").get_attribute("value") == "@Drone Wing:3"
    assert "run=1" not in browser.current_url
    _wait(browser, _shown("#targets-checks li.ok", "3x Drone Wing: T3 Sv4+ W1"), 10)
    _no_sideways_scroll(browser)
    _click(browser, "form.compute button[type=submit]")
    shown = _wait(browser, _shown("#mean-damage")).text
    expected = mh.exact(['Plasma pistol: 12" A1 BS3+ S7 AP-2 D1 [PISTOL]',
                         '4x Pulse rifle: 24" A2 BS3+ S4 AP-1 D1 [RAPID FIRE 1]'],
                        "3x Drone Wing: T3 Sv4+ W1 [FLY]")
    assert shown == f"{expected.mean('damage'):.3f}"
    _wait(browser, _shown("#answer figure.chart svg"))
    _no_sideways_scroll(browser)
    browser.save_screenshot(str(SHOTS / "units-by-name-phone.png"))
    # a misspelt name: the one-line refusal with the nearest name, on the page
    _type(browser, "#targets", "@Dron Wing")
    _click(browser, "form.compute button[type=submit]")
    error = _wait(browser, _shown("#answer-error", "did you mean 'Drone Wing'"), 10)
    assert "\n" not in error.text
