"""A unit's keywords are those of the models still in it, read when each batch is resolved
(rules spec 6, 19.03; issue 34), in both engines: the scenario kernel (Monte Carlo) and the
mixed-unit exact engine (wh40k/exact_engine/mixed.py).

The case, by hand. The target: one BEAST model listed first, then three Troopers, all T4,
no save, W1 (one allocation group, the BEAST first to die). The attackers: one Torch
([TORRENT], S8 v T4: wounds on 2+, 5/6), then three Spears ([TORRENT, ANTI-BEAST 2+], S3 v T4:
wounds on 5+, 1/3; against a BEAST unit a 2+ is a critical wound, 5/6).

- The Torch kills the BEAST with 5/6. Then the unit has no BEAST: each Spear kills with 1/3,
  1 model on average (three Troopers, three Spears: never more than there are).
- The Torch fails (1/6): the BEAST stands when the Spears roll, [ANTI-BEAST 2+] applies to
  all three wound rolls (rolled together): 3 x 5/6 = 5/2 models.

E[models destroyed] = 5/6 x (1 + 1) + 1/6 x 5/2 = 25/12 (keeping BEAST after its model
died gave 5/6 + 5/2 = 10/3). P(all four destroyed) = 5/6 x (1/3)^3 = 5/162 (with the BEAST
standing the Spears kill three models at most).
"""

from fractions import Fraction as F

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.wh40k.exact_engine.mixed import solve_activation
from mathhammer.wh40k.scenario.compile import compile_scenario

TEXT = """[units.S]
side = "us"
models = [{{ name = "A", count = 1, profile = "T4 Sv3+ W2", weapons = ['Torch: 12" A1 BS- S8 AP0 D1 [TORRENT]'] }},
          {{ name = "B", count = 3, profile = "T4 Sv3+ W2", weapons = ['Spear: 12" A1 BS- S3 AP0 D1 [TORRENT, ANTI-BEAST 2+]'] }}]
[units.T]
side = "them"
models = [{target}]
[[activations]]
phase = "shooting"
attacker = "S"
target = "T"
weapons = {weapons}
"""
MIXED = ('{ name = "Beast", count = 1, profile = "T4 Sv- W1 [BEAST]" }, '
         '{ name = "Trooper", count = 3, profile = "T4 Sv- W1" }')


def scenario(weapons: str = '["Torch", "Spear"]', target: str = MIXED) -> mh.wh40k.Scenario:
    return mh.parse_scenario(TEXT.format(weapons=weapons, target=target))


def exact_pmf(sc: mh.wh40k.Scenario) -> np.ndarray:
    return solve_activation(compile_scenario(sc))["models_destroyed"]


def test_exact_anti_stops_when_its_last_model_dies():
    pmf = exact_pmf(scenario())
    assert float(np.arange(len(pmf)) @ pmf) == pytest.approx(float(F(25, 12)), abs=1e-12)
    assert float(pmf[4]) == pytest.approx(float(F(5, 162)), abs=1e-12)


def test_monte_carlo_anti_stops_when_its_last_model_dies():
    result = mh.run(scenario(), trials=200_000, seed=11, progress=False)
    dist = result.models_destroyed("T")
    assert abs(dist.mean - 25 / 12) < 5 * dist.stderr
    p = result.destroyed("T")
    assert abs(p - 5 / 162) < 5 * (5 / 162 * (1 - 5 / 162) / 200_000) ** 0.5


def test_a_keyword_read_when_the_batch_starts_lasts_for_its_rolls():
    # Spears alone: the BEAST stands when they roll, so all three wound on 2+ (5/6): 5/2.
    pmf = exact_pmf(scenario('["Spear"]'))
    assert float(np.arange(len(pmf)) @ pmf) == pytest.approx(2.5, abs=1e-12)


def test_a_keyword_every_model_carries_makes_no_variants():
    # Every model a BEAST: nothing changes as they die (3 Spears at 5/6, the Torch at 5/6:
    # E = 4 x 5/6 = 10/3), and the compiled plan has one row per batch.
    every = ('{ name = "Beast", count = 1, profile = "T4 Sv- W1 [BEAST]" }, '
             '{ name = "Trooper", count = 3, profile = "T4 Sv- W1 [BEAST]" }')
    plan = compile_scenario(scenario(target=every))
    assert plan.variants.shape[1] == 1
    pmf = exact_pmf(scenario(target=every))
    assert float(np.arange(len(pmf)) @ pmf) == pytest.approx(10 / 3, abs=1e-12)
