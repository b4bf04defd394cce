"""Refusals in the page's own words (mathhammer.web.words), rendered from an error's
fields: the options it names, never its message read back."""

from __future__ import annotations

import pytest

from mathhammer.errors import NAMED, Command, OptionError, RosterError, UnknownDatasheetError
from mathhammer.web import app  # noqa: F401  (imports every page: their controls register)
from mathhammer.web.cli import port_number
from mathhammer.web.words import labels, page_message
from tests.web.conftest import refusal


def test_every_page_control_is_registered():
    known = labels()
    assert known["half_range"] and known["edition"] and known["phase"] == "Phase"
    assert known["sustained"] == "Sustained attack"


@pytest.mark.parametrize("error, expected", [
    (OptionError("{drop advanced} or {stationary}",
                 options={"advanced": True, "stationary": True}),
     "untick 'Advanced' or 'Stationary'"),
    (OptionError("{add half_range}", options={"half_range": True}),
     f"tick '{labels()['half_range']}'"),
    (OptionError("use {--method}", options={"method": "monte-carlo"}),
     "use 'Monte Carlo' (Engine)"),
    (OptionError("{crit_hits} is impossible", options={"crit_hits": 7}),
     "'Crit hits on' 7 is impossible"),
    (OptionError("start with {--port}", options={"port": 8080}),
     "start with --port 8080"),   # a server option: the command line's words
    (OptionError("no flag here"), "no flag here"),
    (RosterError("no Leader; write {--attach}", options={"attach": "Captain=Intercessors"}),
     "no Leader; write \"Captain=Intercessors\" in the 'Attach Leaders' box"),
    (UnknownDatasheetError("no datasheet 'X'; {find} lists names", name="X",
                           options={"find": Command("mathhammer units --find TEXT")}),
     "no datasheet 'X'; the Units by name box lists names"),
    (RosterError("in 2 factions: {choose one with faction}", options={"faction": NAMED}),
     "in 2 factions: write @Name@Faction"),
    (OptionError("lower {--trials}", options={"trials": NAMED}).after("army.toml: "),
     "army.toml: lower 'trials'"),
])
def test_options_are_named_by_the_page_controls(error, expected):
    assert page_message(error) == expected


def test_a_located_error_and_a_bug_are_one_line():
    error = OptionError("{drop advanced}\n now", options={"advanced": True}).located("f:3")
    assert page_message(error) == "f:3: untick 'Advanced' now"
    assert page_message(ValueError("a\nbug")) == "a bug"


@pytest.mark.parametrize("text", ["\u0668\u0660\u0668\u0660", "\u00b2", "80a", "", "0", "65536",
                                  "99999999999999999999"])
def test_port_numbers_are_ascii_digits_in_range(text):
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="not a port number"):
        port_number(text)
    assert port_number(" 8080 ") == 8080


@pytest.mark.parametrize("call, python, page", [
    # the engines' own refusals: Python's words as before, the page's from the same fields
    (lambda: __import__("mathhammer").warmachine.exact(
        ["2x Fist: MAT7 POW16 [CRIPPLED BODY]"], "Jack: DEF12 ARM16 [GRID ---L/--LL/-MC/-MC/"
        "--RR/---R]"), "apply_crippling=True (--apply-crippling: ",
     "apply_crippling=True ('Apply crippled systems': "),
    (lambda: __import__("mathhammer").dust.exact(["Gun: 3/1"], "Plane: AIRCRAFT2 BOXES4"),
     "(use --sustained, or aircraft_needs_sustained=False)",
     "(use 'Sustained attack', or aircraft_needs_sustained=False)"),
    (lambda: __import__("mathhammer.core.limits", fromlist=["x"]).check_run_work(
        10**6, 10**9, "dice"), "dice: lower --trials", "dice: lower 'trials'"),
])
def test_engine_refusals_in_each_readers_words(call, python, page):
    from mathhammer.errors import command_line_words

    error = refusal(call)
    assert python in str(error) and python in command_line_words(error)
    assert page in page_message(error) and "--" not in page_message(error)
