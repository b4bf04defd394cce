"""``mathhammer roster FILE``: list an army, analyse it against targets or another list."""

from __future__ import annotations

import argparse
import json
import math
import textwrap
from typing import Any

from mathhammer.cli.options import (add_monte_carlo_options, add_output_options, output_file,
                                    save_chart)
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.errors import OptionError

#: Text tables wrap their columns to fit a terminal this wide.
WIDTH = 100


def register(subparsers: Any) -> None:
    """Add the ``roster`` subcommand."""
    from mathhammer.wh40k.buff_cli import add_buff_arguments
    from mathhammer.wh40k.cli import add_situation_arguments, add_targets_file_option

    parser = subparsers.add_parser(
        "roster", help="read a BattleScribe (.ros/.rosz) or New Recruit (.json) army list; "
                       "list it, or analyse every unit against targets or another list",
        description="Without --target or --against: list the army (units, points, model "
                    "groups as target lines, weapons as weapon lines). With --target: every "
                    "unit against every target, shooting and fighting. With --against: "
                    "every unit against every unit of another list.")
    parser.add_argument("file", metavar="FILE", nargs="?", default=None,
                        help="roster file (.ros, .rosz, .json, or a GW app text list with "
                             "--data)")
    parser.add_argument("--example", choices=["marines", "orks"], default=None,
                        help="one of the example lists that ship with mathhammer instead of "
                             "FILE (11th-edition Space Marines or Orks)")
    parser.add_argument("--target", action="append", default=[], metavar="TARGET",
                        help="a target line or reference profile (MEQ, TEQ, '10x GEQ', ...); "
                             "repeat for several")
    parser.add_argument("--against", metavar="OTHER_FILE",
                        help="another roster: its units (with their statlines, saves, Feel "
                             "No Pain, keywords and attached Leaders) are the targets")
    parser.add_argument("--attach", action="append", default=[], metavar="LEADER=BODYGUARD",
                        help="attach a Leader to a unit of FILE, e.g. 'Captain=Intercessor "
                             "Squad' (10th-edition files do not record it); repeatable")
    parser.add_argument("--attach-other", action="append", default=[],
                        metavar="LEADER=BODYGUARD", help="the same for the --against list")
    parser.add_argument("--assume", action="append", default=[], metavar="UNIT: ABILITY",
                        help="apply a conditional defensive rule of a unit of FILE on "
                             "purpose, e.g. 'Plague Marines: Putrid Bulk' (the listing's "
                             "notes name them); repeatable")
    parser.add_argument("--assume-other", action="append", default=[],
                        metavar="UNIT: ABILITY", help="the same for the --against list")
    parser.add_argument("--to-scenario", metavar="OUT.toml", type=output_file,
                        help="write the units as a scenario file for 'mathhammer run'")
    add_targets_file_option(parser)
    grid = parser.add_argument_group("analysis")
    engine = grid.add_mutually_exclusive_group()
    engine.add_argument("--exact", action="store_true",
                        help="exact engine wherever it covers a cell, Monte Carlo elsewhere "
                             "(each row's method says which, a note says why); the default")
    engine.add_argument("--monte-carlo", action="store_true",
                        help="Monte Carlo for every cell (--trials, --seed)")
    grid.add_argument("--profiles", choices=["best", "first"], default="best",
                      help="several melee weapons or weapon profiles: the one with the "
                           "highest expected damage against each target (best, default) or "
                           "the one listed first")
    grid.add_argument("--phase", choices=["shooting", "fight", "both"], default="both",
                      help="which phase to analyse (default both)")
    grid.add_argument("--metric", default=None, metavar="METRIC",
                      help="metric of the tables and heat maps (expected_damage, "
                           "expected_models_destroyed, p_unit_destroyed, damage_per_100pts, "
                           "models_destroyed_per_100pts); default damage_per_100pts (or "
                           "expected_damage when the list has no points)")
    grid.add_argument("--optimise", action="store_true",
                      help="with --against: propose the whole shooting phase, who shoots what "
                           "(the plan maximising the points destroyed; see 'mathhammer "
                           "optimise'); the situation flags apply to every unit")
    grid.add_argument("--all", action="store_true", dest="all_metrics",
                      help="one table per metric instead of the one --metric names")
    add_situation_arguments(parser, edition_default=None)
    add_buff_arguments(parser)
    parser.add_argument("--buff-other", action="append", default=[], metavar="TEXT",
                        help="with --against: a buff of the other list (text or a --buffs "
                             "name); its FNP, invulnerable save, -1 damage, halved damage, "
                             "cover or +1 to save protect that list's units; repeatable")
    add_monte_carlo_options(parser, default_trials=DEFAULT_GRID_TRIALS,
                            trials_help="Monte Carlo trials per cell")
    add_output_options(parser)
    parser.set_defaults(handler=_run)


