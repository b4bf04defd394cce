"""``mathhammer warmachine {simulate,exact} ATTACK [ATTACK ...] --target TARGET``."""

from __future__ import annotations

import argparse
from typing import Any

from mathhammer.core.cli_options import (ArgumentParser, add_monte_carlo_options,
                                         add_output_options, emit)
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.core.numbers import int_option, real_option
from mathhammer.errors import OptionError
from mathhammer.warmachine.profiles import Rules

#: What ``--plot`` can draw, default first.
PLOT_OUTCOMES = ("damage", "models_destroyed", "boosts_spent", "damage_transferred")
_ATTACK_HELP = ('attack line, e.g. "3x Battle hammer: MAT7 POW16 [CHARGE, ARMOR-PIERCING]"; '
                "Nx = that many attacks one after another; RAT/AAT for ranged/arcane; "
                '"BLAST POW n" for an AOE')
_TARGET_HELP = ('target unit, e.g. "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]" or '
                '"Heavy warjack: DEF12 ARM19 BOXES30 [KNOCKED DOWN]"; "GRID -L/-LL/MC/CM/RR/R" '
                "(six lanes of boxes, '-' blank or a system letter) or SPIRAL ... for damage "
                'grids; "TRANSFER 2, TRANSFER BOXES 20" for damage transfer; repeat for more '
                "units")


def _probability(text: str) -> float:
    try:
        return real_option(0.0, 1.0)(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc}: a probability between 0 and 1") from None


def _add_rule_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rule switches (UNCERTAIN points of the MkIV text)")
    group.add_argument("--no-all-ones-miss", action="store_true",
                       help="a roll of all 1s does not miss automatically")
    group.add_argument("--special-on-all-dice", action="store_true",
                       help="all-1s/all-6s checks look at discarded dice too")
    group.add_argument("--roll-vs-auto-hit", action="store_true",
                       help="roll against automatic hits (fishing for criticals)")
    group.add_argument("--stationary-def", type=int_option(), default=5, metavar="N",
                       help="DEF of knocked-down or stationary models (default 5)")
    group.add_argument("--no-tough", action="store_true", help="forbid every Tough roll")
    group.add_argument("--no-aoe-boost-all", action="store_true",
                       help="a bought damage boost does not boost blast damage rolls")
    group.add_argument("--aoe-miss-coverage", type=_probability, default=0.0, metavar="P",
                       help="P(a listed model is still in the area after a miss) (default 0)")
    group.add_argument("--apply-crippling", action="store_true",
                       help="apply older-edition effects of the attacker's CRIPPLED systems")
    group.add_argument("--transfer-policy", choices=("always", "lethal"), default="always",
                       help="damage transfer: every damaging attack (default) or only damage "
                            "that would disable")


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`Rules` selected by the command-line switches."""
    if not 0 <= args.stationary_def <= MAX_NUMBER:
        raise OptionError(f"--stationary-def {args.stationary_def} must be a DEF from 0 to "
                          f"{MAX_NUMBER:,}")
    return Rules(all_ones_miss=not args.no_all_ones_miss,
                 special_on_kept_dice=not args.special_on_all_dice,
                 roll_vs_auto_hit=args.roll_vs_auto_hit,
                 stationary_base_def=args.stationary_def,
                 tough_allowed=not args.no_tough,
                 aoe_boost_all=not args.no_aoe_boost_all,
                 aoe_miss_coverage=args.aoe_miss_coverage,
                 apply_crippling=args.apply_crippling,
                 transfer_policy=args.transfer_policy)


def _header(args: argparse.Namespace, result: Any = None) -> str:
    """Attack and target lines, then the rule switches that differ from their defaults."""
    lines = [f"Attack: {a}" for a in args.attacks]
    lines += [f"Target: {t}" for t in args.target]
    changes = result.inputs.get("rule_changes") if result is not None else None
    if changes:
        lines.append("Rules:  " + ", ".join(changes))
    return "\n".join(lines)


def _run_simulate(args: argparse.Namespace) -> int:
    from mathhammer.warmachine.api import simulate

    result = simulate(args.attacks, args.target, trials=args.trials, seed=args.seed,
                      rules=rules_from_args(args))
    emit(result, args, _header(args, result))
    return 0


def _run_exact(args: argparse.Namespace) -> int:
    from mathhammer.warmachine.api import exact

    result = exact(args.attacks, args.target, rules=rules_from_args(args))
    emit(result, args, _header(args, result))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``warmachine`` command and its ``simulate`` and ``exact`` modes."""
    parser = subparsers.add_parser(
        "warmachine", help="Warmachine MkIV attacks (exact or Monte Carlo)",
        description="Attack statistics for Warmachine MkIV: attack rolls, damage, Tough, "
                    "knockdown, charges, AOEs, sprays and sequences of attacks.")
    modes = parser.add_subparsers(dest="warmachine_mode", required=True, metavar="MODE",
                                  parser_class=ArgumentParser)
    for name, handler, text in (("simulate", _run_simulate, "Monte Carlo estimate"),
                                ("exact", _run_exact, "exact distributions")):
        sub = modes.add_parser(name, help=text, description=f"Warmachine MkIV: {text}.")
        sub.add_argument("attacks", nargs="+", metavar="ATTACK", help=_ATTACK_HELP)
        sub.add_argument("--target", action="append", required=True, metavar="TARGET",
                         help=_TARGET_HELP)
        _add_rule_options(sub)
        if name == "simulate":
            add_monte_carlo_options(sub)
        add_output_options(sub, outcomes=PLOT_OUTCOMES)
        sub.set_defaults(handler=handler)
