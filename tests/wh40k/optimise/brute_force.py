"""A brute-force resolver of small one-activation scenarios, written from the rules spec
(/work/shared/rules/wh40k-11e.md), for the optimiser's tests. It shares no code with the
engines: it rolls every die one at a time in exact fractions.

What it follows (and all it follows): one activation, weapons of constant A and S, D constant,
D3 or D6, and no abilities, targets of one statline (W1 or more, a save or none), re-rolls of
hit rolls of 1, and the activation's one Command Re-roll on a hit, wound, save or Damage
roll.

- 04.03 gather: targets in the order first named by the activation's attacks; at each
  target, identical attacks (same BS, S, AP, D) in one batch, batches in the order their
  first attack appears, weapons named in the activation's ``order`` first.
- A batch against a unit already destroyed is not resolved (no dice are rolled).
- Within a batch every hit roll is made, then every wound roll, then every save (2.2).
- Hit: an unmodified 6 always hits, a 1 always fails; re-rolling 1s re-rolls a 1 once.
  Wound: S against T (2x: 2+, >: 3+, =: 4+, <: 5+, half or less: 6+), a 6 always wounds, a
  1 always fails. Save: Sv - AP (no save when above 6), a 1 always fails.
- Command Re-roll (15.02): the first hit (wound, save) roll that fails and has not been
  re-rolled already is rolled again (a save only when it could pass), or the first Damage
  roll below the dice's average (a 1 on a D3, 1-3 on a D6); one per activation, whatever
  the targets.
- Damage: each unsaved attack's D, rolled while the unit stands, goes to the wounded model
  first; excess is lost.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

SIXTH = Fraction(1, 6)


def wound_needed(strength: int, toughness: int) -> int:
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def _passes(face: int, needed: int) -> bool:
    return face != 1 and (face == 6 or face >= needed)


def _rolls(dice: int, needed: int, in_hand: bool, command: bool, ones: bool):
    """{(successes, re-roll still in hand): probability} of ``dice`` rolls needing
    ``needed``+, re-rolling 1s when ``ones``, and the first eligible failure again with
    the Command Re-roll when ``command`` and ``in_hand``."""
    dist = {(0, in_hand): Fraction(1)}
    for _ in range(dice):
        out: dict = defaultdict(Fraction)
        for (wins, hand), p in dist.items():
            for face in range(1, 7):
                rerolled = False
                outcomes = [(face, SIXTH)]
                if ones and face == 1:
                    outcomes = [(f, SIXTH * SIXTH) for f in range(1, 7)]
                    rerolled = True
                for f, q in outcomes:
                    if _passes(f, needed):
                        out[(wins + 1, hand)] += p * q
                    elif command and hand and not rerolled:
                        for g in range(1, 7):
                            out[(wins + _passes(g, needed), False)] += p * q * SIXTH
                    else:
                        out[(wins, hand)] += p * q
        dist = dict(out)
    return dist


def _damage_law(damage: str) -> tuple[dict[int, Fraction], int]:
    """The law of one Damage roll and the value the Command Re-roll re-rolls below."""
    if damage == "D3":
        return {v: Fraction(1, 3) for v in (1, 2, 3)}, 2
    if damage == "D6":
        return {v: SIXTH for v in range(1, 7)}, 4
    return {int(damage): Fraction(1)}, 0


def _damage(state: tuple[int, int], unsaved: int, damage: str, wounds: int, models: int,
            hand: bool, command: bool) -> dict:
    """{((models destroyed, wounds on the wounded model), re-roll in hand): probability}."""
    law, below = _damage_law(damage)
    dist = {(state, hand): Fraction(1)}
    for _ in range(unsaved):
        out: dict = defaultdict(Fraction)
        for ((dead, taken), h), p in dist.items():
            if dead == models:   # destroyed: nothing more is rolled
                out[((dead, taken), h)] += p
                continue
            for value, q in law.items():
                if command and h and value < below:
                    finals = [(v, r, False) for v, r in law.items()]
                else:
                    finals = [(value, Fraction(1), h)]
                for v, r, h2 in finals:
                    t = taken + v
                    after = (dead + 1, 0) if t >= wounds else (dead, t)
                    out[(after, h2)] += p * q * r
        dist = dict(out)
    return dist


def gather(scenario, k: int = 0):
    """(target, [(weapon, weapons firing)]) batches of activation ``k`` (04.03)."""
    act = scenario.activations[k]
    attacks = scenario.attacks[k]
    attacker = scenario.units[act.attacker]
    targets = list(dict.fromkeys(a.target for a in attacks))
    wanted = [n.lower() for n in act.order]
    out = []
    for target in targets:
        keyed: dict = {}
        for a in attacks:
            if a.target != target:
                continue
            w = a.weapon
            key = (w.skill, w.strength, w.ap, str(w.damage))
            group = next(g for g in attacker.groups if g.name == a.group)
            keyed.setdefault(key, []).append((w, group.count * a.per_model))
        batches = list(keyed.values())
        batches.sort(key=lambda b: min([wanted.index(w.name.lower()) for w, _ in b
                                        if w.name.lower() in wanted] or [len(wanted)]))
        out.extend((target, b) for b in batches)
    return out


def resolve(scenario) -> dict[tuple[tuple[int, int], ...], Fraction]:
    """The joint law of every target's final (models destroyed, wounds on the wounded
    model), targets in ``targets_of(scenario)`` order."""
    act = scenario.activations[0]
    kind = act.modifiers.command_reroll
    ones = act.modifiers.reroll_hits == "ones"
    batches = gather(scenario)
    names = targets_of(scenario)
    dist = {(tuple((0, 0) for _ in names), kind != "none"): Fraction(1)}
    for target, members in batches:
        t = names.index(target)
        profile = scenario.units[target].groups[0].profile
        models = scenario.units[target].groups[0].count
        weapon = members[0][0]
        dice = sum(int(w.attacks.constant) * n for w, n in members)
        save = profile.save - weapon.ap
        to_wound = wound_needed(weapon.strength, profile.toughness)
        out: dict = defaultdict(Fraction)
        for (states, hand), p in dist.items():
            if states[t][0] == models:   # destroyed: the batch is skipped
                out[(states, hand)] += p
                continue
            for (hits, h1), q1 in _rolls(dice, weapon.skill, hand, kind == "hit", ones).items():
                for (wounds, h2), q2 in _rolls(hits, to_wound, h1, kind == "wound",
                                               False).items():
                    if save > 6:
                        fails = {(wounds, h2): Fraction(1)}
                    else:
                        fails = {(wounds - s, h3): q for (s, h3), q in
                                 _rolls(wounds, save, h2, kind == "save", False).items()}
                    for (unsaved, h3), q3 in fails.items():
                        for (after, h4), q4 in _damage(states[t], unsaved, str(weapon.damage),
                                                       profile.wounds, models, h3,
                                                       kind == "damage").items():
                            new = states[:t] + (after,) + states[t + 1:]
                            out[(new, h4)] += p * q1 * q2 * q3 * q4
        dist = dict(out)
    joint: dict = defaultdict(Fraction)
    for (states, _), p in dist.items():
        joint[states] += p
    return dict(joint)


def targets_of(scenario) -> list[str]:
    """Every unit of the scenario's side other than the attacker's, in listed order."""
    attacker = scenario.activations[0].attacker
    return [u for u in scenario.units if scenario.sides[u] != scenario.sides[attacker]]