def _roster_file(args: argparse.Namespace) -> Any:
    """FILE, or the path of the ``--example`` list (one of the two, not both)."""
    from mathhammer.wh40k.roster.api import example

    if args.example and args.file:
        raise OptionError(f"give a roster FILE or --example {args.example}, not both")
    if args.example:
        return example(args.example)
    if not args.file:
        raise OptionError("give a roster FILE (.ros, .rosz or .json), or try one that ships "
                          "with mathhammer: --example orks (or marines)")
    return args.file


def _run(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.roster.api import load_roster

    army = load_roster(_roster_file(args), attach=args.attach or None,
                       assume=args.assume or None)
    if args.to_scenario:
        army.to_toml(args.to_scenario)
    if args.optimise and not args.against:
        raise OptionError("--optimise needs --against OTHER_FILE (the list to shoot at)")
    if not args.target and not args.against:
        if args.attach_other or args.assume_other:
            raise OptionError("--attach-other and --assume-other need --against OTHER_FILE")
        if args.buff or args.buffs or args.attribution or args.buff_other:
            raise OptionError("--buff, --buffs, --buff-other and --attribution need --target "
                              "or --against")
        return _listing(army, args)
    if args.target and args.against:
        raise OptionError("give --target or --against, not both")
    if (args.attach_other or args.assume_other) and not args.against:
        raise OptionError("--attach-other and --assume-other need --against OTHER_FILE")
    if args.buff_other and not args.against:
        raise OptionError("--buff-other needs --against OTHER_FILE")
    if args.optimise:
        if args.attribution:
            raise OptionError("--attribution is not applied to --optimise: each buff removed "
                              "may change the best orders; run the optimiser with and without it")
        return _optimise(army, args)
    return _analysis(army, args)


def _optimise(army: Any, args: argparse.Namespace) -> int:
    """``--against OTHER --optimise``: the best shooting phase of the list against the other."""
    from mathhammer.cli.options import emit
    from mathhammer.wh40k.cli import options_from_args
    from mathhammer.wh40k.optimise.settings import DEFAULT_OPTIMISE_TRIALS
    from mathhammer.wh40k.optimise.roster import optimise_shooting
    from mathhammer.wh40k.roster.api import load_roster

    from mathhammer.wh40k.buff_cli import buffs_from_args
    from mathhammer.wh40k.buffs import load_buff_file, resolve_buffs

    other = load_roster(args.against, attach=args.attach_other or None,
                        assume=args.assume_other or None)
    trials = DEFAULT_OPTIMISE_TRIALS if args.trials == DEFAULT_GRID_TRIALS else args.trials
    options = options_from_args(args)
    buffs = options.pop("buffs", None) or buffs_from_args(args)
    other_buffs = None
    if args.buff_other:
        library: Any = {}
        for path in args.buffs:
            library.update(load_buff_file(path))
        other_buffs = resolve_buffs(args.buff_other, library)
    result = optimise_shooting(army, other, trials=trials, seed=args.seed, options=options,
                               buffs=buffs or None, other_buffs=other_buffs)
    if buffs:
        result.notes.append("Buffs: " + "; ".join(b.name for b in buffs))
    emit(result, args, f"Shooting phase: {army.source} against {other.source}")
    return 0


def _listing(army: Any, args: argparse.Namespace) -> int:
    if args.plot:
        raise OptionError("--plot draws the analysis: add --target or --against")
    if args.csv:
        army.to_frame().to_csv(args.csv, index=False)
    if args.json:
        print(json.dumps(army.to_dict()))
    elif args.markdown:
        print(army.to_markdown())
    else:
        print(army.to_text())
        if args.to_scenario:
            print(f"\nScenario written to {args.to_scenario}")
    return 0


def _analysis(army: Any, args: argparse.Namespace) -> int:
    from mathhammer.wh40k.cli import options_from_args
    from mathhammer.wh40k.comparisons import pivot
    from mathhammer.wh40k.targets import load_targets

    from mathhammer.wh40k.buff_cli import buffs_from_args
    from mathhammer.wh40k.buffs import load_buff_file, resolve_buffs
    from mathhammer.wh40k.roster.buffed import list_attribution, list_buffs

    options = options_from_args(args)
    phases = ("shooting", "fight") if args.phase == "both" else (args.phase,)
    buffs = list_buffs(options.pop("buffs", None) or buffs_from_args(args))
    common = dict(method="monte-carlo" if args.monte_carlo else "auto", trials=args.trials,
                  seed=args.seed, profiles=args.profiles, phases=phases, **options)
    if args.against:
        from mathhammer.wh40k.roster.api import load_roster

        targets: Any = load_roster(args.against, attach=args.attach_other or None,
                                   assume=args.assume_other or None)
        if args.buff_other:
            library: Any = {}
            for path in args.buffs:
                library.update(load_buff_file(path))
            common["other_buffs"] = resolve_buffs(args.buff_other, library)
        frame = army.against(targets, buffs=buffs, **common)
    else:
        library = load_targets(*args.targets_file) if args.targets_file else None
        targets = args.target
        common["library"] = library
        frame = army.compare(targets, buffs=buffs, **common)
    worth = list_attribution(army, targets, buffs, against=bool(args.against), **common) \
        if args.attribution else None
    if args.metric is not None and args.metric not in set(frame["metric"]):
        pivot(frame.drop(columns=["phase", "method"]), args.metric)  # raises, with a hint
    if args.plot:
        _plot(frame, args)
    if args.csv:
        frame.to_csv(args.csv, index=False)
    if args.json:
        print(json.dumps({**to_json_dict(frame), **_worth_json(buffs, worth)}))
        return 0
    _print_tables(frame, phases, args)
    footer = _footer(frame, args)
    if buffs:
        footer += "\nBuffs: " + "; ".join(b.name for b in buffs)
    print("\n".join(f"- {line}" for line in footer.splitlines()) if args.markdown else footer)
    if worth is not None:
        from mathhammer.wh40k.roster.buffed import list_attribution_text

        metric = "expected_models_destroyed" if args.metric and "models" in args.metric \
            else "expected_damage"
        print()
        print(list_attribution_text(worth, metric, getattr(args, "digits", 2)))
    return 0


def _worth_json(buffs: Any, worth: Any) -> dict[str, Any]:
    """The ``buffs`` and ``attribution`` keys of ``--json`` (none without buffs)."""
    out: dict[str, Any] = {"buffs": [b.name for b in buffs]} if buffs else {}
    if worth is not None:
        out["attribution"] = [{k: (None if isinstance(v, float) and math.isnan(v) else v)
                               for k, v in row.items()} for row in worth.to_dict("records")]
    return out


def _metrics(frame: Any, args: argparse.Namespace) -> list[str]:
    """The metrics to print: all with ``--all``, else ``--metric`` or the default."""
    present = list(dict.fromkeys(frame["metric"]))
    if args.all_metrics:
        return present
    return [args.metric or default_metric(frame)]


def default_metric(frame: Any) -> str:
    """``damage_per_100pts`` when the frame has it (the list has points), else
    ``expected_damage``."""
    return "damage_per_100pts" if (frame["metric"] == "damage_per_100pts").any() \
        else "expected_damage"


def _print_tables(frame: Any, phases: tuple[str, ...], args: argparse.Namespace) -> None:
    from mathhammer.wh40k.comparisons import METRIC_LABELS
    from mathhammer.wh40k.roster.tables import metric_table

    for phase in phases:
        part = frame[frame["phase"] == phase]
        if part.empty:
            continue
        for metric in _metrics(frame, args):
            label = METRIC_LABELS.get(metric, metric.replace("_", " "))
            wide = metric_table(part, metric)
            if args.markdown:
                print(f"### {phase.capitalize()}: {label}\n")
                if args.caption:
                    print(f"*{label}, {phase} phase; {_engine(frame, args)}*\n")
                print(wide.to_markdown())
            else:
                print(f"{phase.capitalize()}: {label}")
                print(wide.to_string(line_width=WIDTH))
            print()


def to_json_dict(frame: Any) -> dict[str, Any]:
    """The ``--json`` shape of an analysis: method, edition and one record per row."""
    rows = []
    for record in frame.to_dict(orient="records"):
        rows.append({k: (None if isinstance(v, float) and math.isnan(v) else
                         v.item() if hasattr(v, "item") else v) for k, v in record.items()})
    return {"method": frame.attrs.get("method"), "edition": frame.attrs.get("edition"),
            "rows": rows}


def _engine(frame: Any, args: argparse.Namespace) -> str:
    return _footer(frame, args).splitlines()[0].removeprefix("Engine: ")


def _footer(frame: Any, args: argparse.Namespace) -> str:
    method = frame.attrs.get("method")
    engine = {"exact": "exact",
              "monte-carlo": f"Monte Carlo, {args.trials:,} trials per cell, seed {args.seed}",
              "mixed": f"exact where it covers a cell, Monte Carlo ({args.trials:,} trials, "
                       f"seed {args.seed}) elsewhere"}[method]
    lines = [f"Engine: {engine}; {frame.attrs.get('edition')}th-edition list"]
    lines += [f"Note: {n}" for n in frame.attrs.get("notes", [])]
    lines += [f"Choice: {c}" for c in _grouped_choices(frame.attrs.get("choices", []))]
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="    ") for line in lines)


