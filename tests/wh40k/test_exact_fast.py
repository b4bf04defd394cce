"""The rewritten exact engine (issue 24) against the engine as it was before it.

:mod:`tests.wh40k.reference_exact` and :mod:`tests.wh40k.reference_exact_command` are the
engine of commit aad44c5, kept unchanged (itself checked against brute-force enumeration in
test_exact_vs_bruteforce.py and test_reference_vs_exact.py). The new engine memoises its
tables, raises generating functions to powers by Horner's scheme on preallocated tables and
squares small Markov steps; it must give the same pmfs to 1e-12 on generated situations with
units large enough to take every branch (squared and wound-by-wound chains, remembered and
rebuilt steps), first answers and remembered ones alike.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.errors import MathhammerError
from mathhammer.wh40k import api
from mathhammer.wh40k.exact_engine import (chains as exact, command as exact_command,
                                           tables as exact_tables)
from tests.wh40k import reference_exact, reference_exact_command
from tests.wh40k.test_reference_vs_exact import ABILITIES, OPTIONS, RANGED_ONLY

TOLERANCE = 1e-12


def _previous(plan) -> dict[str, np.ndarray]:
    return (reference_exact_command if plan.command_reroll else reference_exact).solve(plan)


def _current(plan) -> dict[str, np.ndarray]:
    return (exact_command if plan.command_reroll else exact).solve(plan)


def _assert_same(lines, target, options) -> None:
    """The new engine (fresh, then remembered) equals the previous one on this situation."""
    try:
        plan = api.GAME.compile(lines, target, **options).exact_plan
        expected = _previous(plan)
    except MathhammerError:
        assume(False)
        return
    for fresh in (True, False):
        if fresh:
            api.clear_caches()
        got = _current(plan)
        for name, pmf in expected.items():
            size = max(len(pmf), len(got[name]))
            a, b = np.zeros(size), np.zeros(size)
            a[: len(pmf)], b[: len(got[name])] = pmf, got[name]
            assert np.abs(a - b).max() <= TOLERANCE, (lines, target, options, name, fresh)
            assert abs(b.sum() - 1.0) <= TOLERANCE
        result = mh.exact(lines, target, **options)
        assert result.mean("damage") == pytest.approx(
            float(np.arange(len(expected["damage"])) @ expected["damage"]), abs=1e-9)


@st.composite
def larger_scenarios(draw):
    """Weapon lines with many attack dice against units of up to 30 models (the brute-force
    generator keeps both tiny)."""
    melee = draw(st.booleans())
    pool = [a for a in ABILITIES if not (melee and a in RANGED_ONLY)]
    abilities = draw(st.lists(st.sampled_from(pool), max_size=3, unique=True))
    attacks = draw(st.sampled_from(["1", "2", "3", "D3", "D6", "2D6"]))
    damage = draw(st.sampled_from(["1", "2", "3", "D3", "D6", "D6+1", "2D6"]))
    count = draw(st.sampled_from([1, 2, 5, 10]))
    line = (f"{count}x {'Melee' if melee else '24' + chr(34)} A{attacks} "
            f"{'WS' if melee else 'BS'}{draw(st.integers(2, 6))}+ S{draw(st.integers(3, 12))} "
            f"AP{-draw(st.integers(0, 3))} D{damage}")
    if abilities:
        line += f" [{', '.join(abilities)}]"
    lines = [line]
    if draw(st.booleans()):
        lines.append(f"{draw(st.sampled_from([1, 3]))}x {'Melee' if melee else '24' + chr(34)}"
                     f" A2 {'WS' if melee else 'BS'}3+ S5 AP-1 D{draw(st.sampled_from(['1', '2']))}")
    models = draw(st.sampled_from([1, 3, 5, 10, 20, 30]))
    wounds = draw(st.sampled_from([1, 2, 3, 4, 6, 12]))
    target = (f"{models}x T{draw(st.integers(3, 10))} "
              f"Sv{draw(st.sampled_from(['2+', '3+', '4+', '6+', '-']))} W{wounds}")
    if draw(st.booleans()):
        target += f" FNP{draw(st.integers(4, 6))}+"
    if draw(st.integers(0, 3)) == 0:
        target += f" FNP{draw(st.integers(3, 6))}+(mortal)"
    target += " [INFANTRY]"
    names = draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=3, unique=True))
    options = {name: draw(st.sampled_from(OPTIONS[name])) for name in names}
    if draw(st.integers(0, 4)) == 0:
        options["command_reroll"] = draw(st.sampled_from(["hit", "wound", "save", "damage"]))
    if draw(st.integers(0, 5)) == 0:
        options["dw_timing"] = "unit_end"
    if draw(st.integers(0, 5)) == 0:
        options["edition"] = 10
        options["devastating_text"] = draw(st.sampled_from(["launch", "final"]))
    return lines, target, options


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(larger_scenarios())
def test_new_engine_equals_previous_engine_on_generated_situations(scenario) -> None:
    _assert_same(*scenario)


@pytest.mark.parametrize("lines, target, options", [
    (['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'], "10x Guardsman: T3 Sv5+ W1", {}),
    (['4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'], "MEQ", {}),
    (['2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1'], "Rhino: T10 Sv3+ W12", {}),
    (["5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]"],
     "5x Terminator: T5 Sv2+ InSv4+ W3", {}),
    (['10x Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT]'], "20x Cultist: T3 Sv6+ W1 FNP5+", {}),
    # more than MAX_SQUARING_STATES and MAX_CACHED_STATES states, deferred critical wounds
    (['10x Gun: 24" A3 BS3+ S5 AP-1 D2 [DEVASTATING WOUNDS, SUSTAINED HITS 1]'],
     "30x T4 Sv4+ W6 FNP5+", {"dw_timing": "unit_end"}),
    (['3x Gun: 24" A4 BS3+ S5 AP-1 DD3 [DEVASTATING WOUNDS]'], "20x T4 Sv4+ W6",
     {"edition": 10, "devastating_text": "launch", "command_reroll": "damage"}),
    (['6x Gun: 24" AD6 BS3+ S5 AP-1 D1 [LETHAL HITS, SUSTAINED HITS D3]'], "60x T3 Sv5+ W1",
     {"command_reroll": "wound"}),
])
def test_new_engine_equals_previous_engine_on_larger_units(lines, target, options) -> None:
    _assert_same(lines, target, options)


def test_mix_powers_is_the_mixture_of_powers() -> None:
    """Horner's scheme on a preallocated table against powers multiplied out one by one."""
    rng = np.random.default_rng(5)
    for shape in ((2, 1), (3, 1), (2, 2), (3, 3), (4, 2)):
        gf = rng.random(shape)
        gf /= gf.sum()
        n_pmf = rng.random(9) * (rng.random(9) < 0.6)
        n_pmf[7] = 0.5
        n_pmf /= n_pmf.sum()
        expected = np.zeros((1, 1))
        power = np.ones((1, 1))
        for n, p in enumerate(n_pmf):
            if n:
                power = exact_tables.convolve(power, gf)
            expected = exact_tables.add_padded(expected, p * power)
        got = exact_tables.mix_powers(gf, n_pmf)
        size = (max(got.shape[0], expected.shape[0]), max(got.shape[1], expected.shape[1]))
        assert np.allclose(exact_tables.add_padded(np.zeros(size), got),
                           exact_tables.add_padded(np.zeros(size), expected),
                           rtol=1e-13, atol=1e-15)


