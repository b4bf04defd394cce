"""The batched exact engine (wh40k/exact_engine/cells.py, wh40k/exact_engine/batches.py): every cell's
tables equal compile_plan's for that cell alone, every cell's pmfs equal mh.exact's to 1e-12
(generated grids: both editions, modifiers, mixed options, Feel No Pain, [HAZARDOUS],
[DEVASTATING WOUNDS] held or not, [BLAST] against unit sizes, [ANTI-X], [PSYCHIC]), and the
cells it cannot take (Command Re-roll, several lines, 10e spill, large units) are solved
alone, a refusal naming its cell."""

from __future__ import annotations

import random

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import UnsupportedError
from mathhammer.wh40k import api, exact_grid
from mathhammer.wh40k.exact_engine import batches as exact_batch
from mathhammer.wh40k.compile import (compile_plan)
from mathhammer.wh40k.exact_engine.batches import batchable, dice_law
from mathhammer.wh40k.exact_engine.cells import cell_tables
from mathhammer.wh40k.dice_laws import attack_dice_pmf
from mathhammer.wh40k.exact_grid import solve_cells
from tests.wh40k.grid_cases import TARGETS, WEAPONS

OPTIONS = [{}, {"half_range": True}, {"edition": 10}, {"edition": 10, "half_range": True},
           {"reroll_hits": "ones", "fnp": 6}, {"dw_timing": "unit_end"},
           {"edition": 10, "devastating_text": "launch"}, {"lethal_policy": "ev"},
           {"damage_minus": 1, "cover": True}, {"stationary": True, "hit_mod": -1},
           {"reroll_wounds": "failed", "ap_mod": 1, "save_mod": 1},
           {"damage_halved": True, "reroll_saves": "ones"}, {"crit_hits": 5, "wound_mod": 1},
           {"reroll_damage": "ones", "damage_plus": 1, "fnp_mortal": 5},
           {"edition": 10, "cover": True, "attacker_monster_vehicle": True}]


@pytest.fixture(autouse=True)
def batch_every_grid(monkeypatch):
    """Small generated grids too go through the batch (it normally starts at
    MIN_BATCH_CELLS cells of one setting)."""
    monkeypatch.setattr(exact_grid, "MIN_BATCH_CELLS", 1)


