"""The one error hierarchy of mathhammer.

Every error a user can cause is a :class:`MathhammerError`. Errors caused by text the user
wrote (a profile line, a dice expression, a scenario file) are also :class:`ValueError`, so
ordinary ``except ValueError`` code keeps working. The command line prints ``str(error)`` on
one line and exits with status 2.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType
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
    #: The message with ``{name}`` slots where it names an option (see :meth:`in_words`);
    #: ``None`` when it names none.
    template: str | None = None
    #: The options the message names: option name -> value (``True`` for a switch,
    #: :data:`NAMED` to name it alone, a :class:`Command` for another command's words).
    options: Mapping[str, object] = MappingProxyType({})

    def _with_options(self, message: str, options: Mapping[str, object] | None) -> str:
        """Keep ``message`` as the template of ``options``; the message in Python's words."""
        if options:
            self.template = message
            self.options = dict(options)
            return self.in_words("python")
        return message

    def in_words(self, reader: str | Speller = "python") -> str:
        """The message with each option it names in ``reader``'s words (without the
        location): ``"python"`` (``crit_hits=7``, ``drop advanced=True``), ``"command
        line"`` (``--crit-hits 7``, ``drop --advanced``), or a :data:`Speller` of the
        reader's own (the web page names its controls).

        A slot is ``{name}`` (the option), ``{VERB name}`` (``drop``, ``add``,
        ``leave out`` or ``choose one with`` and the option: a page says ``untick 'Box'``)
        or ``{--name}`` (the option as an interface sets it: the flag in Python's words
        too, a message's aside for command-line users). Other braces are the user's text.
        """
        message = BaseException.__str__(self)
        if self.template is None or not self.options:
            return message
        spell = _READERS[reader] if isinstance(reader, str) else reader
        options = self.options
        return _SLOT.sub(lambda m: spell(m[2], options[m[2]], (m[1] or "").strip())
                         if m[2] in options else m[0], self.template)

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

    def after(self, prefix: str) -> Self:
        """The same error (its kind and fields, the options it names) with ``prefix`` said
        in front of its message.

        Examples
        --------
        >>> error = OptionError("lower {--trials}", options={"trials": NAMED})
        >>> command_line_words(error.after("army.toml: "))
        'army.toml: lower --trials'
        """
        error = type(self).__new__(type(self))
        error.args = (prefix + BaseException.__str__(self), *self.args[1:])
        vars(error).update(vars(self))
        if self.template is not None:
            error.template = prefix + self.template
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
            text = f"{text} (in {_line_shown(line, column)})"
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


#: The longest line an error quotes whole; a longer one is quoted around the column.
LINE_SHOWN = 160


