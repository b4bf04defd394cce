"""The Command Re-roll in the Monte Carlo engine: once per activation, on the first roll that
fails (the exact engine: ``test_exact_command_reroll.py``).

Expectations are derived by hand where the sum is short, and otherwise taken from the
independent oracle by enumerating every dice path (``tests/wh40k/oracle.py``); the Monte Carlo
engine must agree within 5 standard errors and pass a chi-square test.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy.stats import chisquare

import mathhammer as mh
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k.parse import parse_target, parse_weapon
from tests.wh40k.oracle import reference_pmfs

TRIALS = 300_000


def _binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def _assert_mean(weapon, target, expected: Fraction, seed: int, **options) -> None:
    r = mh.simulate(weapon, target, trials=TRIALS, seed=seed, **options)
    assert abs(r.mean("damage") - float(expected)) < 5 * r.stderr("damage")


def test_hit_command_reroll_by_hand() -> None:
    # 3 attacks hitting on 4+: 3/2 hits, plus 1/2 when at least one failed (1 - 1/8);
    # each hit wounds on 2+ (S10 v T1) and kills a W1 model.
    expected = Fraction(5, 6) * (Fraction(3, 2) + Fraction(7, 8) * Fraction(1, 2))
    _assert_mean("A3 BS4+ S10 AP0 D1", "10x T1 Sv- W1", expected, 1, command_reroll="hit")


def test_wound_command_reroll_by_hand() -> None:
    # 3 automatic hits wounding on 4+: 3/2 wounds, plus 1/2 when at least one failed.
    expected = Fraction(3, 2) + Fraction(7, 8) * Fraction(1, 2)
    _assert_mean("A3 BSN/A S4 AP0 D1 [TORRENT]", "10x T4 Sv- W1", expected, 2,
                 command_reroll="wound")


def test_save_command_reroll_by_hand() -> None:
    # k wounds (k ~ Binomial(3, 5/6)) against Sv4+: k/2 failed saves, minus 1/2 when at
    # least one failed (the defender re-rolls the first).
    expected = sum(p * (Fraction(k, 2) - (1 - Fraction(1, 2 ** k)) * Fraction(1, 2))
                   for k, p in _binomial(3, Fraction(5, 6)).items())
    _assert_mean("A3 BSN/A S10 AP0 D1 [TORRENT]", "10x T1 Sv4+ W1", expected, 3,
                 command_reroll="save")


def test_damage_command_reroll_by_hand() -> None:
    # One D6 Damage roll: a 1-3 (below 3.5) is rolled again: 1/2 * 5 + 1/2 * 3.5 = 17/4.
    expected = Fraction(5, 6) * Fraction(17, 4)
    _assert_mean("A1 BSN/A S10 AP0 DD6 [TORRENT]", "T1 Sv- W50", expected, 4,
                 command_reroll="damage")


CASES = {
    "hit, once across two batches": (["A1 BS4+ S4 AP0 D1", "A1 BS4+ S4 AP0 D1"],
                                     "3x T4 Sv- W1", {"command_reroll": "hit"}),
    "hit, not on a die already re-rolled": (["A2 BS3+ S4 AP0 D1"], "3x T4 Sv- W1",
                                            {"command_reroll": "hit", "reroll_hits": "ones"}),
    "wound with devastating": (["A2 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS]"],
                               "2x T4 Sv5+ W2", {"command_reroll": "wound"}),
    "save against two batches": (["A1 BSN/A S4 AP-1 D1 [TORRENT]",
                                  "A1 BSN/A S4 AP0 D2 [TORRENT]"],
                                 "2x T4 Sv4+ W2", {"command_reroll": "save"}),
    "damage D3, devastating": (["A2 BSN/A S4 AP0 DD3 [TORRENT, DEVASTATING WOUNDS]"],
                               "2x T4 Sv- W3", {"command_reroll": "damage", "crit_wounds": 5}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_monte_carlo_matches_brute_force(name: str) -> None:
    lines, target_line, options = CASES[name]
    expected = reference_pmfs([parse_weapon(w) for w in lines], parse_target(target_line),
                              **options)["damage"]
    pmf = np.array([float(expected.get(k, 0)) for k in range(max(expected) + 1)])
    r = mh.simulate(lines, target_line, trials=TRIALS, seed=10 + list(CASES).index(name),
                    **options)
    mean = float(np.arange(len(pmf)) @ pmf)
    assert abs(r.mean("damage") - mean) < 5 * r.stderr("damage")
    observed = np.zeros(len(pmf))
    probs = r.distributions["damage"].probabilities
    assert len(probs) <= len(pmf)
    observed[: len(probs)] = np.rint(np.asarray(probs) * TRIALS)
    keep = pmf * TRIALS >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(pmf[keep], pmf[~keep].sum()) * TRIALS
    if exp[-1] < 5:
        obs, exp = obs[:-1], exp[:-1]
    assert chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-4


def test_refusals() -> None:
    with pytest.raises(OptionError, match="overwatch or indirect"):
        mh.simulate("A3 BS4+ S10 AP0 D1", "10x T1 Sv- W1", command_reroll="hit",
                    overwatch=True, trials=10)
    with pytest.raises(UnsupportedError, match="already re-rolled"):
        mh.simulate("A1 BS3+ S10 AP0 DD6", "T1 Sv- W9", command_reroll="damage",
                    reroll_damage="ones", trials=10)
    with pytest.raises(OptionError, match="command_reroll='armour' is not a roll.*hit, wound"):
        mh.simulate("A1 BS3+ S10 AP0 DD6", "T1 Sv- W9", command_reroll="armour", trials=10)


def test_command_line_flag(capsys) -> None:
    import json

    from mathhammer.cli import main

    code = main(["simulate", "A1 BSN/A S10 AP0 DD6 [TORRENT]", "--target", "T1 Sv- W50",
                 "--command-reroll", "damage", "--trials", "200000", "--seed", "5", "--json"])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 0
    assert abs(data["damage"]["mean"] - 5 / 6 * 17 / 4) < 5 * data["damage"]["stderr"]


def test_a_hit_re_roll_in_overwatch_is_allowed_when_no_weapon_rolls_to_hit() -> None:
    # [TORRENT] hits automatically, so the re-roll is never spent: the same law as without it
    flamer = 'Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT]'
    with_it = mh.exact(flamer, "10x T3 Sv5+ W1", command_reroll="hit", overwatch=True)
    without = mh.exact(flamer, "10x T3 Sv5+ W1", overwatch=True)
    assert np.allclose(with_it.pmf("damage"), without.pmf("damage"))
    with pytest.raises(OptionError, match="overwatch or indirect"):
        mh.exact([flamer, "A3 BS4+ S10 AP0 D1"], "10x T1 Sv- W1", command_reroll="hit",
                 overwatch=True)
