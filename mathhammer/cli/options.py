"""Command-line conventions shared by every game's subcommands.

``--trials``/``--seed`` (with each game's documented default), ``--json``/``--markdown``/
``--csv``/``--plot`` (with each game's outcomes for ``--plot-outcome``), argument types that
refuse bad numbers in one line, and :func:`emit`, which prints a result in the form asked for.
The top-level :mod:`mathhammer.main` only assembles the command tree from the games' ``cli``
modules; the games import these helpers from here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Sequence
from typing import Any, NoReturn

from mathhammer.core.limits import MAX_RUN_SECONDS, MAX_TRIALS
from mathhammer.core.numbers import real_option
from mathhammer.core.trials import DEFAULT_TRIALS
from mathhammer.errors import OptionError

EXIT_OK = 0
EXIT_USAGE = 2

DEFAULT_SEED = 1


class ArgumentParser(argparse.ArgumentParser):
    """argparse with errors raised as :class:`OptionError` so :func:`main` prints one line."""

    def error(self, message: str) -> NoReturn:
        # main() prints "mathhammer: error: "; the command is named in the help hint.
        raise OptionError(f"{message} (see '{self.prog} --help')")


class OnlyOnce(argparse.Action):
    """An option that may be given once: a second one is an error, not a silent override."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if getattr(namespace, self.dest, None) not in (None, self.default):
            hint = ("; to compare several targets use 'mathhammer compare'"
                    if self.dest == "target" else "")
            raise argparse.ArgumentError(self, f"given twice: keep one{hint}")
        setattr(namespace, self.dest, values)


#: Largest value of a whole-number option other than ``--trials`` (a seed fits 64 bits).
MAX_OPTION_VALUE = 2**64 - 1


def _whole_number(text: str, limit: int = MAX_OPTION_VALUE) -> int:
    """``text`` read as a whole number of the digits 0-9 (an optional sign), at most
    ``limit``: ``int()`` would also read ``1_0``, ``_1000`` and ``٣`` (the documented rule for
    every number option: refused)."""
    compact = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", compact):
        raise argparse.ArgumentTypeError(f"'{text:.40}' is not a whole number: write it with "
                                         "the digits 0-9 only (no '_', no other script)")
    if len(compact.lstrip("+-")) > len(str(limit)) or int(compact) > limit:
        raise argparse.ArgumentTypeError(f"{text} is too large: at most {limit:,}")
    return int(compact)


def positive_int(text: str) -> int:
    """argparse type: an integer from 1 to :data:`~mathhammer.core.limits.MAX_TRIALS`
    (``--trials 0`` is an error)."""
    value = _whole_number(text, MAX_TRIALS)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be at least 1")
    return value


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    value = _whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} must not be negative")
    return value


def trials_or_auto(text: str) -> int | str:
    """argparse type: a whole number of trials >= 1, or ``auto``."""
    return "auto" if text.strip().lower() == "auto" else positive_int(text)


def add_monte_carlo_options(parser: argparse.ArgumentParser, *, allow_auto: bool = False,
                            default_trials: int = DEFAULT_TRIALS,
                            trials_help: str = "Monte Carlo trials") -> None:
    """``--trials``, ``--seed`` and ``--quiet``, shared by every Monte Carlo command.

    With ``allow_auto``, ``--trials auto`` and ``--target-stderr X`` run until the headline
    figures reach a standard error instead of a fixed number of trials. ``default_trials``
    is the command's documented default (each engine's API default), ``trials_help`` names
    what one trial is.
    """
    if allow_auto:
        parser.add_argument("--trials", type=trials_or_auto, default=default_trials,
                            help=f"{trials_help} (default {default_trials:,}), or 'auto': "
                                 "stop when the headline figures are precise enough")
        parser.add_argument("--target-stderr", type=real_option(0.0, 1e9), default=None,
                            metavar="X",
                            help="run until the headline figures (mean outcomes) have a "
                                 "standard error of at most X (implies --trials auto)")
    else:
        parser.add_argument("--trials", type=positive_int, default=default_trials,
                            help=f"{trials_help} (default {default_trials:,})")
    parser.add_argument("--seed", type=non_negative_int, default=DEFAULT_SEED,
                        help=f"random seed; the same seed gives the same result "
                             f"(default {DEFAULT_SEED})")
    parser.add_argument("--allow-long", action="store_true",
                        help="take a Monte Carlo run estimated at more than "
                             f"{MAX_RUN_SECONDS / 60:.0f} minutes (refused otherwise, "
                             "saying the estimate)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar (one shows on stderr, when it is a terminal, "
                             "for work that takes more than a couple of seconds)")


