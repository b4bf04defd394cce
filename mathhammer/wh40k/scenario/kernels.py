"""Numba kernels for whole-unit scenarios: activations in sequence over battle rounds.

Reads a :class:`~mathhammer.wh40k.scenario.compile.ScenarioPlan`'s arrays only. State per
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

from mathhammer.core.jit import inline_kernel, lean_kernel, optimised_at_level_2, step_kernel
from mathhammer.core.rng import d6, roll_dice
from mathhammer.wh40k.compile import (
    AUTO_HIT,
    COMMAND_CODES,
    COMMAND_DAMAGE_BELOW,
    COMMAND_ONE_DIE,
    D_TABLE,
    FNP_COLUMN,
    FNP_MORTAL_COLUMN,
    D_CONST,
    D_COUNT,
    D_SIDES,
    DEVASTATING,
    EXTRA_CRIT,
    LETHAL,
    MORTAL_DAMAGE,
    NORMAL_DAMAGE,
    RF_CONST,
    RF_COUNT,
    RF_SIDES,
    SAVE_FAILS,
    SAVE_REROLL,
    SUS_CONST,
    SUS_COUNT,
    SUS_SIDES,
)
from mathhammer.wh40k.dice_steps import (binomial_at, count_outcomes, draw_from_cdf,
                                         roll_classified, roll_classified_command,
                                         roll_with_lowest_die_again)
from mathhammer.wh40k.scenario.compile import (
    CLASS_ROW,
    CRIT_COUNTS,
    DAMAGE_TABLE,
    FAILED_SAVES_TABLE,
    REROLL_ROW,
    REST_COUNTS,
    F_DW_AT_END,
    F_DW_SPILL,
    F_HAZARD_10E,
    F_ONE_AT_A_TIME,
    A_CHARACTER,
    A_FIRST_SUB,
    A_LOCAL,
    A_N_SUBS,
    A_POINTS,
    A_UNIT,
    A_WOUNDS,
    B_BLAST,
    B_BONUS_COUNT,
    B_BONUS_SIDES,
    B_CLEAVE,
    B_FIRST_CONTRIB,
    B_HAZARDOUS,
    B_N_CONTRIBS,
    B_ONE_SHOT,
    B_PRECISION,
    B_TARGET,
    C_A_CONST,
    C_A_COUNT,
    C_A_REROLL,
    C_A_SIDES,
    C_CAP,
    C_PER_MODEL,
    C_SKIPPED,
    C_SUB_COUNT,
    C_SUB_FIRST,
    K_ATTACKER,
    K_COMMAND,
    K_FIRST_BATCH,
    K_N_BATCHES,
    PICK_FIRST,
    S_BODYGUARD,
    S_FNP_MORTAL,
    S_ALLOC,
    S_MODELS,
    S_REPORT,
    S_TOUGHNESS,
    U_ALL_MV,
    U_FIRST_SUB,
    U_FIRST_T,
    U_MODEL_BINS,
    U_MODELS,
    U_N_ALLOCS,
    U_N_SUBS,
    U_N_T,
    U_ORDER,
    U_SIDE,
    U_WOUND_BINS,
)

# The Command Re-roll codes, as globals numba folds into constants.
COMMAND_HIT, COMMAND_WOUND = COMMAND_CODES["hit"], COMMAND_CODES["wound"]
COMMAND_DAMAGE, COMMAND_SAVE = COMMAND_CODES["damage"], COMMAND_CODES["save"]


@step_kernel
def _reset(subs, allocs, units, alive, current, group_alive, unit_alive, unit_lost):
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


@step_kernel
def _damage_model(state, a, damage, fnp_column, subs, allocs, alive, current, group_alive,
                  unit_alive, unit_lost):
    """Allocation group ``a``'s model (the wounded one) suffers ``damage``; FNP per wound,
    from column ``fnp_column`` of ``subs`` (S_FNP, S_FNP_MORTAL or their psychic ones).

    Excess damage is lost. Returns True when the model is destroyed.
    """
    s = allocs[a, A_FIRST_SUB]
    while alive[s] == 0:
        s += 1
    fnp = subs[s, fnp_column]
    lost = 0
    for _ in range(damage):
        if lost == current[a]:
            break
        if fnp < 7 and d6(state) >= fnp:
            continue
        lost += 1
    current[a] -= lost
    u = allocs[a, A_UNIT]
    unit_lost[u] += lost
    if current[a] == 0:
        alive[s] -= 1
        group_alive[a] -= 1
        unit_alive[u] -= 1
        current[a] = allocs[a, A_WOUNDS]
        return True
    return False


@lean_kernel
def _allocation_order(u, units, orders, allocs, group_alive, current, buffer):
    """The defender's order for one batch with the rules' forced moves (05.03).

    Groups holding a wounded model first, every non-CHARACTER group before any CHARACTER
    group; otherwise the declared order. The first entry is also where mortal wounds go
    (06.02). Returns how many entries ``buffer`` holds.
    """
    n = 0
    for step in range(4):
        want_character = step >= 2
        want_wounded = step % 2 == 0
        for i in range(units[u, U_N_ALLOCS]):
            a = orders[units[u, U_ORDER] + i]
            if group_alive[a] == 0:
                continue
            character = allocs[a, A_CHARACTER] == 1
            wounded = current[a] < allocs[a, A_WOUNDS]
            if character == want_character and wounded == want_wounded:
                buffer[n] = a
                n += 1
    return n


@step_kernel
def _toughness_index(u, units, subs, toughness, alive):
    """19.02: the bodyguard's highest T while any remains, else the highest T left."""
    best = 0
    fallback = 0
    for s in range(units[u, U_FIRST_SUB], units[u, U_FIRST_SUB] + units[u, U_N_SUBS]):
        if alive[s] > 0:
            if subs[s, S_BODYGUARD] and subs[s, S_TOUGHNESS] > best:
                best = subs[s, S_TOUGHNESS]
            if subs[s, S_TOUGHNESS] > fallback:
                fallback = subs[s, S_TOUGHNESS]
    value = best if best > 0 else fallback
    for k in range(units[u, U_N_T]):
        if toughness[units[u, U_FIRST_T] + k] == value:
            return k
    return 0


