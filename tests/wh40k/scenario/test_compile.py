"""``scenario.compile``: the arrays of the README's example scenario, counted by hand from
the file (examples/shoot_charge_fight.toml): 4 Intercessors + a Sergeant led by a Captain,
against 9 Boyz and a Boss Nob."""

from pathlib import Path

import numpy as np
import pytest

from mathhammer.wh40k.scenario.compile import compile_scenario, wound_dice_bound
from mathhammer.wh40k.scenario.layout import (A_CHARACTER, A_WOUNDS, B_N_CONTRIBS, B_TARGET,
                                              K_ATTACKER, K_N_BATCHES, U_MODELS, U_N_ALLOCS,
                                              U_WOUNDS)
from mathhammer.wh40k.scenario.reader import load_scenario

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "shoot_charge_fight.toml"


@pytest.fixture(scope="module")
def plan():
    return compile_scenario(load_scenario(EXAMPLE))


def test_units_count_models_and_wounds(plan):
    marines = plan.unit_names.index("Intercessors")
    boyz = plan.unit_names.index("Boyz")
    assert plan.units[marines, U_MODELS] == 6           # 4 + sergeant + captain
    assert plan.units[marines, U_WOUNDS] == 5 * 2 + 5
    assert plan.units[boyz, U_MODELS] == 10
    assert plan.units[boyz, U_WOUNDS] == 9 * 1 + 2
    assert set(plan.side_names) == {"A", "B"}


def test_the_captain_is_his_own_allocation_group(plan):
    marines = plan.unit_names.index("Intercessors")
    rows = plan.allocs[plan.allocs[:, 0] == marines]
    assert len(rows) == plan.units[marines, U_N_ALLOCS] == 2
    characters = rows[rows[:, A_CHARACTER] == 1]
    assert len(characters) == 1 and characters[0, A_WOUNDS] == 5


def test_activations_point_at_their_batches(plan):
    assert plan.activations.shape[0] == len(load_scenario(EXAMPLE).activations)
    assert plan.activations[:, K_N_BATCHES].sum() == plan.batches.shape[0]
    first = plan.activations[0]
    assert plan.unit_names[first[K_ATTACKER]] == "Intercessors"
    boyz = plan.unit_names.index("Boyz")
    shooting = plan.batches[: first[K_N_BATCHES]]
    assert (shooting[:, B_TARGET] == boyz).all()
    assert (shooting[:, B_N_CONTRIBS] >= 1).all()


def test_wound_dice_bound_of_the_shooting(plan):
    # shooting at half range: 5 bolt rifles A2 and the captain's master-crafted rifle A2,
    # no [SUSTAINED HITS]: at most 12 wound dice over the activation's batches
    first = plan.activations[0]
    total = sum(wound_dice_bound(row, plan.contribs, plan.subs, 10)
                for row in plan.batches[: first[K_N_BATCHES]])
    assert total == 12
    assert np.issubdtype(plan.batches.dtype, np.integer)


def test_dice_tables_beyond_their_memory_limit_are_refused_before_they_are_made(plan,
                                                                              monkeypatch):
    # 1,000 activations of 200-model units made 3 GB of tables in 17 s before another limit
    # refused the scenario; the estimate is the tables' own size, so the limit is exact
    from mathhammer.errors import OptionError
    from mathhammer.wh40k.scenario import compile as compile_module

    need = plan.hit_cdfs.nbytes + plan.wound_cdfs.nbytes + plan.save_cdfs.nbytes
    n_batches, n_max = plan.batches.shape[0], plan.hit_cdfs.shape[-1] - 1
    monkeypatch.setattr(compile_module, "MAX_SCENARIO_TABLE_BYTES", need)
    compile_scenario(load_scenario(EXAMPLE))
    monkeypatch.setattr(compile_module, "MAX_SCENARIO_TABLE_BYTES", need - 1)
    with pytest.raises(OptionError, match=f"^{EXAMPLE}: the dice tables of {n_batches} weapon "
                                          f"batches of up to {n_max} dice need .* MiB "
                                          r"\(limit 0 MiB\): fewer activations"):
        compile_scenario(load_scenario(EXAMPLE))
