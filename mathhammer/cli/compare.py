"""What every game's ``compare`` command shares: the grid's chart and metric arguments, a
``--sweep PARAM=V1,V2,...`` reader, and the frame printed or written as each output option
asks (plain table, ``--json``, ``--markdown``, ``--csv``, ``--plot``)."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from mathhammer.cli.options import add_monte_carlo_options, add_output_options, save_chart
from mathhammer.errors import OptionError

if TYPE_CHECKING:   # the command tree imports no numpy until a command runs
    from mathhammer.core.comparison import Comparison

#: What ``--chart`` draws, default first (``lines`` is the default with ``--sweep``).
CHART_KINDS = ("heatmap", "bars", "overlay", "lines")


def add_grid_arguments(parser: argparse.ArgumentParser, *, metrics: str,
                       outcomes: Sequence[str] = ("damage", "models_destroyed"),
                       sweep_help: str | None = None) -> argparse._ArgumentGroup:
    """``--metric``, ``--chart`` (alias ``--plot-kind``), ``--plot-outcome`` and, with
    ``sweep_help``, ``--sweep``, in a group named "grid" (returned, for a game's own)."""
    grid = parser.add_argument_group("grid")
    if sweep_help is not None:
        grid.add_argument("--sweep", metavar="PARAM=V1,V2,...", help=sweep_help)
    grid.add_argument("--metric", default=None, metavar="METRIC",
                      help=f"metric of the heat map and of the --markdown grid ({metrics}); "
                           "default: all metrics in the table, expected_damage in the heat "
                           "map")
    grid.add_argument("--chart", "--plot-kind", dest="plot_kind", choices=CHART_KINDS,
                      default=None,
                      help="what --plot draws: heatmap of --metric (default), bars of "
                           "--metric per attacker grouped by target, overlay of every cell's "
                           "'at least k' curve of --plot-outcome, or lines of --metric "
                           "against the --sweep parameter (default with --sweep)")
    grid.add_argument("--plot-outcome", default=outcomes[0], choices=tuple(outcomes),
                      metavar="OUTCOME",
                      help=f"outcome of --chart overlay: {', '.join(outcomes)} (default "
                           f"{outcomes[0]})")
    return grid


def add_compare_command(commands: Any, *, description: str, attacker: str, attacker_help: str,
                        target_help: str, metrics: str, outcomes: Sequence[str],
                        sweep_help: str) -> argparse.ArgumentParser:
    """A game's ``compare`` subcommand: ``attacker`` lines (each one attacker, ``' + '``
    joins), ``--target`` (repeated), the grid arguments (:func:`add_grid_arguments`), and
    the engine and output options (:func:`add_engine_and_output_options`); the game adds
    its own rule options to the parser returned and sets its handler."""
    parser = commands.add_parser(
        "compare", description=description,
        help="grid of attackers against targets (exact; table, CSV, JSON, Markdown or chart)")
    parser.add_argument("attackers", nargs="+", metavar=attacker,
                        help=f"{attacker_help}; each {attacker} is one attacker (join several "
                             "with ' + ')")
    parser.add_argument("--target", action="append", required=True, metavar="TARGET",
                        help=target_help + "; repeat for several targets")
    add_grid_arguments(parser, metrics=metrics, outcomes=outcomes, sweep_help=sweep_help)
    add_engine_and_output_options(parser)
    return parser


def add_engine_and_output_options(parser: argparse.ArgumentParser) -> None:
    """``--monte-carlo`` (the exact engine is the default) with ``--trials`` per cell and
    ``--seed``, and every output option (:func:`~mathhammer.cli.options.
    add_output_options`): a game's ``compare`` whose exact engine answers any grid."""
    from mathhammer.core.trials import DEFAULT_GRID_TRIALS

    parser.add_argument("--monte-carlo", action="store_true",
                        help="Monte Carlo (--trials per cell, --seed) instead of the exact "
                             "engine")
    add_monte_carlo_options(parser, default_trials=DEFAULT_GRID_TRIALS,
                            trials_help="Monte Carlo trials per cell (with --monte-carlo)")
    add_output_options(parser)


def joined_attackers(lines: Sequence[str]) -> list[Any]:
    """Each command-line line as one attacker: ``"A + B"`` is a list of lines (one unit's
    weapons, or one model's attacks), any other line itself.

    Examples
    --------
    >>> joined_attackers(["Fist: MAT6 POW12 + Kick: MAT6 POW10", "Gun: 6/1"])
    [['Fist: MAT6 POW12', 'Kick: MAT6 POW10'], 'Gun: 6/1']
    """
    return [[part.strip() for part in line.split(" + ")] if " + " in line else line
            for line in lines]


def check_chart(args: argparse.Namespace, *, sweep_keeps_cells: bool = False) -> None:
    """Refuse a chart the comparison cannot draw, before any cell runs: ``--chart lines``
    without ``--sweep``, and an overlay of a sweep whose cells are not kept."""
    if not getattr(args, "plot", None) and getattr(args, "plot_kind", None) is None:
        return
    kind = chart_kind(args)
    if kind == "overlay" and getattr(args, "sweep", None) and not sweep_keeps_cells:
        raise OptionError("--chart overlay draws the cells of one grid: with --sweep use "
                          "--chart lines, heatmap or bars")
    _check_chart_size(kind, args)


def _check_chart_size(kind: str, args: argparse.Namespace) -> None:
    """Refuse a chart of more cells or series than it can draw in a few seconds (see
    :func:`~mathhammer.core.limits.check_chart_size`), counted from the arguments."""
    from mathhammer.core.limits import check_chart_size

    lines = getattr(args, "weapons", None) or getattr(args, "attackers", None) or []
    counts = [(len(lines), "attackers"), (len(args.target or []), "targets")]
    if getattr(args, "sweep", None) and kind != "lines":   # a line per attacker and target
        counts.append((len(parse_sweep(args.sweep)[1]), "settings"))
    total = 1
    for count, _ in counts:
        total *= count
    check_chart_size(kind, total, " x ".join(f"{count:,} {what.removesuffix('s')}"
                                             if count == 1 else f"{count:,} {what}"
                                             for count, what in counts))


def parse_sweep(text: str) -> tuple[str, list[Any]]:
    """``--sweep PARAM=V1,V2,...`` to the parameter and its values (yes/no as booleans,
    whole numbers as ints, decimals as floats, anything else as text for the game to judge).

    Examples
    --------
    >>> parse_sweep("stationary-base-def=5,7"), parse_sweep("sustained=no,yes")
    (('stationary_base_def', [5, 7]), ('sustained', [False, True]))
    """
    name, sep, values = text.partition("=")
    name = name.strip().replace("-", "_")
    items = [v.strip() for v in values.split(",")]
    if not sep or not name or not any(items):
        raise OptionError(f"--sweep '{text:.80}': write PARAM=V1,V2,... e.g. save=2,3,4 or "
                          "hit_mod=-1,0,1")
    if "" in items:   # '1,,2' or '1,2,': a value left out, not one to drop in silence
        raise OptionError(f"--sweep '{text:.80}': value {items.index('') + 1} of "
                          f"{len(items)} is empty; write PARAM=V1,V2,... with a value between "
                          "each pair of commas")
    return name, [sweep_value(item) for item in items]


def sweep_value(text: str) -> Any:
    """One ``--sweep`` value: yes/no (true/false, on/off) as booleans, whole numbers as ints,
    decimals as floats, else the text (the sweep refuses what it cannot take, by name)."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if re.fullmatch(r"[+-]?[0-9]{1,18}", text.strip()):
        return int(text)
    if re.fullmatch(r"[+-]?[0-9]{0,18}\.[0-9]{1,18}", text.strip()):
        return float(text)
    return text   # not digits 0-9 (e.g. '٣', '1_0'): the sweep refuses it by name


def chart_kind(args: argparse.Namespace) -> str:
    """The chart ``--plot`` draws: ``--chart``, else lines for a sweep, else a heat map
    (``--chart lines`` without ``--sweep`` refused in one line)."""
    swept = getattr(args, "sweep", None)
    kind = args.plot_kind or ("lines" if swept else "heatmap")
    if kind == "lines" and not swept:
        raise OptionError("--chart lines (--plot-kind lines) needs --sweep PARAM=V1,V2,...")
    return kind


def show_comparison(comparison: Comparison, args: argparse.Namespace, engine: str,
                    extra: Mapping[str, Any] | None = None) -> None:
    """Print or write a comparison as the output options ask: the chart (``--plot``; an
    overlay draws each cell's Result), the CSV of the frame, then exactly one of the JSON
    object (with the keys of ``extra`` added), the Markdown grid or ``Engine: <engine>`` and
    the plain table."""
    from mathhammer.core.frames import to_json_dict
    from mathhammer.report.frame_tables import pivot, to_markdown

    frame = comparison.frame
    if args.metric is not None:
        pivot(frame, args.metric)   # unknown metric: refused before anything is written
    if args.plot:
        save_chart(comparison_chart(chart_kind(args), comparison, args), args)
    if args.csv:
        frame.to_csv(args.csv, index=False)
    if args.json:
        print(json.dumps({**to_json_dict(frame), **(extra or {})}))
    elif args.markdown:
        print(to_markdown(frame, args.metric, digits=args.digits, caption=args.caption))
    else:
        print(f"Engine: {engine}")
        print(_worded(pivot(frame, args.metric), frame, args.metric).to_string())


def _worded(grid: Any, frame: Any, metric: str | None) -> Any:
    """The plain table with its metric columns in words (``expected wounds lost``), as the
    Markdown table has them; JSON and CSV keep the identifiers."""
    from mathhammer.report.labels import metric_label

    if metric is not None:
        return grid
    return grid.rename(columns=lambda name: metric_label(name, frame))


def comparison_chart(kind: str, comparison: Comparison, args: argparse.Namespace) -> Any:
    """The chart ``--chart`` names, titled by ``--title`` when given."""
    from mathhammer import charts

    frame = comparison.frame
    if kind == "heatmap":
        return charts.heatmap(frame, args.metric, title=args.title, digits=args.digits)
    if kind == "bars":
        return charts.bars(frame, args.metric, title=args.title)
    if kind == "lines":
        return charts.sweep_lines(frame, metric=args.metric, title=args.title)
    return charts.overlay(comparison.results, args.plot_outcome, title=args.title)


def engine_words(args: argparse.Namespace, exact: bool) -> str:
    """``exact`` or ``Monte Carlo, N trials per cell, seed S``: the table's first line."""
    return "exact" if exact else \
        f"Monte Carlo, {args.trials:,} trials per cell, seed {args.seed}"
