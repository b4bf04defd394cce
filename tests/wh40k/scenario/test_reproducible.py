"""The same seed gives bit-identical scenario histograms whatever the thread count."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np

import mathhammer as mh

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "shoot_charge_fight.toml"


def test_one_thread_and_several_give_the_same_bits():
    before = numba.get_num_threads()
    results = []
    try:
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}) + [1]:
            numba.set_num_threads(threads)
            r = mh.run(EXAMPLE, trials=20_000, seed=5)
            results.append([r.models, r.wounds, r.groups, r.sides])
    finally:
        numba.set_num_threads(before)
    for other in results[1:]:
        for a, b in zip(results[0], other):
            assert np.array_equal(a, b)
    assert results[0][0].sum() > 0
