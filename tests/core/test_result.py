import json

import numpy as np
import pytest

from mathhammer.core.result import EXACT, MONTE_CARLO, Distribution, Result
from mathhammer.errors import MathhammerError


def _mc():
    counts = np.array([10, 30, 40, 20])
    return Result(MONTE_CARLO, {"damage": Distribution.from_counts(counts)},
                  {"unit_destroyed": 0.2}, trials=100, seed=3)


def test_distribution_statistics_by_hand():
    dist = Distribution.from_counts(np.array([10, 30, 40, 20]))
    assert dist.mean == pytest.approx(0 * .1 + 1 * .3 + 2 * .4 + 3 * .2)
    var = sum(p * (k - 1.7) ** 2 for k, p in enumerate([.1, .3, .4, .2]))
    assert dist.variance == pytest.approx(var)
    assert dist.stderr == pytest.approx(np.sqrt(var / 100))
    assert list(dist.at_least()) == pytest.approx([1.0, .9, .6, .2])
    assert dist.quantile(0.5) == 2 and dist.quantile(0.05) == 0 and dist.quantile(1.0) == 3


def test_exact_distribution_has_no_stderr_and_trims_zeros():
    dist = Distribution.from_pmf(np.array([0.5, 0.5, 0.0, 0.0]))
    assert dist.stderr is None and len(dist.probabilities) == 2


def test_pandas_views():
    r = _mc()
    assert r.pmf("damage").index.name == "damage"
    assert r.at_least("damage").iloc[0] == pytest.approx(1.0)
    frame = r.to_frame()
    assert list(frame.columns) == ["outcome", "value", "probability", "at_least"]
    summary = r.summary()
    assert summary.loc["damage", "mean"] == pytest.approx(1.7)
    assert summary.loc["unit_destroyed", "stderr"] == pytest.approx(np.sqrt(.2 * .8 / 100))
    assert "<table" in r._repr_html_()


def test_to_dict_is_json_with_string_keys():
    d = json.loads(json.dumps(_mc().to_dict()))
    assert d["method"] == "monte-carlo" and d["trials"] == 100 and d["seed"] == 3
    assert set(d["damage"]["pmf"]) == {"0", "1", "2", "3"}
    assert "stderr" in d["damage"] and d["unit_destroyed"] == 0.2
    exact = Result(EXACT, {"damage": Distribution.from_pmf(np.array([.25, .75]))})
    assert "trials" not in exact.to_dict() and "stderr" not in exact.to_dict()["damage"]


def test_unknown_outcome_is_a_clear_error():
    with pytest.raises(MathhammerError, match="no outcome 'dmg'.*damage"):
        _mc().pmf("dmg")
