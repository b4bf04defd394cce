"""The 40k page's buffs (issue 35) in a real browser (headless Chromium): boxes ticked with
the keyboard (Tab, Space) and a buff line typed give the numbers of ``mh.exact(...,
buffs=[...])``; a bad buff line is refused in one line naming its token, its box marked;
nothing wider than the screen at 1280 px nor on a 390 px phone (Chrome's mobileEmulation)."""

from __future__ import annotations

import pytest

import mathhammer as mh
from tests.web.test_browser import (SHOTS, _checked_lines_shown, _click,  # noqa: F401
                                    _shown, _type, _wait, browser, chrome, server)

WEAPON = 'Plasma gun: 24" A2 BS3+ S8 AP-3 D2'
TARGET = "5x Terminator: T5 Sv2+ InSv4+ W3"
PHONE = 390


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    """A second browser, emulating a 390 px wide phone."""
    driver = chrome(tmp_path_factory.mktemp("phone"), {
        "deviceMetrics": {"width": PHONE, "height": 844, "pixelRatio": 3.0}})
    yield driver
    driver.quit()


def _widths(browser) -> tuple[int, int]:
    return tuple(browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"))


def _tick_by_keyboard(browser) -> None:
    """Focus the first buff box, Space ticks it, Tab to the next, Space ticks it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    first = browser.find_element(By.CSS_SELECTOR, "input[name=buff_oath]")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); "
                           "arguments[0].focus()", first)
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element.get_attribute("name") == "buff_hit"
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    ticked = [e.get_attribute("name") for e in
              browser.find_elements(By.CSS_SELECTOR, "fieldset.buffs input:checked")]
    assert ticked == ["buff_oath", "buff_hit"]


def _ask(browser, address: str, typed: str) -> str:
    from selenium.webdriver.common.by import By

    browser.get(address + "/")
    _type(browser, "#weapons", WEAPON)
    _type(browser, "#targets", TARGET)
    _tick_by_keyboard(browser)
    _type(browser, "#buffs", typed)
    _wait(browser, _shown("#buffs-checks li.ok"), 20)
    name = "buffs-fieldset-phone" if _widths(browser)[1] == PHONE else "buffs-fieldset-1280"
    browser.find_element(By.CSS_SELECTOR, "fieldset.buffs").screenshot(str(SHOTS / f"{name}.png"))
    _click(browser, "form.compute button[type=submit]")
    return _wait(browser, _shown("#mean-damage")).text


def _expected(typed: str) -> float:
    texts = ["Oath of Moment: re-roll hits", "+1 to hit: +1 to hit", typed]
    return mh.exact(WEAPON, TARGET, buffs=texts).mean("damage")


def test_ticked_and_typed_buffs_give_the_numbers_of_python(server, browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1000)
    typed = "Storm of Fire: [LETHAL HITS] to RANGED weapons"
    shown = _ask(browser, server, typed)
    expected = _expected(typed)
    assert shown == f"{expected:.3f}"
    headline = browser.find_element(By.ID, "headline")
    assert float(headline.get_attribute("data-mean-damage")) == expected
    assert "buff_oath=on" in browser.current_url and "buff_hit=on" in browser.current_url
    assert "Buffs: Oath of Moment; +1 to hit; Storm of Fire" in browser.find_element(
        By.ID, "answer").text
    width, screen = _widths(browser)
    assert width <= screen, f"the page is {width} px wide in a {screen} px window"
    browser.save_screenshot(str(SHOTS / "buffs-1280.png"))


def test_a_bad_buff_line_is_refused_naming_its_token(server, browser):
    from selenium.webdriver.common.by import By

    browser.set_window_size(1280, 1000)
    browser.get(server + "/")
    _type(browser, "#weapons", WEAPON)
    _type(browser, "#targets", TARGET)
    _type(browser, "#buffs", "Oath: re-roll hitz")
    checked = _wait(browser, _shown("#buffs-checks li.bad"), 20).text
    assert "'hitz' at column 15" in checked
    _click(browser, "form.compute button[type=submit]")
    error = _wait(browser, _shown("#answer-error"), 20).text
    assert error.startswith("buffs line 1: 'hitz' at column 15") and "\n" not in error
    box = browser.find_element(By.ID, "buffs")
    assert "invalid" in box.get_attribute("class")
    assert not browser.find_elements(By.ID, "mean-damage")


def test_a_phone_ticks_buffs_without_sideways_scroll(server, phone):
    phone.get(server + "/")
    width, screen = _widths(phone)
    assert screen == PHONE and width <= PHONE, f"the page is {width} px on a {screen} px phone"
    typed = "+1 to wound when stationary"
    shown = _ask(phone, server, typed)
    assert shown == f"{_expected(typed):.3f}"
    width, screen = _widths(phone)
    assert width <= screen == PHONE, f"the answer is {width} px wide on a {screen} px phone"
    phone.save_screenshot(str(SHOTS / "buffs-phone-390.png"))


def test_army_and_battle_pages_take_buffs_at_1280_and_on_a_phone(server, browser, phone):
    """The army page's ticked and typed buffs give the matrix of ``Roster.compare(...,
    buffs=[...])``; the battle page takes them; neither page scrolls sideways at 1280 px
    nor on a 390 px phone."""
    from selenium.webdriver.common.by import By

    from mathhammer.wh40k.roster.tables import format_cell
    from tests.web.test_browser import _drop, _matrix_cells
    from tests.wh40k.roster.conftest import FILES

    typed = "Storm of Fire: [LETHAL HITS] to RANGED weapons"
    army = mh.load_roster(FILES / "leaders_11e.json")
    frame = army.compare(["MEQ"], buffs=["Oath of Moment: re-roll hits", typed],
                         phases=("shooting",))
    expected = {(r.attacker, r.target): format_cell(r.value, r.stderr or 0.0, r.metric, r.method)
                for r in frame.itertuples() if r.metric == "damage_per_100pts"}
    browser.set_window_size(1280, 1000)
    for driver, name in ((browser, "1280"), (phone, "phone-390")):
        driver.get(server + "/army")
        _drop(driver, "list", FILES / "leaders_11e.json")
        _wait(driver, _shown("#listing"), 30)
        _type(driver, "#targets", "MEQ")
        _wait(driver, _checked_lines_shown, 20)
        driver.execute_script("document.querySelector('select[name=phase]').value = "
                              "'shooting'")
        box = driver.find_element(By.CSS_SELECTOR, "input[name=buff_oath]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.click()
        assert box.is_selected(), f"{name}: the click did not tick Oath of Moment"
        _type(driver, "#buffs", typed)
        _wait(driver, _shown("#buffs-checks li.ok"), 20)
        width, screen = _widths(driver)
        assert width <= screen, f"the army page is {width} px wide in a {screen} px window"
        _click(driver, "form.compute button[type=submit]")
        _wait(driver, _shown("table.matrix"), 60)
        assert _matrix_cells(driver, "shooting") == expected
        assert "Buffs: Oath of Moment: re-roll hits; Storm of Fire" in driver.find_element(
            By.ID, "answer").text
        driver.find_element(By.CSS_SELECTOR, "fieldset.buffs").screenshot(
            str(SHOTS / f"army-buffs-{name}.png"))
        driver.get(server + "/battle")
        assert not driver.find_elements(By.CSS_SELECTOR, "input[name=buff_fnp]")
        _wait(driver, _checked_lines_shown, 20)
        box = driver.find_element(By.CSS_SELECTOR, "input[name=buff_sustained]")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
        box.click()
        assert box.is_selected(), f"{name}: the click did not tick Sustained Hits"
        _type(driver, "input[name=trials]", "2000")
        _click(driver, "form.compute button[type=submit]")
        _wait(driver, _shown("#answer .rounds"), 60)
        assert "buff_sustained=on" in driver.current_url
        width, screen = _widths(driver)
        assert width <= screen, f"the battle page is {width} px wide in a {screen} px window"
        driver.save_screenshot(str(SHOTS / f"battle-buffs-{name}.png"))
