"""``scenario.layout``: the column numbers of the compiled scenario's arrays, and
:class:`CompiledScenario` handing its arrays to the kernel in the three groups it takes them in
(the README's example scenario, examples/shoot_charge_fight.toml)."""

from pathlib import Path

import numpy as np
import pytest

from mathhammer.wh40k.plan_columns import BATCH_COLUMNS
from mathhammer.wh40k.scenario import layout
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.layout import (ACTIVATION_COLUMNS, B_BONUS_SIDES, B_TARGET,
                                              CONTRIB_COLUMNS, R_FIRST_BIN, S_KEYWORDS, S_UNIT,
                                              SCENARIO_BATCH_COLUMNS, Army, ScenarioArrays,
                                              Script, WeaponArrays)
from mathhammer.wh40k.scenario.reader import load_scenario

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "shoot_charge_fight.toml"


@pytest.fixture(scope="module")
def plan():
    return compile_scenario(load_scenario(EXAMPLE))


def columns(prefix: str) -> list[int]:
    return sorted(int(v) for k, v in vars(layout).items()
                  if k.startswith(prefix) and k[len(prefix)].isupper())


@pytest.mark.parametrize("prefix", ["S_", "A_", "U_", "C_", "K_", "F_", "R_"])
def test_each_array_numbers_its_columns_from_zero_without_gaps(prefix):
    found = columns(prefix)
    assert found == list(range(len(found)))


def test_the_array_widths_match_their_columns():
    assert len(columns("C_")) == CONTRIB_COLUMNS
    assert len(columns("K_")) == ACTIVATION_COLUMNS
    assert len(columns("R_")) == R_FIRST_BIN + 1


def test_a_scenario_batch_row_extends_a_single_batch_row():
    assert B_TARGET == BATCH_COLUMNS and B_BONUS_SIDES == SCENARIO_BATCH_COLUMNS - 1
    assert columns("B_") == list(range(BATCH_COLUMNS, SCENARIO_BATCH_COLUMNS))


def test_sub_group_columns_are_numpy_integers():
    # numba compiles a helper once per Python int literal it is handed, so the kernels'
    # sub-group columns are numpy integers
    assert isinstance(S_UNIT, np.int64) and isinstance(S_KEYWORDS, np.int64)


def test_a_plan_hands_the_kernel_its_arrays_in_three_groups(plan):
    arrays = plan.kernel_arrays()
    assert isinstance(arrays, ScenarioArrays)
    assert isinstance(arrays.army, Army) and arrays.army.subs is plan.subs
    assert isinstance(arrays.weapons, WeaponArrays) and arrays.weapons.hit is plan.hit
    assert isinstance(arrays.script, Script) and arrays.script.variants is plan.variants
    assert arrays.script.rounds == plan.rounds
    assert arrays.weapons.use_counts == plan.use_counts == 1


def test_use_counts_zero_rolls_every_die(plan):
    assert plan.kernel_arrays(use_counts=0).weapons.use_counts == 0


def test_checkpoints_are_rounds_times_activations(plan):
    assert plan.checkpoints == plan.rounds * plan.activations.shape[0] == 6


@pytest.mark.parametrize("change, rare", [
    ({}, False),
    ({"edition": 10}, True),                                 # 10th-edition allocation
    ({"weapon": "[ASSAULT, HEAVY, HAZARDOUS]"}, True),
    ({"weapon": "[ASSAULT, HEAVY, DEVASTATING WOUNDS]"}, True),
    ({"weapon": "[ASSAULT, HEAVY, PRECISION]"}, True),
    ({"weapon": "[ASSAULT, HEAVY, ONE SHOT]"}, True),
    ({"weapon": "[ASSAULT, HEAVY, SUSTAINED HITS 1]"}, False),
    ({"modifiers": 'command_reroll = "wound"'}, True),
])
def test_rare_rules_says_which_version_of_the_kernel_a_plan_needs(change, rare):
    import dataclasses

    from mathhammer.wh40k.scenario.reader import parse_scenario

    text = EXAMPLE.read_text()
    if "weapon" in change:
        text = text.replace("[ASSAULT, HEAVY]", change["weapon"])
    if "modifiers" in change:
        text = text.replace("modifiers = { hit_mod = 1 }",
                            f"modifiers = {{ hit_mod = 1, {change['modifiers']} }}")
    scenario = parse_scenario(text, "<example>")
    if "edition" in change:
        scenario = dataclasses.replace(
            scenario, rules=dataclasses.replace(scenario.rules, edition=change["edition"]))
    assert compile_scenario(scenario).rare_rules is rare
