"""``core.adaptive``: ``trials="auto"`` in every game: blocks of trials until the headline
figures reach their standard errors, the result depending on the seed alone."""

from __future__ import annotations

import importlib

import pytest

from mathhammer.core import adaptive
from mathhammer.errors import OptionError

#: One question per game with its exact mean damage (see tests/core/test_game.py).
QUESTIONS = {
    "wh40k": ("Bolter: A2 BS3+ S4 AP0 D1", "T4 Sv- W3", 2 / 3),
    "warmachine": ("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", 21 / 36 * 5),
    "dust": ("Gun: 6/1", "5x G: INFANTRY2", 2.0),
}


@pytest.mark.parametrize("game", QUESTIONS)
def test_every_game_runs_until_precise(game):
    weapons, target, mean = QUESTIONS[game]
    simulate = importlib.import_module(f"mathhammer.{game}").simulate
    result = simulate(weapons, target, trials="auto", seed=3, target_stderr=0.01)
    precision = result.inputs["precision"]
    assert precision["reached"] and precision["trials"] == result.trials
    assert precision["damage"]["stderr"] <= 0.01 == precision["damage"]["target"]
    assert result.trials in (100_000, 200_000, 400_000, 800_000)   # the first block, doubled
    assert abs(result.mean("damage") - mean) < 5 * result.stderr("damage")
    again = simulate(weapons, target, trials="auto", seed=3, target_stderr=0.01)
    assert again.mean("damage") == result.mean("damage") and again.trials == result.trials


def test_a_looser_target_stops_at_the_first_block_and_a_tighter_one_runs_longer():
    from mathhammer.warmachine import simulate

    loose = simulate("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", trials="auto",
                     target_stderr=1.0)
    tight = simulate("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", trials="auto",
                     target_stderr=0.005)
    assert loose.trials == adaptive.FIRST_BLOCK < tight.trials
    assert tight.inputs["precision"]["damage"]["stderr"] <= 0.005


@pytest.mark.parametrize("bad", [0, -1.0, float("inf"), float("nan"), True, "0.1"])
def test_a_target_stderr_that_is_not_a_positive_number_is_refused(bad):
    with pytest.raises(OptionError, match="target_stderr"):
        adaptive.wants_adaptive("auto", bad)


def test_only_auto_or_a_target_asks_for_blocks():
    assert adaptive.wants_adaptive("auto", None) and adaptive.wants_adaptive(1000, 0.1)
    assert not adaptive.wants_adaptive(1000, None)
