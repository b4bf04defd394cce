"""What a compiled scenario's arrays hold: the column numbers of every array the scenario
kernel reads, and the :class:`CompiledScenario` that carries them
(:func:`~mathhammer.wh40k.scenario.compile.compile_scenario` fills it).

Layout (every array is int64):

- ``subs[S, ...]``: *sub-groups*, the unit of state. Each allocation group (05.03) is a
  contiguous run of sub-groups, one per model group it draws models from, in removal order.
- ``allocs[A, ...]``: allocation groups: unit, first sub-group, how many, CHARACTER flag, W,
  the group's index inside its unit (for the per-group save tables) and its points per
  model for [PRECISION] (see below).
- ``units[U, ...]``: ranges into the above, the declared allocation order (``orders``), the
  toughness values the unit can present (``toughness``), its side, and whether every model is
  a MONSTER or VEHICLE (hazard rolls).
- ``batches[B, ...]``: the columns of :mod:`mathhammer.wh40k.compile` plus the target unit,
  the contributing model groups (``contribs``), [BLAST]/[CLEAVE] X and flags. Tables:
  ``hit[B, 2, 7]``, ``wound[B, 2T, 7]`` (rows 2t and 2t+1: outcome and re-roll for
  toughness index t), ``saves[B, G, 2, 7]``
  (per allocation group of the target), ``damage_maps[B, 2, Dmax + 1]``.
- ``activations[K, ...]``: attacker and batch range. The kernel repeats them ``rounds`` times.
- Retargeting (``retarget_on_destroyed = retarget``): after every activation's batches come
  the *alternative rows*: a batch's weapons against each unit it may turn to, with their own
  tables (sharing the batch's contributions when every weapon may go there).
  ``retarget[B, R]`` lists a batch's alternative rows, candidate by candidate in the order
  they are tried (several rows for one candidate when its keywords split the batch), -1
  padded; ``R`` is 0 with ``lost``.
- Keywords (19.03): a unit has the keywords of the models still in it, read when a batch is
  resolved. ``keyword_bits`` lists, per unit, the keywords some weapon's ability names that
  not every model of it carries; ``subs[s, S_KEYWORDS]`` holds the bits its models carry, and
  ``variants[b, m]`` the row to resolve batch ``b`` with when the target's models alive
  carry the bits ``m`` (its own row, or a row with the tables of those keywords appended
  after the others, sharing the batch's contributions).
- [PRECISION]: ``precision_pick[B]`` is -2 (``first``), -1 (``best``) or the report index
  of the named CHARACTER model group in that batch's target; ``allocs[A, A_POINTS]`` is an
  allocation group's points per model in thousandths (1 for every CHARACTER of a unit whose
  CHARACTERs' points are not all known, so ``best`` picks the fewest wounds left).
- Report bins: per checkpoint (round x activation), histograms of models destroyed and wounds
  lost per unit and models destroyed per model group, laid out at fixed offsets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from mathhammer.core.lazy import lazy_names
from mathhammer.wh40k.plan_columns import BATCH_COLUMNS, DEVASTATING, Sampling

# subs columns (S_FNP_PSYCHIC*: the best Feel No Pain against a [PSYCHIC] attack's damage and
# mortal wounds; a batch names the two columns its attacks face in FNP_COLUMN/FNP_MORTAL_COLUMN).
# Numpy integers, like every number the kernels hand to a helper: numba compiles a helper once
# per Python int literal it is given (see mathhammer.core.jit).
# S_KEYWORDS: the bits (of its unit's keyword_bits) of the keywords its models carry.
(S_UNIT, S_MODELS, S_WOUNDS, S_FNP, S_FNP_MORTAL, S_ALLOC, S_TOUGHNESS, S_BODYGUARD,
 S_REPORT, S_FNP_PSYCHIC, S_FNP_PSYCHIC_MORTAL, S_KEYWORDS) = np.arange(12, dtype=np.int64)
#: Most keywords per unit whose coming and going (models with them destroyed) the engines
#: follow; beyond, a keyword counts while the unit stands.
MAX_KEYWORD_BITS = 4
# Rows of CompiledScenario.hit / wound (per weapon: class of each face, re-roll mask; wound rows
# come in such pairs per toughness index) and of hit_cdfs / wound_cdfs (critical counts, then
# successes among the rest); tables of save_cdfs.
CLASS_ROW, REROLL_ROW = np.arange(2, dtype=np.int64)
CRIT_COUNTS, REST_COUNTS = np.arange(2, dtype=np.int64)
FAILED_SAVES_TABLE, DAMAGE_TABLE = np.arange(2, dtype=np.int64)
# allocs columns
A_UNIT, A_FIRST_SUB, A_N_SUBS, A_CHARACTER, A_WOUNDS, A_LOCAL, A_POINTS = range(7)
# units columns
(U_FIRST_SUB, U_N_SUBS, U_FIRST_ALLOC, U_N_ALLOCS, U_ORDER, U_FIRST_T, U_N_T, U_ALL_MV,
 U_MODELS, U_WOUNDS, U_SIDE, U_MODEL_BINS, U_WOUND_BINS) = range(13)
# batch columns beyond the single-batch ones (B_BONUS_COUNT, B_BONUS_SIDES: the dice of a
# random [BLAST X] and [CLEAVE X] per five target models, rolled per weapon)
(B_TARGET, B_FIRST_CONTRIB, B_N_CONTRIBS, B_BLAST, B_CLEAVE, B_HAZARDOUS,
 B_PRECISION, B_ONE_SHOT, B_BONUS_COUNT, B_BONUS_SIDES) = range(BATCH_COLUMNS, BATCH_COLUMNS + 10)
SCENARIO_BATCH_COLUMNS = BATCH_COLUMNS + 10
# contribs columns: which model group fires (sub-groups C_SUB_FIRST.. C_SUB_COUNT of them),
# how many weapons per model, its A (or split), and of the models alive in those sub-groups
# how many fire other profiles first (C_SKIPPED) and how many at most fire this one (C_CAP);
# an Attacks roll below C_A_REROLL is re-rolled (0: never)
(C_SUB_FIRST, C_SUB_COUNT, C_PER_MODEL, C_A_COUNT, C_A_SIDES, C_A_CONST, C_SKIPPED,
 C_CAP, C_A_REROLL) = range(9)
CONTRIB_COLUMNS = 9
#: C_CAP of a contribution every remaining model makes
NO_CAP = 1 << 62
# activations columns (K_COMMAND: the roll the activation's Command Re-roll goes to,
# compile.COMMAND_CODES, 0 for none)
K_ATTACKER, K_FIRST_BATCH, K_N_BATCHES, K_COMMAND = range(4)
ACTIVATION_COLUMNS = 4
# CompiledScenario.flags: the edition's rules the kernel switches on (see rule_flags)
F_DW_AT_END, F_DW_SPILL, F_ONE_AT_A_TIME, F_HAZARD_10E = range(4)
# report_groups columns: the model group's unit, its models, its first bin in the group
# histograms
R_UNIT, R_MODELS, R_FIRST_BIN = range(3)
# CompiledScenario.precision_pick codes besides a report-group index
PICK_FIRST, PICK_BEST = -2, -1


@dataclass(frozen=True, eq=False)
class CompiledScenario:
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
    report_groups: np.ndarray      # [R, 3]: R_UNIT, R_MODELS, R_FIRST_BIN
    unit_names: tuple[str, ...]
    group_names: tuple[tuple[str, str], ...]   # (unit, group) per report group
    activation_labels: tuple[str, ...]
    side_names: tuple[str, ...]
    model_bins: int
    wound_bins: int
    group_bins: int
    batch_labels: tuple[str, ...]
    one_shot_slots: int = 0
    keyword_bits: tuple[tuple[str, ...], ...] = ()   # per unit, the keyword of each bit
    # The arrays below default to None only to follow the defaulted field above;
    # compile_scenario always fills them, so they are typed as present.
    # hit_cdfs: float64[B, 2, N + 1, N + 1]: crits, hits of the rest
    hit_cdfs: np.ndarray = None  # type: ignore[assignment]
    # wound_cdfs: float64[B, 2T, N + 1, N + 1]: rows 2t, 2t+1 for T index t
    wound_cdfs: np.ndarray = None  # type: ignore[assignment]
    # save_cdfs: float64[B, 2, N + 1, N + 1]: table 0, failed saves against one group; row 0
    # of table 1, the CDF of a D_TABLE batch's raw damage index (kept here: one more array
    # argument to the batch kernel costs more than the table)
    save_cdfs: np.ndarray = None  # type: ignore[assignment]
    use_counts: Sampling = Sampling.COUNT_PER_ROLL   # the kernel reads its integer
    flags: np.ndarray = None  # type: ignore[assignment]  # int64[4], see rule_flags()
    # retarget: int64[B, R]: alternative rows per batch, -1 padded
    retarget: np.ndarray = None  # type: ignore[assignment]
    # precision_pick: int64[B]: -2 first, -1 best, else a report group
    precision_pick: np.ndarray = None  # type: ignore[assignment]
    # variants: int64[B, 2**bits]: the row of batch b against the keywords of mask m
    variants: np.ndarray = None  # type: ignore[assignment]

    @property
    def checkpoints(self) -> int:
        return self.rounds * self.activations.shape[0]

    @property
    def rare_rules(self) -> bool:
        """Whether the kernel needs the code of the rules few scenarios use: a Command
        Re-roll, 10th-edition allocation, [DEVASTATING WOUNDS], [HAZARDOUS], [PRECISION],
        [ONE SHOT], weapons that turn to another target, keywords that go with their models.
        Without them the scenario kernel is compiled without that code, in about half the
        time (:func:`~mathhammer.wh40k.scenario.kernels.scenario_trials`)."""
        batches = self.batches
        return bool(self.activations[:, K_COMMAND].any() or self.flags[F_ONE_AT_A_TIME]
                    or batches[:, DEVASTATING].any() or batches[:, B_HAZARDOUS].any()
                    or batches[:, B_PRECISION].any() or (batches[:, B_ONE_SHOT] >= 0).any()
                    or (self.retarget is not None and self.retarget.shape[1] > 0)
                    or (self.variants is not None and self.variants.shape[1] > 1))

    def kernel_arrays(self, use_counts: Sampling | None = None) -> ScenarioArrays:
        """The arrays the scenario kernel reads, grouped as it passes them on, built here
        only. ``use_counts`` :attr:`Sampling.EVERY_DIE` rolls every die (forced-dice runs);
        default the plan's."""
        counts = self.use_counts if use_counts is None else use_counts
        return ScenarioArrays(
            army=Army(self.subs, self.allocs, self.units, self.orders, self.toughness),
            weapons=WeaponArrays(self.batches, self.contribs, self.hit, self.wound, self.saves,
                                 self.damage_maps, self.hit_cdfs, self.wound_cdfs,
                                 self.save_cdfs, self.flags, int(counts)),
            script=Script(self.activations, self.report_groups, self.retarget,
                          self.precision_pick, self.variants, int(self.rounds)))


