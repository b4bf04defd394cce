"""Compile a :class:`~mathhammer.wh40k.scenario.Scenario` into flat arrays for the kernel.

Layout (every array is int64):

- ``subs[S, ...]``: *sub-groups*, the unit of state. Each allocation group (05.03) is a
  contiguous run of sub-groups, one per model group it draws models from, in removal order.
- ``allocs[A, ...]``: allocation groups: unit, first sub-group, how many, CHARACTER flag, W,
  and the group's index inside its unit (for the per-group save tables).
- ``units[U, ...]``: ranges into the above, the declared allocation order (``orders``), the
  toughness values the unit can present (``toughness``), its side, and whether every model is
  a MONSTER or VEHICLE (hazard rolls).
- ``batches[B, ...]``: the columns of :mod:`mathhammer.wh40k.compile` plus the target unit,
  the contributing model groups (``contribs``), [BLAST]/[CLEAVE] X and flags. Tables:
  ``hit[B, 2, 7]``, ``wound[B, 2T, 7]`` (rows 2t and 2t+1: outcome and re-roll for
  toughness index t), ``saves[B, G, 2, 7]``
  (per allocation group of the target), ``damage_maps[B, 2, Dmax + 1]``.
- ``activations[K, ...]``: attacker and batch range. The kernel repeats them ``rounds`` times.
- Report bins: per checkpoint (round x activation), histograms of models destroyed and wounds
  lost per unit and models destroyed per model group, laid out at fixed offsets.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.compile import BATCH_COLUMNS, N_WEAPONS, Defender, batch_tables, feel_no_pain
from mathhammer.wh40k.profiles import Modifiers
from mathhammer.wh40k.scenario.activations import Attack
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import allocation_groups, declared_order

# subs columns
(S_UNIT, S_MODELS, S_WOUNDS, S_FNP, S_FNP_MORTAL, S_ALLOC, S_TOUGHNESS, S_BODYGUARD,
 S_REPORT) = range(9)
# allocs columns
A_UNIT, A_FIRST_SUB, A_N_SUBS, A_CHARACTER, A_WOUNDS, A_LOCAL = range(6)
# units columns
(U_FIRST_SUB, U_N_SUBS, U_FIRST_ALLOC, U_N_ALLOCS, U_ORDER, U_FIRST_T, U_N_T, U_ALL_MV,
 U_MODELS, U_WOUNDS, U_SIDE, U_MODEL_BINS, U_WOUND_BINS) = range(13)
# batch columns beyond the single-batch ones
(B_TARGET, B_FIRST_CONTRIB, B_N_CONTRIBS, B_BLAST, B_CLEAVE, B_HAZARDOUS,
 B_PRECISION, B_ONE_SHOT) = range(BATCH_COLUMNS, BATCH_COLUMNS + 8)
SCENARIO_BATCH_COLUMNS = BATCH_COLUMNS + 8
# contribs columns: which model group fires, how many weapons per model, its A (or split)
C_SUB_FIRST, C_SUB_COUNT, C_PER_MODEL, C_A_COUNT, C_A_SIDES, C_A_CONST = range(6)
# activations columns
K_ATTACKER, K_FIRST_BATCH, K_N_BATCHES = range(3)


@dataclass(frozen=True, eq=False)
class ScenarioPlan:
    """Flat arrays for the scenario kernel, plus the names needed to read its histograms."""

    subs: np.ndarray
    allocs: np.ndarray
    units: np.ndarray
    orders: np.ndarray
    toughness: np.ndarray
    batches: np.ndarray
    contribs: np.ndarray
    hit: np.ndarray
    wound: np.ndarray
    saves: np.ndarray
    damage_maps: np.ndarray
    activations: np.ndarray
    rounds: int
    dw_at_unit_end: int
    report_groups: np.ndarray      # [R, 3]: unit, models, bin offset
    unit_names: tuple[str, ...]
    group_names: tuple[tuple[str, str], ...]   # (unit, group) per report group
    activation_labels: tuple[str, ...]
    side_names: tuple[str, ...]
    model_bins: int
    wound_bins: int
    group_bins: int
    batch_labels: tuple[str, ...]
    one_shot_slots: int = 0
    hit_cdfs: np.ndarray = None     # float64[B, 2, N + 1, N + 1]: crits, hits of the rest
    wound_cdfs: np.ndarray = None   # float64[B, 2T, N + 1, N + 1]: rows 2t, 2t+1 for T index t
    save_cdfs: np.ndarray = None    # float64[B, 1, N + 1, N + 1]: failed saves, one group
    use_counts: int = 1

    @property
    def checkpoints(self) -> int:
        return self.rounds * self.activations.shape[0]


def compile_scenario(scenario: Scenario) -> ScenarioPlan:
    """Lay out units, allocation groups and every activation's batches as arrays."""
    unit_names = tuple(scenario.units)
    unit_index = {name: i for i, name in enumerate(unit_names)}
    side_names = tuple(dict.fromkeys(scenario.sides[u] for u in unit_names))
    subs, allocs, units, orders, toughness, report = [], [], [], [], [], []
    group_names = []
    model_bins = wound_bins = group_bins = 0
    alloc_local: dict[str, list[int]] = {}
    for u, name in enumerate(unit_names):
        unit = scenario.units[name]
        groups = allocation_groups(unit)
        first_report = len(report)
        for g in unit.groups:
            report.append([u, g.count, group_bins])
            group_names.append((name, g.name))
            group_bins += g.count + 1
        first_sub, first_alloc = len(subs), len(allocs)
        alloc_local[name] = []
        for local, ag in enumerate(groups):
            alloc_local[name].append(len(allocs))
            allocs.append([u, len(subs), len(ag.parts), int(ag.character), ag.wounds, local])
            for group_index, models in ag.parts:
                g = unit.groups[group_index]
                fnp_all, fnp_mortal = feel_no_pain(g.profile, Modifiers())
                subs.append([u, models, g.profile.wounds, fnp_all, fnp_mortal, len(allocs) - 1,
                             g.profile.toughness, int(g.role == "bodyguard"),
                             first_report + group_index])
        t_values = sorted({g.profile.toughness for g in unit.groups})
        order = [first_alloc + i for i in declared_order(unit)]
        units.append([first_sub, len(subs) - first_sub, first_alloc, len(allocs) - first_alloc,
                      len(orders), len(toughness), len(t_values),
                      int(unit.all_monster_or_vehicle), unit.models,
                      sum(g.count * g.profile.wounds for g in unit.groups),
                      side_names.index(scenario.sides[name]), model_bins, wound_bins])
        orders.extend(order)
        toughness.extend(t_values)
        model_bins += unit.models + 1
        wound_bins += sum(g.count * g.profile.wounds for g in unit.groups) + 1

    batch_rows, contribs, tables, labels, acts, act_labels = [], [], [], [], [], []
    one_shot_slots: dict[tuple[str, str], int] = {}
    for activation, attacks in zip(scenario.activations, scenario.attacks):
        batches = _gather(scenario, activation, attacks)
        acts.append([unit_index[activation.attacker], len(batch_rows), len(batches)])
        act_labels.append(activation.label)
        attacker = scenario.units[activation.attacker]
        for target_name, members in batches:
            target = scenario.units[target_name]
            defender = _defender(target)
            modifiers = dataclasses.replace(activation.modifiers,
                                            damage_minus=target.damage_minus,
                                            damage_halved=target.damage_halved,
                                            reroll_saves=target.reroll_saves)
            weapon = members[0].weapon
            t = batch_tables(weapon, defender, activation.situation, modifiers, scenario.rules)
            row = list(t.row) + [0] * (SCENARIO_BATCH_COLUMNS - BATCH_COLUMNS)
            row[N_WEAPONS] = 0  # counted from the attacking models alive, in the kernel
            row[B_TARGET] = unit_index[target_name]
            row[B_FIRST_CONTRIB] = len(contribs)
            row[B_N_CONTRIBS] = len(members)
            row[B_BLAST] = t.blast_per_five
            row[B_CLEAVE] = t.cleave_per_five if len({a.target for a in attacks
                                                      if a.weapon == weapon}) == 1 else 0
            row[B_HAZARDOUS] = int(weapon.has(ab.HAZARDOUS))
            row[B_PRECISION] = int(bool(weapon.active(ab.PRECISION, target.keywords)))
            row[B_ONE_SHOT] = -1
            if weapon.has(ab.ONE_SHOT):  # 24.26: once per battle, tracked per unit and weapon
                key = (activation.attacker, str(weapon))
                row[B_ONE_SHOT] = one_shot_slots.setdefault(key, len(one_shot_slots))
            for attack in members:
                first, count = _sub_range(scenario, attacker, attack.group, subs,
                                          unit_index[activation.attacker])
                a = attack.weapon.attacks
                if attack.split_attacks is not None:
                    a_count, a_sides, a_const = 0, 0, attack.split_attacks
                else:
                    a_count, a_sides, a_const = a.count, a.sides, a.constant
                for f, c in zip(first, count):
                    contribs.append([f, c, attack.per_model, a_count, a_sides, a_const])
                row[B_N_CONTRIBS] = len(contribs) - row[B_FIRST_CONTRIB]
            batch_rows.append(row)
            tables.append(t)
            labels.append(f"{activation.label}: {weapon}")

    max_t = max(1, max(u[U_N_T] for u in units))
    max_g = max(1, max(u[U_N_ALLOCS] for u in units))
    width = max(t.damage_maps.shape[1] for t in tables)
    n = len(tables)
    wound = np.zeros((n, max_t, 2, 7), dtype=np.int64)
    saves = np.ones((n, max_g, 2, 7), dtype=np.int64)
    damage_maps = np.ones((n, 2, width), dtype=np.int64)
    for b, t in enumerate(tables):
        wound[b, : t.wound.shape[0]] = t.wound
        saves[b, : t.saves.shape[0]] = t.saves
        damage_maps[b, :, : t.damage_maps.shape[1]] = t.damage_maps
    contrib_array = np.array(contribs, dtype=np.int64).reshape(-1, 6)
    sub_array = np.array(subs, dtype=np.int64)
    hit_cdfs, wound_cdfs, save_cdfs = _count_tables(batch_rows, contrib_array, sub_array,
                                                    tables, wound, saves,
                                                    [scenario.units[n].models
                                                     for n in unit_names])
    return ScenarioPlan(
        hit_cdfs=hit_cdfs, wound_cdfs=wound_cdfs, save_cdfs=save_cdfs,
        subs=np.array(subs, dtype=np.int64), allocs=np.array(allocs, dtype=np.int64),
        units=np.array(units, dtype=np.int64), orders=np.array(orders, dtype=np.int64),
        toughness=np.array(toughness, dtype=np.int64),
        batches=np.array(batch_rows, dtype=np.int64).reshape(n, SCENARIO_BATCH_COLUMNS),
        contribs=np.array(contribs, dtype=np.int64).reshape(-1, 6),
        hit=np.array([t.hit for t in tables], dtype=np.int64).reshape(n, 2, 7),
        wound=wound.reshape(n, 2 * max_t, 7), saves=saves, damage_maps=damage_maps,
        activations=np.array(acts, dtype=np.int64).reshape(-1, 3), rounds=scenario.rounds,
        dw_at_unit_end=int(scenario.rules.dw_timing == "unit_end"),
        report_groups=np.array(report, dtype=np.int64), unit_names=unit_names,
        group_names=tuple(group_names), activation_labels=tuple(act_labels),
        side_names=side_names, model_bins=model_bins, wound_bins=wound_bins,
        group_bins=group_bins, batch_labels=tuple(labels),
        one_shot_slots=len(one_shot_slots))


