"""Numba kernels for whole-unit scenarios: activations in sequence over battle rounds.

Reads a :class:`~mathhammer.wh40k.scenario.layout.CompiledScenario`'s arrays only. State per
trial: ``alive[s]`` models per sub-group, ``current[a]`` wounds left on allocation group
``a``'s wounded model (W when none is wounded), ``group_alive[a]``, ``unit_alive[u]`` and
``unit_lost[u]`` (wounds lost).

Dice order inside a batch (what forced-dice tests script): for each contributing model, each
weapon's A (and its re-roll, if any), then a random [BLAST X]/[CLEAVE X] and its [RAPID FIRE]
X; the hit dice (each re-roll straight after its die, a Command Re-roll too); one
[SUSTAINED HITS] X per critical hit when X is random; the wound dice; the save dice; then,
lowest save first, for each failed save its damage roll and Feel No Pain rolls; then each
[DEVASTATING WOUNDS] critical wound's damage roll and Feel No Pain rolls. Hazard rolls come
after the activation's last batch, then Feel No Pain rolls for their mortal wounds.

A contribution's models are those alive in its sub-groups, less the first ``C_SKIPPED``, at
most ``C_CAP`` (both 0 / unlimited unless a weapon choice has a ``count``): the weapons it
fires and its hazard rolls are that many models times the weapons each carries.

10th edition (``flags``, see :mod:`~mathhammer.wh40k.scenario.compile`): each save die is
rolled when its attack is allocated, against the model it goes to, in the order the attacks
come (no sorting); [DEVASTATING WOUNDS] wait for the end of the activation (final text) or
spill over (launch text); a failed [HAZARDOUS] roll (a 1) puts 3 mortal wounds on one bearer.

A Damage roll of a batch with ``D_TABLE`` (a re-rolled Damage roll, a random [MELTA X]) is
one uniform draw from its damage CDF (table 1 of ``save_cdfs``) instead of dice. An
activation's Command Re-roll (``K_COMMAND``) is in hand until spent on the first roll of its
kind that fails (a Damage roll below ``COMMAND_DAMAGE_BELOW``; a [DEVASTATING WOUNDS] wound
held to the end of the activation then rolls its Damage when inflicted); while it is in
hand, batches roll every die (no count sampling), so the first failure is known.
"""

from __future__ import annotations

import numpy as np

from mathhammer.core.jit import (inline_kernel, inlined_once, lean_inlining_kernel,
                                 optimised_at_level, step_kernel)
from mathhammer.core.rng import d6, roll_dice
from mathhammer.wh40k.monte_carlo.dice_steps import (binomial_at, count_outcomes, roll_classified,
                                                     roll_classified_command)
from mathhammer.wh40k.plan_columns import (AUTO_HIT, DEVASTATING, EXTRA_CRIT, FNP_COLUMN,
                                           FNP_MORTAL_COLUMN, LETHAL, MORTAL_DAMAGE, NORMAL_DAMAGE,
                                           RF_CONST, RF_COUNT, RF_SIDES, SUS_CONST, SUS_COUNT,
                                           SUS_SIDES)
from mathhammer.wh40k.scenario.layout import (A_FIRST_SUB, A_LOCAL, A_N_SUBS, A_UNIT, A_WOUNDS,
                                              B_BLAST, B_BONUS_COUNT, B_BONUS_SIDES, B_CLEAVE,
                                              B_FIRST_CONTRIB, B_HAZARDOUS, B_N_CONTRIBS,
                                              B_ONE_SHOT, B_PRECISION, B_TARGET, CLASS_ROW,
                                              CRIT_COUNTS, C_A_CONST, C_A_COUNT, C_A_REROLL,
                                              C_A_SIDES, C_PER_MODEL, FAILED_SAVES_TABLE,
                                              F_DW_AT_END, F_DW_SPILL, F_HAZARD_10E,
                                              F_ONE_AT_A_TIME, K_ATTACKER, K_COMMAND,
                                              K_FIRST_BATCH, K_N_BATCHES, REROLL_ROW, REST_COUNTS,
                                              R_FIRST_BIN, R_MODELS, S_FNP_MORTAL, S_KEYWORDS,
                                              S_MODELS, S_REPORT, U_ALL_MV, U_FIRST_SUB, U_MODELS,
                                              U_MODEL_BINS, U_N_ALLOCS, U_N_SUBS, U_ORDER, U_SIDE,
                                              U_WOUND_BINS)
