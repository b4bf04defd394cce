"""The one error hierarchy of mathhammer.

Every error a user can cause is a :class:`MathhammerError`. Errors caused by text the user
wrote (a profile line, a dice expression, a scenario file) are also :class:`ValueError`, so
ordinary ``except ValueError`` code keeps working. The command line prints ``str(error)`` on
one line and exits with status 2.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable


class MathhammerError(Exception):
    """Base class for every error mathhammer raises on purpose."""


class ProfileError(MathhammerError, ValueError):
    """A profile line, dice expression or characteristic that cannot be used.

    Parameters
    ----------
    message
        What is wrong and how to fix it.
    token
        The offending piece of text, if there is one.
    column
        1-based column of ``token`` in ``line``.
    line
        The whole line being parsed.
    """

    def __init__(self, message: str, token: str | None = None, column: int | None = None,
                 line: str | None = None) -> None:
        self.token = token
        self.column = column
        self.line = line
        where = f" at column {column}" if column is not None and token is not None else ""
        text = message.replace("{where}", where)
        if line is not None:
            text = f"{text} (in {line!r})"
        super().__init__(text)


#: An option named in a message: its value (``True`` for a switch), or :data:`NAMED` to name
#: it without one.
NAMED = object()


class OptionError(MathhammerError, ValueError):
    """A situation flag, modifier or engine option with an impossible or conflicting value.

    Parameters
    ----------
    message
        What is wrong and how to fix it. With ``options``, ``{name}`` slots stand where an
        option is named; each reader's words fill them (:meth:`in_words`).
    options
        The options the message names: option name (a keyword of the Python API) -> its
        value (``True`` for a switch) or :data:`NAMED` to name it alone.

    Examples
    --------
    >>> error = OptionError("{crit_hits} is impossible: critical hits happen on 2+ to 6+",
    ...                     options={"crit_hits": 7})
    >>> str(error)
    'crit_hits=7 is impossible: critical hits happen on 2+ to 6+'
    >>> error.in_words("command line")
    '--crit-hits 7 is impossible: critical hits happen on 2+ to 6+'
    """

    def __init__(self, message: str, *, options: dict[str, object] | None = None) -> None:
        self.template = message
        self.options = dict(options or {})
        super().__init__(self.in_words("python"))

    def in_words(self, reader: str = "python") -> str:
        """The message with each option spelled as ``reader`` writes it: ``"python"``
        (``crit_hits=7``, ``advanced=True``) or ``"command line"`` (``--crit-hits 7``,
        ``--advanced``)."""
        if not self.options:
            return self.template
        spell = _command_line_option if reader == "command line" else _python_option
        # only the options' own slots: other braces are the user's text (a weapon's name)
        return re.sub(r"\{(\w+)\}", lambda m: spell(m[1], self.options[m[1]])
                      if m[1] in self.options else m[0], self.template)


class ScenarioError(MathhammerError, ValueError):
    """A scenario (units, activations) that the rules do not allow."""


class RosterError(ScenarioError):
    """A roster file (BattleScribe, New Recruit) that cannot be read: the message names the
    file and what is wrong with it."""


class UnsupportedError(MathhammerError):
    """A request outside what an engine covers, e.g. a case the exact engine cannot solve.

    Parameters
    ----------
    message
        The whole message, naming where (``"Bolter against MEQ: ..."``) when it is known.
    reason
        Why, without the where (default: the message), for a caller that says the where
        its own way (an army analysis' note per cell).
    cell
        The comparison cell it concerns, ``(attacker, target)``, when there is one.
    """

    def __init__(self, message: str, *, reason: str | None = None,
                 cell: tuple[str, str] | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason
        self.cell = cell


def within(where: str, error: UnsupportedError,
           cell: tuple[str, str] | None = None) -> UnsupportedError:
    """``error`` said again with ``where`` in front, keeping its reason (and ``cell``)."""
    return UnsupportedError(f"{where}: {error}", reason=error.reason,
                            cell=cell if cell is not None else error.cell)


def _python_option(name: str, value: object) -> str:
    return name if value is NAMED else f"{name}={value!r}"


def _command_line_option(name: str, value: object) -> str:
    flag = "--" + name.replace("_", "-")
    return flag if value is NAMED or value is True else f"{flag} {value}"


def command_line_words(error: BaseException) -> str:
    """An error's message as the command line says it (options as ``--flags``)."""
    if isinstance(error, OptionError):
        return error.in_words("command line")
    return str(error)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'X'?"`` for the closest choice, or ``""`` when none is close."""
    by_upper = {c.upper(): c for c in choices}
    matches = difflib.get_close_matches(word.upper(), list(by_upper), n=1, cutoff=0.6)
    return f"; did you mean '{by_upper[matches[0]]}'?" if matches else ""
