"""Warmachine's Monte Carlo steps (warmachine/kernels.py) on scripted dice, read by hand."""

import numpy as np

from mathhammer.core.rng import scripted_dice_used, scripted_stream
from mathhammer.warmachine.compile import compile_plan
from mathhammer.warmachine.kernels import BUFFER, attack_roll, damage_roll
from mathhammer.warmachine.parse import parse_attack, parse_target

BUF = np.zeros(BUFFER, dtype=np.int64)


def roll(faces, n, drop, need, all_ones_miss=True, special_on_kept=True):
    stream = scripted_stream(faces)
    out = attack_roll(stream, n, drop, need, all_ones_miss, special_on_kept, BUF)
    assert scripted_dice_used(stream) == len(faces)
    return out


def test_attack_roll_outcomes():
    assert roll([3, 4], 2, 0, 7) == 1          # 7 >= 7: a hit
    assert roll([3, 3], 2, 0, 6) == 2          # a pair that hits: critical
    assert roll([3, 3], 2, 0, 7) == 0          # a pair that misses is a miss
    assert roll([6, 6], 2, 0, 13) == 2         # two sixes always hit
    assert roll([1, 1], 2, 0, 2) == 0          # all ones miss
    assert roll([1, 1], 2, 0, 2, all_ones_miss=False) == 2
    # three dice, lowest dropped: 1 is dropped, 5 + 6 = 11 >= 11
    assert roll([1, 5, 6], 3, 1, 11) == 1


def test_damage_roll_and_armour_piercing_rounding():
    target = [parse_target("Grunt: DEF13 ARM13 BOXES10")]
    plain = compile_plan([parse_attack("Sword: MAT7 POW12")], target)
    # 2d6 = 3 + 4, POW 12, ARM 13: 6 boxes
    assert damage_roll(scripted_stream([3, 4]), plain.rows, 0, 13, False, True, False,
                       BUF) == 6
    piercing = compile_plan([parse_attack("Axe: MAT7 POW12 [ARMOR-PIERCING]")], target)
    # ARM 13 halved, rounded up: 7; 3 + 4 + 12 - 7 = 12
    assert damage_roll(scripted_stream([3, 4]), piercing.rows, 0, 13, False, True, False,
                       BUF) == 12
    # a boosted roll adds a die: 3 + 4 + 1 + 12 - 13 = 7
    assert damage_roll(scripted_stream([3, 4, 1]), plain.rows, 0, 13, False, True, True,
                       BUF) == 7
