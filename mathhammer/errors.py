"""The one error hierarchy of mathhammer.

Every error a user can cause is a :class:`MathhammerError`. Errors caused by text the user
wrote (a profile line, a dice expression, a scenario file) are also :class:`ValueError`, so
ordinary ``except ValueError`` code keeps working. The command line prints ``str(error)`` on
one line and exits with status 2.
"""

from __future__ import annotations

import difflib
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


class OptionError(MathhammerError, ValueError):
    """A situation flag, modifier or engine option with an impossible or conflicting value."""


class ScenarioError(MathhammerError, ValueError):
    """A scenario (units, activations) that the rules do not allow."""


class RosterError(ScenarioError):
    """A roster file (BattleScribe, New Recruit) that cannot be read: the message names the
    file and what is wrong with it."""


class UnsupportedError(MathhammerError):
    """A request outside what an engine covers, e.g. a case the exact engine cannot solve."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'X'?"`` for the closest choice, or ``""`` when none is close."""
    by_upper = {c.upper(): c for c in choices}
    matches = difflib.get_close_matches(word.upper(), list(by_upper), n=1, cutoff=0.6)
    return f"; did you mean '{by_upper[matches[0]]}'?" if matches else ""
