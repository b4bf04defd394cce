"""The buff flags of ``mathhammer simulate``, ``exact`` and ``compare``: ``--buff TEXT``,
``--buffs FILE`` and ``--attribution`` (see :mod:`mathhammer.wh40k.buffs`).

Registering the flags imports nothing numeric (``--help`` stays quick)."""

from __future__ import annotations

import argparse
from typing import Any


def add_buff_arguments(parser: Any, attribution: bool = True, plot: bool = True) -> None:
    """``--buff TEXT`` (repeatable), ``--buffs FILE`` (repeatable) and, with
    ``attribution``, ``--attribution`` (and, with ``plot``, ``--attribution-plot``)."""
    group = parser.add_argument_group("buffs (army rules, stratagems, auras)")
    group.add_argument("--buff", action="append", default=[], metavar="TEXT",
                       help="a named buff, e.g. 'Oath of Moment: re-roll hits (1CP)', "
                            "'[LETHAL HITS] to INFANTRY', 'Bolter drill: [SUSTAINED HITS 1] "
                            "to RANGED weapons when stationary', or the name of a buff of a "
                            "--buffs file; may be repeated (docs/guide/wh40k/buffs.md)")
    group.add_argument("--buffs", action="append", default=[], metavar="FILE",
                       help="TOML file of named buffs ([buffs] table of name = \"text\") "
                            "that --buff NAME refers to; may be repeated")
    if attribution:
        group.add_argument("--attribution", action="store_true",
                           help="also print what each buff is worth: the result with every "
                                "buff minus the result without it (exact when the question "
                                "is), per point of the buff's cost when it has one")
    if attribution and plot:
        group.add_argument("--attribution-plot", metavar="FILE", default=None,
                           help="with --attribution: draw each buff's gain in expected wounds "
                                "lost as a bar chart to FILE (.png or .svg)")


def buffs_from_args(args: argparse.Namespace) -> tuple[Any, ...]:
    """The buffs of ``--buff``, names looked up in the ``--buffs`` files (later files
    override earlier ones)."""
    from mathhammer.errors import OptionError
    from mathhammer.wh40k.buffs import load_buff_file, resolve_buffs

    library: dict[str, Any] = {}
    for path in getattr(args, "buffs", None) or []:
        library.update(load_buff_file(path))
    texts = getattr(args, "buff", None) or []
    if getattr(args, "attribution", False) and not texts:
        raise OptionError("--attribution needs at least one --buff")
    if getattr(args, "attribution_plot", None) and not getattr(args, "attribution", False):
        raise OptionError("--attribution-plot draws the --attribution table: add "
                          "--attribution")
    return resolve_buffs(texts, library)


def report_attribution(args: argparse.Namespace, weapons: Any, target: Any,
                       options: dict[str, Any], result: Any, header: str) -> bool:
    """With ``--attribution``: print the result and what each buff is worth (one JSON
    object with ``--json``), and say so (True); otherwise do nothing (False)."""
    if not getattr(args, "attribution", False):
        return False
    import json

    from mathhammer.cli.options import emit
    from mathhammer.wh40k.buff_attribution import attribution, attribution_text, records

    rest = {k: v for k, v in options.items() if k != "buffs"}
    # exact where the question is exact (also under simulate), else Monte Carlo with the
    # run's own trials and seed for every run
    trials = {"trials": result.trials, "seed": args.seed} if result.trials else {}
    frame = attribution(weapons, target, options["buffs"], method="auto", **trials, **rest)
    if getattr(args, "attribution_plot", None):
        from mathhammer.charts import save
        from mathhammer.wh40k.buff_chart import attribution_chart

        save(attribution_chart(frame, subject=result.subject).ax.figure, args.attribution_plot)
    if getattr(args, "json", False):
        print(json.dumps({**result.to_dict(), "attribution": records(frame)}))
        return True
    emit(result, args, header)
    print()
    print(attribution_text(frame, getattr(args, "digits", 3)))
    return True


def buff_lines(inputs: dict[str, Any]) -> list[str]:
    """``Buffs:`` lines for a result's header: which applied, which did not and why."""
    buffs = inputs.get("buffs")
    if not buffs:
        return []
    lines = []
    if buffs.get("applied"):
        lines.append("Buffs:   " + "; ".join(buffs["applied"]))
    if buffs.get("not_applied"):
        lines.append("Not applied: " + "; ".join(buffs["not_applied"]))
    return lines
