"""``mathhammer dust {simulate,exact,table,exchange,fire-orders,compare}``: the Dust Tactics
command line.

::

    mathhammer dust exact "4x Shotgun: 3/1" --target "5x Laser Grenadier: INFANTRY2 [SOFT COVER]"
    mathhammer dust simulate "17-pounder: 4/1 [IGNORES COVER]" ".50 cal: 3/1" \\
        --target "Luther: VEHICLE6 BOXES4" --sustained --trials 200000 --seed 3 --json
    mathhammer dust table "seed.toml#Pounder/17-pounder"
    mathhammer dust exchange "seed.toml#Assault Rangers" "seed.toml#Laser Grenadiers" \\
        --rounds 3 --casualty-policy random --json
    mathhammer dust fire-orders --fire ".30 cal: 3/1" "2x Grenadier: INFANTRY2" \\
        --fire "17-pounder: 7/1" "Walker: VEHICLE2 BOXES4"
    mathhammer dust compare "4x Shotgun: 3/1" "17-pounder: 4/1" \\
        --target "5x Grenadier: INFANTRY2" --target "Luther: VEHICLE6 BOXES4" \\
        --sweep sustained=no,yes
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mathhammer.cli.options import (
    ArgumentParser, OnlyOnce, add_monte_carlo_options, add_output_options, emit,
    non_negative_int,
    positive_int,
    save_chart,
)
from mathhammer.errors import OptionError

#: What ``--plot`` can draw, default first.
PLOT_OUTCOMES = ("damage", "models_destroyed", "hits", "damage_before_saves", "boxes_lost",
                 "overkill")
_WEAPON_HELP = ('"4x Shotgun: 3/1" (Nx carriers, dice per carrier/damage per hit), '
                '"17-pounder: 4/1 [IGNORES COVER]", a full line "NAME: INF c c c c VEH c c c c '
                'c c c", or a card from a TOML unit file "FILE.toml#UNIT/WEAPON" '
                '("FILE.toml#UNIT" for all its weapons)')
_TARGET_HELP = ('"5x Laser Grenadier: INFANTRY2 [SOFT COVER]", "Luther: VEHICLE6 BOXES4 '
                '[HARD COVER]", tags SOFT COVER, HARD COVER, DAMAGE RESILIENT, SOFT/HARD SAVE '
                'HIT|MISS|NONE; or "FILE.toml#UNIT [TAGS]"')


#: How a laser chain depth says "no limit" on the command line.
_UNBOUNDED = ("unbounded", "none", "inf")


def _depth(text: str) -> int | None:
    """argparse type: a laser chain depth (0 or more) or ``unbounded``."""
    return None if text.strip().lower() in _UNBOUNDED else non_negative_int(text)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sustained", action="store_true",
                        help="sustained attack: reroll every failed die once")
    parser.add_argument("--distance", type=non_negative_int, default=None,
                        help="squares to the target; checks each weapon's range")
    parser.add_argument("--cover-save-per", choices=("hit", "damage_point"), default="hit",
                        help="what one cover save cancels (UNCERTAIN; default hit)")
    parser.add_argument("--laser-chain-depth", type=_depth, default=1,
                        help="generations of extra laser dice, or 'unbounded' (UNCERTAIN; "
                             "default 1)")
    parser.add_argument("--ruleset", choices=("dust_tactics", "dust1947"),
                        default="dust_tactics", help="rules profile (default dust_tactics)")
    parser.add_argument("--hero-joined", action="store_true",
                        help="a HEROn on the target is a hero joined to the squad (UNCERTAIN)")


def register(subparsers: Any) -> None:
    """Add ``dust`` with its ``simulate``, ``exact`` and ``table`` subcommands."""
    dust = subparsers.add_parser("dust", help="Dust Tactics shooting (Open fire!)",
                                 description="Dust Tactics attack statistics.")
    commands = dust.add_subparsers(dest="dust_command", required=True, metavar="COMMAND",
                                   parser_class=ArgumentParser)
    for name, helptext in (("exact", "exact distributions (rational arithmetic)"),
                           ("simulate", "Monte Carlo estimate with standard errors")):
        sub = commands.add_parser(name, help=helptext, description=helptext)
        sub.add_argument("weapons", nargs="+", metavar="WEAPON", help=_WEAPON_HELP)
        sub.add_argument("--target", required=True, action=OnlyOnce, metavar="TARGET",
                         help=_TARGET_HELP)
        _add_rule_options(sub)
        if name == "simulate":
            add_monte_carlo_options(sub)
        add_output_options(sub, outcomes=PLOT_OUTCOMES)
        sub.set_defaults(handler=_run_simulate if name == "simulate" else _run_exact)
    table = commands.add_parser("table", help="expected losses by target class and cover",
                                description="Expected losses for every target column "
                                            "(infantry 1-4, vehicle 1-7, aircraft) and cover "
                                            "state (open, soft, hard).")
    table.add_argument("weapons", nargs="+", metavar="WEAPON", help=_WEAPON_HELP)
    table.add_argument("--models", type=positive_int, default=None,
                       help="squad size of the targets (default: uncapped expected damage)")
    table.add_argument("--boxes", type=positive_int, default=None,
                       help="boxes of target vehicles and aircraft (default: uncapped)")
    table.add_argument("--damage-resilient", action="store_true",
                       help="every target has Damage Resilient")
    _add_rule_options(table)
    add_output_options(table)
    table.set_defaults(handler=_run_table)
    _register_exchange(commands)
    _register_fire_orders(commands)
    _register_compare(commands)


def _register_compare(commands: Any) -> None:
    from mathhammer.cli.compare import add_compare_command

    sub = add_compare_command(
        commands, attacker="WEAPON", attacker_help=_WEAPON_HELP, target_help=_TARGET_HELP,
        description="Each WEAPON on its own against each --target, in the same situation; "
                    "prints the grid (expected hits, damage, models destroyed, P(destroy "
                    "unit), P(damage wasted)); --csv writes the tidy frame, --plot a chart "
                    "(see --chart).",
        metrics="expected_hits, expected_damage, expected_models_destroyed, "
                "p_unit_destroyed, p_damage_wasted",
        outcomes=PLOT_OUTCOMES,
        sweep_help="also vary one situation or rule switch: sustained=no,yes; distance=2,4,6; "
                   "cover_save_per=hit,damage_point; laser_chain_depth=0,1,unbounded")
    _add_rule_options(sub)
    sub.set_defaults(handler=_run_compare)


def _run_compare(args: argparse.Namespace) -> int:
    """Each WEAPON (``' + '`` joins weapons declared together) against each ``--target``,
    exact unless ``--monte-carlo``; ``--sweep`` repeats the grid over one keyword."""
    from mathhammer.cli.compare import (check_chart, engine_words, joined_attackers,
                                        parse_sweep, show_comparison)
    from mathhammer.dust.comparisons import compare, sweep

    check_chart(args)
    attackers = joined_attackers(args.attackers)
    exact = not args.monte_carlo
    options: dict[str, Any] = {"sustained": args.sustained, "distance": args.distance,
                               **_switches(args)}
    common = {"method": "exact" if exact else "monte-carlo", "trials": args.trials,
              "seed": args.seed}
    if args.sweep:
        parameter, values = parse_sweep(args.sweep)
        if parameter == "laser_chain_depth":   # 'unbounded' as --laser-chain-depth reads it
            values = [None if isinstance(v, str) and v.lower() in _UNBOUNDED else v
                      for v in values]
        options.pop(parameter, None)
        kept = sweep(attackers, args.target, parameter, values, keep_results=True, **common,
                     **options)
    else:
        kept = compare(attackers, args.target, keep_results=True, **common, **options)
    show_comparison(kept, args, engine_words(args, exact))
    return 0


_UNIT_HELP = ('a unit card of a TOML unit file, "FILE.toml#UNIT" (e.g. "seed.toml#Pounder"; '
              "the package's seed.toml is found by name)")
_POLICIES = ("protect_special", "owner_optimal", "random", "attacker_worst")


def _register_exchange(commands: Any) -> None:
    from mathhammer.core.trials import DEFAULT_TRIALS

    sub = commands.add_parser(
        "exchange", help="multi-round firefight between two unit cards",
        description="Each round unit A fires at unit B, then what is left of B fires back; "
                    "pools shrink with losses (exact by default, or Monte Carlo).")
    sub.add_argument("unit_a", metavar="UNIT_A", help=_UNIT_HELP + "; fires first")
    sub.add_argument("unit_b", metavar="UNIT_B", help=_UNIT_HELP)
    sub.add_argument("--rounds", type=positive_int, default=1, help="rounds (default 1)")
    sub.add_argument("--method", choices=("exact", "monte-carlo"), default="exact",
                     help="engine (default exact)")
    for side in ("a", "b"):
        sub.add_argument(f"--{side}-weapons", action="append", metavar="NAME", default=None,
                         help=f"a weapon line unit {side.upper()} fires (repeat; default: "
                              "every line that can attack the other unit)")
        sub.add_argument(f"--{side}-cover", choices=("open", "soft", "hard"), default=None,
                         help=f"cover of unit {side.upper()} (default: its profile's)")
    sub.add_argument("--casualty-policy", choices=_POLICIES, default="protect_special",
                     help="which models a squad loses first (default protect_special)")
    sub.add_argument("--sustained", action="store_true",
                     help="both sides make sustained attacks: reroll every failed die once")
    sub.add_argument("--cover-save-per", choices=("hit", "damage_point"), default="hit",
                     help="what one cover save cancels (UNCERTAIN; default hit)")
    sub.add_argument("--laser-chain-depth", type=_depth, default=1,
                     help="generations of extra laser dice, or 'unbounded' (UNCERTAIN; "
                          "default 1)")
    sub.add_argument("--ruleset", choices=("dust_tactics", "dust1947"),
                     default="dust_tactics", help="rules profile (default dust_tactics)")
    add_monte_carlo_options(sub, default_trials=DEFAULT_TRIALS,
                            trials_help="Monte Carlo trials (with --method monte-carlo)")
    add_output_options(sub, outcomes=("b_losses", "a_losses"))
    sub.set_defaults(handler=_run_exchange)


def _switches(args: argparse.Namespace) -> dict:
    return {"cover_save_per": args.cover_save_per,
            "laser_chain_depth": args.laser_chain_depth,
            "ruleset": args.ruleset, "hero_joined": args.hero_joined}


def _header(result) -> str:
    weapons = "; ".join(result.inputs["weapons"])
    mode = " (sustained attack)" if result.inputs["sustained"] else ""
    return f"Weapons: {weapons}{mode}\nTarget:  {result.inputs['target']}" + _rules_line(result)


def _rules_line(result) -> str:
    """A "Rules:" line naming the rule switches that differ from their defaults, or ""."""
    changes = result.inputs.get("rule_changes")
    return "\nRules:   " + ", ".join(changes) if changes else ""


def _run_exact(args: argparse.Namespace) -> int:
    from mathhammer.dust.api import exact

    result = exact(args.weapons, args.target, sustained=args.sustained, distance=args.distance,
                   **_switches(args))
    emit(result, args, header=_header(result))
    return 0


def _run_simulate(args: argparse.Namespace) -> int:
    from mathhammer.dust.api import simulate

    result = simulate(args.weapons, args.target, sustained=args.sustained,
                      distance=args.distance, trials=args.trials, seed=args.seed,
                      **_switches(args))
    emit(result, args, header=_header(result))
    return 0


def _register_fire_orders(commands: Any) -> None:
    from mathhammer.core.trials import DEFAULT_TRIALS

    sub = commands.add_parser(
        "fire-orders", aliases=["fire-plan"],
        help="one declared attack split over several targets (fire-plan: its old name)",
        description="All declared weapons fire together with no retargeting (simultaneous "
                    "fire): damage is summed per target and applied at once; damage beyond "
                    "what a target absorbs is reported as overkill. One result per target.")
    sub.add_argument("--fire", nargs=2, action="append", required=True,
                     metavar=("WEAPON", "TARGET"),
                     help="a weapon and the target it is declared against (repeat; the same "
                          "target text is one target)")
    sub.add_argument("--method", choices=("exact", "monte-carlo"), default="exact",
                     help="engine (default exact)")
    _add_rule_options(sub)
    sub.add_argument("--split-weapon-line", action="store_true",
                     help="let carriers of one weapon line aim at different targets "
                          "(UNCERTAIN; default off)")
    add_monte_carlo_options(sub, default_trials=DEFAULT_TRIALS,
                            trials_help="Monte Carlo trials (with --method monte-carlo)")
    add_output_options(sub, outcomes=PLOT_OUTCOMES)
    sub.set_defaults(handler=_run_fire_orders)


def _run_fire_orders(args: argparse.Namespace) -> int:
    from mathhammer.cli.options import DEFAULT_SEED
    from mathhammer.dust.api import DEFAULT_TRIALS, fire_orders

    if args.dust_command == "fire-plan":
        print("note: 'mathhammer dust fire-plan' is now 'mathhammer dust fire-orders'; the old "
              "name works for one release", file=sys.stderr)
    if args.method == "exact" and (args.trials != DEFAULT_TRIALS or args.seed != DEFAULT_SEED):
        raise OptionError("--trials/--seed drive the Monte Carlo engine; add --method "
                          "monte-carlo or drop them")
    results = fire_orders([tuple(pair) for pair in args.fire], method=args.method,
                          sustained=args.sustained, distance=args.distance, trials=args.trials,
                          seed=args.seed, split_weapon_line=args.split_weapon_line,
                          **_switches(args))
    if args.plot:
        from mathhammer.charts import overlay

        save_chart(overlay({r.inputs["target"]: r for r in results}, args.plot_outcome,
                           title=args.title), args)
    if args.csv:
        import pandas as pd

        pd.concat([r.to_frame().assign(target=r.inputs["target"]) for r in results],
                  ignore_index=True).to_csv(args.csv, index=False)
    if args.json:
        print(json.dumps({"method": results[0].method,
                          "targets": [{"target": r.inputs["target"],
                                       "weapons": r.inputs["weapons"], **r.to_dict()}
                                      for r in results]}))
        return 0
    mode = " (sustained attack)" if args.sustained else ""
    for k, result in enumerate(results):
        if k:
            print()
        header = f"Target {k + 1}: {result.inputs['target']}\nWeapons: " \
                 f"{'; '.join(result.inputs['weapons'])}{mode}" + _rules_line(result)
        if args.markdown:
            print("\n".join(f"- {line}" for line in header.splitlines()) + "\n")
            print(result.to_markdown())
        else:
            print(header)
            print(result.to_text())
    return 0


def _load_unit_ref(text: str):
    """A :class:`~mathhammer.dust.profiles.Unit` from ``FILE.toml#UNIT``."""
    from mathhammer.dust.parse import load_unit

    path, sep, name = text.rpartition("#")
    if not sep or not path.lower().endswith(".toml") or not name.strip():
        raise OptionError(f"unit '{text}': name a unit card as FILE.toml#UNIT, e.g. "
                          "'seed.toml#Pounder'")
    return load_unit(path, name.strip())


