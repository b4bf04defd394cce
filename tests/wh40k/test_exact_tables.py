"""The exact engine's tables (wh40k/exact_tables.py): generating functions and Markov steps
on small cases written out by hand."""

import numpy as np
import pytest

from mathhammer.wh40k.exact_tables import (add_padded, binomial_rows, build_transition,
                                           convolve, damage_transition, mapped_pmf,
                                           mix_powers, power_1d, spill_step)

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
