"""A comparison frame's tables: :func:`pivot` (a wide frame of cells), :func:`table` (ready to
paste, with a caption) and :func:`to_markdown`.

They read any game's tidy frame (:mod:`mathhammer.core.frames`) and write its figures with the
report's number rule (:func:`~mathhammer.report.tables.format_estimate`) and metric words
(:func:`~mathhammer.report.labels.metric_label`); core builds the frame and knows none of
this.
"""

from __future__ import annotations

import math  # noqa: F401  (the examples' NaN)

import pandas as pd

from mathhammer.core.frames import COLUMNS, check_frame, engine_words, extra_columns, with_points
from mathhammer.core.frames import tidy_frame  # noqa: F401  (the examples' frame)
from mathhammer.core.inputs import switch, text
from mathhammer.errors import OptionError, did_you_mean
from mathhammer.report.labels import metric_label
from mathhammer.report.tables import Table, check_digits, format_estimate

__all__ = ["pivot", "table", "to_markdown"]


def pivot(frame: pd.DataFrame, metric: str | None = None, *, stderr: bool = True) -> pd.DataFrame:
    """A readable wide table of a comparison frame (any game's ``compare`` or ``sweep``).

    With ``metric``: attackers (and sweep settings) as rows, targets as columns. Without:
    one row per cell, one column per metric. Monte Carlo cells read ``"1.234 ± 0.002"``.
    """
    check_frame(frame, COLUMNS[:5], "pivot")
    stderr = switch(stderr, "stderr")
    frame = _settings_shown(frame)
    extra = extra_columns(frame)
    trials = frame.attrs.get("trials")
    cells = frame.assign(cell=[_cell(v, s, stderr, m, trials=trials) for v, s, m in
                               zip(frame["value"], frame["stderr"], frame["metric"])])
    if metric is not None:
        _check_metric(frame, metric)
        part = cells[cells["metric"] == metric]
        table = part.pivot_table(index=["attacker", *extra], columns="target", values="cell",
                                 aggfunc="first", sort=False)
    else:
        table = cells.pivot_table(index=["attacker", "target", *extra], columns="metric",
                                  values="cell", aggfunc="first", sort=False)
    table.columns.name = None
    return table.fillna("")


def _settings_shown(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with the setting columns a table can show: a column no row sets (Dust's
    ``distance`` when none is given) left out, a missing setting written ``-`` (a table's
    rows are grouped by the settings, and pandas drops a group whose key is missing)."""
    extra = extra_columns(frame)
    unset = [c for c in extra if frame[c].isna().all()]
    partly = [c for c in extra if c not in unset and frame[c].isna().any()]
    if not unset and not partly:
        return frame
    shown = frame.drop(columns=unset)
    for column in partly:   # (pandas made a column of numbers and gaps float: 2.0 -> 2)
        shown[column] = ["-" if pd.isna(v) else int(v) if isinstance(v, float)
                         and v.is_integer() else v for v in shown[column]]
    return shown


def table(frame: pd.DataFrame, metric: str | None = None, *, digits: int = 3,
          stderr: bool = True) -> Table:
    """A comparison frame as a table ready to paste (Markdown or HTML).

    With ``metric``: attackers (and sweep settings) as rows, targets as columns, and a
    caption naming the metric, the engine and the situation. Without: one row per cell and
    one column per metric, headed in words. Numbers have ``digits`` significant figures
    (1 to 6), probabilities are percentages, Monte Carlo cells read ``value ± s.e.`` with
    no more decimals than the error supports, exact zeros ``0``, events never seen in the
    trials ``not seen in N trials`` (see :func:`mathhammer.report.tables.format_estimate`).

    Examples
    --------
    >>> df = tidy_frame([{"attacker": "Lascannon", "target": t, "metric": "p_unit_destroyed",
    ...                   "value": 0.0, "stderr": math.nan} for t in ("MEQ", "VEQ")],
    ...                 method="exact")
    >>> print(table(df, "p_unit_destroyed", digits=3).to_markdown())
    *P(unit destroyed); exact*
    <BLANKLINE>
    | attacker | MEQ | VEQ |
    |---|---:|---:|
    | Lascannon | 0% | 0% |
    """
    check_frame(frame, COLUMNS[:5], "table")
    stderr = switch(stderr, "stderr")
    frame = _settings_shown(frame)
    extra = extra_columns(frame)
    digits = check_digits(digits)
    trials = frame.attrs.get("trials")
    cells = frame.assign(cell=[_cell(v, s, stderr, m, digits, trials) for v, s, m in
                               zip(frame["value"], frame["stderr"], frame["metric"])])
    if metric is not None:
        _check_metric(frame, metric)
        wide = cells[cells["metric"] == metric].pivot_table(
            index=["attacker", *extra], columns="target", values="cell", aggfunc="first",
            sort=False)
        heading = metric_label(metric, frame)
    else:
        wide = cells.pivot_table(index=["attacker", "target", *extra], columns="metric",
                                 values="cell", aggfunc="first", sort=False)
        wide.columns = [metric_label(m, frame) for m in wide.columns]
        heading = ""
    wide.columns.name = None
    wide = _points_shown(wide.fillna("").reset_index(), frame, metric)
    wide.columns = [str(c).replace("_", " ") if c in extra else str(c) for c in wide.columns]
    caption = "; ".join(p for p in (heading, engine_words(frame),
                                    frame.attrs.get("situation", "")) if p)
    return Table(wide, caption)


def to_markdown(frame: pd.DataFrame, metric: str | None = None, *, stderr: bool = True,
                digits: int = 3, caption: bool = False) -> str:
    """:func:`table` as Markdown; ``caption=True`` puts its caption line above it."""
    caption = switch(caption, "caption")
    result = table(frame, metric, digits=digits, stderr=stderr)
    return result.to_markdown() if caption else Table(result.frame).to_markdown()


def _points_shown(wide: pd.DataFrame, frame: pd.DataFrame, metric: str | None) -> pd.DataFrame:
    """A table of per-100-points figures says what each row was divided by: the attacker
    named with its points (one metric), or a ``points`` column (every metric)."""
    costs = frame.attrs.get("points") or {}
    per_points_rows = frame["metric"].astype(str).str.endswith("_per_100pts")
    if not costs or not per_points_rows.any() or "attacker" not in wide.columns:
        return wide
    if metric is not None:
        if str(metric).endswith("_per_100pts"):
            wide["attacker"] = [with_points(a, metric, frame) for a in wide["attacker"]]
        return wide
    shown = [f"{float(costs[str(a)]):g}" if str(a) in costs else "" for a in wide["attacker"]]
    wide.insert(list(wide.columns).index("attacker") + 1, "points", shown)
    return wide


def _cell(value: float, err: float, with_stderr: bool, metric: str = "",
          digits: int | None = None, trials: int | None = None) -> str:
    """One cell: probabilities as percentages; ``digits`` significant figures, or 4 when
    ``None`` (the plain-text grid); Monte Carlo cells as ``value ± s.e.``, never with more
    decimals than the error supports (see :func:`mathhammer.report.tables.format_estimate`)."""
    return format_estimate(value, err if with_stderr else None,
                           4 if digits is None else digits, percent=metric.startswith("p_"),
                           trials=trials)


def _check_metric(frame: pd.DataFrame, metric: str) -> None:
    text(metric, "metric")
    present = list(dict.fromkeys(frame["metric"]))
    if metric not in present:
        hint = did_you_mean(metric, present).lower()
        raise OptionError(f"no metric '{metric}' in this comparison{hint}; it has: "
                          f"{', '.join(present)}")