def _run_exchange(args: argparse.Namespace) -> int:
    from mathhammer.cli.options import DEFAULT_SEED
    from mathhammer.dust.api import DEFAULT_TRIALS
    from mathhammer.dust.exchanges import Combatant, exchange

    a, b = _load_unit_ref(args.unit_a), _load_unit_ref(args.unit_b)
    if args.method == "exact" and (args.trials != DEFAULT_TRIALS or args.seed != DEFAULT_SEED):
        raise OptionError("--trials/--seed drive the Monte Carlo engine; add --method "
                          "monte-carlo or drop them")
    result = exchange(Combatant(a, args.a_weapons, args.a_cover),
                      Combatant(b, args.b_weapons, args.b_cover), args.rounds,
                      method=args.method, sustained=args.sustained, trials=args.trials,
                      seed=args.seed,
                      casualty_policy=args.casualty_policy,
                      cover_save_per=args.cover_save_per,
                      laser_chain_depth=args.laser_chain_depth, ruleset=args.ruleset)
    mode = ", sustained attacks" if args.sustained else ""
    header = (f"Exchange: {a.name} (A, fires first) vs {b.name} (B), {args.rounds} round"
              f"{'s' if args.rounds != 1 else ''}{mode}, casualty policy "
              f"{args.casualty_policy}\nA: {result.inputs['a_profile']}\n"
              f"B: {result.inputs['b_profile']}") + _rules_line(result)
    emit(result, args, header=header)
    return 0


