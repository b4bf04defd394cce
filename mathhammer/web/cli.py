"""``mathhammer serve``: the local web page (:mod:`mathhammer.web`).

Registering the command needs nothing beyond mathhammer itself, so ``serve`` without the
``web`` extra installed answers with one line naming the extra to install.
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import Any

from mathhammer.errors import OptionError

#: What the page needs beyond mathhammer's own dependencies (import name: package name).
WEB_PACKAGES = {"starlette": "starlette", "uvicorn": "uvicorn", "jinja2": "jinja2",
                "python_multipart": "python-multipart"}
DEFAULT_PORT = 8765


def port_number(text: str) -> int:
    """argparse type: a TCP port from 1 to 65535."""
    digits = text.strip()
    # ASCII digits only: str.isdigit() takes '٨' and '²' (int() refuses the second)
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 5) \
            or not 1 <= int(digits) <= 65535:
        raise argparse.ArgumentTypeError(f"'{text[:20]}' is not a port number from 1 to 65535")
    return int(digits)


def register(subparsers: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = subparsers.add_parser(
        "serve", help="a local web page: weapons against targets, your army list, battles, "
                      "Warmachine and Dust (needs the web extra)",
        description="Serve mathhammer's page on this machine (http://127.0.0.1:8765/ by "
                    'default). Install it with pip install "mathhammer[web]".')
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; "
                             "another address makes the page reachable from the network)")
    parser.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.add_argument("--no-warmup", action="store_true",
                        help="do not compile the engines' kernels at start-up (the first "
                             "answer of each then pays for it)")
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="your BSData checkout (wh40k-10e or wh40k-11e): the 40k page then "
                             "takes units by name, @Name lines and a unit box with completion "
                             "(default: $MATHHAMMER_DATA)")
    parser.set_defaults(handler=_run)


def missing_packages() -> list[str]:
    """The web extra's packages that are not installed."""
    return [package for module, package in WEB_PACKAGES.items()
            if importlib.util.find_spec(module) is None]


def _run(args: argparse.Namespace) -> int:
    missing = missing_packages()
    if missing:
        raise OptionError(f"'mathhammer serve' needs {', '.join(missing)}: install the web "
                          'extra with pip install "mathhammer[web]"')
    from mathhammer.web.server import serve

    return serve(args.host, args.port, open_browser=args.open, warm=not args.no_warmup,
                 data=args.data)
