"""Compile a :class:`~mathhammer.wh40k.scenario.Scenario` into flat arrays for the kernel.

The 04.03 gather loop groups each activation's attacks into batches; units, allocation
groups, batches, their alternative rows (retargeting) and keyword variants are laid out as
the arrays :mod:`mathhammer.wh40k.scenario.layout` describes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from collections.abc import Sequence

import numpy as np

from mathhammer.errors import MathhammerError, OptionError, UnsupportedError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.compile import (BATCH_COLUMNS, D_TABLE, FNP_COLUMN, FNP_MORTAL_COLUMN,
                                      G_FNP_PSYCHIC, N_WEAPONS, BatchTables, Defender,
                                      batch_tables, checked_command_code, dw_at_unit_end,
                                      dw_spill, feel_no_pain, psychic_feel_no_pain,
                                      reroll_below)
from mathhammer.wh40k.profiles import Modifiers, Rules
from mathhammer.wh40k.scenario.activations import Attack
from mathhammer.wh40k.scenario.layout import (ACTIVATION_COLUMNS, B_BLAST, B_BONUS_COUNT,
                                              B_BONUS_SIDES, B_CLEAVE, B_FIRST_CONTRIB,
                                              B_HAZARDOUS, B_N_CONTRIBS, B_ONE_SHOT,
                                              B_PRECISION, B_TARGET, C_A_CONST, C_A_COUNT,
                                              C_A_SIDES, C_CAP, C_PER_MODEL, C_SKIPPED,
                                              C_SUB_COUNT, C_SUB_FIRST, CONTRIB_COLUMNS,
                                              F_DW_AT_END, F_DW_SPILL, F_HAZARD_10E,
                                              F_ONE_AT_A_TIME, K_FIRST_BATCH,
                                              MAX_KEYWORD_BITS, NO_CAP, PICK_BEST, PICK_FIRST,
                                              S_FNP, S_FNP_MORTAL, S_FNP_PSYCHIC,
                                              S_FNP_PSYCHIC_MORTAL, S_MODELS, S_REPORT, S_UNIT,
                                              SCENARIO_BATCH_COLUMNS, U_N_ALLOCS, U_N_T,
                                              CompiledScenario)
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.units import allocation_groups, declared_order


def compile_scenario(scenario: Scenario) -> CompiledScenario:
    """Lay out units, allocation groups and every activation's batches as arrays."""
    bits = keyword_bits(scenario)
    layout = _lay_out_units(scenario, bits)
    batches = _lay_out_batches(scenario, layout)
    retarget = _lay_out_retargets(scenario, layout, batches)
    variants = _lay_out_keyword_variants(scenario, layout, batches, bits)
    retarget = np.pad(retarget, ((0, len(batches.rows) - retarget.shape[0]), (0, 0)),
                      constant_values=-1)
    tables = batches.tables
    n = len(tables)
    wound, saves, damage_maps = _stack_tables(tables, layout.units)
    contribs = np.array(batches.contribs, dtype=np.int64).reshape(-1, CONTRIB_COLUMNS)
    subs = np.array(layout.subs, dtype=np.int64)
    batch_rows = np.array(batches.rows, dtype=np.int64).reshape(n, SCENARIO_BATCH_COLUMNS)
    hit_cdfs, wound_cdfs, save_cdfs = _count_tables(
        batches.rows, contribs, subs, tables, wound, saves,
        [scenario.units[name].models for name in layout.unit_names],
        scenario.origins[0] if scenario.origins else "")
    return CompiledScenario(
        hit_cdfs=hit_cdfs, wound_cdfs=wound_cdfs, save_cdfs=save_cdfs,
        subs=subs, allocs=np.column_stack([np.array(layout.allocs, dtype=np.int64).reshape(-1, 6),
                                           _allocation_points(scenario, layout)]),
        units=np.array(layout.units, dtype=np.int64),
        orders=np.array(layout.orders, dtype=np.int64),
        toughness=np.array(layout.toughness, dtype=np.int64),
        batches=batch_rows, contribs=contribs,
        hit=np.array([t.hit for t in tables], dtype=np.int64).reshape(n, 2, 7),
        wound=wound.reshape(n, -1, 7), saves=saves, damage_maps=damage_maps,
        activations=np.array(batches.activations,
                             dtype=np.int64).reshape(-1, ACTIVATION_COLUMNS),
        rounds=scenario.rounds, dw_at_unit_end=dw_at_unit_end(scenario.rules),
        flags=rule_flags(scenario.rules),
        report_groups=np.array(layout.report, dtype=np.int64), unit_names=layout.unit_names,
        group_names=tuple(layout.group_names),
        activation_labels=tuple(batches.activation_labels), side_names=layout.side_names,
        model_bins=layout.model_bins, wound_bins=layout.wound_bins,
        group_bins=layout.group_bins, batch_labels=tuple(batches.labels),
        one_shot_slots=batches.one_shot_slots, retarget=retarget,
        precision_pick=np.array(batches.picks, dtype=np.int64), variants=variants,
        keyword_bits=tuple(bits.get(name, ()) for name in layout.unit_names))


