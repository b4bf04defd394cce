"""Recording the scenario kernel's helpers' argument types for
:mod:`mathhammer.wh40k.scenario.cold_compile` (a maintainer's command, run after changing a
helper's arguments)::

    python -m mathhammer.wh40k.scenario.helper_recording [FILE]

re-runs itself with an empty numba cache, compiles the kernel on a small scenario and writes
the helpers it compiled, last called first, to the package's ``helper_signatures.pickle``
(or ``FILE``).
"""

from __future__ import annotations

from pathlib import Path

from mathhammer.wh40k.scenario.cold_compile import HELPER_FILE

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
    from mathhammer.core.helper_compile import write_recorded_helpers
    from mathhammer.wh40k.scenario.api import run
    from mathhammer.wh40k.scenario.reader import parse_scenario

    scenario = parse_scenario(SMALL_SCENARIO, "<recording>")
    return write_recorded_helpers(lambda: run(scenario, trials=64, seed=0, progress=False),
                                  path, _MODULE.split(".")[0] + ".", TWO_VERSIONS)


def main() -> None:
    """``python -m mathhammer.wh40k.scenario.helper_recording [FILE]``: record in an empty cache,
    into :data:`HELPER_FILE` or ``FILE``."""
    from mathhammer.core.helper_compile import record_in_empty_cache

    record_in_empty_cache(_MODULE, record_helpers, HELPER_FILE)


if __name__ == "__main__":
    main()