@step_kernel
def _mortal_wounds(state, u, count, units, orders, subs, allocs, alive, current, group_alive,
                   unit_alive, unit_lost, buffer, fnp_column):
    """06.02: ``count`` mortal wounds one at a time, spilling from model to model (Feel No
    Pain from column ``fnp_column`` of ``subs``)."""
    for _ in range(count):
        if unit_alive[u] == 0:
            return
        n = _allocation_order(u, units, orders, allocs, group_alive, current, buffer)
        if n == 0:
            return
        _damage_model(state, buffer[0], np.int64(1), fnp_column, subs, allocs, alive, current,
                      group_alive, unit_alive, unit_lost)


@step_kernel
def _first_alive_sub(a, allocs, alive):
    s = allocs[a, A_FIRST_SUB]
    for i in range(s, s + allocs[a, A_N_SUBS]):
        if alive[i] > 0:
            return i
    return -1


@inline_kernel
def _models_firing(c, contribs, alive):
    """Models of contribution ``c`` that fire its profile now: of the models alive in its
    sub-groups, those after the first C_SKIPPED, at most C_CAP of them (a counted choice
    keeps its models while the group has them)."""
    models = 0
    first = contribs[c, C_SUB_FIRST]
    for s in range(first, first + contribs[c, C_SUB_COUNT]):
        models += alive[s]
    models -= contribs[c, C_SKIPPED]
    if models <= 0:
        return 0
    return min(models, contribs[c, C_CAP])


@step_kernel
def _hazard_bearer(hazard_used, n_used, batches, contribs, subs, allocs, alive, current):
    """10e [HAZARDOUS]: the sub-group of the model that takes a failed roll's mortal wounds:
    a model carrying a [HAZARDOUS] weapon used this activation (the batches
    ``hazard_used[:n_used]``, retargeted ones included), a wounded one first, then a
    non-CHARACTER, then a CHARACTER. -1 when no bearer is left."""
    best = -1
    best_rank = 3
    for i in range(n_used):
        b = hazard_used[i]
        for c in range(batches[b, B_FIRST_CONTRIB],
                       batches[b, B_FIRST_CONTRIB] + batches[b, B_N_CONTRIBS]):
            if _models_firing(c, contribs, alive) == 0:
                continue
            first_sub = contribs[c, C_SUB_FIRST]
            for s in range(first_sub, first_sub + contribs[c, C_SUB_COUNT]):
                if alive[s] == 0:
                    continue
                a = subs[s, S_ALLOC]
                if current[a] < allocs[a, A_WOUNDS] and _first_alive_sub(a, allocs, alive) == s:
                    rank = 0
                elif allocs[a, A_CHARACTER] == 0:
                    rank = 1
                else:
                    rank = 2
                if rank < best_rank:
                    best = s
                    best_rank = rank
    return best


