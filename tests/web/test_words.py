"""Refusals in the page's own words (mathhammer.web.words)."""

from __future__ import annotations

import pytest

from mathhammer.web import app  # noqa: F401  (imports every page: their controls register)
from mathhammer.web.cli import port_number
from mathhammer.web.words import labels, page_words


def test_every_page_control_is_registered():
    known = labels()
    assert known["half-range"] and known["edition"] and known["phase"] == "Phase"
    assert known["sustained"] == "Sustained attack"


@pytest.mark.parametrize("message, expected", [
    ("drop --advanced or --stationary", "untick 'Advanced' or 'Stationary'"),
    ("add --half-range", f"tick '{labels()['half-range']}'"),
    ("use --method monte-carlo", "use 'Monte Carlo' (Engine)"),
    ("start with --port 8080", "start with --port 8080"),   # a server option: kept
    ("no flag here", "no flag here"),
])
def test_flags_named_by_the_page_controls(message, expected):
    assert page_words(message) == expected


@pytest.mark.parametrize("text", ["\u0668\u0660\u0668\u0660", "\u00b2", "80a", "", "0", "65536",
                                  "99999999999999999999"])
def test_port_numbers_are_ascii_digits_in_range(text):
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match="not a port number"):
        port_number(text)
    assert port_number(" 8080 ") == 8080
