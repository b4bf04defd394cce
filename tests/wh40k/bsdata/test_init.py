"""The bsdata package hands its public names on, loading the index on first use."""

import pytest

import mathhammer.wh40k.bsdata as bsdata
from mathhammer.wh40k.bsdata import index


def test_public_names():
    assert bsdata.datasheets is index.datasheets and bsdata.Datasheet is index.Datasheet
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        bsdata.nothing  # noqa: B018
