"""``mh.compare(..., method="exact")`` and exact sweeps solve every cell in one pass
(:mod:`mathhammer.wh40k.exact_grid`); each cell must equal ``mh.exact`` on that cell alone,
to 1e-12, over generated grids of mixed rules in both editions, whatever order the cells come
in and whatever is remembered from earlier answers."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import UnsupportedError
from mathhammer.wh40k import api, exact_grid
from tests.wh40k.grid_cases import TARGETS as ALL_TARGETS, WEAPONS as ALL_WEAPONS

#: The first ten weapons and eight targets of the batch tests' lines (a few: every cell is also
#: answered by mh.exact)
WEAPONS, TARGETS = ALL_WEAPONS[:10], ALL_TARGETS[:8]
OPTIONS = [{}, {"half_range": True}, {"edition": 10}, {"edition": 10, "half_range": True},
           {"reroll_hits": "ones", "fnp": 6}, {"dw_timing": "unit_end"},
           {"edition": 10, "devastating_text": "launch"}, {"lethal_policy": "ev"},
           {"command_reroll": "wound"}, {"damage_minus": 1, "cover": True}]
METRICS = {"expected_damage": ("mean", "damage"),
           "expected_models_destroyed": ("mean", "models_destroyed"),
           "p_unit_destroyed": ("probability", "unit_destroyed"),
           "expected_attacker_mortal_wounds": ("mean", "attacker_mortal_wounds")}


@pytest.fixture(autouse=True)
def batch_every_grid(monkeypatch):
    """Small generated grids too go through the batch (it normally starts at
    exact_grid.MIN_BATCH_CELLS cells of one setting)."""
    monkeypatch.setattr(exact_grid, "MIN_BATCH_CELLS", 1)


def grids(n: int = 12, seed: int = 2024):
    rng = random.Random(seed)
    for _ in range(n):
        yield (rng.sample(WEAPONS, rng.randint(1, 4)), rng.sample(TARGETS, rng.randint(1, 4)),
               dict(rng.choice(OPTIONS)))


def expected_value(line, target, options, metric):
    result = mh.exact(line, target, **options)
    kind, name = METRICS[metric]
    return getattr(result, kind)(name)


@pytest.mark.parametrize("clear", [True, False])
@pytest.mark.parametrize("attackers,targets,options", list(grids()))
def test_every_cell_equals_exact_alone(attackers, targets, options, clear):
    if clear:
        api.clear_caches()
    edition = options.pop("edition", 11)
    # labels with a digit are kept as given (no unit size added)
    attackers = {f"a{i}": line for i, line in enumerate(attackers)}
    targets = {f"t{i}": spec for i, spec in enumerate(targets)}
    kept = mh.compare(attackers, targets, method="exact", edition=edition, keep_results=True,
                      **options)
    frame, store = kept.frame, kept.results
    options = {**options, "edition": edition}
    assert len(store) == len(attackers) * len(targets)
    for row in frame.itertuples():
        want = expected_value(attackers[row.attacker], targets[row.target], options,
                              row.metric)
        assert abs(row.value - want) <= 1e-12
        assert np.isnan(row.stderr) and row.method == "exact"
    for (attacker, target), result in store.items():
        alone = mh.exact(attackers[attacker], targets[target], **options)
        assert result.outcomes == alone.outcomes
        for name in alone.outcomes:
            got, want = result.distributions[name].probabilities, \
                alone.distributions[name].probabilities
            assert got.shape == want.shape and np.abs(got - want).max() <= 1e-12
            assert abs(got.sum() - 1.0) <= 1e-12
        assert result.probabilities.keys() == alone.probabilities.keys()
        for event, p in alone.probabilities.items():
            assert abs(result.probabilities[event] - p) <= 1e-12
        assert result.inputs == alone.inputs and result.labels == alone.labels
        assert result.method == alone.method


def test_exact_sweep_cells_equal_exact_alone():
    attackers = {f"a{i}": line for i, line in enumerate(WEAPONS[:3])}
    targets = {"t0": "MEQ", "t1": "5x T5 Sv3+ W3 FNP5+"}
    frame = mh.sweep(attackers, targets, "save", [2, 4, 7], method="exact")
    assert len(frame) == 3 * 2 * 3 * 3
    for row in frame.itertuples():
        target = dataclasses.replace(api.parse_target(targets[row.target]), save=row.save)
        want = expected_value(attackers[row.attacker], target, {}, row.metric)
        assert abs(row.value - want) <= 1e-12


def test_a_refused_cell_is_named():
    huge = '1000x Gatling: 24" A20 BS3+ S4 AP0 D1 [SUSTAINED HITS 6]'
    with pytest.raises(UnsupportedError, match="against 500x T4 Sv3"):
        mh.compare([WEAPONS[0], huge], ["500x T4 Sv3+ W5"], method="exact")
