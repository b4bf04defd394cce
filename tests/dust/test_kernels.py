"""Dust's Monte Carlo step (dust/kernels.py) on scripted dice: one volley read by hand."""

import numpy as np

from mathhammer.core.rng import scripted_dice_used, scripted_stream
from mathhammer.dust.compile import (COVER, DAMAGE, DEPTH, DR, EVADE, KIND, LASER, N_COLUMNS,
                                     NORMAL, PER_POINT, PHASER, REROLL, SUB_N, SUB_THR, THR)
from mathhammer.dust.kernels import fire_row


def row(**fields):
    out = np.zeros(N_COLUMNS, dtype=np.int64)
    out[THR] = 2  # hits on faces 1-2 (the hit symbol, 2 faces of 6)
    out[DAMAGE] = 1
    out[DEPTH] = -1
    for name, value in fields.items():
        out[{"kind": KIND, "sub_n": SUB_N, "sub_thr": SUB_THR, "reroll": REROLL,
             "cover": COVER, "damage": DAMAGE, "dr": DR, "evade": EVADE, "depth": DEPTH,
             "per_point": PER_POINT}[name]] = value
    return out


def fire(faces, r, n):
    stream = scripted_stream(faces)
    out = fire_row(stream, r, n)
    assert scripted_dice_used(stream) == len(faces)
    return tuple(int(v) for v in out)


def test_plain_dice_and_cover():
    # three dice: 1 and 2 hit, 5 misses; damage 2 each: 4 before saves
    assert fire([1, 2, 5], row(kind=NORMAL, damage=2), 3) == (2, 4, 4)
    # cover saving on 2 faces: the first hit's save die 1 saves, the second's 4 does not
    assert fire([1, 2, 5, 1, 4], row(kind=NORMAL, damage=2, cover=2), 3) == (2, 4, 2)


def test_re_rolled_misses():
    # a miss (6) is rolled again (2): a hit
    assert fire([6, 2], row(kind=NORMAL, reroll=1), 1) == (1, 1, 1)


def test_phaser_and_laser():
    # a phaser die that hits (1) rolls 3 sub-dice hitting on 1-2: 1, 5, 2 -> 2 hits
    assert fire([1, 1, 5, 2], row(kind=PHASER, sub_n=3, sub_thr=2), 1) == (2, 2, 2)
    # a laser hit (2) keeps rolling while it hits: 1 (hit), 2 (hit), 6 (stop): 3 hits
    assert fire([2, 1, 2, 6], row(kind=LASER, sub_thr=2), 1) == (3, 3, 3)
    # with a depth of 1 the chain stops after one extra hit
    assert fire([2, 1], row(kind=LASER, sub_thr=2, depth=1), 1) == (2, 2, 2)
