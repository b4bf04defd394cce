"""``core.readonly``: a dict that refuses every change, and still reads, pickles and copies
as a dict."""

import copy
import json
import pickle

import pytest

from mathhammer.core.readonly import ReadOnlyDict


def test_every_change_is_refused():
    d = ReadOnlyDict({"a": 1})
    for change in (lambda: d.__setitem__("b", 2), lambda: d.__delitem__("a"), d.clear,
                   lambda: d.pop("a"), d.popitem, lambda: d.setdefault("b", 2),
                   lambda: d.update(b=2), lambda: d.__ior__({"b": 2})):
        with pytest.raises(TypeError, match="cannot be changed after it is made"):
            change()
    assert d == {"a": 1}


def test_it_reads_pickles_and_copies_as_a_dict():
    d = ReadOnlyDict({"a": [1, 2]})
    assert isinstance(d, dict) and json.dumps(d) == '{"a": [1, 2]}' and {**d, "b": 3}["b"] == 3
    for again in (pickle.loads(pickle.dumps(d)), copy.copy(d), copy.deepcopy(d)):
        assert type(again) is ReadOnlyDict and again == d
