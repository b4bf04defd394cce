"""Plain-text table exports shared by results and comparison frames (no extra dependency).

:func:`markdown_table` renders a pandas frame as a GitHub-flavoured Markdown table, numbers
right-aligned, for pasting into articles.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from numbers import Integral, Real
from typing import Any

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
        if value != 0 and (abs(value) >= 10 ** (digits + 2) or abs(value) < 1e-4):
            return f"{value:.{digits - 1}e}"
        text = f"{value:.{digits}g}"
        if "e" in text:  # e.g. 1e+03 from %g; spell it out
            text = f"{value:.0f}"
        return text
    return str(value)


def _escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_table(frame: pd.DataFrame, *, index: bool = True, digits: int = 4,
                   formatter: Callable[[Any], str] | None = None) -> str:
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
    numeric = [pd.api.types.is_numeric_dtype(data[c]) and not pd.api.types.is_bool_dtype(data[c])
               for c in data.columns]
    lines = ["| " + " | ".join(headers) + " |",
             "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    for row in data.itertuples(index=False, name=None):
        lines.append("| " + " | ".join(_escape(fmt(v)) for v in row) + " |")
    return "\n".join(lines)


def _trivial_index(frame: pd.DataFrame) -> bool:
    idx = frame.index
    return (not isinstance(idx, pd.MultiIndex) and idx.name is None
            and isinstance(idx, pd.RangeIndex))