def _defender(unit) -> Defender:
    groups = allocation_groups(unit)
    # per allocation group: the profile of its first model group
    profiles = [unit.groups[ag.parts[0][0]].profile for ag in groups]
    fnp_all, fnp_mortal = feel_no_pain(profiles[0], Modifiers())
    return Defender(keywords=unit.keywords, stealth=unit.has_stealth,
                    toughness_values=tuple(sorted({g.profile.toughness for g in unit.groups})),
                    groups=tuple((p.save, p.invuln, p.invuln_scope) for p in profiles),
                    damage_minus=unit.damage_minus, damage_halved=unit.damage_halved,
                    reroll_saves=unit.reroll_saves, fnp=fnp_all, fnp_mortal=fnp_mortal,
                    wounds=profiles[0].wounds)


def identity(weapon, keywords: frozenset[str]) -> tuple:
    """04.03.01: identical attacks share BS/WS, S, AP, D and the abilities that apply.

    A is not part of it (a boltgun and a bolt pistol can be identical); abilities that only
    govern weapon selection are ignored.
    """
    active = frozenset(str(a) for a in weapon.abilities
                       if a.applies_to(keywords) and a.name not in ab.SELECTION_ONLY)
    return (weapon.melee, weapon.skill, weapon.strength, weapon.ap, weapon.damage, active)


