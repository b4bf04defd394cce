"""The command tree (main.py): every game's commands, one-line errors, exit status 2."""

import os

import pytest

from mathhammer.cli import build_parser, main


def test_every_games_commands_are_registered():
    parser = build_parser()
    commands = set(next(a for a in parser._actions if a.dest == "command").choices)
    assert {"simulate", "exact", "compare", "run", "roster", "warmachine", "dust",
            "warmup"} <= commands


def test_a_misspelt_option_gets_a_suggestion(capsys):
    assert main(["simulate", 'Bolter: 24" A1 BS3+ S4 AP0 D1', "--target", "MEQ", "--trails",
                 "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("mathhammer: error: unrecognized arguments: --trails 10")
    assert "did you mean '--trials'" in err and len(err.splitlines()) == 1


def test_bad_input_is_one_line_and_exit_2(capsys):
    assert main(["simulate", "Bolter: A1 BS9+", "--target", "MEQ"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mathhammer: error: ") and len(err.strip().splitlines()) == 1


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


def test_a_good_command_exits_0(capsys):
    assert main(["exact", 'Bolter: 24" A1 BS3+ S4 AP0 D1', "--target", "T4 Sv7+ W1",
                 "--json"]) == 0
    out = capsys.readouterr().out
    # hits 3+ (2/3), wounds 4+ (1/2): expected damage 1/3
    assert "0.333" in out


@pytest.mark.parametrize("command", ["warmachine", "dust", "roster"])
def test_game_commands_answer_help(command, capsys):
    with pytest.raises(SystemExit) as stop:
        main([command, "--help"])
    assert stop.value.code == 0 and "usage:" in capsys.readouterr().out


def test_version_comes_from_the_package_metadata(capsys):
    from importlib import metadata

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"mathhammer {metadata.version('mathhammer')}"


def test_the_command_modules_register_the_commands_listed_for_them():
    import argparse
    import importlib

    from mathhammer.main import COMMAND_MODULES

    parser = build_parser()
    assert list(next(a for a in parser._actions if a.dest == "command").choices) == \
        list(COMMAND_MODULES)
    for module_name in dict.fromkeys(COMMAND_MODULES.values()):
        subparsers = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(module_name).register(subparsers)
        assert {c for c, m in COMMAND_MODULES.items() if m == module_name} == \
            set(subparsers.choices)


def test_a_command_line_builds_only_the_command_it_runs():
    parser = build_parser("run")
    assert set(next(a for a in parser._actions if a.dest == "command").choices) == {"run"}


def test_version_prints_the_installed_version(capsys):
    from mathhammer.main import version

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"mathhammer {version()}\n"


def test_the_program_collects_garbage_after_its_start_and_sets_the_rest_aside(monkeypatch):
    # command_line: the collector off while a command starts, back on (with what is alive
    # set aside) once it has run COLLECT_GARBAGE_AFTER seconds, everything set aside at the
    # end; main itself changes nothing of this.
    import gc
    import time

    from mathhammer import main as program
    from mathhammer.core import numba_startup

    monkeypatch.setattr(numba_startup, "_OTHER_PACKAGES", True)   # restored after
    _forget_numba_message_switches(monkeypatch)
    monkeypatch.setattr(program, "COLLECT_GARBAGE_AFTER", 0.05)
    seen = {}

    def command() -> int:
        seen["at_start"] = gc.isenabled()
        deadline = time.monotonic() + 10
        while not gc.isenabled() and time.monotonic() < deadline:
            time.sleep(0.01)
        seen["later"] = gc.isenabled()
        return 0

    monkeypatch.setattr(program, "main", command)
    try:
        assert program.command_line() == 0
        assert seen == {"at_start": False, "later": True}
        assert gc.get_freeze_count() > 0 and gc.isenabled()
        assert numba_startup._OTHER_PACKAGES is False   # cffi and extensions left out
        assert os.environ["NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"] == "1"   # plain text
    finally:
        gc.unfreeze()
        gc.enable()


def test_a_short_program_never_collects_while_it_runs(monkeypatch):
    import gc

    from mathhammer import main as program
    from mathhammer.core import numba_startup

    monkeypatch.setattr(numba_startup, "_OTHER_PACKAGES", True)
    _forget_numba_message_switches(monkeypatch)
    monkeypatch.setenv("NUMBA_COLOR_SCHEME", "dark_bg")   # a user's choice is kept
    monkeypatch.setattr(program, "main", lambda: 0 if not gc.isenabled() else 1)
    try:
        assert program.command_line() == 0
        assert gc.isenabled()   # a caller's process goes on collecting
        assert "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING" not in os.environ
    finally:
        gc.unfreeze()
        gc.enable()


def _forget_numba_message_switches(monkeypatch) -> None:
    """Neither of numba's message switches set, as they were put back after the test."""
    for name in ("NUMBA_COLOR_SCHEME", "NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"):
        monkeypatch.setenv(name, "")   # records the value to restore, then removes it
        monkeypatch.delenv(name)


def test_a_leftover_folder_hiding_the_package_is_named_in_one_line(monkeypatch, capsys,
                                                                     tmp_path):
    # What `pip uninstall` of a version that cached kernels inside the package left behind:
    # a folder with numba's files only, which Python imports as an empty namespace package
    # ahead of a later editable install. The command says which folder and how to fix it,
    # before it runs anything.
    import sys
    import types

    from mathhammer import main as program

    leftover = tmp_path / "site-packages" / "mathhammer"
    (leftover / "__pycache__").mkdir(parents=True)
    (leftover / "__pycache__" / "numba-sources.sha256").write_text("digest")
    namespace = types.ModuleType("mathhammer")
    namespace.__file__ = None
    namespace.__path__ = [str(leftover)]
    monkeypatch.setitem(sys.modules, "mathhammer", namespace)
    monkeypatch.setattr(program, "main", lambda: pytest.fail("ran despite the leftover"))
    assert program.command_line() == 2
    err = capsys.readouterr().err
    assert err == (f"mathhammer: error: the folder {leftover} (left by an earlier installation: "
                   "numba's cache files, which pip does not remove) hides this installation; "
                   f"delete it (rm -r '{leftover}') and run again\n")


def test_the_installed_package_is_not_taken_for_a_leftover():
    from mathhammer import main as program

    assert program._leftover_folder() is None


def test_an_error_naming_a_file_with_a_control_character_escapes_it(tmp_path, capsys):
    bad = tmp_path / "j\x1b[31mred.ros"
    bad.write_text("junk", encoding="utf-8")
    assert main(["roster", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert err == (f"mathhammer: error: {tmp_path}/j\\x1b[31mred.ros: not a roster file: it is "
                   "neither XML (.ros), a zip (.rosz) nor New Recruit JSON\n")
