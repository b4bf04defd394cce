"""'@Name' text (mathhammer.wh40k.bsdata.named)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer.errors import ProfileError
from mathhammer.wh40k.bsdata.named import _FOLDER, is_named, parse_named, using_data


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abc XY-'", min_size=1, max_size=12).filter(str.strip),
       st.one_of(st.none(), st.integers(1, 99999)), st.sampled_from([None, True, False]),
       st.one_of(st.none(), st.sampled_from(["Necrons", "Test Faction"])))
def test_property_named_text_round_trips(name, size, melee, faction):
    text = "@" + name + (f"@{faction}" if faction else "") + \
        (f":{size}" if size is not None else "") + \
        ("" if melee is None else ":melee" if melee else ":ranged")
    assert parse_named(text) == (" ".join(name.split()), size, melee, faction)


@pytest.mark.parametrize("text", ["@", "@ :3", "@Squad:1:2", "@Squad:123456"])
def test_malformed_named_text_refused(text):
    with pytest.raises(ProfileError):
        parse_named(text)


def test_is_named_and_the_scoped_folder():
    assert is_named(" @Squad") and not is_named("Squad: T4 Sv3+ W1") and not is_named(3)
    with using_data("/somewhere"):
        assert _FOLDER.get() == "/somewhere"
    assert _FOLDER.get() is None
