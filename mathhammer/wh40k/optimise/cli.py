"""``mathhammer optimise SCENARIO.toml``: the best targets, profiles and re-roll choices."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from mathhammer.cli.options import (add_monte_carlo_options, add_output_options, emit,
                                    positive_int)
from mathhammer.core.numbers import real_number_text, real_option
from mathhammer.errors import OptionError


def register(subparsers: Any) -> None:
    """Add the ``optimise`` subcommand."""
    from mathhammer.wh40k.optimise.settings import DEFAULT_OPTIMISE_TRIALS
    from mathhammer.wh40k.optimise.objectives import KINDS

    parser = subparsers.add_parser(
        "optimise", help="the best orders for a scenario's open choices (targets, weapon "
                         "profiles, re-rolls)",
        description="Find the orders that maximises an objective over what a scenario file "
                    "leaves open: activations with targets = [...] (each weapon picks one; a "
                    "group's models may split), multi-profile weapons named by their weapon "
                    "name, and an activation's choose = { ... } table.")
    parser.add_argument("scenario", metavar="SCENARIO.toml", help="scenario file (see README)")
    parser.add_argument("--objective", default="expected_models_destroyed", metavar="OBJECTIVE",
                        help=f"what to maximise: {', '.join(KINDS)} (default "
                             "expected_models_destroyed)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--unit", metavar="NAME", help="measure the objective on this unit")
    where.add_argument("--side", metavar="NAME", help="measure it on every unit of this side "
                                                      "(default: every unit a weapon may aim at)")
    parser.add_argument("--k", type=positive_int, default=None,
                        help="models, for --objective p_at_least")
    parser.add_argument("--weight", action="append", default=[], metavar="UNIT=POINTS",
                        help="points per model of a unit for expected_points_destroyed "
                             "(overrides the file's points); repeatable")
    parser.add_argument("--then", action="append", default=[], metavar="OBJECTIVE:UNIT",
                        help="a tie-breaking objective on a unit, e.g. "
                             "'expected_models_destroyed:Termagants' (lexicographic: the "
                             "first objective decides); repeatable")
    parser.add_argument("--tolerance", type=real_option(), default=0.0, metavar="X",
                        help="with --then: orders within X of the best on an objective count "
                             "as tied on it (default 0)")
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--exact", action="store_true",
                        help="score the orders with the exact engine or refuse, saying why "
                             "(default: exact when it can, else Monte Carlo)")
    engine.add_argument("--monte-carlo", action="store_true",
                        help="score the orders by Monte Carlo even when exact is possible")
    parser.add_argument("--no-split", action="store_true",
                        help="send all the models of a group firing one weapon at one target")
    parser.add_argument("--fixed-profiles", action="store_true",
                        help="keep every weapon's profile as written (default: choose the "
                             "profile of multi-profile weapons named by their weapon name)")
    parser.add_argument("--order", action="store_true",
                        help="choose the order of the activations too (at most 8)")
    parser.add_argument("--max-orders", type=positive_int, default=None,
                        help="enumerate every set of orders up to this many (default 200,000 "
                             "exact, 256 Monte Carlo); exact spaces up to 10x larger by branch "
                             "and bound where its bound holds, else greedy + local search")
    parser.add_argument("--max-plans", type=positive_int, default=None,
                        help=argparse.SUPPRESS)  # the old name of --max-orders, one release
    parser.add_argument("--budget", type=positive_int, default=None,
                        help="sets of orders a local search may score (default 20,000 exact, 400 "
                             "Monte Carlo)")
    add_monte_carlo_options(parser, default_trials=DEFAULT_OPTIMISE_TRIALS,
                            trials_help="Monte Carlo trials per set of orders")
    add_output_options(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.optimise.api import optimise
    from mathhammer.wh40k.optimise.objectives import Objective
    from mathhammer.wh40k.optimise.settings import SearchOptions

    weights = _weights(args.weight)
    objectives: list[Any] = [Objective(args.objective, unit=args.unit, side=args.side,
                                       k=args.k, weights=weights)]
    for text in args.then:
        kind, sep, unit = text.partition(":")
        if not sep or not unit.strip():
            raise OptionError(f"--then '{text}': write OBJECTIVE:UNIT, e.g. "
                              "expected_models_destroyed:Termagants")
        objectives.append(Objective(kind.strip(), unit=unit.strip(), weights=weights))
    engine = "exact" if args.exact else "monte-carlo" if args.monte_carlo else "auto"
    if args.max_plans is not None:
        if args.max_orders is not None:
            raise OptionError("give --max-orders alone; --max-plans is its old name")
        print("note: --max-plans is now --max-orders; the old name works for one release",
              file=sys.stderr)
        args.max_orders = args.max_plans
    search = SearchOptions(split=not args.no_split, open_profiles=not args.fixed_profiles,
                           activation_order=args.order, max_orders=args.max_orders,
                           budget=args.budget)
    result = optimise(args.scenario, objectives, method=engine, trials=args.trials,
                      seed=args.seed, tolerance=args.tolerance, options=search)
    emit(result, args, f"Scenario: {args.scenario}")
    return 0


def _weights(items: list[str]) -> tuple[tuple[str, float], ...]:
    """``--weight UNIT=POINTS`` options as (unit, points per model) pairs."""
    out = []
    for item in items:
        unit, sep, number = item.rpartition("=")
        try:   # digits 0-9 only: float() reads '٣', '1_0', '1e3' and 'inf'
            value = real_number_text(number, "POINTS", 0.0, 1e9)
        except OptionError:
            value = None
        if not sep or not unit.strip() or value is None:
            raise OptionError(f"--weight '{item:.80}': write UNIT=POINTS with POINTS a number "
                              "of at least 0 in the digits 0-9, e.g. --weight 'Carnifex=125'")
        out.append((unit.strip(), value))
    return tuple(sorted(out))
