"""The shared shape of public functions: the engine choice and old spellings, each accepted
for one release with a DeprecationWarning that names the new spelling."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

from mathhammer.core.signatures import (AUTO, EXACT, METHODS, MONTE_CARLO, check_method,
                                        exact_as_method, old_spellings, renamed)
from mathhammer.errors import OptionError


@old_spellings(positional=("rules", "method"), attacks=renamed("weapons"),
               exact=exact_as_method)
def _shoot(weapons, target, *, rules=None, method=AUTO):
    return weapons, target, rules, method


def test_the_methods_are_three_and_simulate_reads_as_monte_carlo():
    assert METHODS == ("auto", "exact", "monte-carlo")
    assert [check_method(m) for m in METHODS] == list(METHODS)
    assert check_method("simulate") == MONTE_CARLO


@pytest.mark.parametrize("method", ["Exact", "mc", "", None, 1, True, ["exact"]])
def test_anything_else_is_refused_in_one_line_naming_the_choices(method):
    with pytest.raises(OptionError) as info:
        check_method(method)
    message = str(info.value)
    assert "'auto'" in message and "'exact'" in message and "'monte-carlo'" in message
    assert "\n" not in message


def test_the_new_spelling_gives_no_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _shoot("w", "t", method=EXACT) == ("w", "t", None, "exact")


@pytest.mark.parametrize("old, new", [(True, "exact"), (False, "monte-carlo"),
                                      (np.True_, "exact")])
def test_exact_is_the_old_spelling_of_method(old, new):
    with pytest.warns(DeprecationWarning, match=f"use method='{new}'"):
        assert _shoot("w", "t", exact=old)[3] == new


def test_a_function_may_read_exact_true_as_another_engine():
    assert exact_as_method(True, if_true=AUTO) == ("method", "auto")
    assert exact_as_method(None, if_true=AUTO, if_none=AUTO) == ("method", "auto")
    with pytest.raises(OptionError, match="True, False or None, not str 'x'"):
        exact_as_method("x", if_none=AUTO)
    with pytest.raises(OptionError, match="exact must be True or False, not NoneType"):
        exact_as_method(None)


def test_renamed_keywords_and_positional_options_warn_and_still_work():
    with pytest.warns(DeprecationWarning, match=r"_shoot\(attacks=...\) is deprecated"):
        assert _shoot(attacks="w", target="t") == ("w", "t", None, "auto")
    with pytest.warns(DeprecationWarning, match=r"rules, method by position.*\(rules=...\)"):
        assert _shoot("w", "t", "R", "exact") == ("w", "t", "R", "exact")


def test_the_warning_points_at_the_caller():
    with pytest.warns(DeprecationWarning) as caught:
        _shoot("w", "t", exact=True)
    assert caught[0].filename == __file__


@pytest.mark.parametrize("call, words", [
    (lambda: _shoot("w", "t", method="exact", exact=True), "give method= alone"),
    (lambda: _shoot("w", "t", "R", rules="S"), "rules given twice"),
    (lambda: _shoot("w", "t", "R", "exact", "more"), "takes 2 subjects by position"),
])
def test_old_and_new_spellings_together_are_refused(call, words):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(OptionError, match=words):
            call()


def test_the_signature_shown_is_the_new_one():
    assert list(inspect.signature(_shoot).parameters) == ["weapons", "target", "rules",
                                                          "method"]


def test_by_method_falls_back_only_for_auto():
    from mathhammer.core.signatures import by_method
    from mathhammer.errors import UnsupportedError

    def refused():
        raise UnsupportedError("too many states")

    assert by_method("auto", refused, lambda: "mc") == "mc"
    assert by_method("monte-carlo", lambda: "exact", lambda: "mc") == "mc"
    assert by_method("exact", lambda: "exact", lambda: "mc") == "exact"
    with pytest.raises(UnsupportedError, match="too many states"):
        by_method("exact", refused, lambda: "mc")
    with pytest.raises(OptionError, match="not an engine"):
        by_method("guess", lambda: "exact", lambda: "mc")
