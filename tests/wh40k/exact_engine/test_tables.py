"""The exact engine's tables (wh40k/exact_engine/tables.py): generating functions and Markov steps
on small cases written out by hand."""

import math

import numpy as np
import pytest

from mathhammer.wh40k import api
from mathhammer.wh40k.exact_engine import chains as exact, tables as exact_tables
from mathhammer.wh40k.exact_engine.tables import (add_padded, binomial_rows, build_transition,
                                                  convolve, damage_transition, mapped_pmf,
                                                  mix_powers, power_1d, spill_step)
from tests.wh40k import reference_exact

COIN = np.array([0.5, 0.5])


def test_polynomial_powers_and_mixtures():
    assert np.allclose(power_1d(COIN, 3), [1 / 8, 3 / 8, 3 / 8, 1 / 8])
    # one or two coins with 1/2 each: 1/2 (1/2, 1/2) + 1/2 (1/4, 1/2, 1/4)
    mixed = mix_powers(COIN[:, None], np.array([0.0, 0.5, 0.5]))
    assert np.allclose(mixed[:, 0], [3 / 8, 1 / 2, 1 / 8])
    # a 2-D table (unsaved, critical): two dice each (none 1/2, one unsaved 1/3, one
    # critical 1/6)
    die = np.array([[1 / 2, 1 / 6], [1 / 3, 0.0]])
    two = mix_powers(die, np.array([0.0, 0.0, 1.0]))
    assert np.allclose(two, convolve(die, die))
    assert two[1, 1] == pytest.approx(2 * 1 / 3 * 1 / 6)


def test_convolve_and_add_padded():
    a = np.array([[1.0, 2.0]])
    b = np.array([[1.0], [1.0]])
    assert convolve(a, b).tolist() == [[1, 2], [1, 2]]
    assert add_padded(a, b).tolist() == [[2, 2], [1, 0]]


def test_binomial_rows_and_mapped_pmf():
    assert np.allclose(binomial_rows(2, 0.5)[2], [1 / 4, 1 / 2, 1 / 4])
    # a D3 roll halved and rounded up (1, 1, 2): 2/3 on 1, 1/3 on 2
    assert np.allclose(mapped_pmf(np.array([0, 1 / 3, 1 / 3, 1 / 3]), np.array([0, 1, 1, 2])),
                       [0, 2 / 3, 1 / 3])


def test_damage_transition_caps_at_the_wounded_models_wounds():
    # D3 damage (1/3 each) on two W2 models, no Feel No Pain: from 0 wounds lost, 1 with
    # 1/3 and 2 (the model's wounds: excess lost) with 2/3
    matrix = build_transition(np.array([0, 1 / 3, 1 / 3, 1 / 3]), 7, 2, 2)
    assert np.allclose(matrix[0], [0, 1 / 3, 2 / 3, 0, 0])
    # from 1 wound lost the wounded model has 1 left: every roll takes it (state 2)
    assert np.allclose(matrix[1], [0, 0, 1, 0, 0])
    assert matrix[4, 4] == 1.0
    # Feel No Pain 5+: one point of damage gets through with 2/3
    one = damage_transition(np.array([0.0, 1.0]), 5, 1, 2)
    assert np.allclose(one[0], [1 / 3, 2 / 3, 0])


def test_mortal_wounds_spill_onto_the_next_model():
    # two mortal wounds on W1 models: two models, where D2 from one attack would take one
    step = spill_step(np.array([0.0, 0.0, 1.0]), 7, 3, 1)
    assert np.allclose(step[0], [0, 0, 1, 0])


def _transition_by_loops(damage_pmf, fnp: int, models: int, wounds: int) -> np.ndarray:
    """The Markov step written out state by state: each point of damage passes Feel No Pain
    on its own, and the wounded model loses at most the wounds it has left."""
    through = (fnp - 1) / 6 if fnp < 7 else 1.0
    passed = [0.0] * len(damage_pmf)
    for damage, p in enumerate(damage_pmf):
        for k in range(damage + 1):
            passed[k] += p * math.comb(damage, k) * through ** k * (1 - through) ** (damage - k)
    size = models * wounds + 1
    matrix = np.zeros((size, size))
    for state in range(size - 1):
        left = wounds - state % wounds
        for k, p in enumerate(passed):
            matrix[state, state + min(k, left)] += p
    matrix[-1, -1] = 1.0
    return matrix


@pytest.mark.parametrize("models", [1, 2, 3, 5])
@pytest.mark.parametrize("wounds", [1, 2, 3, 5, 12])
@pytest.mark.parametrize("fnp", [7, 5])
def test_build_transition_against_a_step_written_out(models, wounds, fnp):
    rng = np.random.default_rng(models * 100 + wounds * 10 + fnp)
    for top in (1, 2, 4, 7, 15):
        pmf = rng.random(top + 1) * (rng.random(top + 1) < 0.7)
        pmf[0], pmf[top] = 0.0, 0.4
        pmf /= pmf.sum()
        assert np.allclose(build_transition(pmf, fnp, models, wounds),
                           _transition_by_loops(pmf, fnp, models, wounds),
                           rtol=1e-13, atol=1e-16)