@dataclass
class _UnitLayout:
    """Rows of the unit, allocation-group and model-group arrays, before stacking."""

    unit_names: tuple[str, ...]
    side_names: tuple[str, ...]
    subs: list[list[int]] = field(default_factory=list)
    allocs: list[list[int]] = field(default_factory=list)
    units: list[list[int]] = field(default_factory=list)
    orders: list[int] = field(default_factory=list)
    toughness: list[int] = field(default_factory=list)
    report: list[list[int]] = field(default_factory=list)
    group_names: list[tuple[str, str]] = field(default_factory=list)
    model_bins: int = 0
    wound_bins: int = 0
    group_bins: int = 0


def keyword_bits(scenario: Scenario) -> dict[str, tuple[str, ...]]:
    """Per unit, the keywords an ability of some selected weapon names (``ANTI-X``, a scope)
    that some but not all of its model groups carry, at most :data:`MAX_KEYWORD_BITS`."""
    named: set[str] = set()
    for attacks in scenario.attacks:
        for attack in attacks:
            for ability in attack.weapon.abilities:
                for k in ((ability.anti_keyword,) if ability.anti_keyword else ()) \
                        + tuple(ability.scope):
                    named.add(k[4:] if k.startswith("NON-") else k)
    out = {}
    for name, unit in scenario.units.items():
        every = frozenset.intersection(*(g.profile.keywords for g in unit.groups))
        varying = sorted(k for k in unit.keywords - every if k in named)
        if varying:
            out[name] = tuple(varying[:MAX_KEYWORD_BITS])
    return out


def _lay_out_units(scenario: Scenario, bits: dict[str, tuple[str, ...]]) -> _UnitLayout:
    unit_names = tuple(scenario.units)
    layout = _UnitLayout(unit_names=unit_names,
                         side_names=tuple(dict.fromkeys(scenario.sides[u] for u in unit_names)))
    for u, name in enumerate(unit_names):
        unit = scenario.units[name]
        first_report = len(layout.report)
        for g in unit.groups:
            layout.report.append([u, g.count, layout.group_bins])
            layout.group_names.append((name, g.name))
            layout.group_bins += g.count + 1
        first_sub, first_alloc = len(layout.subs), len(layout.allocs)
        for local, ag in enumerate(allocation_groups(unit)):
            layout.allocs.append([u, len(layout.subs), len(ag.parts), int(ag.character),
                                  ag.wounds, local])
            for group_index, models in ag.parts:
                g = unit.groups[group_index]
                fnp_all, fnp_mortal = feel_no_pain(g.profile, Modifiers())
                psychic = psychic_feel_no_pain(g.profile, Modifiers())
                mask = sum(1 << i for i, k in enumerate(bits.get(name, ()))
                           if k in g.profile.keywords)
                layout.subs.append([u, models, g.profile.wounds, fnp_all, fnp_mortal,
                                    len(layout.allocs) - 1, g.profile.toughness,
                                    int(g.role == "bodyguard"), first_report + group_index,
                                    min(fnp_all, psychic), min(fnp_mortal, psychic), mask])
        t_values = sorted({g.profile.toughness for g in unit.groups})
        wounds = sum(g.count * g.profile.wounds for g in unit.groups)
        layout.units.append([first_sub, len(layout.subs) - first_sub, first_alloc,
                             len(layout.allocs) - first_alloc, len(layout.orders),
                             len(layout.toughness), len(t_values),
                             int(unit.all_monster_or_vehicle), unit.models, wounds,
                             layout.side_names.index(scenario.sides[name]), layout.model_bins,
                             layout.wound_bins])
        layout.orders.extend(first_alloc + i for i in declared_order(unit))
        layout.toughness.extend(t_values)
        layout.model_bins += unit.models + 1
        layout.wound_bins += wounds + 1
    return layout


