import numpy as np
import pytest
from scipy import stats

from mathhammer.core.jit import kernel
from mathhammer.core.rng import seed_streams
from mathhammer.core.sampling import binomial_cdf_rows, sample_binomial


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
