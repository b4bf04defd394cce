"""Issue 43's benchmark rows: what a user waits for, each beside its previous figure.

    python benchmarks/startup_rows.py            # about 2 minutes on 2 cores
    python benchmarks/startup_rows.py --quick    # one cold run each, fewer warm runs

- **Cold**: each command of :data:`COLD_COMMANDS` in fresh processes with an empty numba
  cache (a new ``NUMBA_CACHE_DIR`` each), the median of three; a cold ``simulate`` answers
  from the exact distribution and starts a background compile, which is waited for before
  the next process starts, so no run meets another's compile.
- **Warm**: ``simulate`` (1M trials, the kernel answering) and ``exact`` of the README's line,
  each in fresh processes with the kernels cached, the median of seven, alternated.

Commands run as a user runs them: the ``mathhammer`` script installed beside this
interpreter when there is one, else ``python -m mathhammer``. Figures are wall time of the
whole process, start to exit; none is asserted. ``PREVIOUS`` holds the figures this
replaces (the last full run of ``benchmarks/run.py`` before issue 43 and the issue's own).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.table import Row, markdown_table, secs  # noqa: E402

README_WEAPON = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'
README_TARGET = "10x Guardsman: T3 Sv5+ W1 [INFANTRY]"
README_SIMULATE = ["simulate", README_WEAPON, "--target", README_TARGET, "--half-range",
                   "--stationary"]

#: (label, arguments, target in seconds or None, environment): the first answers a new user
#: waits for; the run once more without the second process compiling the scenario kernel's
#: helpers (wh40k/scenario/cold_compile.py), alternated with it, for the ratio.
RUN_EXAMPLE = ["run", "examples/shoot_charge_fight.toml"]
COLD_COMMANDS: tuple[tuple[str, list[str], float | None, dict[str, str]], ...] = (
    ("simulate (README command 1)", README_SIMULATE, 3.0, {}),
    ("run examples/shoot_charge_fight.toml", RUN_EXAMPLE, 6.0, {}),
    ("same run, helpers not compiled alongside", RUN_EXAMPLE, None,
     {"MATHHAMMER_COMPILE_ALONGSIDE": "0"}),
    ("exact", ["exact", README_WEAPON, "--target", README_TARGET], None, {}),
)

#: (label, arguments, target in seconds): warm answers, the kernels cached.
WARM_COMMANDS = (
    ("simulate, 1M trials", README_SIMULATE, 0.7),
    ("exact", ["exact", README_WEAPON, "--target", README_TARGET], 0.5),
)

#: The figures these rows replace: (label, kind) -> what was measured before.
PREVIOUS = {
    ("simulate (README command 1)", "cold"): "6.08 s (2026-12-02 run); 7.1-8.0 s idle (issue 43)",
    ("run examples/shoot_charge_fight.toml", "cold"): "7.08 s idle at 2eb94a9 (stop 51's "
                                                      "start); 12.6 s (2026-12-02)",
    ("same run, helpers not compiled alongside", "cold"): "the run's figure at stop 48",
    ("exact", "cold"): "281 ms (2026-12-02); 0.31 s (issue 43)",
    ("simulate, 1M trials", "warm"): "612 ms idle at 2eb94a9 (stop 51's start); 1.13 s "
                                     "(2026-12-02); 1.6 s median at 773adcc",
    ("exact", "warm"): "222 ms (2026-12-02); 0.36-0.43 s at 773adcc",
}


def program() -> list[str]:
    """How a user starts the program: the installed script beside this interpreter, or
    ``python -m mathhammer``."""
    script = Path(sys.executable).with_name("mathhammer")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mathhammer"]


def wall(args: list[str], cache: str | None = None, extra: dict[str, str] | None = None
         ) -> float:
    """Wall seconds of one fresh process running ``args`` (environment plus ``extra``),
    stdout discarded."""
    env = {**os.environ, **(extra or {})}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    start = time.perf_counter()
    subprocess.run([*program(), *args], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    return time.perf_counter() - start


def wait_for_background_compiles(timeout: float = 300.0) -> None:
    """Wait until no background warmup a cold ``simulate`` started is running."""
    deadline = time.monotonic() + timeout
    folder = Path(tempfile.gettempdir())
    while any(folder.glob("mathhammer-warmup-*.running")) and time.monotonic() < deadline:
        time.sleep(0.5)


def cold_rows(runs: int) -> list[Row]:
    every: dict[str, list[float]] = {label: [] for label, *_ in COLD_COMMANDS}
    for _ in range(runs):   # the commands alternated: a slower minute of the host hits all
        for label, args, _target, extra in COLD_COMMANDS:
            with tempfile.TemporaryDirectory() as cache:
                every[label].append(wall(args, cache, extra))
                wait_for_background_compiles()
    rows = []
    for label, _args, target, _extra in COLD_COMMANDS:
        times = every[label]
        median = statistics.median(times)
        verdict = "-" if target is None else (
            f"<= {target:g} s: {'MET' if median <= target else 'NOT MET'}")
        rows.append(Row(label, f"CLI, empty numba cache ({runs}x)", "-", "-", "-",
                        f"{secs(median)} cold", "-", "-", verdict,
                        f"min {secs(min(times))}, max {secs(max(times))}; previous "
                        f"{PREVIOUS[(label, 'cold')]}"))
    return rows


def warm_rows(runs: int) -> list[Row]:
    for _label, args, _target in WARM_COMMANDS:
        wall(args)   # compile or load once: the rows measure cached kernels
    wait_for_background_compiles()
    for _label, args, _target in WARM_COMMANDS:
        wall(args)
    times: dict[str, list[float]] = {label: [] for label, _, _ in WARM_COMMANDS}
    for _ in range(runs):
        for label, args, _target in WARM_COMMANDS:
            times[label].append(wall(args))
    rows = []
    for label, _args, target in WARM_COMMANDS:
        median = statistics.median(times[label])
        rows.append(Row(label, f"CLI, warm cache (median of {runs})", "-", "-", "-",
                        f"{secs(median)} warm", "-", "-",
                        f"<= {target:g} s: {'MET' if median <= target else 'NOT MET'}",
                        f"min {secs(min(times[label]))}; previous "
                        f"{PREVIOUS[(label, 'warm')]}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="one cold run per command, three warm ones")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    print(f"mathhammer start-up benchmarks (issue 43), {time.strftime('%Y-%m-%d %H:%M UTC')}; "
          f"{' '.join(program())}", flush=True)
    rows = cold_rows(1 if args.quick else 3) + warm_rows(3 if args.quick else 7)
    print(markdown_table(rows))
    print(f"Load average (1 min) {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end "
          "(2 cores; figures are only comparable on an idle machine).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
