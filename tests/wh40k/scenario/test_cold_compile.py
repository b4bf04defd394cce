"""The scenario kernel's helpers compiled in a second process on a cold cache (issue 43,
wh40k/scenario/cold_compile.py): a kernel whose helpers came from the other process gives
the same bits, and the process starts only on a cold cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mathhammer.core import helper_compile
from mathhammer.core.helper_compile import read_helper_file
from mathhammer.wh40k.scenario import cold_compile
from mathhammer.wh40k.scenario.cold_compile import HELPER_FILE, SWITCH
from tests.cold_caches import cache_with_helpers, run_with

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "shoot_charge_fight.toml"
RUN = ["run", str(EXAMPLE), "--trials", "20000", "--seed", "7", "--json"]


def _entries(path: Path) -> list[tuple[str, str, str, int]]:
    return [(e.module, e.name, str(e.args), e.level) for e in read_helper_file(path)]


#: In a fresh process with the other process's cache: the command line's JSON answer on
#: stdout, the functions this process compiled on stderr (a JSON line).
_RUN_AFTER = """
import io, json, sys, contextlib
from mathhammer.core.helper_compile import record_compiles
from mathhammer.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    seen = record_compiles(lambda: main(sys.argv[1:]))
print(out.getvalue())
print(json.dumps([c.name for c in seen]), file=sys.stderr)
"""


def test_a_kernel_with_helpers_from_the_other_process_gives_the_same_bits(tmp_path, capsys):
    from mathhammer.cli import main

    env = cache_with_helpers(tmp_path, HELPER_FILE)
    answer, compiled = run_with(env, _RUN_AFTER, *RUN)
    helpers = {name for _, name, _, _ in _entries(HELPER_FILE)}
    assert "scenario_trials" in compiled and not helpers & set(compiled)

    assert main(RUN) == 0   # this session's cache: compiled with or without the other process
    assert json.loads(answer) == json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("cached", "switch", "cores", "starts"), [
    (False, None, 2, True), (True, None, 2, False), (False, "0", 2, False),
    (False, None, 1, False), (False, "1", 8, True)])
def test_the_process_starts_only_on_a_cold_cache(monkeypatch, cached, switch, cores, starts):
    started = []
    monkeypatch.setattr("mathhammer.core.helper_compile.cache_index_seen",
                        lambda source, name: cached)
    monkeypatch.setattr("mathhammer.core.helper_compile.compile_alongside",
                        lambda path, unless: started.append((path, unless)) or True)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    monkeypatch.setattr(helper_compile, "_ASKED", set())
    if switch is None:
        monkeypatch.delenv(SWITCH, raising=False)
    else:
        monkeypatch.setenv(SWITCH, switch)
    assert cold_compile.compile_helpers_alongside() is starts
    kernel = "mathhammer.wh40k.scenario.kernels:scenario_trials"
    assert started == ([(HELPER_FILE, kernel)] if starts else [])
    assert cold_compile.compile_helpers_alongside() is False   # once per process
    assert len(started) == (1 if starts else 0)
