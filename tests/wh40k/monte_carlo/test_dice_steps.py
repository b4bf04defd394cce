"""The 40k kernels' dice steps (wh40k/monte_carlo/dice_steps.py) on scripted dice: each roll read by hand."""

import numpy as np

from mathhammer.core.jit import kernel
from mathhammer.core.rng import scripted_dice_used, scripted_stream
from mathhammer.wh40k.monte_carlo.dice_steps import (roll_classified, roll_classified_command,
                                                     roll_with_lowest_die_again)
from mathhammer.wh40k.plan_columns import CRITICAL, FAIL, SUCCESS

CLASSES, REROLL = np.int64(0), np.int64(1)


def tables(reroll_faces=()):
    """One batch: faces 1-2 fail, 3-5 succeed, 6 is critical; re-roll ``reroll_faces``."""
    out = np.zeros((1, 2, 7), dtype=np.int64)
    out[0, 0] = [FAIL, FAIL, FAIL, SUCCESS, SUCCESS, SUCCESS, CRITICAL]
    for face in reroll_faces:
        out[0, 1, face] = 1
    return out


@kernel
def _classified(state, n, tables, classes, reroll):
    return roll_classified(state, n, tables, np.int64(0), classes, reroll)


@kernel
def _classified_command(state, n, tables, classes, reroll, command):
    return roll_classified_command(state, n, tables, np.int64(0), classes, reroll, command)


@kernel
def _lowest_again(state, count, sides, constant, below):
    return roll_with_lowest_die_again(state, count, sides, constant, below)


def test_roll_classified_counts_successes_and_criticals():
    stream = scripted_stream([1, 4, 6, 2])
    # re-roll 1s: the 1 becomes a 4 (success), then a 6 (critical) and a 2 (fail)
    assert _classified(stream, np.int64(3), tables([1]), CLASSES, REROLL) == (1, 1)
    assert scripted_dice_used(stream) == 4
    stream = scripted_stream([1, 4, 6])
    assert _classified(stream, np.int64(3), tables(), CLASSES, REROLL) == (1, 1)


def test_a_command_re_roll_is_spent_on_the_first_failed_die():
    stream = scripted_stream([5, 2, 6, 1])
    # 5 succeeds; 2 fails and is rolled again: 6 (critical); the re-roll is spent, so the
    # last die's 1 stays a fail
    assert _classified_command(stream, np.int64(3), tables(), CLASSES, REROLL,
                               np.int64(1)) == (1, 1, 0)
    assert scripted_dice_used(stream) == 4
    stream = scripted_stream([5, 5])
    assert _classified_command(stream, np.int64(2), tables(), CLASSES, REROLL,
                               np.int64(1)) == (2, 0, 1)  # kept in hand


def test_roll_with_lowest_die_again():
    # 2D6 + 1 = 2 + 3 + 1 = 6 < 8: the lowest die (2) is rolled again as a 5: 9
    stream = scripted_stream([2, 3, 5])
    assert _lowest_again(stream, np.int64(2), np.int64(6), np.int64(1), np.int64(8)) == (9,
                                                                                         True)
    stream = scripted_stream([6, 3])
    assert _lowest_again(stream, np.int64(2), np.int64(6), np.int64(1), np.int64(8)) == (10,
                                                                                         False)
