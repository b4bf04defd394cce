import dataclasses
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


def test_seed_provenance_keeps_plain_json_values():
    from mathhammer.core.result import seed_provenance

    assert seed_provenance(7) == (7, [])
    entropy, key = seed_provenance(np.random.SeedSequence(12345, spawn_key=(3, 1)))
    assert (entropy, key) == (12345, [3, 1])
    assert type(entropy) is int and all(type(k) is int for k in key)
    json.dumps(seed_provenance(np.random.SeedSequence([1, 2])))   # list entropy: JSON too
    assert seed_provenance(np.random.SeedSequence([1, 2]))[0] == [1, 2]


def test_a_result_of_several_subjects_hands_out_each():
    from mathhammer.core.result import subject_key

    counts = {"A": np.array([1, 3]), "B": np.array([2, 2])}
    result = Result(MONTE_CARLO,
                    {subject_key(s, "models_destroyed"): Distribution.from_counts(c)
                     for s, c in counts.items()},
                    {subject_key("A", "destroyed"): 0.75}, trials=4, seed=9,
                    inputs={"subject": "A, B", "seed_spawn_key": [2]},
                    labels={subject_key("A", "models_destroyed"): "A: models destroyed"})
    a = result.for_subject("A")
    assert a.outcomes == ("models_destroyed",) and a.mean("models_destroyed") == 0.75
    assert a.probability("destroyed") == 0.75 and a.label("models_destroyed") == \
        "models destroyed"
    assert a.subject == "A" and (a.trials, a.seed) == (4, 9)
    assert result.for_subject("B").mean("models_destroyed") == 0.5
    with pytest.raises(MathhammerError, match="no subject 'C'"):
        result.for_subject("C")
    assert json.loads(json.dumps(result.to_dict()))["seed_spawn_key"] == [2]


def test_coinciding_distributions_are_printed_once():
    import mathhammer as mh

    one_wound = mh.exact(['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'], "10x GEQ")
    text = one_wound.to_text()
    assert text.count("P(= k)") == 1
    assert "models destroyed: the same distribution as wounds lost" in text
    two_wounds = mh.exact(['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'], "5x MEQ")
    assert two_wounds.to_text().count("P(= k)") == 2   # they differ: both tables


def test_the_summary_columns_line_up_whatever_the_labels():
    from mathhammer.dust.api import exact as dust_exact

    text = dust_exact(["Shotgun: 3/1"], "Grenadier: INFANTRY2").to_text()
    rows = [line for line in text.splitlines() if " mean " in line]
    assert len(rows) >= 4 and len({line.index(" mean ") for line in rows}) == 1


# -- results are data: read-only once made (issue 40, item 5) --------------------------------
def _made() -> Result:
    pmf = np.array([0.25, 0.75])
    return Result(method="exact", distributions={"damage": Distribution.from_pmf(pmf)},
                  probabilities={"unit_destroyed": 0.75}, inputs={"weapons": "Gun"},
                  labels={"damage": "wounds lost"})


def test_a_results_mappings_and_arrays_cannot_be_changed():
    result = _made()
    for mapping in (result.distributions, result.probabilities, result.inputs, result.labels):
        with pytest.raises(TypeError, match="cannot be changed after it is made"):
            mapping["x"] = 1
        for change in (lambda m: m.update(x=1), lambda m: m.pop(next(iter(m))),
                       lambda m: m.clear(), lambda m: m.setdefault("x", 1)):
            with pytest.raises(TypeError):
                change(mapping)
    with pytest.raises(ValueError, match="read-only"):
        result.distribution("damage").probabilities[0] = 1.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.method = "monte-carlo"  # type: ignore[misc]
    assert result.mean("damage") == 0.75


def test_the_callers_containers_stay_theirs():
    pmf, inputs = np.array([0.5, 0.5]), {"weapons": "Gun"}
    result = Result(method="exact", distributions={"d": Distribution(pmf)}, inputs=inputs)
    pmf[0] = 0.0   # the caller's array is still writable, and the result did not see it
    inputs["weapons"] = "Other"
    assert result.distribution("d").probabilities.tolist() == [0.5, 0.5]
    assert result.inputs == {"weapons": "Gun"}


def test_a_changed_result_is_a_new_one_and_pickles_and_serialises_as_before():
    import pickle

    result = _made()
    changed = dataclasses.replace(result, inputs={**result.inputs, "precision": 0.01})
    assert changed.inputs == {"weapons": "Gun", "precision": 0.01}
    assert result.inputs == {"weapons": "Gun"}
    again = pickle.loads(pickle.dumps(changed))
    assert again.inputs == changed.inputs and isinstance(again.inputs, dict)
    with pytest.raises(TypeError):
        again.inputs["x"] = 1
    json.dumps(changed.to_dict())


def test_one_binomial_standard_error():
    """Issue 40, item 6: results, reports and scenario tables share one helper, which gives
    the bits the copies it replaced gave."""
    import math

    from mathhammer.core.result import binomial_stderr

    for p, n in ((0.0, 10), (0.3, 7), (0.123456789, 1_000_003), (1.0, 5)):
        assert binomial_stderr(p, n) == math.sqrt(p * (1 - p) / n)
    result = Result(method=MONTE_CARLO, trials=400, seed=1,
                    distributions={"damage": Distribution.from_counts(np.array([100, 300]))},
                    probabilities={"unit_destroyed": 0.25})
    assert result.probability_stderr("unit_destroyed") == binomial_stderr(0.25, 400)
    assert result.proportion_stderr(0.75) == result.distributions["damage"] \
        .proportion_stderr(0.75) == binomial_stderr(0.75, 400)
    assert Result(method=EXACT, distributions={}).proportion_stderr(0.5) is None
