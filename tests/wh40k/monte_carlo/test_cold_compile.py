"""The 40k Monte Carlo kernel's helpers compiled in a second process on a cold cache (issue
43, wh40k/monte_carlo/cold_compile.py): a helper both kernels record has one signature, a
kernel whose helpers came from the other process gives the same bits, and a run asks for the
process."""

from __future__ import annotations

import json
from pathlib import Path

from mathhammer.core import helper_compile
from mathhammer.core.helper_compile import KernelHelpers, read_helper_file
from mathhammer.wh40k.monte_carlo.cold_compile import HELPER_FILE
from mathhammer.wh40k.scenario.cold_compile import HELPER_FILE as SCENARIO_HELPER_FILE
from tests.cold_caches import cache_with_helpers, run_with

WEAPON = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'
TARGET = "10x Guardsman: T3 Sv5+ W1 [INFANTRY]"


def _entries(path: Path) -> list[tuple[str, str, str, int]]:
    return [(e.module, e.name, str(e.args), e.level) for e in read_helper_file(path)]


def test_a_helper_both_kernels_record_has_one_signature():
    """Two processes may compile both kernels' helpers at once (a background compile and a
    first `run`): a function with two versions could then be written to numba's cache as one
    version's index and the other's code. Every shared helper has one version."""
    ours = {(module, name): args for module, name, args, _ in _entries(HELPER_FILE)}
    theirs = {(module, name): args for module, name, args, _ in _entries(SCENARIO_HELPER_FILE)}
    shared = set(ours) & set(theirs)
    assert len(shared) >= 7   # the stream's and the dice steps' helpers
    assert {"d6", "next_u64", "roll_classified", "roll_dice"} <= {
        name for _, name in shared}
    assert {key: ours[key] for key in shared} == {key: theirs[key] for key in shared}


#: In a fresh process with the other process's cache: the histograms of a simulation on
#: stdout, the functions this process compiled on stderr (a JSON line).
_SIMULATE_AFTER = """
import json, sys
from mathhammer.core.helper_compile import record_compiles
from mathhammer.wh40k.api import simulate
result = []
seen = record_compiles(lambda: result.append(simulate(sys.argv[1], sys.argv[2], trials=20000,
                                                      seed=7, progress=False)))
print(json.dumps([result[0].pmf(name).tolist() for name in result[0].outcomes]))
print(json.dumps([c.name for c in seen]), file=sys.stderr)
"""


def test_a_kernel_with_helpers_from_the_other_process_gives_the_same_bits(tmp_path):
    from mathhammer.wh40k.api import simulate

    env = cache_with_helpers(tmp_path, HELPER_FILE)
    answer, compiled = run_with(env, _SIMULATE_AFTER, WEAPON, TARGET)
    helpers = {name for _, name, _, _ in _entries(HELPER_FILE)}
    assert "run_chain_chunks" in compiled and not helpers & set(compiled)   # a chain plan

    here = simulate(WEAPON, TARGET, trials=20000, seed=7, progress=False)   # this session's
    assert json.loads(answer) == [here.pmf(name).tolist() for name in here.outcomes]


def test_a_simulation_asks_for_the_process_once(monkeypatch):
    from mathhammer.wh40k.api import simulate

    asked = []
    monkeypatch.setattr(helper_compile, "_ASKED", set())
    monkeypatch.setattr(KernelHelpers, "start_alongside",
                        lambda self: asked.append(self.kernel) or False)
    simulate(WEAPON, TARGET, trials=1000, seed=1, progress=False)
    simulate(WEAPON, TARGET, trials=1000, seed=1, progress=False)
    assert asked == ["mathhammer.wh40k.monte_carlo.kernels:run_chunks"]
