"""The best state-dependent Damage re-roll (issue 34), against a hand derivation and against a
brute force that follows every die and decision directly (no Markov matrix, no chain).

Hand derivation (``test_hand_derived_case``): two [TORRENT] attacks at S8 against 2x T4 Sv- W3,
D3 damage, goal models destroyed. Each attack wounds on 2+ (5/6), so u ~ Bin(2, 5/6).

- u = 1: the model dies on a 3; re-rolling 1 and 2 gives 1/3 + 2/3 * 1/3 = 5/9.
- u = 2, second roll: with 3 wounds left as above (5/9); with 1 left any roll kills (keep
  everything: 1); with 2 left re-roll only a 1: 2/3 + 1/3 * 2/3 = 8/9.
- u = 2, first roll: a 3 is worth 1 + 5/9 = 14/9, a 2 is worth 1, a 1 is worth 8/9; a fresh
  roll (14/9 + 1 + 8/9) / 3 = 31/27 > 1, so re-roll 1 and 2: 1/3 * 14/9 + 2/3 * 31/27 = 104/81.

E = 10/36 * 5/9 + 25/36 * 104/81 = 1525/1458 = 1.0460. The fixed policies: ``low`` and ``ones``
(a 1 on a D3) 230/243 = 0.9465, ``none`` 85/108; always re-rolling 1 and 2 gives 102/81 at
u = 2, below 104/81: the gain is in the state (keep a 2 on the second model's last wound).

One Command Re-roll instead (``command_reroll="damage_best"``), same case. u = 1: spend it on
a 1 or 2: 5/9. u = 2, first roll: a 3 keeps it (1 + 5/9 = 14/9); a kept 2 leaves 1 wound, so
the second roll kills whatever it shows (1); a kept 1 leaves 2 wounds and the re-roll still
in hand for the second roll (8/9); spending it on the first roll gives a fresh roll and a
second roll without it: (1 + 1/3 + 1 + 2/3) / 3 = 1. A 2 ties on models (1 against 1) and
the tie goes to the mean wounds lost (3 kept, 32/9 re-rolled): spend it on 1-2, worth
1/3 * 14/9 + 2/3 * 1 = 32/27. E = 10/36 * 5/9 + 25/36 * 32/27 = 475/486.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k.exact_engine.policies import TIE

HAND_WEAPON = "Gun: A2 BSN/A S8 AP0 DD3 [TORRENT]"
HAND_TARGET = "2x T4 Sv- W3"


def test_hand_derived_case() -> None:
    best = mh.exact(HAND_WEAPON, HAND_TARGET, reroll_damage="best")
    assert best.mean("models_destroyed") == pytest.approx(1525 / 1458, abs=1e-12)
    for policy, expected in (("low", Fraction(230, 243)), ("ones", Fraction(230, 243)),
                             ("none", Fraction(85, 108))):
        fixed = mh.exact(HAND_WEAPON, HAND_TARGET, reroll_damage=policy)
        assert fixed.mean("models_destroyed") == pytest.approx(float(expected), abs=1e-12)
    command = mh.exact(HAND_WEAPON, HAND_TARGET, command_reroll="damage_best")
    assert command.mean("models_destroyed") == pytest.approx(475 / 486, abs=1e-12)


# -- brute force ------------------------------------------------------------------------------
def _face_chance(needed: int) -> float:
    """A D6 roll of ``needed``+ (7: never)."""
    return sum(1 for f in range(1, 7) if f >= needed) / 6


def _attack_outcomes(hit: int, wound: int, save: int, devastating: bool) -> dict[str, float]:
    """One attack die, every face of its hit, wound and save rolls: P(unsaved ordinary wound)
    and P(critical wound with [DEVASTATING WOUNDS]) (critical: an unmodified 6)."""
    out = {"unsaved": 0.0, "critical": 0.0}
    for h, w, s in itertools.product(range(1, 7), repeat=3):
        if h == 1 or h < hit or w == 1 or w < wound:
            continue
        p = 1 / 216
        if devastating and w == 6:
            out["critical"] += p
        elif s == 1 or s < save:
            out["unsaved"] += p
    return out


def _count_law(attacks: int, chances: dict[str, float]) -> dict[tuple[int, int], float]:
    """Every attack's outcome enumerated: P(u unsaved, k critical)."""
    kinds = [("unsaved", chances["unsaved"]), ("critical", chances["critical"]),
             ("none", 1 - chances["unsaved"] - chances["critical"])]
    law: dict[tuple[int, int], float] = {}
    for combo in itertools.product(kinds, repeat=attacks):
        key = (sum(k == "unsaved" for k, _ in combo), sum(k == "critical" for k, _ in combo))
        law[key] = law.get(key, 0.0) + float(np.prod([p for _, p in combo]))
    return law


