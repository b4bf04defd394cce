"""Bounds on what a user may ask for, so every input is answered or refused at once.

The engines hold arrays sized by the numbers in a profile (dice, wounds, models) and loop
over them; a mistyped ``A9223372036854775808`` or ``W1000000`` would otherwise end in an
overflow, a memory error or a run of hours. These limits lie far beyond any datasheet, and a
refusal names the value, the limit and what to write instead.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from mathhammer.errors import NAMED, OptionError, ProfileError

#: Largest number in a profile: a characteristic, a dice constant, an ability's X.
MAX_NUMBER = 10_000
#: Most dice in one dice expression (``100D6``).
MAX_DICE = 100
#: Most models (or weapons) on one line.
MAX_MODELS = 10_000
#: Most wounds a target unit may have in all (models times wounds).
MAX_TOTAL_WOUNDS = 100_000
#: Most Monte Carlo trials one run may ask for.
MAX_TRIALS = 10_000_000_000


def check_at_most(value: int, limit: int, what: str, token: str | None = None) -> None:
    """Raise :class:`ProfileError` when ``value`` exceeds ``limit``, naming both."""
    if value > limit:
        raise ProfileError(f"{what} {value:,} is too large: at most {limit:,}", token=token)


def check_number_text(text: str, limit: int, what: str) -> int:
    """``int(text)`` for ASCII digits, refusing a value beyond ``limit`` before converting.

    Very long digit strings are refused without being converted (Python refuses to convert
    more than 4,300 digits at all).
    """
    digits = text.lstrip("+-")
    if len(digits) > len(str(limit)) + 1:
        raise ProfileError(f"{what} {text} is too large: at most {limit:,}", token=text)
    value = int(text)
    check_at_most(abs(value), limit, what, token=text)
    return value


def first_foreign_digit(text: str) -> tuple[int, str] | None:
    """The 0-based index and character of the first digit that is not ASCII 0-9, if any.

    Python reads ``٣``, ``３`` and ``𝟑`` as digits; a profile must not.
    """
    if text.isascii():
        return None
    for index, char in enumerate(text):
        if not char.isascii() and char.isdigit():
            return index, char
    return None


def refuse_foreign_digits(text: str, line: str | None = None) -> None:
    """Raise :class:`ProfileError` for a digit outside ASCII 0-9 (naming it and its column)."""
    found = first_foreign_digit(text)
    if found is not None:
        index, char = found
        name = unicodedata.name(char, "a non-ASCII digit").lower()
        raise ProfileError(f"'{char}' ({name})", detail=" is not a digit 0-9: type the number "
                           "with the digits 0-9", token=char, column=index + 1, line=line)


#: Characters no name or line may hold: the C0 and C1 controls and DEL (Unicode category
#: Cc), which a terminal obeys as commands (``ESC ]0;`` retitles the window), and the
#: bidirectional embedding, override and isolate characters, which reorder what is shown,
#: and lone surrogates (a byte of a command-line argument that is not UTF-8, written back raw).
#: A tab is taken where a reader treats it as a space (:func:`unsafe_character`).
_UNSAFE = "\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE_RE = re.compile(f"[\x00-\x09{_UNSAFE}]")
_UNSAFE_BUT_TAB_RE = re.compile(f"[\x00-\x08{_UNSAFE}]")


def unsafe_character(text: str, tab: bool = True) -> tuple[int, str] | None:
    r"""The 0-based index and character of the first control or text-direction character of
    ``text``, if any (a tab counts only when ``tab`` is False).

    Examples
    --------
    >>> unsafe_character("Bolt\x1b rifle")
    (4, '\x1b')
    >>> unsafe_character("Bolt\trifle") is None
    True
    """
    match = (_UNSAFE_BUT_TAB_RE if tab else _UNSAFE_RE).search(text)
    return None if match is None else (match.start(), match.group())


def shown(text: str) -> str:
    r"""``text`` with every control and text-direction character written as its escape
    (``\x1b``, ``\u202e``), so a message naming it cannot drive the terminal.

    Examples
    --------
    >>> print(shown("Bolt\x1b]0;x\x07 rifle"))
    Bolt\x1b]0;x\x07 rifle
    """
    return _UNSAFE_RE.sub(lambda match: ascii(match.group())[1:-1], text)


#: How TOML writes a control character in a quoted string: ``\u001b``, ``\U0000001b`` or a
#: short escape (``\t``, ``\n``...).
_TOML_ESCAPE = r"\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}|\\[btnfr]"


def written_pattern(text: str) -> str:
    r"""A regular expression matching ``text`` as a TOML file may write it: each control or
    text-direction character raw or as an escape (``"B\u001b"`` for ``B``), so a reader
    finds the line of a name it refuses.

    Examples
    --------
    >>> import re
    >>> bool(re.search(written_pattern("B"), '["B\\u001b"]'))
    True
    """
    return "".join(f"(?:{re.escape(char)}|{_TOML_ESCAPE})" if _UNSAFE_RE.match(char)
                   else re.escape(char) for char in text)


def describe_character(char: str) -> str:
    r"""``'\x1b' (a control character)``: an unsafe character named by its escape."""
    if unicodedata.category(char) == "Cc":
        return f"'{shown(char)}' (a control character)"
    if unicodedata.category(char) == "Cs":
        return f"'{shown(char)}' (a byte that is not UTF-8 text)"
    name = unicodedata.name(char, "").lower()
    return f"'{shown(char)}' ({name}, a text-direction control)"


def unsafe_text(value: str, what: str, fix: str = "delete it", *,
                written: str | None = None) -> str | None:
    r"""The refusal of a name or text holding a control or text-direction character (a tab
    counts), or None when it holds none: ``"{what} '{written}' holds {character}: {fix}"``,
    ``written`` being ``value`` with such characters escaped unless given (cut short, say).

    Examples
    --------
    >>> print(unsafe_text("Bo\x1byz", "unit name"))
    unit name 'Bo\x1byz' holds '\x1b' (a control character): delete it
    >>> unsafe_text("Boyz", "unit name") is None
    True
    """
    found = unsafe_character(value, tab=False)
    if found is None:
        return None
    shown_text = shown(value) if written is None else written
    return f"{what} '{shown_text}' holds {describe_character(found[1])}: {fix}"


def refuse_control_characters(text: str, line: str | None = None, what: str = "a line",
                              tab: bool = True) -> None:
    r"""Raise :class:`ProfileError` for a control or text-direction character in ``text``,
    naming it as an escape and its column (``line`` is said escaped, never raw).

    White space at either end (a line break that ``readlines()`` or a text file left, a
    Windows ``\r\n``) is taken: every line is stripped before it is read.

    Examples
    --------
    >>> try:
    ...     refuse_control_characters("Bolt\x1b rifle: A2")
    ... except ProfileError as exc:
    ...     print(exc)
    '\x1b' (a control character) at column 5: a line is plain text: delete it
    >>> refuse_control_characters("Bolt rifle: A2\r\n") is None
    True
    """
    lead = len(text) - len(text.lstrip())
    found = unsafe_character(text.strip(), tab)
    if found is not None:
        index, char = found[0] + lead, found[1]
        fix = f"{what} is one line: write a space instead" if char.isspace() else \
            f"{what} is plain text: delete it"
        raise ProfileError(describe_character(char), detail=f": {fix}", token=shown(char),
                           column=index + 1, line=line)


def check_line_numbers(line: str, limit: int = MAX_NUMBER) -> None:
    """Refuse a line holding a non-ASCII digit or a number larger than ``limit``.

    Every number on a Warmachine or Dust line (counts, characteristics, dice, cells) is small;
    checking the line once, in linear time, keeps overflows and huge arrays out of the engines.
    A control or text-direction character (a tab aside) is refused too.
    """
    refuse_control_characters(line, line)
    refuse_foreign_digits(line, line)
    name_start, name_end = _name_span(line)
    start = None
    for index, char in enumerate(line + " "):
        if "0" <= char <= "9":
            start = index if start is None else start
            continue
        if start is not None and name_start <= start < name_end:
            start = None  # digits in a unit or weapon name are part of the name
        elif start is not None:
            digits = line[start:index]
            if len(digits) > len(str(limit)) or int(digits) > limit:
                raise ProfileError(f"'{digits}'", detail=f" is too large: numbers on a line go up "
                                   f"to {limit:,}", token=digits, column=start + 1, line=line)
            start = None


def _name_span(line: str) -> tuple[int, int]:
    """Where the free-text name of ``[Nx] Name: ...`` lies (empty when there is no colon)."""
    colon = line.find(":")
    if colon < 0:
        return 0, 0
    start = len(line) - len(line.lstrip())
    index = start
    while index < colon and "0" <= line[index] <= "9":
        index += 1
    if index > start and index < colon:  # a count such as "5x ": it stays checked
        rest = line[index:colon].lstrip()
        if rest[:1] in ("x", "X", "×"):
            return colon - len(rest) + 1, colon
    return start, colon


#: Most outcome values (wounds, boxes, damage points) the histograms of one Monte Carlo run
#: may hold in all: each chunk keeps its own histogram, so this bounds the memory of a run.
MAX_OUTCOME_VALUES = 100_000
#: Most dice (or attacks) one Monte Carlo run may roll in all, about an hour of one core.
MAX_DICE_PER_RUN = 100_000_000_000


def check_outcome_values(values: int, what: str, fix: str) -> None:
    """Refuse a run whose outcome histograms would need more than :data:`MAX_OUTCOME_VALUES`
    bins (``what`` names the quantity, ``fix`` what to change), before anything is allocated.
    """
    if values > MAX_OUTCOME_VALUES:
        raise OptionError(f"{what} could reach {values:,} (limit {MAX_OUTCOME_VALUES:,}): {fix}")


#: Most cells one heat map may draw (attackers x targets x sweep settings). Each cell prints
#: its value and the figure grows to fit them, so time and memory grow with the cells
#: (30 x 30: about 4 s; 200 x 200: over 2 min and 7 GB, a picture 135 inches wide).
MAX_HEATMAP_CELLS = 1_000
#: Most series (attacker and target pairs) one overlay or sweep-lines chart may draw, in
#: panels of seven (200: about 4 s; 2,500: more than 3 min).
MAX_CHART_SERIES = 200

#: Each chart's limit (the name of its constant, read when a chart is checked), name and unit.
_CHART_LIMITS = {"heatmap": ("MAX_HEATMAP_CELLS", "a heat map", "cells"),
                 "overlay": ("MAX_CHART_SERIES", "an overlay", "curves"),
                 "lines": ("MAX_CHART_SERIES", "a sweep chart", "lines")}


def check_chart_size(kind: str, count: int, shape: str = "") -> None:
    """Refuse a ``kind`` chart (``"heatmap"``, ``"overlay"`` or ``"lines"``) of ``count``
    cells or series beyond its limit, before anything is drawn.

    Parameters
    ----------
    kind
        The chart; any other kind has no limit.
    count
        Its cells (a heat map) or series (one per attacker and target).
    shape
        How the count comes about, in words (``"200 attackers x 200 targets"``), said in
        the refusal.

    Examples
    --------
    >>> try:
    ...     check_chart_size("heatmap", 40_000, "200 attackers x 200 targets")
    ... except OptionError as exc:
    ...     print(exc)
    a heat map of 40,000 cells (200 attackers x 200 targets) is more than 1,000 cells: chart \
