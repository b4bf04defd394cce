"""Numbers as users type them (core/numbers.py): plain marks, counts, whole and real numbers."""

import argparse

import pytest

from mathhammer.core.numbers import (int_option, malformed_count, plain_marks, real_number_text,
                                     real_option, refuse_malformed_count, whole_number_text)
from mathhammer.errors import OptionError, ProfileError


def test_plain_marks_keep_columns():
    line = "Axe: S×2 AP−1 [ARMOR–PIERCING] 12”"
    plain = plain_marks(line)
    assert plain == 'Axe: Sx2 AP-1 [ARMOR-PIERCING] 12"' and len(plain) == len(line)


@pytest.mark.parametrize("text, expected", [
    ("10x Intercessor: T4", None),          # a plain count
    ("Onyx Guard: T4", None),               # a name ending in x
    ("1.5x Intercessor: T4", ("1.5x", 1)),
    ("  1e3x Intercessor: T4", ("1e3x", 3)),
    ("٣x Intercessor: T4", ("٣x", 1)),
    ("1\u200bx Intercessor: T4", ("1\u200bx", 1)),
])
def test_malformed_count(text, expected):
    assert malformed_count(text) == expected


def test_refuse_malformed_count_names_the_fix():
    with pytest.raises(ProfileError, match="count '1.5x' at column 1 is not a whole number "
                                           "of digits 0-9"):
        refuse_malformed_count("1.5x Grunt: T4", "1.5x Grunt: T4", "10x Grunt: ...")
    with pytest.raises(ProfileError, match="invisible character U.200B .zero width space."):
        refuse_malformed_count("1\u200bx Grunt: T4", "1\u200bx Grunt: T4", "10x Grunt: ...")
    refuse_malformed_count("10x Grunt: T4", "10x Grunt: T4", "10x Grunt: ...")


def test_whole_and_real_number_text():
    assert whole_number_text(" +12 ", "trials", 1, 100) == 12
    for bad in ("1_0", "1e3", "1.0", "inf", "٣"):
        with pytest.raises(OptionError, match="is not a whole number"):
            whole_number_text(bad, "trials", 1, 100)
    with pytest.raises(OptionError, match="trials 0 is out of range, from 1 to 100"):
        whole_number_text("0", "trials", 1, 100)
    assert real_number_text(".5", "cap", 0, 1) == 0.5
    for bad in ("nan", "inf", "1e3", "٣"):
        with pytest.raises(OptionError, match="is not a number"):
            real_number_text(bad, "cap", 0, 1)
    with pytest.raises(OptionError, match="cap 1.5 is out of range: from 0 to 1"):
        real_number_text("1.5", "cap", 0, 1)


def test_argparse_types():
    assert int_option(1, 10)("7") == 7 and real_option(0, 1)("0.25") == 0.25
    with pytest.raises(argparse.ArgumentTypeError):
        int_option(1, 10)("11")
    with pytest.raises(argparse.ArgumentTypeError):
        real_option(0, 1)("nan")
