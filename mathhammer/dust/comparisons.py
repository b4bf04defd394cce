"""Dust comparisons as the tidy frame every game returns (:mod:`mathhammer.core.frames`).

Two ways to lay out the cells, one frame:

- a grid: every attacker (one unit's declared weapons) against every target, under one
  situation, as in the other games;
- variants: ``{label: {"weapons": ..., "target": ..., switches}}``, attacks that differ in
  their switches (normal vs sustained, single vs double success...), rolled on the same
  dice (common random numbers), so their differences are not noise.

:func:`sweep` repeats a grid over the values of one keyword (``sustained``, ``distance`` or
a rule switch). Metrics: ``expected_hits``, ``expected_damage`` (points through saves,
before capping), ``expected_models_destroyed``, ``p_unit_destroyed`` and
``p_damage_wasted``; situation columns ``sustained`` and ``distance``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from mathhammer.core import game as contract
from mathhammer.core.comparison import Comparison, results_out_deprecated
from mathhammer.core.game import Cell, SeedLike
from mathhammer.core.signatures import AUTO, exact_as_method, old_spellings
from mathhammer.core.inputs import switch
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.dust.api import GAME, TargetLike, WeaponsLike
from mathhammer.dust.parse import parse_target, parse_weapons
from mathhammer.dust.profiles import Rules, Target, Weapon, with_switches
from mathhammer.errors import OptionError


@results_out_deprecated
@old_spellings(exact=exact_as_method)
def compare(attackers: WeaponsLike | Mapping[str, Any],
            targets: TargetLike | Sequence[TargetLike] | Mapping[str, TargetLike] | None = None,
            *, method: str = AUTO, trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
            progress: bool | None = None, sustained: bool = False, rules: Rules | None = None,
            distance: int | None = None, keep_results: bool = False,
            **rule_switches: Any) -> pd.DataFrame | Comparison:
    """Headline figures of several attacks side by side: one row per (attacker, target,
    metric).

    Parameters
    ----------
    attackers
        A grid's attackers: one weapon (text or :class:`Weapon`), or a list whose items are
        each one attacker (a weapon, or a list of weapons declared together); a dict gives
        the labels. Or, with ``targets`` left out, the variants: label -> keyword arguments
        of :func:`~mathhammer.dust.api.exact` (``weapons``, ``target`` and any switch).
    targets
        A grid's targets (text or :class:`Target`; a dict gives the labels).
    method
        ``"auto"`` (default): the exact engine for every cell it can follow, Monte Carlo
        for the others; ``"exact"`` (``stderr`` is NaN) or ``"monte-carlo"`` to insist.
    trials, seed
        Monte Carlo trials per cell and the root seed: a grid's cell ``i`` is seeded with
        ``SeedSequence(seed).spawn(n_cells)[i]``; every variant with ``seed``.
    progress
        A progress bar on stderr, one step per cell, for a comparison longer than about 2 s.
    sustained, rules, distance, rule_switches
        A grid's situation and rule switches, as in :func:`~mathhammer.dust.api.exact`.
    keep_results
        Return a :class:`~mathhammer.core.comparison.Comparison` instead of the frame: the
        same frame and each cell's :class:`~mathhammer.core.result.Result`, keyed
        ``(attacker, target)`` (e.g. for :func:`mathhammer.charts.overlay`). The old
        ``results_out=`` dict still works for one release, with a DeprecationWarning.

    Returns
    -------
    pandas.DataFrame or Comparison
        Columns ``attacker, target, sustained, distance, metric, value, stderr, method``.

    Examples
    --------
    >>> frame = compare({"normal": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2"),
    ...                  "sustained": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2",
    ...                                    sustained=True)})
    >>> frame.query("metric == 'expected_hits'")["value"].round(4).tolist()  # 6/3, 6 * 5/9
    [2.0, 3.3333]
    """
    if targets is None:
        cells, common, situation = _variant_cells(attackers), True, ""
    else:
        options = {"sustained": sustained, "rules": rules, "distance": distance,
                   **rule_switches}
        cells, common = _grid_cells(attackers, targets, options), False
        situation = _situation_words(sustained, distance, with_switches(rules, rule_switches))
    return contract.compare(GAME, cells, method=method, trials=trials, seed=seed,
                            progress=progress, common_random_numbers=common,
                            situation=situation, keep_results=keep_results)


@old_spellings(exact=exact_as_method)
def sweep(attackers: WeaponsLike | Mapping[str, WeaponsLike],
          targets: TargetLike | Sequence[TargetLike] | Mapping[str, TargetLike],
          parameter: str, values: Sequence[Any], *, method: str = AUTO,
          trials: int = DEFAULT_GRID_TRIALS, seed: SeedLike = 1,
          progress: bool | None = None, sustained: bool = False, rules: Rules | None = None,
          distance: int | None = None, keep_results: bool = False,
          **rule_switches: Any) -> pd.DataFrame | Comparison:
    """:func:`compare`'s grid repeated for each value of one keyword of
    :func:`~mathhammer.dust.api.exact`: ``"sustained"``, ``"distance"`` or a rule switch
    (``"cover_save_per"``, ``"casualty_policy"``...), in the column of its name
    (``keep_results=True``: a :class:`~mathhammer.core.comparison.Comparison`, as for
    :func:`compare`).

    Examples
    --------
    >>> frame = sweep("Gun: 6/1", "5x G: INFANTRY2", "sustained", [False, True])
    >>> frame.query("metric == 'expected_hits'")["value"].round(4).tolist()  # 6/3, 6 * 5/9
    [2.0, 3.3333]
    """
    options = {"sustained": switch(sustained, "sustained"), "rules": rules,
               "distance": distance, **rule_switches}
    if not isinstance(parameter, str) or parameter in ("weapons", "target", "rules"):
        raise OptionError(f"sweep over {parameter!r:.40}: name sustained, distance or a rule "
                          "switch")
    attacker_list = contract.labelled(attackers, (str, Weapon), "give at least one attacker "
                                      "(a weapon line)", _weapons_label)
    target_list = contract.labelled(targets, (str, Target), "give at least one target "
                                    "(a target line)", _target_label)
    return contract.sweep(GAME, attacker_list, target_list, parameter, values,
                          options=options, method=method, trials=trials, seed=seed,
                          progress=progress, keep_results=keep_results)


def _grid_cells(attackers: Any, targets: Any, options: dict[str, Any]) -> list[Cell]:
    attacker_list = contract.labelled(attackers, (str, Weapon), "give at least one attacker "
                                      "(a weapon line)", _weapons_label)
    target_list = contract.labelled(targets, (str, Target), "give at least one target "
                                    "(a target line)", _target_label)
    return [Cell(a_label, t_label, weapons, target, options)
            for a_label, weapons in attacker_list for t_label, target in target_list]


def _variant_cells(variants: Any) -> list[Cell]:
    _check_variants(variants)
    cells = []
    for label, kwargs in variants.items():
        options = {k: v for k, v in kwargs.items() if k not in ("weapons", "target")}
        cells.append(Cell(str(label), _target_label(kwargs["target"]), kwargs["weapons"],
                          kwargs["target"], options))
    return cells


def _check_variants(variants: Any) -> None:
    """Refuse variants that are not a non-empty dict of keyword dicts."""
    if not isinstance(variants, Mapping) or not variants:
        raise OptionError("compare takes a non-empty dict: label -> {'weapons': ..., "
                          f"'target': ..., switches}}, or attackers and targets; not "
                          f"{variants!r:.60}")
    for label, kwargs in variants.items():
        if not isinstance(kwargs, Mapping) or "weapons" not in kwargs or "target" not in kwargs:
            raise OptionError(f"variant {label!r:.40} must be a dict with 'weapons' and "
                              f"'target' (and any switch), not {kwargs!r:.60}")


def _weapons_label(spec: Any) -> str:
    return " + ".join(f"{w.carriers}x {w.name}" if w.carriers != 1 else w.name
                      for w in parse_weapons(spec))


def _target_label(spec: Any) -> str:
    target = parse_target(spec)
    return f"{target.models}x {target.name}" if target.is_squad and target.models != 1 \
        else target.name


def _situation_words(sustained: bool, distance: int | None, rules: Rules) -> str:
    """The shared situation of a grid in words, for captions."""
    parts = ["sustained attack"] if sustained else []
    if distance is not None:
        parts.append(f"{distance} squares to the target")
    changes = list(rules.changes())
    if changes:
        parts.append("rules: " + ", ".join(changes))
    return "; ".join(parts)
