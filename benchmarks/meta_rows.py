"""Issue 36's benchmark rows: the meta matrix of 100 generated lists (100 x 99 list pairings).

    python benchmarks/meta_rows.py             # 100 lists here, then on a local 2-worker Dask
    python benchmarks/meta_rows.py --lists 30  # a smaller event

The lists are written by ``tests/wh40k/roster/event_lists.py`` (4 datasheets each from a pool
of 10, two squad sizes: lists share most datasheets, as an event's do). Measured: wall time of
the whole matrix (exact engine) and its parts (reading the lists, keying the pairings and
making the plans, solving the unique pairings), the time per list pairing and per unit
pairing solved, and the share of unit pairings taken from the cache. The answer is checked,
not the time: the Dask matrix equals the local one bit for bit, and one list pairing equals
``roster A --against B`` (to 1e-12). The projection for 300 lists on 32 workers scales the
bookkeeping with the number of list pairings (it runs here) and the solving with the unique
pairings over the workers; it assumes the pool of datasheets stays the same, which a real
event's does not quite (more distinct loadouts, more unique pairings).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from mathhammer.wh40k.roster import meta as meta_module  # noqa: E402
from mathhammer.wh40k.roster import meta_solve  # noqa: E402
from tests.wh40k.roster.event_lists import event_lists  # noqa: E402


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return time.perf_counter() - start, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lists", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        paths = event_lists(Path(folder), args.lists)
        meta_module.meta(paths[:2], method="exact")   # warm-up: imports, exact tables
        read, found = _timed(meta_module.read_lists, paths)
        settings = meta_module.Settings.build(found.edition, "exact", 1, 1, "best",
                                              meta_module.PHASES, {})
        keyed, (cells, unique) = _timed(meta_module.pairings, found.rosters, settings)
        solving, (answers, solved, _) = _timed(meta_solve.solve, unique, settings,
                                               progress=False)
        planning, _ = _timed(meta_module.best_targets, cells, answers)
        whole, local = _timed(meta_module.meta, paths, method="exact", progress=False)
        dask_time, remote = _dask(paths, args.workers)
    pairs = local.counts["list_pairs"]
    units = local.counts["pairings"]
    rows = [
        ("lists / list pairings / unit pairings", f"{args.lists} / {pairs:,} / {units:,}"),
        ("unit pairings solved / from cache",
         f"{solved:,} / {units - solved:,} ({(units - solved) / units:.2%} from cache)"),
        ("whole matrix, here (1 process)", f"{whole:.2f} s"),
        ("  reading the lists", f"{read:.2f} s"),
        ("  keying the pairings", f"{keyed:.2f} s"),
        ("  solving the unique pairings", f"{solving:.2f} s "
                                          f"({solving / max(solved, 1) * 1e3:.2f} ms each)"),
        ("  plans (best targets)", f"{planning:.2f} s"),
        ("time per list pairing, here", f"{whole / pairs * 1e3:.2f} ms"),
        (f"whole matrix, local Dask ({args.workers} workers, start-up included)",
         f"{dask_time:.2f} s; same matrix bit for bit: {remote}"),
    ]
    scale = (300 * 299) / pairs
    bookkeeping = (keyed + planning) * scale + read * 300 / args.lists
    projected = bookkeeping + solving / 32
    rows.append(("projection, 300 lists on 32 workers (same datasheet pool)",
                 f"{projected:.1f} s ({bookkeeping:.1f} s bookkeeping here + "
                 f"{solving / 32:.2f} s solving)"))
    rows.append(("projection if every pairing were unique (no cache)",
                 f"{units * scale * solving / max(solved, 1) / 32 / 60:.1f} min on 32 "
                 "workers"))
    width = max(len(r[0]) for r in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0


def _dask(paths, workers: int) -> tuple[float, bool]:
    """The matrix on a fresh local cluster (start-up included) and whether it equals the
    local Monte Carlo-free exact matrix bit for bit."""
    import distributed

    start = time.perf_counter()
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                       processes=True, dashboard_address=":0")
    with distributed.Client(cluster) as client:
        remote = meta_module.meta(paths, method="exact", client=client, progress=False)
    cluster.close()
    elapsed = time.perf_counter() - start
    local = meta_module.meta(paths, method="exact", progress=False)
    try:
        pd.testing.assert_frame_equal(local.frame, remote.frame, check_exact=True)
    except AssertionError:
        return elapsed, False
    return elapsed, True


if __name__ == "__main__":
    sys.exit(main())
