"""Where mathhammer's Monte Carlo time goes: a diagnostic, not part of the ratio table.

    python benchmarks/breakdown.py [--trials N]

Prints, for the fixed scenarios:

- start-up pieces measured in a fresh process: importing ``mathhammer.wh40k.api``, the first
  kernel call (loading numba's on-disk cache and initialising its CPU target), a second call;
- fixed costs per ``simulate()`` call: parse + compile, seeding 64 streams, a 64-trial kernel
  call (thread launch), the rest of ``simulate(trials=1)`` (results, pandas);
- per trial: kernel ns/trial and ns per D6 rolled, against two floors rolling the same number
  of D6: the engine's own ``mathhammer.core.rng.d6`` (state kept in a ``uint64[6]`` array),
  a verbatim copy of it compiled with ``inline="always"``, and the fastest local-variable
  generator of :mod:`benchmarks.baselines.dice_floor`. The gap
  between "engine" and "floor with engine d6" is game logic; between the two floors, the
  generator and its state handling.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numba  # noqa: E402
import numpy as np  # noqa: E402

import mathhammer as mh  # noqa: E402
from benchmarks.baselines import dice_floor  # noqa: E402
from benchmarks.scenarios import SCENARIOS  # noqa: E402
from mathhammer.core.rng import d6, seed_streams  # noqa: E402
from mathhammer.wh40k.api import GAME, run_monte_carlo  # noqa: E402


@numba.njit(parallel=True, cache=True)
def _floor_engine_d6(streams, trials_per_chunk, step, hist):
    """The floor, rolling with the engine's ``d6(state)`` on its ``uint64[6]`` stream."""
    for c in numba.prange(streams.shape[0]):
        state = streams[c]
        acc = 0
        for _ in range(trials_per_chunk[c]):
            acc += step
            n = acc >> 20
            acc -= n << 20
            total = 0
            for _ in range(n):
                total += d6(state)
            hist[c, total] += 1


_LIMIT = np.uint64(140 * 6**22)


@numba.njit(inline="always", cache=True)
def _d6_inlined(state):
    """A verbatim copy of ``mathhammer.core.rng.d6`` and its ``next_u64``, compiled with
    ``inline="always"`` (numba IR inlining), to measure what the out-of-line call costs."""
    if state[5] == 0:
        x = _next_u64_inlined(state)
        while x >= _LIMIT:
            x = _next_u64_inlined(state)
        state[4] = x
        state[5] = np.uint64(22)
    buffer = state[4]
    face = buffer % np.uint64(6)
    state[4] = buffer // np.uint64(6)
    state[5] = state[5] - np.uint64(1)
    return np.int64(face) + 1


@numba.njit(inline="always", cache=True)
def _next_u64_inlined(state):
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return result


@numba.njit(parallel=True, cache=True)
def _floor_inlined_d6(streams, trials_per_chunk, step, hist):
    """The same floor with the inlined copy of the engine's d6."""
    for c in numba.prange(streams.shape[0]):
        state = streams[c]
        acc = 0
        for _ in range(trials_per_chunk[c]):
            acc += step
            n = acc >> 20
            acc -= n << 20
            total = 0
            for _ in range(n):
                total += _d6_inlined(state)
            hist[c, total] += 1


def floor_engine_d6(dice_per_trial: float, trials: int, seed: int = 1,
                    inlined: bool = False) -> np.ndarray:
    streams = seed_streams(seed, 64)
    per_chunk = np.full(64, trials // 64, dtype=np.int64)
    per_chunk[: trials % 64] += 1
    step = int(round(dice_per_trial * (1 << 20)))
    hist = np.zeros((64, 6 * (step // (1 << 20) + 1) + 1), dtype=np.int64)
    (_floor_inlined_d6 if inlined else _floor_engine_d6)(streams, per_chunk, step, hist)
    return hist.sum(axis=0)


def best_of(fn, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


STARTUP = textwrap.dedent("""
    import time; t0 = time.perf_counter()
    import mathhammer.wh40k.api as api; t1 = time.perf_counter()
    plan = api.GAME.compile(['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'],
                            '10x Guardsman: T3 Sv5+ W1').plan
    t2 = time.perf_counter()
    api.run_monte_carlo(plan, 1, 1); t3 = time.perf_counter()
    api.run_monte_carlo(plan, 1, 1); t4 = time.perf_counter()
    print(t1 - t0, t2 - t1, t3 - t2, t4 - t3)
""")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    n = args.trials

    runs = [subprocess.run([sys.executable, "-c", STARTUP], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout.split() for _ in range(3)]
    imp, prep, first, second = (statistics.median(float(r[i]) for r in runs) for i in range(4))
    print("start-up, fresh process (median of 3):")
    print(f"  import mathhammer.wh40k.api {imp * 1e3:8.1f} ms")
    print(f"  parse + compile plan        {prep * 1e3:8.1f} ms")
    print(f"  first kernel call (cache)   {first * 1e3:8.1f} ms   "
          "<- numba cache load + target init")
    print(f"  second kernel call          {second * 1e3:8.1f} ms")

    s0 = SCENARIOS[0]
    w, t = list(s0.weapons), s0.target
    mh.simulate(w, t, trials=1000, seed=1)
    plan = GAME.compile(w, t).plan
    print("\nfixed costs per simulate() call (rifle squad, median of 5):")
    compile_time = best_of(lambda: GAME.compile(w, t).plan)
    print(f"  parse + compile             {compile_time * 1e3:8.2f} ms")
    print(f"  seed_streams(seed, 64)      {best_of(lambda: seed_streams(1, 64)) * 1e3:8.2f} ms")
    small_run = best_of(lambda: run_monte_carlo(plan, 64, 1))
    print(f"  run_monte_carlo, 64 trials  {small_run * 1e3:8.2f} ms")
    one_trial = best_of(lambda: mh.simulate(w, t, trials=1))
    print(f"  simulate(trials=1)          {one_trial * 1e3:8.2f} ms")

    print(f"\nper trial ({n:,} trials, kernel only via run_monte_carlo, "
          f"{numba.get_num_threads()} threads, median of 3):")
    print(f"  {'scenario':36s} {'D6/trial':>8s} {'engine ns/trial':>16s} {'ns/D6':>7s} "
          f"{'floor(engine d6) ns/D6':>23s} {'same, d6 inlined':>17s} "
          f"{'floor(fastest) ns/D6':>21s}")
    floor_engine_d6(1.0, 1000)
    floor_engine_d6(1.0, 1000, inlined=True)
    for s in SCENARIOS:
        plan = GAME.compile(list(s.weapons), s.target, **s.options).plan
        run_monte_carlo(plan, 1000, 1)
        dice = s.d6_per_trial()
        t_engine = best_of(lambda: run_monte_carlo(plan, n, 1), 3)
        t_fe = best_of(lambda: floor_engine_d6(dice, n), 3)
        t_fi = best_of(lambda: floor_engine_d6(dice, n, inlined=True), 3)
        dice_floor.roll_floor(dice, 1000, 1, "mulshift32x4")
        t_ff = min(best_of(lambda v=v: dice_floor.roll_floor(dice, n, 1, v), 3)
                   for v in dice_floor.VARIANTS)
        per_d6 = 1e9 / (n * dice)
        print(f"  {s.title:36s} {dice:8.1f} {t_engine / n * 1e9:16.1f} "
              f"{t_engine * per_d6:7.2f} {t_fe * per_d6:23.2f} {t_fi * per_d6:17.2f} "
              f"{t_ff * per_d6:21.2f}")
    print("\n(ns are wall time on all threads: multiply by the thread count for CPU ns)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