def test_tail_probabilities_keep_their_relative_precision() -> None:
    """No FFT and no subtraction: the chance that 40 hits all get through is right to many
    digits, not drowned in rounding noise of 1e-17."""
    e = mh.exact('40x Gun: 24" A1 BS4+ S1 AP0 D1', "40x T10 Sv2+ W1")
    per_attack = (1 / 2) * (1 / 6) * (1 / 6)   # hit 4+, wound 6+, save fails on 1
    assert e.pmf("models_destroyed").iloc[-1] == pytest.approx(per_attack ** 40, rel=1e-9)


def test_remembered_tables_are_read_only_and_answers_repeat() -> None:
    api.clear_caches()
    first = mh.exact(['5x Gun: 24" A2 BS3+ S5 AP-1 D2'], "MEQ").pmf("damage")
    plan = api.GAME.compile(['5x Gun: 24" A2 BS3+ S5 AP-1 D2'], "MEQ").exact_plan
    joint = exact.unsaved_and_devastating_pmf(plan, 0)
    step, _ = exact.batch_steps(plan, 0, 10, 2)
    for table in (joint, step, plan.batch):
        with pytest.raises(ValueError):
            table[0, 0] = 1.0
    again = mh.exact(['5x Gun: 24" A2 BS3+ S5 AP-1 D2'], "MEQ").pmf("damage")
    assert (first.to_numpy() == again.to_numpy()).all()


@pytest.mark.parametrize("line, target, options", [
    ('10x Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT]', "20x T3 Sv6+ W1", {}),
    ('3x Launcher: 48" AD3+1 BS3+ S6 AP-1 D1 [BLAST, RAPID FIRE D3]', "10x T3 Sv5+ W1",
     {"half_range": True, "reroll_attacks": "ones"}),
    ('4x Gun: 24" A2 BS3+ S4 AP0 D1 [RAPID FIRE 1]', "MEQ", {"half_range": True}),
])
def test_one_weapon_to_the_power_of_the_weapons_is_the_attack_dice_law(line, target,
                                                                         options) -> None:
    from mathhammer.wh40k.compile import N_WEAPONS, attack_dice_pmf

    plan = api.GAME.compile([line], target, **options).exact_plan
    row = plan.batch[0]
    got = exact_tables.power_1d(exact_tables.weapon_dice_pmf(row), int(row[N_WEAPONS]))
    expected = attack_dice_pmf(row)
    assert len(got) == len(expected)
    assert np.allclose(got, expected, rtol=1e-12, atol=1e-15)
