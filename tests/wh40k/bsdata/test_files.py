"""Which files of a checkout are read, and the one-line refusals of the data folder."""

from __future__ import annotations

import pytest

from mathhammer.errors import RosterError
from mathhammer.wh40k.bsdata import files
from mathhammer.wh40k.bsdata.example import write_checkout


def test_the_folder_comes_from_the_argument_else_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("MATHHAMMER_DATA", raising=False)
    with pytest.raises(RosterError, match="no BSData checkout given: pass --data DIR"):
        files.data_folder()
    monkeypatch.setenv("MATHHAMMER_DATA", str(tmp_path))
    assert files.data_folder() == tmp_path
    with pytest.raises(RosterError, match="is not a folder"):
        files.data_folder(tmp_path / "missing")
    with pytest.raises(RosterError, match="a path, not int"):
        files.data_folder(5)  # type: ignore[arg-type]


def test_only_data_files_are_listed_and_other_json_is_skipped(tmp_path):
    folder = write_checkout(tmp_path / "data", 11)
    (folder / "notes.txt").write_text("x")
    (folder / ".hidden.cat").write_text("x")
    (folder / "sub.cat").mkdir()
    listed = [f.path.name for f in files.data_files(folder)]
    assert listed == ["Library - Test Armoury.json", "Test 40k.json",
                      "Xenos - Test Faction.json", "package.json"]
    package = next(f for f in files.data_files(folder) if f.path.name == "package.json")
    assert files.read_data_file(package) is None
    roots = [files.read_data_file(f) for f in files.data_files(folder)[:3]]
    assert [r.tag for r in roots] == ["catalogue", "gameSystem", "catalogue"]


def test_too_many_files_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILES", 2)
    for i in range(4):
        (tmp_path / f"f{i}.cat").write_text("<catalogue/>")
    with pytest.raises(RosterError, match="more than 2 data files"):
        files.data_files(tmp_path)
