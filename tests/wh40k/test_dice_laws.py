"""Laws of the 40k dice (wh40k/dice_laws.py): pmfs of dice, re-rolls and attack dice by hand."""

import numpy as np
import pytest

from mathhammer.core.dice import DiceExpr
from mathhammer.wh40k.dice_laws import (attack_dice_pmf, dice_pmf, face_probabilities,
                                        max_attack_dice, outcome_probabilities, reroll_below,
                                        rerolled_pmf)
from mathhammer.wh40k.plan_columns import (A_CONST, A_COUNT, A_REROLL_BELOW, A_SIDES,
                                           BATCH_COLUMNS, N_WEAPONS, RF_CONST)


def test_dice_pmfs():
    assert dice_pmf(0, 0, 3).tolist() == [0, 0, 0, 1]
    assert np.allclose(dice_pmf(1, 3, 1), [0, 0, 1 / 3, 1 / 3, 1 / 3])   # D3+1
    two = dice_pmf(2, 6, 0)  # 2D6: P(7) = 6/36
    assert two[7] == pytest.approx(6 / 36) and two.sum() == pytest.approx(1)


def test_reroll_thresholds_and_laws():
    # 'low' re-rolls results below the average: D6+1 averages 4.5, so 2..4 (below 5)
    assert reroll_below(DiceExpr.parse("D6+1"), "low") == 5
    assert reroll_below(DiceExpr.parse("2D6"), "low") == 7
    assert reroll_below(DiceExpr.parse("D3"), "ones") == 2
    assert reroll_below(DiceExpr.parse("3"), "low") == 0
    # a D3 re-rolled on a 1: P(1) = 1/9, P(2) = P(3) = 1/3 + 1/9
    assert np.allclose(rerolled_pmf(dice_pmf(1, 3, 0), 2), [0, 1 / 9, 4 / 9, 4 / 9])


def test_attack_dice_of_a_batch():
    row = np.zeros(BATCH_COLUMNS, dtype=np.int64)
    row[N_WEAPONS], row[A_COUNT], row[A_SIDES] = 2, 1, 3    # two weapons of A D3
    # the sum of two D3: 2..6 with 1, 2, 3, 2, 1 ninths
    assert np.allclose(attack_dice_pmf(row)[2:], [1 / 9, 2 / 9, 3 / 9, 2 / 9, 1 / 9])
    assert max_attack_dice(row) == 6
    row[A_REROLL_BELOW] = 2       # each D3 re-rolled on a 1
    one = [1 / 9, 4 / 9, 4 / 9]
    assert np.allclose(attack_dice_pmf(row)[2:], np.convolve(one, one))
    fixed = np.zeros(BATCH_COLUMNS, dtype=np.int64)
    fixed[N_WEAPONS], fixed[A_CONST], fixed[RF_CONST] = 3, 2, 1   # 3 weapons of A2 + RF 1
    assert attack_dice_pmf(fixed)[9] == pytest.approx(1) and max_attack_dice(fixed) == 9


def test_face_and_outcome_probabilities():
    reroll = np.zeros(7, dtype=bool)
    reroll[1] = True  # re-roll 1s
    faces = face_probabilities(reroll)
    assert faces[1] == pytest.approx(1 / 36) and faces[6] == pytest.approx(7 / 36)
    # hits on 3+, critical on 6, re-rolling 1s: fail = 1/36 + 1/6 + 1/36
    classes = np.array([0, 0, 0, 1, 1, 1, 2])
    assert np.allclose(outcome_probabilities(classes, reroll), [8 / 36, 21 / 36, 7 / 36])
