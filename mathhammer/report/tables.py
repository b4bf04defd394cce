"""Tables for articles, shared by results and comparison frames (no extra dependency).

:func:`markdown_table` renders a pandas frame as a GitHub-flavoured Markdown table, numbers
right-aligned. :class:`Table` is a table ready to paste: human headers, a caption line
naming the metric, the engine and the situation, numbers to a fixed number of significant
figures (``digits``; :func:`format_value` is the one number-formatting rule of charts and
tables), probabilities as percentages, never scientific notation, exact zeros printed as
``0``, tiny values as ``<0.01%``/``<0.001``, Monte Carlo values with their standard error
(:func:`format_estimate`); as Markdown (:meth:`Table.to_markdown`) or HTML
(:meth:`Table.to_html`, also what notebooks show).
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
import pandas as pd


def format_number(value: Any, digits: int = 4) -> str:
    """``value`` as short text: integers as is, floats to ``digits`` significant figures."""
    digits = check_digits(digits)
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Integral):
        return str(int(value))
    if isinstance(value, Real):
        value = float(value)
        if math.isnan(value):
            return ""
        if math.isinf(value):
            return "∞" if value > 0 else "-∞"
        # fixed-point to ``digits`` significant figures: 5e-06 -> 0.000005, never 5.000e-06
        return np.format_float_positional(value, precision=digits, unique=False,
                                          fractional=False, trim="-")
    return str(value)


#: Smallest percentage a table or chart prints; a smaller non-zero probability reads "<0.01%".
PERCENT_FLOOR = 0.01
#: Smallest magnitude of other numbers; a smaller non-zero value reads "<0.001".
NUMBER_FLOOR = 0.001
#: Significant figures tables and charts print unless told otherwise, and the range allowed.
DEFAULT_DIGITS = 3
MAX_DIGITS = 6


def check_digits(digits: Any) -> int:
    """``digits`` as a number of significant figures from 1 to :data:`MAX_DIGITS`, or an
    :class:`~mathhammer.errors.OptionError` naming the value and the range."""
    from mathhammer.errors import OptionError

    if isinstance(digits, bool) or not isinstance(digits, Integral) \
            or not 1 <= int(digits) <= MAX_DIGITS:
        raise OptionError(f"digits={digits!r}: give a number of significant figures from 1 "
                          f"to {MAX_DIGITS}, e.g. 3")
    return int(digits)


def _places(shown: float, figures: int) -> int:
    """Decimals that give ``shown`` (> 0) ``figures`` significant figures (never < 0)."""
    shown = float(f"{shown:.10g}")  # 100 * (1 - 0.9999) is 0.00999999...: one decade off
    decade = math.floor(math.log10(shown))
    places = max(0, figures - 1 - decade)
    if places and round(shown, places) >= 10.0 ** (decade + 1):
        places -= 1  # 0.995 to one figure is 1, not 1.0
    return places


def _error_places(stderr: float) -> int:
    """Decimals of a standard error: one significant figure, two when it starts with a 1
    (0.012 -> 0.012, 0.03 -> 0.03)."""
    leading = float(f"{stderr:.10g}") / 10.0 ** math.floor(math.log10(stderr))
    return _places(stderr, 2 if leading < 2 else 1)


def _value_places(value: float, digits: int, percent: bool) -> int:
    """Decimals of one value: ``digits`` significant figures; a probability above one half
    also keeps one significant figure of its distance to certainty (99.95%, not 100%)."""
    shown = abs(value) * (100 if percent else 1)
    places = _places(shown, digits)
    if percent and 0.5 < value < 1:
        places = max(places, _places(100 * (1 - value), 1))
    return places


def _floored(value: float, percent: bool) -> str | None:
    """"<0.01%" / ">99.99%" / "<0.001" for values too close to 0 (or to 1) to print."""
    if percent:
        if 0 < value < PERCENT_FLOOR / 100:
            return f"<{PERCENT_FLOOR:g}%"
        if 1 - PERCENT_FLOOR / 100 < value < 1:
            return f">{100 - PERCENT_FLOOR:g}%"
        return None
    if 0 < abs(value) < NUMBER_FLOOR:
        return f"<{NUMBER_FLOOR:g}" if value > 0 else f">-{NUMBER_FLOOR:g}"
    return None


def _fixed(value: float, places: int, percent: bool) -> str:
    shown = 100 * value if percent else value
    text = f"{shown:.{places}f}"
    if text.lstrip("-").strip("0.") == "":
        text = "0"  # -0.0004 at 3 decimals is no "-0.000"
    return text + ("%" if percent else "")


def format_value(value: float, digits: int = DEFAULT_DIGITS, *, percent: bool = False) -> str:
    """A number to ``digits`` significant figures (a probability as a percentage), for
    article tables and chart labels: the one number-formatting rule of mathhammer.

    Exact zero prints as ``0`` (``0%``, "impossible") and a certainty as ``100%``; a
    non-zero value too small to print reads ``<0.01%`` (probabilities) or ``<0.001``, one
    too close to certainty ``>99.99%``; a probability above one half keeps a significant
    figure of its distance to 100% (``99.95%``). NaN prints as an empty cell. Never
    scientific notation. Monte Carlo estimates go through :func:`format_estimate`, which
    also limits the decimals to what the standard error supports.

    Examples
    --------
    >>> [format_value(v, 3) for v in (0.0, 0.00004, 2.34567, 7.0, 1234567.0)]
    ['0', '<0.001', '2.35', '7.00', '1234567']
    >>> [format_value(p, 3, percent=True) for p in (0.0, 1e-19, 0.0123, 0.919, 0.9999, 1.0)]
    ['0%', '<0.01%', '1.23%', '91.9%', '99.99%', '100%']
    """
    digits = check_digits(digits)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    value = float(value)
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    if value == 0:
        return "0%" if percent else "0"
    if percent and value == 1:
        return "100%"
    floored = _floored(value, percent)
    if floored is not None:
        return floored
    return _fixed(value, _value_places(value, digits, percent), percent)


def estimate_parts(value: float, stderr: float | None, digits: int = DEFAULT_DIGITS, *,
                   percent: bool = False, trials: int | None = None) -> tuple[str, str]:
    """The value and standard-error texts of :func:`format_estimate` (the error ``""``
    for an exact value), for cells that put them on two lines."""
    digits = check_digits(digits)
    exact = stderr is None or (isinstance(stderr, float) and math.isnan(stderr))
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "", ""
    value = float(value)
    if exact or stderr is None:
        return format_value(value, digits, percent=percent), ""
    stderr = abs(float(stderr))
    seen = f"{trials:,} trials" if trials else "the trials"
    if value == 0 and stderr == 0:
        return "not seen", f"in {seen}"
    if percent and value == 1 and stderr == 0:
        return "100%", f"in all {seen}"
    floored = _floored(value, percent)
    if floored is not None or stderr == 0 or math.isinf(value):
        return format_value(value, digits, percent=percent), ""
    # the standard error sets the decimals, value and error alike ("1.328 ± 0.004" at any
    # digits): never more than it supports, never fewer (no "± <0.01" beside "± 0.002");
    # a value of 0 (a tie between two estimates: "0.00 ± 0.05") has no figures to cap them
    places = _error_places(stderr * (100 if percent else 1))
    if value != 0:
        places = min(places, _value_places(value, MAX_DIGITS, percent))
    error = _fixed(stderr, places, percent)
    if error.rstrip("%") == "0":
        error = "<" + _fixed(10.0 ** -places / (100 if percent else 1), places, percent)
    return _fixed(value, places, percent), f"± {error}"


def format_estimate(value: float, stderr: float | None, digits: int = DEFAULT_DIGITS, *,
                    percent: bool = False, trials: int | None = None) -> str:
    """``value ± stderr`` (Monte Carlo) or ``value`` alone (exact: ``stderr`` None or NaN).

    The one rule of tables, charts and the web page: an exact value has ``digits``
    significant figures; a Monte Carlo value has the decimals of its standard error (the
    error's first significant figure, two when it starts with a 1), value and error alike,
    whatever ``digits`` says (``"3.6% ± 0.2%"``, ``"1.328 ± 0.004"``), so a cell never
    claims more than the trials support and never hides an error the trials measured. An event
    that never happened reads ``not seen in N trials`` (``trials``), told apart from an exact ``0``
    (impossible).

    Examples
    --------
    >>> format_estimate(4.99512, 0.021, 3)
    '5.00 ± 0.02'
    >>> format_estimate(0.0, 0.0, 3, percent=True, trials=10_000)
    'not seen in 10,000 trials'
    >>> format_estimate(0.0, None, 3, percent=True)
    '0%'
    """
    shown, error = estimate_parts(value, stderr, digits, percent=percent, trials=trials)
    return f"{shown} {error}" if error else shown


#: the spacing of every cell of :meth:`Table.to_html`
HTML_CELL = "padding:0.2em 0.75em;white-space:nowrap"


@dataclass(frozen=True)
class Table:
    """A table ready to paste: cells already formatted, a caption line above it.

    Notebooks show it as HTML; ``str(table)`` and :meth:`to_markdown` give Markdown.
    """

    frame: pd.DataFrame
    caption: str = ""

    def to_markdown(self) -> str:
        body = markdown_table(self.frame, index=False, formatter=str,
                              numeric=self._numeric_columns())
        return f"*{_escape(self.caption)}*\n\n{body}" if self.caption else body

    def to_html(self) -> str:
        """An HTML ``<table>`` with the caption as ``<caption>``, numbers right-aligned.

        The spacing is written on the elements themselves (:data:`HTML_CELL`), so the table
        reads the same pasted into an article, a notebook or the documentation, whatever
        style sheet is around it: no figures run together as ``0.9260.787``.
        """
        numeric = self._numeric_columns()
        head = "".join(f'<th style="{HTML_CELL};text-align:{"right" if n else "left"};'
                       f'border-bottom:1px solid currentColor">{html.escape(str(c))}</th>'
                       for c, n in zip(self.frame.columns, numeric))
        rows = []
        for row in self.frame.itertuples(index=False, name=None):
            cells = "".join(
                f'<td style="{HTML_CELL};text-align:{"right" if n else "left"}">'
                f"{html.escape(str(v))}</td>" for v, n in zip(row, numeric))
            rows.append(f"<tr>{cells}</tr>")
        caption = (f'<caption style="caption-side:top;text-align:left;padding:0 0.75em 0.3em;'
                   f'font-style:italic">{html.escape(self.caption)}</caption>'
                   if self.caption else "")
        return (f'<table style="border-collapse:collapse;margin:0.5em 0;'
                f'font-variant-numeric:tabular-nums">{caption}<thead><tr>{head}</tr></thead>'
                f"<tbody>{''.join(rows)}</tbody></table>")

    def _numeric_columns(self) -> list[bool]:
        return [all(_looks_numeric(v) for v in self.frame[c]) for c in self.frame.columns]

    def _repr_html_(self) -> str:
        return self.to_html()

    def _repr_markdown_(self) -> str:
        return self.to_markdown()

    def __str__(self) -> str:
        return self.to_markdown()


def _looks_numeric(value: Any) -> bool:
    text = str(value).strip().lstrip("<>-").replace("%", "").split(" ± ")[0]
    return text == "" or text.replace(".", "", 1).isdigit()


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(frame: pd.DataFrame, *, index: bool = True, digits: int = 4,
                   formatter: Callable[[Any], str] | None = None,
                   numeric: Sequence[bool] | None = None) -> str:
    """A Markdown (pipe) table of ``frame``.

    Parameters
    ----------
    frame
        Any frame; a (Multi)Index becomes the leading column(s) when ``index`` is true.
    index
        Include the index.
    digits
        Significant figures for floats, 1 to :data:`MAX_DIGITS` (anything else raises
        :class:`~mathhammer.errors.OptionError`).
    formatter
        Custom cell formatter (overrides ``digits``).
    numeric
        Which columns to right-align (default: the numeric dtypes).

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"k": [0, 1], "P": [0.25, 0.75]}), index=False))
    | k | P |
    |---:|---:|
    | 0 | 0.25 |
    | 1 | 0.75 |
    """
    digits = check_digits(digits)
    fmt = formatter or (lambda v: format_number(v, digits))
    data = frame.reset_index() if index and not _trivial_index(frame) else frame
    headers = [_escape(str(c)) for c in data.columns]
    if numeric is None:
        numeric = [pd.api.types.is_numeric_dtype(data[c])
                   and not pd.api.types.is_bool_dtype(data[c]) for c in data.columns]
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    for row in data.itertuples(index=False, name=None):
        lines.append("| " + " | ".join(_escape(fmt(v)) for v in row) + " |")
    return "\n".join(lines)


def _trivial_index(frame: pd.DataFrame) -> bool:
    idx = frame.index
    return (not isinstance(idx, pd.MultiIndex) and idx.name is None
            and isinstance(idx, pd.RangeIndex))
