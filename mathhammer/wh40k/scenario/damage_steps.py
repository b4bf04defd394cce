"""The steps of a scenario trial that allocate attacks and inflict damage on a unit
(05.03-06.02): allocation order, saves, Damage rolls, Feel No Pain, mortal wounds, and who
bears a failed [HAZARDOUS] roll. Kernel helpers of :mod:`.kernels`, which documents the
state they change (``losses``: a :class:`~.chunks.Losses`) and the order of the dice.
"""

from __future__ import annotations

import numpy as np

from mathhammer.core.jit import inline_kernel, inlined_once, lean_kernel, step_kernel
from mathhammer.core.rng import d6, roll_dice
from mathhammer.wh40k.monte_carlo.dice_steps import draw_from_cdf, roll_with_lowest_die_again
from mathhammer.wh40k.plan_columns import (COMMAND_CODES, COMMAND_DAMAGE_BELOW, COMMAND_ONE_DIE,
                                           D_CONST, D_COUNT, D_SIDES, D_TABLE, FNP_COLUMN,
                                           MORTAL_DAMAGE, NORMAL_DAMAGE, SAVE_FAILS, SAVE_REROLL)
from mathhammer.wh40k.scenario.layout import (A_CHARACTER, A_FIRST_SUB, A_LOCAL, A_N_SUBS,
                                              A_POINTS, A_UNIT, A_WOUNDS, B_FIRST_CONTRIB,
                                              B_N_CONTRIBS, C_CAP, C_SKIPPED, C_SUB_COUNT,
                                              C_SUB_FIRST, DAMAGE_TABLE, PICK_FIRST, S_ALLOC,
                                              S_BODYGUARD, S_FNP_MORTAL, S_REPORT, S_TOUGHNESS,
                                              U_FIRST_SUB, U_FIRST_T, U_N_ALLOCS, U_N_SUBS, U_N_T,
                                              U_ORDER)

# The Command Re-roll codes, as globals numba folds into constants.
COMMAND_HIT, COMMAND_WOUND = COMMAND_CODES["hit"], COMMAND_CODES["wound"]
COMMAND_DAMAGE, COMMAND_SAVE = COMMAND_CODES["damage"], COMMAND_CODES["save"]


@step_kernel
def damage_model(state, a, damage, fnp_column, subs, allocs, losses):
    """Allocation group ``a``'s model (the wounded one) suffers ``damage``; FNP per wound,
    from column ``fnp_column`` of ``subs`` (S_FNP, S_FNP_MORTAL or their psychic ones).

    Excess damage is lost. Returns True when the model is destroyed.
    """
    alive = losses.alive
    current = losses.current
    group_alive = losses.group_alive
    unit_alive = losses.unit_alive
    unit_lost = losses.unit_lost
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
def allocation_order(u, units, orders, allocs, group_alive, current, buffer):
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


@inlined_once
def toughness_index(u, units, subs, toughness, alive):
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
def mortal_wounds(state, u, count, army, losses, buffer, fnp_column):
    """06.02: ``count`` mortal wounds one at a time on unit ``u``, spilling from model to
    model (Feel No Pain from column ``fnp_column`` of ``subs``)."""
    subs = army.subs
    allocs = army.allocs
    units = army.units
    orders = army.orders
    current = losses.current
    group_alive = losses.group_alive
    unit_alive = losses.unit_alive
    for _ in range(count):
        if unit_alive[u] == 0:
            return
        n = allocation_order(u, units, orders, allocs, group_alive, current, buffer)
        if n == 0:
            return
        damage_model(state, buffer[0], np.int64(1), fnp_column, subs, allocs, losses)


@step_kernel
def first_alive_sub(a, allocs, alive):
    s = allocs[a, A_FIRST_SUB]
    for i in range(s, s + allocs[a, A_N_SUBS]):
        if alive[i] > 0:
            return i
    return -1


@inline_kernel
def models_firing(c, contribs, alive):
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
def hazard_bearer(hazard_used, n_used, batches, contribs, subs, allocs, alive, current):
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
            if models_firing(c, contribs, alive) == 0:
                continue
            first_sub = contribs[c, C_SUB_FIRST]
            for s in range(first_sub, first_sub + contribs[c, C_SUB_COUNT]):
                if alive[s] == 0:
                    continue
                a = subs[s, S_ALLOC]
                if current[a] < allocs[a, A_WOUNDS] and first_alive_sub(a, allocs, alive) == s:
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
def bearer_mortals(state, s, count, subs, allocs, losses):
    """``count`` mortal wounds on one model of sub-group ``s`` (Feel No Pain against mortal
    wounds per wound); they do not spill over. The group's wounded model, if it belongs to
    ``s``, takes them; otherwise an unwounded model of ``s`` does. Such a model surviving
    beside another wounded model of its allocation group is booked as that one (a rare case
    the state does not hold: two wounded models in one group)."""
    alive = losses.alive
    current = losses.current
    group_alive = losses.group_alive
    unit_alive = losses.unit_alive
    unit_lost = losses.unit_lost
    a = subs[s, S_ALLOC]
    if current[a] < allocs[a, A_WOUNDS] and first_alive_sub(a, allocs, alive) == s:
        damage_model(state, a, count, S_FNP_MORTAL, subs, allocs, losses)
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
def roll_damage(state, b, batches, save_cdfs, command):
    """Batch ``b``'s raw Damage roll (the index of ``damage_maps``): its D dice, or a draw
    from its CDF (row 0 of table 1 of ``save_cdfs``) for a ``D_TABLE`` batch; with the
    Command Re-roll for Damage in hand, a result below ``COMMAND_DAMAGE_BELOW`` is rolled
    again (only its lowest die under ``COMMAND_ONE_DIE``). Returns (raw, command still in
    hand). A fixed Damage is answered here, a roll in :func:`_roll_damage_dice` (compiled
    once; in the scenario kernel LLVM inlines it too, see :mod:`mathhammer.core.jit`)."""
    if batches[b, D_COUNT] == 0 and not batches[b, D_TABLE] and command != COMMAND_DAMAGE:
        return batches[b, D_CONST], command
    return _roll_damage_dice(state, b, batches, save_cdfs, command)


