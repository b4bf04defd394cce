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


# -- errors that carry data: each reader says an option in its own words (issue 40, item 4) --
def test_an_option_error_names_options_in_python_and_on_the_command_line():
    from mathhammer.errors import NAMED, OptionError, command_line_words

    error = OptionError("drop {advanced} or set {crit_hits}; see {method}",
                        options={"advanced": True, "crit_hits": 7, "method": NAMED})
    assert str(error) == "drop advanced=True or set crit_hits=7; see method"
    assert command_line_words(error) == "drop --advanced or set --crit-hits 7; see --method"
    assert error.options == {"advanced": True, "crit_hits": 7, "method": NAMED}


def test_braces_of_the_users_text_are_left_alone():
    from mathhammer.errors import OptionError

    error = OptionError("'Gun {x}' cannot: drop {advanced}", options={"advanced": True})
    assert str(error) == "'Gun {x}' cannot: drop advanced=True"
    assert str(OptionError("a plain {message}")) == "a plain {message}"


def test_the_library_says_its_own_keywords_and_the_command_line_its_flags(capsys):
    import mathhammer as mh
    from mathhammer.errors import OptionError
    from mathhammer.main import main

    with pytest.raises(OptionError, match=r"^crit_hits=7 is impossible"):
        mh.Modifiers(crit_hits=7)
    with pytest.raises(OptionError, match=r"drop advanced=True or stationary=True"):
        mh.Situation(advanced=True, stationary=True)
    assert main(["exact", "Gun: A1 BS3+ S4 AP0 D1", "--target", "MEQ", "--crit-hits", "7"]) \
        == 2
    assert "error: --crit-hits 7 is impossible" in capsys.readouterr().err


def test_a_refused_cell_carries_its_reason_and_cell_apart_from_the_words():
    from mathhammer.errors import UnsupportedError, within

    inner = UnsupportedError("too many states")
    outer = within("Flamer against 12x Trooper", inner, ("Flamer", "12x Trooper"))
    assert str(outer) == "Flamer against 12x Trooper: too many states"
    assert outer.reason == "too many states" and outer.cell == ("Flamer", "12x Trooper")
    assert within("again", outer).cell == ("Flamer", "12x Trooper")


def test_a_comparison_names_the_refused_cell_in_fields():
    import importlib

    from mathhammer.errors import UnsupportedError

    compare = importlib.import_module("mathhammer.warmachine.comparisons").compare
    with pytest.raises(UnsupportedError) as info:
        compare(["Flamer: RAT5 POW14 [SPRAY 12]"], ["12x Trooper: DEF12 ARM13 BOXES1"],
                method="exact")
    assert info.value.cell == ("Flamer", "12x Trooper")
    assert str(info.value) == f"Flamer against 12x Trooper: {info.value.reason}"
