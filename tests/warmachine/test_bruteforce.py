"""The exact engine against a brute-force oracle on small single-target sequences.

The oracle below is written from the rules text alone: it enumerates every face of every
die of every roll (attack roll, reroll, damage roll, Tough roll) with exact fractions and
reads the attack profiles directly, without the compiled plan or any engine code.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import lru_cache

import pytest

from mathhammer.warmachine import Attack, Target, exact
from mathhammer.warmachine.parse import parse_attack, parse_target

F = Fraction


@lru_cache(maxsize=None)
def _roll(n, drop, need, reroll_misses):
    """{'miss'|'hit'|'crit': probability} by listing all dice (and the reroll's dice)."""
    def once():
        out = {"miss": F(0), "hit": F(0), "crit": F(0)}
        if n - drop <= 0 or n <= 0:
            out["miss"] = F(1)
            return out
        for dice in itertools.product(range(1, 7), repeat=n):
            kept = sorted(dice)[drop:]
            if all(d == 1 for d in kept):
                kind = "miss"
            elif (len(kept) >= 2 and all(d == 6 for d in kept)) or sum(kept) >= need:
                kind = "crit" if len(set(kept)) < len(kept) else "hit"
            else:
                kind = "miss"
            out[kind] += F(1, 6 ** n)
        return out
    first = once()
    if not reroll_misses:
        return first
    second = once()
    return {k: (first[k] if k != "miss" else 0) + first["miss"] * second[k] for k in first}


@lru_cache(maxsize=None)
def _damage(n, drop, bonus, mult):
    out = {}
    if n <= 0 or n - drop <= 0:
        return {max(0, bonus) * mult: F(1)}
    for dice in itertools.product(range(1, 7), repeat=n):
        value = max(0, sum(sorted(dice)[drop:]) + bonus) * mult
        out[value] = out.get(value, F(0)) + F(1, 6 ** n)
    return out


def oracle(attacks, target):
    """{(boxes marked, destroyed): probability} for attack lines against one model."""
    sequence = []
    for a in attacks:
        for k in range(a.count):
            sequence.append((a, k == 0))
    boxes = target.boxes

    @lru_cache(maxsize=None)
    def go(i, marked, knocked, budget):
        if i == len(sequence):
            return {(marked, marked >= boxes): F(1)}
        attack, first = sequence[i]
        if first:
            budget = attack.damage_boosts
        if marked >= boxes:
            return go(i + 1, marked, knocked, budget)
        low = knocked or target.stationary
        if attack.auto_miss:
            roll = {"miss": F(1), "hit": F(0), "crit": F(0)}
        elif attack.is_melee and low:
            roll = {"miss": F(0), "hit": F(1), "crit": F(0)}
        else:
            n = 2 + attack.boosted_attack + (k_first_boost(attack, i, sequence)) \
                + attack.attack_dice
            need = (5 if low else target.defense) - attack.stat
            roll = _roll(n, attack.attack_drop, need, attack.reroll_attack == "on_miss")
        out = {}
        for kind, p in roll.items():
            if p == 0:
                continue
            if kind == "miss":
                for key, q in go(i + 1, marked, knocked, budget).items():
                    out[key] = out.get(key, F(0)) + p * q
                continue
            crit = kind == "crit"
            kd = knocked or (crit and attack.crit_knockdown)
            boosted = attack.boosted_damage or (attack.charge and first)
            left = budget
            if not boosted and left > 0:
                boosted, left = True, left - 1
            armor = target.armor
            if attack.armor_piercing or (crit and attack.crit_armor_piercing):
                armor = (armor + 1) // 2
            n_dmg = 2 + boosted + attack.damage_dice + (attack.crit_damage_dice if crit else 0)
            mult = attack.crit_damage_multiplier if crit else 1
            for dmg, q in _damage(n_dmg, attack.damage_drop, attack.pow - armor, mult).items():
                new = min(boxes, marked + dmg)
                branches = [(F(1), new, kd)]
                if new >= boxes and target.tough and not kd \
                        and not (crit and attack.crit_no_tough):
                    save = F(7 - target.tough_threshold, 6)
                    branches = [(save, boxes - 1, True), (1 - save, boxes, kd)]
                for r, m, k in branches:
                    for key, s in go(i + 1, m, k, left).items():
                        out[key] = out.get(key, F(0)) + p * q * r * s
        return out

    return go(0, target.damaged, target.knocked_down, 0)


def k_first_boost(attack, i, sequence):
    """1 when attack ``i`` is among the first ``attack_boosts`` of its line."""
    start = max(j for j in range(i + 1) if sequence[j][1])
    return int(i - start < attack.attack_boosts)


def _random_case(rng):
    keywords = []
    if rng.random() < 0.3:
        keywords.append("CHARGE")
    if rng.random() < 0.2:
        keywords.append("ARMOR-PIERCING")
    if rng.random() < 0.3:
        keywords.append("CRITICAL KNOCKDOWN")
    if rng.random() < 0.2:
        keywords.append("CRITICAL DECAPITATION")
    if rng.random() < 0.2:
        keywords.append("CRITICAL DAMAGE MULTIPLIER 2")
    if rng.random() < 0.2:
        keywords.append("CRITICAL DAMAGE DIE")
    if rng.random() < 0.2:
        keywords.append("CRITICAL ARMOR-PIERCING")
    if rng.random() < 0.3:
        keywords.append("REROLL MISSES")
    elif rng.random() < 0.3:
        keywords.append("ADDITIONAL ATTACK DIE, ATTACK DROP LOWEST")
    count = rng.randint(1, 3)
    if rng.random() < 0.3:
        keywords.append(f"ATTACK BOOSTS {rng.randint(1, count)}")
    if rng.random() < 0.3:
        keywords.append(f"DAMAGE BOOSTS {rng.randint(1, 2)}")
    stat = rng.randint(3, 8)
    pow_ = rng.randint(8, 16)
    attack = f"{count}x Weapon: MAT{stat} POW{pow_}" + (f" [{', '.join(keywords)}]"
                                                         if keywords else "")
    tkw = []
    if rng.random() < 0.4:
        tkw.append(rng.choice(["TOUGH", "TOUGH 4+"]))
    if rng.random() < 0.15:
        tkw.append("KNOCKED DOWN")
    boxes = rng.choice([1, 1, 3, 5, 8, 12])
    target = f"Model: DEF{rng.randint(11, 15)} ARM{rng.randint(10, 18)} BOXES{boxes}" + \
        (f" [{', '.join(tkw)}]" if tkw else "")
    return attack, target


CASES = [_random_case(random.Random(seed)) for seed in range(40)]


@pytest.mark.parametrize("attack, target", CASES)
def test_exact_matches_brute_force(attack, target):
    a, t = parse_attack(attack), parse_target(target)
    truth = oracle([a], t)
    result = exact(a, t)
    damage = [F(0)] * (t.boxes + 1)
    destroyed = F(0)
    for (marked, dead), p in truth.items():
        damage[marked - t.damaged] += p
        destroyed += p if dead else 0
    engine = list(result.pmf("damage")) + [0.0] * (t.boxes + 1)
    for k, p in enumerate(damage):
        assert engine[k] == pytest.approx(float(p), abs=1e-12), k
    assert result.probability("unit_destroyed") == pytest.approx(float(destroyed), abs=1e-12)


def test_two_lines_brute_force():
    lines = [parse_attack("Fist: MAT6 POW12 [CHARGE, CRITICAL KNOCKDOWN]"),
             parse_attack("2x Claw: MAT5 POW10 [DAMAGE BOOSTS 1]")]
    target = parse_target("Solo: DEF13 ARM13 BOXES8 [TOUGH]")
    truth = oracle(lines, target)
    result = exact(lines, target)
    destroyed = sum(p for (_, dead), p in truth.items() if dead)
    mean = sum(p * m for (m, _), p in truth.items())
    assert result.probability("unit_destroyed") == pytest.approx(float(destroyed), abs=1e-12)
    assert result.mean("damage") == pytest.approx(float(mean), abs=1e-12)
