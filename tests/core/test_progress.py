"""Progress bars: on a terminal's stderr only, never on stdout or in --json output, off with
--quiet or progress=False, and never changing a result.

The terminal is a pseudo-terminal (``os.openpty``) given to a child process as its stderr;
the child sets :data:`mathhammer.core.progress.DELAY` to 0 so that quick work shows its bar.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import tempfile
import textwrap

import numba
import numpy as np
import pytest

import mathhammer as mh
from mathhammer.core import progress
from mathhammer.errors import OptionError
from mathhammer.wh40k.api import run_monte_carlo
from mathhammer.wh40k.compile import compile_plan
from mathhammer.wh40k.parse import parse_weapon
from mathhammer.wh40k.targets import resolve_target

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")

WEAPON = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'
TARGET = "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"
SIMULATE = ["simulate", WEAPON, "--target", TARGET, "--trials", "20000"]
BAR = "%|"   # tqdm's "NN%|" between the description and the bar

# Runs the command line (or, with --python, a simulate call) with bars shown at once.
CHILD = textwrap.dedent("""
    import sys
    import mathhammer.core.progress as progress
    progress.DELAY = 0
    if sys.argv[1] == "--python":
        import mathhammer as mh
        forced = {"none": None, "false": False, "true": True}[sys.argv[2]]
        r = mh.simulate(sys.argv[3], sys.argv[4], trials=20000, seed=1, progress=forced)
        print(r.mean("damage"))
        sys.exit(0)
    from mathhammer.cli import main
    sys.exit(main(sys.argv[1:]))
