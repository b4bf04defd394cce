"""The layout of the 40k single-target plan: what each column and row of
:class:`~mathhammer.wh40k.compile.CompiledPlan`'s arrays holds, and the codes in them.

Numbers only, no logic: the compiler writes these columns, the kernels and the exact engine
read them. Table rows handed to kernel helpers are numpy integers (see
:mod:`mathhammer.core.jit`).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class Sampling(IntEnum):
    """How a Monte Carlo kernel resolves a pool no larger than its tables (a plan's
    ``use_counts``; the kernels read its integer). The three give the same law; the tests
    compare them."""

    #: Every die rolled one at a time (forced-dice runs; a Command Re-roll needs the die).
    EVERY_DIE = 0
    #: One outcome count per roll (hit, wound, save) drawn from the CDF tables.
    COUNT_PER_ROLL = 1
    #: Every exact shortcut the batch allows (:func:`~.sampling_tables.batch_shortcuts`).
    EVERY_SHORTCUT = 2


# Outcome codes in the hit and wound tables.
FAIL, SUCCESS, CRITICAL = 0, 1, 2

# Columns of CompiledPlan.batch.
(N_WEAPONS, A_COUNT, A_SIDES, A_CONST, BONUS_DICE, RF_COUNT, RF_SIDES, RF_CONST, AUTO_HIT,
 SUS_COUNT, SUS_SIDES, SUS_CONST, LETHAL, EXTRA_CRIT, DEVASTATING, D_COUNT, D_SIDES,
 D_CONST) = range(18)
# Appended columns (rules added later; zero when unused so the hot paths never look at them):
# D_TABLE 1 when the raw Damage roll is drawn from ``damage_pmfs`` (a re-rolled Damage roll,
# a random [MELTA X]); D_COUNT is then -1 so no fixed-damage shortcut applies.
# A_REROLL_BELOW: an Attacks roll below this is re-rolled (0: never). BONUS_COUNT,
# BONUS_SIDES: random [BLAST X] dice per weapon (BONUS_DICE keeps the fixed part).
# FNP_COLUMN, FNP_MORTAL_COLUMN: the CompiledPlan.groups columns holding the Feel No Pain
# this batch's damage and mortal wounds face (the psychic ones for a [PSYCHIC] weapon).
# COMMAND_DAMAGE_BELOW: a Damage roll below this may take the Command Re-roll (its average).
# COMMAND_ONE_DIE: 1 when that re-roll takes only the lowest of the Damage roll's dice.
(D_TABLE, A_REROLL_BELOW, BONUS_COUNT, BONUS_SIDES, FNP_COLUMN, FNP_MORTAL_COLUMN,
 COMMAND_DAMAGE_BELOW, COMMAND_ONE_DIE) = range(18, 26)
BATCH_COLUMNS = 26
# CompiledPlan.command_reroll: the roll a Command Re-roll is spent on (0: none).
COMMAND_CODES = {"none": 0, "hit": 1, "wound": 2, "damage": 3, "save": 4}

# Rows of CompiledPlan.rolls (each indexed by the D6 face 1..6; column 0 unused). Table rows
# handed to kernel helpers are numpy integers: numba would compile a helper once per row
# given as a Python int (see mathhammer.core.jit).
HIT_CLASS, HIT_REROLL, WOUND_CLASS, WOUND_REROLL = np.arange(4, dtype=np.int64)
# Rows of CompiledPlan.saves[b, g].
SAVE_FAILS, SAVE_REROLL = range(2)
# Rows of CompiledPlan.damage_maps[b].
NORMAL_DAMAGE, MORTAL_DAMAGE = range(2)
# Columns of CompiledPlan.groups.
# G_FNP_PSYCHIC, G_FNP_PSYCHIC_MORTAL: the best Feel No Pain against a psychic attack's
# damage and mortal wounds (FNP (psychic) counted with the others).
G_MODELS, G_WOUNDS, G_FNP, G_FNP_MORTAL, G_FNP_PSYCHIC, G_FNP_PSYCHIC_MORTAL = range(6)
NO_FNP = 7


# Rows of CompiledPlan.count_cdfs[b]: binomial CDFs for sampling outcome counts.
(CRIT_HITS, HITS_OF_REST, CRIT_WOUNDS, WOUNDS_OF_REST, FAILED_SAVES, KILLS_OF_FAILED,
 KILLS_OF_ATTACKS, ATTACK_DICE, DEV_OF_DICE, FAILED_OF_REST, WOUND_DICE) = np.arange(
    11, dtype=np.int64)
# Row 0 of DAMAGE_ROLLS: the CDF of the raw damage roll of a D_TABLE batch.
DAMAGE_ROLLS = np.int64(11)
COUNT_TABLES = 12

# Columns of CompiledPlan.shortcuts[b].
FIXED_DICE, CHAIN, DICE_TABLE, FIXED_DAMAGE, DAMAGE_RECIPROCAL, KILL_RECIPROCAL = range(6)
SHORTCUT_COLUMNS = 6
# Values of the CHAIN column.
NO_CHAIN, CHAIN_KILLS, CHAIN_SPLIT, CHAIN_SUSTAINED = range(4)

__all__ = [
    "FAIL", "SUCCESS", "CRITICAL", "N_WEAPONS", "A_COUNT", "A_SIDES", "A_CONST", "BONUS_DICE",
    "RF_COUNT", "RF_SIDES", "RF_CONST", "AUTO_HIT", "SUS_COUNT", "SUS_SIDES", "SUS_CONST",
    "LETHAL", "EXTRA_CRIT", "DEVASTATING", "D_COUNT", "D_SIDES", "D_CONST", "D_TABLE",
    "A_REROLL_BELOW", "BONUS_COUNT", "BONUS_SIDES", "FNP_COLUMN", "FNP_MORTAL_COLUMN",
    "COMMAND_DAMAGE_BELOW", "COMMAND_ONE_DIE", "BATCH_COLUMNS", "COMMAND_CODES", "HIT_CLASS",
    "HIT_REROLL", "WOUND_CLASS", "WOUND_REROLL", "SAVE_FAILS", "SAVE_REROLL", "NORMAL_DAMAGE",
    "MORTAL_DAMAGE", "G_MODELS", "G_WOUNDS", "G_FNP", "G_FNP_MORTAL", "G_FNP_PSYCHIC",
    "G_FNP_PSYCHIC_MORTAL", "NO_FNP", "CRIT_HITS", "HITS_OF_REST", "CRIT_WOUNDS", "WOUNDS_OF_REST",
    "FAILED_SAVES", "KILLS_OF_FAILED", "KILLS_OF_ATTACKS", "ATTACK_DICE", "DEV_OF_DICE",
    "FAILED_OF_REST", "WOUND_DICE", "DAMAGE_ROLLS", "COUNT_TABLES", "FIXED_DICE", "CHAIN",
    "DICE_TABLE", "FIXED_DAMAGE", "DAMAGE_RECIPROCAL", "KILL_RECIPROCAL", "SHORTCUT_COLUMNS",
    "NO_CHAIN", "CHAIN_KILLS", "CHAIN_SPLIT", "CHAIN_SUSTAINED", "Sampling",
]
