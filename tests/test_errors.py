"""The error hierarchy (errors.py): one line naming the token, its column and the line."""

import pytest

from mathhammer.errors import (MathhammerError, OptionError, ProfileError, RosterError,
                               ScenarioError, UnsupportedError, did_you_mean)


def test_every_error_is_a_mathhammer_error_and_text_errors_are_value_errors():
    for cls in (ProfileError, OptionError, ScenarioError, RosterError, UnsupportedError):
        assert issubclass(cls, MathhammerError)
    for cls in (ProfileError, OptionError, ScenarioError, RosterError):
        assert issubclass(cls, ValueError)
    assert issubclass(RosterError, ScenarioError)
    assert not issubclass(UnsupportedError, ValueError)


def test_profile_error_places_the_token():
    err = ProfileError("'S٣'{where} is not a digit", token="٣", column=12,
                       line="Bolter: A1 S٣")
    assert err.token == "٣" and err.column == 12
    assert "'S٣' at column 12 is not a digit" in str(err)
    assert len(str(err).splitlines()) == 1
    # without a column there is nowhere to point
    assert str(ProfileError("'x'{where} is bad", token="x")).startswith("'x' is bad")


@pytest.mark.parametrize("word, choices, expected", [
    ("half_rnage", ["half_range", "cover"], "; did you mean 'half_range'?"),
    ("COVR", ["cover", "stationary"], "; did you mean 'cover'?"),  # case-insensitive
    ("zzz", ["cover", "stationary"], ""),
])
def test_did_you_mean(word, choices, expected):
    assert did_you_mean(word, choices) == expected