@step_kernel
def _bearer_mortals(state, s, count, subs, allocs, alive, current, group_alive, unit_alive,
                    unit_lost):
    """``count`` mortal wounds on one model of sub-group ``s`` (Feel No Pain against mortal
    wounds per wound); they do not spill over. The group's wounded model, if it belongs to
    ``s``, takes them; otherwise an unwounded model of ``s`` does. Such a model surviving
    beside another wounded model of its allocation group is booked as that one (a rare case
    the state does not hold: two wounded models in one group)."""
    a = subs[s, S_ALLOC]
    if current[a] < allocs[a, A_WOUNDS] and _first_alive_sub(a, allocs, alive) == s:
        _damage_model(state, a, count, S_FNP_MORTAL, subs, allocs, alive, current,
                      group_alive, unit_alive, unit_lost)
        return
    wounds = allocs[a, A_WOUNDS]
    fnp = subs[s, S_FNP_MORTAL]
    lost = 0
    for _ in range(count):
        if lost == wounds:
            break
        if fnp < 7 and d6(state) >= fnp:
            continue
        lost += 1
    u = allocs[a, A_UNIT]
    unit_lost[u] += lost
    if lost == wounds:
        alive[s] -= 1
        group_alive[a] -= 1
        unit_alive[u] -= 1
    elif lost > 0:
        current[a] = min(current[a], wounds - lost)


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
        weapons = _models_firing(c, contribs, alive) * contribs[c, C_PER_MODEL]
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


@inline_kernel
def _roll_damage(state, b, batches, save_cdfs, command):
    """Batch ``b``'s raw Damage roll (the index of ``damage_maps``): its D dice, or a draw
    from its CDF (row 0 of table 1 of ``save_cdfs``) for a ``D_TABLE`` batch; with the
    Command Re-roll for Damage in hand, a result below ``COMMAND_DAMAGE_BELOW`` is rolled
    again (only its lowest die under ``COMMAND_ONE_DIE``). Returns (raw, command still in
    hand). A fixed Damage is answered here; a roll is made out of line
    (:func:`_roll_damage_dice`), so its code is not copied into each of the six callers."""
    if batches[b, D_COUNT] == 0 and not batches[b, D_TABLE] and command != COMMAND_DAMAGE:
        return batches[b, D_CONST], command
    return _roll_damage_dice(state, b, batches, save_cdfs, command)


@step_kernel
def _roll_damage_dice(state, b, batches, save_cdfs, command):
    """:func:`_roll_damage` when there are dice to roll or a Command Re-roll to consider."""
    if command == COMMAND_DAMAGE and batches[b, COMMAND_ONE_DIE]:
        return _roll_damage_one_die(state, b, batches)
    if batches[b, D_TABLE]:
        raw = draw_from_cdf(state, save_cdfs, b, DAMAGE_TABLE, np.int64(0),
                            save_cdfs.shape[3] - 1)
    else:
        raw = roll_dice(state, batches[b, D_COUNT], batches[b, D_SIDES], batches[b, D_CONST])
    if command == COMMAND_DAMAGE and raw < batches[b, COMMAND_DAMAGE_BELOW]:
        # never a D_TABLE batch: the compiler refuses that pair
        raw = roll_dice(state, batches[b, D_COUNT], batches[b, D_SIDES], batches[b, D_CONST])
        command = 0
    return raw, command


@inline_kernel
def _roll_damage_one_die(state, b, batches):
    """The Damage roll of several dice with the Command Re-roll for Damage in hand: below
    ``COMMAND_DAMAGE_BELOW``, its lowest die is rolled again. Returns (raw, command)."""
    raw, rerolled = roll_with_lowest_die_again(state, batches[b, D_COUNT], batches[b, D_SIDES],
                                               batches[b, D_CONST],
                                               batches[b, COMMAND_DAMAGE_BELOW])
    return raw, 0 if rerolled else COMMAND_DAMAGE


