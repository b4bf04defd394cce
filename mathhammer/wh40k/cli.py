"""``mathhammer simulate`` and ``mathhammer exact``: one unit's weapons against one target."""

from __future__ import annotations

import argparse
import re
from typing import Any

from mathhammer.cli.options import (ArgumentParser, OnlyOnce, add_monte_carlo_options,
                                    add_output_options, emit)
from mathhammer.core.numbers import int_option
from mathhammer.errors import OptionError
from mathhammer.wh40k.buff_cli import add_buff_arguments, buff_lines, buffs_from_args
from mathhammer.wh40k.profiles import EDITIONS, REROLL_POLICIES

_REROLL_CHOICES = [p for p in REROLL_POLICIES if p != "none"]
#: What ``--plot`` can draw, default first.
PLOT_OUTCOMES = ("damage", "models_destroyed", "attacker_mortal_wounds")
#: What ``simulate --sampler`` takes, default first.
SAMPLERS = ("auto", "kernel", "exact-draws")


def register(subparsers: Any) -> None:
    """Add the 40k subcommands to the top-level parser."""
    simulate = subparsers.add_parser(
        "simulate", help="Monte Carlo distribution of damage and models destroyed (40k)",
        description="Roll the attack sequence many times: WEAPON_LINEs against --target.")
    _add_attack_arguments(simulate)
    add_monte_carlo_options(simulate, allow_auto=True)
    simulate.add_argument(
        "--sampler", choices=SAMPLERS, default="auto",
        help="what draws the trials: 'kernel', numba's simulation kernel; 'exact-draws', "
             "outcomes drawn from the exact distribution (the same law, other bits; only "
             "for one group of identical models without a Command Re-roll); 'auto' "
             "(default): the kernel, except on a first run whose kernel is not compiled yet, "
             "where exact draws answer at once when they can while the kernel compiles in "
             "the background. The output names the sampler that answered")
    add_output_options(simulate, outcomes=PLOT_OUTCOMES)
    simulate.set_defaults(handler=_run_simulate)

    exact = subparsers.add_parser(
        "exact", help="exact distribution of damage and models destroyed (40k)",
        description="Compute the exact distribution: WEAPON_LINEs against --target.")
    _add_attack_arguments(exact)
    add_output_options(exact, outcomes=PLOT_OUTCOMES)
    exact.set_defaults(handler=_run_exact)


def _add_attack_arguments(parser: ArgumentParser) -> None:
    parser.add_argument("weapons", nargs="+", metavar="WEAPON_LINE",
                        help='e.g. \'10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]\'; '
                             "several lines are resolved in order against the same unit")
    parser.add_argument("--target", required=True, action=OnlyOnce, metavar="TARGET_LINE",
                        help="e.g. '5x Intercessor: T4 Sv3+ W2 [INFANTRY]', or a reference "
                             "profile such as MEQ, '10x GEQ', KEQ")
    add_targets_file_option(parser)
    add_situation_arguments(parser, edition_default=None)
    parser.set_defaults(edition_follows_data=True)
    add_buff_arguments(parser)


def add_targets_file_option(parser: ArgumentParser) -> None:
    """``--targets-file FILE``: extra or overriding reference target profiles (TOML); and
    ``--data DIR``, the BSData checkout that ``@Name`` lines are read from."""
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="your BSData checkout (wh40k-10e or wh40k-11e) for @Name lines "
                             "(default: $MATHHAMMER_DATA)")
    parser.add_argument("--targets-file", metavar="FILE", action="append", default=[],
                        help="TOML file of your own target profiles, usable by name in "
                             "--target (adds to / overrides the built-in MEQ, TEQ, ...); "
                             "may be repeated")


def target_from_args(text: str, args: argparse.Namespace) -> Any:
    """Resolve a ``--target`` value with the built-in profiles plus any ``--targets-file``."""
    from mathhammer.wh40k.targets import load_targets, resolve_target

    from mathhammer.wh40k.api import named_target

    files = getattr(args, "targets_file", None) or []
    edition = rules_edition(args)
    return resolve_target(named_target(text), load_targets(*files) if files else None, edition)