def _gather(scenario: Scenario, activation, attacks: list[Attack]):
    """The 04.03 gather loop: target by target, identical attacks together, in order.

    Targets are resolved in the order they are first named; within a target, batches in the
    order their first weapon appears, unless ``activation.order`` names weapons to go first.
    """
    targets = list(dict.fromkeys(a.target for a in attacks))
    batches: list[tuple[str, list[Attack]]] = []
    for target in targets:
        keywords = scenario.units[target].keywords
        keyed: dict[tuple, list[Attack]] = {}
        for attack in attacks:
            if attack.target != target:
                continue
            key = identity(attack.weapon, keywords) + (attack.split_attacks is not None,
                                                         attack.weapon.has(ab.ONE_SHOT))
            keyed.setdefault(key, []).append(attack)
        members = list(keyed.values())
        if activation.order:
            wanted = [n.lower() for n in activation.order]

            def rank(group: list[Attack]) -> int:
                names = [a.weapon.name.lower() for a in group]
                hits = [wanted.index(n) for n in names if n in wanted]
                return min(hits) if hits else len(wanted)

            members.sort(key=rank)
        batches.extend((target, m) for m in members)
    return batches


def _sub_range(scenario: Scenario, unit, group_name: str, subs: list, unit_idx: int):
    """The sub-groups (first index, count 1 each) holding models of ``group_name``."""
    group_index = next(i for i, g in enumerate(unit.groups) if g.name == group_name)
    firsts, counts = [], []
    for s, row in enumerate(subs):
        if row[S_UNIT] == unit_idx and _report_local(subs, row) == group_index:
            firsts.append(s)
            counts.append(1)
    return firsts, counts


