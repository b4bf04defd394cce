"""``mathhammer meta FOLDER_OR_FILES``: every list of an event against every other one."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mathhammer.cli.options import (add_monte_carlo_options, add_output_options, positive_int,
                                    save_chart)
from mathhammer.core.limits import shown
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.errors import OptionError

#: Most local Dask workers ``--scheduler local:N`` starts.
MAX_LOCAL_WORKERS = 64


def register(subparsers: Any) -> None:
    """Add the ``meta`` subcommand."""
    from mathhammer.wh40k.roster.meta_words import DEFAULT_METRIC, METRICS, ORDERS

    parser = subparsers.add_parser(
        "meta", help="every army list of a folder against every other one: the meta matrix "
                     "of an event, summaries, team pairing tables",
        description="Reads every roster in the folder(s) or files given (files that are not "
                    "rosters, are damaged or of another edition are named and skipped), and "
                    "analyses every list against every other one, both ways: each unit at "
                    "its own best target, expected points and models destroyed. Identical "
                    "unit pairings across lists are solved once.")
    parser.add_argument("sources", metavar="FOLDER_OR_FILES", nargs="+",
                        help="a folder of .ros, .rosz or .json rosters, or roster files")
    parser.add_argument("--phase", default="shooting,fight", metavar="PHASES",
                        help="phases to add up: shooting, fight or shooting,fight (default)")
    parser.add_argument("--metric", default=DEFAULT_METRIC, choices=list(METRICS),
                        help=f"what the tables and the chart show (default {DEFAULT_METRIC}: "
                             "expected points destroyed minus points lost)")
    engine = parser.add_mutually_exclusive_group()
    engine.add_argument("--exact", action="store_true",
                        help="every pairing exact, or a one-line refusal naming the first "
                             "the exact engine does not cover (default: exact where it "
                             "covers a pairing, Monte Carlo elsewhere)")
    engine.add_argument("--monte-carlo", action="store_true",
                        help="Monte Carlo for every pairing (--trials, --seed)")
    parser.add_argument("--profiles", choices=["best", "first"], default="best",
                        help="several melee weapons or weapon profiles: the best against "
                             "each target (default) or the one listed first")
    parser.add_argument("--scheduler", metavar="local:N|ADDRESS", default=None,
                        help="solve pairings on Dask: local:N starts N worker processes "
                             "here; tcp://HOST:PORT uses a running scheduler (same numbers "
                             "as without, bit for bit)")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="write solved pairings to DIR as they come (and matrix.csv, "
                             "plans.csv, meta.json at the end); re-running with the same "
                             "DIR skips the pairings already solved")
    parser.add_argument("--team", metavar="A,B,C", default=None,
                        help="with --against-team: the pairing table of these lists (3-8, "
                             "by file name without extension) against the other team")
    parser.add_argument("--against-team", metavar="X,Y,Z", default=None,
                        help="the opposing team's lists for --team")
    parser.add_argument("--order", choices=list(ORDERS), default="cluster",
                        help="order of the lists in the --plot heat map (default cluster)")
    from mathhammer.wh40k.buff_cli import add_buff_arguments

    add_buff_arguments(parser, attribution=False)
    parser.add_argument("--buff-list", action="append", default=[], metavar="LIST=TEXT",
                        help="a buff of one list (its file name without extension), text or "
                             "the name of a --buffs buff, e.g. 'tau=Kauyon: [SUSTAINED HITS "
                             "1] to RANGED weapons'; may be repeated (--buff: every list)")
    add_monte_carlo_options(parser, default_trials=DEFAULT_GRID_TRIALS,
                            trials_help="Monte Carlo trials per unit pairing")
    add_output_options(parser)
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.roster.meta import meta

    if bool(args.team) != bool(args.against_team):
        raise OptionError("--team and --against-team go together, e.g. --team A,B,C "
                          "--against-team X,Y,Z")
    method = "exact" if args.exact else "monte-carlo" if args.monte_carlo else "auto"
    buffs = _buffs(args)
    client, close = scheduler_client(args.scheduler)
    try:
        result = meta(args.sources, phases=args.phase, method=method, trials=args.trials,
                      seed=args.seed, profiles=args.profiles, client=client, out=args.out,
                      **buffs)
    finally:
        close()
    for skipped in result.skipped:
        print(f"mathhammer: skipped: {shown(skipped.reason)}", file=sys.stderr)
    team = result.team_table(args.team, args.against_team, args.metric) if args.team \
        else None
    if args.plot:
        from mathhammer.wh40k.roster.meta_chart import meta_heatmap

        save_chart(meta_heatmap(result, args.metric, order=args.order, title=args.title),
                   args)
    if args.csv:
        result.frame.to_csv(args.csv, index=False)
    if args.json:
        document = result.to_dict(args.metric)
        if team is not None:
            document["team_table"] = {str(k): {str(c): float(v) for c, v in row.items()}
                                      for k, row in team.iterrows()}
        print(json.dumps(document))
    elif args.markdown:
        print(result.to_markdown(args.metric))
        if team is not None:
            print(f"\n### Team pairing table\n\n{team.round(1).to_markdown()}")
    else:
        print(result.to_text(args.metric))
        if team is not None:
            print(f"\nTeam pairing table ({args.metric}):\n{team.round(1).to_string()}")
    return 0


def _buffs(args: argparse.Namespace) -> dict[str, Any]:
    """``buffs``, ``buff_file`` and ``list_buffs`` of :func:`~.meta.meta` from ``--buff``,
    ``--buffs`` and ``--buff-list LIST=TEXT``."""
    from mathhammer.wh40k.buffs import load_buff_file

    library: dict[str, Any] = {}
    for path in args.buffs:
        library.update(load_buff_file(path))
    if args.buffs and not (args.buff or args.buff_list):
        raise OptionError("--buffs FILE names buffs for --buff NAME or --buff-list LIST=NAME; "
                          "give one of those too")
    per_list: dict[str, list[str]] = {}
    for item in args.buff_list:
        label, sep, text = item.partition("=")
        if not sep or not label.strip() or not text.strip():
            raise OptionError(f"--buff-list '{item:.60}': write LIST=TEXT, e.g. "
                              "'tau=Kauyon: [SUSTAINED HITS 1] to RANGED weapons'")
        per_list.setdefault(label.strip(), []).append(text.strip())
    if not args.buff and not per_list:
        return {}
    return {"buffs": list(args.buff), "buff_file": library, "list_buffs": per_list}


def scheduler_client(address: str | None) -> tuple[Any, Any]:
    """A Dask client for ``--scheduler`` (``local:N`` starts a local cluster of N worker
    processes) and the function that closes what was started; ``(None, no-op)`` without."""
    if address is None:
        return None, lambda: None
    if not address.startswith("local:"):
        from mathhammer.wh40k.compare_cli import scheduler_client as remote

        client = remote(address)
        return client, client.close
    try:
        workers = positive_int(address.removeprefix("local:"))
    except (argparse.ArgumentTypeError, ValueError):
        workers = 0
    if not 1 <= workers <= MAX_LOCAL_WORKERS:
        raise OptionError(f"--scheduler '{address:.40}': write local:N with N from 1 to "
                          f"{MAX_LOCAL_WORKERS}, e.g. local:2, or tcp://HOST:PORT")
    Client, LocalCluster = _dask()
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address=":0")
    client = Client(cluster)

    def close() -> None:
        client.close()
        cluster.close()

    return client, close


def _dask() -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise OptionError("--scheduler needs Dask: pip install 'mathhammer[cluster]'") from None
    return Client, LocalCluster