@step_kernel
def _roll_damage_dice(state, b, batches, save_cdfs, command):
    """:func:`roll_damage` when there are dice to roll or a Command Re-roll to consider."""
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


@inlined_once
def _roll_damage_one_die(state, b, batches):
    """The Damage roll of several dice with the Command Re-roll for Damage in hand: below
    ``COMMAND_DAMAGE_BELOW``, its lowest die is rolled again. Returns (raw, command)."""
    raw, rerolled = roll_with_lowest_die_again(state, batches[b, D_COUNT], batches[b, D_SIDES],
                                               batches[b, D_CONST],
                                               batches[b, COMMAND_DAMAGE_BELOW])
    return raw, 0 if rerolled else COMMAND_DAMAGE


@inlined_once
def held_damage(state, damage, batches, damage_maps, save_cdfs, command):
    """A held [DEVASTATING WOUNDS] critical wound's mortal wounds: ``damage``, or, for a
    mark ``-1 - b``, batch ``b``'s Damage roll made now (with the Command Re-roll if it is
    still in hand). Returns (mortal wounds, Command Re-roll in hand)."""
    if damage >= 0:
        return damage, command
    b = -1 - damage
    raw, command = roll_damage(state, b, batches, save_cdfs, command)
    return damage_maps[b, MORTAL_DAMAGE, raw], command


@inlined_once
def precision_group(pick, n, buffer, allocs, subs, current):
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


@inline_kernel
def next_group(precision, pointer, n, buffer, group_alive):
    """The allocation group the next attack goes to: ``precision`` while it stands (when not
    -1), else the first group of ``buffer[pointer:n]`` with models left. Returns (group, or
    -1 when none is left, pointer)."""
    if precision >= 0 and group_alive[precision] > 0:
        return precision, pointer
    while pointer < n and group_alive[buffer[pointer]] == 0:
        pointer += 1
    if pointer == n:
        return -1, pointer
    return buffer[pointer], pointer


@inline_kernel
def save_die(state, saves, b, local, command):
    """One save die of batch ``b`` against allocation-group profile ``local``, re-rolled
    when its re-roll mask says so, or with the Command Re-roll for saves in hand when it
    fails (not on a save that cannot pass). Returns (face, Command Re-roll in hand)."""
    face = d6(state)
    if saves[b, local, SAVE_REROLL, face]:
        face = d6(state)
    elif command == COMMAND_SAVE and saves[b, local, SAVE_FAILS, face] and \
            not saves[b, local, SAVE_FAILS, 6]:
        face = d6(state)
        command = 0
    return face, command


@inline_kernel
def failed_save(state, b, a, weapons, army, losses, command):
    """A failed save of batch ``b`` on allocation group ``a``: its Damage roll, then the
    damage model by model. Returns the Command Re-roll still in hand."""
    raw, command = roll_damage(state, b, weapons.batches, weapons.save_cdfs, command)
    damage_model(state, a, weapons.damage_maps[b, NORMAL_DAMAGE, raw],
                 weapons.batches[b, FNP_COLUMN], army.subs, army.allocs, losses)
    return command


@step_kernel
def sorted_saves(state, b, to_save, n, precision, reference, weapons, army, losses, scratch,
                 command):
    """11e (05.03-05.04): roll every save (re-rolls, the Command Re-roll too, judged against
    allocation group ``reference``, the one current at the start), then inflict them lowest
    first on the current group of ``scratch.buffer[:n]``'s order (``precision``, when not
    -1, while it stands). Returns the Command Re-roll still in hand."""
    saves = weapons.saves
    counts = scratch.counts
    for face in range(7):
        counts[face] = 0
    for _ in range(to_save):
        face, command = save_die(state, saves, b, reference, command)
        counts[face] += 1
    pointer = np.int64(0)   # not a literal 0, which numba would compile next_group for
    for face in range(1, 7):
        for _ in range(counts[face]):
            a, pointer = next_group(precision, pointer, n, scratch.buffer, losses.group_alive)
            if a < 0:
                return command
            if saves[b, army.allocs[a, A_LOCAL], SAVE_FAILS, face]:
                command = failed_save(state, b, a, weapons, army, losses, command)
    return command


@step_kernel
def one_at_a_time(state, b, to_save, n, precision, weapons, army, losses, scratch, command):
    """10e allocation: each attack goes to the current model (a wounded one first, a
    CHARACTER only once the bodyguard is gone, or a CHARACTER [PRECISION] picks) and its save
    is rolled, and re-rolled, against that model. Returns the Command Re-roll in hand."""
    pointer = np.int64(0)   # not a literal 0, which numba would compile next_group for
    for _ in range(to_save):
        a, pointer = next_group(precision, pointer, n, scratch.buffer, losses.group_alive)
        if a < 0:
            return command
        local = army.allocs[a, A_LOCAL]
        face, command = save_die(state, weapons.saves, b, local, command)
        if weapons.saves[b, local, SAVE_FAILS, face]:
            command = failed_save(state, b, a, weapons, army, losses, command)
    return command
