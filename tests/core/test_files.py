"""Bounded reading of user files: endless devices, pipes, folders and huge files are refused
at once, in one line, by every command that reads a file."""

from __future__ import annotations

import os

import pytest

from mathhammer.core.files import FileTooLarge, NotAFile, read_bounded
from tests.hostile import refused


def test_a_small_file_is_read_whole(tmp_path):
    path = tmp_path / "a.toml"
    path.write_bytes(b"x" * 1000)
    assert read_bounded(path, limit=1000) == b"x" * 1000


def test_one_byte_over_the_limit_is_refused(tmp_path):
    path = tmp_path / "a.toml"
    path.write_bytes(b"x" * 1001)
    with pytest.raises(FileTooLarge, match="larger than"):
        read_bounded(path, limit=1000)


@pytest.fixture
def odd_paths(tmp_path):
    """A named pipe no one writes to (opening it would wait forever), a folder, /dev/zero."""
    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    return {"pipe": (str(pipe), "pipe"), "folder": (str(folder), "a folder"),
            "zero": ("/dev/zero", "device")}


def test_devices_pipes_and_folders_are_not_files(odd_paths):
    for path, word in odd_paths.values():
        with pytest.raises(NotAFile, match=word):
            read_bounded(path)


@pytest.mark.parametrize("kind", ["pipe", "folder", "zero"])
def test_every_command_that_reads_a_file_refuses_them(odd_paths, kind):
    path, word = odd_paths[kind]
    commands = [
        (["compare", 'Gun: 24" A2 BS3+ S4 AP0 D1', "--target", "MEQ", "--targets-file", path],
         "target file"),
        (["run", path], "scenario file"),
        (["roster", path], "roster file"),
        (["dust", "exact", f"{path}#Pounder", "--target", "5x G: INFANTRY2"], "unit file"),
    ]
    for argv, what in commands:
        if kind == "zero" and argv[0] == "dust":
            continue  # not named *.toml: read as a weapon line, and refused as one
        refused(argv, what, word, path, seconds=5)


def test_brackets_in_strings_and_comments_do_not_count_as_nesting():
    from mathhammer.core.files import too_deeply_nested

    assert too_deeply_nested('a = "[[[[[[[[[["\nb = \'{{{{{{{{\'\n# [[[[[[[[[[\n', 3) is None
    assert too_deeply_nested('a = """\n[[[[[[[[\n"""\nb = "\\"[[[[[["\n', 3) is None
    assert too_deeply_nested("x = 1\ny = [[[[1]]]]\n", 3) == 2


@pytest.mark.parametrize("nested", ["a = " + "[" * 100_000 + "]" * 100_000,
                                    "a = " + "{b = " * 5_000 + "1" + "}" * 5_000])
def test_deeply_nested_toml_is_refused_naming_the_line(tmp_path, nested):
    # both overflowed the parsers' recursion (a RecursionError traceback)
    path = tmp_path / "deep.toml"
    path.write_text("# units\n" + nested + "\n")
    for argv in (["run", str(path)],
                 ["compare", 'Gun: 24" A2 BS3+ S4 AP0 D1', "--target", "MEQ",
                  "--targets-file", str(path)],
                 ["dust", "exact", f"{path}#U", "--target", "5x G: INFANTRY2"]):
        refused(argv, "line 2" if argv[0] != "run" else ":2:", "nested more than 50", seconds=5)