class Army(NamedTuple):
    """Every unit on the table as the kernel's allocation steps read it (layout above)."""

    subs: np.ndarray
    allocs: np.ndarray
    units: np.ndarray
    orders: np.ndarray
    toughness: np.ndarray


class WeaponArrays(NamedTuple):
    """Every batch's row, contributions and tables, the edition's ``flags``, and
    ``use_counts`` (1: sample outcome counts from the CDF tables; 0: roll every die)."""

    batches: np.ndarray
    contribs: np.ndarray
    hit: np.ndarray
    wound: np.ndarray
    saves: np.ndarray
    damage_maps: np.ndarray
    hit_cdfs: np.ndarray
    wound_cdfs: np.ndarray
    save_cdfs: np.ndarray
    flags: np.ndarray
    use_counts: int


class Script(NamedTuple):
    """The activations repeated ``rounds`` times, the report groups, and per batch its
    alternative rows (``retarget``), [PRECISION] pick and rows by keywords (``variants``)."""

    activations: np.ndarray
    report_groups: np.ndarray
    retarget: np.ndarray
    precision_pick: np.ndarray
    variants: np.ndarray
    rounds: int


class ScenarioArrays(NamedTuple):
    """A :class:`CompiledScenario` as the kernel takes it: one argument of three groups (numba
    passes named tuples of arrays as it passes the arrays themselves)."""

    army: Army
    weapons: WeaponArrays
    script: Script


#: Old names of this module's classes: they answer for one release with a DeprecationWarning
#: ("plan" is kept for the compiled plan of one attack sequence).
__getattr__ = lazy_names(__name__, {}, {
    "ScenarioPlan": "mathhammer.wh40k.scenario.layout.CompiledScenario"})[0]
