"""``mathhammer meta``: outputs, skipped files, refusals in one line."""

import json

import pytest

from mathhammer.cli import main

from .event_lists import event_lists


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    where = tmp_path_factory.mktemp("event")
    event_lists(where, 3, units=2, seed=11)
    (where / "notes.ros").write_text("not a roster", encoding="utf-8")
    return where


def test_json_names_the_skipped_file_and_counts_the_cache(folder, capsys):
    assert main(["meta", str(folder), "--json", "--exact", "--phase", "shooting"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert [s["path"].rsplit("/", 1)[-1] for s in document["skipped"]] == ["notes.ros"]
    assert "skipped" in err and "notes.ros" in err
    assert document["counts"]["lists"] == 3 and document["phases"] == ["shooting"]
    assert document["plan_rule"].startswith("each unit at its own best target")


def test_text_team_table_csv_and_plot(folder, tmp_path, capsys):
    csv, png = tmp_path / "m.csv", tmp_path / "m.png"
    code = main(["meta", str(folder), "--team", "list_000", "--against-team",
                 "list_001,list_002", "--csv", str(csv), "--plot", str(png),
                 "--metric", "points_destroyed", "--phase", "fight"])
    assert code == 0
    out = capsys.readouterr().out
    assert "Team pairing table (points_destroyed)" in out and "Plan:" in out
    assert csv.read_text().startswith("list,opponent,metric,value")
    assert png.stat().st_size > 1000


@pytest.mark.parametrize("extra, message", [
    (["--team", "list_000"], "--team and --against-team go together"),
    (["--team", "nope", "--against-team", "list_001"], "no list 'nope'"),
    (["--scheduler", "local:0"], "write local:N"),
    (["--scheduler", "nowhere"], "is not a scheduler address"),
    (["--phase", "shooting,fights"], "phase 'fights'"),
])
def test_bad_input_is_one_line(folder, extra, message, capsys):
    assert main(["meta", str(folder), "--exact", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert message in err[-1] and err[-1].startswith("mathhammer: error:")


def test_a_folder_without_two_lists_is_one_line(tmp_path, capsys):
    assert main(["meta", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "found 0" in err
    (tmp_path / "notes.ros").write_text("not a roster", encoding="utf-8")
    assert main(["meta", str(tmp_path), "--json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "notes.ros" in err
