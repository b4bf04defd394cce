"""Warmachine's exact chain (warmachine/exact_engine.py) on a sequence worked out by hand (single rolls:
test_rolls.py)."""

import numpy as np

from mathhammer.warmachine.exact_engine import solve
from mathhammer.warmachine.compile import compile_plan
from mathhammer.warmachine.parse import parse_attack, parse_target
from mathhammer.warmachine.profiles import Rules


def test_solve_one_attack_into_one_box():
    # MAT7 vs DEF13: need 6 on 2d6, 26 of 36 hit; POW12 vs ARM13 on 2d6: damage >= 1 unless
    # the dice show 2 (1-1 never hits anyway): every hit takes the one box
    plan = compile_plan([parse_attack("Sword: MAT7 POW12")],
                        [parse_target("Grunt: DEF13 ARM13 BOXES1")], Rules())
    pmfs, _ = solve(plan)
    assert np.allclose(pmfs["damage"][:2], [10 / 36, 26 / 36])
