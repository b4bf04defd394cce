"""Monte Carlo kernels against the exact engine (fixed seeds, statistical tolerances), and
determinism across thread counts."""

import dataclasses

import numba
import numpy as np
import pytest
from scipy import stats

from mathhammer.dust import Combatant, exact, exchange, load_unit, simulate
from mathhammer.dust.parse import parse_weapon_line

TRIALS = 100_000

CASES = [
    (["17-pounder: 4/1", ".50 cal: 3/1", ".30 cal: 3/1"], "5x Laser Grenadier: INFANTRY2", {}),
    (["17-pounder: 4/1", ".50 cal: 3/1", ".30 cal: 3/1"],
     "5x Laser Grenadier: INFANTRY2 [HARD COVER]", {"sustained": True}),
    (["4x Shotgun: 3/2", "Flamer (1): 2/1 [FLAME]"],
     "6x G: INFANTRY2 [SOFT COVER, DAMAGE RESILIENT]", {"cover_save_per": "damage_point"}),
    (["Phaser: 2z3", "Laser: 3/1 [LASER]"], "Walker: VEHICLE4 BOXES5 [HARD COVER]",
     {"sustained": True, "laser_chain_depth": 2}),
    (["G: 4/1 [DOUBLE SUCCESS, SNIPER]"], "4x G: INFANTRY2 [EVADE, SOFT COVER]",
     {"ruleset": "dust1947"}),
    (["AA: 6/1"], "Jet: AIRCRAFT1 BOXES3", {"sustained": True}),
]


def _chi_square_p(counts, pmf, trials):
    """Goodness-of-fit p-value, pooling cells with expected count below 5."""
    pmf = np.asarray(pmf, dtype=float)
    counts = np.asarray(counts, dtype=float)
    size = max(len(pmf), len(counts))
    pmf = np.pad(pmf, (0, size - len(pmf)))
    counts = np.pad(counts, (0, size - len(counts)))
    expected = pmf * trials
    keep = expected >= 5
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] < 5:  # fold a small pooled remainder into the largest cell
        big = np.argmax(exp[:-1])
        obs[big] += obs[-1]
        exp[big] += exp[-1]
        obs, exp = obs[:-1], exp[:-1]
    exp *= obs.sum() / exp.sum()
    if len(obs) < 2:  # a point mass: nothing to test beyond equal totals
        return 1.0
    return stats.chisquare(obs, exp).pvalue


@pytest.mark.parametrize("weapons, target, switches", CASES)
def test_monte_carlo_agrees_with_exact(weapons, target, switches):
    ex = exact(weapons, target, **switches)
    mc = simulate(weapons, target, trials=TRIALS, seed=11, **switches)
    assert mc.trials == TRIALS and mc.seed == 11
    for outcome in ex.outcomes:
        stderr = mc.stderr(outcome)
        assert abs(mc.mean(outcome) - ex.mean(outcome)) <= 5 * max(stderr, 1e-12), outcome
        counts = np.rint(mc.pmf(outcome).to_numpy() * TRIALS)
        assert _chi_square_p(counts, ex.pmf(outcome).to_numpy(), TRIALS) > 1e-4, outcome
    for event, p in ex.probabilities.items():
        assert abs(mc.probability(event) - p) <= 4 * np.sqrt(p * (1 - p) / TRIALS) + 1e-12


def test_unbounded_laser_chain_agrees_with_exact():
    # The kernel follows at most 64 generations; the exact engine lists the whole chain
    # (up to a 1e-15 tail). Both must describe the same law.
    weapons, target = "Laser: 3/1 [LASER]", "4x G: INFANTRY2 [SOFT COVER]"
    ex = exact(weapons, target, laser_chain_depth=None, sustained=True)
    mc = simulate(weapons, target, laser_chain_depth=None, sustained=True, trials=TRIALS,
                  seed=5)
    assert ex.mean("hits") == pytest.approx(3 * (5 / 9) / (1 - 1 / 3), abs=1e-12)
    for outcome in ("hits", "damage", "models_destroyed"):
        assert abs(mc.mean(outcome) - ex.mean(outcome)) <= 5 * mc.stderr(outcome), outcome
        counts = np.rint(mc.pmf(outcome).to_numpy() * TRIALS)
        assert _chi_square_p(counts, ex.pmf(outcome).to_numpy(), TRIALS) > 1e-4, outcome


def _units():
    rangers = load_unit("seed.toml", "Assault Rangers")
    grenadiers = load_unit("seed.toml", "Laser Grenadiers")
    rifle = parse_weapon_line("Laser rifle: INF 2/1 2/1 1/1 1/1 [LASER]")[0]
    return rangers, dataclasses.replace(grenadiers, weapons=(rifle,))


