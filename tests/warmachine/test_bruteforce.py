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

from mathhammer.warmachine import exact
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


def oracle_lanes(attacks, target, policy="always"):
    """{(marks per lane, beast boxes marked, destroyed): probability} against one model with
    a damage grid (or none: one lane holding every box) and/or damage transfer.

    Written from rules sections 7.2 and 7.4 and the transfer example: per damage roll, the
    warlock may move the damage to its beast (which keeps what it can hold), then a d6 (or
    the chosen lane) picks where marking starts, lanes filling in order and wrapping 6 -> 1;
    a Tough save unmarks the last box marked and knocks the model down. Plain melee attacks
    only (hit, crit, damage).
    """
    sequence = [a for a in attacks for _ in range(a.count)]
    lengths = [len(lane) for lane in target.grid] if target.grid else [target.boxes]
    boxes = sum(lengths)

    def fill(marks, start, damage):
        marks = list(marks)
        lane, last = start, start
        for _ in range(len(lengths)):
            take = min(damage, lengths[lane] - marks[lane])
            if take:
                marks[lane] += take
                damage -= take
                last = lane
            lane = (lane + 1) % len(lengths)
        return tuple(marks), last

    @lru_cache(maxsize=None)
    def go(i, marks, knocked, transfers, beast):
        marked = sum(marks)
        if i == len(sequence) or marked >= boxes:
            return {(marks, beast, marked >= boxes): F(1)}
        attack = sequence[i]
        need = target.defense - attack.stat
        out = {}
        roll = _roll(2 + attack.attack_dice, 0, need, False)
        if knocked:  # melee against a knocked-down model hits automatically (section 6)
            roll = {"miss": F(0), "hit": F(1), "crit": F(0)}

        def add(p, key_dist):
            for key, q in key_dist.items():
                out[key] = out.get(key, F(0)) + p * q

        for kind, p in roll.items():
            if p == 0:
                continue
            if kind == "miss":
                add(p, go(i + 1, marks, knocked, transfers, beast))
                continue
            for dmg, q in _damage(2, 0, attack.pow - target.armor, 1).items():
                t, b = transfers, beast
                if dmg and t and b < target.transfer_boxes and (
                        policy == "always" or marked + dmg >= boxes):
                    moved = min(dmg, target.transfer_boxes - b)
                    t, b, dmg = t - 1, b + moved, dmg - moved
                if dmg == 0:
                    add(p * q, go(i + 1, marks, knocked, t, b))
                    continue
                starts = ([attack.lane - 1] if attack.lane else range(len(lengths))) \
                    if target.grid else [0]
                for start in starts:
                    r = F(1, len(starts))
                    new, last = fill(marks, start, dmg)
                    if sum(new) >= boxes and target.tough and not knocked:
                        save = F(7 - target.tough_threshold, 6)
                        unmarked = tuple(m - (lane == last) for lane, m in enumerate(new))
                        add(p * q * r * save, go(i + 1, unmarked, True, t, b))
                        r *= 1 - save
                    add(p * q * r, go(i + 1, new, knocked, t, b))
        return out

    return go(0, (0,) * len(lengths), False, target.transfers, 0)


LANE_CASES = [
    (["2x Fist: MAT6 POW15"], "Jack: DEF12 ARM15 BOXES13 [GRID -L/-LL/MC/C/R-R/-R]", "always"),
    (["3x Fist: MAT6 POW14 [LANE 5]"], "Jack: DEF12 ARM14 BOXES10 [GRID A/CC/-/G/HHH/MM]",
     "always"),
    (["2x Claw: MAT7 POW13"], "Beast: DEF13 ARM13 BOXES11 [SPIRAL -B/BB/M-/MM/S/-S, TOUGH]",
     "always"),
    (["3x Spear: MAT7 POW12"], "Lock: DEF14 ARM13 BOXES6 [TRANSFER 2, TRANSFER BOXES 4]",
     "always"),
    (["3x Spear: MAT7 POW12"], "Lock: DEF14 ARM13 BOXES6 [TRANSFER 2, TRANSFER BOXES 4]",
     "lethal"),
    (["2x Spear: MAT7 POW13"],
     "Lock: DEF13 ARM13 BOXES8 [SPIRAL B/M/S/BB/MM/S, TRANSFER 1, TRANSFER BOXES 3, TOUGH]",
     "lethal"),
]


@pytest.mark.parametrize("attacks, target, policy", LANE_CASES)
def test_grids_transfer_and_crippling_match_brute_force(attacks, target, policy):
    from mathhammer.warmachine import Rules

    lines, model = [parse_attack(a) for a in attacks], parse_target(target)
    truth = oracle_lanes(lines, model, policy)
    result = exact(lines, model, rules=Rules(transfer_policy=policy))
    damage = [F(0)] * (model.boxes + 1)
    moved = [F(0)] * (model.transfer_boxes + 1)
    crippled = {letter: F(0) for letter in model.systems}
    for (marks, beast, dead), p in truth.items():
        damage[sum(marks)] += p
        moved[beast] += p
        for letter in crippled:  # every box with the letter is among the marked ones
            if all(lane.rfind(letter) < m for lane, m in zip(model.grid, marks)):
                crippled[letter] += p
    engine = list(result.pmf("damage")) + [0.0] * (model.boxes + 1)
    for k, p in enumerate(damage):
        assert engine[k] == pytest.approx(float(p), abs=1e-12), k
    for letter, p in crippled.items():
        assert result.probability(f"crippled_{letter}") == pytest.approx(float(p), abs=1e-12)
    if model.transfers:
        pmf = list(result.pmf("damage_transferred")) + [0.0] * len(moved)
        for k, p in enumerate(moved):
            assert pmf[k] == pytest.approx(float(p), abs=1e-12), k
        assert result.probability("beast_destroyed") == pytest.approx(float(moved[-1]),
                                                                      abs=1e-12)
