"""The Command Re-roll in the exact engine.

Expectations come from hand sums and from a brute force written here: every sequence of
D6 faces of a tiny case, each resolved die by die in roll order with the re-roll given to the
first roll that fails and was not re-rolled already (a Damage roll: below its average), in
exact fractions. The Monte Carlo engine must agree with the exact one within 5 standard
errors and pass a chi-square test.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.errors import UnsupportedError
from tests.agreement import pooled_chisquare_pvalue


def _pmf(result, name: str = "damage") -> np.ndarray:
    return np.asarray(result.distributions[name].probabilities, dtype=float)


# -- hand-derived --------------------------------------------------------------------------
def test_one_attack_hits_three_times_in_four() -> None:
    # BS4+: 1/2 hits, and a miss is rolled again: 1/2 + 1/2 * 1/2 = 3/4; S10 v T1 wounds on 2+.
    e = mh.exact("A1 BS4+ S10 AP0 D1", "T1 Sv- W1", command_reroll="hit")
    assert e.mean("damage") == pytest.approx(3 / 4 * 5 / 6, abs=1e-14)


def test_save_reroll_by_hand() -> None:
    # k ~ Binomial(3, 5/6) wounds against Sv4+: k/2 failed saves, less 1/2 when one failed.
    expected = sum(Fraction(3 * 5 ** k if k in (1, 2) else 5 ** k, 6 ** 3)
                   * (Fraction(k, 2) - (1 - Fraction(1, 2 ** k)) / 2) for k in range(4))
    e = mh.exact("A3 BSN/A S10 AP0 D1 [TORRENT]", "10x T1 Sv4+ W1", command_reroll="save")
    assert e.mean("damage") == pytest.approx(float(expected), abs=1e-14)


def test_damage_reroll_by_hand() -> None:
    # A D6 Damage roll of 1-3 (below 3.5) is rolled again: 1/2 * 5 + 1/2 * 7/2 = 17/4.
    e = mh.exact("A1 BSN/A S10 AP0 DD6 [TORRENT]", "T1 Sv- W50", command_reroll="damage")
    assert e.mean("damage") == pytest.approx(5 / 6 * 17 / 4, abs=1e-14)


def test_two_dice_damage_reroll_by_hand() -> None:
    # 2D3 (average 4): totals 2 and 3 are below it. One die, the lowest, is rolled again:
    # (1, 1) gains 2 - 1 = 1 on average, (1, 2) and (2, 1) gain 1: 4 + 3/9 = 13/3. The
    # whole roll: 6/9 of the time it stands at 14/3 on average, else 4: 40/9.
    line, target = "A1 BSN/A S10 AP0 D2D3 [TORRENT]", "T1 Sv- W50"
    one_die = mh.exact(line, target, command_reroll="damage")
    whole = mh.exact(line, target, command_reroll="damage", cmd_reroll_multi_dice="all")
    assert one_die.mean("damage") == pytest.approx(5 / 6 * 13 / 3, abs=1e-14)
    assert whole.mean("damage") == pytest.approx(5 / 6 * 40 / 9, abs=1e-14)


# -- brute force ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One weapon line of a tiny case, as the brute force reads it (``text`` for the engines)."""

    text: str
    attacks: int
    hit: int | None          # BS; None: [TORRENT]
    wound: int               # the wound roll needed
    save: int                # the save roll needed (7: no save can pass)
    damage: tuple[int, int]  # (dice, sides); dice 0: fixed damage ``sides``
    sustained: int = 0
    lethal: bool = False
    devastating: bool = False
    crit_wound: int = 6


class _Dice:
    """Hands out the faces of one sequence; the re-roll goes where the rules allow it
    (``one_die``: on a Damage roll of several dice, only the lowest is rolled again)."""

    def __init__(self, faces: tuple[int, ...], command: str, one_die: bool = True) -> None:
        self.faces = iter(faces)
        self.command = command
        self.one_die = one_die

    def roll(self) -> int:
        return next(self.faces)

    def spend(self, kind: str) -> bool:
        if self.command != kind:
            return False
        self.command = "none"
        return True


