"""Size limits (core/limits.py): numbers, digits and run sizes refused before any work."""

import pytest

from mathhammer.core.limits import (allow_long_runs, MAX_DICE_PER_RUN, MAX_NUMBER, MAX_OUTCOME_VALUES,
                                    check_at_most, check_line_numbers, check_number_text,
                                    check_outcome_values, check_run_work, first_foreign_digit,
                                    refuse_control_characters, refuse_foreign_digits, shown,
                                    unsafe_character)
from mathhammer.errors import OptionError, ProfileError


def test_check_at_most_and_number_text():
    check_at_most(MAX_NUMBER, MAX_NUMBER, "A")
    with pytest.raises(ProfileError, match="A 10,001 is too large: at most 10,000"):
        check_at_most(10_001, 10_000, "A")
    assert check_number_text("-25", 100, "AP") == -25
    with pytest.raises(ProfileError, match="AP 101 is too large"):
        check_number_text("101", 100, "AP")
    # 5,000 digits are refused without converting them
    with pytest.raises(ProfileError, match="is too large"):
        check_number_text("9" * 5000, 100, "A")


def test_foreign_digits():
    assert first_foreign_digit("A3 S٤") == (4, "٤")
    assert first_foreign_digit("A3 S4") is None
    with pytest.raises(ProfileError, match="arabic-indic digit four.* at column 5"):
        refuse_foreign_digits("A3 S٤", "A3 S٤")


def test_line_numbers_skip_the_name_but_not_the_count():
    check_line_numbers("Squad 101: MAT7 POW12")  # digits in a name are the name's
    with pytest.raises(ProfileError, match="'20000' at column 1 is too large"):
        check_line_numbers("20000x Grunt: MAT7")
    with pytest.raises(ProfileError, match="'12345' at column 14 is too large"):
        check_line_numbers("Grunt: MAT7 P12345")


@pytest.mark.parametrize("char, escape, kind", [
    ("\x1b", "\\x1b", "a control character"), ("\x00", "\\x00", "a control character"),
    ("\x7f", "\\x7f", "a control character"), ("\x9b", "\\x9b", "a control character"),
    ("\u202e", "\\u202e", "right-to-left override, a text-direction control"),
    ("\u2066", "\\u2066", "left-to-right isolate, a text-direction control"),
    ("\udc9b", "\\udc9b", "a byte that is not UTF-8 text")])
def test_control_characters_are_named_as_escapes(char, escape, kind):
    line = f"Bolt{char} rifle: RAT6 POW12"
    assert unsafe_character(line) == (4, char)
    with pytest.raises(ProfileError) as info:
        refuse_control_characters(line, line)
    message = str(info.value)
    assert message == (f"'{escape}' ({kind}) at column 5: a line is plain text: delete it "
                       f"(in 'Bolt{escape} rifle: RAT6 POW12')")
    assert char not in message
    with pytest.raises(ProfileError, match="a line is plain text"):
        check_line_numbers(line)   # Warmachine and Dust lines


def test_a_tab_is_a_space_unless_refused_too():
    assert unsafe_character("Bolt\trifle: RAT6") is None
    refuse_control_characters("Bolt\trifle: RAT6")
    check_line_numbers("Bolt\trifle: RAT6 POW12")
    assert unsafe_character("Bolt\trifle", tab=False) == (4, "\t")
    assert shown("a\tb\x1b]0;x\x07\u202ec") == "a\\tb\\x1b]0;x\\x07\\u202ec"
    assert shown("Ork Boyz \u00e9\u2013\U0001f600") == "Ork Boyz \u00e9\u2013\U0001f600"


def test_line_breaks_at_the_ends_of_a_line_are_taken_inside_refused():
    # readlines() leaves "\n", a Windows file "\r\n": lines are stripped, so those are taken
    # (as before the control-character check); a break inside a line is not, and the fix
    # is a space, not a deletion that would join two characteristics.
    check_line_numbers("Rifle: RAT6 POW12\r\n")
    refuse_control_characters("\n Bolt rifle: A2 BS3+\n")
    with pytest.raises(ProfileError) as caught:
        refuse_control_characters("Bolt rifle: A2\nBS3+", "Bolt rifle: A2\nBS3+", "a weapon line")
    assert str(caught.value) == ("'\\n' (a control character) at column 15: a weapon line is "
                                 "one line: write a space instead (in 'Bolt rifle: A2\\nBS3+')")
    with pytest.raises(ProfileError, match="at column 7: a line is plain text: delete it"):
        refuse_control_characters("\n Bolt\x1b rifle")   # the column counts the stripped part


def test_run_sizes():
    check_outcome_values(MAX_OUTCOME_VALUES, "damage", "fewer models")
    with pytest.raises(OptionError, match="damage could reach 100,001 .limit 100,000.: "
                                          "fewer models"):
        check_outcome_values(MAX_OUTCOME_VALUES + 1, "damage", "fewer models")
    with allow_long_runs():  # the hard limit holds whatever the estimate
        check_run_work(1_000, MAX_DICE_PER_RUN // 1_000, "dice")
        with pytest.raises(OptionError, match="more than 100,000,000,000 dice: lower --trials"):
            check_run_work(1_000, MAX_DICE_PER_RUN // 1_000 + 1, "dice")


def test_check_chart_size_names_the_count_its_shape_and_the_limit():
    from mathhammer.core.limits import MAX_CHART_SERIES, MAX_HEATMAP_CELLS, check_chart_size

    check_chart_size("heatmap", MAX_HEATMAP_CELLS)
    check_chart_size("overlay", MAX_CHART_SERIES)
    check_chart_size("bars", 10**6)   # bars have no limit
    with pytest.raises(OptionError) as caught:
        check_chart_size("heatmap", 1_001, "11 attackers x 91 targets")
    assert str(caught.value) == (
        "a heat map of 1,001 cells (11 attackers x 91 targets) is more than 1,000 cells: "
        "chart fewer attackers or targets, or write the grid as a table (--csv, --markdown)")
    with pytest.raises(OptionError, match="^an overlay of 201 curves is more than 200 curves"):
        check_chart_size("overlay", 201)
    with pytest.raises(OptionError, match="^a sweep chart of 201 lines is more than 200 lines"):
        check_chart_size("lines", 201)