def rules_edition(args: argparse.Namespace) -> int:
    """The rules edition of a command: ``--edition``; else, for a command whose edition
    follows its data (``edition_follows_data``), the edition of the BSData data the first
    ``@Name`` line comes from (10th-edition datasheets are read by 10th's rules, as a
    10th-edition roster is); else 11. Kept in ``args.edition``."""
    if getattr(args, "edition", None) is None:
        args.edition = _data_edition(args) if getattr(args, "edition_follows_data", False) \
            else None
    return args.edition or 11


def _data_edition(args: argparse.Namespace) -> int | None:
    from mathhammer.wh40k.api import datasheet_edition

    targets = args.target if isinstance(args.target, list) else [args.target]
    return datasheet_edition([*(getattr(args, "weapons", None) or []), *targets], None)


def edition_type(text: str) -> int:
    """argparse type for ``--edition``: one of :data:`~mathhammer.wh40k.profiles.EDITIONS`."""
    supported = ", ".join(str(e) for e in EDITIONS)
    word = text.strip().lower().removesuffix("e").removesuffix("th")
    value = int(word) if re.fullmatch("[0-9]{1,3}", word) else None
    if value not in EDITIONS:
        raise argparse.ArgumentTypeError(f"edition '{text}' is not supported; the supported "
                                         f"editions are {supported}")
    return value


def add_edition_argument(parser: ArgumentParser, default: int | None = 11) -> None:
    """``--edition {10,11}``: which edition's rules resolve the attacks (``default`` None:
    the input's own, a roster's or the BSData data's of ``@Name`` lines)."""
    parser.add_argument("--edition", type=edition_type, default=default, metavar="{10,11}",
                        help="rules edition: 11 (default) or 10 (the 10th-edition rules: "
                             "cover on the armour save, Stealth -1 to hit, mandatory [LETHAL "
                             "HITS], ... see docs/guide/wh40k/editions.md)"
                        if default is not None else
                        "rules edition 10 or 11, overriding the input's own (a roster's; "
                        "the BSData data's when a line is @Name; else 11)")


def add_situation_arguments(parser: ArgumentParser, edition_default: int | None = 11) -> None:
    """The situation, modifier and rule-switch flags (read back by :func:`options_from_args`).

    ``edition_default=None`` leaves the edition to the input (a roster's own edition)."""
    _add_situation_flags(parser.add_argument_group("situation"))
    _add_modifier_flags(parser.add_argument_group("modifiers"))
    _add_rule_switches(parser.add_argument_group("rule switches (points the rules leave open)"),
                       edition_default)


def _add_situation_flags(situation: Any) -> None:
    situation.add_argument("--half-range", action="store_true",
                           help="target within half range ([RAPID FIRE], [MELTA])")
    situation.add_argument("--charged", action="store_true",
                           help="the attacking unit charged this turn ([LANCE])")
    situation.add_argument("--stationary", action="store_true",
                           help="no attacking model moved more than 3\" ([HEAVY])")
    situation.add_argument("--cover", action="store_true",
                           help="target has the benefit of cover (BS worsened by 1)")
    situation.add_argument("--indirect", action="store_true",
                           help="indirect shooting with [INDIRECT FIRE] weapons")
    situation.add_argument("--spotted", action="store_true",
                           help="with --indirect: a friendly unit sees the target")
    situation.add_argument("--overwatch", action="store_true",
                           help="snap shooting: hits only on an unmodified 6")
    situation.add_argument("--advanced", action="store_true",
                           help="the unit advanced: only [ASSAULT] weapons may shoot")
    situation.add_argument("--beyond-12", action="store_true",
                           help="the target is more than 12\" away ([CONVERSION], 10th "
                                "edition)")
    situation.add_argument("--below-half-strength", action="store_true",
                           help="the attacking unit is below half strength (a buff "
                                "condition: 'when below half strength')")
    situation.add_argument("--attacker-monster-vehicle", action="store_true",
                           help="every attacking model is a MONSTER or VEHICLE (hazard: 3 MW)")