@pytest.mark.parametrize("policy", ["protect_special", "owner_optimal", "attacker_worst"])
def test_exchange_monte_carlo_agrees_with_exact(policy):
    rangers, grenadiers = _units()
    ex = exchange(rangers, grenadiers, rounds=3, casualty_policy=policy)
    mc = exchange(rangers, grenadiers, rounds=3, method="monte-carlo", trials=TRIALS, seed=3,
                  casualty_policy=policy)
    for outcome in ("a_losses", "b_losses"):
        assert abs(mc.mean(outcome) - ex.mean(outcome)) <= 5 * mc.stderr(outcome)
        counts = np.rint(mc.pmf(outcome).to_numpy() * TRIALS)
        assert _chi_square_p(counts, ex.pmf(outcome).to_numpy(), TRIALS) > 1e-4
    assert ex.inputs["casualty_policy"] == policy


def test_random_casualty_policy_monte_carlo_agrees_with_exact():
    rangers, grenadiers = _units()
    ex = exchange(rangers, grenadiers, rounds=3, casualty_policy="random")
    mc = exchange(rangers, grenadiers, rounds=3, method="monte-carlo", trials=TRIALS, seed=11,
                  casualty_policy="random")
    for outcome in ("a_losses", "b_losses"):
        assert abs(mc.mean(outcome) - ex.mean(outcome)) <= 5 * mc.stderr(outcome)
        counts = np.rint(mc.pmf(outcome).to_numpy() * TRIALS)
        assert _chi_square_p(counts, ex.pmf(outcome).to_numpy(), TRIALS) > 1e-4
    # The flamethrower cannot hurt the grenadiers: losing shotguns first (protect_special)
    # and the flamethrower first (owner_optimal) bracket losing models at random.
    shotguns_first = exchange(rangers, grenadiers, rounds=3, casualty_policy="protect_special")
    flamer_first = exchange(rangers, grenadiers, rounds=3, casualty_policy="owner_optimal")
    low, high = sorted((shotguns_first.mean("b_losses"), flamer_first.mean("b_losses")))
    assert low - 1e-12 <= ex.mean("b_losses") <= high + 1e-12


def test_same_seed_same_bits_on_any_thread_count():
    weapons = ["4x Shotgun: 3/1", "Phaser: 2z3", "Laser: 2/1 [LASER]"]
    target = "5x G: INFANTRY2 [SOFT COVER]"
    rangers, grenadiers = _units()
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = simulate(weapons, target, trials=30_000, seed=9).to_dict()
        one_x = exchange(rangers, grenadiers, 2, method="monte-carlo", trials=30_000,
                         seed=9).to_dict()
        numba.set_num_threads(max(2, before))
        two = simulate(weapons, target, trials=30_000, seed=9).to_dict()
        two_x = exchange(rangers, grenadiers, 2, method="monte-carlo", trials=30_000,
                         seed=9).to_dict()
    finally:
        numba.set_num_threads(before)
    assert one == two
    assert one_x == two_x
    other = simulate(weapons, target, trials=30_000, seed=10).to_dict()
    assert other != one


def test_exchange_squad_against_vehicle(tmp_path):
    from mathhammer.dust import load_units

    path = tmp_path / "units.toml"
    path.write_text('''
[units.Walker]
profile = "VEHICLE3 BOXES3 [SOFT SAVE HIT]"
weapons = ["MG: INF 3/1 3/1 2/1 2/1", "Cannon: INF 1/2 1/2 1/2 1/1 VEH 2/1 2/1 2/1 2/1 1/1 1/1 1/1"]

[units.Tankhunters]
profile = "INFANTRY2"
weapons = ["Rifle: INF 2/1 2/1 1/1 1/1", "Panzerfaust (1): INF - - - - VEH 3/2 3/2 2/2 2/2 2/1 2/1 1/1"]
models = [{ count = 3, weapons = ["Rifle"] }, { count = 1, weapons = ["Panzerfaust"] }]
''')
    units = load_units(path)
    walker, hunters = units["Walker"], units["Tankhunters"]
    for policy in ("protect_special", "attacker_worst"):
        ex = exchange(hunters, Combatant(walker, cover="soft"), rounds=3,
                      casualty_policy=policy)
        mc = exchange(hunters, Combatant(walker, cover="soft"), rounds=3, casualty_policy=policy,
                      method="monte-carlo", trials=TRIALS, seed=8)
        for outcome in ("a_losses", "b_losses"):
            assert abs(mc.mean(outcome) - ex.mean(outcome)) <= 5 * mc.stderr(outcome)
        p = ex.probability("b_destroyed")
        assert abs(mc.probability("b_destroyed") - p) <= 4 * np.sqrt(p * (1 - p) / TRIALS)
    # losing the panzerfaust first (attacker_worst) saves the walker more often
    worst = exchange(hunters, walker, rounds=3, casualty_policy="attacker_worst")
    best = exchange(hunters, walker, rounds=3, casualty_policy="protect_special")
    assert worst.probability("b_destroyed") < best.probability("b_destroyed")
