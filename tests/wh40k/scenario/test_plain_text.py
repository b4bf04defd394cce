"""Control and text-direction characters anywhere in a scenario file's keys and texts
(wh40k/scenario/plain_text.py); the command-line refusals at their lines are in
test_reader.py."""

import pytest

from mathhammer.errors import ScenarioError
from mathhammer.wh40k.scenario.plain_text import refuse_unsafe_texts


class Lines:
    """A locator over a file's lines that says which anchor and needle it was asked for."""

    def __init__(self, text: str = "") -> None:
        self.lines = text.splitlines()

    def where(self, anchor, needle=None):
        return f"{anchor}|{needle}"


def test_a_weapon_line_ending_in_a_line_break_is_read():
    # A line break at the end of a profile line (a TOML "\n", a multi-line string) is white
    # space the line's parser strips, as on the command line: taken, not refused (the check
    # once found it, then had no message to raise).
    class NoLines(Lines):
        def where(self, anchor, needle=None):
            raise AssertionError("nothing to refuse")

    weapons = ['Bolt rifle: 24" A2 BS3+ S4 AP-1 D1\n', 'Pistol: 12" A1 BS3+ S4 AP0 D1\r\n']
    data = {"units": {"Squad": {"models": [{"name": "Marine", "profile": "T4 Sv3+ W2\n",
                                            "weapons": weapons}]}}}
    assert refuse_unsafe_texts(data, NoLines()) is None


def test_a_name_is_refused_at_its_unit_with_the_character_escaped():
    data = {"units": {"Squad": {"side": "A\x1b", "models": []}}}
    with pytest.raises(ScenarioError) as caught:
        refuse_unsafe_texts(data, Lines('[units.Squad]\nside = "A\\u001b"'))
    assert "unit 'Squad' side 'A\\x1b' holds '\\x1b' (a control character): delete it" in \
        str(caught.value)
    assert "\x1b" not in str(caught.value)


def test_a_key_is_checked_as_well_as_a_value():
    data = {"rules": {"ma\u202egic": True}}
    with pytest.raises(ScenarioError, match="holds '\\\\u202e'"):
        refuse_unsafe_texts(data, Lines())


def test_a_tab_inside_a_profile_line_is_a_space_but_not_in_a_name():
    lines = {"units": {"Squad": {"models": [{"name": "Marine", "weapons":
                                             ['Bolt\trifle: 24" A2 BS3+ S4 AP-1 D1']}]}}}
    assert refuse_unsafe_texts(lines, Lines()) is None
    named = {"units": {"Squad": {"models": [{"name": "Mar\tine"}]}}}
    with pytest.raises(ScenarioError, match="model group name"):
        refuse_unsafe_texts(named, Lines())