def _add_modifier_flags(mods: Any) -> None:
    mods.add_argument("--hit-mod", type=int_option(), default=0, metavar="N",
                      help="+N/-N to hit rolls (net roll modifiers are capped at +-1)")
    mods.add_argument("--wound-mod", type=int_option(), default=0, metavar="N",
                      help="+N/-N to wound rolls (capped at +-1)")
    mods.add_argument("--skill-mod", type=int_option(), default=0, metavar="N",
                      help="improve (N>0) or worsen (N<0) BS/WS; not capped, clamped 2+..6+")
    mods.add_argument("--strength-mod", type=int_option(), default=0, metavar="N", help="+N to S")
    mods.add_argument("--reroll-hits", choices=_REROLL_CHOICES, default="none")
    mods.add_argument("--reroll-wounds", choices=_REROLL_CHOICES, default="none")
    mods.add_argument("--reroll-saves", choices=["ones", "failed", "all"], default="none",
                      help="the defender's save re-rolls")
    mods.add_argument("--crit-hits", type=int_option(), default=6, metavar="N",
                      help="critical hits on N+ (default 6)")
    mods.add_argument("--crit-wounds", type=int_option(), default=6, metavar="N",
                      help="critical wounds on N+ (default 6)")
    mods.add_argument("--ap-mod", type=int_option(), default=0, metavar="N",
                      help="improve AP by N (AP-1 becomes AP-2); negative N worsens it")
    mods.add_argument("--save-mod", type=int_option(), default=0, metavar="N",
                      help="+N/-N to the defender's save rolls (10th edition: never more "
                           "than +1 in total, cover included)")
    mods.add_argument("--damage-plus", type=int_option(), default=0, metavar="N",
                      help="attacker's +N damage")
    mods.add_argument("--damage-minus", type=int_option(), default=0, metavar="N",
                      help="defender's -N damage (at least 1 remains)")
    mods.add_argument("--damage-halved", action="store_true",
                      help="defender halves damage (rounded up)")
    mods.add_argument("--fnp", type=int_option(), default=None, metavar="N",
                      help="Feel No Pain N+ against all damage (overrides the target line)")
    mods.add_argument("--fnp-mortal", type=int_option(), default=None, metavar="N",
                      help="Feel No Pain N+ against mortal wounds only")
    mods.add_argument("--command-reroll",
                      choices=["hit", "wound", "damage", "save", "damage_best"],
                      default="none",
                      help="one Command Re-roll per activation, on the first hit, wound or "
                           "save roll that fails, or Damage roll below average; damage_best: "
                           "on the Damage roll where it gains most (exact only; the policy "
                           "is printed)")
    mods.add_argument("--fnp-psychic", type=int_option(), default=None, metavar="N",
                      help="Feel No Pain N+ against psychic attacks only ([PSYCHIC] weapons)")
    mods.add_argument("--reroll-damage", choices=["ones", "low", "best"], default="none",
                      help="re-roll a random Damage roll, per attack: its lowest result (ones), "
                           "any result below the dice's average (low), or as the state of the "
                           "target makes best (best: exact only; the policy is printed)")
    mods.add_argument("--reroll-goal", choices=["models_destroyed", "damage", "unit_destroyed"],
                      default="models_destroyed",
                      help="what --reroll-damage best maximises: mean models destroyed "
                           "(default), mean wounds lost, or the chance the unit is destroyed")
    mods.add_argument("--reroll-attacks", choices=["ones", "low"], default="none",
                      help="re-roll a random Attacks roll, per weapon: ones or low (as "
                           "--reroll-damage)")