def _damage_faces(count: int, sides: int, constant: int) -> dict[int, float]:
    law = {}
    for faces in itertools.product(range(1, sides + 1), repeat=count):
        value = constant + sum(faces)
        law[value] = law.get(value, 0.0) + 1 / sides ** count
    return law


def brute_force(attacks: int, hit: int, wound: int, save: int, damage: tuple[int, int, int],
                models: int, wounds: int, fnp: int, devastating: bool, goal: str,
                command: bool = False):
    """(goal value, law of wounds lost) of the best Damage re-roll, decision by decision.

    The state is (wounds lost, re-roll in hand); each roll is kept or rolled again (a free
    re-roll every roll, or with ``command`` one for the whole run) by comparing (goal,
    tie-break) values computed by recursion over every die.
    """
    law = _count_law(attacks, _attack_outcomes(hit, wound, save, devastating))
    faces = _damage_faces(*damage)
    fnp_pass = 1 - _face_chance(fnp) if fnp < 7 else 1.0

    def scores(lost: int) -> tuple[float, float]:
        destroyed = lost // wounds
        if goal == "damage":
            return float(lost), float(destroyed)
        if goal == "models_destroyed":
            return float(destroyed), float(lost)
        return float(lost == models * wounds), float(lost)

    def inflict(lost: int, value: int) -> dict[int, float]:
        """Wounds lost after ``value`` damage on the wounded model (each point through FNP)."""
        left = wounds - lost % wounds
        out: dict[int, float] = {}
        for through in range(value + 1):
            p = (math.comb(value, through) * fnp_pass ** through
                 * (1 - fnp_pass) ** (value - through))
            after = lost + min(through, left)
            out[after] = out.get(after, 0.0) + p
        return out

    def mix(parts):
        """Sum of (weight, (value pair, law)) parts."""
        value = np.zeros(2)
        total: dict[int, float] = {}
        for weight, (v, law) in parts:
            value += weight * np.asarray(v)
            for k, p in law.items():
                total[k] = total.get(k, 0.0) + weight * p
        return value, total

    @lru_cache(maxsize=None)
    def rolls(lost: int, left: int, hand: bool = True):
        """Best (value pair, law) with ``left`` Damage rolls to make from ``lost``, a re-roll
        in ``hand`` or not."""
        if left == 0 or lost == models * wounds:
            return np.array(scores(lost)), {lost: 1.0}
        after_keep = hand if command else True
        keeps = {v: mix([(p, rolls(after, left - 1, after_keep))
                         for after, p in inflict(lost, v).items()]) for v in faces}
        spent = keeps if not command else {
            v: mix([(p, rolls(after, left - 1, False)) for after, p in inflict(lost, v).items()])
            for v in faces}
        again = mix([(faces[v], spent[v]) for v in faces])
        if not hand or len(faces) == 1:
            return mix([(faces[v], keeps[v]) for v in faces])
        chosen = []
        for v, p in faces.items():
            kept = keeps[v]
            margin = TIE * max(abs(kept[0][0]), 1.0)
            better = again[0][0] > kept[0][0] + margin or (
                abs(again[0][0] - kept[0][0]) <= TIE * max(abs(kept[0][0]), 1.0)
                and again[0][1] > kept[0][1] + TIE * max(abs(kept[0][1]), 1.0))
            chosen.append((p, again if better else kept))
        return mix(chosen)

    # ordinary wounds first, then critical wounds; both take the same damage here
    value, final = mix([(p, rolls(0, u + k)) for (u, k), p in law.items()])
    return value[0], final


CASES = [  # attacks, hit, wound, save, damage (count, sides, constant), models, W, FNP, DW
    (2, 3, 3, 4, (1, 6, 0), 2, 4, 7, False),
    (3, 2, 4, 5, (1, 3, 1), 3, 3, 7, False),
    (2, 3, 2, 7, (1, 6, 1), 1, 8, 5, False),
    (3, 4, 3, 3, (1, 3, 0), 2, 3, 6, True),
    (2, 2, 2, 6, (2, 3, 0), 2, 5, 7, True),
]


def _line(attacks: int, hit: int, wound: int, save: int, damage: tuple[int, int, int],
          devastating: bool) -> tuple[str, str]:
    """A weapon line and the toughness giving ``wound``+ at S4 (S4 vs T: 2+ T2, 3+ T3, 4+ T4)."""
    count, sides, constant = damage
    dice = (f"{count if count > 1 else ''}D{sides}" + (f"+{constant}" if constant else ""))
    line = (f"Gun: A{attacks} BS{hit}+ S4 AP0 D{dice}"
            + (" [DEVASTATING WOUNDS]" if devastating else ""))
    toughness = {2: 2, 3: 3, 4: 4}[wound]
    return line, toughness


