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
    err = ProfileError("'S٣'", detail=" is not a digit", token="٣", column=12,
                       line="Bolter: A1 S٣")
    assert err.token == "٣" and err.column == 12
    assert "'S٣' at column 12 is not a digit" in str(err)
    assert len(str(err).splitlines()) == 1
    # without a column there is nowhere to point
    assert str(ProfileError("'x'", detail=" is bad", token="x")).startswith("'x' is bad")
    # a brace in the user's text is text, not a slot
    assert str(ProfileError("'{where}' is bad", token="x")) == "'{where}' is bad"


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
        mh.wh40k.Modifiers(crit_hits=7)
    with pytest.raises(OptionError, match=r"drop advanced=True or stationary=True"):
        mh.wh40k.Situation(advanced=True, stationary=True)
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


# -- errors that carry data (issue 40, item 4): look-ups are KeyErrors, places are fields ----
def test_lookups_of_unknown_names_are_key_errors_saying_one_unquoted_line():
    import mathhammer as mh
    from mathhammer import dust, warmachine
    from mathhammer.errors import (UnknownDatasheetError, UnknownNameError, UnknownTargetError,
                                   UnknownWordError)

    assert issubclass(UnknownDatasheetError, KeyError) and issubclass(UnknownDatasheetError,
                                                                       RosterError)
    cases = [(lambda: mh.targets["MEW"], UnknownTargetError, "MEW",
              "unknown reference target 'MEW'; did you mean 'MEQ'?"),
             (lambda: mh.parse_weapon("Bolter: A2 BS3+ S4 AP0 D1 [SUSTAINED HIT 1]"),
              UnknownWordError, "SUSTAINED HIT 1", "unknown ability 'SUSTAINED HIT 1' at column 28"),
             (lambda: mh.parse_target("Blorb"), UnknownWordError, "Blorb", "unknown target 'Blorb'"),
             (lambda: warmachine.parse_attack("Hammer: MAT7 POW16 [CHRAGE]"), UnknownWordError,
              "CHRAGE", "unknown keyword 'CHRAGE' at column 21; did you mean 'CHARGE'?"),
             (lambda: dust.parse_weapon("Gun: 3/1 [FOO]"), UnknownWordError, "FOO",
              "unknown weapon tag 'FOO' at column 11")]
    for call, cls, name, start in cases:
        with pytest.raises(KeyError) as info:
            call()
        error = info.value
        assert isinstance(error, cls) and isinstance(error, UnknownNameError)
        assert error.name == error.token == name
        assert str(error).startswith(start)           # not KeyError's quoted repr
        assert len(str(error).splitlines()) == 1
    # a word of a line is also a ProfileError (a ValueError), as every mistake in a line is
    with pytest.raises(ValueError):
        mh.parse_weapon("Bolter: A2 BS3+ S4 AP0 D1 [SUSTAINED HIT 1]")


def test_an_error_said_at_a_place_keeps_its_kind_and_its_fields():
    from mathhammer.errors import command_line_words

    error = OptionError("{crit_hits} is impossible", options={"crit_hits": 7})
    placed = error.located("army.toml:12")
    assert type(placed) is OptionError and placed.options == {"crit_hits": 7}
    assert str(placed) == "army.toml:12: crit_hits=7 is impossible"
    assert command_line_words(placed) == "army.toml:12: --crit-hits 7 is impossible"
    assert error.location is None and str(error) == "crit_hits=7 is impossible"
    assert error.token == "crit_hits"       # the key a file reader looks for
    scenario = ScenarioError("unknown unit 'Mobb'", token="Mobb", activation="Squad shoots")
    assert (scenario.token, scenario.activation) == ("Mobb", "Squad shoots")
    assert scenario.located(None) is scenario


def test_a_profile_error_is_rendered_from_its_parts():
    error = ProfileError("unknown token 'Q'", token="Q", column=9, line="Bolter: Q",
                         detail=": remove it")
    assert str(error) == "unknown token 'Q' at column 9: remove it (in 'Bolter: Q')"
    assert (error.message, error.detail) == ("unknown token 'Q'", ": remove it")
    # a profile's own validation knows no column: the parser places it later
    inner = ProfileError("D7 is not a die of the game", token="D7")
    assert str(inner.placed(20, "Gun: A1 D7")) == (
        "D7 at column 20: D7 is not a die of the game (in 'Gun: A1 D7')")
    split = ProfileError("SUSTAINED HITS", token="SUSTAINED HITS", detail=" needs a value")
    assert str(split.placed(5, "line")) == "SUSTAINED HITS at column 5 needs a value (in 'line')"