from mathhammer.wh40k.scenario.damage_steps import (
    COMMAND_DAMAGE, COMMAND_HIT, COMMAND_WOUND, allocation_order, bearer_mortals, damage_model,
    hazard_bearer, held_damage, models_firing, mortal_wounds, precision_group, roll_damage,
    toughness_index, one_at_a_time, sorted_saves)


@inlined_once
def _reset(army, losses):
    """Every unit at full strength: the start of a trial."""
    subs = army.subs
    allocs = army.allocs
    units = army.units
    alive = losses.alive
    current = losses.current
    group_alive = losses.group_alive
    unit_alive = losses.unit_alive
    unit_lost = losses.unit_lost
    for s in range(subs.shape[0]):
        alive[s] = subs[s, S_MODELS]
    for a in range(allocs.shape[0]):
        total = 0
        for s in range(allocs[a, A_FIRST_SUB], allocs[a, A_FIRST_SUB] + allocs[a, A_N_SUBS]):
            total += subs[s, S_MODELS]
        group_alive[a] = total
        current[a] = allocs[a, A_WOUNDS]
    for u in range(units.shape[0]):
        unit_alive[u] = units[u, U_MODELS]
        unit_lost[u] = 0


@inline_kernel
def _attack_dice(state, b, blast_models, batches, contribs, alive):
    """Gather batch ``b``'s attack dice (04.03), weapon by weapon: A (re-rolled once below
    ``C_A_REROLL``), [BLAST]/[CLEAVE] against ``blast_models`` (fixed X, then the dice of a
    random X), [RAPID FIRE]."""
    bonus = (batches[b, B_BLAST] + batches[b, B_CLEAVE]) * (blast_models // 5)
    bonus_dice = batches[b, B_BONUS_COUNT] * (blast_models // 5)
    dice = 0
    first = batches[b, B_FIRST_CONTRIB]
    for c in range(first, first + batches[b, B_N_CONTRIBS]):
        weapons = models_firing(c, contribs, alive) * contribs[c, C_PER_MODEL]
        for _ in range(weapons):
            attacks = roll_dice(state, contribs[c, C_A_COUNT], contribs[c, C_A_SIDES],
                                contribs[c, C_A_CONST])
            if attacks < contribs[c, C_A_REROLL]:
                attacks = roll_dice(state, contribs[c, C_A_COUNT], contribs[c, C_A_SIDES],
                                    contribs[c, C_A_CONST])
            dice += attacks + bonus
            if bonus_dice > 0:
                dice += roll_dice(state, bonus_dice, batches[b, B_BONUS_SIDES], np.int64(0))
            if batches[b, RF_COUNT] > 0 or batches[b, RF_CONST] > 0:
                dice += roll_dice(state, batches[b, RF_COUNT], batches[b, RF_SIDES],
                                  batches[b, RF_CONST])
    return dice


@step_kernel
def _resolve_batch(state, b, blast_models, weapons, army, losses, scratch, n_pending, pick,
                   command, rare_rules):
    """One batch of one activation against its target unit: attack dice, hit and wound rolls
    (05.01-05.02), then saves and damage model by model. ``blast_models``: the target's
    models at the start of the activation; ``pick``: the batch's [PRECISION] pick;
    ``rare_rules``: None compiles it without the rare rules' code (:func:`scenario_trials`).

    Long because the hit-and-wound step is written out here as in the single-target kernel:
    a step shared by both kernels measured 30-40% slower per small trial (an extra call per
    batch carrying a dozen arrays). Returns the [DEVASTATING WOUNDS] pending and the
    activation's Command Re-roll still in hand (``command``, 0 once spent).
    """
    batches, contribs, hit, wound, _, damage_maps, hit_cdfs, wound_cdfs, save_cdfs, flags, \
        use_counts = weapons
    subs, allocs, units, orders, toughness = army
    alive, current, group_alive, unit_alive, _ = losses
    buffer, _, pending_unit, pending_damage = scratch
    limit = hit_cdfs.shape[2] - 1
    if rare_rules is not None and command != 0:
        use_counts = 0   # the first failing die must be known
    u = batches[b, B_TARGET]
    dice = _attack_dice(state, b, blast_models, batches, contribs, alive)
    if batches[b, AUTO_HIT]:
        hits = dice
        crits = 0
    elif rare_rules is not None and command == COMMAND_HIT:
        hits, crits, command = roll_classified_command(state, dice, hit, b, CLASS_ROW,
                                                       REROLL_ROW, command)
    elif use_counts and dice <= limit:
        hits, crits = count_outcomes(state, dice, hit_cdfs, b, CRIT_COUNTS, REST_COUNTS)
    else:
        hits, crits = roll_classified(state, dice, hit, b, CLASS_ROW, REROLL_ROW)
    extra = 0
    if batches[b, SUS_COUNT] > 0 or batches[b, SUS_CONST] > 0:
        for _ in range(crits):
            extra += roll_dice(state, batches[b, SUS_COUNT], batches[b, SUS_SIDES],
                               batches[b, SUS_CONST])
    auto_wounds = 0
    if batches[b, LETHAL]:
        auto_wounds = crits
        if batches[b, EXTRA_CRIT]:
            auto_wounds += extra
            extra = 0
        crits = 0
    t_index = toughness_index(u, units, subs, toughness, alive)
    to_wound = hits + extra + crits
    if rare_rules is not None and command == COMMAND_WOUND:
        wounds, crit_wounds, command = roll_classified_command(
            state, to_wound, wound, b, 2 * t_index, 2 * t_index + 1, command)
    elif use_counts and to_wound <= limit:
        wounds, crit_wounds = count_outcomes(state, to_wound, wound_cdfs, b, 2 * t_index,
                                             2 * t_index + 1)
    else:
        wounds, crit_wounds = roll_classified(state, to_wound, wound, b, 2 * t_index,
                                              2 * t_index + 1)
    devastating = crit_wounds if batches[b, DEVASTATING] else 0
    to_save = wounds + crit_wounds - devastating + auto_wounds

    if use_counts and units[u, U_N_ALLOCS] == 1 and to_save <= limit:
        # One allocation group: only how many saves fail matters, not their order.
        a = orders[units[u, U_ORDER]]
        failed = binomial_at(state, save_cdfs, b, FAILED_SAVES_TABLE, to_save)
        for _ in range(failed):
            if group_alive[a] == 0:
                break
            raw, _ = roll_damage(state, b, batches, save_cdfs, np.int64(0))
            damage_model(state, a, damage_maps[b, NORMAL_DAMAGE, raw], batches[b, FNP_COLUMN],
                         subs, allocs, losses)
        to_save = 0
    n = allocation_order(u, units, orders, allocs, group_alive, current, buffer)
    if n == 0:
        return n_pending, command
    if rare_rules is None:   # 11e saves, no [PRECISION], no [DEVASTATING WOUNDS]
        return n_pending, sorted_saves(state, b, to_save, n, np.int64(-1),
                                       allocs[buffer[0], A_LOCAL], weapons, army, losses,
                                       scratch, command)
    precision = -1
    if batches[b, B_PRECISION]:
        precision = precision_group(pick, n, buffer, allocs, subs, current)
    start = precision if precision >= 0 else buffer[0]
    if flags[F_ONE_AT_A_TIME]:
        command = one_at_a_time(state, b, to_save, n, precision, weapons, army, losses,
                                scratch, command)
    else:
        command = sorted_saves(state, b, to_save, n, precision, allocs[start, A_LOCAL],
                               weapons, army, losses, scratch, command)
    # 10e: a [DEVASTATING WOUNDS] attack is still allocated, so [PRECISION] may put it on a
    # CHARACTER (pending entries then hold -1 - that allocation group instead of the unit).
    to_character = precision if flags[F_ONE_AT_A_TIME] else -1
    fnp_mortal = batches[b, FNP_MORTAL_COLUMN]
    for _ in range(devastating):
        if unit_alive[u] == 0:
            break
        if flags[F_DW_AT_END] and command == COMMAND_DAMAGE:
            # Held with the Damage Command Re-roll in hand: D is rolled when inflicted (a
            # later batch's Damage roll may take the re-roll first); -1 - b marks it.
            damage = -1 - b
        else:
            raw, command = roll_damage(state, b, batches, save_cdfs, command)
            damage = damage_maps[b, MORTAL_DAMAGE, raw]
        if flags[F_DW_AT_END]:   # pending_damage holds pairs: damage, Feel No Pain column
            pending_unit[n_pending] = u if to_character < 0 else -1 - to_character
            pending_damage[2 * n_pending] = damage
            pending_damage[2 * n_pending + 1] = fnp_mortal
            n_pending += 1
            continue
        if to_character >= 0 and group_alive[to_character] > 0 and not flags[F_DW_SPILL]:
            damage_model(state, to_character, damage, fnp_mortal, subs, allocs, losses)
            continue
        if flags[F_DW_SPILL]:
            mortal_wounds(state, u, damage, army, losses, buffer, fnp_mortal)
            continue
        m = allocation_order(u, units, orders, allocs, group_alive, current, buffer)
        if m == 0:
            break
        damage_model(state, buffer[0], damage, fnp_mortal, subs, allocs, losses)
    return n_pending, command


@inlined_once
def _keyword_row(row, variants, batches, units, subs, alive):
    """Batch ``row`` against the keywords of its target's models still alive (19.03): the
    row of ``variants`` for the keyword bits they carry."""
    u = batches[row, B_TARGET]
    mask = subs[units[u, U_FIRST_SUB], S_KEYWORDS] * 0
    for s in range(units[u, U_FIRST_SUB], units[u, U_FIRST_SUB] + units[u, U_N_SUBS]):
        if alive[s] > 0:
            mask |= subs[s, S_KEYWORDS]
    return variants[row, mask]


@inlined_once
def _retarget_from(b, retarget, batches, unit_alive):
    """The first entry of ``retarget[b]`` whose unit still stands, or -1."""
    for j in range(retarget.shape[1]):
        row = retarget[b, j]
        if row < 0:
            return -1
        if unit_alive[batches[row, B_TARGET]] > 0:
            return j
    return -1


@optimised_at_level(1)
@lean_inlining_kernel
def scenario_trials(state, trials, arrays, losses, scratch, trial, hists, rare_rules):
    """Run ``trials`` trials of the whole scenario on one stream; each adds one count per
    checkpoint to each histogram row of ``hists`` (a :class:`~.chunks.Histograms`).

    ``arrays`` is the plan (:class:`~.compile.ScenarioArrays`); ``losses``, ``scratch``
    (per batch) and ``trial`` (per trial) the thread's state (:mod:`.chunks`). The trial loop
    lives here so the arrays are passed once per chunk, not once per trial. Each trial walks
    rounds and activations in order, and counts every checkpoint
    (:func:`_record_checkpoint`).

    An activation: its batches in order (each against its target, or the rows it turns to
    when that target is down), then the [DEVASTATING WOUNDS] held to its end
    (:func:`_inflict_held`), then its hazard rolls (:func:`_roll_hazards`).
    ``script.retarget[b]`` (no columns with ``retarget_on_destroyed = lost``) lists batch
    ``b``'s alternative rows: when its target is down, the rows of the first candidate still
    standing are resolved instead, each as a batch of its own ([BLAST]/[CLEAVE] counting
    that unit's models at the start of the activation). ``script.precision_pick[b]``: see
    :func:`~.damage_steps.precision_group`. ``script.variants[b]``: the row batch ``b`` is
    resolved as against the keywords of its target's models alive then (19.03; its own row
    while every keyword the weapons name is there). ``trial.hazard_used`` collects the
    [HAZARDOUS] batches used (10e bearers). One call site of ``_resolve_batch`` serves both
    (a second one, or two more array arguments to it, measured 25% slower on small
    scenarios).

    Long because the activation is written out here, not in a helper copied in: numba's copy
    of a helper's code deep-copies each of its blocks with all of its variables, and the
    activation's 49 blocks and 414 variables took 0.25-0.4 s of a first run to copy
    (benchmarks/RESULTS.md).

    Compile time: helpers called from one place (:data:`~mathhammer.core.jit.inlined_once`)
    are copied in before typing, and every helper numba compiles for this kernel inherits
    its ``forceinline`` (:data:`~mathhammer.core.jit.lean_inlining_kernel`), so the trial
    loop is one function, optimised once here; :func:`_resolve_batch` is its one large
    helper compiled on its own (copied in, its 80 blocks took as long to copy, 0.66-0.93 s,
    as its own compile saves). Without the inherited ``forceinline`` the helpers stay out of
    line and the example scenario ran twice as slowly.

    ``trial.one_shot_used[slot]`` is 0, or 1 + the checkpoint of the activation that
    selected that [ONE SHOT] weapon: later activations cannot select it again (24.26).

    ``rare_rules``: ``None`` for a plan that uses none of the rules
    :attr:`~.layout.CompiledScenario.rare_rules` lists, else ``True``. numba types ``None``
    apart and drops every branch behind ``rare_rules is not None`` before typing (dead
    branch pruning), so a plain scenario's first run compiles about half the code; the two
    versions are cached side by side. The branches dropped are those such a plan never
    takes, so both versions roll the same dice and count the same bits.
    """
    army = arrays.army
    weapons = arrays.weapons
    script = arrays.script
    batches = weapons.batches
    contribs = weapons.contribs
    retarget = script.retarget
    activations = script.activations
    unit_alive = losses.unit_alive
    snapshot = trial.snapshot
    one_shot_used = trial.one_shot_used
    hazard_used = trial.hazard_used
    side_wiped = trial.side_wiped
    for _trial in range(trials):
        _reset(army, losses)
        for i in range(one_shot_used.shape[0]):
            one_shot_used[i] = 0
        for side in range(side_wiped.shape[0]):
            side_wiped[side] = 0
        for r in range(script.rounds):
            for k in range(activations.shape[0]):
                if unit_alive[activations[k, K_ATTACKER]] > 0:   # the activation
                    for u in range(unit_alive.shape[0]):
                        snapshot[u] = unit_alive[u]
                    # not literal 0s, which numba would compile helpers for (core.jit)
                    hazard_rolls = np.int64(0)
                    n_hazard = np.int64(0)   # hazardous batches used: their bearers roll (10e)
                    n_pending = np.int64(0)
                    command = activations[k, K_COMMAND]   # the Command Re-roll in hand
                    first = activations[k, K_FIRST_BATCH]
                    for b in range(first, first + activations[k, K_N_BATCHES]):
                        target = batches[b, B_TARGET]
                        alt = -1
                        if rare_rules is not None and retarget.shape[1] > 0 \
                                and unit_alive[target] == 0:
                            alt = _retarget_from(b, retarget, batches, unit_alive)
                        if snapshot[target] == 0 and alt < 0:
                            continue  # a destroyed unit cannot be selected as a target
                        if rare_rules is not None:
                            slot = batches[b, B_ONE_SHOT]
                            if slot >= 0:
                                here = r * activations.shape[0] + k + 1
                                if one_shot_used[slot] != 0 and one_shot_used[slot] != here:
                                    continue  # fired in an earlier activation
                                one_shot_used[slot] = here
                            if batches[b, B_HAZARDOUS]:
                                hazard_used[n_hazard] = b
                                n_hazard += 1
                                hazard_rolls += _hazard_rolls(b, batches, contribs, losses.alive)
                        row = b
                        if alt >= 0:
                            row = retarget[b, alt]
                        elif unit_alive[target] == 0:
                            continue  # attacks on a unit destroyed earlier in this activation
                        while True:  # the batch, or its rows turned on another unit
                            target = batches[row, B_TARGET]
                            if unit_alive[target] > 0:
                                resolved = row
                                if rare_rules is not None and script.variants.shape[1] > 1:
                                    # keywords that go with their models
                                    resolved = _keyword_row(row, script.variants, batches,
                                                            army.units, army.subs, losses.alive)
                                n_pending, command = _resolve_batch(
                                    state, resolved, snapshot[target], weapons, army, losses,
                                    scratch, n_pending, script.precision_pick[resolved], command,
                                    rare_rules)
                            if alt < 0:
                                break
                            alt += 1
                            if alt == retarget.shape[1] or retarget[b, alt] < 0 \
                                    or batches[retarget[b, alt], B_TARGET] != target:
                                break
                            row = retarget[b, alt]
                    if rare_rules is not None:
                        if n_pending > 0:
                            _inflict_held(state, n_pending, command, weapons, army, losses,
                                          scratch)
                        if hazard_rolls > 0:
                            _roll_hazards(state, activations[k, K_ATTACKER], hazard_rolls,
                                          n_hazard, weapons, army, losses, scratch.buffer,
                                          hazard_used)
                _record_checkpoint(r, k, arrays, losses, trial, hists)
        for side in range(side_wiped.shape[0]):
            hists.sides[side, side_wiped[side]] += 1


@inlined_once
def _hazard_rolls(b, batches, contribs, alive):
    """The hazard rolls batch ``b``'s bearers make: one per weapon fired."""
    rolls = 0
    for c in range(batches[b, B_FIRST_CONTRIB],
                   batches[b, B_FIRST_CONTRIB] + batches[b, B_N_CONTRIBS]):
        rolls += models_firing(c, contribs, alive) * contribs[c, C_PER_MODEL]
    return rolls


@step_kernel
def _inflict_held(state, n_pending, command, weapons, army, losses, scratch):
    """The ``n_pending`` [DEVASTATING WOUNDS] held to the end of the activation
    (``scratch.pending_unit``: the unit, or -1 - the CHARACTER group [PRECISION] put it on;
    ``scratch.pending_damage``: pairs of damage, or -1 - the batch whose Damage is rolled
    now, and Feel No Pain column)."""
    subs = army.subs
    allocs = army.allocs
    units = army.units
    orders = army.orders
    pending_unit = scratch.pending_unit
    pending_damage = scratch.pending_damage
    buffer = scratch.buffer
    spill = weapons.flags[F_DW_SPILL]
    for i in range(n_pending):
        u = pending_unit[i]
        fnp_column = pending_damage[2 * i + 1]
        a = -1
        if u < 0:  # allocated to a CHARACTER by [PRECISION] (10e)
            a = -1 - u
            u = allocs[a, A_UNIT]
            if losses.group_alive[a] == 0 or spill:
                a = -1
        if a < 0 and losses.unit_alive[u] == 0:
            continue
        damage, command = held_damage(state, pending_damage[2 * i], weapons.batches,
                                      weapons.damage_maps, weapons.save_cdfs, command)
        if a >= 0:
            damage_model(state, a, damage, fnp_column, subs, allocs, losses)
            continue
        if spill:
            mortal_wounds(state, u, damage, army, losses, buffer, fnp_column)
            continue
        m = allocation_order(u, units, orders, allocs, losses.group_alive, losses.current,
                             buffer)
        if m > 0:
            damage_model(state, buffer[0], damage, fnp_column, subs, allocs, losses)


@step_kernel
def _roll_hazards(state, attacker, rolls, n_hazard, weapons, army, losses, buffer,
                  hazard_used):
    """``rolls`` hazard rolls of unit ``attacker`` after its attacks: 11e, each 1-2 a mortal
    wound on the unit (3 for an all-MONSTER/VEHICLE unit), spilling over; 10e, each 1
    three mortal wounds on one bearer of a weapon of ``hazard_used[:n_hazard]``."""
    if weapons.flags[F_HAZARD_10E]:
        for _ in range(rolls):
            if d6(state) == 1:
                s = hazard_bearer(hazard_used, n_hazard, weapons.batches, weapons.contribs,
                                  army.subs, army.allocs, losses.alive, losses.current)
                if s >= 0:
                    bearer_mortals(state, s, np.int64(3), army.subs, army.allocs, losses)
        return
    fails = 0
    for _ in range(rolls):
        if d6(state) <= 2:
            fails += 1
    per_fail = 3 if army.units[attacker, U_ALL_MV] else 1
    mortal_wounds(state, attacker, fails * per_fail, army, losses, buffer, S_FNP_MORTAL)


@inline_kernel
def _record_checkpoint(r, k, arrays, losses, trial, hists):
    """After activation ``k`` of round ``r``: the round a side lost its last model, and one
    count per unit and report group in the checkpoint's histogram rows.

    Compiled on its own and inlined by LLVM, not copied in by numba (0.07-0.12 s of a first
    run): the kernel needs it last, so the second process of a cold compile has it ready
    (:mod:`~mathhammer.wh40k.scenario.cold_compile`)."""
    units = arrays.army.units
    subs = arrays.army.subs
    report_groups = arrays.script.report_groups
    side_wiped = trial.side_wiped
    group_dead = trial.group_dead
    unit_alive = losses.unit_alive
    for side in range(side_wiped.shape[0]):
        if side_wiped[side] == 0:
            standing = 0
            for u in range(units.shape[0]):
                if units[u, U_SIDE] == side:
                    standing += unit_alive[u]
            if standing == 0:
                side_wiped[side] = r + 1
    checkpoint = r * arrays.script.activations.shape[0] + k
    for i in range(report_groups.shape[0]):
        group_dead[i] = report_groups[i, R_MODELS]
    for s in range(subs.shape[0]):
        group_dead[subs[s, S_REPORT]] -= losses.alive[s]
    for i in range(report_groups.shape[0]):
        hists.groups[checkpoint, report_groups[i, R_FIRST_BIN] + group_dead[i]] += 1
    for u in range(units.shape[0]):
        hists.models[checkpoint, units[u, U_MODEL_BINS] + units[u, U_MODELS]
                     - unit_alive[u]] += 1
        hists.wounds[checkpoint, units[u, U_WOUND_BINS] + losses.unit_lost[u]] += 1
