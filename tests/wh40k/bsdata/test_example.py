"""The invented example checkout is well-formed in both editions' schemas."""

from __future__ import annotations

import json

import pytest

from mathhammer.wh40k.bsdata.example import write_checkout
from mathhammer.wh40k.roster.read import tree_from_bytes
from mathhammer.wh40k.bsdata.files import CATALOGUE


@pytest.mark.parametrize("edition, zipped, suffixes", [
    (11, False, [".json"] * 4), (10, False, [".cat", ".gst", ".cat", ".json"]),
    (10, True, [".catz", ".gstz", ".catz", ".json"])])
def test_the_files_written(tmp_path, edition, zipped, suffixes):
    folder = write_checkout(tmp_path, edition, zipped=zipped)
    paths = sorted(folder.iterdir())
    assert [p.suffix for p in paths] == suffixes
    for path in paths[:3]:
        root = tree_from_bytes(path.read_bytes(), path, CATALOGUE)
        assert root.tag in ("catalogue", "gameSystem")
    assert json.loads((folder / "package.json").read_text()) == {"name": "not bsdata"}
