"""Trials until precise enough (``trials="auto"``): blocks of Monte Carlo trials, for every
game, until the headline figures reach their standard errors.

A run starts with :data:`FIRST_BLOCK` trials and doubles its total each block until the mean
of every headline outcome (``damage``, ``models_destroyed``, where the game has them) has a
standard error of at most ``target_stderr`` (default: :data:`RELATIVE_STDERR` of the mean, at
least :data:`SMALLEST_STDERR`) and P(unit destroyed) one of at most
:data:`PROBABILITY_STDERR`, or until :data:`MAX_TRIALS`. Block ``k`` is seeded from the
``k``-th child of a SeedSequence made from the seed (with its own spawn-key word, so a block
never repeats another run's dice), so the result depends on the seed alone, on any number of
threads.
"""

from __future__ import annotations

import math
from typing import Any

from mathhammer.core.trials import as_seed_sequence
from mathhammer.errors import OptionError

#: The first block of trials; each later block doubles the total.
FIRST_BLOCK = 100_000
#: Never more trials than this in one adaptive run.
MAX_TRIALS = 50_000_000
#: The default standard error of a headline mean, relative to the mean ...
RELATIVE_STDERR = 0.002
#: ... and never asked below this.
SMALLEST_STDERR = 0.002
#: The standard error P(unit destroyed) is always taken to.
PROBABILITY_STDERR = 0.001
#: The headline outcomes and event followed, where a game's results have them.
OUTCOMES = ("damage", "models_destroyed")
EVENT = "unit_destroyed"
#: The spawn-key word of an adaptive run's blocks.
_BLOCKS_KEY = 0xA070


def wants_adaptive(trials: Any, target_stderr: Any) -> bool:
    """Whether ``trials``/``target_stderr`` ask for an adaptive run (``trials="auto"`` or a
    ``target_stderr``); a ``target_stderr`` that is not a positive finite number is refused."""
    if target_stderr is not None and (isinstance(target_stderr, bool) or
                                      not isinstance(target_stderr, (int, float))
                                      or not 0 < target_stderr < math.inf):
        raise OptionError(f"target_stderr={target_stderr!r:.40} must be a positive finite "
                          "number, e.g. 0.01")
    return (isinstance(trials, str) and trials == "auto") or target_stderr is not None


def run_until_precise(game: Any, plan: Any, seed: Any, target_stderr: float | None,
                      progress: bool | None = None) -> tuple[Any, dict[str, Any]]:
    """Blocks of ``game``'s Monte Carlo runs of ``plan`` until precise enough (``game`` a
    :class:`~mathhammer.core.game.Game`, which imports this module): the summed
    tallies and the precision report a result keeps in ``inputs["precision"]``
    (each followed figure's reached ``stderr`` and its ``target``, whether every target was
    ``reached``, and the ``trials`` run)."""
    import numpy as np

    root = as_seed_sequence(seed)
    root = np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (_BLOCKS_KEY,))
    total = None
    block = FIRST_BLOCK
    while True:
        tallies = game.run_monte_carlo(plan, block, root.spawn(1)[0], progress=progress)
        total = tallies if total is None else _added(total, tallies)
        reached = _precision(game, plan, total)
        wanted = {name: (target_stderr if target_stderr is not None
                         else max(RELATIVE_STDERR * reached[name]["mean"], SMALLEST_STDERR))
                  for name in reached if name != EVENT}
        if EVENT in reached:
            wanted[EVENT] = PROBABILITY_STDERR
        done = all(reached[name]["stderr"] <= wanted[name] for name in wanted)
        if done or total.trials >= MAX_TRIALS:
            report: dict[str, Any] = {name: {"stderr": reached[name]["stderr"],
                                             "target": wanted[name]} for name in wanted}
            report["reached"] = bool(done)
            report["trials"] = total.trials
            return total, report
        block = min(total.trials, MAX_TRIALS - total.trials)


def _added(first: Any, second: Any) -> Any:
    """Two runs' :class:`~mathhammer.core.game.Tallies` of the same plan as one."""
    return type(first)(first.trials + second.trials,
                   {k: v + second.histograms[k] for k, v in first.histograms.items()},
                   {k: v + second.events[k] for k, v in first.events.items()})


def _precision(game: Any, plan: Any, tallies: Any) -> dict[str, dict[str, float]]:
    """The mean and standard error of each followed figure, read as the game reads its
    tallies (:meth:`~mathhammer.core.game.Game.monte_carlo_outcomes`)."""
    outcomes = game.monte_carlo_outcomes(plan, tallies)
    out: dict[str, dict[str, float]] = {}
    for name in OUTCOMES:
        distribution = outcomes.distributions.get(name)
        if distribution is not None:
            out[name] = {"mean": distribution.mean, "stderr": float(distribution.stderr or 0.0)}
    if EVENT in outcomes.probabilities:
        p = outcomes.probabilities[EVENT]
        out[EVENT] = {"mean": p, "stderr": (p * (1 - p) / tallies.trials) ** 0.5}
    return out