def _add_rule_switches(rules: Any, edition_default: int | None) -> None:
    add_edition_argument(rules, edition_default)
    rules.add_argument("--devastating-text", choices=["final", "launch"], default="final",
                       help="10th edition: [DEVASTATING WOUNDS] final text (default: one "
                            "model, after all attacks) or launch text (mortal wounds spill)")
    rules.add_argument("--lethal-policy", choices=["always", "never", "ev"], default="always",
                       help="take [LETHAL HITS] automatic wounds: always (default), never, or "
                            "when it gives more expected damage (ev)")
    rules.add_argument("--no-roll-cap", action="store_true",
                       help="do not cap net hit/wound roll modifiers at +-1")
    rules.add_argument("--dw-timing", choices=["batch", "unit_end"], default="batch",
                       help="[DEVASTATING WOUNDS] mortal wounds after each batch (default) or "
                            "after all batches")
    rules.add_argument("--damage-mod-trigger", choices=["allocation", "target"],
                       default="allocation",
                       help="the defender's damage reduction triggers on allocation (default; "
                            "then it does not reduce [DEVASTATING WOUNDS]) or on being targeted")
    rules.add_argument("--cmd-reroll-multi-dice", choices=["one_die", "all"], default="one_die",
                       help="--command-reroll damage on a roll of several dice (2D6): re-roll "
                            "the lowest die (default) or the whole roll")


#: The buff flags; any of them given, the buffs are read (and refused when incomplete), so
#: ``--attribution-plot`` without ``--attribution`` or a broken ``--buffs`` file is never
#: silently ignored.
_BUFF_FLAGS = ("buff", "buffs", "attribution", "attribution_plot")


