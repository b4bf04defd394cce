"""Names of reference profiles shared by the games' target libraries (core/reference_names.py)."""

import pytest

from mathhammer.core.reference_names import (UnknownTargetError, normalize, split_name_line,
                                             table_line)
from mathhammer.errors import MathhammerError


@pytest.mark.parametrize("text, parts", [
    ("MEQ", (None, "MEQ", None)),
    ("10x MEQ", ("10", "MEQ", None)),
    ("3 × light jack [KNOCKED DOWN]", ("3", "light jack", "KNOCKED DOWN")),
    ("  5xTEQ [STEALTH, INFANTRY] ", ("5", "TEQ", "STEALTH, INFANTRY")),
    ("Jack: DEF12 ARM19", None),           # a profile line, not a name
    ("MEQ [A] [B]", None), ("[A]", None), ("10x", None), ("", None),
])
def test_split_name_line(text, parts):
    assert split_name_line(text) == parts


def test_normalize_ignores_case_spaces_hyphens_underscores():
    assert normalize(" Heavy war-jack ") == normalize("HEAVY_WARJACK") == "heavywarjack"


def test_unknown_names_read_as_one_line():
    error = UnknownTargetError("unknown reference target 'MEW'; did you mean 'MEQ'?")
    assert isinstance(error, KeyError) and isinstance(error, MathhammerError)
    assert str(error) == "unknown reference target 'MEW'; did you mean 'MEQ'?"


TOML = """# targets
[MEQ]
T = 4

["Heavy jack"]
  "DEF" = 12
ARM = 19
[other]
DEF = 1
"""


@pytest.mark.parametrize("table, field, line", [
    ("MEQ", None, 2), ("MEQ", "T", 3), ("Heavy jack", None, 5), ("Heavy jack", "DEF", 6),
    ("Heavy jack", "ARM", 7), ("Heavy jack", "BOXES", 5),   # a missing field: its table
    ("missing", None, 1), ("other", "DEF", 9),
])
def test_table_line(table, field, line):
    assert table_line(TOML, table, field) == line


@pytest.mark.parametrize("table, field, line", [
    ("B\x1b", None, 3), ("B\x1b", "X\u202e", 4), ("B\x1b", "N\x08", 5), ("C\u202e", None, 6)])
def test_table_line_finds_a_control_character_written_as_an_escape(table, field, line):
    """A reader refusing a name with a control character names the line it is written on."""
    text = '[A]\nx = 1\n["B\\u001b"]\n"X\u202e" = 1\n"N\\b" = 2\n["C\u202e"]\n'
    assert table_line(text, table, field) == line