def _damage(line: Line, dice: _Dice) -> int:
    count, sides = line.damage
    if count == 0:
        return sides

    def one() -> int:
        return (dice.roll() + 1) // 2 if sides == 3 else dice.roll()

    values = [one() for _ in range(count)]
    if 2 * sum(values) < count * (sides + 1) and dice.spend("damage"):   # below the average
        if dice.one_die:
            values[values.index(min(values))] = one()
        else:
            values = [one() for _ in range(count)]
    return sum(values)


def _inflict(left: list[int], wounds: int, amount: int) -> None:
    """The wounded model first, else the first one alive; excess damage lost."""
    alive = [i for i, w in enumerate(left) if w > 0]
    wounded = [i for i in alive if left[i] < wounds]
    model = (wounded or alive)[0]
    left[model] -= min(amount, left[model])


def _brute_batch(line: Line, left: list[int], wounds: int, dice: _Dice, hit_ones: bool,
                 save_ones: bool, held: list[Line] | None) -> None:
    """One weapon line; its [DEVASTATING WOUNDS] critical wounds go to ``held`` if given."""
    hits = crits = 0
    for _ in range(line.attacks):
        if line.hit is None:
            hits += 1
            continue
        face = dice.roll()
        if (hit_ones and face == 1) or (face < line.hit and dice.spend("hit")):
            face = dice.roll()
        crits += face == 6
        hits += line.hit <= face < 6
    auto = crits if line.lethal else 0
    ordinary = devastating = 0
    for _ in range(hits + crits * line.sustained + (0 if line.lethal else crits)):
        face = dice.roll()
        if face < line.wound and face < line.crit_wound and dice.spend("wound"):
            face = dice.roll()
        if face >= line.crit_wound and line.devastating:
            devastating += 1
        elif face >= min(line.wound, line.crit_wound):
            ordinary += 1
    failed = 0
    for _ in range(ordinary + auto):
        if line.save > 6:   # no face can pass: no save roll is made
            failed += 1
            continue
        face = dice.roll()
        if (save_ones and face == 1) or (face < line.save and dice.spend("save")):
            face = dice.roll()
        failed += face < line.save or face == 1
    if held is not None:
        held.extend([line] * devastating)
        devastating = 0
    for _ in range(failed + devastating):   # ordinary damage first, then mortal wounds
        if not any(w > 0 for w in left):
            return
        _inflict(left, wounds, _damage(line, dice))


def brute_force(lines: list[Line], models: int, wounds: int, command: str, depth: int,
                hit_ones: bool = False, save_ones: bool = False,
                hold_devastating: bool = False, one_die: bool = True) -> dict[int, Fraction]:
    """Exact pmf of wounds lost over all ``6 ** depth`` face sequences (each resolution
    uses a prefix; ``depth`` must cover the longest). ``hold_devastating``: [DEVASTATING
    WOUNDS] mortal wounds after every line, their Damage rolled then."""
    pmf: dict[int, Fraction] = {}
    weight = Fraction(1, 6 ** depth)
    for faces in product(range(1, 7), repeat=depth):
        left = [wounds] * models
        dice = _Dice(faces, command, one_die)
        held: list[Line] | None = [] if hold_devastating else None
        for line in lines:
            if any(w > 0 for w in left):
                _brute_batch(line, left, wounds, dice, hit_ones, save_ones, held)
        for line in held or []:
            if any(w > 0 for w in left):
                _inflict(left, wounds, _damage(line, dice))
        lost = models * wounds - sum(left)
        pmf[lost] = pmf.get(lost, Fraction(0)) + weight
    return pmf