def _run_table(args: argparse.Namespace) -> int:
    from mathhammer.dust.plans import losses_table

    frame = losses_table(args.weapons, sustained=args.sustained, models=args.models,
                         boxes=args.boxes, damage_resilient=args.damage_resilient,
                         **_switches(args))
    what = ("expected losses" if args.models or args.boxes
            else "expected damage points through saves (uncapped)")
    tidy = frame.rename_axis(["target_class", "armour"]).reset_index()
    if args.csv:
        tidy.to_csv(args.csv, index=False)
    if args.plot:
        _plot_table(frame, what, args)
    if args.json:
        rows = [{"target_class": row["target_class"], "armour": int(row["armour"]),
                 **{k: (None if row[k] != row[k] else float(row[k]))
                    for k in frame.columns}}
                for _, row in tidy.iterrows()]
        print(json.dumps({"method": "exact", "expected_losses": rows}))
    elif args.markdown:
        print(f"- Weapons: `{'; '.join(args.weapons)}`\n")
        print(_markdown_table(tidy, what, args))
    else:
        print(f"Weapons: {'; '.join(args.weapons)}\n{what}:")
        print(frame.to_string(float_format=lambda v: f"{v:.3f}", na_rep="-"))
    return 0


_COVER_WORDS = {"open": "in the open", "soft": "soft cover", "hard": "hard cover"}


