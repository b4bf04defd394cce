"""A first answer without compiling (issue 43): trials drawn from the exact distribution.

Expected values come from the exact engine (itself checked against brute force elsewhere):
the draws must follow its law (chi-square goodness of fit, means within 5 standard errors),
models destroyed must be the function of wounds lost the rules make it, and the command line
must say which sampler answered.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.wh40k import first_answer
from mathhammer.wh40k.first_answer import EXACT_DRAWS, simulate_from_exact

BOLTERS = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'
GUARD = "10x Guardsman: T3 Sv5+ W1 [INFANTRY]"
#: W2 models, D2-D3 damage and a hazardous weapon: wounds lost and models destroyed differ
PLASMA = ['5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1, HAZARDOUS]',
          'Heavy bolter: 36" A3 BS4+ S5 AP-1 DD3 [SUSTAINED HITS 1]']
MARINES = "5x Intercessor: T4 Sv3+ W2 [INFANTRY]"


def _fits(counts: np.ndarray, pmf: np.ndarray) -> float:
    """p-value of a chi-square test of ``counts`` against ``pmf`` (tiny cells pooled)."""
    expected = pmf * counts.sum()
    keep = expected >= 5
    observed = np.append(counts[keep], counts[~keep].sum())
    expected = np.append(expected[keep], expected[~keep].sum())
    if expected[-1] == 0:
        observed, expected = observed[:-1], expected[:-1]
    return float(stats.chisquare(observed, expected * observed.sum() / expected.sum()).pvalue)


@pytest.mark.parametrize("weapons, target, options", [
    (BOLTERS, GUARD, {"half_range": True, "stationary": True}),
    (PLASMA, MARINES, {"half_range": True}),
    ('3x Lascannon: 48" A1 BS3+ S12 AP-3 DD6+1', "3x Ork Nob: T5 Sv4+ W3 FNP6+ [INFANTRY]",
     {}),
])
def test_draws_follow_the_exact_law(weapons, target, options):
    exact = mh.exact(weapons, target, **options)
    drawn = simulate_from_exact(weapons, target, trials=200_000, seed=11, **options)
    assert drawn.method == "monte-carlo" and drawn.inputs["engine"] == EXACT_DRAWS
    assert set(drawn.distributions) == set(exact.distributions)
    for outcome, law in exact.distributions.items():
        sample = drawn.distributions[outcome]
        counts = np.zeros(len(law.probabilities), dtype=np.int64)
        seen = np.rint(sample.probabilities * drawn.trials).astype(np.int64)
        counts[: len(seen)] = seen
        assert abs(sample.mean - law.mean) < 5 * sample.stderr + 1e-12, outcome
        assert _fits(counts, law.probabilities) > 1e-4, outcome
    p, p_exact = drawn.probability("unit_destroyed"), exact.probability("unit_destroyed")
    assert abs(p - p_exact) < 5 * max(drawn.probability_stderr("unit_destroyed"), 1e-9) + 1e-12


def test_models_destroyed_is_the_function_of_wounds_lost_in_every_trial():
    """W2 models: k wounds lost is k // 2 models destroyed, ten wounds the whole unit. The
    draws count both from the same trials, so the two histograms agree exactly."""
    drawn = simulate_from_exact(PLASMA, MARINES, trials=50_000, seed=3, half_range=True)
    wounds = np.rint(drawn.distributions["damage"].probabilities * 50_000).astype(int)
    models = np.rint(drawn.distributions["models_destroyed"].probabilities * 50_000).astype(int)
    padded = np.zeros(11, dtype=int)
    padded[: len(wounds)] = wounds
    expected = np.append(padded[:-1].reshape(5, 2).sum(axis=1), padded[-1])
    assert models.tolist() == expected[: len(models)].tolist()
    assert drawn.probability("unit_destroyed") == pytest.approx(padded[-1] / 50_000, abs=1e-12)


def test_one_seed_one_answer_and_other_seeds_other_draws():
    first = simulate_from_exact(BOLTERS, GUARD, trials=10_000, seed=5)
    again = simulate_from_exact(BOLTERS, GUARD, trials=10_000, seed=5)
    other = simulate_from_exact(BOLTERS, GUARD, trials=10_000, seed=6)
    assert first.to_dict() == again.to_dict()
    assert first.to_dict() != other.to_dict()
    child = np.random.SeedSequence(5).spawn(2)[1]
    assert simulate_from_exact(BOLTERS, GUARD, trials=100, seed=child).inputs[
        "seed_spawn_key"] == [1]


def test_questions_outside_one_chain_are_left_to_the_kernel():
    """A Command Re-roll's law is not one chain of wounds lost, nor is a target of several
    model groups (a scenario's or a roster's unit): no draws, the kernel answers."""
    import dataclasses

    from mathhammer.wh40k.api import Question

    assert simulate_from_exact(BOLTERS, GUARD, trials=1_000, seed=1,
                               command_reroll="hit") is None
    plan = Question(BOLTERS, GUARD, {}).exact_plan
    two_groups = dataclasses.replace(plan, groups=np.concatenate([plan.groups, plan.groups]))
    assert first_answer.draw_tallies(two_groups, 1_000, seed=1) is None
    assert first_answer.draw_tallies(plan, 1_000, seed=1) is not None


def _cli(capsys, *args):
    code = main(["simulate", BOLTERS, "--target", GUARD, "--trials", "20000", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_first_run_answers_from_the_exact_law_and_compiles_in_the_background(
        capsys, monkeypatch):
    started = []
    monkeypatch.setattr(first_answer, "kernels_compiled", lambda: False)
    monkeypatch.setattr("mathhammer.core.background_compile.compile_in_background",
                        lambda engines: started.append(list(engines)) or True)
    code, out, _ = _cli(capsys)
    assert code == 0 and started == [["40k"]]
    assert "Engine: Monte Carlo drawn from the exact distribution, 20,000 trials, seed 1" in out
    code, out, _ = _cli(capsys, "--json")
    assert json.loads(out)["engine"] == EXACT_DRAWS


def test_a_compiled_kernel_answers_as_always(capsys, monkeypatch):
    monkeypatch.setattr(first_answer, "kernels_compiled", lambda: True)
    monkeypatch.setattr("mathhammer.core.background_compile.compile_in_background",
                        lambda engines: pytest.fail("nothing to compile"))
    code, out, _ = _cli(capsys, "--json")
    assert code == 0 and "engine" not in json.loads(out)
    kernel = mh.simulate(BOLTERS, GUARD, trials=20_000, seed=1)
    assert json.loads(out)["damage"]["mean"] == kernel.mean("damage")   # the same bits


def test_the_sampler_can_be_chosen_and_refuses_what_it_cannot_draw(capsys, monkeypatch):
    monkeypatch.setattr(first_answer, "kernels_compiled", lambda: False)
    monkeypatch.setattr("mathhammer.core.background_compile.compile_in_background", lambda engines: True)
    code, out, _ = _cli(capsys, "--sampler", "kernel", "--json")
    assert code == 0 and "engine" not in json.loads(out)
    code, out, _ = _cli(capsys, "--sampler", "exact-draws", "--json")
    assert code == 0 and json.loads(out)["engine"] == EXACT_DRAWS
    code, out, err = _cli(capsys, "--sampler", "exact-draws", "--command-reroll", "hit")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--sampler kernel" in err
    code, out, err = _cli(capsys, "--sampler", "exact-draws", "--target-stderr", "0.01")
    assert code == 2 and "--trials N" in err and len(err.strip().splitlines()) == 1


def test_trials_auto_always_runs_the_kernel(capsys, monkeypatch):
    monkeypatch.setattr(first_answer, "kernels_compiled", lambda: False)
    monkeypatch.setattr("mathhammer.core.background_compile.compile_in_background",
                        lambda engines: pytest.fail("the kernel answers"))
    code = main(["simulate", BOLTERS, "--target", GUARD, "--trials", "auto", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0 and "engine" not in json.loads(out)


def test_run_limits_are_the_kernels_whichever_engine_answers():
    # a fresh install answers from the exact distribution; it refuses what the kernel refuses
    from mathhammer.errors import OptionError

    with pytest.raises(OptionError, match="10,000,000,000 trials"):
        simulate_from_exact("Gun: A1 BS3+ S4 AP0 D1", "T4 Sv3+ W2", trials=10**10, seed=1)
