"""What every pairing of a meta matrix shares: the settings refuse what no run can take, in
one line, and a pairing's digest keys only on what changes its numbers."""

import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.roster.meta_settings import PHASES, PLAN_RULE, Settings


def _build(**changes):
    values = {"edition": 11, "method": "exact", "trials": 1000, "seed": 1, "profiles": "best",
              "phases": "shooting,fight", "options": {}}
    return Settings.build(**{**values, **changes})


def test_phases_are_read_from_a_comma_list_and_kept_once():
    assert _build(phases="fight, shooting,fight").phases == ("fight", "shooting")
    assert set(PHASES) == {"shooting", "fight"} and "best target" in PLAN_RULE


@pytest.mark.parametrize("changes, words", [
    ({"phases": "shooting,charge"}, "phase 'charge' must be shooting or fight"),
    ({"phases": ""}, "phase '' must be"),
    ({"profiles": "all"}, "profiles='all' must be 'best' or 'first'"),
    ({"method": "guess"}, "guess"),
])
def test_impossible_settings_are_refused_in_one_line(changes, words):
    with pytest.raises(OptionError, match=words.replace("(", r"\(")) as caught:
        _build(**changes)
    assert "\n" not in str(caught.value)


def test_an_exact_pairings_key_leaves_out_the_seed_and_trials_a_monte_carlo_one_keeps_them():
    assert _build(seed=1).key() == _build(seed=2, trials=5).key()
    monte = _build(method="monte-carlo", seed=1)
    assert monte.key() != _build(method="monte-carlo", seed=2).key()