def _markdown_table(tidy, what: str, args: argparse.Namespace) -> str:
    """The losses table for articles: headers in words, every number to ``--digits``
    significant figures, '-' where no weapon can attack, a caption line naming what the
    numbers are (always) and the situation."""
    from mathhammer.report.tables import Table, format_value

    shown = tidy.rename(columns={"target_class": "target class", **_COVER_WORDS})
    for column in _COVER_WORDS.values():
        if column in shown.columns:
            shown[column] = ["-" if v != v else format_value(v, args.digits)
                             for v in shown[column]]
    shown["armour"] = [str(int(a)) for a in shown["armour"]]
    caption = f"{what[0].upper()}{what[1:]}; exact" + _table_situation(args) + \
        "; '-': cannot attack"
    return Table(shown, caption).to_markdown()


def _table_situation(args: argparse.Namespace) -> str:
    parts = [f"squads of {args.models}" if args.models else "",
             f"{args.boxes} boxes" if args.boxes else "",
             "sustained attack" if args.sustained else "",
             "Damage Resilient" if args.damage_resilient else "",
             f"{args.distance} squares" if args.distance is not None else ""]
    text = ", ".join(p for p in parts if p)
    return (f"; {text}" if text else "") + _rules_words(args)


def _rules_words(args: argparse.Namespace) -> str:
    """"; rules: ..." naming the rule switches that differ from their defaults, or ""."""
    from mathhammer.dust.profiles import Rules

    changes = Rules(**_switches(args)).changes()
    return "; rules: " + ", ".join(changes) if changes else ""


