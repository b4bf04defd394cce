"""``mathhammer dust {simulate,exact,table}``: the Dust Tactics command line.

::

    mathhammer dust exact "4x Shotgun: 3/1" --target "5x Laser Grenadier: INFANTRY2 [SOFT COVER]"
    mathhammer dust simulate "17-pounder: 4/1 [IGNORES COVER]" ".50 cal: 3/1" \\
        --target "Luther: VEHICLE6 BOXES4" --sustained --trials 200000 --seed 3 --json
    mathhammer dust table "seed.toml#Pounder/17-pounder"
"""

from __future__ import annotations

import argparse
import json

from mathhammer.core.cli_options import (
    ArgumentParser, add_monte_carlo_options, add_output_options, emit, non_negative_int,
    positive_int,
)

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


def _depth(text: str) -> int | None:
    """argparse type: a laser chain depth (0 or more) or ``unbounded``."""
    return None if text.strip().lower() in ("unbounded", "none", "inf") else non_negative_int(text)


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sustained", action="store_true",
                        help="sustained attack: reroll every failed die once")
    parser.add_argument("--distance", type=non_negative_int, default=None,
                        help="squares to the target; checks each weapon's range")
    parser.add_argument("--cover-save-per", choices=("hit", "damage_point"), default="hit",
                        help="what one cover save cancels (UNCERTAIN; default hit)")
    parser.add_argument("--laser-chain-depth", type=_depth, default=1,
                        help="generations of extra laser dice, or 'unbounded' (Monte Carlo "
                             "only) (UNCERTAIN; default 1)")
    parser.add_argument("--ruleset", choices=("dust_tactics", "dust1947"),
                        default="dust_tactics", help="rules profile (default dust_tactics)")
    parser.add_argument("--hero-joined", action="store_true",
                        help="a HEROn on the target is a hero joined to the squad (UNCERTAIN)")


def register(subparsers) -> None:
    """Add ``dust`` with its ``simulate``, ``exact`` and ``table`` subcommands."""
    dust = subparsers.add_parser("dust", help="Dust Tactics shooting (Open fire!)",
                                 description="Dust Tactics attack statistics.")
    commands = dust.add_subparsers(dest="dust_command", required=True, metavar="COMMAND",
                                   parser_class=ArgumentParser)
    for name, helptext in (("exact", "exact distributions (rational arithmetic)"),
                           ("simulate", "Monte Carlo estimate with standard errors")):
        sub = commands.add_parser(name, help=helptext, description=helptext)
        sub.add_argument("weapons", nargs="+", metavar="WEAPON", help=_WEAPON_HELP)
        sub.add_argument("--target", required=True, metavar="TARGET", help=_TARGET_HELP)
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


def _switches(args: argparse.Namespace) -> dict:
    return {"cover_save_per": args.cover_save_per,
            "laser_chain_depth": args.laser_chain_depth,
            "ruleset": args.ruleset, "hero_joined": args.hero_joined}


def _header(result) -> str:
    weapons = "; ".join(result.inputs["weapons"])
    mode = " (sustained attack)" if result.inputs["sustained"] else ""
    return f"Weapons: {weapons}{mode}\nTarget:  {result.inputs['target']}"


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


def _run_table(args: argparse.Namespace) -> int:
    from mathhammer.dust.api import losses_table

    frame = losses_table(args.weapons, sustained=args.sustained, models=args.models,
                         boxes=args.boxes, damage_resilient=args.damage_resilient,
                         **_switches(args))
    if args.json:
        rows = []
        for (cls, armour), values in frame.iterrows():
            rows.append({"target_class": cls, "armour": int(armour),
                         **{k: (None if v != v else float(v)) for k, v in values.items()}})
        print(json.dumps({"method": "exact", "expected_losses": rows}))
    else:
        what = ("expected losses" if args.models or args.boxes
                else "expected damage points through saves (uncapped)")
        print(f"Weapons: {'; '.join(args.weapons)}\n{what}:")
        print(frame.to_string(float_format=lambda v: f"{v:.3f}", na_rep="-"))
    return 0