@inline_kernel
def _held_damage(state, damage, batches, damage_maps, save_cdfs, command):
    """A held [DEVASTATING WOUNDS] critical wound's mortal wounds: ``damage``, or, for a
    mark ``-1 - b``, batch ``b``'s Damage roll made now (with the Command Re-roll if it is
    still in hand). Returns (mortal wounds, Command Re-roll in hand)."""
    if damage >= 0:
        return damage, command
    b = -1 - damage
    raw, command = _roll_damage(state, b, batches, save_cdfs, command)
    return damage_maps[b, MORTAL_DAMAGE, raw], command


@step_kernel
def _resolve_batch(state, b, blast_models, batches, contribs, hit, wound, saves, damage_maps,
                   units, orders, toughness, subs, allocs, alive, current, group_alive,
                   unit_alive, unit_lost, buffer, counts, pending_unit, pending_damage,
                   n_pending, flags, hit_cdfs, wound_cdfs, save_cdfs, use_counts, pick,
                   command):
    """One batch of one activation against its target unit: attack dice, hit and wound rolls
    (05.01-05.02), then saves and damage model by model.

    Long because the hit-and-wound step is written out here as in the single-target kernel:
    a step shared by both kernels measured 30-40% slower per small trial (an extra call per
    batch carrying a dozen arrays). Returns the [DEVASTATING WOUNDS] pending and the
    activation's Command Re-roll still in hand (``command``, 0 once spent).
    """
    limit = hit_cdfs.shape[2] - 1
    if command != 0:
        use_counts = 0   # the first failing die must be known
    u = batches[b, B_TARGET]
    dice = _attack_dice(state, b, blast_models, batches, contribs, alive)
    if batches[b, AUTO_HIT]:
        hits = dice
        crits = 0
    elif command == COMMAND_HIT:
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
    t_index = _toughness_index(u, units, subs, toughness, alive)
    to_wound = hits + extra + crits
    if command == COMMAND_WOUND:
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
            raw, _ = _roll_damage(state, b, batches, save_cdfs, np.int64(0))
            _damage_model(state, a, damage_maps[b, NORMAL_DAMAGE, raw], batches[b, FNP_COLUMN],
                          subs, allocs, alive, current, group_alive, unit_alive, unit_lost)
        to_save = 0
    n = _allocation_order(u, units, orders, allocs, group_alive, current, buffer)
    if n == 0:
        return n_pending, command
    precision = -1
    if batches[b, B_PRECISION]:
        precision = _precision_group(pick, n, buffer, allocs, subs, current)
    start = precision if precision >= 0 else buffer[0]
    if flags[F_ONE_AT_A_TIME]:
        command = _one_at_a_time(state, b, to_save, n, precision, batches, saves, damage_maps,
                                 subs, allocs, alive, current, group_alive, unit_alive,
                                 unit_lost, buffer, save_cdfs, command)
    else:
        command = _sorted_saves(state, b, to_save, n, precision, allocs[start, A_LOCAL],
                                batches, saves, damage_maps, subs, allocs, alive, current,
                                group_alive, unit_alive, unit_lost, buffer, counts,
                                save_cdfs, command)
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
            raw, command = _roll_damage(state, b, batches, save_cdfs, command)
            damage = damage_maps[b, MORTAL_DAMAGE, raw]
        if flags[F_DW_AT_END]:   # pending_damage holds pairs: damage, Feel No Pain column
            pending_unit[n_pending] = u if to_character < 0 else -1 - to_character
            pending_damage[2 * n_pending] = damage
            pending_damage[2 * n_pending + 1] = fnp_mortal
            n_pending += 1
            continue
        if to_character >= 0 and group_alive[to_character] > 0 and not flags[F_DW_SPILL]:
            _damage_model(state, to_character, damage, fnp_mortal, subs, allocs, alive,
                          current, group_alive, unit_alive, unit_lost)
            continue
        if flags[F_DW_SPILL]:
            _mortal_wounds(state, u, damage, units, orders, subs, allocs, alive, current,
                           group_alive, unit_alive, unit_lost, buffer, fnp_mortal)
            continue
        m = _allocation_order(u, units, orders, allocs, group_alive, current, buffer)
        if m == 0:
            break
        _damage_model(state, buffer[0], damage, fnp_mortal, subs, allocs, alive, current,
                      group_alive, unit_alive, unit_lost)
    return n_pending, command


