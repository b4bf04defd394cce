"""Baseline 3: the exact distribution of wounds lost with icepool.

The single-batch scenarios written the way an icepool user would: each roll is a
``icepool.d6`` and the attack sequence is a nested ``icepool.map`` (a function of the dice
returning a number or a die, which icepool mixes exactly with rational weights):

- ``per_hit``: what one hit becomes, from its wound roll, save roll and (W1 + FNP) Feel No
  Pain roll: the number of damaging events (1 or 0), or with random damage against one model
  the damage die itself (``D6+1``) or 0. A critical wound with [DEVASTATING WOUNDS] is an event
  without a save roll.
- ``per_attack``: from the hit roll, 0, ``per_hit``, or ``(1 + X) @ per_hit`` for a critical
  hit with [SUSTAINED HITS X]; with [TORRENT] simply ``per_hit``.
- the batch: ``N @ per_attack`` where N is the number of attacks, an int or a die
  (``10 @ d6`` for ten AD6 flamers): icepool's exact sum of a random number of dice.
- allocation by ``.map`` on the total, with the same closed forms as the numpy baseline (see
  :mod:`benchmarks.baselines.numpy_mc`): ``min(total damage, W)`` for one model,
  ``min((n // k) * W + (n % k) * D, models * W)`` with ``k = ceil(W / D)`` for fixed damage.

The answer is the full pmf of wounds lost (a :class:`fractions.Fraction` per outcome),
which the benchmark compares with mathhammer's exact pmf to 1e-12.
"""

from __future__ import annotations

import math

import icepool
import numpy as np

from benchmarks.scenarios import NO_ROLL, Scenario


def wounds_lost(s: Scenario) -> icepool.Die:
    """The exact distribution of wounds lost, as an icepool die."""
    d6 = icepool.d6
    random_damage = s.damage.random
    if random_damage:
        if s.models != 1 or s.fnp < NO_ROLL:
            raise NotImplementedError("random damage: one model without FNP only")
        damage_die = s.damage.count @ icepool.Die(range(1, s.damage.sides + 1)) + s.damage.const
    if s.fnp < NO_ROLL and (s.wounds != 1 or s.damage.const != 1):
        raise NotImplementedError("Feel No Pain: W1, D1 targets only")

    def event():
        return damage_die if random_damage else 1

    def hit_outcome(wound, save, fnp):
        if wound < s.wound_on:
            return 0
        if not (s.devastating and wound == 6) and save >= s.save_on:
            return 0
        if fnp >= s.fnp:
            return 0
        return event()

    fnp_die = d6 if s.fnp < NO_ROLL else icepool.Die([1])
    per_hit = icepool.map(hit_outcome, d6, d6, fnp_die)

    if s.hit_on is None:
        per_attack = per_hit
    else:
        def attack_outcome(hit):
            if hit == 6:
                return (1 + s.sustained) @ per_hit
            return per_hit if hit >= s.hit_on else 0
        per_attack = icepool.map(attack_outcome, d6)

    if s.attacks.random:
        n_dice = s.n_weapons * s.attacks.count
        attacks = n_dice @ icepool.Die(range(1, s.attacks.sides + 1)) + \
            s.n_weapons * s.attacks.const
    else:
        attacks = s.n_weapons * s.attacks.const
    total = attacks @ per_attack

    cap = s.models * s.wounds
    if random_damage:
        return total.map(lambda dmg: min(dmg, cap))
    if s.fnp < NO_ROLL:
        return total.map(lambda kills: min(kills, s.models))
    d = s.damage.const
    k = math.ceil(s.wounds / d)
    return total.map(lambda n: min((n // k) * s.wounds + (n % k) * d, cap))


def pmf(die: icepool.Die, size: int) -> np.ndarray:
    """Dense float pmf indexed by wounds lost."""
    out = np.zeros(size)
    for outcome, probability in zip(die.outcomes(), die.probabilities()):
        out[int(outcome)] = float(probability)
    return out