def _plot_table(frame, what: str, args: argparse.Namespace) -> None:
    """The shared dot chart of the losses table (:func:`mathhammer.charts.bars`), one dot
    per cover state: infantry (models) and vehicles and aircraft (boxes) in panels of their
    own, each axis in its unit."""
    from mathhammer.charts.layout import CAPTION_LINES, new_figure, title_text, wrap
    from mathhammer.charts import bars
    from mathhammer.dust.plans import losses_frame

    infantry = [cls == "infantry" for cls, _ in frame.index]
    groups = [(frame[infantry], "models" if args.models else "damage points",
               "infantry (INF 1-4)"),
              (frame[[not i for i in infantry]], "boxes" if args.boxes else "damage points",
               "vehicles (VEH 1-7) and aircraft (AIR)")]
    groups = [g for g in groups if not g[0].empty]
    heights = [0.42 * len(part) + 1.3 for part, _, _ in groups]
    figure = new_figure((7.0, sum(heights) + 1.2))
    axes = figure.subplots(len(groups), 1, squeeze=False, height_ratios=heights)[:, 0]
    heading = args.title or f"{what[0].upper()}{what[1:]} by target and cover"
    weapons = "; ".join(args.weapons)
    for ax, (part, unit, name) in zip(axes, groups):
        word = what.replace(" through saves (uncapped)", "").replace("losses", f"{unit} lost")
        label = word if "damage" not in word else f"expected {unit} (uncapped)"
        tidy = losses_frame(part, label=label)
        if tidy.empty:
            ax.set_axis_off()
            continue
        bars(tidy, ax=ax, title=name, kind="dots")
        ax.set_ylabel("target class and armour")
    figure.suptitle(title_text(heading, 80, 2) + "\n" + wrap(
        weapons + (" (sustained attack)" if args.sustained else ""), 90, 2),
        x=0.02, ha="left", fontweight="bold", fontsize=11.5)
    figure.supxlabel(wrap("exact" + _table_situation(args) + "; no dot: cannot attack", 90,
                          CAPTION_LINES), x=0.02, ha="left", fontsize=8.5, color="#555555")
    save_chart(figure, args)