BRUTE = {
    "hit, re-roll 1s first": (
        [Line("A2 BS4+ S4 AP0 D1", 2, 4, 4, 7, (0, 1))], "3x T4 Sv- W1", 3, 1,
        {"command_reroll": "hit", "reroll_hits": "ones"}, 6),
    "hit, two weapons": (
        [Line("A1 BS4+ S4 AP0 D1", 1, 4, 4, 7, (0, 1)),
         Line("A1 BS3+ S5 AP0 D2", 1, 3, 3, 7, (0, 2))], "2x T4 Sv- W2", 2, 2,
        {"command_reroll": "hit"}, 6),
    "wound, devastating": (
        [Line("A2 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS]", 2, None, 4, 5, (0, 2),
              devastating=True)], "2x T4 Sv5+ W2", 2, 2, {"command_reroll": "wound"}, 5),
    "wound, sustained hits": (
        [Line("A1 BS4+ S4 AP0 D1 [SUSTAINED HITS 1]", 1, 4, 4, 5, (0, 1), sustained=1)],
        "3x T4 Sv5+ W1", 3, 1, {"command_reroll": "wound"}, 6),
    "wound, lethal hits": (
        [Line("A2 BS4+ S4 AP0 D1 [LETHAL HITS]", 2, 4, 4, 5, (0, 1), lethal=True)],
        "3x T4 Sv5+ W1", 3, 1, {"command_reroll": "wound"}, 7),
    "save, two weapons": (
        [Line("A1 BSN/A S4 AP-1 D1 [TORRENT]", 1, None, 4, 5, (0, 1)),
         Line("A1 BSN/A S4 AP0 D2 [TORRENT]", 1, None, 4, 4, (0, 2))],
        "2x T4 Sv4+ W2", 2, 2, {"command_reroll": "save"}, 6),
    "save, defender re-rolls 1s": (
        [Line("A2 BSN/A S8 AP0 D1 [TORRENT]", 2, None, 2, 4, (0, 1))], "3x T4 Sv4+ W1", 3, 1,
        {"command_reroll": "save", "reroll_saves": "ones"}, 6),
    "save, not spent on a save that cannot pass": (
        [Line("A1 BSN/A S4 AP-4 D1 [TORRENT]", 1, None, 4, 7, (0, 1)),
         Line("A1 BSN/A S4 AP0 D1 [TORRENT]", 1, None, 4, 4, (0, 1))],
        "2x T4 Sv4+ W1", 2, 1, {"command_reroll": "save"}, 4),
    "damage, devastating": (
        [Line("A2 BSN/A S8 AP0 DD3 [TORRENT, DEVASTATING WOUNDS]", 2, None, 2, 7, (1, 3),
              devastating=True, crit_wound=5)], "2x T4 Sv- W3", 2, 3,
        {"command_reroll": "damage", "crit_wounds": 5}, 5),
    "damage, two weapons": (
        [Line("A1 BSN/A S8 AP0 DD6 [TORRENT]", 1, None, 2, 7, (1, 6)),
         Line("A1 BSN/A S8 AP0 DD6 [TORRENT]", 1, None, 2, 7, (1, 6))],
        "2x T4 Sv- W4", 2, 4, {"command_reroll": "damage"}, 5),
    "damage, devastating held to the end": (
        [Line("A1 BSN/A S8 AP0 DD6 [TORRENT, DEVASTATING WOUNDS]", 1, None, 2, 7, (1, 6),
              devastating=True, crit_wound=4),
         Line("A1 BSN/A S8 AP0 DD3 [TORRENT]", 1, None, 2, 7, (1, 3), crit_wound=4)],
        "2x T4 Sv- W4", 2, 4,
        {"command_reroll": "damage", "crit_wounds": 4, "dw_timing": "unit_end"}, 5),
    "damage 2D3, one die re-rolled": (
        [Line("A1 BSN/A S8 AP0 D2D3 [TORRENT]", 1, None, 2, 7, (2, 3)),
         Line("A1 BSN/A S8 AP0 D2D3 [TORRENT]", 1, None, 2, 7, (2, 3))],
        "2x T4 Sv- W4", 2, 4, {"command_reroll": "damage"}, 7),
    "damage 2D3, whole roll re-rolled": (
        [Line("A1 BSN/A S8 AP0 D2D3 [TORRENT, DEVASTATING WOUNDS]", 1, None, 2, 7, (2, 3),
              devastating=True, crit_wound=4)], "1x T4 Sv- W5", 1, 5,
        {"command_reroll": "damage", "crit_wounds": 4, "cmd_reroll_multi_dice": "all"}, 5),
    "wound, devastating held to the end": (
        [Line("A1 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS]", 1, None, 4, 5, (0, 2),
              devastating=True, crit_wound=5),
         Line("A1 BSN/A S4 AP0 D1 [TORRENT]", 1, None, 4, 5, (0, 1), crit_wound=5)],
        "2x T4 Sv5+ W2", 2, 2,
        {"command_reroll": "wound", "crit_wounds": 5, "dw_timing": "unit_end"}, 5),
}


