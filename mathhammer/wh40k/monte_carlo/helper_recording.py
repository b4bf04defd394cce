"""Recording the 40k Monte Carlo kernel's helpers' argument types for
:mod:`mathhammer.wh40k.monte_carlo.cold_compile` (a maintainer's command, run after changing a
helper's arguments)::

    python -m mathhammer.wh40k.monte_carlo.helper_recording [FILE]

re-runs itself with an empty numba cache, compiles the kernel's two trial loops on two small
questions and writes the helpers they compiled, last called first, to the package's
``helper_signatures.pickle`` (or ``FILE``).
"""

from __future__ import annotations

from pathlib import Path

from mathhammer.wh40k.monte_carlo.cold_compile import HELPER_FILE

_MODULE = "mathhammer.wh40k.monte_carlo.helper_recording"   # also when run as __main__


def record_helpers(path: Path = HELPER_FILE) -> int:
    """Compile the Monte Carlo kernel (this process must have an empty numba cache) and
    write its helpers' signatures to ``path``, last called first; returns how many."""
    from mathhammer.core.helper_compile import write_recorded_helpers
    from mathhammer.wh40k.api import simulate

    def both_trial_loops() -> None:   # run_chain_chunks, then run_chunks (no chain)
        for abilities in ("", " [SUSTAINED HITS 1, LETHAL HITS]"):
            simulate(f'Rifle: 24" A2 BS3+ S4 AP-1 D1{abilities}', "2x Trooper: T4 Sv3+ W2",
                     trials=64, seed=0, progress=False)

    return write_recorded_helpers(both_trial_loops, path, _MODULE.split(".")[0] + ".",
                                  leave_out=frozenset({"run_chunks", "run_chain_chunks"}))


def main() -> None:
    """``python -m mathhammer.wh40k.monte_carlo.helper_recording [FILE]``: record in an empty
    cache, into :data:`HELPER_FILE` or ``FILE``."""
    from mathhammer.core.helper_compile import record_in_empty_cache

    record_in_empty_cache(_MODULE, record_helpers, HELPER_FILE)


if __name__ == "__main__":
    main()
