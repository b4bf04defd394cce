"""``mathhammer warmachine {simulate,exact} ATTACK [ATTACK ...] --target TARGET`` and
``mathhammer warmachine targets`` (the reference targets a ``--target`` may name)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mathhammer.cli.options import (ArgumentParser, add_monte_carlo_options,
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
                "units; or a reference target's name: HEAVY_JACK, '3x LIGHT_JACK', "
                "'10x INFANTRY [TOUGH]' (list: mathhammer warmachine targets)")


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


def _add_targets_file_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--targets-file", metavar="FILE", action="append", default=[],
                        help="TOML file of your own reference targets, usable by name in "
                             "--target (adds to / overrides HEAVY_JACK, SOLO, ...); may be "
                             "repeated")


def library_from_args(args: argparse.Namespace) -> Any:
    """The built-in reference targets plus any ``--targets-file``."""
    from mathhammer.warmachine.reference_targets import load_targets

    return load_targets(*getattr(args, "targets_file", []))


def targets_from_args(args: argparse.Namespace) -> list[Any]:
    """Every ``--target`` as a :class:`~mathhammer.warmachine.profiles.Target` (a line or a
    reference name, with ``--targets-file`` added to the library)."""
    from mathhammer.warmachine.reference_targets import resolve_target

    library = library_from_args(args)
    return [resolve_target(text, library) for text in args.target]


def _header(args: argparse.Namespace, result: Any = None, targets: list[Any] | None = None
            ) -> str:
    """Attack and target lines (a reference name with its line), then the rule switches
    that differ from their defaults."""
    lines = [f"Attack: {a}" for a in args.attacks]
    resolved = targets if targets is not None else [None] * len(args.target)
    for text, target in zip(args.target, resolved):
        named = target is not None and ":" not in text
        lines.append(f"Target: {text} = {target}" if named else f"Target: {text}")
    changes = result.inputs.get("rule_changes") if result is not None else None
    if changes:
        lines.append("Rules:  " + ", ".join(changes))
    return "\n".join(lines)


def _run_simulate(args: argparse.Namespace) -> int:
    from mathhammer.warmachine.api import simulate

    targets = targets_from_args(args)
    result = simulate(args.attacks, targets, trials=args.trials, seed=args.seed,
                      rules=rules_from_args(args))
    emit(result, args, _header(args, result, targets))
    return 0


def _run_exact(args: argparse.Namespace) -> int:
    from mathhammer.warmachine.api import exact

    targets = targets_from_args(args)
    result = exact(args.attacks, targets, rules=rules_from_args(args))
    emit(result, args, _header(args, result, targets))
    return 0


def _run_targets(args: argparse.Namespace) -> int:
    """Print the reference targets: a table, or ``{"targets": [...]}`` with ``--json``."""
    rows = library_from_args(args).to_rows()
    if args.json:
        print(json.dumps({"targets": rows}, ensure_ascii=False))
        return 0
    columns = ("name", "line", "aliases", "data")
    widths = {c: max(len(c), *(len(row[c]) for row in rows)) for c in columns[:-1]}
    print("  ".join(c.ljust(widths.get(c, 0)) for c in columns).rstrip())
    for row in rows:
        print("  ".join(row[c].ljust(widths.get(c, 0)) for c in columns).rstrip())
    print("\nNames work in --target with a count and keywords: '3x LIGHT_JACK [KNOCKED DOWN]'. "
          "--json adds each entry's note.")
    return 0


def _run_compare(args: argparse.Namespace) -> int:
    """Each ATTACK (``' + '`` joins one model's attacks, resolved in order) against each
    ``--target`` unit, exact unless ``--monte-carlo``; ``--sweep`` repeats the grid over a
    rule switch."""
    from mathhammer.cli.compare import (check_chart, engine_words, joined_attackers,
                                        parse_sweep, show_comparison)
    from mathhammer.warmachine.comparisons import compare, sweep

    check_chart(args)
    attackers = joined_attackers(args.attackers)
    targets = _labelled_targets(args.target, targets_from_args(args))
    exact = not args.monte_carlo
    common = {"method": "exact" if exact else "monte-carlo", "trials": args.trials,
              "seed": args.seed, "rules": rules_from_args(args)}
    if args.sweep:
        parameter, values = parse_sweep(args.sweep)
        kept = sweep(attackers, targets, parameter, values, keep_results=True, **common)
    else:
        kept = compare(attackers, targets, keep_results=True, **common)
    show_comparison(kept, args, engine_words(args, exact))
    return 0


def _labelled_targets(texts: list[str], targets: list[Any]) -> dict[str, Any]:
    """Each target by its label: a reference name as typed (``HEAVY_JACK``), a line by its
    unit (``5x Trencher``); a label met again gets `` (2)``, `` (3)``..."""
    from mathhammer.core.game import labelled
    from mathhammer.warmachine.comparisons import target_label

    names = [text.strip() if ":" not in text else target_label(target)
             for text, target in zip(texts, targets)]
    pairs = labelled(list(range(len(targets))), (), "give at least one --target",
                     names.__getitem__)
    return {label: targets[i] for label, i in pairs}


def _add_compare_mode(modes: Any) -> None:
    from mathhammer.cli.compare import add_compare_command

    sub = add_compare_command(
        modes, attacker="ATTACK", attacker_help=_ATTACK_HELP, target_help=_TARGET_HELP,
        description="Warmachine MkIV: each ATTACK on its own against each --target unit, "
                    "under the same rules; prints the grid (expected damage, models "
                    "destroyed, P(hit), P(destroy unit)...); --csv writes the tidy frame, "
                    "--plot a chart (see --chart).",
        metrics="expected_damage, expected_models_destroyed, p_hit, p_unit_destroyed, ...",
        outcomes=PLOT_OUTCOMES,
        sweep_help="also vary one rule switch: tough_allowed=yes,no; stationary_base_def=5,7; "
                   "aoe_miss_coverage=0,0.5; transfer_policy=always,lethal; ...")
    _add_targets_file_option(sub)
    _add_rule_options(sub)
    sub.set_defaults(handler=_run_compare)


def register(subparsers: Any) -> None:
    """Add the ``warmachine`` command and its ``simulate``, ``exact``, ``compare`` and
    ``targets`` modes."""
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
        _add_targets_file_option(sub)
        _add_rule_options(sub)
        if name == "simulate":
            add_monte_carlo_options(sub)
        add_output_options(sub, outcomes=PLOT_OUTCOMES)
        sub.set_defaults(handler=handler)
    _add_compare_mode(modes)
    listing = modes.add_parser("targets", help="list the reference targets (HEAVY_JACK, ...)",
                               description="The reference targets a --target may name, with "
                                           "where their numbers come from.")
    listing.add_argument("--json", action="store_true", help="print one JSON object")
    _add_targets_file_option(listing)
    listing.set_defaults(handler=_run_targets)