@step_kernel
def _precision_group(pick, n, buffer, allocs, subs, current):
    """The CHARACTER group [PRECISION] makes current among ``buffer[:n]`` (the batch's
    allocation order, living groups only), -1 when there is none. ``pick``: PICK_FIRST, the
    first; a report-group index, that model group's first living model; otherwise (and
    when the named group is gone) the best: highest points per model over wounds left,
    compared by cross-multiplication, ties to the earlier group."""
    best = -1
    for i in range(n):
        a = buffer[i]
        if not allocs[a, A_CHARACTER]:
            continue
        if pick == PICK_FIRST or (pick >= 0 and subs[allocs[a, A_FIRST_SUB], S_REPORT] == pick):
            return a
        if best < 0 or allocs[a, A_POINTS] * current[best] > allocs[best, A_POINTS] * current[a]:
            best = a
    return best


@step_kernel
def _retarget_from(b, retarget, batches, unit_alive):
    """The first entry of ``retarget[b]`` whose unit still stands, or -1."""
    for j in range(retarget.shape[1]):
        row = retarget[b, j]
        if row < 0:
            return -1
        if unit_alive[batches[row, B_TARGET]] > 0:
            return j
    return -1


@step_kernel
def _sorted_saves(state, b, to_save, n, precision, reference, batches, saves, damage_maps,
                  subs, allocs, alive, current, group_alive, unit_alive, unit_lost, buffer,
                  counts, save_cdfs, command):
    """11e (05.03-05.04): roll every save (re-rolls, the Command Re-roll too, judged against
    the group current at the start), then inflict them lowest first on the current group of
    ``buffer``'s order. Returns the Command Re-roll still in hand."""
    for face in range(7):
        counts[face] = 0
    for _ in range(to_save):
        face = d6(state)
        if saves[b, reference, SAVE_REROLL, face]:
            face = d6(state)
        elif command == COMMAND_SAVE and saves[b, reference, SAVE_FAILS, face] and \
                not saves[b, reference, SAVE_FAILS, 6]:   # not on a save that cannot pass
            face = d6(state)
            command = 0
        counts[face] += 1
    pointer = 0
    for face in range(1, 7):
        for _ in range(counts[face]):
            if precision >= 0 and group_alive[precision] > 0:
                a = precision
            else:
                while pointer < n and group_alive[buffer[pointer]] == 0:
                    pointer += 1
                if pointer == n:
                    return command
                a = buffer[pointer]
            if saves[b, allocs[a, A_LOCAL], SAVE_FAILS, face]:
                raw, command = _roll_damage(state, b, batches, save_cdfs, command)
                _damage_model(state, a, damage_maps[b, NORMAL_DAMAGE, raw],
                              batches[b, FNP_COLUMN], subs, allocs, alive, current,
                              group_alive, unit_alive, unit_lost)
    return command


@step_kernel
def _one_at_a_time(state, b, to_save, n, precision, batches, saves, damage_maps, subs, allocs,
                   alive, current, group_alive, unit_alive, unit_lost, buffer, save_cdfs,
                   command):
    """10e allocation: each attack goes to the current model (a wounded one first, a
    CHARACTER only once the bodyguard is gone, or a CHARACTER [PRECISION] picks) and its save
    is rolled, and re-rolled, against that model. Returns the Command Re-roll in hand."""
    pointer = 0
    for _ in range(to_save):
        if precision >= 0 and group_alive[precision] > 0:
            a = precision
        else:
            while pointer < n and group_alive[buffer[pointer]] == 0:
                pointer += 1
            if pointer == n:
                return command
            a = buffer[pointer]
        local = allocs[a, A_LOCAL]
        face = d6(state)
        if saves[b, local, SAVE_REROLL, face]:
            face = d6(state)
        elif command == COMMAND_SAVE and saves[b, local, SAVE_FAILS, face] and \
                not saves[b, local, SAVE_FAILS, 6]:   # not on a save that cannot pass
            face = d6(state)
            command = 0
        if saves[b, local, SAVE_FAILS, face]:
            raw, command = _roll_damage(state, b, batches, save_cdfs, command)
            _damage_model(state, a, damage_maps[b, NORMAL_DAMAGE, raw], batches[b, FNP_COLUMN],
                          subs, allocs, alive, current, group_alive, unit_alive, unit_lost)
    return command


