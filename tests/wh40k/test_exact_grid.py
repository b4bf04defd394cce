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


_PLASMA = '5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]'
_LASCANNON = '2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1'


@pytest.mark.parametrize("lines,row_counts", [
    ((_PLASMA, _LASCANNON), {3, 4}),   # some cells [HAZARDOUS]: one row more
    ((_LASCANNON,), {3}),              # none: every cell the same three rows
    ((_PLASMA,), {4})])                # all: every cell four rows
def test_every_cells_headlines_at_once_are_each_cells_headline(lines, row_counts):
    """ExactCells.headlines (a comparison frame's fast path) gives the rows of each cell's
    headline: batched cells, cells solved alone (Command Re-roll, two lines) and
    [HAZARDOUS] ones alike, in order."""
    from mathhammer.wh40k.api import GAME

    weapons = [parse_weapon(line) for line in lines]
    targets = [parse_target(t) for t in ("10x T3 Sv5+ W1", "5x T4 Sv3+ W2", "T10 Sv3+ W12")]
    cells = [([w], t, {}) for w in (BOLTER, *weapons) for t in targets]
    cells += [([BOLTER, weapons[0]], targets[1], {}), ([weapons[0]], targets[0],
                                                        {"command_reroll": "hit"})]
    if row_counts == {4}:
        cells = [cell for cell in cells if cell[0][-1] is weapons[0]]
    answers = solve_cells(cells)
    counts, metrics, values = answers.headlines(GAME.metrics)
    each = [answers[i].headline(GAME.metrics) for i in range(len(cells))]
    assert counts == [len(rows) for rows in each]
    assert set(counts) == row_counts
    assert metrics == [m for rows in each for m, _, _ in rows]
    assert values.tolist() == [v for rows in each for _, v, _ in rows]
    assert answers[-1].result().mean("damage") == values[-len(each[-1])]


def test_an_exact_grid_frame_is_the_same_with_or_without_its_results():
    """core's frame reads a batched grid's figures at once, or cell by cell when it also
    stores each cell's Result: the same frame (a Result's means are summed in another
    order: equal to rounding)."""
    import pandas as pd

    import mathhammer as mh

    weapons = {"Plasma": '5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]',
               "Bolters": 'Bolter: 24" A2 BS3+ S4 AP0 D1',
               "Both": ['Bolter: 24" A2 BS3+ S4 AP0 D1', 'Gun: 24" A1 BS4+ S5 AP0 D1']}
    targets = ["GEQ", "MEQ", "TEQ"]
    fast = mh.compare(weapons, targets, method="exact")
    kept = mh.compare(weapons, targets, method="exact", keep_results=True)
    slow, results = kept.frame, kept.results
    pd.testing.assert_frame_equal(fast, slow, check_exact=False, rtol=1e-12, atol=1e-15)
    assert len(results) == 9 and set(fast["metric"]) >= {"expected_attacker_mortal_wounds"}


def test_best_damage_rerolls_in_a_grid_equal_the_single_question():
    # each cell solved alone by the policy search (exact_engine/policies.py); the hand case
    # of tests/wh40k/exact_engine/test_policies.py is 1525/1458
    import mathhammer as mh

    weapons = {"A": "Heavy gun: A4 BS3+ S8 AP-2 DD6", "B": "Gun: A2 BSN/A S8 AP0 DD3 [TORRENT]"}
    targets = ["3x T6 Sv3+ W4", "2x T4 Sv- W3"]
    for options in ({"reroll_damage": "best"}, {"command_reroll": "damage_best"},
                    {"reroll_damage": "best", "reroll_goal": "unit_destroyed"}):
        frame = mh.compare(weapons, targets, method="exact", **options)
        for (name, line) in weapons.items():
            for target in targets:
                alone = mh.exact(line, target, **options)
                row = frame[(frame.attacker == name) & (frame.target == target)
                            & (frame.metric == "expected_models_destroyed")]
                assert float(row.value.iloc[0]) == pytest.approx(
                    alone.mean("models_destroyed"), abs=1e-12)
    frame = mh.compare(weapons, targets, method="exact", reroll_damage="best")
    cell = frame[(frame.attacker == "B") & (frame.target == "2x T4 Sv- W3")
                 & (frame.metric == "expected_models_destroyed")]
    assert float(cell.value.iloc[0]) == pytest.approx(1525 / 1458, abs=1e-12)
