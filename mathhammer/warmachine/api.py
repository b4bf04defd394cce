"""Public entry points: :func:`simulate` (Monte Carlo) and :func:`exact`.

Both take attack lines and target units (text or profile objects), compile them into one
:class:`~mathhammer.warmachine.compile.CompiledPlan` and hand it to an engine.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from mathhammer.core import game as contract
from mathhammer.core.game import Game, Outcomes, SeedLike, Tallies
from mathhammer.core.progress import check_progress, watch
from mathhammer.core.result import Distribution, Result
from mathhammer.core.signatures import old_spellings, renamed
from mathhammer.core.inputs import one_or_many
from mathhammer.core.limits import check_outcome_values, check_run_work
from mathhammer.core.trials import CHUNKS, DEFAULT_TRIALS, check_seed, check_trials
from mathhammer.errors import OptionError
from mathhammer.warmachine.compile import M_GRID, CompiledPlan, compile_plan
from mathhammer.warmachine.exact_engine import outcome_names, solve
from mathhammer.warmachine.profiles import Attack, Rules, Target
from mathhammer.warmachine.parse import parse_attack
from mathhammer.warmachine.reference_targets import resolve_target

#: Fixed number of random-stream chunks (never tied to the thread count: same seed, same bits).
N_CHUNKS = CHUNKS

AttackLike = Attack | str
TargetLike = Target | str


def as_attacks(attacks: AttackLike | Iterable[AttackLike]) -> tuple[Attack, ...]:
    """One attack line or several (text or :class:`Attack`) as a tuple of attacks.

    Raises
    ------
    ProfileError
        For a malformed line.
    OptionError
        For anything that is neither a line nor a sequence of them.
    """
    items = one_or_many(attacks, (Attack,), "attacks", "Battle hammer: MAT7 POW16")
    return tuple(a if isinstance(a, Attack) else parse_attack(a) for a in items)


def as_targets(targets: TargetLike | Iterable[TargetLike]) -> tuple[Target, ...]:
    """One target unit or several (text or :class:`Target`) as a tuple of targets.

    A text is a target line or a reference target's name (``"HEAVY_JACK"``,
    ``"3x LIGHT_JACK [KNOCKED DOWN]"``; :mod:`mathhammer.warmachine.reference_targets`).

    Raises
    ------
    ProfileError
        For a malformed line or an unknown reference name.
    OptionError
        For anything that is neither a line nor a sequence of them.
    """
    items = one_or_many(targets, (Target,), "targets", "Heavy warjack: DEF12 ARM19 BOXES30")
    return tuple(resolve_target(t) for t in items)


def plan(attacks: AttackLike | Iterable[AttackLike], targets: TargetLike | Iterable[TargetLike],
         rules: Rules | None = None) -> CompiledPlan:
    """Parse (if needed) and compile attack lines and targets.

    Parameters
    ----------
    attacks
        One attack line or a sequence of them, resolved in order (each line is one attacking
        model's attacks with one weapon).
    targets
        One target unit or several (lines, :class:`Target` objects or reference names such
        as ``"HEAVY_JACK"``, ``"10x INFANTRY"``); attacks move on to the next model (then the
        next unit) when their target is destroyed.
    rules
        Rule switches; defaults to :class:`~mathhammer.warmachine.profiles.Rules()`.
    """
    return compile_plan(as_attacks(attacks), as_targets(targets), rules)


@old_spellings(positional=("rules",), attacks=renamed("weapons"), targets=renamed("target"))
def exact(weapons: AttackLike | Iterable[AttackLike], target: TargetLike | Iterable[TargetLike],
          *, rules: Rules | None = None) -> Result:
    """Exact distributions of a sequence of attacks against one or more targets.

    Returns
    -------
    Result
        ``damage`` (boxes marked), ``models_destroyed`` (and ``boosts_spent`` when damage
        boosts are bought) plus ``hit``/``crit`` (first attack roll of the first line),
        ``unit_destroyed`` and ``tough_saved``.

    Raises
    ------
    ProfileError
        For malformed lines.
    UnsupportedError
        When the state space is too large to enumerate, or the joint outcomes pass
        :data:`~mathhammer.warmachine.exact_engine.MAX_COMBINATIONS` (estimated from the plan
        before any work; counted as they are enumerated when attacks generate attacks): a
        [SPRAY N] or an AOE rolls every covered model at once: [SPRAY 11] over eleven 1-box
        models is accepted and takes about 3 s, [SPRAY 12] is refused; use :func:`simulate`
        then.

    Examples
    --------
    >>> r = exact("2x Battle hammer: MAT7 POW16", "Heavy warjack: DEF12 ARM19 BOXES30")
    >>> round(r.probability("hit"), 4), round(r.mean("damage"), 4)
    (0.8333, 6.713)
    """
    return contract.exact(GAME, weapons, target, rules=rules)


@old_spellings(attacks=renamed("weapons"), targets=renamed("target"))
def simulate(weapons: AttackLike | Iterable[AttackLike],
             target: TargetLike | Iterable[TargetLike], *,
             trials: int | str = DEFAULT_TRIALS, seed: SeedLike = 1,
             rules: Rules | None = None, progress: bool | None = None,
             target_stderr: float | None = None) -> Result:
    """Monte Carlo estimate of the same outcomes as :func:`exact`.

    The trials are split into :data:`N_CHUNKS` chunks with independent xoshiro256** streams,
    so one seed gives the same result on any number of threads. ``seed``: an int or a
    :class:`numpy.random.SeedSequence` (the result records its entropy, and its spawn key
    in ``inputs["seed_spawn_key"]``). ``progress``: a progress bar on stderr for a run
    longer than about 2 s (``None``, the default: when stderr is a terminal or in a
    notebook; ``True``/``False`` force it); it never changes the result.
    ``trials="auto"`` (or a ``target_stderr``) runs until the headline figures are precise
    enough, as in every game (:mod:`mathhammer.core.adaptive`).

    Examples
    --------
    >>> r = simulate("2x Battle hammer: MAT7 POW16", "Heavy warjack: DEF12 ARM19 BOXES30",
    ...              trials=20_000, seed=1)
    >>> r.trials, r.seed
    (20000, 1)
    """
    return contract.simulate(GAME, weapons, target, trials=trials, seed=seed,
                             progress=progress, target_stderr=target_stderr, rules=rules)


#: Most attack rolls a Monte Carlo run may resolve, counting an AOE's roll once per model it
#: may cover: about an hour of one core.
MAX_ATTACK_ROLLS_PER_RUN = 20_000_000_000


def run_monte_carlo(compiled: CompiledPlan, trials: int, seed: SeedLike, *,
                    progress: bool | None = None) -> Tallies:
    """Run the Monte Carlo kernel on a compiled plan: histograms of ``damage``,
    ``models_destroyed`` (``boosts_spent``, ``damage_transferred`` when the plan can have
    them) and the trials each event happened in (see :meth:`WarmachineGame.monte_carlo_outcomes`).

    A progress bar counts the trials in the histograms (a count per trial) while the kernel
    runs; the kernel call is the same with or without it."""
    from mathhammer.warmachine.kernels import (C_BEAST, C_CONTINUOUS, C_CRIT, C_HIT, C_SAVED,
                                               C_UNIT, N_COUNTERS, ChunkCounts,
                                               simulate_chunks)
    from mathhammer.core.threads import run_chunk_shares

    trials, seed = check_trials(trials), check_seed(seed)
    check_progress(progress)
    check_outcome_values(compiled.max_damage + compiled.max_boosts + compiled.max_transferred,
                         "the boxes one trial marks", "fewer or smaller target models")
    check_run_work(len(compiled.rows) * max(1, compiled.n_models), trials, "attack rolls",
                   MAX_ATTACK_ROLLS_PER_RUN)
    from mathhammer.core.rng import chunk_streams   # numba: loaded when a run starts

    streams, per_chunk = chunk_streams(trials, seed, N_CHUNKS)
    n_models = compiled.n_models
    shapes = ((compiled.max_damage + 1,), (n_models + 1,), (compiled.max_boosts + 1,),
              (compiled.max_transferred + 1,), (N_COUNTERS,), (n_models, 2),
              (n_models, compiled.grid_need.shape[1]))
    chunk_counts = ChunkCounts(*(np.zeros((N_CHUNKS, *shape), dtype=np.int64)
                                 for shape in shapes))
    watch(lambda: run_chunk_shares(simulate_chunks, N_CHUNKS, streams, per_chunk,
                                   compiled.kernel_arrays(), chunk_counts),
          chunk_counts.destroyed.sum, trials, "simulate", progress=progress)
    total = ChunkCounts(*(array.sum(axis=0) for array in chunk_counts))
    totals = total.counters
    histograms = {"damage": total.damage, "models_destroyed": total.destroyed}
    if compiled.max_boosts:
        histograms["boosts_spent"] = total.spent
    if compiled.max_transferred:
        histograms["damage_transferred"] = total.transfer
    counts = {"hit": totals[C_HIT], "crit": totals[C_CRIT], "unit_destroyed": totals[C_UNIT],
              "tough_saved": totals[C_SAVED], "continuous_effect": totals[C_CONTINUOUS],
              "beast_destroyed": totals[C_BEAST]}
    per_model, crippled = total.per_model, total.crippled
    gridded = [i for i in range(n_models) if compiled.models[i, M_GRID] >= 0]
    for i in range(n_models):
        counts[f"hit_model_{i + 1}"] = per_model[i, 0]
        counts[f"destroyed_model_{i + 1}"] = per_model[i, 1]
        if i in gridded:
            suffix = f"_model_{i + 1}" if len(gridded) > 1 else ""
            for s, letter in enumerate(compiled.grid_systems[compiled.models[i, M_GRID]]):
                counts[f"crippled_{letter}{suffix}"] = crippled[i, s]
    return Tallies(trials, histograms, counts)


def run_exact(compiled: CompiledPlan) -> Result:
    """Solve a compiled plan exactly (see :func:`mathhammer.warmachine.exact_engine.solve`)."""
    return contract.exact_result(GAME, compiled)


def monte_carlo(compiled: CompiledPlan, trials: int, seed: SeedLike, *,
                progress: bool | None = None) -> Result:
    """:func:`run_monte_carlo` on a compiled plan, as a :class:`Result` (the outcomes of
    :func:`run_exact`)."""
    return contract.monte_carlo_result(GAME, compiled, trials=trials, seed=seed,
                                       progress=progress)


#: Human names of the outcomes, for tables and charts.
LABELS = {"damage": "boxes marked", "models_destroyed": "models destroyed",
          "boosts_spent": "damage boosts spent", "unit_destroyed": "all targets destroyed",
          "tough_saved": "a Tough roll saved",
          "continuous_effect": "continuous effect applied",
          "damage_transferred": "boxes transferred to the warbeast",
          "beast_destroyed": "warbeast destroyed by transferred damage"}


def labels_of(compiled: CompiledPlan) -> dict[str, str]:
    """:data:`LABELS` plus the plan's per-model and per-system events."""
    labels = dict(LABELS)
    gridded = [i for i in range(compiled.n_models) if compiled.models[i, M_GRID] >= 0]
    for i in range(compiled.n_models):
        labels[f"hit_model_{i + 1}"] = f"model {i + 1} hit"
        labels[f"destroyed_model_{i + 1}"] = f"model {i + 1} destroyed"
        if i in gridded:
            target_of = [t for t in compiled.targets for _ in range(t.count)][i]
            suffix = f"_model_{i + 1}" if len(gridded) > 1 else ""
            where = f" (model {i + 1})" if suffix else ""
            for letter, name in target_of.systems.items():
                labels[f"crippled_{letter}{suffix}"] = f"{name} ({letter}) crippled{where}"
    return labels


def inputs_of(compiled: CompiledPlan) -> dict[str, object]:
    """The request behind a result, as plain JSON-ready values."""
    return {"attacks": [str(a) for a in compiled.attacks],
            "targets": [str(t) for t in compiled.targets],
            "rules": compiled.rule_set.as_dict(),
            "rule_changes": list(compiled.rule_set.changes())}


#: Words of the comparison metrics (:func:`mathhammer.warmachine.comparisons.compare`).
METRIC_LABELS = {"expected_damage": "expected boxes marked",
                 "expected_models_destroyed": "expected models destroyed",
                 "expected_boosts_spent": "expected damage boosts spent",
                 "expected_damage_transferred": "expected boxes transferred",
                 "p_hit": "P(first attack hits)",
                 "p_unit_destroyed": "P(all targets destroyed)"}


class WarmachineGame(Game[CompiledPlan]):
    """Warmachine MkIV under core's contract (see :class:`mathhammer.core.game.Game`): attack
    lines resolved in order against target units, by the exact chain or the kernels."""

    name = "warmachine"
    labels = LABELS
    metrics = {"expected_damage": ("mean", "damage"),
               "expected_models_destroyed": ("mean", "models_destroyed"),
               "expected_boosts_spent": ("mean", "boosts_spent"),
               "expected_damage_transferred": ("mean", "damage_transferred"),
               "p_hit": ("probability", "hit"),
               "p_unit_destroyed": ("probability", "unit_destroyed")}
    metric_labels = METRIC_LABELS

    def compile(self, attackers: AttackLike | Iterable[AttackLike],
                targets: TargetLike | Iterable[TargetLike], /,
                **options: Any) -> CompiledPlan:
        rules = options.pop("rules", None)
        if options:   # core passes the cell's options; Warmachine's only one is rules=
            raise OptionError(f"unknown option '{next(iter(options))}'; Warmachine takes "
                              "rules=Rules(...)")
        return plan(attackers, targets, rules)

    def run_monte_carlo(self, plan: CompiledPlan, trials: int, seed: SeedLike, *,
                        progress: bool | None = None) -> Tallies:
        return run_monte_carlo(plan, trials, seed, progress=progress)

    def run_exact(self, plan: CompiledPlan) -> Outcomes:
        pmfs, probabilities = solve(plan)
        return Outcomes({k: Distribution.from_pmf(v) for k, v in pmfs.items()},
                        _possible(plan, probabilities))

    def labels_of(self, plan: CompiledPlan) -> dict[str, str]:
        return labels_of(plan)

    def inputs_of(self, plan: CompiledPlan, method: str) -> dict[str, object]:
        return inputs_of(plan)

    def monte_carlo_outcomes(self, plan: CompiledPlan, tallies: Tallies) -> Outcomes:
        """Histograms as distributions; the first attack's ``hit`` and ``crit``,
        ``unit_destroyed`` and the plan's own events (:func:`outcome_names`) as
        probabilities, in that order."""
        names = ["hit", "crit", "unit_destroyed", *outcome_names(plan)]
        return Outcomes(tallies.distributions(), _possible(plan, {
            name: float(tallies.events[name] / tallies.trials) for name in names}))


def _possible(plan: CompiledPlan, probabilities: dict[str, float]) -> dict[str, float]:
    """The events that can happen: no "a Tough roll saved" against targets without [TOUGH]
    (or with Tough rolls switched off), where it would always read 0."""
    if plan.rule_set.tough_allowed and any(t.tough for t in plan.targets):
        return probabilities
    return {k: v for k, v in probabilities.items() if k != "tough_saved"}


#: Warmachine's side of the contract, for core's simulate, exact and compare.
GAME = WarmachineGame()
