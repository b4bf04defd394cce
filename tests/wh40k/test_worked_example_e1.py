"""Worked example E1 of the rules reference (section 4.5), with every die forced.

Attacker: 2 boltguns (A2 BS3+ S4 AP0 D1) and an in-range bolt pistol (A1, identical attacks)
gather 5 dice into one batch; a heavy bolter (A3 BS4+ S5 AP-1 D2) is a batch of its own,
resolved second. Target: one group, T3 Sv3+ InSv5+ W1 (5 models here, so an error that
kills a third model would show).

Batch 1: hits [2,3,4,5,6] v BS3+ -> 4 hits; S4 v T3 needs 3+, wounds [1,3,4,6] -> 3;
saves rolled [6,2,4], sorted [2,4,6]: 2 fails both -> 1 model; 4 passes Sv3+; 6 passes.
Batch 2: hits [2,4,6] v BS4+ -> 2 hits; S5 v T3 needs 3+, wounds [3,5] -> 2; saves rolled
[5,3], sorted [3,5]: 3 - 1 = 2 < 3 and 3 < 5 -> D2 -> 1 model; 5 >= InSv5+ -> saved
(AP does not touch the invulnerable save: 5 - 1 = 4 would have failed). 2 models destroyed.
"""

from __future__ import annotations

from tests.wh40k.oracle import Trace, resolve
from mathhammer.wh40k.parse import parse_target, parse_weapon

BOLTGUNS = parse_weapon('2x Boltgun: 24" A2 BS3+ S4 AP0 D1')
PISTOL = parse_weapon('Bolt pistol: 12" A1 BS3+ S4 AP0 D1 [PISTOL]')
HEAVY_BOLTER = parse_weapon('Heavy bolter: 36" A3 BS4+ S5 AP-1 D2')
TARGET = parse_target("5x T3 Sv3+ InSv5+ W1")

DICE = [2, 3, 4, 5, 6,   # batch 1 hit rolls
        1, 3, 4, 6,      # batch 1 wound rolls
        6, 2, 4,         # batch 1 save rolls, as rolled
        2, 4, 6,         # batch 2 hit rolls
        3, 5,            # batch 2 wound rolls
        5, 3]            # batch 2 save rolls, as rolled


def _run():
    faces = iter(DICE)
    used = []

    def roll() -> int:
        face = next(faces)
        used.append(face)
        return face

    trace = Trace()
    outcome = resolve([(BOLTGUNS, PISTOL), HEAVY_BOLTER], TARGET, roll=roll, trace=trace)
    return outcome, trace, used


def test_e1_two_models_destroyed():
    outcome, _, used = _run()
    assert used == DICE  # every die used, none asked for beyond the script
    assert outcome.models_destroyed == 2
    assert outcome.wounds_lost == 2
    assert outcome.hazard_mortal_wounds == 0


def test_e1_batches_gather_identical_attacks():
    _, trace, _ = _run()
    assert trace.of("dice") == [(5,), (3,)]
    hits = trace.of("hit")
    assert [o for _, o in hits[:5]] == ["fail", "success", "success", "success", "critical"]
    assert [o for _, o in hits[5:]] == ["fail", "success", "critical"]
    assert [o for _, o in trace.of("wound")] == ["fail", "success", "success", "critical",
                                                 "success", "success"]


def test_e1_saves_are_sorted_lowest_first():
    _, trace, _ = _run()
    assert trace.of("saves rolled") == [((6, 2, 4),), ((5, 3),)]
    assert [raw for raw, _ in trace.of("save")] == [2, 4, 6, 3, 5]


def test_e1_invulnerable_save_ignores_ap():
    _, trace, _ = _run()
    assert trace.of("save") == [(2, "damage"), (4, "armour"), (6, "invulnerable"),
                                (3, "damage"), (5, "invulnerable")]
    assert trace.of("damage") == [(1,), (2,)]