def test_no_code_reads_an_error_message_back():
    """Errors carry their data as fields: nothing in the package takes a caught error's
    message apart (a regex over it, a prefix test, a look for a word in it)."""
    import ast
    import pathlib

    import mathhammer

    found = []
    for path in pathlib.Path(mathhammer.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for handler in ast.walk(tree):
            if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
                continue

            def is_message(node, name=handler.name):
                return (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "str"
                        and len(node.args) == 1 and getattr(node.args[0], "id", None) == name)

            for node in ast.walk(handler):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    if node.func.attr in {"startswith", "endswith", "find", "index", "split",
                                          "partition", "replace"} \
                            and is_message(node.func.value):
                        found.append(f"{path.name}:{node.lineno}")
                    if getattr(node.func.value, "id", None) == "re" \
                            and any(is_message(a) for a in node.args):
                        found.append(f"{path.name}:{node.lineno}")
                if isinstance(node, ast.Compare) and any(
                        isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) \
                        and any(is_message(c) for c in node.comparators):
                    found.append(f"{path.name}:{node.lineno}")
    assert not found, f"an error message read back by code: {found}"


def _text_rewriters(trees):
    """Names of the package's functions that rewrite a text they are given (``.replace`` or
    a regex's ``sub`` on a parameter), or hand a parameter to one that does."""
    import ast

    functions = [f for tree in trees for f in ast.walk(tree)
                 if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
    found, grew = set(), True
    while grew:
        grew = False
        for function in (f for f in functions if f.name not in found):
            params = {a.arg for a in function.args.args + function.args.kwonlyargs}

            def is_param(node, params=params):
                return isinstance(node, ast.Name) and node.id in params

            def uses_param(node, params=params):
                return any(isinstance(n, ast.Name) and n.id in params for n in ast.walk(node))

            for node in ast.walk(function):
                if not isinstance(node, ast.Call):
                    continue
                attr = getattr(node.func, "attr", None)
                if (attr == "replace" and is_param(node.func.value) and len(node.args) == 2
                        and all(isinstance(a, (ast.Constant, ast.Name)) for a in node.args)) \
                        or (attr in ("sub", "subn") and len(node.args) >= 2
                            and is_param(node.args[1])) \
                        or (getattr(node.func, "id", attr) in found and node.args
                            and uses_param(node.args[0])):
                    found.add(function.name)
                    grew = True
                    break
    return found


def test_no_code_rewrites_an_error_message_in_other_words():
    """A reader says an error in its own words from the error's fields
    (``error.in_words(reader)``): no code hands a caught error's message to a function that
    swaps words in it (the web page once regex-swapped '--flags' for its controls' labels)."""
    import ast
    import pathlib

    import mathhammer

    paths = sorted(pathlib.Path(mathhammer.__file__).parent.rglob("*.py"))
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in paths]
    rewriters = _text_rewriters(trees)
    found = []
    for path, tree in zip(paths, trees):
        for handler in ast.walk(tree):
            if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
                continue

            def is_message(node, name=handler.name):
                return (isinstance(node, ast.Call) and len(node.args) == 1
                        and getattr(node.func, "id", None) in ("str", "command_line_words")
                        and getattr(node.args[0], "id", None) == name)

            for node in ast.walk(handler):
                if isinstance(node, ast.Call) and (getattr(node.func, "id", None) or getattr(
                        node.func, "attr", None)) in rewriters and any(
                        is_message(n) for a in node.args for n in ast.walk(a)):
                    found.append(f"{path.name}:{node.lineno}")
    assert not found, f"an error message rewritten by code: {found}"


def test_a_long_refused_line_is_quoted_around_its_column():
    # A refused line of 200 parts was echoed whole (8,000 characters on one line); it is
    # quoted 160 characters around the column, with its length.
    from mathhammer.errors import ProfileError
    from mathhammer.wh40k.parse import parse_weapon

    line = "Gun: A1 BS3+ S4 AP0 D1 [" + ", ".join(["ASSAULT"] * 600) + ", QUUX]"
    with pytest.raises(ProfileError) as caught:
        parse_weapon(line)
    message = str(caught.value)
    assert "QUUX" in message and f", a line of {len(line):,} characters)" in message
    assert len(message) < 700   # the known abilities and 160 characters of the line
    short = ProfileError("unknown token 'Q'", token="Q", column=6, line="Gun: Q")
    assert str(short) == "unknown token 'Q' at column 6 (in 'Gun: Q')"
