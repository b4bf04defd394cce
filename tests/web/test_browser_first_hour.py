"""Issue 41's web page items in a real browser (headless Chromium), on generated questions:
nothing wider than a 360 px phone and chart text never under 11 px (8 pt at 100 dpi), Back
and Forward step through questions, short links, the answer brought into view, a roster
list loaded by keyboard, refusals naming the page's controls, a hand-edited bad choice
refused instead of silently replaced."""

from __future__ import annotations

import pytest

import mathhammer as mh
from tests.web.test_browser import (ROSTER_FILES, SHOTS, _click, _shown, _type, _wait,  # noqa: F401
                                    browser, server)

PHONE = 360
WEAPONS = ['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
           '5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1]',
           'Lascannon: 48" A1 BS3+ S12 AP-3 DD6+1']
TARGETS = ["MEQ", "10x GEQ", "TEQ", "Rhino: T10 Sv3+ W10 [VEHICLE]"]


@pytest.fixture()
def phone(browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": PHONE, "height": 740, "deviceScaleFactor": 1, "mobile": True})
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _page_width(browser) -> tuple[int, int]:
    return tuple(browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"))


def _smallest_chart_text(browser) -> float:
    """The smallest text of every drawn chart, in CSS px as shown."""
    return browser.execute_script("""
      let least = Infinity;
      for (const svg of document.querySelectorAll('figure.chart svg')) {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        for (const t of svg.querySelectorAll('text'))
          least = Math.min(least, parseFloat(getComputedStyle(t).fontSize) * scale);
      }
      return least;""")


@pytest.mark.parametrize("weapons, targets", [(WEAPONS[:1], TARGETS[:1]),
                                              (WEAPONS, TARGETS)])
def test_a_phone_answer_fits_the_screen_and_its_charts_stay_readable(server, phone, weapons,
                                                                      targets):
    from selenium.webdriver.common.by import By

    browser = phone
    browser.get(server + "/")
    assert _page_width(browser)[0] <= PHONE
    header = browser.find_element(By.TAG_NAME, "header").size["height"]
    assert header <= 0.15 * 740, f"the header takes {header} px of a 740 px screen"
    _type(browser, "#weapons", "\n".join(weapons))
    _type(browser, "#targets", "\n".join(targets))
    _click(browser, "form.compute button[type=submit]")
    _wait(browser, _shown("#answer h2"))
    _wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "figure.chart svg")) ==
          len(b.find_elements(By.CSS_SELECTOR, "figure.chart")) > 0)
    width, screen = _page_width(browser)
    assert width <= screen == PHONE, f"the page is {width} px wide on a {screen} px screen"
    assert _smallest_chart_text(browser) >= 10.9
    # the answer was brought into view: its heading is on the screen
    top = browser.execute_script(
        "return document.querySelector('#answer').getBoundingClientRect().top")
    assert -1 <= top < 740, f"the answer begins {top} px down a 740 px screen"
    browser.save_screenshot(str(SHOTS / f"phone-{len(weapons)}x{len(targets)}.png"))