@pytest.mark.parametrize("name", list(BRUTE))
def test_exact_matches_brute_force(name: str) -> None:
    lines, target, models, wounds, options, depth = BRUTE[name]
    expected = brute_force(lines, models, wounds, options["command_reroll"], depth,
                           hit_ones=options.get("reroll_hits") == "ones",
                           save_ones=options.get("reroll_saves") == "ones",
                           hold_devastating=options.get("dw_timing") == "unit_end",
                           one_die=options.get("cmd_reroll_multi_dice", "one_die") == "one_die")
    pmf = _pmf(mh.exact([line.text for line in lines], target, **options))
    want = np.array([float(expected.get(k, 0)) for k in range(models * wounds + 1)])
    assert np.abs(np.pad(pmf, (0, len(want) - len(pmf))) - want).max() < 1e-12
    # the case exercises the re-roll: without it the answer differs
    plain = {k: v for k, v in options.items() if k != "command_reroll"}
    without = _pmf(mh.exact([line.text for line in lines], target, **plain))
    assert np.abs(np.pad(without, (0, len(want) - len(without))) - want).max() > 1e-4


def test_brute_force_depth_is_enough() -> None:
    """The brute force raises StopIteration when a sequence runs out of faces."""
    lines = BRUTE["hit, re-roll 1s first"][0]
    with pytest.raises(StopIteration):
        brute_force(lines, 3, 1, "hit", 5, hit_ones=True)