def output_file(text: str) -> str:
    """argparse type: a regular file or a new one in an existing folder, never a pipe, device
    or folder (see :func:`~mathhammer.core.files.check_output_path`)."""
    from mathhammer.core.files import NotAFile, check_output_path

    try:
        check_output_path(text)
    except NotAFile as exc:
        raise argparse.ArgumentTypeError(f"'{text}': {exc}") from None
    return text


#: The options that name a file a command writes.
OUTPUT_OPTIONS = ("csv", "plot", "to_scenario", "attribution_plot")
#: What a command reads out of a folder it is given (``meta``'s rosters, ``--data``'s BSData).
FOLDER_INPUTS = (".ros", ".rosz", ".json", ".cat", ".catz", ".gst", ".gstz")


def refuse_overwriting_inputs(args: argparse.Namespace) -> None:
    """Refuse an output option naming a file the same command reads.

    ``run sc.toml --csv sc.toml`` or ``roster r.ros --to-scenario r.ros`` would replace the
    input with the output; so would ``meta FOLDER --csv FOLDER/list.json``.

    Raises
    ------
    OptionError
        Naming the option, the file and what to give instead.
    """
    values = vars(args)
    inputs = [path for key, value in values.items() if key not in OUTPUT_OPTIONS
              for path in _path_words(value)]
    for key in OUTPUT_OPTIONS:
        out = values.get(key)
        if not isinstance(out, str) or not os.path.isfile(out):
            continue
        if any(_reads(source, out) for source in inputs):
            from mathhammer.core.limits import shown

            option = "--" + key.replace("_", "-")
            raise OptionError(f"{option} '{shown(out)}' is a file this command reads: writing "
                              f"it would replace that input; give {option} another file name")


def _path_words(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def _reads(source: str, out: str) -> bool:
    """Whether reading ``source`` (a file, or a folder's rosters or data) reads ``out``."""
    try:
        if os.path.isfile(source):
            return os.path.samefile(source, out)
        return (os.path.isdir(source) and out.lower().endswith(FOLDER_INPUTS)
                and os.path.samefile(os.path.dirname(os.path.abspath(out)), source))
    except (OSError, ValueError):
        return False


def chart_path(text: str) -> str:
    """argparse type: a file name ending in .png, .svg or .pdf (an :func:`output_file`)."""
    suffix = text.lower().rsplit(".", 1)[-1] if "." in text else ""
    if suffix not in ("png", "svg", "pdf"):
        raise argparse.ArgumentTypeError(f"'{text}': give a .png, .svg or .pdf file name")
    return output_file(text)


#: Largest --dpi (a 7 x 4.2 in chart at 1200 dpi is 8400 x 5040 px).
MAX_DPI = 1200
#: Range of each side of --size, in inches.
SIZE_RANGE = (1.0, 40.0)


def dpi_value(text: str) -> int:
    """argparse type for ``--dpi``: a whole number of dots per inch from 20 to
    :data:`MAX_DPI`."""
    value = _whole_number(text, MAX_DPI)
    if not 20 <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"{value} is not a resolution from 20 to {MAX_DPI} "
                                         "dots per inch (e.g. --dpi 300)")
    return value


def size_value(text: str) -> tuple[float, float]:
    """argparse type for ``--size WxH``: width and height in inches, e.g. ``7x4.2``."""
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*[xX×]\s*([0-9]*\.?[0-9]+)\s*", text)
    low, high = SIZE_RANGE
    if not match:
        raise argparse.ArgumentTypeError(f"'{text}' is not WIDTHxHEIGHT in inches: write "
                                         "e.g. --size 7x4.2")
    width, height = float(match.group(1)), float(match.group(2))
    if not (low <= width <= high and low <= height <= high):
        raise argparse.ArgumentTypeError(f"'{text}': each side must be from {low:g} to "
                                         f"{high:g} inches, e.g. --size 7x4.2")
    return width, height


