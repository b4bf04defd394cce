"""Tables for articles, shared by results and comparison frames (no extra dependency).

:func:`markdown_table` renders a pandas frame as a GitHub-flavoured Markdown table, numbers
right-aligned. :class:`Table` is a table ready to paste: human headers, a caption line
naming the metric, the engine and the situation, numbers to a fixed number of decimals
(``digits``), probabilities as percentages, never scientific notation, exact zeros printed
as ``0`` and tiny values as ``<0.001``; as Markdown (:meth:`Table.to_markdown`) or HTML
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


def format_value(value: float, digits: int = 3, *, percent: bool = False) -> str:
    """A number to ``digits`` decimals (a percentage to ``digits - 2``), for article tables.

    Exact zero prints as ``0`` (``0%``) and a certainty as ``100%``; a value too small to
    show at that precision keeps two significant figures, so it is not mistaken for zero.
    NaN prints as an empty cell. Never scientific notation.

    Examples
    --------
    >>> [format_value(v, 3) for v in (0.0, 0.00004, 2.34567, 1234567.0)]
    ['0', '0.000040', '2.346', '1234567.000']
    >>> [format_value(p, 3, percent=True) for p in (0.0, 0.00004, 0.41234, 0.9999, 1.0)]
    ['0%', '0.0040%', '41.2%', '>99.9%', '100%']
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    value = float(value)
    places = max(digits - 2, 0) if percent else max(digits, 0)
    shown = 100 * value if percent else value
    unit = "%" if percent else ""
    if value == 0:
        return f"0{unit}"
    if percent and value == 1:
        return "100%"
    smallest = 10.0 ** -places
    if abs(shown) < smallest:
        decimals = 1 - math.floor(math.log10(abs(shown)))  # two significant figures
        return f"{shown:.{decimals}f}{unit}"
    text = f"{shown:.{places}f}"
    if percent and text == "100" + ("." + "0" * places if places else "") and value < 1:
        return f">{100 - smallest:.{places}f}%"
    return text + unit


def format_estimate(value: float, stderr: float | None, digits: int = 3, *,
                    percent: bool = False) -> str:
    """``value ± stderr`` (Monte Carlo) or ``value`` alone (exact: ``stderr`` None or NaN).

    A Monte Carlo estimate of exactly zero with no spread (the event never happened) reads
    ``0``; the standard error has the value's precision.
    """
    text = format_value(value, digits, percent=percent)
    if stderr is None or math.isnan(stderr) or text == "":
        return text
    if value == 0 and stderr == 0:
        return text
    return f"{text} ± {format_value(stderr, digits, percent=percent)}"


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
        """An HTML ``<table>`` with the caption as ``<caption>``, numbers right-aligned."""
        numeric = self._numeric_columns()
        head = "".join(f"<th>{html.escape(str(c))}</th>" for c in self.frame.columns)
        rows = []
        for row in self.frame.itertuples(index=False, name=None):
            cells = "".join(
                f'<td style="text-align:{"right" if n else "left"}">{html.escape(str(v))}</td>'
                for v, n in zip(row, numeric))
            rows.append(f"<tr>{cells}</tr>")
        caption = (f'<caption style="caption-side:top;text-align:left">'
                   f"{html.escape(self.caption)}</caption>" if self.caption else "")
        return (f"<table>{caption}<thead><tr>{head}</tr></thead>"
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
        Significant figures for floats.
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
