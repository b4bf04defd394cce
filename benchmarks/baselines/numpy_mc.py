"""Baseline 2: a straightforward vectorised numpy Monte Carlo.

Written the way a competent numpy user would: one :func:`numpy.random.default_rng`
Generator, arrays over trials, binomial thinning step by step (a Binomial(n, p) draw per trial
for each roll of the sequence instead of one random number per die), and ``np.bincount``
histograms, in blocks of 2**20 trials so memory stays bounded.

Per block of trials:

1. attacks: a constant, or the sum of D6 per weapon (``integers(1, 7, (n, weapons))``);
2. hits: critical hits ~ Binomial(attacks, 1/6); other hits ~ Binomial(attacks - crits,
   P(hit | not 6)); [SUSTAINED HITS X] adds X per critical; [TORRENT] hits = attacks;
3. wounds: critical wounds ~ Binomial(hits, 1/6), other wounds ~ Binomial(rest, P(wound | not
   6)); [DEVASTATING WOUNDS] sets the critical ones aside as mortal-wound events;
4. saves: unsaved ~ Binomial(to save, P(save fails));
5. allocation, the part where numpy needs the scenario's shape (the simplifications):
   - fixed damage D, no Feel No Pain: every damaging event (unsaved wound or devastating
     wound) deals D to the wounded model first and excess is lost, so a model needs
     ``k = ceil(W / D)`` events and ``lost = min((n // k) * W + (n % k) * D, models * W)``.
     Devastating mortal wounds behave exactly like this too when D is fixed (one model each,
     wounded model first);
   - W1 with Feel No Pain and fixed D: a model dies unless all D of its FNP rolls succeed,
     so kills ~ Binomial(events, 1 - P(FNP)**D);
   - one model, random damage, no Feel No Pain: lost = min(sum of the events' damage, W),
     damage drawn as an (n, max events) array masked by each trial's event count.
   Any other shape (random damage against several multi-wound models, FNP with W > 1,
   [LETHAL HITS]) raises ``NotImplementedError``: a per-model allocation loop is where
   vectorised numpy stops being straightforward.
"""

from __future__ import annotations

import math

import numpy as np

from benchmarks.scenarios import NO_ROLL, Scenario

BLOCK = 1 << 20


def simulate_block(s: Scenario, rng: np.random.Generator, n: int) -> np.ndarray:
    """Wounds lost in ``n`` trials (int64 array)."""
    # 1. Attacks.
    if s.attacks.random:
        faces = rng.integers(1, s.attacks.sides + 1, size=(n, s.n_weapons * s.attacks.count))
        attacks = faces.sum(axis=1) + s.n_weapons * s.attacks.const
    else:
        attacks = np.full(n, s.n_weapons * s.attacks.const, dtype=np.int64)
    # 2. Hits.
    if s.hit_on is None:
        hits = attacks
    else:
        crits = rng.binomial(attacks, 1 / 6)
        normal = rng.binomial(attacks - crits, (6 - s.hit_on) / 5)
        hits = normal + crits * (1 + s.sustained)
    # 3. Wounds.
    crit_wounds = rng.binomial(hits, 1 / 6)
    wounds = rng.binomial(hits - crit_wounds, (6 - s.wound_on) / 5)
    if s.devastating:
        devastating = crit_wounds
    else:
        devastating = 0
        wounds = wounds + crit_wounds
    # 4. Saves.
    unsaved = rng.binomial(wounds, (s.save_on - 1) / 6)
    events = unsaved + devastating
    # 5. Allocation.
    total = s.models * s.wounds
    if s.damage.random:
        if s.models != 1 or s.fnp < NO_ROLL:
            raise NotImplementedError("random damage: one model without FNP only")
        most = int(events.max()) if n else 0
        dmg = rng.integers(1, s.damage.sides + 1, size=(n, most * s.damage.count))
        dmg = dmg.reshape(n, most, s.damage.count).sum(axis=2) + s.damage.const
        dmg *= np.arange(most) < events[:, None]
        return np.minimum(dmg.sum(axis=1), total)
    d = s.damage.const
    if s.fnp < NO_ROLL:
        if s.wounds != 1:
            raise NotImplementedError("Feel No Pain: W1 targets only")
        ignored = (7 - s.fnp) / 6  # P(one FNP roll succeeds)
        kills = rng.binomial(events, 1.0 - ignored**d)
        return np.minimum(kills, s.models)
    k = math.ceil(s.wounds / d)
    return np.minimum((events // k) * s.wounds + (events % k) * d, total)


def simulate(s: Scenario, trials: int, seed: int = 1) -> np.ndarray:
    """Histogram of wounds lost over ``trials`` trials."""
    rng = np.random.default_rng(seed)
    hist = np.zeros(s.models * s.wounds + 1, dtype=np.int64)
    done = 0
    while done < trials:
        n = min(BLOCK, trials - done)
        hist += np.bincount(simulate_block(s, rng, n), minlength=len(hist))
        done += n
    return hist
