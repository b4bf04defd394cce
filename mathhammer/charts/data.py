"""What charts read of their data: a result's named distributions and a tidy frame's rows.

No matplotlib here: the chart modules draw what these functions pick out (a distribution
with its label, subject and note; one metric's rows, with any setting column folded into
the row labels; the engine and situation words of a frame's caption).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from mathhammer.core.frames import engine_words
from mathhammer.errors import OptionError


#: The columns every tidy frame has; any other column is a setting (a sweep parameter).
TIDY = ("attacker", "target", "metric", "value", "stderr", "method")


class NamedDistribution(NamedTuple):
    """A distribution with the words a chart needs: its outcome's ``label``, what it is
    about (``subject``) and how it was computed (``note``)."""

    dist: Any
    label: str
    subject: str
    note: str


def named_distribution(source: Any, outcome: str, label: str | None = None) -> NamedDistribution:
    """Distribution and words of ``outcome`` from a result (anything with a public
    ``distribution(outcome)``) or from a bare distribution."""
    from mathhammer.core.inputs import chart_text

    dist = source.distribution(outcome) if hasattr(source, "distribution") else source
    name = chart_text(label, "label") or getattr(dist, "label", None) or outcome.replace("_", " ")
    subject = getattr(dist, "subject", None) or ""
    note = getattr(dist, "note", None) or getattr(dist, "engine_note", None) or ""
    return NamedDistribution(dist, name, subject, note)


def visible_max(dist: Any, tail: float = 5e-4) -> int:
    """The largest k worth drawing: the last where P(at least k) is still ``tail`` or more
    (at least 1)."""
    at_least = dist.at_least()
    big = np.flatnonzero(at_least >= tail)
    return max(int(big[-1]) if len(big) else 0, 1)


def padded(values: np.ndarray, length: int) -> np.ndarray:
    """``values`` cut or padded with zeros to ``length``."""
    return np.pad(values, (0, max(0, length - len(values))))[:length]


def metric_rows(frame: pd.DataFrame, metric: str | None, *, rows: str,
                columns: str) -> tuple[pd.DataFrame, str]:
    """The rows of one metric (default: the frame's first) and its name, after checking
    that the frame has the columns a grid chart reads."""
    for column in ("metric", "value", rows, columns):
        if column not in frame.columns:
            raise OptionError(f"heat map needs a '{column}' column; the frame has: "
                              f"{', '.join(map(str, frame.columns))}")
    present = list(dict.fromkeys(frame["metric"]))
    metric = metric or present[0]
    if metric not in present:
        raise OptionError(f"no metric '{metric}' in this frame; it has: {', '.join(present)}")
    return frame[frame["metric"] == metric].copy(), metric


def fold_extra(part: pd.DataFrame, rows: str, columns: str) -> pd.DataFrame:
    """Extra columns that vary (a sweep parameter; not a situation every row shares) folded
    into the row labels."""
    extra = [c for c in part.columns if c not in TIDY and c not in (rows, columns)
             and part[c].astype(str).nunique() > 1]
    if extra:
        part[rows] = [f"{r} ({', '.join(f'{c} {v}' for c, v in zip(extra, vals))})"
                      for r, *vals in part[[rows, *extra]].itertuples(index=False)]
    return part


def frame_note(frame: pd.DataFrame) -> str:
    """A frame's caption words: its engine (exact, or Monte Carlo with trials and seed)
    and ``attrs["situation"]``."""
    engine = engine_words(frame)
    return "; ".join(p for p in (engine, frame.attrs.get("situation", "")) if p)