def _target(case) -> str:
    attacks, hit, wound, save, damage, models, wounds, fnp, devastating = case
    toughness = _line(attacks, hit, wound, save, damage, devastating)[1]
    return (f"{models}x T{toughness} Sv{save if save < 7 else '-'}"
            + ("+" if save < 7 else "") + f" W{wounds}" + (f" FNP{fnp}+" if fnp < 7 else ""))


def _as_array(law: dict[int, float], most: int) -> np.ndarray:
    """The brute force's law of wounds lost as an array over 0..most."""
    out = np.zeros(most + 1)
    for lost, p in law.items():
        out[lost] += p
    return out


def _goal(result, goal: str) -> float:
    """A result's value for a goal: a mean, or the chance the unit is destroyed."""
    if goal == "unit_destroyed":
        return result.probability("unit_destroyed")
    return result.mean(goal)


@pytest.mark.parametrize("goal", ["models_destroyed", "damage", "unit_destroyed"])
@pytest.mark.parametrize("case", CASES)
def test_equals_brute_force(case, goal: str) -> None:
    attacks, hit, wound, save, damage, models, wounds, fnp, devastating = case
    line, target = _line(attacks, hit, wound, save, damage, devastating)[0], _target(case)
    result = mh.exact(line, target, reroll_damage="best", reroll_goal=goal)
    value, law = brute_force(attacks, hit, wound, save, damage, models, wounds, fnp,
                             devastating, goal)
    np.testing.assert_allclose(result.distribution("damage").probabilities,
                               _as_array(law, models * wounds), atol=1e-12)
    assert _goal(result, goal) == pytest.approx(value, abs=1e-12)
    for policy in ("none", "ones", "low"):   # never worse than a fixed policy
        fixed = mh.exact(line, target, reroll_damage=policy)
        assert _goal(result, goal) >= _goal(fixed, goal) - 1e-12


@pytest.mark.parametrize("goal", ["models_destroyed", "unit_destroyed"])
@pytest.mark.parametrize("case", CASES)
def test_command_reroll_placed_as_brute_force_places_it(case, goal: str) -> None:
    attacks, hit, wound, save, damage, models, wounds, fnp, devastating = case
    line, target = _line(attacks, hit, wound, save, damage, devastating)[0], _target(case)
    result = mh.exact(line, target, command_reroll="damage_best", reroll_goal=goal)
    value, law = brute_force(attacks, hit, wound, save, damage, models, wounds, fnp,
                             devastating, goal, command=True)
    np.testing.assert_allclose(result.distribution("damage").probabilities,
                               _as_array(law, models * wounds), atol=1e-12)
    assert _goal(result, goal) == pytest.approx(value, abs=1e-12)
    for fixed in ("none", "damage"):   # never worse than the first roll below average
        other = mh.exact(line, target, command_reroll=fixed)
        assert _goal(result, goal) >= _goal(other, goal) - 1e-12


def test_monte_carlo_refuses_in_one_line() -> None:
    with pytest.raises(UnsupportedError, match="exact engine"):
        mh.simulate(HAND_WEAPON, HAND_TARGET, reroll_damage="best", trials=1000)


def test_refusals() -> None:
    with pytest.raises(OptionError, match="reroll_goal"):
        mh.exact(HAND_WEAPON, HAND_TARGET, reroll_damage="best", reroll_goal="fun")
    for command in ("damage", "hit", "damage_best"):   # never silently without it
        with pytest.raises(OptionError, match="command_reroll"):
            mh.exact(HAND_WEAPON, HAND_TARGET, reroll_damage="best", command_reroll=command)
    with pytest.raises(OptionError, match="re-rolled only once"):
        mh.exact(HAND_WEAPON, HAND_TARGET, reroll_damage="low", command_reroll="damage_best")
    with pytest.raises(UnsupportedError, match="exact engine"):
        mh.simulate(HAND_WEAPON, HAND_TARGET, command_reroll="damage_best", trials=1000)
    with pytest.raises(OptionError, match="reroll_attacks"):
        mh.exact(HAND_WEAPON, HAND_TARGET, reroll_attacks="best")
    with pytest.raises(UnsupportedError, match="DEVASTATING"):
        mh.exact("Gun: A2 BS3+ S4 AP0 DD3 [DEVASTATING WOUNDS]", HAND_TARGET,
                 reroll_damage="best", dw_timing="unit_end")


def test_a_list_names_the_cell_no_engine_takes() -> None:
    # the led Intercessor Squad has several statlines: the best re-roll is refused there,
    # naming the pairing
    from pathlib import Path

    files = Path(__file__).parents[1] / "roster" / "files"
    orks = mh.load_roster(files / "orks_11e.ros")
    marines = mh.load_roster(files / "leaders_11e.json")
    with pytest.raises(UnsupportedError, match=r"against Intercessor Squad \(\w+\): "
                                               "reroll_damage = best"):
        orks.against(marines, phases=["shooting"], reroll_damage="best")
