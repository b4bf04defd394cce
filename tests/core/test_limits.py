"""Size limits (core/limits.py): numbers, digits and run sizes refused before any work."""

import pytest

from mathhammer.core.limits import (allow_long_runs, MAX_DICE_PER_RUN, MAX_NUMBER, MAX_OUTCOME_VALUES,
                                    check_at_most, check_line_numbers, check_number_text,
                                    check_outcome_values, check_run_work, first_foreign_digit,
                                    refuse_foreign_digits)
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


def test_run_sizes():
    check_outcome_values(MAX_OUTCOME_VALUES, "damage", "fewer models")
    with pytest.raises(OptionError, match="damage could reach 100,001 .limit 100,000.: "
                                          "fewer models"):
        check_outcome_values(MAX_OUTCOME_VALUES + 1, "damage", "fewer models")
    with allow_long_runs():  # the hard limit holds whatever the estimate
        check_run_work(1_000, MAX_DICE_PER_RUN // 1_000, "dice")
        with pytest.raises(OptionError, match="more than 100,000,000,000 dice: lower --trials"):
            check_run_work(1_000, MAX_DICE_PER_RUN // 1_000 + 1, "dice")
