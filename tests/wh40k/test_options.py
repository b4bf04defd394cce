"""Option values checked by kind (wh40k/options.py)."""

import numpy as np
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.options import FIELD_TYPES, build_checked, check_option_value
from mathhammer.wh40k.profiles import Modifiers, Situation


def test_field_types_read_from_the_dataclasses():
    assert FIELD_TYPES[Situation]["cover"] == "bool"
    assert FIELD_TYPES[Modifiers]["hit_mod"] == "int"


@pytest.mark.parametrize("name, value, type_text, message", [
    ("cover", "false", "bool", "cover='false' must be True or False"),
    ("hit_mod", 1.5, "int", "hit_mod=1.5 must be a whole number"),
    ("hit_mod", True, "int", "hit_mod=True must be a whole number"),
    ("ap_mod", 10_001, "int", "ap_mod=10,001 is too large: at most 10,000 either way"),
])
def test_wrong_kinds_are_refused(name, value, type_text, message):
    with pytest.raises(OptionError, match=message):
        check_option_value(name, value, type_text)


def test_right_kinds_pass():
    check_option_value("cover", np.bool_(True), "bool")
    check_option_value("hit_mod", np.int64(-1), "int")
    check_option_value("fnp", None, "int | None")
    assert build_checked(Situation, {"cover": True}) == Situation(cover=True)
    with pytest.raises(OptionError, match="must be True or False"):
        build_checked(Situation, {"cover": 1})


def test_options_that_change_nothing_keep_the_defaults():
    from mathhammer.wh40k import api

    situation, modifiers, rules, _ = api.build_options({"edition": 11, "hit_mod": 0})
    assert (situation, modifiers, rules) == api.build_options({})[:3]
    assert rules is api.build_options({})[2]   # not rebuilt
    changed = api.build_options({"edition": 10, "hit_mod": 1, "half_range": True})
    assert (changed[2].edition, changed[1].hit_mod, changed[0].half_range) == (10, 1, True)
