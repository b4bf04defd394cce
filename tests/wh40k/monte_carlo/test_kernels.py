"""The count-sampling path and the dice-by-dice path of the kernel agree with the exact engine."""

import dataclasses

import numpy as np
import pytest
from scipy import stats

import mathhammer as mh
from mathhammer.wh40k.api import GAME, run_monte_carlo

CASES = [
    ('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1', "10x T3 Sv5+ W1", {}),
    ('3x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1, LETHAL HITS]',
     "5x T4 Sv3+ W2", {"reroll_hits": "noncrit"}),
    ("4x Hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS, ANTI-INFANTRY 4+]",
     "5x T5 Sv2+ InSv4+ W3 [INFANTRY]", {"reroll_wounds": "ones"}),
    ('2x Cannon: 48" AD6+3 BS4+ S10 AP-1 D 3 [BLAST]', "20x T3 Sv6+ W1 FNP5+",
     {"reroll_saves": "ones"}),
    ('Big gun: 24" A300 BS5+ S3 AP0 D1', "60x T6 Sv4+ W1", {}),  # beyond the tables
    # Chained shortcuts: random attacks from the attack-dice table, [TORRENT], FNP kills.
    ('10x Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT]', "20x T3 Sv6+ W1 FNP5+", {}),
    ('3x Plasma: 24" AD3+1 BS3+ S8 AP-3 DD3 [RAPID FIRE D3]', "5x T5 Sv3+ W3 FNP6+",
     {"half_range": True, "reroll_hits": "ones"}),
    ('2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1', "1x T10 Sv3+ W12", {}),
    # Split chains: [LETHAL HITS] alone; [LETHAL HITS] with [DEVASTATING WOUNDS] and FNP;
    # [SUSTAINED HITS 2] with [DEVASTATING WOUNDS] (wound dice split after the hit draws).
    ('5x Bolter: 24" A2 BS3+ S4 AP0 D1 [LETHAL HITS]', "10x T4 Sv3+ W1", {}),
    ("3x Blade: Melee A4 WS3+ S5 AP-2 D1 [LETHAL HITS, DEVASTATING WOUNDS]",
     "5x T4 Sv3+ W2 FNP6+", {"reroll_hits": "ones"}),
    ('4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 2, DEVASTATING WOUNDS]',
     "10x T4 Sv3+ W3", {}),
    # 10th edition: devastating wounds held to the end (final text) or spilling (launch).
    ("4x Hammer: Melee A3 WS3+ S8 AP-2 D 3 [DEVASTATING WOUNDS]", "5x T5 Sv2+ InSv4+ W2",
     {"edition": 10, "crit_wounds": 5}),
    ("4x Hammer: Melee A3 WS3+ S8 AP-2 D 3 [DEVASTATING WOUNDS]", "5x T5 Sv2+ InSv4+ W2",
     {"edition": 10, "crit_wounds": 5, "devastating_text": "launch"}),
    ('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [LETHAL HITS]', "10x T3 Sv5+ W1 [STEALTH]",
     {"edition": 10, "cover": True}),
    # Damage drawn from its table (re-roll, random [MELTA X]); re-rolled A, random [BLAST X]
    ('2x Multi-melta: 18" A2 BS4+ S9 AP-4 DD6 [MELTA D6]', "T10 Sv3+ W16 FNP6+",
     {"half_range": True, "reroll_damage": "low"}),
    ('3x Cannon: 48" AD6 BS4+ S5 AP-1 D1 [BLAST D3]', "10x T4 Sv4+ W1",
     {"reroll_attacks": "low"}),
]
TRIALS = 150_000


def chi_square_pvalue(observed_counts, pmf):
    expected = np.zeros(max(len(pmf), len(observed_counts)))
    expected[: len(pmf)] = pmf * observed_counts.sum()
    observed = np.zeros_like(expected)
    observed[: len(observed_counts)] = observed_counts
    keep = expected >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] < 5:
        obs[-2] += obs[-1]
        exp[-2] += exp[-1]
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


