"""A brute-force oracle for the Dust Tactics tests, independent of the engine.

The rules procedure is written out plainly, die by die, with a ``roll(faces)`` callback that
succeeds on ``faces`` of six. :func:`enumerate_outcomes` walks every branch of that
procedure (each roll splits the path in two with weights faces/6 and 1 - faces/6), so the
result is the exact distribution by enumeration, not by any algebra the engine uses.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction


class _NeedMore(Exception):
    pass


def enumerate_outcomes(procedure):
    """Exact distribution of ``procedure(roll)`` over all sequences of roll outcomes."""
    result: dict = defaultdict(Fraction)
    stack = [()]
    while stack:
        prefix = stack.pop()
        position = 0
        weight = Fraction(1)

        def roll(faces, _prefix=prefix):
            nonlocal position, weight
            if faces <= 0:
                return False
            if faces >= 6:
                return True
            if position == len(_prefix):
                raise _NeedMore
            outcome = _prefix[position]
            position += 1
            weight *= Fraction(faces, 6) if outcome else Fraction(6 - faces, 6)
            return outcome

        try:
            value = procedure(roll)
        except _NeedMore:
            stack.append(prefix + (True,))
            stack.append(prefix + (False,))
            continue
        result[value] += weight
    return dict(result)


def weapon_procedure(n, *, success=2, reroll=False, phaser=0, laser_depth=0, laser=False,
                     laser_reroll=False, evade=0, cover=0, per_point=False, damage=1, dr=0):
    """The pipeline of section 5 for one weapon, as a procedure over ``roll``.

    Returns ``(hits, damage before saves, damage after saves)``.
    """

    def procedure(roll):
        hits = 0
        for _ in range(n):
            ok = roll(success) or (reroll and roll(success))
            if not ok:
                continue
            if phaser:
                hits += sum(1 for _ in range(phaser) if roll(2))
            elif laser:
                hits += 1
                for _ in range(laser_depth):
                    if roll(2) or (laser_reroll and roll(2)):
                        hits += 1
                    else:
                        break
            else:
                hits += 1
        raw = hits * damage
        kept = sum(1 for _ in range(hits) if not roll(evade))
        if per_point:
            points = sum(1 for _ in range(kept * damage) if not roll(cover))
        else:
            points = damage * sum(1 for _ in range(kept) if not roll(cover))
        points = sum(1 for _ in range(points) if not roll(dr))
        return hits, raw, points

    return procedure


def marginal(dist: dict, index: int) -> dict:
    out: dict = defaultdict(Fraction)
    for key, p in dist.items():
        out[key[index]] += p
    return dict(out)


def as_list(dist: dict) -> list:
    top = max(dist)
    return [dist.get(k, Fraction(0)) for k in range(top + 1)]
