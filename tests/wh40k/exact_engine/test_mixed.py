"""The exact engine for units of several statlines (mathhammer/wh40k/exact_engine/mixed.py).

Two independent checks:

- brute force: a few-line enumerator written here from the rules (05.03-05.04: every save
  rolled together, sorted, inflicted lowest first on the group at the front, non-CHARACTER
  models before CHARACTERs, excess damage lost), walking every combination of save dice, for
  small fixed-damage attacks against two or three statlines;
- Monte Carlo: the whole-unit engine's pmfs of wounds lost and models destroyed (chi-square
  on whole pmfs, tests/agreement.py's pooled test, fixed seeds) on leaders with their own
  saves, Feel No Pain and Toughness, [SUSTAINED HITS], [LETHAL HITS], [DEVASTATING WOUNDS]
  (11th edition, 10th edition held to the end and spilling), [BLAST] and random damage.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer.wh40k.exact_engine.mixed import solve_activation
from mathhammer.wh40k.scenario.api import run
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.reader import load_scenario
from tests.agreement import MIN_P_VALUE, pooled_chisquare_pvalue

TRIALS = 100_000


def scenario(tmp_path: Path, weapons: list[str], models: list[str], leader: str | None = None,
             edition: int = 11, phase: str = "shooting"):
    """One activation of a one-model attacker carrying ``weapons`` against unit T."""
    def quoted(text: str) -> str:
        return '"' + text.replace('"', '\\"') + '"'

    lines = ["rounds = 1", "[rules]", f"edition = {edition}", "[units.A]", "models = [",
             f'  {{ name = "Shooter", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]", '
             f'weapons = [{", ".join(quoted(w) for w in weapons)}] }},', "]"]
    if leader:
        lines += ["[units.L]", "models = [", leader, "]"]
    lines += ["[units.T]", "models = [", *models, "]"]
    if leader:
        lines.append('attached = ["L"]')
    lines += ["[[activations]]", f'phase = "{phase}"', 'attacker = "A"', 'target = "T"']
    path = tmp_path / "scenario.toml"
    path.write_text("\n".join(lines))
    return load_scenario(path)


def model(name: str, count: int, profile: str) -> str:
    return f'  {{ name = "{name}", count = {count}, profile = "{profile}", weapons = [] }},'


def brute_force(attacks: int, p_save_roll: float, statlines: list[tuple[int, int, int]],
                damage: int) -> dict[int, float]:
    """Wounds lost: ``attacks`` attacks each reaching the save roll with ``p_save_roll``;
    ``statlines`` (models, W, face the save needs) in the order they are removed."""
    queue = [(w, save) for count, w, save in statlines for _ in range(count)]
    out: dict[int, float] = {}
    for n in range(attacks + 1):
        p_n = math.comb(attacks, n) * p_save_roll ** n * (1 - p_save_roll) ** (attacks - n)
        for faces in itertools.product(range(1, 7), repeat=n):
            model_index, left, lost = 0, queue[0][0], 0
            for face in sorted(faces):
                if model_index == len(queue):
                    break
                if face >= queue[model_index][1]:
                    continue   # saved
                taken = min(damage, left)
                lost += taken
                left -= taken
                if left == 0:
                    model_index += 1
                    left = queue[model_index][0] if model_index < len(queue) else 0
            out[lost] = out.get(lost, 0.0) + p_n / 6 ** n
    return out


@pytest.mark.parametrize("damage", [1, 2])
def test_sorted_saves_against_brute_force(tmp_path, damage) -> None:
    # S6 vs T3 wounds on 2+, [TORRENT]: an attack reaches the save roll with 5/6.
    s = scenario(tmp_path, [f'4x Gun: 12" A1 BSN/A S6 AP0 D{damage} [TORRENT]'],
                 [model("Boy", 1, "T3 Sv6+ W1 [INFANTRY]"),
                  model("Nob", 1, "T3 Sv4+ W2 [INFANTRY]")],
                 leader=model("Boss", 1, "T3 Sv2+ W3 [CHARACTER, INFANTRY]"))
    exact = solve_activation(compile_scenario(s))["damage"]
    expected = brute_force(4, 5 / 6, [(1, 1, 6), (1, 2, 4), (1, 3, 2)], damage)
    for lost, p in expected.items():
        assert exact[lost] == pytest.approx(p, abs=1e-12)
    assert sum(expected.values()) == pytest.approx(1.0)
    assert exact.sum() == pytest.approx(1.0, abs=1e-12)


MIXED_CASES = {
    "boyz and warboss": (['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'], [
        model("Boy", 9, "T5 Sv5+ W1 [INFANTRY]"), model("Nob", 1, "T5 Sv5+ W2 [INFANTRY]")],
        model("Warboss", 1, "T5 Sv4+ InSv5+ W6 FNP5+ [CHARACTER, INFANTRY]"), 11),
    "heavy guns kill the leader too": (['4x Gun: 24" A3 BS3+ S8 AP-2 D2 [SUSTAINED HITS 1]'], [
        model("Guard", 3, "T3 Sv5+ W1 [INFANTRY]")],
        model("Commander", 1, "T4 Sv3+ InSv4+ W4 FNP6+ [CHARACTER, INFANTRY]"), 11),
    "devastating and lethal, random damage": ([
        '3x Melta: 18" A2 BS3+ S9 AP-4 DD6 [DEVASTATING WOUNDS, LETHAL HITS]'], [
        model("Terminator", 3, "T5 Sv2+ InSv4+ W3 [INFANTRY]")],
        model("Chaplain", 1, "T5 Sv2+ InSv4+ W5 FNP5+ [CHARACTER, INFANTRY]"), 11),
    "10th edition, held mortal wounds": ([
        '4x Gun: 24" A2 BS3+ S5 AP-1 D2 [DEVASTATING WOUNDS]', '6x Rifle: 24" A1 BS4+ S4 AP0 D1'], [
        model("Marine", 4, "T4 Sv3+ W2 [INFANTRY]")],
        model("Captain", 1, "T4 Sv3+ InSv4+ W5 [CHARACTER, INFANTRY]"), 10),
    "blast and a tougher bodyguard": (['2x Launcher: 48" AD6 BS3+ S6 AP-1 D1 [BLAST]'], [
        model("Ogryn", 3, "T6 Sv5+ W3 FNP6+ [INFANTRY]")],
        model("Priest", 1, "T3 Sv5+ W3 [CHARACTER, INFANTRY]"), 11),
}


@pytest.mark.parametrize("name", list(MIXED_CASES))
def test_mixed_units_agree_with_monte_carlo(tmp_path, name) -> None:
    weapons, models, leader, edition = MIXED_CASES[name]
    s = scenario(tmp_path, weapons, models, leader, edition)
    assert_agrees(solve_activation(compile_scenario(s)), run(s, trials=TRIALS, seed=17),
                  TRIALS, name)


def assert_agrees(exact: dict[str, np.ndarray], result, trials: int, label: object) -> None:
    """The exact pmfs of unit T's wounds lost and models destroyed against a Monte Carlo
    run's: no impossible outcome seen, the means within 5 standard errors, and the pooled
    chi-square test."""
    for outcome, simulated in (("damage", result.wounds_lost("T")),
                               ("models_destroyed", result.models_destroyed("T"))):
        expected = exact[outcome]
        assert expected.sum() == pytest.approx(1.0, abs=1e-12)
        counts = np.zeros(len(expected))
        observed = np.rint(np.asarray(simulated.probabilities, dtype=float) * trials)
        assert observed[len(expected):].sum() == 0
        counts[: len(observed)] = observed[: len(expected)]
        assert not ((expected == 0) & (counts > 0)).any(), (label, outcome)
        values = np.arange(len(expected))
        mean = float(values @ counts) / trials
        error = np.sqrt(float(((values - mean) ** 2) @ counts) / trials / trials)
        assert abs(mean - float(values @ expected)) < 5 * error, (label, outcome)
        p = pooled_chisquare_pvalue(counts, expected * trials)
        assert p > MIN_P_VALUE, (label, outcome, p)


@st.composite
def mixed_units(draw):
    """A bodyguard of one or two statlines, a Leader (a CHARACTER) or not, and one or two
    weapon lines; 10th or 11th edition."""
    bodyguard = [model("Trooper", draw(st.integers(1, 5)), _statline(draw))]
    if draw(st.booleans()):
        bodyguard.append(model("Sergeant", 1, _statline(draw)))
    leader = model("Leader", 1, _statline(draw, character=True)) if draw(st.booleans()) \
        else None
    abilities = draw(st.lists(st.sampled_from(
        ["SUSTAINED HITS 1", "LETHAL HITS", "DEVASTATING WOUNDS", "TWIN-LINKED"]),
        max_size=2, unique=True))
    line = (f'{draw(st.integers(1, 5))}x Gun: 24" A{draw(st.sampled_from(["1", "2", "D3"]))} '
            f'BS{draw(st.integers(2, 5))}+ S{draw(st.integers(3, 10))} '
            f'AP-{draw(st.integers(0, 3))} D{draw(st.sampled_from(["1", "2", "D3", "D6"]))}')
    if abilities:
        line += f" [{', '.join(abilities)}]"
    weapons = [line]
    if draw(st.booleans()):
        weapons.append('2x Pistol: 12" A1 BS3+ S4 AP0 D1')
    return weapons, bodyguard, leader, draw(st.sampled_from([10, 11]))


def _statline(draw, character: bool = False) -> str:
    save = draw(st.sampled_from(["2+", "3+", "4+", "5+", "6+"]))
    line = f"T{draw(st.integers(3, 6))} Sv{save} W{draw(st.integers(1, 4))}"
    if draw(st.booleans()):
        line += f" InSv{draw(st.integers(4, 5))}+"
    if draw(st.booleans()):
        line += f" FNP{draw(st.integers(4, 6))}+"
    return line + (" [CHARACTER, INFANTRY]" if character else " [INFANTRY]")


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(mixed_units())
def test_generated_mixed_units_agree_with_monte_carlo(tmp_path, unit) -> None:
    weapons, bodyguard, leader, edition = unit
    s = scenario(tmp_path, weapons, bodyguard, leader, edition)
    exact = solve_activation(compile_scenario(s))
    trials = 40_000
    result = run(s, trials=trials, seed=23)
    for outcome, simulated in (("damage", result.wounds_lost("T")),
                               ("models_destroyed", result.models_destroyed("T"))):
        expected = exact[outcome]
        counts = np.zeros(len(expected))
        observed = np.rint(np.asarray(simulated.probabilities, dtype=float) * trials)
        assert observed[len(expected):].sum() == 0
        counts[: len(observed)] = observed[: len(expected)]
        assert not ((expected == 0) & (counts > 0)).any(), (unit, outcome)
        p = pooled_chisquare_pvalue(counts, expected * trials)
        assert p > MIN_P_VALUE, (unit, outcome, p)