def _line_shown(line: str, column: int | None) -> str:
    """``line`` quoted for a message: whole, or :data:`LINE_SHOWN` characters around
    ``column`` with its length (a refused line of 200 parts was echoed in 8,000 characters).

    Examples
    --------
    >>> _line_shown("Gun: A1", 6)
    "'Gun: A1'"
    >>> shown = _line_shown("x" * 1000 + " Q", 1002)
    >>> shown.startswith("'...xxx") and shown.endswith("x Q', a line of 1,002 characters")
    True
    """
    if len(line) <= LINE_SHOWN:
        return repr(line)
    start = max(0, min((column or 1) - 1 - LINE_SHOWN // 2, len(line) - LINE_SHOWN))
    part = line[start:start + LINE_SHOWN]
    part = ("..." if start else "") + part + ("..." if start + LINE_SHOWN < len(line) else "")
    return f"{part!r}, a line of {len(line):,} characters"


#: An option named in a message: its value (``True`` for a switch), or :data:`NAMED` to name
#: it without one.
NAMED = object()


class Command(str):
    """An option's value that is another command's words (``Command("mathhammer units --find
    TEXT")``): Python and the command line say them quoted, a page its own control."""


class OptionError(MathhammerError, ValueError):
    """A situation flag, modifier or engine option with an impossible or conflicting value.

    Parameters
    ----------
    message
        What is wrong and how to fix it. With ``options``, ``{name}`` slots stand where an
        option is named; each reader's words fill them (:meth:`~MathhammerError.in_words`).
    options
        The options the message names: option name (a keyword of the Python API) -> its
        value (``True`` for a switch), :data:`NAMED` to name it alone, or a
        :class:`Command`.
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
    >>> OptionError("{drop advanced} or {stationary}",
    ...             options={"advanced": True, "stationary": True}).in_words("command line")
    'drop --advanced or --stationary'
    """

    def __init__(self, message: str, *, options: Mapping[str, object] | None = None,
                 token: str | None = None) -> None:
        super().__init__(self._with_options(message, options))
        # the option it is about (a key of the caller's text): given, or the first one named
        self.token = token if token is not None else next(iter(self.options), None)


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
    options
        The options the message names in ``{name}`` slots, as :class:`OptionError`'s.
    """

    def __init__(self, message: str, *, token: str | None = None,
                 activation: str | None = None, location: str | None = None,
                 options: Mapping[str, object] | None = None) -> None:
        super().__init__(self._with_options(message, options))
        self.token = token
        self.activation = activation
        self.location = location


class RosterError(ScenarioError):
    """A roster file (BattleScribe, New Recruit) that cannot be read: the message names the
    file and what is wrong with it."""


class UnknownDatasheetError(RosterError, UnknownNameError):
    """A datasheet name the data does not hold (also a :class:`KeyError`)."""

    def __init__(self, message: str, *, name: str | None = None,
                 options: Mapping[str, object] | None = None) -> None:
        RosterError.__init__(self, message, token=name, options=options)
        self.name = name


class AmbiguousDatasheetError(RosterError):
    """A datasheet name several factions hold: ``factions`` lists them; each caller says how
    its user picks one (``--faction`` for ``mathhammer datasheet``, ``@Name@Faction`` in a
    line)."""

    def __init__(self, message: str, *, name: str, factions: Sequence[str],
                 options: Mapping[str, object] | None = None) -> None:
        RosterError.__init__(self, message, token=name, options=options)
        self.name = name
        self.factions = tuple(factions)


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
                 cell: tuple[str, str] | None = None,
                 options: Mapping[str, object] | None = None) -> None:
        super().__init__(self._with_options(message, options))
        self.reason = BaseException.__str__(self) if reason is None else reason
        self.cell = cell


def within(where: str, error: UnsupportedError,
           cell: tuple[str, str] | None = None) -> UnsupportedError:
    """``error`` said again with ``where`` in front, keeping its reason (and ``cell``) and
    the options it names."""
    placed = error.after(f"{where}: ")
    if cell is not None:
        placed.cell = cell
    return placed


def _python_option(name: str, value: object, verb: str = "") -> str:
    if verb == "--":
        return command_line_option(name, value)
    if isinstance(value, Command):
        said = f"'{value}'"
    else:
        said = name if value is NAMED else f"{name}={value!r}"
    return f"{verb} {said}" if verb else said


def command_line_option(name: str, value: object, verb: str = "") -> str:
    """An option as the command line names it in a message (the command line's
    :data:`Speller`): ``--crit-hits 7``, ``drop --advanced``, ``--attach "A=B"``."""
    if isinstance(value, Command):
        said = f"'{value}'"
    else:
        flag = "--" + name.replace("_", "-")
        said = flag if value is NAMED or value is True else f"{flag} {command_line_value(value)}"
    return f"{verb} {said}" if verb not in ("", "--") else said


def command_line_value(value: object) -> str:
    """A value as the command line writes it after its flag: quoted unless one word."""
    return f'"{value}"' if isinstance(value, str) and not _BARE.fullmatch(value) else str(value)


#: A reader's words for an option: ``spell(name, value, verb)`` with ``verb`` the slot's
#: (``""``, ``"drop"``, ``"add"``, ``"leave out"``, ``"choose one with"`` or ``"--"``).
Speller = Callable[[str, object, str], str]

_READERS: dict[str, Speller] = {"python": _python_option, "command line": command_line_option}
#: A slot of a message: ``{name}``, ``{VERB name}`` or ``{--name}``.
_SLOT = re.compile(r"\{(drop |add |leave out |choose one with |--)?(\w+)\}")
#: A value the command line writes without quotes.
_BARE = re.compile(r"[\w.+-]*")


def command_line_words(error: BaseException) -> str:
    """An error's message as the command line says it (options as ``--flags``)."""
    if isinstance(error, MathhammerError):
        words = error.in_words("command line")
        return f"{error.location}: {words}" if error.location else words
    return str(error)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'X'?"`` for the closest choice, or ``""`` when none is close."""
    by_upper = {c.upper(): c for c in choices}
    matches = difflib.get_close_matches(word.upper(), list(by_upper), n=1, cutoff=0.6)
    return f"; did you mean '{by_upper[matches[0]]}'?" if matches else ""