@dataclass
class _BatchLayout:
    """Batch rows, their weapon contributions and tables, and the activations' ranges."""

    rows: list[list[int]] = field(default_factory=list)
    contribs: list[list[int]] = field(default_factory=list)
    tables: list[BatchTables] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    activations: list[list[int]] = field(default_factory=list)
    activation_labels: list[str] = field(default_factory=list)
    one_shot: dict[tuple[str, str], int] = field(default_factory=dict)
    picks: list[int] = field(default_factory=list)
    # per row: what made it (activation, its attacks, target, the batch's attacks)
    sources: list[tuple] = field(default_factory=list)

    @property
    def one_shot_slots(self) -> int:
        return len(self.one_shot)


def _lay_out_batches(scenario: Scenario, layout: _UnitLayout) -> _BatchLayout:
    unit_index = {name: i for i, name in enumerate(layout.unit_names)}
    out = _BatchLayout()
    for activation, attacks in zip(scenario.activations, scenario.attacks):
        batches = _gather(scenario, activation, attacks)
        first = len(out.rows)
        out.activation_labels.append(activation.label)
        for target_name, members in batches:
            _add_batch(scenario, activation, attacks, target_name, members, unit_index,
                       layout, out)
        command = _command_code(activation, out.rows[first:], out.labels[first:])
        out.activations.append([unit_index[activation.attacker], first, len(batches),
                                command])
    return out


def _command_code(activation, rows: list[list[int]], labels: list[str]) -> int:
    """The activation's Command Re-roll as the kernel's code, refusing what it cannot be."""
    try:
        return checked_command_code(
            activation.modifiers.command_reroll, activation.situation, rows, labels,
            lambda kind: f"activation '{activation.label}': command_reroll = '{kind}'")
    except MathhammerError as exc:
        raise exc.about(activation.label) from None


def _add_batch(scenario: Scenario, activation, attacks, target_name: str, members,
               unit_index: dict[str, int], layout: _UnitLayout, out: _BatchLayout,
               keywords: frozenset[str] | None = None) -> None:
    """One weapon profile of one activation against one target: its row and contributions
    (against the target's ``keywords`` when given, else every keyword of its models)."""
    target = scenario.units[target_name]
    keywords = target.keywords if keywords is None else keywords
    modifiers = dataclasses.replace(activation.modifiers, damage_minus=target.damage_minus,
                                    damage_halved=target.damage_halved,
                                    reroll_saves=target.reroll_saves)
    weapon = members[0].weapon
    defender = dataclasses.replace(_defender(target), keywords=keywords)
    t = batch_tables(weapon, defender, activation.situation, modifiers, scenario.rules)
    row = list(t.row) + [0] * (SCENARIO_BATCH_COLUMNS - BATCH_COLUMNS)
    row[N_WEAPONS] = 0  # counted from the attacking models alive, in the kernel
    row[B_TARGET] = unit_index[target_name]
    row[B_FIRST_CONTRIB] = len(out.contribs)
    psychic = row[FNP_COLUMN] == G_FNP_PSYCHIC
    row[FNP_COLUMN] = int(S_FNP_PSYCHIC if psychic else S_FNP)
    row[FNP_MORTAL_COLUMN] = int(S_FNP_PSYCHIC_MORTAL if psychic else S_FNP_MORTAL)
    one_target = len({a.target for a in attacks if a.weapon == weapon}) == 1   # 24.06
    cleave_dice = t.cleave_dice if one_target else (0, 0)
    row[B_BLAST] = t.blast_per_five
    row[B_CLEAVE] = t.cleave_per_five if one_target else 0
    row[B_BONUS_COUNT] = t.blast_dice[0] + cleave_dice[0]
    row[B_BONUS_SIDES] = max(t.blast_dice[1], cleave_dice[1])
    row[B_HAZARDOUS] = int(weapon.has(ab.HAZARDOUS))
    row[B_PRECISION] = int(bool(weapon.active(ab.PRECISION, keywords)))
    row[B_ONE_SHOT] = -1
    if weapon.has(ab.ONE_SHOT):  # 24.26: once per battle, tracked per unit and weapon
        key = (activation.attacker, str(weapon))
        row[B_ONE_SHOT] = out.one_shot.setdefault(key, len(out.one_shot))
    attacker = scenario.units[activation.attacker]
    for attack in members:
        first, count = _sub_range(scenario, attacker, attack.group, layout.subs,
                                  unit_index[activation.attacker])
        a = attack.weapon.attacks
        if attack.split_attacks is not None:
            a_count, a_sides, a_const, below = 0, 0, attack.split_attacks, 0
        else:
            a_count, a_sides, a_const = a.count, a.sides, a.constant
            below = reroll_below(a, modifiers.reroll_attacks)
        out.contribs.extend(_contributions(attack, first, count, (a_count, a_sides, a_const),
                                           below))
    row[B_N_CONTRIBS] = len(out.contribs) - row[B_FIRST_CONTRIB]
    out.rows.append(row)
    out.tables.append(t)
    out.labels.append(f"{activation.label}: {weapon}")
    out.picks.append(_precision_code(scenario, activation, target_name, layout))
    out.sources.append((activation, attacks, target_name, members))