def _report_local(subs: list, row: list) -> int:
    unit = row[S_UNIT]
    first_report = min(r[S_REPORT] for r in subs if r[S_UNIT] == unit)
    return row[S_REPORT] - first_report


def wound_dice_bound(row, contribs: np.ndarray, subs: np.ndarray, target_models: int) -> int:
    """Most wound dice one batch can roll: every attack die at its maximum, [BLAST] and
    [CLEAVE] against ``target_models``, and every hit doubled by the most [SUSTAINED HITS]."""
    from mathhammer.wh40k.compile import (RF_CONST, RF_COUNT, RF_SIDES, SUS_CONST, SUS_COUNT,
                                          SUS_SIDES)

    bonus = (row[B_BLAST] + row[B_CLEAVE]) * (target_models // 5)
    rapid = row[RF_COUNT] * max(row[RF_SIDES], 1) + row[RF_CONST]
    sustained = row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST]
    dice = 0
    for c in range(row[B_FIRST_CONTRIB], row[B_FIRST_CONTRIB] + row[B_N_CONTRIBS]):
        con = contribs[c]
        models = subs[con[C_SUB_FIRST], S_MODELS]
        dice += models * con[C_PER_MODEL] * (con[C_A_COUNT] * max(con[C_A_SIDES], 1)
                                             + con[C_A_CONST] + bonus + rapid)
    return int(dice * (1 + sustained))


def _count_tables(rows, contribs, subs, tables, wound, saves, unit_models):
    """Binomial CDF tables so the kernel can sample outcome counts (see core.sampling)."""
    from mathhammer.core.sampling import TABLE_LIMIT, binomial_cdf_rows
    from mathhammer.wh40k.compile import (
        SAVE_FAILS,
        SAVE_REROLL,
        face_probabilities,
        outcome_probabilities,
    )

    def ratio(a: float, rest: float) -> float:
        return a / rest if rest > 1e-15 else 0.0

    sizes = [1] + [wound_dice_bound(row, contribs, subs, unit_models[row[B_TARGET]])
                   for row in rows]
    n_max = int(min(TABLE_LIMIT, max(sizes)))
    n_batches, n_t = wound.shape[0], wound.shape[1]
    hit_cdfs = np.ones((n_batches, 2, n_max + 1, n_max + 1))
    wound_cdfs = np.ones((n_batches, n_t, 2, n_max + 1, n_max + 1))
    save_cdfs = np.ones((n_batches, n_max + 1, n_max + 1))
    for b, t in enumerate(tables):
        _, hit, crit = outcome_probabilities(t.hit[0], t.hit[1])
        hit_cdfs[b, 0] = binomial_cdf_rows(crit, n_max)
        hit_cdfs[b, 1] = binomial_cdf_rows(ratio(hit, 1.0 - crit), n_max)
        for k in range(t.wound.shape[0]):
            _, ordinary, critical = outcome_probabilities(wound[b, k, 0], wound[b, k, 1])
            wound_cdfs[b, k, 0] = binomial_cdf_rows(critical, n_max)
            wound_cdfs[b, k, 1] = binomial_cdf_rows(ratio(ordinary, 1.0 - critical), n_max)
        faces = face_probabilities(saves[b, 0, SAVE_REROLL])
        save_cdfs[b] = binomial_cdf_rows(float(faces[saves[b, 0, SAVE_FAILS] == 1].sum()),
                                         n_max)
    return (hit_cdfs, wound_cdfs.reshape(n_batches, 2 * n_t, n_max + 1, n_max + 1),
            save_cdfs.reshape(n_batches, 1, n_max + 1, n_max + 1))