def test_back_and_forward_step_through_questions_on_short_links(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    means = []
    for target in ("MEQ", "TEQ"):
        _type(browser, "#weapons", WEAPONS[0])
        _type(browser, "#targets", target)
        _click(browser, "form.compute button[type=submit]")
        expected = f"{mh.exact(WEAPONS[0], target).mean('damage'):.3f}"
        _wait(browser, _shown("#mean-damage", expected))
        means.append(expected)
    url = browser.current_url
    # a short link: fields at their defaults, and the trials of an exact answer, left out
    for left_out in ("hit_mod=", "edition=", "trials=", "seed=", "engine=", "reroll_hits="):
        assert left_out not in url
    browser.back()
    _wait(browser, _shown("#mean-damage", means[0]), 20)
    assert browser.find_element(By.ID, "targets").get_attribute("value") == "MEQ"
    browser.forward()
    _wait(browser, _shown("#mean-damage", means[1]), 20)
    assert browser.find_element(By.ID, "targets").get_attribute("value") == "TEQ"
    # the short link opened anew gives the same answer
    browser.get(url)
    _wait(browser, _shown("#mean-damage", means[1]))


def test_a_refusal_names_the_pages_controls(server, browser):
    browser.get(server + "/")
    _type(browser, "#weapons", WEAPONS[0])
    _type(browser, "#targets", "MEQ")
    _click(browser, "input[name=advanced]")
    _click(browser, "input[name=stationary]")
    _click(browser, "form.compute button[type=submit]")
    error = _wait(browser, _shown("#answer-error"), 20).text
    assert "untick 'Advanced' or 'Stationary'" in error and "--" not in error


def test_a_hand_edited_choice_is_refused_not_replaced(server, browser):
    from selenium.webdriver.common.by import By

    for field, value in (("edition", "9"), ("reroll_hits", "twice"), ("cover", "maybe")):
        browser.get(f"{server}/?weapons=Lascannon%3A+48%22+A1+BS3%2B+S12+AP-3+D6&targets=MEQ"
                    f"&{field}={value}&run=1")
        error = _wait(browser, _shown("#page-error"), 10).text
        assert error.startswith(f"{field}: '{value}'")
        browser.execute_script("return new Promise((r) => setTimeout(r, 600))")
        assert not browser.find_elements(By.ID, "mean-damage")  # nothing computed


def test_a_list_loads_by_keyboard(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser.get(server + "/army")
    zone = browser.find_element(By.CSS_SELECTOR, '.drop[data-slot="list"]')
    chooser = zone.find_element(By.CSS_SELECTOR, "input[type=file]")
    # in the Tab order, right after its drop zone
    zone.send_keys("")  # focus
    browser.execute_script("arguments[0].focus()", zone)
    browser.switch_to.active_element.send_keys(Keys.TAB)
    assert browser.switch_to.active_element == chooser
    # Enter or Space on the drop zone opens the file chooser
    browser.execute_script("""window.__opened = 0;
      arguments[0].addEventListener('click', () => { window.__opened += 1; });""", chooser)
    browser.execute_script("arguments[0].focus()", zone)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    browser.switch_to.active_element.send_keys(Keys.SPACE)
    assert browser.execute_script("return window.__opened") == 2
    chooser.send_keys(str(ROSTER_FILES / "marines_10e.ros"))
    _wait(browser, _shown("#listing"), 30)


# -- writing lines without knowing the syntax, and lines kept in the browser -----------------
def test_the_line_writer_and_saved_lines_on_a_phone(server, phone):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser = phone
    browser.get(server + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(server + "/")
    _type(browser, "#weapons", "")
    _click(browser, "#weapons ~ details.syntax summary")
    writer = browser.find_element(By.CSS_SELECTOR, 'fieldset.writer[data-writer="weapon"]')
    for part, value in (("count", "5"), ("name", "Plasma gun"), ("a", "1"), ("s", "8"),
                        ("ap", "-3"), ("d", "2")):
        field = writer.find_element(By.CSS_SELECTOR, f'[data-part="{part}"]')
        field.clear()
        field.send_keys(value)
    Select(writer.find_element(By.CSS_SELECTOR, '[data-part="ability"]')) \
        .select_by_value("RAPID FIRE")
    writer.find_element(By.CSS_SELECTOR, '[data-part="ability-value"]').send_keys("1")
    writer.find_element(By.CSS_SELECTOR, "[data-add-ability]").click()
    writer.find_element(By.CSS_SELECTOR, "[data-write]").click()
    written = browser.find_element(By.CSS_SELECTOR, "#weapons").get_attribute("value")
    assert written == '5x Plasma gun: 24" A1 BS3+ S8 AP-3 D 2 [RAPID FIRE 1]'
    _wait(browser, _shown("#weapons-checks li.ok"))   # the page's own checker reads it
    assert _page_width(browser)[0] <= PHONE
    # saved in this browser, offered again after a reload, added by picking it
    _click(browser, 'div.saved[data-saved-for="40k:weapon"] button.save-lines')
    browser.get(server + "/")
    _type(browser, "#weapons", "")
    saved = Select(browser.find_element(
        By.CSS_SELECTOR, 'div.saved[data-saved-for="40k:weapon"] select.saved-lines'))
    assert written in [o.get_attribute("value") for o in saved.options]
    saved.select_by_value(written)
    assert browser.find_element(By.CSS_SELECTOR, "#weapons").get_attribute("value") == written


def test_a_pairing_shows_the_chance_of_at_least_k_as_numbers(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    _type(browser, "#weapons", WEAPONS[2])
    _type(browser, "#targets", "Rhino: T10 Sv3+ W10 [VEHICLE]")
    _click(browser, "form.compute button[type=submit]")
    _wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "details.at-least"))
    _click(browser, "details.at-least summary")
    rows = browser.find_elements(By.CSS_SELECTOR, "table.at-least tbody tr")
    at_least = mh.exact(WEAPONS[2], "Rhino: T10 Sv3+ W10 [VEHICLE]").at_least("damage")
    shown = [float(r.find_elements(By.TAG_NAME, "td")[1].text) for r in rows[:len(at_least)]]
    assert shown == pytest.approx(at_least.round(4).tolist(), abs=1e-12)


def test_charts_are_drawn_for_the_width_they_get(server, phone):
    """On a phone the chart is drawn phone-wide (at most a little wider where its labels
    need it, scrolling inside its box), not as a 7 in (672 px) article drawing scaled down, so
    its text keeps its size."""
    from selenium.webdriver.common.by import By

    browser = phone
    browser.get(server + "/")
    _type(browser, "#weapons", WEAPONS[2])
    _type(browser, "#targets", "Rhino: T10 Sv3+ W10 [VEHICLE]")
    _click(browser, "form.compute button[type=submit]")
    _wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "figure.chart svg"))
    drawn, shown = browser.execute_script("""
      const svg = document.querySelector('figure.chart svg');
      return [parseFloat(svg.getAttribute('width')) * 4 / 3,   // pt -> CSS px
              svg.getBoundingClientRect().width];""")
    assert drawn <= 1.25 * PHONE < 672, (drawn, shown)
    assert _page_width(browser)[0] <= PHONE and _smallest_chart_text(browser) >= 10.9
