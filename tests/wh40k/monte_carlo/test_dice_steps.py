"""The 40k kernels' dice steps (wh40k/monte_carlo/dice_steps.py) on scripted dice: each roll read by hand."""

import numpy as np

from mathhammer.core.jit import kernel
from mathhammer.core.rng import scripted_dice_used, scripted_stream, seed_streams
from mathhammer.core.sampling import draw_thresholds, guide_tables
from mathhammer.wh40k.monte_carlo.dice_steps import (count_guided, count_outcomes, draw_from_cdf,
                                                     draw_guided, roll_classified,
                                                     roll_classified_command,
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


@kernel
def _plain_and_guided_draws(state, cdfs, thresholds, guides, tables, out):
    """Each (table, row) draw twice from the same stream position: a float searched from 0,
    then integer bits from the guide; the pair of counts of each table's crit and rest rows
    too."""
    saved = state.copy()
    i = 0
    for t in range(cdfs.shape[1]):
        for row in range(cdfs.shape[2]):
            for w in range(state.shape[0]):
                saved[w] = state[w]
            out[i, 0] = draw_from_cdf(state, cdfs, np.int64(0), t, row, row)
            out[i, 2] = state[0]
            for w in range(state.shape[0]):
                state[w] = saved[w]
            out[i, 1] = draw_guided(state, thresholds, guides, np.int64(0), t, row, row)
            out[i, 3] = state[0]
            i += 1
    for t in range(tables.shape[0]):
        n = tables[t, 2]
        for w in range(state.shape[0]):
            saved[w] = state[w]
        a, b = count_outcomes(state, n, cdfs, np.int64(0), tables[t, 0], tables[t, 1])
        for w in range(state.shape[0]):
            state[w] = saved[w]
        c, d = count_guided(state, n, thresholds, guides, np.int64(0), tables[t, 0],
                            tables[t, 1])
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = a * 1000 + b, c * 1000 + d, 0, 0
        i += 1


def test_guided_draws_give_the_same_counts_and_leave_the_same_stream():
    # the 40k kernel's count tables for heavy bolters against MEQ (all twelve tables, every
    # row), 400 rounds from one stream: what makes the same seed give the same bits
    from mathhammer.wh40k.api import GAME

    plan = GAME.compile(['4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'],
                        "10x Intercessor: T4 Sv3+ W2 [INFANTRY]").plan
    cdfs = plan.count_cdfs
    guides, thresholds = guide_tables(cdfs), draw_thresholds(cdfs)
    rows = cdfs.shape[1] * cdfs.shape[2]
    tables = np.array([[t, t + 1, n] for t in range(cdfs.shape[1] - 1)
                       for n in range(cdfs.shape[2])], dtype=np.int64)
    state = seed_streams(11, 1)[0]
    seen = set()
    for _ in range(400):
        out = np.zeros((rows + len(tables), 4), dtype=np.int64)
        _plain_and_guided_draws(state, cdfs, thresholds, guides, tables, out)
        assert (out[:, 0] == out[:, 1]).all() and (out[:, 2] == out[:, 3]).all()
        seen.update(out[:rows, 0].tolist())
    assert len(seen) > 10   # the draws spread over many counts, not one