""")


def _run(args: list[str], *, terminal: bool) -> tuple[int, str, str]:
    """Run the child; stderr is a pseudo-terminal when ``terminal``, else a pipe."""
    command = [sys.executable, "-c", CHILD, *args]
    if not terminal:
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        return done.returncode, done.stdout, done.stderr
    master, slave = os.openpty()
    sink = tempfile.TemporaryFile()   # a file, not a pipe: a long stdout cannot block the child
    child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=sink, stderr=slave)
    os.close(slave)
    err = b""
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                err += chunk
            elif child.poll() is not None:
                break
        child.wait(timeout=600)
        sink.seek(0)
        out = sink.read().decode()
    finally:
        os.close(master)
        sink.close()
    return child.returncode, out, err.decode(errors="replace")


def test_bar_on_a_terminal_stderr_and_json_stdout_stays_clean():
    code, out, err = _run([*SIMULATE, "--json"], terminal=True)
    assert code == 0, err
    assert "simulate" in err and BAR in err
    assert BAR not in out and "\r" not in out
    assert json.loads(out)["trials"] == 20000


def test_no_bar_when_stderr_is_piped():
    code, out, err = _run([*SIMULATE, "--json"], terminal=False)
    assert code == 0, err
    assert err == ""
    assert json.loads(out)["trials"] == 20000


def test_quiet_silences_the_bar_on_a_terminal():
    code, out, err = _run([*SIMULATE, "--quiet"], terminal=True)
    assert code == 0, err
    assert BAR not in err and err.strip() == ""
    assert "Intercessor" in out


@pytest.mark.parametrize("forced, shown", [("none", True), ("false", False), ("true", True)])
def test_python_progress_argument_on_a_terminal(forced, shown):
    code, out, err = _run(["--python", forced, WEAPON, TARGET], terminal=True)
    assert code == 0, err
    assert (BAR in err) is shown
    assert BAR not in out


def test_progress_true_forces_a_bar_and_false_silences_it(monkeypatch, capsys):
    monkeypatch.setattr(progress, "DELAY", 0)
    mh.simulate(WEAPON, TARGET, trials=5000, progress=True)
    assert BAR in capsys.readouterr().err
    mh.simulate(WEAPON, TARGET, trials=5000, progress=False)
    mh.simulate(WEAPON, TARGET, trials=5000)   # captured stderr is no terminal
    assert capsys.readouterr().err == ""


def test_results_bit_identical_with_and_without_bar_on_any_thread_count(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0)
    monkeypatch.setattr(progress, "POLL", 0.001)   # read the histograms while chunks run
    plan = compile_plan([parse_weapon("5x " + WEAPON)], resolve_target("10x " + TARGET))
    before = numba.get_num_threads()
    runs = []
    try:
        for threads in sorted({1, max(2, before)}):
            numba.set_num_threads(threads)
            for shown in (False, True):
                runs.append(run_monte_carlo(plan, 60_000, seed=42, progress=shown))
    finally:
        numba.set_num_threads(before)
    for other in runs[1:]:
        for name, counts in runs[0].histograms.items():
            assert np.array_equal(counts, other.histograms[name])
        assert runs[0].events == other.events


def test_nested_work_shows_one_bar(monkeypatch):
    monkeypatch.setattr(progress, "_stderr_is_terminal", lambda: True)
    assert progress.wanted(None)
    with progress.bar(2, "outer", progress=False):
        assert not progress.wanted(None)       # inside other work: no bar of its own
        assert progress.wanted(True)           # unless forced
    with progress.quiet():
        assert not progress.wanted(None)
    assert progress.wanted(None)


def test_watch_reraises_the_work_error():
    def fail():
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        progress.watch(fail, lambda: 0, 10, "work", progress=True)


@pytest.mark.parametrize("bad", ["yes", 1, 0.5])
def test_bad_progress_is_a_one_line_refusal(bad):
    with pytest.raises(OptionError, match="progress="):
        mh.simulate(WEAPON, TARGET, trials=100, progress=bad)


def test_compare_grid_bar_counts_cells_and_keeps_the_frame(monkeypatch, capsys):
    monkeypatch.setattr(progress, "DELAY", 0)
    quiet = mh.compare([WEAPON, "Bolter: A2 BS3+ S4 AP0 D1"], ["MEQ", "GEQ"], method="monte-carlo", trials=2000,
                       progress=False)
    assert capsys.readouterr().err == ""
    shown = mh.compare([WEAPON, "Bolter: A2 BS3+ S4 AP0 D1"], ["MEQ", "GEQ"], method="monte-carlo", trials=2000,
                       progress=True)
    err = capsys.readouterr().err
    assert "compare" in err and "/4 " in err and "simulate" not in err   # one bar, per cell
    assert quiet.equals(shown)


def test_compare_command_on_a_terminal_shows_a_bar_and_quiet_silences_it():
    args = ["compare", WEAPON, "--target", "MEQ", "--target", "GEQ", "--trials", "2000"]
    code, out, err = _run([*args, "--json"], terminal=True)
    assert code == 0, err
    assert "compare" in err and BAR in err
    assert json.loads(out)["rows"]
    code, out, err = _run([*args, "--quiet"], terminal=True)
    assert code == 0, err
    assert err.strip() == ""


def test_scenario_run_bar_keeps_the_histograms(monkeypatch, capsys):
    from pathlib import Path

    monkeypatch.setattr(progress, "DELAY", 0)
    monkeypatch.setattr(progress, "POLL", 0.001)
    path = Path(__file__).parents[2] / "examples" / "shoot_charge_fight.toml"
    quiet = mh.run(path, trials=20_000, seed=3, progress=False)
    assert capsys.readouterr().err == ""
    shown = mh.run(path, trials=20_000, seed=3, progress=True)
    assert "run" in capsys.readouterr().err
    for name in ("models", "wounds", "groups", "sides"):
        assert np.array_equal(getattr(quiet, name), getattr(shown, name))


def test_roster_against_archetypes_shows_one_bar_per_cell(monkeypatch, capsys):
    from pathlib import Path

    monkeypatch.setattr(progress, "DELAY", 0)
    data = Path(mh.__file__).parent / "wh40k" / "roster" / "data"
    army = mh.load_roster(sorted(data.glob("*.ros*"))[0])
    quiet = army.compare(["MEQ"], trials=1000, phases=["shooting"], progress=False)
    assert capsys.readouterr().err == ""
    shown = army.compare(["MEQ"], trials=1000, phases=["shooting"], progress=True)
    err = capsys.readouterr().err
    assert "roster" in err and "compare:" not in err and "simulate" not in err
    assert quiet.equals(shown)


def _same(a, b) -> bool:
    return json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)


def test_warmachine_and_dust_bars_keep_their_results(monkeypatch, capsys):
    from mathhammer import dust, warmachine
    from mathhammer.dust import load_unit
    from mathhammer.warmachine.policies import compare_focus

    monkeypatch.setattr(progress, "DELAY", 0)
    monkeypatch.setattr(progress, "POLL", 0.001)
    runs = {
        "warmachine simulate": lambda shown: warmachine.simulate(
            "2x Battle hammer: MAT7 POW16", "Heavy warjack: DEF12 ARM19 BOXES30",
            trials=20_000, progress=shown),
        "dust simulate": lambda shown: dust.simulate(
            "4x Shotgun: 3/1", "5x Laser Grenadier: INFANTRY2", trials=20_000,
            progress=shown),
        "dust exchange": lambda shown: dust.exchange(
            load_unit("seed.toml", "Pounder"), load_unit("seed.toml", "Assault Rangers"),
            rounds=2, method="monte-carlo", trials=20_000, progress=shown),
    }
    for name, run in runs.items():
        quiet = run(False)
        assert capsys.readouterr().err == "", name
        shown = run(True)
        assert BAR in capsys.readouterr().err, name
        assert _same(quiet, shown), name
    tables = [compare_focus("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", points=1,
                            method="simulate", trials=2000, progress=shown)
              for shown in (False, True)]
    assert "focus policies" in capsys.readouterr().err
    assert tables[0].equals(tables[1])
    attack = {"weapons": "4x Shotgun: 3/1", "target": "5x Laser Grenadier: INFANTRY2"}
    variants = {"normal": attack, "sustained": {**attack, "sustained": True}}
    frames = [dust.compare(variants, method="monte-carlo", trials=2000, progress=shown)
              for shown in (False, True)]
    assert "compare" in capsys.readouterr().err
    assert frames[0].equals(frames[1])


def test_a_jupyter_kernel_counts_as_a_place_for_bars(monkeypatch):
    import types

    class Shell:
        config = {"IPKernelApp": {}}

    fake = types.SimpleNamespace(get_ipython=lambda: Shell())
    monkeypatch.setitem(sys.modules, "IPython", fake)
    monkeypatch.setattr(progress, "_stderr_is_terminal", lambda: False)
    assert progress.in_notebook() and progress.wanted(None)
    Shell.config = {}                                   # a terminal IPython: no notebook
    assert not progress.in_notebook() and not progress.wanted(None)
