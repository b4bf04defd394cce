"""The ``mathhammer`` program: the command tree and :func:`main`, its entry point.

Each game registers its subcommands through a ``register(subparsers)`` function in its own
``cli`` module, built from the shared options in :mod:`mathhammer.cli.options`; this
module only assembles the command tree and handles errors (one line on stderr, exit status 2,
never a traceback for bad input).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import Any

from mathhammer.cli.options import (EXIT_OK, EXIT_USAGE, ArgumentParser,
                                    refuse_overwriting_inputs)
from mathhammer.errors import MathhammerError, command_line_words, did_you_mean

#: Each command and the module whose ``register(subparsers)`` adds it, in ``--help`` order.
COMMAND_MODULES: dict[str, str] = {
    "simulate": "mathhammer.wh40k.cli", "exact": "mathhammer.wh40k.cli",
    "run": "mathhammer.wh40k.scenario.cli", "compare": "mathhammer.wh40k.compare_cli",
    "roster": "mathhammer.wh40k.roster.cli", "meta": "mathhammer.wh40k.roster.meta_cli",
    "optimise": "mathhammer.wh40k.optimise.cli",
    "datasheet": "mathhammer.wh40k.bsdata.cli", "units": "mathhammer.wh40k.bsdata.cli",
    "warmachine": "mathhammer.warmachine.cli", "dust": "mathhammer.dust.cli",
    "warmup": "mathhammer.precompile", "serve": "mathhammer.web.cli",
}


def build_parser(command: str | None = None) -> ArgumentParser:
    """The command tree: every command, or only ``command`` (one of :data:`COMMAND_MODULES`)
    when the caller knows which will run. A command line that runs ``exact`` need not import
    and build the other ten (about a third of a warm ``exact``'s own time)."""
    parser = ArgumentParser(
        prog="mathhammer",
        description="Exact and Monte Carlo attack statistics for tabletop wargames.")
    parser.add_argument("--version", action=_VersionAction,
                        help="print the installed version (from the package metadata) and exit")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                       parser_class=ArgumentParser)
    modules = ([COMMAND_MODULES[command]] if command in COMMAND_MODULES
               else dict.fromkeys(COMMAND_MODULES.values()))
    for module_name in modules:
        _register_optional(subparsers, module_name)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: reads the package metadata only when asked (argparse's own action needs
    the text when the parser is built)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"mathhammer {version()}")   # to stdout, as argparse's own action does
        parser.exit()


def version() -> str:
    """The installed version, from the package metadata (``pyproject.toml``'s version).

    Falls back to ``mathhammer.__version__`` when the package runs from a source tree that
    was never installed.
    """
    from importlib import metadata

    try:
        return metadata.version("mathhammer")
    except metadata.PackageNotFoundError:
        from mathhammer import __version__

        return __version__


def _register_optional(subparsers: Any, module_name: str) -> None:
    import importlib

    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return
        raise
    module.register(subparsers)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        parser = build_parser(_command_word(words))
        args = _parse(parser, words)
        refuse_overwriting_inputs(args)
        handler: Callable[[argparse.Namespace], int | None] = args.handler
        with contextlib.ExitStack() as stack:
            if getattr(args, "quiet", False):  # --quiet: no progress bars anywhere
                from mathhammer.core.progress import quiet

                stack.enter_context(quiet())
            if getattr(args, "data", None) is not None:  # --data: the checkout for @Name
                from mathhammer.wh40k.bsdata.named import using_data

                stack.enter_context(using_data(args.data))
            if getattr(args, "allow_long", False):  # --allow-long: no run-time estimate cap
                from mathhammer.core.limits import allow_long_runs

                stack.enter_context(allow_long_runs())
            status = handler(args)
        return status or EXIT_OK
    except MathhammerError as exc:
        print(f"mathhammer: error: {_one_line(command_line_words(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, as other command-line tools do.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:
        print(f"mathhammer: error: {_one_line(str(exc))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def command_line() -> int:
    """The ``mathhammer`` program (``python -m mathhammer`` too): :func:`main` for this
    process's own arguments, without three start-up costs a one-shot process need not pay.

    - numba's cffi support and other packages' numba extensions are left out
      (:func:`~mathhammer.core.numba_startup.for_this_package_only`);
    - the garbage collector waits :data:`COLLECT_GARBAGE_AFTER` seconds: importing numba
      and readying its registries makes hundreds of collections walk its objects (60-90 ms
      of a warm ``simulate``), none of which is garbage. A command that runs longer
      collects as always from then on, its start-up objects set aside (``gc.freeze``);
    - at the end everything alive is set aside likewise: the interpreter's last
      collections would otherwise walk numba's registries, about 0.3 s of every warm
      command's exit.

    Tests and Python callers use :func:`main`, which changes none of this.
    """
    import gc
    import threading

    from mathhammer.core.numba_startup import for_this_package_only

    leftover = _leftover_folder()
    if leftover is not None:
        print(f"mathhammer: error: the folder {leftover} (left by an earlier installation: "
              "numba's cache files, which pip does not remove) hides this installation; "
              f"delete it (rm -r '{leftover}') and run again", file=sys.stderr)
        return EXIT_USAGE
    for_this_package_only()
    gc.disable()
    collector = threading.Timer(COLLECT_GARBAGE_AFTER, _collect_from_now_on)
    collector.daemon = True
    collector.start()
    try:
        return main()
    finally:
        collector.cancel()
        _collect_from_now_on()


def _leftover_folder() -> str | None:
    """The folder that made ``mathhammer`` an empty namespace package, if one did.

    Versions up to 0.1.0 let numba cache kernels inside the installed package; ``pip
    uninstall`` leaves such files, and their folder, which Python then imports as
    ``mathhammer`` ahead of a later editable install: its modules still load (the editable
    finder), but the package's own ``__init__`` never runs.
    """
    package = sys.modules.get("mathhammer")
    if package is None or getattr(package, "__file__", None) is not None:
        return None
    return next(iter(getattr(package, "__path__", [])), None)


#: Seconds a command runs before the garbage collector starts (:func:`command_line`).
COLLECT_GARBAGE_AFTER = 1.0


def _collect_from_now_on() -> None:
    """Set everything alive aside from the garbage collector, and turn it back on."""
    import gc

    gc.freeze()
    gc.enable()


def _command_word(words: list[str]) -> str | None:
    """The command ``words`` run, or None when an option comes first (``--help``,
    ``--version``: the whole tree answers)."""
    return words[0] if words and not words[0].startswith("-") else None


def _parse(parser: ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """``parser.parse_args``, with a did-you-mean for a misspelt option."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = _command_parser(parser, argv)
        known = [o for action in command._actions for o in action.option_strings]
        word = next((u for u in unknown if u.startswith("--")), unknown[0])
        hint = did_you_mean(word.split("=", 1)[0], known) if word.startswith("-") else ""
        command.error(f"unrecognized arguments: {' '.join(unknown)}{hint}")
    return args


def _command_parser(parser: argparse.ArgumentParser,
                    argv: list[str]) -> argparse.ArgumentParser:
    """The (sub)command parser that ``argv`` selects, following command words."""
    current = parser
    for word in argv:
        choices = next((a.choices for a in current._actions
                        if isinstance(a, argparse._SubParsersAction)), None)
        if choices and word in choices:
            current = choices[word]
    return current


def _one_line(text: str) -> str:
    """``text`` on one line, each control character written as its escape (a file name
    holding ``ESC`` is quoted in many messages and must not reach the terminal raw)."""
    from mathhammer.core.limits import shown

    return " ".join(shown(word) for word in text.split())


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
