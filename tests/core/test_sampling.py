import numpy as np
import pytest
from scipy import stats

from mathhammer.core.jit import kernel
from mathhammer.core.rng import draw_bits, seed_streams, uniform
from mathhammer.core.sampling import (DRAW_BITS, GUIDE_BUCKETS, GUIDE_MAX, GUIDE_SHIFT,
                                      binomial_cdf_rows, draw_thresholds, guide_tables,
                                      sample_binomial)


@pytest.mark.parametrize("p", [0.0, 1 / 6, 0.5, 35 / 36, 1.0])
def test_cdf_rows_match_scipy(p):
    rows = binomial_cdf_rows(p, 40)
    for n in (0, 1, 7, 40):
        expected = stats.binom.cdf(np.arange(41), n, p)
        assert np.allclose(rows[n], expected, atol=1e-13)


@kernel
def _draws(state, row, n, out):
    for i in range(out.shape[0]):
        out[i] = sample_binomial(state, row, n)


def test_samples_follow_the_binomial_law():
    rows = binomial_cdf_rows(4 / 9, 30)
    out = np.zeros(200_000, dtype=np.int64)
    _draws(seed_streams(4, 1)[0], rows[30], 30, out)
    counts = np.bincount(out, minlength=31)
    expected = stats.binom.pmf(np.arange(31), 30, 4 / 9) * len(out)
    keep = expected > 5
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    assert stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-4


def _linear_search(u, row, n):
    """The kernels' search from 0, written out: the first k < n with u < row[k], else n."""
    return next((k for k in range(n) if u < row[k]), n)


def _random_rows(rng, count):
    rows = []
    for _ in range(count):
        width = int(rng.integers(1, 40))
        row = np.minimum(np.cumsum(rng.dirichlet(np.full(width, rng.uniform(0.05, 3)))), 1.0)
        if rng.uniform() < 0.1:   # ties and exact slice edges
            row = np.round(row * GUIDE_BUCKETS) / GUIDE_BUCKETS
        rows.append(row)
    return rows


def test_a_guide_is_the_linear_searchs_answer_at_each_slices_start():
    rng = np.random.default_rng(43)
    for row in _random_rows(rng, 300) + [binomial_cdf_rows(p, 25)[n] for p in (1 / 6, 0.5, 35 / 36)
                                         for n in (0, 1, 12, 25)]:
        guide = guide_tables(row)
        assert guide.shape == (GUIDE_BUCKETS,) and guide.dtype == np.uint8
        assert guide.tolist() == [_linear_search(j / GUIDE_BUCKETS, row, len(row))
                                  for j in range(GUIDE_BUCKETS)]


def test_a_guide_past_one_byte_holds_its_largest_start_and_finds_the_same_draws():
    # a row of 300 entries, 260 of them below the last slice's start (255 / 256)
    row = np.concatenate([np.linspace(0.001, 0.996, 260), np.linspace(0.9965, 1.0, 40)])
    guide = guide_tables(row)
    exact = [_linear_search(j / GUIDE_BUCKETS, row, len(row)) for j in range(GUIDE_BUCKETS)]
    assert max(exact) > GUIDE_MAX
    assert guide.tolist() == [min(k, GUIDE_MAX) for k in exact]
    for u in np.concatenate([row, np.nextafter(row, 0), np.linspace(0.99, 1, 400, endpoint=False)]):
        if 0 <= u < 1:
            start = int(guide[int(u * GUIDE_BUCKETS)])
            assert _linear_search(u, row, len(row)) == \
                start + _linear_search(u, row[start:], len(row) - start)


def test_searching_from_the_guide_finds_what_searching_from_zero_finds():
    # every uniform a kernel can draw lies in one slice; near the slice edges and the CDF's
    # own values is where an off-by-one would show
    rng = np.random.default_rng(7)
    for row in _random_rows(rng, 200):
        guide = guide_tables(row)
        near = np.concatenate([row, np.arange(GUIDE_BUCKETS) / GUIDE_BUCKETS])
        draws = np.concatenate([rng.uniform(size=50), near, np.nextafter(near, 0),
                                np.nextafter(near, 1)])
        for u in draws[(draws >= 0) & (draws < 1)]:
            for n in {len(row), len(row) // 2, 0}:
                start = min(int(guide[int(u * GUIDE_BUCKETS)]), n)
                assert _linear_search(u, row, n) == start + _linear_search(u, row[start:], n - start)


def test_rows_that_do_not_rise_are_searched_from_zero():
    rows = np.array([[0.5, 0.2, 1.0], [0.1, np.nan, 1.0], [0.3, 0.6, 1.0]])
    guides = guide_tables(rows[None, None])[0, 0]
    assert not guides[0].any() and not guides[1].any()
    assert guides[2, GUIDE_BUCKETS - 1] == 2 and guides[2].shape == (GUIDE_BUCKETS,)


def test_integer_thresholds_decide_every_draw_as_the_float_cdf_does():
    rng = np.random.default_rng(53)
    scale = 2.0 ** DRAW_BITS
    cdfs = np.concatenate([rng.uniform(size=300), rng.uniform(size=50) ** 40,
                           np.arange(1, 50) / scale, 1 - np.arange(1, 50) / scale,
                           [0.0, 1.0, 5e-324, 1e-300, 0.5, np.nextafter(1.0, 0)]])
    thresholds = draw_thresholds(cdfs)
    for cdf, threshold in zip(cdfs, thresholds.tolist()):
        exact = int(np.floor(cdf * scale))
        for bits in {0, exact - 1, exact, exact + 1, exact + 2, 2 ** DRAW_BITS - 1}:
            if 0 <= bits < 2 ** DRAW_BITS:
                assert (bits >= threshold) == (bits * (1 / scale) >= cdf)
    assert draw_thresholds(np.array([np.nan]))[0] == 2 ** DRAW_BITS   # never passed
    # the guide's slice of the bits is the float draw's slice
    for bits in rng.integers(0, 2 ** DRAW_BITS, 1000).tolist() + [2 ** DRAW_BITS - 1]:
        assert bits >> GUIDE_SHIFT == int(bits * (1 / scale) * GUIDE_BUCKETS)


@kernel
def _uniform_and_bits(state_a, state_b, out):
    for i in range(out.shape[0]):
        out[i, 0] = uniform(state_a)
        out[i, 1] = draw_bits(state_b) * (1.0 / 9007199254740992.0)


def test_draw_bits_are_the_uniforms_bits_from_the_same_step():
    a, b = seed_streams(3, 1)[0], seed_streams(3, 1)[0]
    out = np.zeros((500, 2))
    _uniform_and_bits(a, b, out)
    assert (out[:, 0] == out[:, 1]).all() and (a == b).all()
    assert len(set(out[:, 0].tolist())) == 500