def grids(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield (rng.sample(WEAPONS, rng.randint(1, 5)), rng.sample(TARGETS, rng.randint(1, 5)),
               dict(rng.choice(OPTIONS)))


def cells_of(weapons, targets, options):
    edition = options.get("edition", 11)
    return [(api.parse_weapons(w), api.parse_target(t, edition), options)
            for w in weapons for t in targets]


@pytest.mark.parametrize("weapons,targets,options", list(grids(24, 11)))
def test_every_batched_cell_equals_exact_alone(weapons, targets, options):
    cells = cells_of(weapons, targets, options)
    answers = solve_cells(cells)
    for (w, t, o), cell in zip(cells, answers):
        alone = mh.exact(w, t, **o)
        assert cell.outcomes == alone.outcomes
        for name in ("damage", "models_destroyed", "attacker_mortal_wounds"):
            want = alone.distributions[name].probabilities if name in alone.outcomes \
                else np.ones(1)
            got = np.asarray(cell.pmfs[name])
            got = got[: len(want)] if name in alone.outcomes else got
            assert np.abs(got[: len(want)] - want).max() <= 1e-12
            assert abs(got.sum() - 1.0) <= 1e-12
            if name in alone.outcomes:
                assert abs(cell.mean(name) - alone.mean(name)) <= 1e-12
        assert abs(cell.probability("unit_destroyed")
                   - alone.probability("unit_destroyed")) <= 1e-12


@pytest.mark.parametrize("weapons,targets,options", list(grids(4, 29)))
def test_a_stack_in_any_order_gives_the_same_answers(monkeypatch, weapons, targets, options):
    """_stacks puts a stack's cells most attack dice first; a stack in another order (cells
    fewest dice first) is put in that order by the chain and its answers put back."""
    cells = cells_of(weapons, targets, options)
    sorted_answers = solve_cells(cells)
    stacks = exact_batch._stacks
    monkeypatch.setattr(exact_batch, "_stacks", lambda tables: [
        (size, members[::-1]) for size, members in stacks(tables)])
    for one, other in zip(sorted_answers, solve_cells(cells)):
        for name in one.pmfs:
            assert np.abs(np.asarray(one.pmfs[name]) - np.asarray(other.pmfs[name])).max() \
                <= 1e-15


@pytest.mark.parametrize("options", [{"fnp_mortal": 5}, {"fnp_mortal": 4, "fnp": 6},
                                     {"dw_timing": "unit_end", "fnp_mortal": 5},
                                     {"edition": 10, "fnp_mortal": 6}])
def test_critical_wounds_that_step_apart(monkeypatch, options):
    # a mortal-wound Feel No Pain: critical wounds step unlike unsaved ones, so the batch
    # holds them (one critical wound per die: the binomial path; several, with [SUSTAINED
    # HITS]: the joint pmf); the same numbers as mh.exact
    used = {"joint": 0, "held": 0}
    joint, held = exact_batch._joint_chain, exact_batch._through_powers
    monkeypatch.setattr(exact_batch, "_joint_chain", lambda group, *rest: used.update(
        joint=used["joint"] + len(group)) or joint(group, *rest))
    monkeypatch.setattr(exact_batch, "_through_powers", lambda per_k, *rest: used.update(
        held=used["held"] + len(per_k)) or held(per_k, *rest))
    weapons = [WEAPONS[3], WEAPONS[9], WEAPONS[10], WEAPONS[0]]
    cells = cells_of(weapons, ["MEQ", "TEQ", "VEQ", "3x Ogryn: T6 Sv4+ InSv5+ W4 [INFANTRY]"],
                     options)
    for (w, t, o), cell in zip(cells, solve_cells(cells)):
        alone = mh.exact(w, t, **o)
        for name in alone.outcomes:
            want = alone.distributions[name].probabilities
            assert np.abs(np.asarray(cell.pmfs[name])[: len(want)] - want).max() <= 1e-12
    assert used["joint"] >= 4 and used["held"] > used["joint"]


def test_one_line_cells_are_solved_in_the_batch(monkeypatch):
    alone = []
    solve_alone = exact_grid._solve_alone
    monkeypatch.setattr(exact_grid, "_solve_alone",
                        lambda *args: alone.append(args) or solve_alone(*args))
    grid = cells_of(WEAPONS[:6], ["GEQ", "MEQ", "TEQ", "VEQ"], {})
    solve_cells(grid)
    assert alone == []
    # a Command Re-roll, two lines in one cell, a 10e spill of devastating wounds: alone
    solve_cells(cells_of(WEAPONS[:1], ["MEQ"], {"command_reroll": "wound"})
                + [([*api.parse_weapons(WEAPONS[0]), *api.parse_weapons(WEAPONS[2])],
                    api.parse_target("MEQ"), {})]
                + cells_of(WEAPONS[3:4], ["MEQ"], {"edition": 10,
                                                   "devastating_text": "launch"}))
    assert len(alone) == 3


def test_small_grids_are_solved_cell_by_cell(monkeypatch):
    monkeypatch.setattr(exact_grid, "MIN_BATCH_CELLS", 6)
    alone = []
    solve_alone = exact_grid._solve_alone
    monkeypatch.setattr(exact_grid, "_solve_alone",
                        lambda *args: alone.append(args) or solve_alone(*args))
    solve_cells(cells_of(WEAPONS[:5], ["MEQ"], {}))
    assert len(alone) == 5
    solve_cells(cells_of(WEAPONS[:6], ["MEQ"], {}))
    assert len(alone) == 5


def test_a_large_grid_is_solved_in_several_stacks(monkeypatch):
    grid = cells_of(WEAPONS, TARGETS[:6], {})
    whole = solve_cells(grid)
    monkeypatch.setattr(exact_batch, "MAX_STACK_NUMBERS", 2_000)
    assert len(exact_batch._stacks([t for t in cell_tables(
        [(w, t) for w, t, _ in grid], api.build_options({})) if t is not None])) > 5
    for one, other in zip(whole, solve_cells(grid)):
        for name in one.pmfs:
            assert np.abs(np.asarray(one.pmfs[name]) - other.pmfs[name]).max() <= 1e-15


def test_dice_law_equals_attack_dice_pmf():
    for line in WEAPONS:
        for options in ({}, {"half_range": True}, {"reroll_attacks": "ones"}):
            setting = api.build_options(options)
            for target in ("GEQ", "20x T3 Sv6+ W1", "VEQ"):
                plan = compile_plan(api.parse_weapons(line), api.parse_target(target),
                                    *setting[:3], sampling_tables=False)
                want = attack_dice_pmf(plan.batch[0])
                got = dice_law(plan.batch[0].tolist())
                assert len(got) == len(want) and np.allclose(got, want, rtol=0, atol=1e-15)


def test_limits_send_cells_to_the_engine_alone():
    # 100 models of 30 wounds: beyond the batch (and beyond the exact engine, which refuses)
    huge = cells_of(WEAPONS[:1], ["100x T4 Sv3+ W30"], {})
    setting = api.build_options({})
    tables = cell_tables([(w, t) for w, t, _ in huge], setting)
    assert tables[0] is not None and not batchable(tables[0])
    with pytest.raises(UnsupportedError, match="^Bolt rifles against the horde: "):
        solve_cells(huge, names=["Bolt rifles against the horde"])


def test_a_refusal_names_the_first_failing_cell():
    melee = api.parse_weapons("Chainsword: Melee A3 WS3+ S4 AP-1 D1")
    rifle = api.parse_weapons(WEAPONS[0])
    with pytest.raises(mh.errors.OptionError, match="melee weapon"):
        solve_cells([(rifle, api.parse_target("MEQ"), {"overwatch": True}),
                     (melee, api.parse_target("MEQ"), {"overwatch": True})])