# -- Monte Carlo against exact -------------------------------------------------------------
TRIALS = 200_000
MONTE_CARLO = {
    "hit, sustained and lethal, two weapons": (
        ["3x A2 BS3+ S5 AP-1 D1 [SUSTAINED HITS 1, LETHAL HITS]", "A3 BS4+ S4 AP0 D2"],
        "5x T4 Sv4+ W2", {"command_reroll": "hit", "reroll_hits": "ones"}),
    "wound, random attacks and random sustained hits": (
        ["2x AD6 BS4+ S4 AP0 D1 [SUSTAINED HITS D3, BLAST]"], "10x T4 Sv5+ W1",
        {"command_reroll": "wound", "reroll_wounds": "ones"}),
    "wound, devastating D3, FNP": (
        ["4x A2 BS3+ S4 AP-1 DD3 [DEVASTATING WOUNDS, SUSTAINED HITS 1]"], "4x T4 Sv3+ W3",
        {"command_reroll": "wound", "fnp": 5}),
    "wound, devastating held to the end": (
        ["2x A2 BS3+ S4 AP0 D2 [DEVASTATING WOUNDS]", "A4 BS3+ S4 AP0 D1"], "5x T4 Sv4+ W2",
        {"command_reroll": "wound", "dw_timing": "unit_end"}),
    "save, defender re-rolls 1s, lethal": (
        ["5x A2 BS3+ S4 AP-1 D1 [LETHAL HITS]", "A2 BS3+ S8 AP-2 D 3"], "5x T4 Sv3+ W2",
        {"command_reroll": "save", "reroll_saves": "ones"}),
    "damage, D6 and devastating, mortal FNP": (
        ["3x A1 BS3+ S8 AP-2 DD6 [DEVASTATING WOUNDS]", "A2 BS3+ S8 AP-2 DD3+1"],
        "3x T8 Sv3+ W6", {"command_reroll": "damage", "fnp_mortal": 5}),
    "damage, 10th-edition final text (mortal wounds held to the end)": (
        ["2x A2 BS3+ S6 AP-1 DD6 [DEVASTATING WOUNDS]", "A3 BS3+ S6 AP-1 DD3"],
        "4x T4 Sv3+ W3", {"command_reroll": "damage", "edition": 10, "crit_wounds": 5}),
    "damage 2D6, one die, and devastating": (
        ["3x A2 BS3+ S6 AP-2 D2D6 [DEVASTATING WOUNDS]"], "3x T6 Sv3+ W8",
        {"command_reroll": "damage", "crit_wounds": 5}),
    "damage 2D6, whole roll (switch)": (
        ["3x A2 BS3+ S6 AP-2 D2D6 [DEVASTATING WOUNDS]"], "3x T6 Sv3+ W8",
        {"command_reroll": "damage", "crit_wounds": 5, "cmd_reroll_multi_dice": "all"}),
    "damage, 10th-edition launch text (spilling mortal wounds)": (
        ["3x A2 BS3+ S6 AP-1 DD6 [DEVASTATING WOUNDS]"], "4x T4 Sv3+ W2",
        {"command_reroll": "damage", "edition": 10, "devastating_text": "launch", "fnp": 6}),
    "save, kept past a save that cannot pass": (
        ["A1 BSN/A S4 AP-4 D1 [TORRENT]", "A1 BSN/A S4 AP0 D1 [TORRENT]"], "2x T4 Sv4+ W1",
        {"command_reroll": "save"}),
}


@pytest.mark.parametrize("name", list(MONTE_CARLO))
def test_monte_carlo_agrees_with_exact(name: str) -> None:
    lines, target, options = MONTE_CARLO[name]
    ex = mh.exact(lines, target, **options)
    mc = mh.simulate(lines, target, trials=TRIALS, seed=40 + list(MONTE_CARLO).index(name),
                     **options)
    for outcome in ("damage", "models_destroyed"):
        exact_p = _pmf(ex, outcome)
        assert abs(mc.mean(outcome) - ex.mean(outcome)) < 5 * mc.stderr(outcome), outcome
        mc_p = _pmf(mc, outcome)
        size = max(len(mc_p), len(exact_p))
        counts = np.rint(np.pad(mc_p, (0, size - len(mc_p))) * TRIALS)
        assert pooled_chisquare_pvalue(counts, np.pad(exact_p, (0, size - len(exact_p))) * TRIALS) \
            > 1e-4, outcome


# -- refusals and the command line ---------------------------------------------------------
def test_mixed_units_are_refused() -> None:
    from mathhammer.wh40k.compile import compile_plan
    from mathhammer.wh40k.exact_engine.command import solve
    from mathhammer.wh40k.parse import parse_target, parse_weapon
    from mathhammer.wh40k.profiles import Modifiers

    plan = compile_plan([parse_weapon("A2 BS3+ S4 AP0 D1")], parse_target("3x T4 Sv4+ W1"),
                        modifiers=Modifiers(command_reroll="hit"), sampling_tables=False)
    two_groups = np.concatenate([plan.groups, plan.groups])
    with pytest.raises(UnsupportedError, match="Monte Carlo"):
        solve(dataclasses.replace(plan, groups=two_groups))


def test_command_line_exact(capsys) -> None:
    import json

    from mathhammer.cli import main

    code = main(["exact", "A1 BS4+ S10 AP0 D1", "--target", "T1 Sv- W1", "--command-reroll",
                 "hit", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert json.loads(out)["damage"]["mean"] == pytest.approx(3 / 4 * 5 / 6, abs=1e-12)