@pytest.mark.parametrize("weapon, target, options", CASES)
@pytest.mark.parametrize("use_counts", [2, 1, 0])
def test_every_kernel_path_matches_exact(weapon, target, options, use_counts):
    plan = GAME.compile(weapon, target, **options).plan
    plan = dataclasses.replace(plan, use_counts=use_counts)
    tallies = run_monte_carlo(plan, TRIALS, seed=21)
    damage = tallies.histograms["damage"]
    exact = mh.exact(weapon, target, **options).distributions["damage"]
    support = np.arange(len(damage))
    mean = support @ damage / TRIALS
    sd = np.sqrt(((support - mean) ** 2) @ damage / TRIALS)
    assert abs(mean - exact.mean) < 5 * sd / np.sqrt(TRIALS)
    assert chi_square_pvalue(damage, exact.probabilities) > 1e-4


def test_paths_use_different_dice_but_the_same_seed_is_reproducible():
    plan = GAME.compile(CASES[0][0], CASES[0][1]).plan
    counts_a = run_monte_carlo(plan, 10_000, seed=5).histograms["damage"]
    counts_b = run_monte_carlo(plan, 10_000, seed=5).histograms["damage"]
    dice = run_monte_carlo(dataclasses.replace(plan, use_counts=0), 10_000,
                           seed=5).histograms["damage"]
    assert np.array_equal(counts_a, counts_b)
    assert not np.array_equal(counts_a, dice)


def _sequential(failed, damage, alive, current, wounds):
    """Allocate one failure at a time (05.04): the reference for the arithmetic shortcut."""
    lost = 0
    for _ in range(failed):
        if alive == 0:
            break
        taken = min(damage, current)
        lost += taken
        current -= taken
        if current == 0:
            alive -= 1
            current = wounds
    return lost, alive, current


