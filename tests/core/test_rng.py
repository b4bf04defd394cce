import numpy as np
from scipy import stats

from mathhammer.core import rng
from mathhammer.core.jit import kernel


@kernel
def _faces(state, n, out):
    for i in range(n):
        out[i] = rng.d6(state)


def _roll(seed, n):
    state = rng.seed_streams(seed, 1)[0]
    out = np.zeros(n, dtype=np.int64)
    _faces(state, n, out)
    return out


def test_d6_faces_are_uniform():
    faces = _roll(11, 600_000)
    counts = np.bincount(faces, minlength=7)[1:]
    assert counts.sum() == 600_000
    assert stats.chisquare(counts).pvalue > 1e-4


def test_consecutive_faces_are_independent():
    faces = _roll(12, 360_000)
    pairs = (faces[0::2] - 1) * 6 + (faces[1::2] - 1)
    assert stats.chisquare(np.bincount(pairs, minlength=36)).pvalue > 1e-4


def test_same_seed_same_faces_and_streams_differ():
    assert np.array_equal(_roll(5, 1000), _roll(5, 1000))
    assert not np.array_equal(_roll(5, 1000), _roll(6, 1000))
    streams = rng.seed_streams(5, 4)
    assert len({tuple(s[:4]) for s in streams}) == 4
