"""The recorded helper signatures of the 40k Monte Carlo kernel
(wh40k/monte_carlo/helper_recording.py) are what a recording gives today, in an empty
cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mathhammer.core.helper_compile import read_helper_file
from mathhammer.wh40k.monte_carlo.cold_compile import HELPER_FILE


def _entries(path: Path) -> list[tuple[str, str, str, int]]:
    return [(e.module, e.name, str(e.args), e.level) for e in read_helper_file(path)]


def test_the_shipped_signatures_are_the_ones_the_kernel_compiles_today(tmp_path):
    fresh = tmp_path / "helpers.pickle"
    done = subprocess.run([sys.executable, "-m",
                           "mathhammer.wh40k.monte_carlo.helper_recording", str(fresh)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _entries(fresh) == _entries(HELPER_FILE)
    names = [name for _, name, _, _ in _entries(HELPER_FILE)]
    # last called first: the chain loop's start (the first call of all) last; then the whole
    # loop's helpers the chain loop does not call, its hit and wound rolls among them
    assert names[-1] == "_start_chunk" and "_store_chunk" in names
    assert names.index("roll_classified") < names.index("draw_guided")
    assert len(set(names)) == len(names)
    assert "run_chunks" not in names and "run_chain_chunks" not in names
