"""trials="auto" / target_stderr: stop once the headline figures are precise enough."""

import json

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import OptionError

HB = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2'


def test_auto_reaches_the_reported_precision_and_is_reproducible():
    r = mh.simulate(HB, "MEQ", trials="auto", seed=4)
    precision = r.inputs["precision"]
    assert precision["reached"] and precision["trials"] == r.trials
    for name in ("damage", "models_destroyed"):
        assert r.stderr(name) <= precision[name]["target"]
        assert precision[name]["stderr"] == pytest.approx(r.stderr(name))
    again = mh.simulate(HB, "MEQ", trials="auto", seed=4)
    assert again.trials == r.trials
    assert (again.distributions["damage"].probabilities
            == r.distributions["damage"].probabilities).all()
    exact = mh.exact(HB, "MEQ")
    assert abs(r.mean("damage") - exact.mean("damage")) < 5 * r.stderr("damage")


def test_a_tighter_target_takes_more_trials():
    loose = mh.simulate(HB, "MEQ", target_stderr=0.01, seed=1)
    tight = mh.simulate(HB, "MEQ", target_stderr=0.002, seed=1)
    assert tight.trials > loose.trials
    assert tight.stderr("damage") <= 0.002


@pytest.mark.parametrize("kwargs", [{"target_stderr": 0}, {"target_stderr": -1.0},
                                    {"trials": "sometimes"}])
def test_bad_adaptive_options(kwargs):
    with pytest.raises(OptionError):
        mh.simulate(HB, "MEQ", **kwargs)


def test_cli_trials_auto_reports_precision(capsys):
    assert main(["simulate", HB, "--target", "MEQ", "--trials", "auto", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["precision"]["reached"] and data["trials"] == data["precision"]["trials"]
