"""``mathhammer datasheet NAME`` and ``mathhammer units``: the datasheets of the user's
BSData checkout as mathhammer reads them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mathhammer.cli.options import positive_int


def register(subparsers: Any) -> None:
    """Add ``datasheet`` and ``units`` to the top-level parser."""
    sheet = subparsers.add_parser(
        "datasheet", help="one datasheet of your BSData checkout as mathhammer reads it (40k)",
        description="Show a unit of your BSData checkout (wh40k-10e XML or wh40k-11e JSON): "
                    "its points, each model kind's statline as a target line and its default "
                    "weapons as weapon lines. Use it anywhere a line goes as '@NAME' or "
                    "'@NAME:SIZE'.")
    sheet.add_argument("name", metavar="NAME", help="the datasheet's name, e.g. 'Necron Warriors'")
    sheet.add_argument("--size", type=positive_int, default=None,
                       help="models in the unit (default: the smallest legal unit)")
    _add_data_options(sheet)
    sheet.add_argument("--json", action="store_true", help="print JSON")
    sheet.set_defaults(handler=_run_datasheet)

    units = subparsers.add_parser(
        "units", help="list the datasheets of your BSData checkout (40k)",
        description="List the datasheets of your BSData checkout, by faction.")
    _add_data_options(units)
    units.add_argument("--find", metavar="TEXT", default=None,
                       help="only names holding TEXT (any case)")
    units.add_argument("--json", action="store_true", help="print JSON")
    units.set_defaults(handler=_run_units)


def _add_data_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="your BSData checkout (default: $MATHHAMMER_DATA)")
    parser.add_argument("--faction", metavar="F", default=None,
                        help="only this faction (any part of its name, any case)")
    parser.add_argument("--legends", action="store_true",
                        help="include Legends datasheets (left out by default)")


def _run_datasheet(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.bsdata.named import open_datasheets

    sheets = open_datasheets(args.data, legends=args.legends)
    sheet = sheets.get(args.name, args.size, args.faction)
    if args.json:
        print(json.dumps(sheet.to_dict(), indent=2, ensure_ascii=False))
        return 0
    lines = [f"{sheet.name} ({sheet.faction}, {sheet.edition}th edition data): "
             f"{sheet.size} model{'s' if sheet.size != 1 else ''}, {sheet.points:g} pts"]
    for model in sheet.models:
        lines.append(f"  {model['count']}x {model['name']}: {model['profile']}")
        lines += [f"      {weapon}" for weapon in model["weapons"]]
    if sheet.notes:
        lines.append("Notes:")
        lines += [f"  - {note}" for note in sheet.notes]
    print("\n".join(lines))
    return 0


def _run_units(args: argparse.Namespace) -> int:
    from mathhammer.wh40k.bsdata.named import open_datasheets

    sheets = open_datasheets(args.data, legends=args.legends)
    found = sheets.find(args.find, args.faction) if args.find is not None \
        else sheets.names(args.faction)
    if sheets.missing_note():   # on stderr: the listing (and its JSON) stays as it was
        print(f"mathhammer: note: {sheets.missing_note()}", file=sys.stderr)
    if args.json:
        print(json.dumps([{"faction": f, "name": n} for f, n in found], indent=2,
                         ensure_ascii=False))
        return 0
    faction = None
    for current, name in found:
        if current != faction:
            print(current)
            faction = current
        print(f"  {name}")
    if not found:
        print("no datasheet matches")
    return 0