def options_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword options of :func:`mathhammer.simulate` from parsed flags."""
    options = {
        "half_range": args.half_range, "charged": args.charged, "stationary": args.stationary,
        "cover": args.cover, "indirect": args.indirect, "spotted": args.spotted,
        "overwatch": args.overwatch, "advanced": args.advanced, "beyond_12": args.beyond_12,
        "below_half_strength": args.below_half_strength,
        "attacker_monster_vehicle": args.attacker_monster_vehicle,
        "hit_mod": args.hit_mod, "wound_mod": args.wound_mod, "skill_mod": args.skill_mod,
        "strength_mod": args.strength_mod, "reroll_hits": args.reroll_hits,
        "reroll_wounds": args.reroll_wounds, "reroll_saves": args.reroll_saves,
        "crit_hits": args.crit_hits, "crit_wounds": args.crit_wounds, "ap_mod": args.ap_mod,
        "save_mod": args.save_mod,
        "damage_plus": args.damage_plus, "damage_minus": args.damage_minus,
        "damage_halved": args.damage_halved, "fnp": args.fnp, "fnp_mortal": args.fnp_mortal,
        "reroll_damage": args.reroll_damage, "reroll_attacks": args.reroll_attacks,
        "reroll_goal": args.reroll_goal,
        "fnp_psychic": args.fnp_psychic, "command_reroll": args.command_reroll,
        "lethal_policy": args.lethal_policy, "roll_mod_cap": not args.no_roll_cap,
        "dw_timing": args.dw_timing, "damage_mod_trigger": args.damage_mod_trigger,
        "devastating_text": args.devastating_text,
        "cmd_reroll_multi_dice": args.cmd_reroll_multi_dice,
    }
    if rules_edition(args) != 11 or args.edition is not None:
        options["edition"] = rules_edition(args)
    if any(getattr(args, name, None) for name in _BUFF_FLAGS):
        options["buffs"] = buffs_from_args(args)
    if args.crit_hits != 6 and args.overwatch:
        raise OptionError("--crit-hits has no effect in overwatch (snap shooting hits and "
                          "crits only on an unmodified 6); drop one of the two flags")
    return options


def _header(result: Any) -> str:
    lines = [f"Rules:   {result.inputs['rules']['edition']}th edition",
             f"Target:  {result.inputs['target']}"]
    for i, weapon in enumerate(result.inputs["weapons"], 1):
        lines.append(f"Weapon {i}: {weapon}")
    return "\n".join(lines + buff_lines(result.inputs))


def weapons_from_args(lines: list[str], args: argparse.Namespace) -> list[str]:
    """The WEAPON_LINEs, with ``@Name`` asking for the unit's melee weapons when the unit
    charged (``--charged``) unless the line says ``:ranged``."""
    if not getattr(args, "charged", False):
        return lines
    return [f"{line}:melee" if line.lstrip().startswith("@") and not line.rstrip().lower()
            .endswith((":melee", ":ranged")) else line for line in lines]


def _run_simulate(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.api import simulate
    from mathhammer.wh40k.buff_cli import report_attribution

    if args.target_stderr is not None and not args.target_stderr > 0:
        raise OptionError(f"--target-stderr {args.target_stderr} must be positive, e.g. 0.01")
    weapons = weapons_from_args(args.weapons, args)
    target, options = target_from_args(args.target, args), options_from_args(args)
    result = _drawn_from_exact(args, weapons, target, options)
    if result is None:
        result = simulate(weapons, target, trials=args.trials, seed=args.seed,
                          target_stderr=args.target_stderr, **options)
    if not report_attribution(args, weapons, target, options, result, _header(result)):
        emit(result, args, _header(result))
    return 0


def _drawn_from_exact(args: argparse.Namespace, weapons: list[str], target: Any,
                      options: dict[str, Any]) -> Any:
    """The answer drawn from the exact distribution when ``--sampler`` asks for it, or when
    ``auto`` meets a kernel not compiled yet (its compile then starts in the background);
    None when the kernel answers."""
    from mathhammer.wh40k import first_answer

    if args.sampler == "kernel":
        return None
    fixed_trials = isinstance(args.trials, int) and args.target_stderr is None
    if args.sampler == "auto" and (not fixed_trials or first_answer.kernels_compiled()):
        return None
    if not fixed_trials:
        raise OptionError("--sampler exact-draws draws a fixed number of trials: give "
                          "--trials N, or leave out --target-stderr and --trials auto")
    result = first_answer.simulate_from_exact(weapons, target, trials=args.trials,
                                              seed=args.seed, **options)
    if result is None and args.sampler == "exact-draws":
        raise OptionError("--sampler exact-draws: the exact engine does not solve this attack "
                          "as one chain (several model groups, or a Command Re-roll); use "
                          "--sampler kernel")
    if result is not None and args.sampler == "auto":
        from mathhammer.core.background_compile import compile_in_background

        compile_in_background(["40k"])
        _note("mathhammer: first run: drawn from the exact distribution while the "
                 "simulation kernel compiles in the background; later runs use the kernel")
    return result


def _note(line: str) -> None:
    """``line`` on stderr when it is a terminal and no ``--quiet`` is given (never on stdout
    or in JSON)."""
    import sys

    from mathhammer.core.progress import is_quiet, stderr_is_terminal

    if stderr_is_terminal() and not is_quiet():
        print(line, file=sys.stderr)


def _run_exact(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.api import exact
    from mathhammer.wh40k.buff_cli import report_attribution

    weapons, target = weapons_from_args(args.weapons, args), target_from_args(args.target, args)
    options = options_from_args(args)
    result = exact(weapons, target, **options)
    if options["reroll_damage"] == "best" or options["command_reroll"] == "damage_best":
        _report_best_rerolls(args, weapons, target, options, result)
    elif not report_attribution(args, weapons, target, options, result, _header(result)):
        emit(result, args, _header(result))
    return 0


def _report_best_rerolls(args: argparse.Namespace, weapons: list[str], target: Any,
                         options: dict[str, Any], result: Any) -> None:
    """The result, then the best Damage re-roll policy as tables and its gain over the
    fixed policies (one JSON object with ``--json``)."""
    import json

    from mathhammer.wh40k.damage_policy import best_damage_rerolls

    if getattr(args, "attribution", False):
        raise OptionError("--attribution with --reroll-damage best: ask one of the two")
    rest = {k: v for k, v in options.items()
            if k not in ("reroll_damage", "reroll_goal", "command_reroll")}
    policy = best_damage_rerolls(weapons, target, goal=options["reroll_goal"],
                                 command=options["command_reroll"] == "damage_best", **rest)
    if getattr(args, "json", False):
        print(json.dumps({**result.to_dict(), "damage_rerolls": policy.to_dict()}))
        return
    emit(result, args, _header(result))
    print()
    print(policy.text(getattr(args, "digits", 3)))
