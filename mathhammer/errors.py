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
from typing import Self


class MathhammerError(Exception):
    """Base class for every error mathhammer raises on purpose.

    Besides its message an error carries what a caller needs to point at the cause, so no
    code has to read it back out of the message:

    Attributes
    ----------
    token : str or None
        The piece of the user's text the error is about (a key, a name, a value), for a
        reader that looks for it in a file; ``None`` when there is none.
    location : str or None
        Where that text was written (``"FILE:LINE"``), said in front of the message; set with
        :meth:`located`.
    activation : str or None
        The label of the scenario activation it concerns, when there is one (a scenario read
        from a file names that activation's line).
    """

    token: str | None = None
    location: str | None = None
    activation: str | None = None

    def __str__(self) -> str:
        # the message itself (a KeyError subclass would quote it), after the location
        message = BaseException.__str__(self)
        return f"{self.location}: {message}" if self.location else message

    def located(self, location: str | None) -> Self:
        """The same error said at ``location`` (``"FILE:LINE"``; ``None``: unchanged).

        Examples
        --------
        >>> str(ScenarioError("rounds = 0 must be 1 or more").located("army.toml:3"))
        'army.toml:3: rounds = 0 must be 1 or more'
        """
        if not location:
            return self
        error = type(self).__new__(type(self))   # the same error: its message and fields
        error.args = self.args
        vars(error).update(vars(self))
        error.location = location
        return error

    def about(self, activation: str) -> Self:
        """This error, marked as concerning the scenario activation labelled ``activation``
        (unless it already names one)."""
        if self.activation is None:
            self.activation = activation
        return self


class UnknownNameError(MathhammerError, KeyError):
    """A look-up of a name that is not there: a reference target, a datasheet, a keyword.

    It is also a :class:`KeyError`, so ``except KeyError`` code keeps working; its message is
    the one line users see (unquoted, unlike a plain ``KeyError``).

    Parameters
    ----------
    message
        What was not found and what is (the known names, the closest one).
    name
        The name looked up (also :attr:`token`).
    """

    def __init__(self, message: str, *, name: str | None = None) -> None:
        super().__init__(message)
        self.name = name
        self.token = name


class UnknownTargetError(UnknownNameError):
    """A name that is neither a reference target nor one of its aliases."""


class ProfileError(MathhammerError, ValueError):
    """A profile line, dice expression or characteristic that cannot be used.

    The message is rendered from its parts: ``message``, then `` at column N`` when the
    column of ``token`` is known, then ``detail``, then `` (in 'LINE')`` when ``line`` is.

    Parameters
    ----------
    message
        What is wrong, naming the offending text; with ``detail``, the part of the message
        that the place follows (``"unknown token 'Q'"``).
    token
        The offending piece of text, if there is one.
    column
        1-based column of ``token`` in ``line``.
    line
        The whole line being parsed.
    detail
        The rest of the message, after the place (``": a weapon line reads ..."``). ``None``
        (the default) when the message names no place: a reader that finds the column later
        (:meth:`placed`) says ``TOKEN at column N: message``.

    Examples
    --------
    >>> str(ProfileError("unknown token 'Q'", token="Q", column=9, detail=": remove it"))
    "unknown token 'Q' at column 9: remove it"
    """

    def __init__(self, message: str, token: str | None = None, column: int | None = None,
                 line: str | None = None, *, detail: str | None = None) -> None:
        where = f" at column {column}" if column is not None and token is not None else ""
        text = f"{message}{where}{detail or ''}"
        if line is not None:
            text = f"{text} (in {line!r})"
        super().__init__(text)
        self.message = message
        self.detail = detail
        self.token = token
        self.column = column
        self.line = line

    def placed(self, column: int | None, line: str) -> ProfileError:
        """This error at ``column`` of ``line``, for a profile's own validation, which knows
        neither (a message without a place of its own is said after ``TOKEN at column N``)."""
        if column is None or self.token is None:
            return ProfileError(self.message, token=self.token, line=line, detail=self.detail)
        if self.detail is None:
            return ProfileError(self.token, token=self.token, column=column, line=line,
                                detail=f": {self.message}")
        return ProfileError(self.message, token=self.token, column=column, line=line,
                            detail=self.detail)


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
    token
        The option it is about, when the message names none in ``{name}`` slots (default:
        the first of ``options``).

    Examples
    --------
    >>> error = OptionError("{crit_hits} is impossible: critical hits happen on 2+ to 6+",
    ...                     options={"crit_hits": 7})
    >>> str(error)
    'crit_hits=7 is impossible: critical hits happen on 2+ to 6+'
    >>> error.in_words("command line")
    '--crit-hits 7 is impossible: critical hits happen on 2+ to 6+'
    """

    def __init__(self, message: str, *, options: dict[str, object] | None = None,
                 token: str | None = None) -> None:
        self.template = message
        self.options = dict(options or {})
        # the option it is about (a key of the caller's text): given, or the first one named
        self.token = token if token is not None else next(iter(self.options), None)
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
    """A scenario (units, activations) that the rules do not allow.

    Parameters
    ----------
    message
        What is wrong and how to fix it.
    token
        The key or value of the scenario it is about (a unit name, a weapon name, a TOML
        key), which a file reader looks for to name the line.
    activation
        The label of the activation it concerns, when there is one.
    location
        Where in a file (``"FILE:LINE"``), said in front of the message.
    """

    def __init__(self, message: str, *, token: str | None = None,
                 activation: str | None = None, location: str | None = None) -> None:
        super().__init__(message)
        self.token = token
        self.activation = activation
        self.location = location


class RosterError(ScenarioError):
    """A roster file (BattleScribe, New Recruit) that cannot be read: the message names the
    file and what is wrong with it."""


class UnknownDatasheetError(RosterError, UnknownNameError):
    """A datasheet name the data does not hold (also a :class:`KeyError`)."""

    def __init__(self, message: str, *, name: str | None = None) -> None:
        RosterError.__init__(self, message, token=name)
        self.name = name


class UnknownWordError(ProfileError, UnknownNameError):
    """A word of a profile line that names nothing the game knows: a keyword, an ability, a
    tag, a reference target (also a :class:`KeyError`; a :class:`ProfileError` like every
    other mistake in a line)."""

    def __init__(self, message: str, token: str | None = None, column: int | None = None,
                 line: str | None = None, *, detail: str | None = None) -> None:
        ProfileError.__init__(self, message, token=token, column=column, line=line,
                              detail=detail)
        self.name = token

    def placed(self, column: int | None, line: str) -> ProfileError:
        placed = ProfileError.placed(self, column, line)
        return UnknownWordError(placed.message, token=placed.token, column=placed.column,
                                   line=line, detail=placed.detail)


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
        words = error.in_words("command line")
        return f"{error.location}: {words}" if error.location else words
    return str(error)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'X'?"`` for the closest choice, or ``""`` when none is close."""
    by_upper = {c.upper(): c for c in choices}
    matches = difflib.get_close_matches(word.upper(), list(by_upper), n=1, cutoff=0.6)
    return f"; did you mean '{by_upper[matches[0]]}'?" if matches else ""