def _reciprocals(damage, wounds):
    """The shortcut's reciprocals (sampling_tables.batch_shortcuts), or zeros where it sets
    none."""
    if not 0 < damage < wounds or wounds + damage >= 2 ** 16:
        return (0, 0)
    return (-(-2 ** 32 // damage), -(-2 ** 32 // -(-wounds // damage)))


def _compiled_allocation():
    import numba

    from mathhammer.wh40k.monte_carlo.kernels import _allocate_fixed

    @numba.njit
    def allocate(failed, damage, alive, current, wounds, damage_reciprocal, kill_reciprocal):
        return _allocate_fixed(failed, damage, alive, current, wounds,
                               (damage_reciprocal, kill_reciprocal))   # called from Python

    return allocate


def test_fixed_damage_allocation_shortcut_matches_one_at_a_time():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    allocate = _compiled_allocation()

    @settings(deadline=None, max_examples=400)
    @given(failed=st.integers(0, 40), damage=st.integers(1, 8), wounds=st.integers(1, 12),
           alive=st.integers(0, 10), data=st.data())
    def check(failed, damage, wounds, alive, data):
        current = data.draw(st.integers(1, wounds))
        current = current if alive else wounds
        expected = _sequential(failed, damage, alive, current, wounds)
        assert allocate(failed, damage, alive, current, wounds, 0, 0) == expected
        assert allocate(failed, damage, alive, current, wounds,
                        *_reciprocals(damage, wounds)) == expected

    check()


def test_the_reciprocals_divide_exactly_wherever_the_shortcut_sets_them():
    # large damage, W and counts: multiplying by the reciprocals against dividing (which the
    # test above checks against allocating one attack at a time)
    from hypothesis import given, settings
    from hypothesis import strategies as st

    allocate = _compiled_allocation()

    @settings(deadline=None, max_examples=600)
    @given(damage=st.integers(1, 2 ** 15 - 1), data=st.data(), alive=st.integers(1, 2 ** 20),
           failed=st.one_of(st.integers(0, 600), st.integers(0, 2 ** 18)))
    def check(damage, data, alive, failed):
        wounds = data.draw(st.integers(damage + 1, 2 ** 16 - damage - 1))
        current = data.draw(st.one_of(st.just(wounds), st.integers(1, wounds)))
        reciprocals = _reciprocals(damage, wounds)
        assert reciprocals != (0, 0)
        assert allocate(failed, damage, alive, current, wounds, *reciprocals) == \
            allocate(failed, damage, alive, current, wounds, 0, 0)

    check()


def test_shortcuts_are_taken_only_where_no_critical_or_group_matters():
    from mathhammer.wh40k.compile import CHAIN_KILLS, CHAIN_SPLIT, CHAIN_SUSTAINED, NO_CHAIN

    def shortcuts(case):
        plan = GAME.compile(case[0], case[1], **case[2]).plan
        return plan.shortcuts[0].tolist()

    # [fixed attack dice or -1, chain, attack-dice table, fixed damage in one step or 0,
    #  its two reciprocals for damage below W]
    assert shortcuts(CASES[0]) == [20, CHAIN_SPLIT, 0, 1, 0, 0]  # 10 rifles x A2
    assert shortcuts(CASES[1])[1] == NO_CHAIN                    # sustained + lethal hits
    assert shortcuts(CASES[2])[1] == CHAIN_SPLIT                 # devastating wounds
    assert shortcuts(CASES[5]) == [-1, CHAIN_KILLS, 1, 0, 0, 0]  # 10 x AD6, W1 FNP5+
    assert shortcuts(CASES[7]) == [2, CHAIN_SPLIT, 0, 0, 0, 0]   # random damage still chains
    assert shortcuts(CASES[8])[1] == CHAIN_SPLIT                 # lethal hits alone
    assert shortcuts(CASES[9])[1] == CHAIN_SPLIT
    assert shortcuts(CASES[10]) == [12, CHAIN_SUSTAINED, 0, 2, 2 ** 31, 2 ** 31]  # D2, W3
    assert shortcuts(CASES[11])[3] == 0                          # mortal wounds held to the end


ONE_STEP_CASES = [case[:2] + (case[2],) for case in CASES] + [
    # batches whose damage lands between each other's: fixed D2 and D3 mortal wounds, a
    # random-damage batch, then a D2 one against the wounded models it left
    (["4x Hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]",
      "Fist: Melee A4 WS3+ S8 AP-2 D 3 [DEVASTATING WOUNDS]",
      "Claw: Melee A3 WS3+ S5 AP-2 DD3", "2x Axe: Melee A2 WS4+ S6 AP-1 D2"],
     "5x T5 Sv2+ InSv4+ W3 [INFANTRY]", {}),
    (['5x Bolter: 24" A2 BS3+ S4 AP0 D1 [DEVASTATING WOUNDS]', '2x Melta: 12" A1 BS3+ S9 AP-4 D4'],
     "3x T6 Sv3+ W5", {}),
]


@pytest.mark.parametrize("weapon, target, options", ONE_STEP_CASES)
def test_fixed_damage_in_one_step_gives_the_bits_of_the_steps_one_by_one(weapon, target,
                                                                          options):
    from mathhammer.wh40k.compile import FIXED_DAMAGE

    plan = GAME.compile(weapon, target, **options).plan
    by_steps = dataclasses.replace(plan, shortcuts=plan.shortcuts.copy())
    by_steps.shortcuts[:, FIXED_DAMAGE] = 0
    one_step = run_monte_carlo(plan, 20_000, seed=8).histograms
    steps = run_monte_carlo(by_steps, 20_000, seed=8).histograms
    assert one_step.keys() == steps.keys()
    assert all(np.array_equal(one_step[k], steps[k]) for k in steps)


def test_the_one_step_cases_take_it():
    from mathhammer.wh40k.compile import FIXED_DAMAGE

    taken = [GAME.compile(*case[:2], **case[2]).plan.shortcuts[:, FIXED_DAMAGE].tolist()
             for case in ONE_STEP_CASES[-2:]]
    assert taken == [[2, 3, 0, 2], [1, 4]]


def test_attack_dice_table_is_the_exact_sum():
    from itertools import product

    from mathhammer.wh40k.compile import attack_dice_pmf

    plan = GAME.compile(CASES[6][0], CASES[6][1], **CASES[6][2]).plan
    pmf = attack_dice_pmf(plan.batch[0].tolist())
    # By enumeration: 3 weapons, each D3+1 attacks plus [RAPID FIRE D3] at half range.
    brute = np.zeros(len(pmf))
    for faces in product(range(1, 4), repeat=6):
        brute[sum(faces) + 3] += 1 / 3 ** 6
    assert np.allclose(pmf, brute, atol=1e-15)


def test_wound_dice_table_of_sustained_hits_is_exact():
    from itertools import product

    from mathhammer.wh40k.compile import WOUND_DICE

    # 3 attacks, BS4+, [SUSTAINED HITS 2]: per die 0 wound dice (1-3), 1 (4-5), 3 (a 6).
    plan = GAME.compile('3x Gun: 24" A1 BS4+ S4 AP0 D1 [SUSTAINED HITS 2]', "5x T4 Sv3+ W1").plan
    brute = np.zeros(10)
    for faces in product(range(1, 7), repeat=3):
        brute[sum(0 if f <= 3 else 1 if f <= 5 else 3 for f in faces)] += 1 / 6 ** 3
    cdf = plan.count_cdfs[0, WOUND_DICE, 0, :10]
    assert np.allclose(cdf, np.cumsum(brute), atol=1e-15)


def _run_kernel(kernel, plan, trials, seed):
    """One thread's share of every chunk through ``kernel``, as run_monte_carlo runs it."""
    from mathhammer.core.rng import chunk_streams
    from mathhammer.wh40k.api import _scratch
    from mathhammer.wh40k.monte_carlo.kernels import Histograms, Scratch

    streams, per_chunk = chunk_streams(trials, seed, 64)
    sizes = (plan.total_wounds + 1, plan.total_models + 1, plan.max_hazard_mortals + 1)
    hists = Histograms(*(np.zeros((64, n), dtype=np.int64) for n in sizes))
    n = plan.groups.shape[0]
    scratch = Scratch(_scratch(streams.shape[1], np.uint64), _scratch(n), _scratch(n),
                      _scratch(n), _scratch(7), _scratch(2))
    kernel(0, 1, streams, per_chunk, plan.kernel_arrays(), hists,
           Histograms(*(_scratch(k) for k in sizes)), scratch)
    return hists


def test_the_chain_loop_gives_the_bits_of_the_whole_kernel():
    from mathhammer.wh40k.monte_carlo.kernels import run_chain_chunks, run_chunks

    chains = 0
    for weapon, target, options in ONE_STEP_CASES + [
            ('3x Plasma: 24" A2 BS3+ S8 AP-3 D2 [HAZARDOUS]', "5x T5 Sv3+ W3", {})]:
        plan = GAME.compile(weapon, target, **options).plan
        if not plan.chains_only:
            continue
        chains += 1
        whole = _run_kernel(run_chunks, plan, 20_000, 4)
        short = _run_kernel(run_chain_chunks, plan, 20_000, 4)
        assert all(np.array_equal(a, b) for a, b in zip(whole, short)), weapon
    assert chains >= 12   # random attacks, FNP kills, random damage, sustained, devastating


def test_which_plans_the_chain_loop_takes():
    def chains_only(case, **more):
        return GAME.compile(case[0], case[1], **{**case[2], **more}).plan.chains_only

    assert chains_only(CASES[0]) and chains_only(CASES[5]) and chains_only(CASES[7])
    assert chains_only(CASES[10])                                   # sustained, devastating
    assert not chains_only(CASES[1])                                # sustained + lethal hits
    assert not chains_only(CASES[4])                                # beyond the tables
    assert not chains_only(CASES[11])                               # mortal wounds held
    assert not chains_only(CASES[0], command_reroll="hit")          # every die rolled
    plan = GAME.compile(*CASES[0][:2]).plan
    two_groups = dataclasses.replace(plan, groups=np.repeat(plan.groups, 2, axis=0))
    assert plan.chains_only and not two_groups.chains_only
