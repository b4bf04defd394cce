"""The recorded helper signatures (wh40k/scenario/helper_recording.py) are what a recording
gives today, in an empty cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mathhammer.core.helper_compile import read_helper_file
from mathhammer.wh40k.scenario.cold_compile import HELPER_FILE


def _entries(path: Path) -> list[tuple[str, str, str, int]]:
    return [(e.module, e.name, str(e.args), e.level) for e in read_helper_file(path)]


def test_the_shipped_signatures_are_the_ones_the_kernel_compiles_today(tmp_path):
    # recorded again in an empty cache, as the file was: a helper whose arguments changed
    # since would be compiled for nothing (record again: python -m <the module>)
    fresh = tmp_path / "helpers.pickle"
    done = subprocess.run([sys.executable, "-m", "mathhammer.wh40k.scenario.helper_recording",
                           str(fresh)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert _entries(fresh) == _entries(HELPER_FILE)
    names = [name for _, name, _, _ in _entries(HELPER_FILE)]
    # last called first: the checkpoint after an activation ... its first batch's attack dice
    assert names[0] == "_record_checkpoint" and names[-1] == "_attack_dice"
    assert len(set(names)) == len(names) and "_resolve_batch" not in names   # one version
