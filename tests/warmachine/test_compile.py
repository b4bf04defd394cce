"""Warmachine plans as flat arrays (warmachine/compile.py): rows and models laid out by hand."""

import pytest

from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.warmachine.compile import (M_ARM, M_BOXES, M_DEF, M_MARKED, M_UNIT, R_ATK_N,
                                           R_CHARGE, R_DMG_N, R_LINE, R_MELEE, R_POW, R_STAT,
                                           compile_plan)
from mathhammer.warmachine.parse import parse_attack, parse_target
from mathhammer.warmachine.profiles import Rules


def test_one_row_per_attack_one_model_row_per_model():
    plan = compile_plan([parse_attack("2x Sword: MAT7 POW12 [CHARGE]"),
                         parse_attack("Gun: RAT5 POW10")],
                        [parse_target("3x Grunt: DEF13 ARM13 BOXES1"),
                         parse_target("Jack: DEF12 ARM18 BOXES20 [DAMAGED 5]")])
    assert plan.rows.shape[0] == 3 and plan.n_models == 4
    assert plan.rows[:, R_LINE].tolist() == [0, 0, 1]
    assert plan.rows[:, R_MELEE].tolist() == [1, 1, 0]
    assert plan.rows[:, R_STAT].tolist() == [7, 7, 5]
    assert plan.rows[:, R_POW].tolist() == [12, 12, 10]
    # two attack dice and two damage dice each; only the line's first attack charges
    assert plan.rows[:, R_ATK_N].tolist() == [2, 2, 2]
    assert plan.rows[:, R_DMG_N].tolist() == [2, 2, 2]
    assert plan.rows[:, R_CHARGE].tolist() == [1, 0, 0]
    models = plan.models
    assert models[:, M_DEF].tolist() == [13, 13, 13, 12]
    assert models[:, M_ARM].tolist() == [13, 13, 13, 18]
    assert models[:, M_UNIT].tolist() == [0, 0, 0, 1]
    assert (models[:, M_BOXES] - models[:, M_MARKED]).tolist() == [1, 1, 1, 15]
    assert plan.max_damage == 18 and not plan.per_model_hits


@pytest.mark.parametrize("attacks, targets, rules, error, message", [
    ([], ["Grunt: DEF13 ARM13 BOXES1"], None, OptionError, "at least one attack line"),
    (["Sword: MAT7 POW12"], [], None, OptionError, "at least one target"),
    (["Sword: MAT7 POW12"], ["Grunt: DEF13 ARM13 BOXES1"], Rules(retarget_after_kill=False),
     UnsupportedError, "retarget_after_kill=False is not implemented"),
])
def test_refusals(attacks, targets, rules, error, message):
    with pytest.raises(error, match=message):
        compile_plan([parse_attack(a) for a in attacks], [parse_target(t) for t in targets],
                     rules)


@pytest.mark.parametrize("attack, target, per_model_events", [
    ("Sword: MAT7 POW12", "Grunt: DEF13 ARM13 BOXES1", False),
    ("Flamer: RAT5 POW12 [SPRAY 3]", "3x Grunt: DEF13 ARM13 BOXES1", True),
    ("Sword: MAT7 POW12", "Lock: DEF13 ARM13 BOXES5 [TRANSFER 1, TRANSFER BOXES 3]", True),
    ("Fist: MAT7 POW15", "Jack: DEF12 ARM14 [GRID -L/-LL/MCC/CM/R-R/-R]", True),
])
def test_kernel_plan_is_the_plan_as_one_argument(attack, target, per_model_events):
    plan = compile_plan([parse_attack(attack)], [parse_target(target)])
    packed = plan.kernel_arrays()
    for field in ("rows", "models", "rules", "grid_lanes", "grid_need"):
        assert getattr(packed, field) is getattr(plan, field)
    assert packed.coverage == plan.coverage
    assert packed.per_model_events is per_model_events
