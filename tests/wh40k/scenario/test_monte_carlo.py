"""Scenario Monte Carlo against exact or independently computed answers (fixed seeds)."""

import dataclasses
import json

import numpy as np
import pytest
from scipy import stats

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.wh40k.parse import parse_target, parse_weapon
from mathhammer.wh40k.scenario.model import Activation, Scenario, WeaponChoice
from mathhammer.wh40k.scenario.api import ScenarioResult, run, run_scenario_monte_carlo
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit, attach

TRIALS = 120_000


def group(name, count, profile, *weapons):
    return ModelGroup(name, count, parse_target(profile),
                      tuple(CarriedWeapon.single(parse_weapon(w)) for w in weapons))


def assert_matches(mc_dist, exact_pmf, trials=TRIALS):
    """Mean within 5 standard errors and a chi-square goodness-of-fit test."""
    exact_pmf = np.asarray(exact_pmf, dtype=float)
    support = np.arange(len(exact_pmf))
    mean = float(support @ exact_pmf)
    assert abs(mc_dist.mean - mean) < 5 * mc_dist.stderr + 1e-12
    observed = np.zeros(len(exact_pmf))
    observed[: len(mc_dist.probabilities)] = mc_dist.probabilities[: len(exact_pmf)] * trials
    assert len(mc_dist.probabilities) <= len(exact_pmf)
    expected = exact_pmf * trials
    keep = expected >= 5
    obs = np.append(observed[keep], observed[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] < 5:  # fold a small pooled tail into the last kept cell
        obs[-2] += obs[-1]
        exp[-2] += exp[-1]
        obs, exp = obs[:-1], exp[:-1]
    assert stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-4


@pytest.mark.parametrize("use_counts", [1, 0])
def test_two_weapon_types_at_one_target_match_the_exact_engine(use_counts):
    rifles = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
    hb = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'
    squad = Unit("Squad", (group("Marine", 4, "T4 Sv3+ W2", rifles),
                           group("Gunner", 1, "T4 Sv3+ W2", hb)))
    target = Unit("Target", (group("Trooper", 6, "T4 Sv3+ W2 [INFANTRY]"),))
    sc = Scenario({"Squad": squad, "Target": target},
                  (Activation("shooting", "Squad", "Target"),))
    plan = dataclasses.replace(compile_scenario(sc), use_counts=use_counts)
    hists = run_scenario_monte_carlo(plan, TRIALS, 11)
    result = ScenarioResult.from_histograms(plan, TRIALS, 11, *hists)
    exact = mh.exact([f"4x {rifles}", hb], "6x T4 Sv3+ W2 [INFANTRY]")
    assert_matches(result.wounds_lost("Target"), exact.distributions["damage"].probabilities)


def test_split_melee_attacks_match_single_targets():
    choppa = "Choppa: Melee A3 WS3+ S4 AP-1 D1"
    mob = Unit("Mob", (group("Boy", 6, "T5 Sv5+ W1", choppa),))
    grots = Unit("Grots", (group("Grot", 10, "T2 Sv7+ W1"),))
    marines = Unit("Marines", (group("Marine", 5, "T4 Sv3+ W2"),))
    act = Activation("fight", "Mob", weapons=(WeaponChoice("Choppa", split=(("Grots", 1),
                                                                          ("Marines", 2))),))
    sc = Scenario({"Mob": mob, "Grots": grots, "Marines": marines}, (act,),
                  sides={"Mob": "A", "Grots": "B", "Marines": "B"})
    result = run(sc, trials=TRIALS, seed=12)
    one = mh.exact("6x Choppa: Melee A1 WS3+ S4 AP-1 D1", "10x T2 Sv7+ W1")
    two = mh.exact("6x Choppa: Melee A2 WS3+ S4 AP-1 D1", "5x T4 Sv3+ W2")
    assert_matches(result.models_destroyed("Grots"), one.distributions["models_destroyed"].probabilities)
    assert_matches(result.wounds_lost("Marines"), two.distributions["damage"].probabilities)


def test_shoot_then_fight_back_with_fewer_models():
    rifles = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
    choppa = "Choppa: Melee A3 WS3+ S4 AP-1 D1"
    squad = Unit("Squad", (group("Marine", 5, "T4 Sv3+ W2", rifles),))
    mob = Unit("Mob", (group("Boy", 10, "T5 Sv5+ W1", choppa),))
    sc = Scenario({"Squad": squad, "Mob": mob},
                  (Activation("shooting", "Squad", "Mob"), Activation("fight", "Mob", "Squad")))
    result = run(sc, trials=TRIALS, seed=13)
    shot = mh.exact(f"5x {rifles}", "10x T5 Sv5+ W1").distributions["models_destroyed"]
    mixture = np.zeros(11)
    for killed, p in enumerate(shot.probabilities):
        if 10 - killed == 0:
            mixture[0] += p
            continue
        back = mh.exact(f"{10 - killed}x {choppa}", "5x T4 Sv3+ W2").distributions["damage"]
        mixture[: len(back.probabilities)] += p * back.probabilities
    assert_matches(result.models_destroyed("Mob", 0), shot.probabilities)
    assert_matches(result.wounds_lost("Squad"), mixture)


def test_attached_unit_with_a_character():
    # Bodyguard 5x W1 and a W4 CHARACTER Leader with the same effective save against AP-1
    # (Sv3+ -> 4+, InSv4+): each unsaved D1 wound kills a bodyguard, then wounds the Leader.
    gun = 'Gun: 24" A3 BS3+ S4 AP-1 D1'
    shooters = Unit("Shooters", (group("Gunner", 5, "T4 Sv3+ W2", gun),))
    body = Unit("Guard", (group("Veteran", 5, "T4 Sv3+ W1 [INFANTRY]"),))
    captain = Unit("Captain", (group("Captain", 1, "T4 Sv3+ InSv4+ W4 [CHARACTER, INFANTRY]"),))
    unit = attach(body, captain)
    sc = Scenario({"Shooters": shooters, "Guard": unit},
                  (Activation("shooting", "Shooters", "Guard"),))
    result = run(sc, trials=TRIALS, seed=14)
    unsaved = mh.exact(f"5x {gun}", "40x T4 Sv3+ W1").distributions["models_destroyed"]
    models = np.zeros(7)
    captain_dead = np.zeros(2)
    for u, p in enumerate(unsaved.probabilities):
        killed = min(u, 5) + (1 if u >= 9 else 0)
        models[killed] += p
        captain_dead[int(u >= 9)] += p
    assert_matches(result.models_destroyed("Guard"), models)
    captain = result.group_models_destroyed("Guard", "Captain")
    assert_matches(captain, captain_dead)


def test_hazard_rolls_wound_the_attacking_unit():
    plasma = 'Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [HAZARDOUS]'
    squad = Unit("Squad", (group("Gunner", 3, "T4 Sv3+ W10", plasma),))
    target = Unit("Target", (group("Trooper", 10, "T4 Sv3+ W1"),))
    sc = Scenario({"Squad": squad, "Target": target},
                  (Activation("shooting", "Squad", "Target"),))
    result = run(sc, trials=TRIALS, seed=15)
    # 3 hazard rolls failing on 1-2: Binomial(3, 1/3) mortal wounds, all on one W10 model.
    binom = stats.binom.pmf(np.arange(4), 3, 1 / 3)
    assert_matches(result.wounds_lost("Squad"), binom)


def test_three_round_duel_reports_who_wins_and_when(tmp_path):
    text = '''
rounds = 3
[units.Marines]
models = [{ name = "Intercessor", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1", "Knife: Melee A3 WS3+ S4 AP0 D1"] }]
[units.Boyz]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Slugga: 12\\" A1 BS5+ S4 AP0 D1 [PISTOL]", "Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Marines"
target = "Boyz"
[[activations]]
phase = "fight"
attacker = "Boyz"
target = "Marines"
[[activations]]
phase = "fight"
attacker = "Marines"
target = "Boyz"
'''
    path = tmp_path / "duel.toml"
    path.write_text(text)
    result = run(path, trials=100_000, seed=3)
    wiped = result.wiped_out()
    for side in ("A", "B"):
        rows = wiped[wiped.side == side]
        assert rows.p_wiped_out_by_then.is_monotonic_increasing
    total = result.sides.sum(axis=1)
    assert (total == 100_000).all()
    survival = result.survival()
    assert survival[survival.unit == "Boyz"].p_alive.is_monotonic_decreasing
    assert list(survival[survival.unit == "Boyz"]["round"]) == [0, 1, 2, 3]
    png = tmp_path / "survival.png"
    from mathhammer.charts import save
    save(result.plot(), png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| unit |" in result.to_markdown()
    # Each round's end state carries into the next: models destroyed never decreases.
    means = [result.models_destroyed("Boyz", cp).mean for cp in range(result.checkpoints)]
    assert all(a <= b + 1e-12 for a, b in zip(means, means[1:]))


def test_same_seed_same_bits_and_cli_json(tmp_path, capsys):
    text = '''
[units.Squad]
models = [{ name = "Intercessor", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1", "Close combat weapon: Melee A3 WS3+ S4 AP0 D1"] }]
[units.Mob]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]", weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Mob"
[[activations]]
phase = "fight"
attacker = "Mob"
target = "Squad"
'''
    path = tmp_path / "s.toml"
    path.write_text(text)
    assert main(["run", str(path), "--trials", "5000", "--seed", "2", "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["run", str(path), "--trials", "5000", "--seed", "2", "--json"]) == 0
    assert capsys.readouterr().out == first
    data = json.loads(first)
    block = data["units"]["Mob"]
    assert set(block) >= {"models_destroyed", "wounds_lost", "destroyed", "groups"}
    assert "Boy" in block["groups"] and len(data["activations"]) == 2
    assert sum(block["models_destroyed"]["pmf"].values()) == pytest.approx(1)
