"""The best Damage re-roll as tables and text (mathhammer.wh40k.damage_policy).

The policy's values are derived by hand and by brute force in
tests/wh40k/exact_engine/test_policies.py; here, how it is laid out: the hand-derived case
there (two [TORRENT] D3 attacks at 2x W3) re-rolls 1-2 on a fresh model, a 1 with 2 wounds
left, nothing with 1 left.
"""

from __future__ import annotations

import pytest

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.damage_policy import _results, best_damage_rerolls

HAND = ("Gun: A2 BSN/A S8 AP0 DD3 [TORRENT]", "2x T4 Sv- W3")


def test_grid_of_the_hand_derived_case() -> None:
    policy = best_damage_rerolls(*HAND)
    (grid,) = policy.grids()
    assert grid.title == "Gun (D3): results to roll again"
    assert grid.frame.to_dict() == {"last roll": {3: "1-2", 2: "1", 1: "keep"},
                                    "1 more": {3: "1-2", 2: "-", 1: "-"}}
    assert grid.exceptions == ()
    assert policy.value == pytest.approx(1525 / 1458, abs=1e-12)
    assert policy.best_fixed == ("ones", pytest.approx(230 / 243, abs=1e-12))
    text = policy.text()
    assert "best 1.05; fixed policies none 0.787, ones 0.947, low 0.947" in text
    assert max(len(line) for line in text.splitlines()) <= 88
    assert "Gain over the best fixed policy (ones): +0.0995" in text


def test_exceptions_name_the_models_destroyed() -> None:
    # with 2 of 3 models destroyed and one roll to come, a fresh 4-wound model is the last:
    # the best choice there re-rolls only 1-2 (cf. 1-3 on the first models)
    policy = best_damage_rerolls("Heavy gun: A4 BS3+ S8 AP-2 DD6", "3x T6 Sv3+ W4")
    (grid,) = policy.grids()
    assert grid.frame.loc[4, "1 more"] == "1-3*"
    assert grid.exceptions == ("4 wounds left, 1 more, with 2 models destroyed: 1-2",)


def test_devastating_wounds_get_their_own_grid() -> None:
    policy = best_damage_rerolls("Gun: A3 BS3+ S8 AP-2 DD3 [DEVASTATING WOUNDS]",
                                 "2x T6 Sv3+ W3")
    assert [g.title for g in policy.grids()] == [
        "Gun (D3): results to roll again",
        "Gun (D3), devastating wounds: results to roll again"]


def test_results_are_written_as_runs() -> None:
    assert _results(()) == "keep"
    assert _results((1, 2, 3, 5)) == "1-3, 5"
    assert _results((2,)) == "2"


def test_what_it_cannot_follow_is_one_line() -> None:
    with pytest.raises(UnsupportedError, match="DEVASTATING"):
        best_damage_rerolls("Gun: A3 BS3+ S8 AP-2 DD3 [DEVASTATING WOUNDS]", "2x T6 Sv3+ W3",
                            edition=10)
