"""``mathhammer compare``: several weapon lines against several targets, as one grid."""

from __future__ import annotations

import argparse
import re
from typing import Any

from mathhammer.cli.options import add_monte_carlo_options, add_output_options
from mathhammer.core.numbers import real_option
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.errors import OptionError


def register(subparsers: Any) -> None:
    """Add the ``compare`` subcommand to the top-level parser."""
    from mathhammer.wh40k.buff_cli import add_buff_arguments
    from mathhammer.wh40k.cli import add_situation_arguments, add_targets_file_option

    parser = subparsers.add_parser(
        "compare", help="grid of weapon lines against targets (expected damage, models "
                        "destroyed, P(destroy unit)); table, CSV, JSON, Markdown or heat map",
        description="Each WEAPON_LINE on its own against each --target, under the same "
                    "situation. Prints the grid; --csv writes the tidy frame (attacker, "
                    "target, metric, value, stderr); --plot draws a heat map (see --plot-kind).")
    parser.add_argument("weapons", nargs="+", metavar="WEAPON_LINE",
                        help="a weapon line; each is compared on its own (join several "
                             "lines of one unit with ' + ')")
    parser.add_argument("--target", action="append", required=True, metavar="TARGET",
                        help="a target line or reference profile (MEQ, TEQ, '10x GEQ', "
                             "KEQ, ...); repeat for several targets")
    add_targets_file_option(parser)
    grid = parser.add_argument_group("grid")
    grid.add_argument("--exact", action="store_true",
                      help="use the exact engine instead of Monte Carlo")
    grid.add_argument("--points", type=real_option(0.0, 1e9), action="append", default=None,
                      metavar="N",
                      help="points cost of each weapon line's unit, in order (repeat once "
                           "per WEAPON_LINE): adds per-100-points metrics")
    grid.add_argument("--sweep", metavar="PARAM=V1,V2,...",
                      help="also vary one parameter: range=full,half; save=2,3,4,5,6,-; "
                           "models=1,5,10; target_models=...; toughness=...; invuln=-,4; "
                           "or an option such as hit_mod=-1,0,1 or reroll_hits=none,ones")
    grid.add_argument("--metric", default=None, metavar="METRIC",
                      help="metric of the heat map and of the --markdown grid "
                           "(expected_damage, expected_models_destroyed, p_unit_destroyed, "
                           "damage_per_100pts, ...); default: all metrics in the table, "
                           "expected_damage in the heat map")
    grid.add_argument("--scheduler", metavar="ADDRESS", default=None,
                      help="run each cell as a task on a Dask cluster (e.g. "
                           "tcp://10.0.0.5:8786); results are bit-identical to a local run")
    grid.add_argument("--chart", "--plot-kind", dest="plot_kind",
                      choices=["heatmap", "bars", "overlay", "lines"], default=None,
                      help="what --plot draws: heatmap of --metric (default), bars of "
                           "--metric per attacker grouped by target with ±2 s.e. error bars "
                           "(a dot chart for three targets or more; with --points, "
                           "'--metric damage_per_100pts' gives the per-100-points variant), "
                           "overlay of every cell's 'at least k' curve of --plot-outcome, or "
                           "lines of --metric against the --sweep parameter (default with "
                           "--sweep)")
    grid.add_argument("--plot-outcome", default="damage", metavar="OUTCOME",
                      help="outcome of --plot-kind overlay: damage (default) or "
                           "models_destroyed")
    add_situation_arguments(parser, edition_default=None)
    parser.set_defaults(edition_follows_data=True)
    add_buff_arguments(parser, plot=False)
    add_monte_carlo_options(parser, default_trials=DEFAULT_GRID_TRIALS,
                            trials_help="Monte Carlo trials per cell")
    add_output_options(parser)
    parser.set_defaults(handler=_run_compare)


def _run_compare(args: argparse.Namespace) -> int:
    from mathhammer.cli.compare import (check_chart, engine_words, joined_attackers,
                                        parse_sweep, show_comparison)
    from mathhammer.wh40k.buff_attribution import GRID_METRICS, grid_attribution_text, records
    from mathhammer.wh40k.comparisons import compare, sweep
    from mathhammer.wh40k.cli import options_from_args, weapons_from_args
    from mathhammer.wh40k.targets import load_targets

    options = options_from_args(args)
    library = load_targets(*args.targets_file) if args.targets_file else None
    attackers = joined_attackers(weapons_from_args(args.weapons, args))
    common: dict[str, Any] = {"trials": args.trials, "seed": args.seed,
                              "method": "exact" if args.exact else "monte-carlo",
                              "points": args.points, "library": library,
                              "keep_results": True, "client": _client(args.scheduler)}
    check_chart(args, sweep_keeps_cells=True)   # before any cell runs
    if args.attribution and args.sweep:
        raise OptionError("--attribution with --sweep: ask one of the two")
    if args.sweep:
        parameter, values = parse_sweep(args.sweep)
        options.pop(parameter, None)
        if parameter == "range":
            options.pop("half_range", None)
        kept = sweep(attackers, args.target, parameter, values, **common, **options)
    else:
        kept = compare(attackers, args.target, **common, **options)
    worth = _worth(args, attackers, common, options)
    show_comparison(kept, args, engine_words(args, args.exact),
                    {"attribution": records(worth)} if worth is not None else None)
    if worth is not None and not args.json:
        metric = args.metric if args.metric in GRID_METRICS else "expected_damage"
        print()
        print(grid_attribution_text(worth, metric, args.digits))
    return 0


def _worth(args: argparse.Namespace, attackers: Any, common: dict[str, Any],
           options: dict[str, Any]) -> Any:
    """With ``--attribution``: what each buff is worth over the grid (same engine, trials and
    seeds), else None."""
    if not args.attribution:
        return None
    from mathhammer.wh40k.comparisons import compare

    kwargs = {k: v for k, v in common.items() if k != "keep_results"}
    return compare(attackers, args.target, attribution=True, **kwargs, **options)


#: Seconds to wait for a Dask scheduler to answer before ``--scheduler`` gives up.
SCHEDULER_TIMEOUT = 10


def _client(address: str | None) -> Any:
    """A Dask client for ``--scheduler ADDRESS``, or None to run locally."""
    if address is None:
        return None
    _check_address(address)
    try:
        from distributed import Client
    except ImportError:
        raise OptionError("--scheduler needs Dask: pip install 'mathhammer[cluster]'") from None
    try:
        return Client(address, timeout=SCHEDULER_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise OptionError(f"cannot reach the Dask scheduler at '{address}': {exc}; start one "
                          "with `dask scheduler` and workers with `dask worker ADDRESS`") \
            from None


#: The same, for the other commands that take ``--scheduler ADDRESS`` (``mathhammer meta``).
scheduler_client = _client


_ADDRESS_RE = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?([A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\]):"
                         r"([0-9]{1,5})")


def _check_address(address: str) -> None:
    """Refuse a ``--scheduler`` that is not ``[tcp://]HOST:PORT`` before Dask sees it."""
    match = _ADDRESS_RE.fullmatch(address.strip())
    if match is None or not 1 <= int(match.group(3)) <= 65535:
        raise OptionError(f"--scheduler '{address:.80}' is not a scheduler address: write "
                          "[tcp://]HOST:PORT, e.g. tcp://127.0.0.1:8786")
