"""Each game's subject lines: which of a result's inputs are its attackers and its targets.

:class:`~mathhammer.core.result.Result` words its subject (``"Bolt rifle vs MEQ"``) and the
full lines behind it from these, without knowing any game's input keys: a game registers
how its results' ``inputs`` hold the lines (``register_subject_lines("wh40k", ...)``, in the
game's package ``__init__``, so the hook is there before any of its results is made) and
stamps its results with its name (``Result.game``). Standard library only, so a game
package can register without loading numpy.

Examples
--------
>>> register_subject_lines("example", lambda inputs: (inputs["shooters"], inputs["mark"]))
>>> subject_lines("example", {"shooters": ["Gun: 3/1"], "mark": "Squad: INFANTRY2"})
(['Gun: 3/1'], ['Squad: INFANTRY2'])
>>> subject_lines(None, {"shooters": ["Gun: 3/1"]})
([], [])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: A game's reading of a result's inputs: (attacker lines, target lines); a line alone, a
#: list of lines, or empty.
SubjectReader = Callable[[Mapping[str, Any]], "tuple[Any, Any]"]

_READERS: dict[str, SubjectReader] = {}


def register_subject_lines(game: str, reader: SubjectReader) -> None:
    """Say how the results of ``game`` (their :attr:`~mathhammer.core.result.Result.game`)
    hold their attacker and target lines: ``reader(inputs) -> (attackers, targets)``."""
    _READERS[game] = reader


def subject_lines(game: str | None, inputs: Mapping[str, Any]) -> tuple[list[Any], list[Any]]:
    """The attacker and target lines of a result of ``game`` with these ``inputs``, each a
    list (empty when the game registered no reader, or the result names no game)."""
    if game and game not in _READERS:
        _import_game(game)
    reader = _READERS.get(game) if game else None
    if reader is None:
        return [], []
    attackers, targets = reader(inputs)
    return _listed(attackers), _listed(targets)


def _import_game(game: str) -> None:
    """Import the package of ``game`` (``mathhammer.<game>``), which registers its reader: a
    result read back from a file, or made by hand with ``game=``, in a process that has not
    imported that game yet. Nothing of the game is named here but its package's name."""
    import importlib

    try:
        importlib.import_module(f"mathhammer.{game}")
    except ImportError:
        pass   # no such game: the result simply names no subject


def _listed(lines: Any) -> list[Any]:
    if not lines:
        return []
    return [lines] if isinstance(lines, str) else list(lines)
