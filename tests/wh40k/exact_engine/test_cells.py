"""Tables of a weapon compiled once per class of targets (wh40k/exact_engine/cells.py): each
cell's tables equal compile_plan's for that cell alone (generated grids), and targets share a
class only when the weapon's tables cannot tell them apart."""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer.wh40k import api
from mathhammer.wh40k.compile import (BATCH_COLUMNS, FNP_COLUMN, FNP_MORTAL_COLUMN,
                                      MORTAL_DAMAGE, NORMAL_DAMAGE, compile_plan)
from mathhammer.wh40k.exact_engine.cells import cell_tables, defender_class
from tests.wh40k.exact_engine.test_batches import cells_of, grids


@pytest.mark.parametrize("weapons,targets,options", list(grids(16, 7)))
def test_cell_tables_equal_compile_plan(weapons, targets, options):
    cells = cells_of(weapons, targets, options)
    setting = api.build_options(options)
    tables = cell_tables([(w, t) for w, t, _ in cells], setting)
    for (w, t, _), got in zip(cells, tables):
        if got is None:
            continue
        plan = compile_plan(w, t, *setting[:3], attacker_monster_vehicle=setting[3],
                            sampling_tables=False)
        assert len(got.row) == BATCH_COLUMNS and got.row == plan.batch[0].tolist()
        assert np.array_equal(np.concatenate([got.hit, got.wound]), plan.rolls[0])
        assert np.array_equal(got.save, plan.saves[0, 0])
        raw, maps = plan.damage_pmfs[0], plan.damage_maps[0]
        for kind, pmf in ((NORMAL_DAMAGE, got.normal_damage), (MORTAL_DAMAGE,
                                                                got.mortal_damage)):
            want = np.bincount(maps[kind], weights=raw, minlength=len(pmf))
            assert np.allclose(pmf, want, rtol=0, atol=1e-15)
        assert got.damage_max == plan.damage_maps.max()
        assert (got.fnp, got.fnp_mortal) == (plan.groups[0, plan.batch[0, FNP_COLUMN]],
                                             plan.groups[0, plan.batch[0, FNP_MORTAL_COLUMN]])
        assert (got.models, got.wounds) == (t.count, t.wounds)
        assert (got.hazard_rolls, got.hazard_mortals, got.hazard_fail_max) == \
            (plan.hazard_rolls, plan.hazard_mortals, plan.hazard_fail_max)
        assert (got.spill, got.at_unit_end) == (bool(plan.dw_spill), bool(plan.dw_at_unit_end))


def _class(weapon: str, target: str, **options) -> tuple:
    situation, modifiers, rules, _ = api.build_options(options)
    return defender_class(api.parse_weapons(weapon)[0], api.parse_target(target), modifiers,
                          rules)


def test_targets_share_a_class_unless_the_tables_can_tell_them_apart():
    plain = 'Gun: 24" A2 BS3+ S4 AP-1 D1'
    anti = 'Needle: 18" A2 BS2+ S2 AP0 D2 [ANTI-INFANTRY 2+]'
    lethal = 'Claw: Melee A4 WS3+ S5 AP-1 D1 [LETHAL HITS]'
    # T, save and wounds differ: one compilation serves both
    assert _class(plain, "10x T3 Sv5+ W1") == _class(plain, "Tank: T11 Sv2+ W14 [VEHICLE]")
    # Stealth changes the hit roll
    assert _class(plain, "T3 Sv5+ W1") != _class(plain, "T3 Sv5+ W1 [STEALTH]")
    # [ANTI-INFANTRY] reads the keywords
    assert _class(anti, "T3 Sv5+ W1 [INFANTRY]") != _class(anti, "T3 Sv5+ W1 [VEHICLE]")
    assert _class(anti, "T3 Sv5+ W1 [INFANTRY]") == _class(anti, "T5 Sv3+ W2 [INFANTRY]")
    # [LETHAL HITS] taken by its expected value weighs the whole profile
    assert _class(lethal, "T4 Sv3+ W2", lethal_policy="ev") != \
        _class(lethal, "T4 Sv3+ W3", lethal_policy="ev")
    assert _class(lethal, "T4 Sv3+ W2") == _class(lethal, "T4 Sv3+ W3")
