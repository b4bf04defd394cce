"""Exact comparison grids (wh40k/exact_grid.py): each cell solved once, checked by hand."""

import numpy as np
import pytest

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.exact_grid import exact_mean, solve_cells
from mathhammer.wh40k.parse import parse_target, parse_weapon

BOLTER = parse_weapon('Bolter: 24" A2 BS3+ S4 AP0 D1')


def test_exact_mean():
    assert exact_mean(np.array([0.25, 0.5, 0.25, 0.0])) == pytest.approx(1.0)
    # clipped at 0 and renormalised, as Distribution does
    assert exact_mean(np.array([-1e-18, 0.5, 0.5])) == pytest.approx(1.5)


def test_cells_by_hand():
    # two bolter shots at a one-wound model without a save: each wounds with 2/3 x 1/2 = 1/3
    target = parse_target("T4 Sv7+ W1")
    cells = solve_cells([([BOLTER], target, {}), ([BOLTER], target, {"wound_mod": 1})])
    plain, plus_one = cells
    # one model of one wound: damage is capped at 1, so its mean is P(at least one wound)
    assert plain.mean("damage") == pytest.approx(1 - (2 / 3) ** 2)
    assert plain.probability("unit_destroyed") == pytest.approx(1 - (2 / 3) ** 2)
    # +1 to wound: 3+ (2/3) a shot: 2/3 x 2/3 = 4/9; P(none) = (5/9)^2
    assert plus_one.probability("unit_destroyed") == pytest.approx(1 - (5 / 9) ** 2)
    assert plain.stderr("damage") is None and plain.outcomes == ("damage", "models_destroyed")
    assert plain.result().mean("damage") == pytest.approx(plain.mean("damage"))


def test_steps_and_a_refusal_naming_its_cell():
    steps = []
    assert len(solve_cells([([BOLTER], parse_target("T4 Sv3+ W2"), {})],
                           step=lambda: steps.append(1))) == 1
    assert steps == [1]
    # 100 models of 30 wounds: 3,001 wounds-lost states, beyond the exact engine's 2,500
    with pytest.raises(UnsupportedError, match="^Bolter against the horde: "):
        solve_cells([([BOLTER], parse_target("100x T4 Sv3+ W30"), {})],
                    names=["Bolter against the horde"])


@pytest.mark.parametrize("weapon", ['5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]',
                                    '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'])
def test_a_cells_headline_is_cores_headline_of_its_result(weapon):
    from mathhammer.core.game import headline
    from mathhammer.wh40k.api import GAME

    cell = solve_cells([([parse_weapon(weapon)], parse_target("10x T4 Sv3+ W2"), {})])[0]
    fast, slow = cell.headline(GAME.metrics), headline(GAME, cell.result())
    assert [m for m, _, _ in fast] == [m for m, _, _ in slow]
    assert np.allclose([v for _, v, _ in fast], [v for _, v, _ in slow], rtol=0, atol=1e-12)
    assert all(np.isnan(e) for _, _, e in fast + slow)