def digits_value(text: str) -> int:
    """argparse type for ``--digits``: significant figures from 1 to 6."""
    from mathhammer.report.tables import MAX_DIGITS

    value = _whole_number(text, MAX_DIGITS)
    if not 1 <= value <= MAX_DIGITS:
        raise argparse.ArgumentTypeError(f"{value} is not a number of significant figures "
                                         f"from 1 to {MAX_DIGITS} (e.g. --digits 3)")
    return value


def add_output_options(parser: argparse.ArgumentParser, *,
                       outcomes: Sequence[str] = ()) -> None:
    """``--json``/``--markdown``, ``--csv FILE`` and ``--plot FILE``, shared by every command,
    with the chart's ``--dpi``, ``--size WxH`` and ``--title`` and the tables' ``--digits``
    and ``--caption``.

    ``--json`` prints exactly one JSON object and nothing else; ``--markdown`` prints
    Markdown tables for articles instead of the plain table. ``--csv`` and ``--plot`` write
    files in addition to what is printed. ``outcomes`` are the game's outcomes that
    ``--plot-outcome`` offers (the first is the default); without them there is no
    ``--plot-outcome``.
    """
    output = parser.add_argument_group("output")
    form = output.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true",
                      help="print exactly one JSON object instead of a table")
    form.add_argument("--markdown", action="store_true",
                      help="print Markdown tables (for articles) instead of a plain table")
    output.add_argument("--digits", type=digits_value, default=3,
                        help="significant figures of --markdown tables, 1-6 (default 3; "
                             "Monte Carlo values never more than their standard error "
                             "supports)")
    output.add_argument("--caption", action="store_true",
                        help="with --markdown: a caption line (metric, engine, trials, seed, "
                             "situation) above each table")
    output.add_argument("--csv", metavar="FILE", type=output_file,
                        help="also write the tidy table (one row per value) as CSV to FILE")
    output.add_argument("--plot", metavar="FILE", type=chart_path,
                        help="also draw a chart to FILE (.png, .svg or .pdf)")
    if outcomes:
        names = ", ".join(outcomes[1:])
        output.add_argument("--plot-outcome", metavar="OUTCOME", default=outcomes[0],
                            help=f"what --plot draws: {outcomes[0]} (default)"
                                 + (f", or {names}" if names else ""))
    output.add_argument("--dpi", type=dpi_value, default=None,
                        help="resolution of a --plot PNG in dots per inch (default 150)")
    output.add_argument("--size", type=size_value, default=None, metavar="WxH",
                        help="size of the --plot chart in inches, e.g. 7x4.2 (default: the "
                             "chart's own, grown to fit its labels); the chart is laid out "
                             "inside it")
    output.add_argument("--title", default=None, metavar="TEXT",
                        help="title of the --plot chart (default: what was computed)")


def save_chart(art: Any, args: argparse.Namespace) -> None:
    """Write a chart to ``--plot``: at ``--size`` (laid out inside it) and ``--dpi``."""
    from mathhammer.charts.layout import DPI, resize, save

    size = getattr(args, "size", None)
    if size is not None:
        resize(art, size)
    save(art, args.plot, dpi=getattr(args, "dpi", None) or DPI)


def emit(result: Any, args: argparse.Namespace, header: str = "") -> None:
    """Write ``--csv``/``--plot`` files, then print JSON, Markdown or a readable table."""
    csv_path = getattr(args, "csv", None)
    plot_path = getattr(args, "plot", None)
    if plot_path:
        save_chart(result.plot(getattr(args, "plot_outcome", "damage"),
                               **({"title": args.title} if getattr(args, "title", None)
                                  else {})), args)
    if csv_path:
        result.to_frame().to_csv(csv_path, index=False)
    if getattr(args, "json", False):
        print(json.dumps(result.to_dict()))
    elif getattr(args, "markdown", False):
        if header:
            print("\n".join(_markdown_item(line) for line in header.splitlines()))
            print()
        print(_markdown(result, args))
    else:
        if header:
            print(header)
        print(result.to_text())


def _markdown(result: Any, args: argparse.Namespace) -> str:
    """A result's Markdown (its caption line always leads) at ``--digits``."""
    return result.to_markdown(digits=getattr(args, "digits", 3))


def _markdown_item(line: str) -> str:
    label, sep, value = line.partition(":")
    return f"- {label}: `{value.strip()}`" if sep and value.strip() else f"- {line}"