fewer attackers or targets, or write the grid as a table (--csv, --markdown)
    """
    if kind not in _CHART_LIMITS:
        return
    constant, chart, unit = _CHART_LIMITS[kind]
    limit: int = globals()[constant]
    if count > limit:
        said = f" ({shape})" if shape else ""
        raise OptionError(f"{chart} of {count:,} {unit}{said} is more than {limit:,} {unit}: "
                          "chart fewer attackers or targets, or write the grid as a table "
                          "(--csv, --markdown)", token=kind)


#: A pessimistic cost model of a Monte Carlo run on a 2-core machine, from the kernels'
#: measured speeds (a one-die trial about 20 ns, 2,000 dice a trial about 18 us): seconds =
#: trials x (SECONDS_PER_TRIAL + dice per trial x SECONDS_PER_DIE).
SECONDS_PER_TRIAL = 25e-9
SECONDS_PER_DIE = 10e-9
#: Longest estimated Monte Carlo run taken without :func:`allow_long_runs` (``--allow-long``).
MAX_RUN_SECONDS = 300.0

_LONG_RUNS: ContextVar[bool] = ContextVar("long_runs_allowed", default=False)


@contextmanager
def allow_long_runs(allowed: bool = True) -> Iterator[None]:
    """Take Monte Carlo runs estimated at more than :data:`MAX_RUN_SECONDS` inside the block.

    The command line's ``--allow-long`` does the same. The hard limits (trials, dice per run)
    still hold.

    Examples
    --------
    >>> import mathhammer as mh
    >>> with mh.allow_long_runs():
    ...     pass  # mh.simulate(..., trials=10_000_000_000) is taken here
    """
    if not isinstance(allowed, bool):
        raise OptionError(f"allow_long_runs({allowed!r}): allowed must be True or False")
    token = _LONG_RUNS.set(allowed)
    try:
        yield
    finally:
        _LONG_RUNS.reset(token)


def estimated_run_seconds(per_trial: int, trials: int) -> float:
    """Seconds a run of ``trials`` trials of up to ``per_trial`` dice each may take here."""
    return trials * (SECONDS_PER_TRIAL + per_trial * SECONDS_PER_DIE)


def describe_seconds(seconds: float) -> str:
    """``'about 4 min'``-style text for an estimate."""
    if seconds < 120:
        return f"about {seconds:,.0f} s"
    if seconds < 2 * 3600:
        return f"about {seconds / 60:,.0f} min"
    return f"about {seconds / 3600:,.1f} h"


def check_run_work(per_trial: int, trials: int, unit: str, limit: int = MAX_DICE_PER_RUN
                   ) -> None:
    """Refuse ``trials`` trials of up to ``per_trial`` ``unit`` each beyond ``limit`` in all
    (such a run would not end in any useful time), and one estimated to take more than
    :data:`MAX_RUN_SECONDS` unless :func:`allow_long_runs` is in force, saying the estimate."""
    if per_trial * trials > limit:
        raise OptionError(f"{trials:,} trials of up to {per_trial:,} {unit} each is more than "
                          f"{limit:,} {unit}: lower {{--trials}}", options={"trials": NAMED})
    seconds = estimated_run_seconds(per_trial, trials)
    if seconds > MAX_RUN_SECONDS and not _LONG_RUNS.get():
        each = unit.removesuffix("s") if per_trial == 1 else unit
        raise OptionError(f"{trials:,} trials of up to {per_trial:,} {each} each would take "
                          f"{describe_seconds(seconds)} (estimate; runs over "
                          f"{MAX_RUN_SECONDS / 60:.0f} min are refused): lower {{--trials}}, or "
                          "pass --allow-long (Python: with mh.allow_long_runs(): ...)",
                          options={"trials": NAMED})