def _grouped_choices(choices: list[str]) -> list[str]:
    """``X shoots P (...) against A`` and ``... against B`` as one ``... against A, B``."""
    grouped: dict[str, list[str]] = {}
    for choice in dict.fromkeys(choices):
        head, sep, target = choice.rpartition(" against ")
        grouped.setdefault(head if sep else choice, []).extend([target] if sep else [])
    return [f"{head} against {', '.join(targets)}" if targets else head
            for head, targets in grouped.items()]


def _plot(frame: Any, args: argparse.Namespace) -> None:
    save_chart(analysis_figure(frame, args.metric, args.title), args)


def analysis_figure(frame: Any, metric: str | None = None, title: str | None = None) -> Any:
    """The ``--plot`` chart of an analysis: one heat map of ``metric`` (default
    :func:`default_metric`) per phase analysed, stacked in one figure."""
    from mathhammer import charts
    from mathhammer.charts.layout import new_figure
    from mathhammer.wh40k.comparisons import METRIC_LABELS

    metric = metric or default_metric(frame)
    label = METRIC_LABELS.get(metric, metric.replace("_", " "))
    phases = [p for p in ("shooting", "fight") if (frame["phase"] == p).any()]
    rows = max(len(set(frame["attacker"])), 1)
    figure = new_figure((7.0, len(phases) * max(2.4, 1.2 + 0.3 * rows)))
    axes = figure.subplots(len(phases), 1, squeeze=False)[:, 0]
    for ax, phase in zip(axes, phases):
        part = frame[frame["phase"] == phase].drop(columns=["phase", "method"])
        art = charts.heatmap(part, metric, ax=ax, title=f"{phase.capitalize()} phase: {label}",
                             rows="attacker", columns="target")
        art.ax.set_ylabel("unit of the list")
    if title:
        figure.suptitle(title, x=0.02, ha="left", fontweight="bold")
    return figure