@optimised_at_level_2
@lean_kernel
def scenario_trials(state, trials, rounds, activations, batches, contribs, hit, wound, saves,
                    damage_maps, units, orders, toughness, subs, allocs, report_groups,
                    flags, alive, current, group_alive, unit_alive, unit_lost, buffer,
                    counts, snapshot, pending_unit, pending_damage, group_dead, side_wiped,
                    models_hist, wounds_hist, groups_hist, sides_hist, hit_cdfs, wound_cdfs,
                    save_cdfs, use_counts, one_shot_used, retarget, precision_pick,
                    hazard_used):
    """Run ``trials`` trials of the whole scenario on one stream; each adds one count per
    checkpoint to each histogram row. The trial loop lives here so the many arrays are
    passed once per chunk, not once per trial; it is long because each trial walks rounds,
    activations and checkpoints in order, and the per-trial bookkeeping of all of them sits
    in that one loop.

    ``one_shot_used[slot]`` is 0, or 1 + the checkpoint of the activation that selected that
    [ONE SHOT] weapon: later activations cannot select it again (24.26).

    ``retarget[b]`` (no columns with ``retarget_on_destroyed = lost``) lists batch ``b``'s
    alternative rows: when its target is down, the rows of the first candidate still
    standing are resolved instead, each as a batch of its own ([BLAST]/[CLEAVE] counting
    that unit's models at the start of the activation). ``precision_pick[b]``: see
    :func:`_precision_group`. ``hazard_used`` is scratch: the [HAZARDOUS] batches used in
    the current activation (10e bearers). One call site of ``_resolve_batch`` serves both (a second
    one, or two more array arguments to it, measured 25% slower on small scenarios).
    """
    for _trial in range(trials):

        _reset(subs, allocs, units, alive, current, group_alive, unit_alive, unit_lost)
        for i in range(one_shot_used.shape[0]):
            one_shot_used[i] = 0
        n_units = units.shape[0]
        n_sides = sides_hist.shape[0]
        for side in range(n_sides):
            side_wiped[side] = 0
        n_acts = activations.shape[0]
        for r in range(rounds):
            for k in range(n_acts):
                attacker = activations[k, K_ATTACKER]
                if unit_alive[attacker] > 0:
                    for u in range(n_units):
                        snapshot[u] = unit_alive[u]
                    hazard_rolls = 0
                    # not literal 0s, which numba would compile helpers for (core.jit)
                    n_hazard = np.int64(0)   # hazardous batches used: their bearers roll (10e)
                    n_pending = np.int64(0)
                    command = activations[k, K_COMMAND]   # the Command Re-roll in hand
                    first = activations[k, K_FIRST_BATCH]
                    for b in range(first, first + activations[k, K_N_BATCHES]):
                        target = batches[b, B_TARGET]
                        alt = -1
                        if retarget.shape[1] > 0 and unit_alive[target] == 0:
                            alt = _retarget_from(b, retarget, batches, unit_alive)
                        if snapshot[target] == 0 and alt < 0:
                            continue  # a destroyed unit cannot be selected as a target
                        slot = batches[b, B_ONE_SHOT]
                        if slot >= 0:
                            here = r * n_acts + k + 1
                            if one_shot_used[slot] != 0 and one_shot_used[slot] != here:
                                continue  # fired in an earlier activation
                            one_shot_used[slot] = here
                        if batches[b, B_HAZARDOUS]:
                            hazard_used[n_hazard] = b
                            n_hazard += 1
                            for c in range(batches[b, B_FIRST_CONTRIB],
                                           batches[b, B_FIRST_CONTRIB] + batches[b, B_N_CONTRIBS]):
                                hazard_rolls += _models_firing(c, contribs, alive) * \
                                    contribs[c, C_PER_MODEL]
                        row = b
                        if alt >= 0:
                            row = retarget[b, alt]
                        elif unit_alive[target] == 0:
                            continue  # attacks on a unit destroyed earlier in this activation
                        while True:  # the batch, or its rows turned on another unit
                            target = batches[row, B_TARGET]
                            if unit_alive[target] > 0:
                                n_pending, command = _resolve_batch(
                                    state, row, snapshot[target], batches, contribs, hit, wound,
                                    saves, damage_maps, units, orders, toughness, subs, allocs,
                                    alive, current, group_alive, unit_alive, unit_lost, buffer,
                                    counts, pending_unit, pending_damage, n_pending, flags,
                                    hit_cdfs, wound_cdfs, save_cdfs, use_counts,
                                    precision_pick[row], command)
                            if alt < 0:
                                break
                            alt += 1
                            if alt == retarget.shape[1] or retarget[b, alt] < 0 \
                                    or batches[retarget[b, alt], B_TARGET] != target:
                                break
                            row = retarget[b, alt]
                    for i in range(n_pending):
                        u = pending_unit[i]
                        fnp_column = pending_damage[2 * i + 1]
                        a = -1
                        if u < 0:  # allocated to a CHARACTER by [PRECISION] (10e)
                            a = -1 - u
                            u = allocs[a, A_UNIT]
                            if group_alive[a] == 0 or flags[F_DW_SPILL]:
                                a = -1
                        if a < 0 and unit_alive[u] == 0:
                            continue
                        damage, command = _held_damage(state, pending_damage[2 * i], batches,
                                                       damage_maps, save_cdfs, command)
                        if a >= 0:
                            _damage_model(state, a, damage, fnp_column, subs, allocs, alive,
                                          current, group_alive, unit_alive, unit_lost)
                            continue
                        if flags[F_DW_SPILL]:
                            _mortal_wounds(state, u, damage, units, orders, subs,
                                           allocs, alive, current, group_alive, unit_alive,
                                           unit_lost, buffer, fnp_column)
                            continue
                        m = _allocation_order(u, units, orders, allocs, group_alive, current,
                                              buffer)
                        if m > 0:
                            _damage_model(state, buffer[0], damage, fnp_column, subs, allocs,
                                          alive, current, group_alive, unit_alive, unit_lost)
                    if hazard_rolls > 0 and flags[F_HAZARD_10E]:
                        for _ in range(hazard_rolls):
                            if d6(state) == 1:
                                s = _hazard_bearer(hazard_used, n_hazard, batches, contribs,
                                                   subs, allocs, alive, current)
                                if s >= 0:
                                    _bearer_mortals(state, s, np.int64(3), subs, allocs, alive,
                                                    current,
                                                    group_alive, unit_alive, unit_lost)
                    elif hazard_rolls > 0:
                        fails = 0
                        for _ in range(hazard_rolls):
                            if d6(state) <= 2:
                                fails += 1
                        per_fail = 3 if units[attacker, U_ALL_MV] else 1
                        _mortal_wounds(state, attacker, fails * per_fail, units, orders, subs,
                                       allocs, alive, current, group_alive, unit_alive, unit_lost,
                                       buffer, S_FNP_MORTAL)
                for side in range(n_sides):
                    if side_wiped[side] == 0:
                        standing = 0
                        for u in range(n_units):
                            if units[u, U_SIDE] == side:
                                standing += unit_alive[u]
                        if standing == 0:
                            side_wiped[side] = r + 1
                checkpoint = r * n_acts + k
                for i in range(report_groups.shape[0]):
                    group_dead[i] = report_groups[i, 1]
                for s in range(subs.shape[0]):
                    group_dead[subs[s, S_REPORT]] -= alive[s]
                for i in range(report_groups.shape[0]):
                    groups_hist[checkpoint, report_groups[i, 2] + group_dead[i]] += 1
                for u in range(n_units):
                    models_hist[checkpoint, units[u, U_MODEL_BINS] + units[u, U_MODELS]
                                - unit_alive[u]] += 1
                    wounds_hist[checkpoint, units[u, U_WOUND_BINS] + unit_lost[u]] += 1
        for side in range(n_sides):
            sides_hist[side, side_wiped[side]] += 1