def _contributions(attack: Attack, first: list[int], count: list[int],
                   attacks: tuple[int, int, int], a_reroll: int) -> list[list[int]]:
    """Contribution rows of one attack: one per sub-group holding the group's models, or,
    when only some of the models fire it (a counted choice), one spanning all of them so
    the kernel counts the group's models alive as a whole."""
    if attack.models_skipped == 0 and attack.models_cap is None:
        return [[f, c, attack.per_model, *attacks, 0, NO_CAP, a_reroll]
                for f, c in zip(first, count)]
    span = len(first)
    if first != list(range(first[0], first[0] + span)) or any(c != 1 for c in count):
        raise UnsupportedError(f"model group '{attack.group}' is not laid out in one run of "
                               "sub-groups; weapon counts cannot be used for it")
    cap = NO_CAP if attack.models_cap is None else attack.models_cap
    return [[first[0], span, attack.per_model, *attacks, attack.models_skipped, cap,
             a_reroll]]


def _stack_tables(tables: list[BatchTables], units: list[list[int]]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Wound, save and damage tables of every batch, padded to common shapes."""
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
    return wound, saves, damage_maps


def rule_flags(rules: Rules) -> np.ndarray:
    """The kernel's edition switches: [DEVASTATING WOUNDS] held to the end of the activation,
    or spilling (10e launch text); 10e allocation one attack at a time; 10e [HAZARDOUS]."""
    tenth = rules.edition == 10
    flags = np.zeros(4, dtype=np.int64)
    flags[F_DW_AT_END] = dw_at_unit_end(rules)
    flags[F_DW_SPILL] = dw_spill(rules)
    flags[F_ONE_AT_A_TIME] = int(tenth)
    flags[F_HAZARD_10E] = int(tenth)
    return flags


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
                    wounds=profiles[0].wounds,
                    fnp_psychic=psychic_feel_no_pain(profiles[0], Modifiers()))


def identity(weapon, keywords: frozenset[str]) -> tuple:
    """04.03.01: identical attacks share BS/WS, S, AP, D and the abilities that apply.

    A is not part of it (a boltgun and a bolt pistol can be identical); abilities that only
    govern weapon selection are ignored.
    """
    active = frozenset(str(a) for a in weapon.abilities
                       if a.applies_to(keywords) and a.name not in ab.SELECTION_ONLY)
    return (weapon.melee, weapon.skill, weapon.strength, weapon.ap, weapon.damage, active)


def _gather(scenario: Scenario, activation, attacks: Sequence[Attack]):
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


def activation_batches(scenario: Scenario, k: int) -> list[tuple[str, list[Attack]]]:
    """Activation ``k``'s batches as the kernel resolves them: (target, the attacks gathered
    into the batch), in order (:func:`_gather`)."""
    return _gather(scenario, scenario.activations[k], scenario.attacks[k])


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


def _precision_code(scenario: Scenario, activation, target_name: str,
                    layout: _UnitLayout) -> int:
    """``precision_pick`` for one batch: a policy code, or the report index of the named
    CHARACTER model group when ``target_name`` holds it (else ``best``)."""
    pick = activation.precision_pick or scenario.switches.precision_pick
    if pick == "first":
        return PICK_FIRST
    if pick == "best":
        return PICK_BEST
    unit = scenario.units[target_name]
    for i, (unit_name, group) in enumerate(layout.group_names):
        if unit_name == target_name and group.lower() == pick.lower() \
                and unit.group(group).is_character:
            return i
    return PICK_BEST


def _allocation_points(scenario: Scenario, layout: _UnitLayout) -> np.ndarray:
    """Per allocation group, its points per model x 1000 for ``precision_pick = best`` (0
    for non-CHARACTER groups; 1 for every CHARACTER of a unit whose CHARACTER models'
    points are not all given, so that the fewest wounds left decides)."""
    points: list[int] = []
    for name in layout.unit_names:
        unit = scenario.units[name]
        priced = all(g.points is not None for g in unit.groups if g.is_character)
        for ag in allocation_groups(unit):
            g = unit.groups[ag.parts[0][0]]
            if not ag.character:
                points.append(0)
            else:
                points.append(round(1000 * (g.points or 0) / g.count) if priced else 1)
    return np.array(points, dtype=np.int64).reshape(-1)


def _lay_out_retargets(scenario: Scenario, layout: _UnitLayout, out: _BatchLayout
                       ) -> np.ndarray:
    """``retarget[B, R]``: append every batch's alternative rows to ``out`` (none with
    ``retarget_on_destroyed = lost``) and list them per batch, -1 padded."""
    if scenario.switches.retarget_on_destroyed != "retarget":
        return np.zeros((len(out.rows), 0), dtype=np.int64)
    unit_index = {name: i for i, name in enumerate(layout.unit_names)}
    alternatives: dict[int, list[int]] = {}
    for k, (activation, attacks) in enumerate(zip(scenario.activations, scenario.attacks)):
        first = out.activations[k][K_FIRST_BATCH]
        for i, (target, members) in enumerate(_gather(scenario, activation, attacks)):
            rows = alternatives.setdefault(first + i, [])
            for candidate in retarget_candidates(scenario, activation, attacks, target):
                rows += _add_alternatives(scenario, activation, attacks, candidate, members,
                                          first + i, unit_index, layout, out)
    width = max((len(rows) for rows in alternatives.values()), default=0)
    table = np.full((len(out.rows), width), -1, dtype=np.int64)
    for b, rows in alternatives.items():
        table[b, :len(rows)] = rows
    return table


def _lay_out_keyword_variants(scenario: Scenario, layout: _UnitLayout, out: _BatchLayout,
                              bits: dict[str, tuple[str, ...]]) -> np.ndarray:
    """``variants[B, 2**bits]``: append, for every row against a unit whose keywords may go,
    a row per set of keywords its models alive may carry that changes the row's tables, and
    list them by mask (a row's own index where nothing changes)."""
    width = 1 << max((len(b) for b in bits.values()), default=0)
    unit_index = {name: i for i, name in enumerate(layout.unit_names)}
    table: dict[int, list[int]] = {}
    for b in range(len(out.rows)):
        activation, attacks, target, members = out.sources[b]
        own = bits.get(target, ())
        table[b] = [b] * width
        if not own:
            continue
        every = scenario.units[target].keywords
        for mask in range((1 << len(own)) - 1):
            keywords = every - {k for i, k in enumerate(own) if not mask >> i & 1}
            first_contrib = len(out.contribs)
            _add_batch(scenario, activation, attacks, target, members, unit_index, layout,
                       out, keywords)
            del out.contribs[first_contrib:]   # the batch's own contributions
            out.rows[-1][B_FIRST_CONTRIB] = out.rows[b][B_FIRST_CONTRIB]
            out.rows[-1][B_N_CONTRIBS] = out.rows[b][B_N_CONTRIBS]
            if _same_tables(out, b, len(out.rows) - 1):
                for column in (out.rows, out.tables, out.labels, out.picks, out.sources):
                    column.pop()
                continue
            out.labels[-1] += f" (against {', '.join(sorted(keywords)) or 'no keywords'})"
            table[b][mask] = len(out.rows) - 1
    variants = np.arange(len(out.rows), dtype=np.int64)[:, None].repeat(width, axis=1)
    for b, rows in table.items():
        variants[b] = rows
    return variants


def _same_tables(out: _BatchLayout, a: int, b: int) -> bool:
    """Whether rows ``a`` and ``b`` resolve alike (same columns and tables)."""
    ta, tb = out.tables[a], out.tables[b]
    return out.rows[a] == out.rows[b] and out.picks[a] == out.picks[b] and all(
        np.array_equal(getattr(ta, f), getattr(tb, f))
        for f in ("hit", "wound", "saves", "damage_maps", "damage_pmf"))


def retarget_candidates(scenario: Scenario, activation, attacks: Sequence[Attack],
                        target: str) -> list[str]:
    """Units a weapon aimed at ``target`` may turn to, in the order they are tried: the
    activation's other targets as it names them, then (shooting and overwatch only) the
    other units of the enemy sides in file order."""
    named = [activation.target] + [w.target for w in activation.weapons] + \
        [name for w in activation.weapons for name, _ in w.split]
    attacked = list(dict.fromkeys(a.target for a in attacks))
    order = [t for t in dict.fromkeys(named) if t in attacked]
    order += [t for t in attacked if t not in order]
    if activation.phase != "fight":
        side = scenario.sides[activation.attacker]
        order += [u for u in scenario.units if u not in order and u != activation.attacker
                  and scenario.sides[u] != side]
    return [t for t in order if t != target]


def _add_alternatives(scenario: Scenario, activation, attacks: Sequence[Attack], candidate: str,
                      members: list[Attack], b: int, unit_index: dict[str, int],
                      layout: _UnitLayout, out: _BatchLayout) -> list[int]:
    """Rows for batch ``b``'s weapons against ``candidate``: only those that may attack it
    (Hunter profiles, no split melee weapon), regrouped by identity against its keywords."""
    attacker = scenario.units[activation.attacker]
    keywords = scenario.units[candidate].keywords
    keyed: dict[tuple, list[Attack]] = {}
    for attack in members:
        if attack.split_attacks is None and _hunter_allows(attacker, attack, keywords):
            keyed.setdefault(identity(attack.weapon, keywords), []).append(attack)
    rows = []
    for group in keyed.values():
        first_contrib = len(out.contribs)
        _add_batch(scenario, activation, attacks, candidate, group, unit_index, layout, out)
        if group == members:  # every weapon of the batch goes: share its contributions
            del out.contribs[first_contrib:]
            out.rows[-1][B_FIRST_CONTRIB] = out.rows[b][B_FIRST_CONTRIB]
        out.labels[-1] += f" (retargeted at {candidate})"
        rows.append(len(out.rows) - 1)
    return rows


def _hunter_allows(attacker, attack: Attack, keywords: frozenset[str]) -> bool:
    """Whether ``attack``'s profile may target a unit with ``keywords`` (04.01.03)."""
    for carried in attacker.group(attack.group).weapons:
        for profile, hunter in zip(carried.profiles, carried.hunter):
            if profile is attack.weapon:
                return not hunter or bool(hunter & keywords)
    return True


def wound_dice_bound(row, contribs: np.ndarray, subs: np.ndarray, target_models: int) -> int:
    """Most wound dice one batch can roll: every attack die at its maximum, [BLAST] and
    [CLEAVE] against ``target_models``, and every hit doubled by the most [SUSTAINED HITS]."""
    from mathhammer.wh40k.compile import (RF_CONST, RF_COUNT, RF_SIDES, SUS_CONST, SUS_COUNT,
                                          SUS_SIDES)

    bonus = (row[B_BLAST] + row[B_CLEAVE] + row[B_BONUS_COUNT] * max(row[B_BONUS_SIDES], 1)
             ) * (target_models // 5)
    rapid = row[RF_COUNT] * max(row[RF_SIDES], 1) + row[RF_CONST]
    sustained = row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST]
    dice = 0
    for c in range(row[B_FIRST_CONTRIB], row[B_FIRST_CONTRIB] + row[B_N_CONTRIBS]):
        con = contribs[c]
        present = int(subs[con[C_SUB_FIRST]:con[C_SUB_FIRST] + con[C_SUB_COUNT], S_MODELS].sum())
        models = min(max(present - con[C_SKIPPED], 0), con[C_CAP])
        dice += models * con[C_PER_MODEL] * (con[C_A_COUNT] * max(con[C_A_SIDES], 1)
                                             + con[C_A_CONST] + bonus + rapid)
    return int(dice * (1 + sustained))


#: Most memory the binomial tables of one scenario's batches may take (each batch holds
#: tables for up to 256 dice: 1,000 activations of 200-model units took 3 GB and 17 s).
MAX_SCENARIO_TABLE_BYTES = 512 * 2**20


def check_table_bytes(n_batches: int, n_t: int, n_max: int, origin: str = "") -> None:
    """Refuse, before they are made, sampling tables of ``n_batches`` batches (``n_t``
    toughness rows each) of up to ``n_max`` dice beyond :data:`MAX_SCENARIO_TABLE_BYTES`;
    ``origin`` (``FILE:LINE``) names the scenario file."""
    need = n_batches * (4 + 2 * n_t) * (n_max + 1) ** 2 * 8
    if need > MAX_SCENARIO_TABLE_BYTES:
        source = origin.rsplit(":", 1)[0] + ": " if origin else ""
        raise OptionError(f"{source}the dice tables of {n_batches:,} weapon batches of up to "
                          f"{n_max:,} dice need {need / 2**20:,.0f} MiB (limit "
                          f"{MAX_SCENARIO_TABLE_BYTES // 2**20} MiB): fewer activations, or "
                          "smaller units")


def _count_tables(rows, contribs, subs, tables, wound, saves, unit_models, origin=""):
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
    if any(t.row[D_TABLE] for t in tables):   # the damage CDFs hold every raw index
        n_max = max(n_max, max(len(t.damage_pmf) for t in tables) - 1)
    n_batches, n_t = wound.shape[0], wound.shape[1]
    check_table_bytes(n_batches, n_t, n_max, origin)
    hit_cdfs = np.ones((n_batches, 2, n_max + 1, n_max + 1))
    wound_cdfs = np.ones((n_batches, n_t, 2, n_max + 1, n_max + 1))
    save_cdfs = np.ones((n_batches, 2, n_max + 1, n_max + 1))
    for b, t in enumerate(tables):
        _, hit, crit = outcome_probabilities(t.hit[0], t.hit[1])
        hit_cdfs[b, 0] = binomial_cdf_rows(crit, n_max)
        hit_cdfs[b, 1] = binomial_cdf_rows(ratio(hit, 1.0 - crit), n_max)
        for k in range(t.wound.shape[0]):
            _, ordinary, critical = outcome_probabilities(wound[b, k, 0], wound[b, k, 1])
            wound_cdfs[b, k, 0] = binomial_cdf_rows(critical, n_max)
            wound_cdfs[b, k, 1] = binomial_cdf_rows(ratio(ordinary, 1.0 - critical), n_max)
        faces = face_probabilities(saves[b, 0, SAVE_REROLL])
        save_cdfs[b, 0] = binomial_cdf_rows(float(faces[saves[b, 0, SAVE_FAILS] == 1].sum()),
                                            n_max)
        if t.row[D_TABLE]:
            last = len(t.damage_pmf) - 1
            save_cdfs[b, 1, 0, :last] = np.minimum(np.cumsum(t.damage_pmf[:last]), 1.0)
    return (hit_cdfs, wound_cdfs.reshape(n_batches, 2 * n_t, n_max + 1, n_max + 1),
            save_cdfs)
