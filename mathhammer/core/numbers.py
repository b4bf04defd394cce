"""The one reader of numbers users type: counts on profile lines and number options.

Python's own ``int()`` and ``float()`` are generous: they read ``٣`` (an Arabic-Indic three),
``1_0``, ``1e3``, ``nan`` and ``inf``. A profile or an option must not, so every number a user
types goes through here: digits 0-9 only, finite, within the bounds the caller gives.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable

from mathhammer.errors import OptionError, ProfileError

_COUNT_MARKS = "xX\u00d7"

#: Typographic marks a word processor puts into a profile line, read as their plain forms
#: outside names: non-breaking and plain hyphens, the en dash and the minus sign as '-', '×'
#: as 'x', the closing double quote and the double prime as '"' (the 40k parser's table). One
#: character for one, so columns in error messages stay true.
PLAIN_MARKS = str.maketrans({"\u2011": "-", "\u2010": "-", "\u2013": "-", "\u2212": "-",
                             "\u00d7": "x", "\u201d": '"', "\u2033": '"'})


def plain_marks(line: str) -> str:
    """``line`` with :data:`PLAIN_MARKS` replaced, for reading characteristics and keywords;
    a name is taken from the original line at the same columns, so its curly quotes and
    dashes survive.

    Examples
    --------
    >>> plain_marks("Kharn’s “Axe”: MAT7 POW12 [ARMOR–PIERCING]")
    'Kharn’s “Axe": MAT7 POW12 [ARMOR-PIERCING]'
    """
    return line.translate(PLAIN_MARKS)
_WHOLE_RE = re.compile(r"[+-]?[0-9]+")
_REAL_RE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
#: Longest digit string read at all (Python refuses to convert 4,300 digits).
_MAX_DIGITS = 40


def _invisible(char: str) -> bool:
    """A format character (zero-width space, joiner, byte-order mark, direction mark)."""
    return unicodedata.category(char) == "Cf"


def _numeric_looking(text: str) -> bool:
    """Text a reader could take for a number: it starts with a digit of any script, a sign or
    a point, or ``float()`` reads it (``nan``, ``inf``); ``A0`` and ``MK2`` are names."""
    if text[:1] in ("+", "-", ".") or text[:1].isdigit() or text[:1].isnumeric():
        return True
    try:
        float(text)
    except ValueError:
        return False
    return True


#: A first word followed by a space (a lone word, or one followed by ':', is a name).
_FIRST_WORD_RE = re.compile(r"[^\s:]+(?=\s)")
_DIGITS_RE = re.compile(r"-?[0-9]+")


def malformed_count(text: str) -> tuple[str, int] | None:
    """The first word of ``text`` and its 1-based column when it is a count written wrong.

    A count is ASCII digits and an ``x`` (``10x``). A first word that ends in ``x`` after
    something number-like that is not plain digits (``1e3x``, ``1.5x``, ``nanx``, ``1_0x``,
    ``+2x``, ``٣x``) or that holds an invisible character (``1\\u200bx``) is a count written
    wrong, never part of a name; names such as ``Onyx`` are left alone.
    """
    stripped = text.lstrip()
    match = _FIRST_WORD_RE.match(stripped)
    if match is None:
        return None  # a lone word or one followed by ':' is a name
    word = match.group(0)
    visible = "".join(c for c in word if not _invisible(c))
    if len(visible) < 2 or visible[-1] not in _COUNT_MARKS:
        return None
    prefix = visible[:-1]
    if not _numeric_looking(prefix):
        return None
    if visible == word and _DIGITS_RE.fullmatch(prefix):
        return None  # a plain count: the game's parser reads it and checks its range
    return word, len(text) - len(stripped) + 1


def refuse_malformed_count(text: str, line: str, example: str) -> None:
    """Raise :class:`ProfileError` when ``text`` starts with a count written wrong.

    ``example`` is a line of the game that shows a right count (``'10x Intercessor: ...'``).
    """
    found = malformed_count(text)
    if found is None:
        return
    word, column = found
    hidden = [c for c in word if _invisible(c)]
    why = (f"holds an invisible character U+{ord(hidden[0]):04X} "
           f"({unicodedata.name(hidden[0], 'format character').lower()})" if hidden
           else "is not a whole number of digits 0-9")
    raise ProfileError(f"count '{word}'", detail=f" {why}: write the count with the digits 0-9 "
                       f"and an x, e.g. {example!r}", token=word, column=column, line=line)


def whole_number_text(text: str, what: str, low: int | None, high: int | None) -> int:
    """``text`` read as a whole number of ASCII digits (an optional sign) in ``[low, high]``.

    ``low``/``high`` of None leave that side open (at most 40 digits are read).

    Raises
    ------
    OptionError
        Naming ``what``, the text and the accepted range; ``٣``, ``1_0``, ``1e3``, ``1.0``
        and ``inf`` are refused.
    """
    compact = str(text).strip()
    bounds = f", from {low:,} to {high:,}" if low is not None and high is not None else ""
    if not _WHOLE_RE.fullmatch(compact) or len(compact.lstrip("+-")) > _MAX_DIGITS:
        raise OptionError(f"{what} '{text:.{_MAX_DIGITS}}' is not a whole number: write it "
                          f"with the digits 0-9{bounds}")
    value = int(compact)
    if (low is not None and value < low) or (high is not None and value > high):
        raise OptionError(f"{what} {text} is out of range{bounds}")
    return value


def real_number_text(text: str, what: str, low: float, high: float) -> float:
    """``text`` read as a finite decimal number of ASCII digits in ``[low, high]``.

    Raises
    ------
    OptionError
        Naming ``what``; ``nan``, ``inf``, ``1e3``, ``1_0`` and ``٣`` are refused.
    """
    compact = str(text).strip()
    if not _REAL_RE.fullmatch(compact) or len(compact) > _MAX_DIGITS:
        raise OptionError(f"{what} '{text:.{_MAX_DIGITS}}' is not a number: write it with the "
                          f"digits 0-9 and a decimal point, from {low:g} to {high:g}")
    value = float(compact)
    if not (math.isfinite(value) and low <= value <= high):
        raise OptionError(f"{what} {text} is out of range: from {low:g} to {high:g}")
    return value


def int_option(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=`` reading a whole number in ``[low, high]`` (unbounded when None:
    the option's own check names its range) through :func:`whole_number_text` (argparse's
    ``int`` reads ``٣`` and ``1_0``)."""
    def read(text: str) -> int:
        try:
            return whole_number_text(text, "the value", low, high)
        except OptionError as exc:
            raise _argument_error(exc) from None
    read.__name__ = "whole number"
    return read


def real_option(low: float = -1e300, high: float = 1e300) -> Callable[[str], float]:
    """An argparse ``type=`` reading a finite decimal number in ``[low, high]`` through
    :func:`real_number_text` (argparse's ``float`` reads ``inf``, ``nan`` and ``٣``)."""
    def read(text: str) -> float:
        try:
            return real_number_text(text, "the value", low, high)
        except OptionError as exc:
            raise _argument_error(exc) from None
    read.__name__ = "number"
    return read


def _argument_error(exc: OptionError) -> Exception:
    import argparse

    return argparse.ArgumentTypeError(str(exc))
