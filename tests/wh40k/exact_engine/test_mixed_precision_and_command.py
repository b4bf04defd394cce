"""[PRECISION] and a Command Re-roll in the mixed-unit exact engine (issue 34).

Two independent checks, as in test_mixed.py:

- brute force: :func:`enumerate_unit` walks every die the scenario kernel would roll for one
  small batch (hit, wound, save and Damage rolls in the kernel's order, the Command Re-roll
  spent on the first eligible roll, [PRECISION] attacks on the CHARACTER while it stands,
  11th-edition saves sorted and inflicted lowest first or 10th-edition saves one attack at a
  time), written here from the rules and the kernel, not from the exact engine;
- Monte Carlo: the whole-unit engine's pmfs of wounds lost and models destroyed (chi-square on
  whole pmfs, tests/agreement.py's pooled test, and the means within 5 standard errors, fixed
  seeds), on Leaders and two CHARACTERs with [PRECISION] picks, and every kind of Command
  Re-roll in both editions, with [DEVASTATING WOUNDS] and random Damage.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mathhammer.errors import UnsupportedError
from mathhammer.wh40k.exact_engine.mixed import solve_activation
from mathhammer.wh40k.scenario.api import run
from mathhammer.wh40k.scenario.compile import compile_scenario
from mathhammer.wh40k.scenario.reader import load_scenario
from tests.wh40k.exact_engine.test_mixed import assert_agrees, model, scenario

TRIALS = 100_000


class _More(Exception):
    """The resolution asked for a die beyond the prefix being walked."""


def enumerate_unit(resolve) -> dict[int, float]:
    """P(outcome) of ``resolve(d6)`` over every sequence of die faces it can ask for."""
    out: dict[int, float] = {}
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        used = [0]

        def d6() -> int:
            if used[0] == len(prefix):
                raise _More
            used[0] += 1
            return prefix[used[0] - 1]

        try:
            outcome = resolve(d6)
        except _More:
            stack.extend(prefix + (face,) for face in range(1, 7))
            continue
        out[outcome] = out.get(outcome, 0.0) + 6.0 ** -len(prefix)
    return out


def one_batch(attacks: int, bs: int | None, wound_on: int, damage: str,
              groups: list[tuple[int, int, int, bool]], precision: bool, command: str | None,
              edition: int = 11):
    """The kernel's resolution of ``attacks`` attacks (``bs`` None: [TORRENT]) wounding on
    ``wound_on``, Damage ``damage`` ("2" or "D3"), against ``groups`` (models, W, save
    needed, CHARACTER) in declared order, one CHARACTER at most; returns wounds lost."""
    def resolve(d6) -> int:
        spare = command
        hits = 0
        for _ in range(attacks):
            if bs is None:
                hits += 1
                continue
            face = d6()
            if face < bs and spare == "hit":
                face, spare = d6(), None
            hits += face >= bs
        wounds = 0
        for _ in range(hits):
            face = d6()
            if face < wound_on and spare == "wound":
                face, spare = d6(), None
            wounds += face >= wound_on
        left = [[w] * count for count, w, _, _ in groups]

        def alive(g: int) -> bool:
            return any(left[g])

        def front() -> int:   # a wounded group first, non-CHARACTERs first, then declared
            order = sorted(range(len(groups)), key=lambda g: (
                groups[g][3], not any(0 < x < groups[g][1] for x in left[g]), g))
            return next((g for g in order if alive(g)), -1)

        pick = next((g for g, group in enumerate(groups) if group[3] and alive(g)), -1) \
            if precision else -1

        def target() -> int:
            return pick if pick >= 0 and alive(pick) else front()

        def inflict(g: int) -> None:
            nonlocal spare
            if damage == "D3":
                roll = (d6() + 1) // 2
                if roll < 2 and spare == "damage":
                    roll, spare = (d6() + 1) // 2, None
            else:
                roll = int(damage)
            model_at = next(i for i, x in enumerate(left[g]) if 0 < x < groups[g][1]) \
                if any(0 < x < groups[g][1] for x in left[g]) else \
                next(i for i, x in enumerate(left[g]) if x > 0)
            left[g][model_at] -= min(roll, left[g][model_at])

        def save(g: int) -> int:
            nonlocal spare
            face = d6()
            if face < groups[g][2] and spare == "save":
                face, spare = d6(), None
            return face

        if edition == 11:
            reference = target()
            faces = sorted(save(reference) for _ in range(wounds)) if reference >= 0 else []
            for face in faces:
                g = target()
                if g < 0:
                    break
                if face < groups[g][2]:
                    inflict(g)
        else:
            for _ in range(wounds):
                g = target()
                if g < 0:
                    break
                if save(g) < groups[g][2]:
                    inflict(g)
        return sum(w * count for count, w, _, _ in groups) - sum(map(sum, left))
    return resolve


def _profile(w: int, save: int, character: bool) -> str:
    return f"T4 Sv{save}+ W{w} " + ("[CHARACTER, INFANTRY]" if character else "[INFANTRY]")


BRUTE_FORCE_CASES = {
    # name: (attacks, bs, damage, precision, command, edition); S4 vs T4 wounds on 4+
    "precision, sorted saves": (2, 4, "2", True, None, 11),
    "precision and a damage re-roll": (2, None, "D3", True, "damage", 11),
    "precision and a save re-roll, 11e": (2, None, "2", True, "save", 11),
    "a save re-roll, 10e, one at a time": (2, None, "2", True, "save", 10),
    "a hit re-roll": (2, 4, "2", False, "hit", 11),
    "a wound re-roll, 10e": (2, None, "D3", True, "wound", 10),
}


@pytest.mark.parametrize("name", list(BRUTE_FORCE_CASES))
def test_against_every_die_the_kernel_rolls(tmp_path, name) -> None:
    attacks, bs, damage, precision, command, edition = BRUTE_FORCE_CASES[name]
    groups = [(2, 1, 5, False), (1, 3, 3, True)]   # two W1 Sv5+ models and a W3 Sv3+ Leader
    abilities = ["PRECISION"] if precision else []
    skill = f"BS{bs}+" if bs else "BSN/A"
    if bs is None:
        abilities.append("TORRENT")
    line = f'{attacks}x Gun: 24" A1 {skill} S4 AP0 D{damage}' \
        + (f" [{', '.join(abilities)}]" if abilities else "")
    s = scenario(tmp_path, [line], [model("Trooper", 2, _profile(1, 5, False))],
                 leader=model("Leader", 1, _profile(3, 3, True)), edition=edition)
    if command:
        s = _with_command(tmp_path, s, command)
    exact = solve_activation(compile_scenario(s))["damage"]
    expected = enumerate_unit(one_batch(attacks, bs, 4, damage, groups, precision, command,
                                        edition))
    assert sum(expected.values()) == pytest.approx(1.0, abs=1e-12)
    assert exact.sum() == pytest.approx(1.0, abs=1e-12)
    for lost in range(len(exact)):
        assert exact[lost] == pytest.approx(expected.get(lost, 0.0), abs=1e-12), lost


def test_precision_reaches_the_leader_by_hand(tmp_path) -> None:
    """One [PRECISION] attack, [TORRENT], S4 vs T4 (wounds 1/2), AP0 D3 against a Sv3+ W3
    Leader behind a W1 Sv5+ model: it goes to the Leader, who fails the save with 1/3, so
    P(3 wounds lost) = 1/2 * 1/3 = 1/6 and P(0) = 5/6; without [PRECISION] it would hit the
    bodyguard (P(1 wound lost) = 1/2 * 2/3 = 1/3)."""
    leader = model("Leader", 1, _profile(3, 3, True))
    guard = [model("Trooper", 1, _profile(1, 5, False))]
    sharp = scenario(tmp_path, ['Gun: 24" A1 BSN/A S4 AP0 D 3 [TORRENT, PRECISION]'], guard,
                     leader=leader)
    plain = scenario(tmp_path, ['Gun: 24" A1 BSN/A S4 AP0 D 3 [TORRENT]'], guard, leader=leader)
    assert solve_activation(compile_scenario(sharp))["damage"] == pytest.approx(
        [5 / 6, 0, 0, 1 / 6, 0], abs=1e-12)
    assert solve_activation(compile_scenario(plain))["damage"] == pytest.approx(
        [2 / 3, 1 / 3, 0, 0, 0], abs=1e-12)


def _with_command(tmp_path: Path, s, kind: str, extra: str = ""):
    """The scenario file of ``s`` again, its activation with a Command Re-roll of ``kind``."""
    path = tmp_path / "scenario.toml"
    text = path.read_text() + f'\nmodifiers = {{ command_reroll = "{kind}" }}\n' + extra
    path.write_text(text)
    return load_scenario(path)


GUARD = [model("Marine", 3, "T4 Sv3+ W2 [INFANTRY]"), model("Sergeant", 1, "T4 Sv3+ W3 [INFANTRY]")]
CAPTAIN = '  { name = "Captain", count = 1, profile = "T4 Sv3+ InSv4+ W5 FNP6+ [CHARACTER, ' \
    'INFANTRY]", weapons = [], points = 100 },'
SNIPERS = ['3x Sniper: 36" A2 BS3+ S5 AP-2 D2 [PRECISION]', '4x Bolter: 24" A2 BS3+ S4 AP0 DD3']

MONTE_CARLO_CASES = {
    # name: (weapons, edition, command, activation lines)
    "precision, best pick": (SNIPERS, 11, None, ""),
    "precision, devastating wounds held, 10e": ([
        '3x Sniper: 36" A2 BS3+ S5 AP-2 D2 [PRECISION, DEVASTATING WOUNDS]',
        '2x Gun: 24" A2 BS3+ S6 AP-1 D2 [DEVASTATING WOUNDS]'], 10, "damage", ""),
    "hit re-roll, sustained hits": (['4x Gun: 24" A2 BS3+ S5 AP-1 DD3 [SUSTAINED HITS 1]',
                                     '3x Rifle: 24" A1 BS4+ S4 AP0 D1'], 11, "hit", ""),
    "wound re-roll, precision, 10e": (SNIPERS, 10, "wound", ""),
    "save re-roll, precision, first pick": (SNIPERS, 11, "save", 'precision_pick = "first"'),
    "save re-roll, 10e": (SNIPERS, 10, "save", ""),
    "damage re-roll, 2D6 one die": (['3x Sniper: 36" A2 BS3+ S5 AP-2 D2D6 [PRECISION]'], 11,
                                    "damage", ""),
}


@pytest.mark.parametrize("name", list(MONTE_CARLO_CASES))
def test_agrees_with_monte_carlo(tmp_path, name) -> None:
    weapons, edition, command, extra = MONTE_CARLO_CASES[name]
    s = scenario(tmp_path, weapons, GUARD, leader=CAPTAIN, edition=edition)
    path = tmp_path / "scenario.toml"
    path.write_text(path.read_text() + "\n" + extra + (
        f'\nmodifiers = {{ command_reroll = "{command}" }}' if command else "") + "\n")
    s = load_scenario(path)
    assert_agrees(solve_activation(compile_scenario(s)), run(s, trials=TRIALS, seed=29),
                  TRIALS, name)


def test_the_command_reroll_changes_the_answer(tmp_path) -> None:
    """A save re-roll can only help the defender: fewer wounds lost on average."""
    s = scenario(tmp_path, SNIPERS, GUARD, leader=CAPTAIN)
    plain = solve_activation(compile_scenario(s))["damage"]
    helped = solve_activation(compile_scenario(_with_command(tmp_path, s, "save")))["damage"]
    values = np.arange(len(plain))
    assert values @ helped < values @ plain - 0.1


def test_held_devastating_wounds_against_two_characters_are_refused(tmp_path) -> None:
    second = CAPTAIN.replace("Captain", "Lieutenant")
    lines = ["rounds = 1", "[rules]", "edition = 10", "[units.A]", "models = [",
             '  { name = "Shooter", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]", weapons = '
             '["Sniper: 36\\" A2 BS3+ S5 AP-2 D2 [PRECISION, DEVASTATING WOUNDS]"] },', "]",
             "[units.L]", "models = [", CAPTAIN, "]", "[units.M]", "models = [", second, "]",
             "[units.T]", "models = [", *GUARD, "]", 'attached = ["L", "M"]',
             "[[activations]]", 'phase = "shooting"', 'attacker = "A"', 'target = "T"']
    path = tmp_path / "two.toml"
    path.write_text("\n".join(lines))
    with pytest.raises(UnsupportedError, match="several CHARACTER groups"):
        solve_activation(compile_scenario(load_scenario(path)))
