"""Recording the scenario kernel's helpers' argument types for
:mod:`mathhammer.wh40k.scenario.cold_compile` (a maintainer's command, run after changing a
helper's arguments)::

    python -m mathhammer.wh40k.scenario.helper_recording [FILE]

re-runs itself with an empty numba cache, compiles the kernel on a small scenario and writes
the helpers it compiled, last called first, to the package's ``helper_signatures.pickle``
(or ``FILE``).
"""

from __future__ import annotations

import os
from pathlib import Path

from mathhammer.wh40k.scenario.cold_compile import HELPER_FILE, SWITCH

_MODULE = "mathhammer.wh40k.scenario.helper_recording"   # also when run as __main__

#: Helpers compiled in two versions (with and without the rare rules' code), left out: two
#: processes saving two versions of one function to numba's cache at the same moment could
#: leave its index naming one version and its data file holding the other. Every helper
#: recorded has one version (tests/core/test_jit.py), so both processes write the same.
#: ``_resolve_batch`` is also the first helper the kernel needs: the other process would
#: reach it last.
TWO_VERSIONS = frozenset({"_resolve_batch"})

#: A small scenario without the rare rules (the common kernel version): a shooting and a
#: fight activation, so that every helper of that version compiles for it (the recording
#: here, and ``mathhammer warmup``).
SMALL_SCENARIO = """
[units.Squad]
models = [{ name = "Trooper", count = 2, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Rifle: 24\\" A2 BS3+ S4 AP-1 D1", "Blade: Melee A2 WS3+ S4 AP0 D1"] }]
[units.Mob]
models = [{ name = "Brute", count = 2, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Club: Melee A2 WS3+ S4 AP0 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Mob"
[[activations]]
phase = "fight"
attacker = "Mob"
target = "Squad"
"""


def record_helpers(path: Path = HELPER_FILE) -> int:
    """Compile the scenario kernel (this process must have an empty numba cache) and write
    its helpers' signatures to ``path``, last called first; returns how many."""
    from mathhammer.core.helper_compile import record_compiles, write_helper_file
    from mathhammer.wh40k.scenario.api import run
    from mathhammer.wh40k.scenario.reader import parse_scenario

    scenario = parse_scenario(SMALL_SCENARIO, "<recording>")
    compiles = record_compiles(lambda: run(scenario, trials=64, seed=0, progress=False))
    package = _MODULE.split(".")[0] + "."
    # the kernel itself (first) is what this process compiles; numba's own overloads
    # (functions local to another) compile with whatever calls them
    helpers = [c for c in compiles[1:] if c.module.startswith(package)
               and "<locals>" not in c.name and c.name not in TWO_VERSIONS]
    write_helper_file(helpers[::-1], path)
    return len(helpers)


def main() -> None:
    """``python -m mathhammer.wh40k.scenario.helper_recording [FILE]``: record in an empty cache,
    into :data:`HELPER_FILE` or ``FILE``."""
    import subprocess
    import sys
    import tempfile

    if os.environ.get("MATHHAMMER_RECORDING_HELPERS") == "1":
        path = Path(sys.argv[1]) if len(sys.argv) > 1 else HELPER_FILE
        print(f"{record_helpers(path)} helper signatures written to {path}")
        return
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "MATHHAMMER_RECORDING_HELPERS": "1",
               SWITCH: "0"}
        raise SystemExit(subprocess.call([sys.executable, "-m", _MODULE, *sys.argv[1:]],
                                         env=env))


if __name__ == "__main__":
    main()
