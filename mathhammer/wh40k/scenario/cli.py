"""``mathhammer run SCENARIO.toml``: whole units, activations in sequence, battle rounds."""

from __future__ import annotations

import argparse
from typing import Any

from mathhammer.core.trials import DEFAULT_SCENARIO_TRIALS
from mathhammer.cli.options import (add_monte_carlo_options, add_output_options, emit,
                                    positive_int)
from mathhammer.wh40k.cli import add_edition_argument



def register(subparsers: Any) -> None:
    """Add the ``run`` subcommand."""
    parser = subparsers.add_parser(
        "run", help="simulate a scenario file (units, activations, battle rounds)",
        description="Simulate every activation of a scenario TOML file, round after round.")
    parser.add_argument("scenario", metavar="SCENARIO.toml",
                        help="scenario file (see docs/guide/wh40k/scenarios.md)")
    add_monte_carlo_options(parser, default_trials=DEFAULT_SCENARIO_TRIALS)
    parser.add_argument("--rounds", type=positive_int, default=None,
                        help="override the file's number of battle rounds")
    add_edition_argument(parser, default=None)
    parser.add_argument("--retarget-on-destroyed", choices=["lost", "retarget"], default=None,
                        help="override the file's [rules] retarget_on_destroyed: weapons whose "
                        "target is down are lost (default) or turn on another unit")
    parser.add_argument("--precision-pick", metavar="best|first|GROUP", default=None,
                        help="override the file's [rules] precision_pick: the CHARACTER group "
                        "[PRECISION] takes (default best)")
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="your BSData checkout, for units given as unit = \"@Name\" "
                             "(default: $MATHHAMMER_DATA)")
    add_output_options(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    import dataclasses

    from mathhammer.wh40k.scenario.cold_compile import compile_helpers_alongside

    compile_helpers_alongside()   # first: on a cold cache, the helpers compile meanwhile

    from mathhammer.wh40k.scenario.reader import load_scenario
    from mathhammer.wh40k.scenario.api import run

    scenario = load_scenario(args.scenario)
    if args.rounds is not None:
        scenario = dataclasses.replace(scenario, rounds=args.rounds)
    if args.edition is not None:
        scenario = dataclasses.replace(
            scenario, rules=dataclasses.replace(scenario.rules, edition=args.edition))
    switches = {name: value for name, value in (
        ("retarget_on_destroyed", args.retarget_on_destroyed),
        ("precision_pick", args.precision_pick)) if value is not None}
    if switches:
        scenario = dataclasses.replace(
            scenario, switches=dataclasses.replace(scenario.switches, **switches))
    result = run(scenario, trials=args.trials, seed=args.seed)
    emit(result, args, f"Scenario: {args.scenario} ({scenario.rules.edition}th-edition rules)")
    return 0
