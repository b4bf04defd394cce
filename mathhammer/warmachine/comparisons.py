"""Warmachine comparisons as the tidy frame every game returns (:mod:`mathhammer.core.frames`).

:func:`compare` runs every attacker (one attack line, or several resolved in order) against
every target unit, :func:`sweep` the same over the values of one rule switch;
:func:`mathhammer.warmachine.policies.compare_focus` ranks ways of
spending focus on the same cells. Metrics: ``expected_damage`` (boxes marked),
``expected_models_destroyed``, ``expected_boosts_spent`` and
``expected_damage_transferred`` (when the attack can have them), ``p_hit`` (the first
attack roll) and ``p_unit_destroyed`` (every target destroyed).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import fields, replace
from typing import Any

import pandas as pd

from mathhammer.core import game as contract
from mathhammer.core.comparison import Comparison, results_out_deprecated
from mathhammer.core.game import Cell, SeedLike
from mathhammer.core.signatures import AUTO, exact_as_method, old_spellings
from mathhammer.core.inputs import optional_instance
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.errors import OptionError
from mathhammer.warmachine.api import GAME, AttackLike, TargetLike, as_attacks, as_targets
from mathhammer.warmachine.profiles import Attack, Rules, Target

AttackerLike = AttackLike | Sequence[AttackLike]


@results_out_deprecated
@old_spellings(exact=exact_as_method)
def compare(attackers: AttackerLike | Mapping[str, AttackerLike],
            targets: TargetLike | Iterable[TargetLike] | Mapping[str, TargetLike], *,
            method: str = AUTO, trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
            progress: bool | None = None, rules: Rules | None = None,
            keep_results: bool = False) -> pd.DataFrame | Comparison:
    """Every attacker against every target: one row per (attacker, target, metric).

    Parameters
    ----------
    attackers
        An attack line, or a list whose items are each one attacker: a line, an
        :class:`Attack`, or a list of them (one model's weapons, resolved in order). A dict
        gives the labels; otherwise an attacker is labelled by its weapons' names.
    targets
        Target lines or :class:`Target` objects (a dict gives the labels).
    method
        ``"auto"`` (default): the exact engine for every cell it can follow, Monte Carlo
        for the others; ``"exact"`` (``stderr`` is NaN) or ``"monte-carlo"`` to insist.
    trials, seed
        Monte Carlo trials per cell and the root seed: cell ``i`` is seeded with
        ``SeedSequence(seed).spawn(n_cells)[i]``, so it gives the numbers of
        ``simulate(..., seed=that_child)`` whatever else is in the grid.
    progress
        A progress bar on stderr, one step per cell, for a comparison longer than about 2 s.
    rules
        Rule switches for every cell (:class:`~mathhammer.warmachine.profiles.Rules`).
    keep_results
        Return a :class:`~mathhammer.core.comparison.Comparison` instead of the frame: the
        same frame and each cell's :class:`~mathhammer.core.result.Result`, keyed
        ``(attacker, target)``. The old ``results_out=`` dict still works for one release,
        with a DeprecationWarning.

    Returns
    -------
    pandas.DataFrame or Comparison
        Columns ``attacker, target, metric, value, stderr, method``; ``attrs`` hold the
        provenance and the rule changes in words.

    Examples
    --------
    >>> frame = compare("Fist: MAT6 POW12", ["Jack: DEF13 ARM14 BOXES30"])
    >>> frame.set_index("metric").loc["expected_damage", "value"].round(4)  # 21/36 * 5
    np.float64(2.9167)
    """
    attacker_list = contract.labelled(attackers, (str, Attack), "give at least one attacker "
                                      "(an attack line)", _attacker_label)
    target_list = contract.labelled(targets, (str, Target), "give at least one target "
                                    "(a target line)", target_label)
    parsed = [(label, as_attacks(spec)) for label, spec in attacker_list]
    units = [(label, as_targets(spec)) for label, spec in target_list]
    cells = [Cell(a_label, t_label, attacks, unit, {"rules": rules})
             for a_label, attacks in parsed for t_label, unit in units]
    return contract.compare(GAME, cells, method=method, trials=trials, seed=seed,
                            progress=progress, situation=rule_words(rules),
                            keep_results=keep_results)


@old_spellings(exact=exact_as_method)
def sweep(attackers: AttackerLike | Mapping[str, AttackerLike],
          targets: TargetLike | Iterable[TargetLike] | Mapping[str, TargetLike],
          parameter: str, values: Sequence[Any], *, method: str = AUTO,
          trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
          progress: bool | None = None, rules: Rules | None = None,
          keep_results: bool = False) -> pd.DataFrame | Comparison:
    """:func:`compare` repeated for each value of one rule switch (a field of
    :class:`~mathhammer.warmachine.profiles.Rules`: ``"tough_threshold"``,
    ``"aoe_miss_coverage"``, ``"stationary_base_def"``...), in the column of its name
    (``keep_results=True``: a :class:`~mathhammer.core.comparison.Comparison`, as for
    :func:`compare`).

    Examples
    --------
    >>> frame = sweep("Fist: MAT6 POW12", "Grunt: DEF12 ARM12 BOXES1 [TOUGH]",
    ...               "tough_allowed", [True, False])
    >>> # hit on 6+ of 2d6 (26/36), any damage kills; Tough saves on 5+ (1/3)
    >>> frame.query("metric == 'p_unit_destroyed'")["value"].round(4).tolist()
    [0.4815, 0.7222]
    """
    base = optional_instance(rules, Rules, "rules", "Rules(tough_allowed=False)") or Rules()
    if not isinstance(parameter, str) or parameter not in {f.name for f in fields(Rules)}:
        known = ", ".join(f.name for f in fields(Rules))
        raise OptionError(f"sweep over {parameter!r:.40}: name a rule switch ({known})")

    def setting(value: Any) -> dict[str, Any]:
        try:
            return {"rules": replace(base, **{parameter: value})}
        except (TypeError, ValueError) as exc:
            raise OptionError(f"{parameter} = {value!r:.40}: {exc}") from None

    attacker_list = contract.labelled(attackers, (str, Attack), "give at least one attacker "
                                      "(an attack line)", _attacker_label)
    target_list = contract.labelled(targets, (str, Target), "give at least one target "
                                    "(a target line)", target_label)
    return contract.sweep(GAME, [(label, as_attacks(spec)) for label, spec in attacker_list],
                          [(label, as_targets(spec)) for label, spec in target_list],
                          parameter, values, options={}, setting=setting, method=method,
                          trials=trials, seed=seed, progress=progress,
                          keep_results=keep_results)


def rule_words(rules: Rules | None) -> str:
    """The rule switches that differ from the defaults, in words (``""`` for none)."""
    rules = optional_instance(rules, Rules, "rules", "Rules(tough_allowed=False)")
    changes = list((rules or Rules()).changes())
    return "rules: " + ", ".join(changes) if changes else ""


def _attacker_label(spec: Any) -> str:
    return " + ".join(_name(a) for a in as_attacks(spec))


def target_label(spec: Any) -> str:
    """The frame's label of a target unit (or several): ``"5x Trencher"``."""
    return " + ".join(_unit_name(t) for t in as_targets(spec))


def _unit_name(target: Target) -> str:
    name = target.name or str(target)
    return f"{target.count}x {name}" if target.count != 1 else name


def _name(attack: Attack) -> str:
    name = attack.name or str(attack)
    return f"{attack.count}x {name}" if attack.count != 1 else name
