"""The command line: ``mathhammer COMMAND ...``.

The command tree is assembled in :mod:`mathhammer.main` from each game's ``cli`` module
(``register(subparsers)``); what those modules share lives here, below the games:
:mod:`~mathhammer.cli.options` (``--trials``, ``--seed``, the output options, argument types
that refuse bad numbers in one line, :func:`~mathhammer.cli.options.emit`) and
:mod:`~mathhammer.cli.compare` (every game's ``compare`` command). :func:`main` (the
``mathhammer`` entry point), :func:`build_parser` and :func:`version` load lazily, so a game's
``cli`` module can import the shared options without building the command tree.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names

_LAZY = {
    "main": "mathhammer.main",
    "command_line": "mathhammer.main",
    "build_parser": "mathhammer.main",
    "version": "mathhammer.main",
}

__all__ = sorted(_LAZY)

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
