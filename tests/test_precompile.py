"""``mathhammer warmup`` / ``mh.warmup()`` and the one-line compile notice."""

import json
import os
import pty
import subprocess
import sys
import tempfile

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.core import compile_notice
from mathhammer.errors import OptionError


def test_warmup_runs_the_engines_named_and_reports_each():
    reported = []
    seconds = mh.warmup(["40k", "dust"], report=lambda name, s: reported.append(name))
    assert list(seconds) == reported == ["40k", "dust"]
    assert all(s >= 0 for s in seconds.values())


def test_warmup_refuses_an_unknown_engine_in_one_line():
    with pytest.raises(OptionError, match="unknown engine 'dusty'; did you mean 'dust'"):
        mh.warmup(["dusty"])


@pytest.mark.parametrize("engines", [True, 5, 1.5, {"40k": 1}, b"40k"])
def test_warmup_refuses_what_is_not_a_list_of_names(engines):
    # an int or a bool once ended in "TypeError: 'int' object is not iterable"
    with pytest.raises(OptionError, match=r"^warmup\(engines=.*\): give a list of engine names "
                       r"\(40k, scenario, warmachine, dust\), or None for all$"):
        mh.warmup(engines)


def test_warmup_command_prints_json(capsys):
    assert main(["warmup", "--engine", "40k", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["seconds"]) == ["40k"]


@pytest.fixture
def fresh_notice(monkeypatch):
    monkeypatch.setattr(compile_notice, "_announced", set())
    monkeypatch.setattr(compile_notice, "_depth", 0)
    monkeypatch.setattr(compile_notice, "stderr_is_terminal", lambda: True)


def test_notice_once_per_engine_and_only_for_the_outermost_compile(fresh_notice, capsys):
    compile_notice._on_compile_start("mathhammer.dust.kernels")
    compile_notice._on_compile_start("mathhammer.dust.kernels")   # a helper inside it
    compile_notice._on_compile_end()
    compile_notice._on_compile_end()
    compile_notice._on_compile_start("mathhammer.dust.kernels")   # another kernel, same engine
    compile_notice._on_compile_end()
    compile_notice._on_compile_start("mathhammer.core.rng")       # not an engine entry
    compile_notice._on_compile_end()
    err = capsys.readouterr().err   # one line, rewritten in place (\r) until it is done
    assert err.count("\n") == 1 and err.count(compile_notice.notice("mathhammer.dust.kernels")
                                                + " done in ") == 1


def test_no_notice_when_quiet_or_not_a_terminal(fresh_notice, monkeypatch, capsys):
    from mathhammer.core.progress import quiet

    with quiet():
        compile_notice._on_compile_start("mathhammer.wh40k.monte_carlo.kernels")
        compile_notice._on_compile_end()
    monkeypatch.setattr(compile_notice, "stderr_is_terminal", lambda: False)
    compile_notice._on_compile_start("mathhammer.wh40k.monte_carlo.kernels")
    compile_notice._on_compile_end()
    assert capsys.readouterr().err == ""


def _run_on_a_terminal(argv: list[str], cache: str) -> tuple[str, str]:
    """Run the command line with stderr on a pseudo-terminal; return (stdout, stderr)."""
    leader, follower = pty.openpty()
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    done = subprocess.run([sys.executable, "-m", "mathhammer", *argv], stdout=subprocess.PIPE,
                          stderr=follower, env=env, timeout=600)
    os.close(follower)
    err = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:   # the terminal closed with the process
            break
        if not chunk:
            break
        err += chunk
    os.close(leader)
    assert done.returncode == 0, err
    return done.stdout.decode(), err.decode()


def test_a_cold_compile_is_announced_on_a_terminal_and_never_on_stdout():
    # a new numba cache: the Dust kernels (the quickest to compile) really compile here
    with tempfile.TemporaryDirectory() as cache:
        out, err = _run_on_a_terminal(
            ["dust", "simulate", "Rifle: 3/1", "--target", "2x Soldier: INFANTRY2",
             "--trials", "1000", "--json"], cache)
    assert compile_notice.notice("mathhammer.dust.kernels") in err
    assert "compiling" not in out and json.loads(out)