@pytest.mark.parametrize("line", [
    "5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]",
    '3x Gun: 24" AD6 BS3+ S5 AP-1 D1 [DEVASTATING WOUNDS, SUSTAINED HITS 2]',
    '4x Gun: 24" A4 BS3+ S5 AP-1 D1 [DEVASTATING WOUNDS, LETHAL HITS, SUSTAINED HITS D3]',
    '2x Gun: 24" A2 BS4+ S5 AP-1 D1 [BLAST]',
])
def test_wound_total_is_the_sum_over_the_joint_antidiagonals(line):
    plan = api.GAME.compile([line], "10x T4 Sv3+ W1", lethal_policy="always").exact_plan
    joint = exact_tables.joint_pmf(plan.batch[0], plan.rolls[0], plan.saves[0, 0])
    total = exact_tables.wound_total_pmf(plan.batch[0], plan.rolls[0], plan.saves[0, 0])
    sums = np.zeros(joint.shape[0] + joint.shape[1] - 1)
    for u in range(joint.shape[0]):
        sums[u : u + joint.shape[1]] += joint[u]
    padded = np.zeros(max(len(total), len(sums)))
    padded[: len(total)] = total
    assert np.allclose(padded[: len(sums)], sums, rtol=1e-12, atol=1e-16)
    assert abs(total.sum() - 1.0) < 1e-12


def test_critical_wounds_join_the_unsaved_ones_only_when_they_move_the_chain_alike():
    hammers = ["5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]"]
    alike = api.GAME.compile(hammers, "5x T5 Sv2+ InSv4+ W3").exact_plan
    assert exact.critical_like_unsaved(alike, 0)
    # Feel No Pain against mortal wounds only, -1 Damage that mortal wounds ignore (11e, by
    # default), mortal wounds that spill (10e launch text): the critical wounds step
    # differently
    for target, options in (("5x T5 Sv2+ W3 FNP5+(mortal)", {}),
                            ("5x T5 Sv2+ W3", {"damage_minus": 1}),
                            ("5x T5 Sv2+ W3", {"edition": 10, "devastating_text": "launch"})):
        plan = api.GAME.compile(hammers, target, **options).exact_plan
        assert not exact.critical_like_unsaved(plan, 0), (target, options)
    for plan in (alike, api.GAME.compile(hammers, "5x T5 Sv2+ W3 FNP5+(mortal)").exact_plan):
        got, expected = exact.solve(plan), reference_exact.solve(plan)
        for name in ("damage", "models_destroyed"):
            assert np.abs(got[name] - expected[name]).max() < 1e-12


@pytest.mark.parametrize("wounds", [1, 3, 12])
@pytest.mark.parametrize("fnp", [7, 5])
def test_a_lone_model_by_convolutions_equals_the_markov_chain(wounds, fnp):
    rng = np.random.default_rng(wounds + fnp)
    damage = rng.random(8) * (rng.random(8) < 0.7)
    damage[0], damage[-1] = 0.0, 0.2
    damage /= damage.sum()
    start = rng.random(wounds + 1)
    start /= start.sum()
    step = build_transition(damage, fnp, 1, wounds)
    got = exact_tables.lone_model_states(start, exact_tables.passed_damage_pmf(damage, fnp),
                                         wounds, 6)
    expected = [start]
    for _ in range(5):
        expected.append(expected[-1] @ step)
    assert np.allclose(got, np.array(expected), rtol=1e-12, atol=1e-16)


@pytest.mark.parametrize("lines, target", [
    (['2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1'], "Rhino: T10 Sv3+ W12"),
    (['2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1', 'Melta: 12" A1 BS3+ S9 AP-4 DD6',
      '3x Gun: 24" A1 BS3+ S5 AP-1 D2 [DEVASTATING WOUNDS]'], "Knight: T11 Sv3+ W22 FNP5+"),
    (['Gun: 24" A2 BS3+ S5 AP-1 DD3 [DEVASTATING WOUNDS]'], "Hero: T4 Sv3+ W5 FNP4+(mortal)"),
])
def test_lone_models_equal_the_previous_engine(lines, target):
    api.clear_caches()
    plan = api.GAME.compile(lines, target).exact_plan
    got, expected = exact.solve(plan), reference_exact.solve(plan)
    for name in ("damage", "models_destroyed"):
        assert np.abs(got[name] - expected[name]).max() < 1e-12
        assert abs(got[name].sum() - 1.0) < 1e-12


@pytest.mark.parametrize("lines", [['2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1'],
                                   ['2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1',
                                    '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1']])
def test_every_table_of_a_remembered_plan_is_read_only(lines):
    api.clear_caches()
    plan = api.GAME.compile(lines, "MEQ").exact_plan
    tables = [value for value in vars(plan).values() if isinstance(value, np.ndarray)]
    assert len(tables) == 8
    assert not any(table.flags.writeable for table in tables)


def test_one_state_after_wounds_equals_the_stacked_states():
    rng = np.random.default_rng(11)
    step = build_transition(np.array([0.0, 0.5, 0.3, 0.2]), 5, 6, 3)
    rows = rng.random((2, step.shape[0]))
    rows /= rows.sum(axis=1, keepdims=True)
    for count in (1, 2, 3, 7, 16, 25):
        stacked = exact.states_after_wounds(rows, step, count)
        alone = exact.states_after_wounds(rows[:1], step, count)
        assert alone.shape == (count, 1, step.shape[0])
        expected = [rows[0]]
        for _ in range(count - 1):
            expected.append(expected[-1] @ step)
        assert np.allclose(alone[:, 0], np.array(expected), rtol=1e-12, atol=1e-16)
        assert np.allclose(alone[:, 0], stacked[:, 0], rtol=1e-12, atol=1e-16)
