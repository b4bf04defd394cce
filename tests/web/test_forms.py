"""The web page's query fields (web/forms.py): every field bounded, refused in one line."""

import pytest

from mathhammer.errors import OptionError
from mathhammer.web.forms import (ENGINE, MAX_LINES, Number, Switch, choice, lines_field,
                                  read_engine, read_fields, text_field, whole_number,
                                  wh40k_options)


def test_lines_and_text():
    assert lines_field({"targets": "MEQ\n\n  TEQ  \n"}, "targets", "target") == ["MEQ", "TEQ"]
    with pytest.raises(OptionError, match=f"targets: {MAX_LINES + 1} target lines; at most"):
        lines_field({"targets": "MEQ\n" * (MAX_LINES + 1)}, "targets", "target")
    with pytest.raises(OptionError, match="targets line 1: 401 characters"):
        lines_field({"targets": "x" * 401}, "targets", "target")
    with pytest.raises(OptionError, match="NUL character"):
        text_field({"a": "x\x00"}, "a")


def test_whole_numbers():
    assert whole_number({"hit_mod": " −1 "}, "hit_mod", -1, 1, 0) == -1  # a typed minus sign
    assert whole_number({}, "hit_mod", -1, 1, 0) == 0
    with pytest.raises(OptionError, match="hit_mod: 'x' is not a whole number from -1 to 1"):
        whole_number({"hit_mod": "x"}, "hit_mod", -1, 1, 0)
    with pytest.raises(OptionError, match="hit_mod: 2 is out of range"):
        whole_number({"hit_mod": "2"}, "hit_mod", -1, 1, 0)
    with pytest.raises(OptionError, match="not a whole number"):
        whole_number({"trials": "٣"}, "trials", 1, 10, 5)


def test_choices_switches_and_fields():
    assert choice({}, ENGINE) == "exact"
    with pytest.raises(OptionError, match="engine: 'fast' is not one of exact, monte-carlo"):
        choice({"engine": "fast"}, ENGINE)
    fields = [Switch("cover", "Cover"), Number("hit_mod", "Hit", -1, 1)]
    assert read_fields({"cover": "on", "hit_mod": "1"}, fields) == {"cover": True,
                                                                    "hit_mod": 1}
    assert read_fields({"cover": "off"}, fields) == {"cover": False, "hit_mod": 0}


def test_engine_and_40k_options():
    engine = read_engine({"engine": "monte-carlo", "trials": "5000", "seed": "7"})
    assert (engine.exact, engine.trials, engine.seed) == (False, 5000, 7)
    assert engine.words() == "Monte Carlo, 5,000 trials per cell, seed 7"
    assert read_engine({}).words() == "exact"
    with pytest.raises(OptionError, match="trials: 3,000,000 is out of range"):
        read_engine({"trials": "3000000"})
    options = wh40k_options({"cover": "on"})
    assert options["cover"] is True and options["edition"] in (10, 11) and "fnp" not in options
