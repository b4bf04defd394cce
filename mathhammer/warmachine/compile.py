"""Attack lines and targets -> one flat integer plan shared by both engines.

Each attack of each line becomes one row of :attr:`CompiledPlan.rows` (column indices are the
``R_*`` constants); each target model one row of :attr:`CompiledPlan.models` (``M_*``); the
rule switches one small vector (``RU_*``); damage grids and spirals two small tables
(:attr:`CompiledPlan.grid_lanes`, :attr:`CompiledPlan.grid_need`). The Monte Carlo kernel and
the exact engine read exactly these arrays, so they cannot disagree about what was asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from mathhammer.core.inputs import optional_instance
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.warmachine.profiles import CRIPPLED, N_LANES, Attack, Rules, Target

# -- attack rows --------------------------------------------------------------------------------
(R_LINE, R_FIRST, R_MELEE, R_STAT, R_POW, R_BLAST_POW, R_AOE, R_CATCHES, R_SPRAY, R_ATK_N,
 R_ATK_DROP, R_DMG_N, R_DMG_DROP, R_DMG_BOOSTED, R_CHARGE, R_AP, R_CRIT_AP, R_CRIT_KD,
 R_CRIT_NO_TOUGH, R_CRIT_MULT, R_CRIT_DICE, R_AUTO_HIT, R_AUTO_MISS, R_REROLL_MODE, R_REROLL_N,
 R_DREROLL_BELOW, R_DREROLL_N, R_GEN, R_GEN_CAP, R_BUDGET, R_CRIT_CONT, R_LANE) = range(32)
N_ROW_FIELDS = 32

REROLL_CODES = {"none": 0, "on_miss": 1, "on_miss_or_no_crit": 2}
GENERATE_CODES = {"none": 0, "on_hit": 1, "on_kill": 2}

# -- target models ------------------------------------------------------------------------------
(M_DEF, M_ARM, M_BOXES, M_MARKED, M_TOUGH, M_TOUGH_THR, M_KD, M_STATIONARY, M_UNIT, M_GRID,
 M_TRANSFERS, M_BEAST) = range(12)
N_MODEL_FIELDS = 12

# -- rule switches ------------------------------------------------------------------------------
(RU_ALL_ONES, RU_SPECIAL_KEPT, RU_ROLL_VS_AUTO, RU_STAT_DEF, RU_TOUGH_ALLOWED, RU_AOE_BOOST_ALL,
 RU_TRANSFER_LETHAL) = range(7)
N_RULE_FIELDS = 7

#: ``grid_need`` entry of a system slot a grid does not use (never crippled).
NEVER = 1 << 20

#: Bits of the per-sequence event flags both engines keep.
FLAG_TOUGH_SAVED = 1
FLAG_CONTINUOUS = 2
#: The exact engine marks "model j was hit" with bit ``FLAG_HIT_SHIFT + j``.
FLAG_HIT_SHIFT = 2


@dataclass(frozen=True, eq=False)
class CompiledPlan:
    """The flat representation both engines run.

    Attributes
    ----------
    rows
        ``int64 (n_attacks, N_ROW_FIELDS)``: one row per attack, in resolution order.
    models
        ``int64 (n_models, N_MODEL_FIELDS)``: target models in targeting order.
    rules
        ``int64 (N_RULE_FIELDS,)`` rule switches.
    coverage
        ``aoe_miss_coverage``.
    attacks, targets, rule_set
        The profiles the plan was compiled from (provenance).
    grid_lanes
        ``int64 (n_grids, 6)``: boxes per lane of each distinct grid or spiral (model column
        ``M_GRID`` indexes it; -1 = no grid).
    grid_need
        ``int64 (n_grids, n_systems, 6)``: system ``s`` of grid ``g`` is crippled when every
        lane ``l`` has at least ``grid_need[g, s, l]`` boxes marked (``NEVER`` pads).
    grid_systems
        The system letters of each grid, in the order of ``grid_need``.
    """

    rows: np.ndarray
    models: np.ndarray
    rules: np.ndarray
    coverage: float
    attacks: tuple[Attack, ...]
    targets: tuple[Target, ...]
    rule_set: Rules
    grid_lanes: np.ndarray
    grid_need: np.ndarray
    grid_systems: tuple[tuple[str, ...], ...]

    @property
    def n_models(self) -> int:
        return int(self.models.shape[0])

    @property
    def max_damage(self) -> int:
        """Most boxes the sequence can mark (every model's unmarked boxes)."""
        return int((self.models[:, M_BOXES] - self.models[:, M_MARKED]).sum())

    @property
    def max_boosts(self) -> int:
        return int(self.rows[:, R_BUDGET].sum()) if len(self.rows) else 0

    @property
    def max_transferred(self) -> int:
        """Most boxes damage transfer can mark on warbeasts."""
        return int(self.models[:, M_BEAST].sum())

    @property
    def per_model_hits(self) -> bool:
        """An AOE or a spray is in the plan: report P(hit) and P(destroyed) per model."""
        return bool(len(self.rows) and (self.rows[:, R_AOE].any() or self.rows[:, R_SPRAY].any()))

    @property
    def per_model_events(self) -> bool:
        """An AOE, a spray, a grid or a transfer is in the plan: the Monte Carlo kernel keeps
        per-model events (hit, destroyed, systems crippled, boxes transferred)."""
        return self.per_model_hits or self.max_transferred > 0 or len(self.grid_systems) > 0

    def kernel_arrays(self) -> KernelArrays:
        """What the Monte Carlo kernel reads, as one argument."""
        return KernelArrays(rows=self.rows, models=self.models, rules=self.rules,
                          coverage=self.coverage, grid_lanes=self.grid_lanes,
                          grid_need=self.grid_need, per_model_events=self.per_model_events)


class KernelArrays(NamedTuple):
    """A :class:`CompiledPlan` as the Monte Carlo kernel takes it: one argument (numba passes
    a named tuple of arrays as it passes the arrays). Fields as in :class:`CompiledPlan`;
    ``per_model_events`` is :attr:`CompiledPlan.per_model_events`. Built by
    :meth:`CompiledPlan.kernel_arrays`."""

    rows: np.ndarray
    models: np.ndarray
    rules: np.ndarray
    coverage: float
    grid_lanes: np.ndarray
    grid_need: np.ndarray
    per_model_events: bool


def compile_plan(attacks: Sequence[Attack], targets: Sequence[Target],
                 rules: Rules | None = None) -> CompiledPlan:
    """Lay out attack lines, target units and rule switches as flat integer arrays.

    Raises
    ------
    OptionError
        For an empty request or an unbounded attack-generating rule.
    UnsupportedError
        For switches no engine implements (no retargeting).
    """
    rules = optional_instance(rules, Rules, "rules", "Rules(tough_allowed=False)") or Rules()
    attacks = tuple(attacks)
    targets = tuple(targets)
    if not attacks:
        raise OptionError("give at least one attack line")
    if not targets:
        raise OptionError("give at least one target")
    if not rules.retarget_after_kill:
        raise UnsupportedError("retarget_after_kill=False is not implemented: attacks always "
                               "move on to the next model after a kill")
    rows = [row for line_index, attack in enumerate(attacks)
            for row in _attack_rows(line_index, _crippled(attack, rules))]
    grids = [t for t in targets if t.grid]
    models = [_model_row(unit_index, target, grids.index(target) if target.grid else -1)
              for unit_index, target in enumerate(targets) for _ in range(target.count)]
    lanes, need, systems = _grid_tables(grids)
    return CompiledPlan(rows=np.array(rows, dtype=np.int64).reshape(-1, N_ROW_FIELDS),
                        models=np.array(models, dtype=np.int64).reshape(-1, N_MODEL_FIELDS),
                        rules=_rule_vector(rules), coverage=float(rules.aoe_miss_coverage),
                        attacks=attacks, targets=targets, rule_set=rules, grid_lanes=lanes,
                        grid_need=need, grid_systems=systems)


def _crippled(attack: Attack, rules: Rules) -> Attack:
    """The attack with its model's crippled systems applied (older-edition effects, 7.3).

    A crippled weapon system loses one attack die and one damage die, Mind one attack die,
    Body one damage die; a crippled Spirit or Cortex cannot pay for boosts or a charge.
    """
    name = f"'{attack.name or 'attack'}'"
    crippled = [system for system in CRIPPLED if getattr(attack, f"crippled_{system}")]
    if not crippled:
        return attack
    if not rules.apply_crippling:
        raise OptionError(f"{name}: CRIPPLED {crippled[0].upper()} has an effect only with "
                          "apply_crippling=True ({--apply_crippling}: older-edition effects; the "
                          "MkIV ones are unverified); add it or drop the word",
                          options={"apply_crippling": True})
    if attack.crippled_spirit or attack.crippled_cortex:
        which = "SPIRIT" if attack.crippled_spirit else "CORTEX"
        paid = [word for word, used in (("ATTACK BOOSTS", attack.attack_boosts),
                                        ("DAMAGE BOOSTS", attack.damage_boosts),
                                        ("CHARGE", attack.charge)) if used]
        if paid:
            raise OptionError(f"{name}: a model with a CRIPPLED {which} cannot spend focus or "
                              f"fury, so {paid[0]} is impossible; drop it")
    return replace(attack,
                   attack_reduced=attack.attack_reduced + attack.crippled_weapon
                   + attack.crippled_mind,
                   damage_reduced=attack.damage_reduced + attack.crippled_weapon
                   + attack.crippled_body)


def _grid_tables(grids: list[Target]
                 ) -> tuple[np.ndarray, np.ndarray, tuple[tuple[str, ...], ...]]:
    """Boxes per lane, and per system the boxes each lane must have marked to cripple it."""
    systems = tuple(tuple(t.systems) for t in grids)
    width = max((len(s) for s in systems), default=0)
    lanes = np.zeros((len(grids), N_LANES), dtype=np.int64)
    need = np.full((len(grids), width, N_LANES), NEVER, dtype=np.int64)
    for g, target in enumerate(grids):
        for lane, boxes in enumerate(target.grid):
            lanes[g, lane] = len(boxes)
        for s, letter in enumerate(systems[g]):
            for lane, boxes in enumerate(target.grid):
                need[g, s, lane] = boxes.rfind(letter) + 1
    return lanes, need, systems


def _attack_rows(line_index: int, attack: Attack) -> list[np.ndarray]:
    """One row per attack of an attack line (the first carries the charge and the boosts)."""
    if attack.generate == "on_hit" and attack.max_generated is None:
        raise OptionError(f"'{attack.name or 'attack'}': EXTRA ATTACK ON HIT needs a cap, "
                          "e.g. EXTRA ATTACKS MAX 1 (otherwise the chain is unbounded)")
    rows = []
    for k in range(attack.count):
        first = k == 0
        charge = attack.charge and first
        row = np.zeros(N_ROW_FIELDS, dtype=np.int64)
        row[R_LINE] = line_index
        row[R_FIRST] = first
        row[R_MELEE] = attack.is_melee
        row[R_STAT] = attack.stat
        row[R_POW] = attack.pow
        row[R_BLAST_POW] = attack.effective_blast_pow
        row[R_AOE] = attack.is_aoe
        row[R_CATCHES] = attack.catches
        row[R_SPRAY] = attack.spray
        row[R_ATK_N] = attack.attack_dice_rolled + (k < attack.attack_boosts)
        row[R_ATK_DROP] = attack.attack_drop
        row[R_DMG_N] = 2 + attack.damage_dice - attack.damage_reduced
        row[R_DMG_DROP] = attack.damage_drop
        row[R_DMG_BOOSTED] = attack.boosted_damage
        row[R_CHARGE] = charge
        row[R_AP] = attack.armor_piercing
        row[R_CRIT_AP] = attack.crit_armor_piercing
        row[R_CRIT_KD] = attack.crit_knockdown
        row[R_CRIT_NO_TOUGH] = attack.crit_no_tough
        row[R_CRIT_MULT] = attack.crit_damage_multiplier
        row[R_CRIT_DICE] = attack.crit_damage_dice
        row[R_AUTO_HIT] = attack.auto_hit
        row[R_AUTO_MISS] = attack.auto_miss
        row[R_REROLL_MODE] = REROLL_CODES[attack.reroll_attack]
        row[R_REROLL_N] = attack.attack_rerolls
        row[R_DREROLL_BELOW] = attack.reroll_damage_below or 0
        row[R_DREROLL_N] = attack.damage_rerolls
        row[R_GEN] = GENERATE_CODES[attack.generate]
        row[R_GEN_CAP] = -1 if attack.max_generated is None else attack.max_generated
        row[R_BUDGET] = attack.damage_boosts if first else 0
        row[R_CRIT_CONT] = attack.crit_continuous
        row[R_LANE] = attack.lane or 0
        rows.append(row)
    return rows


def _model_row(unit_index: int, target: Target, grid: int) -> np.ndarray:
    """One row per model of a target unit (``grid``: index into the grid tables, or -1)."""
    model = np.zeros(N_MODEL_FIELDS, dtype=np.int64)
    model[M_DEF] = target.defense
    model[M_ARM] = target.armor
    model[M_BOXES] = target.boxes
    model[M_MARKED] = target.damaged
    model[M_TOUGH] = target.tough
    model[M_TOUGH_THR] = target.tough_threshold
    model[M_KD] = target.knocked_down
    model[M_STATIONARY] = target.stationary
    model[M_UNIT] = unit_index
    model[M_GRID] = grid
    model[M_TRANSFERS] = target.transfers
    model[M_BEAST] = target.transfer_boxes
    return model


def _rule_vector(rules: Rules) -> np.ndarray:
    """The rule switches the kernels read."""
    rule_vector = np.zeros(N_RULE_FIELDS, dtype=np.int64)
    rule_vector[RU_ALL_ONES] = rules.all_ones_miss
    rule_vector[RU_SPECIAL_KEPT] = rules.special_on_kept_dice
    rule_vector[RU_ROLL_VS_AUTO] = rules.roll_vs_auto_hit
    rule_vector[RU_STAT_DEF] = rules.stationary_base_def
    rule_vector[RU_TOUGH_ALLOWED] = rules.tough_allowed
    rule_vector[RU_AOE_BOOST_ALL] = rules.aoe_boost_all
    rule_vector[RU_TRANSFER_LETHAL] = rules.transfer_policy == "lethal"
    return rule_vector
