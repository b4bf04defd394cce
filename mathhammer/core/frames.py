"""The tidy comparison frame every game returns, and what reads it: tables, JSON, points.

One row per (attacker, target, setting, metric)::

    attacker   target  metric                      value  stderr  method
    Lascannon  MEQ     expected_damage             1.31   0.0023  monte-carlo
    Lascannon  MEQ     p_unit_destroyed            0.00   0.0000  monte-carlo

Between ``target`` and ``metric`` come the game's situation columns and a comparison's
setting columns (the parameter a sweep varies, the focus a policy spends); ``stderr`` is the
Monte Carlo standard error (NaN for exact cells) and ``method`` the engine. ``attrs`` hold
``method``, ``trials`` and ``seed``, and ``situation`` (words for captions) when there is one.

:func:`tidy_frame` builds it; :func:`per_points` and :func:`to_json_dict` read any such
frame, whatever the game; its tables (:func:`~mathhammer.report.frame_tables.pivot`,
:func:`~mathhammer.report.frame_tables.table`,
:func:`~mathhammer.report.frame_tables.to_markdown`) are written at the edge, in
:mod:`mathhammer.report.frame_tables`. Those names still answer here for one release, with
a DeprecationWarning.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from mathhammer.core.inputs import points_cost, text, texts
from mathhammer.core.lazy import lazy_names
from mathhammer.errors import OptionError

#: The columns of every comparison frame, in order; situation and setting columns go
#: between ``target`` and ``metric``.
COLUMNS = ["attacker", "target", "metric", "value", "stderr", "method"]
#: The columns that identify a row's figure rather than its cell.
VALUE_COLUMNS = ("metric", "value", "stderr", "method")


def tidy_frame(rows: Sequence[Mapping[str, Any]], middle: Sequence[str] = (), *,
               method: str, trials: int | None = None, seed: Any = None,
               situation: str = "", labels: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The comparison frame of ``rows`` (dicts with the :data:`COLUMNS` and ``middle`` keys).

    Parameters
    ----------
    rows
        One dict per (cell, metric); a missing ``method`` is filled with ``method``.
    middle
        Situation and setting columns, placed between ``target`` and ``metric``.
    method, trials, seed
        Provenance for ``attrs`` (``trials`` and ``seed`` are dropped for exact frames).
    situation
        The situation in words, for captions (``attrs["situation"]``, when not empty).
    labels
        The metrics in words, when the game's differ from the registered ones
        (``attrs["labels"]``, read by the tables' and charts' metric words).

    Examples
    --------
    >>> frame = tidy_frame([{"attacker": "A", "target": "B", "metric": "expected_damage",
    ...                      "value": 1.5, "stderr": math.nan}], method="exact")
    >>> list(frame.columns), frame.attrs["method"]
    (['attacker', 'target', 'metric', 'value', 'stderr', 'method'], 'exact')
    """
    columns = COLUMNS[:2] + list(middle) + COLUMNS[2:]
    frame = pd.DataFrame([{"method": method, **row} for row in rows], columns=columns)
    frame["value"] = frame["value"].astype(float)
    frame["stderr"] = frame["stderr"].astype(float)
    exact = method == "exact"
    frame.attrs.update(method=method, trials=None if exact else trials,
                       seed=None if exact else seed)
    if situation:
        frame.attrs["situation"] = situation
    if labels:
        frame.attrs["labels"] = dict(labels)
    return frame


#: The dtype pandas gives a column of Python strings (``str`` from pandas 3, object before).
STRING_DTYPE = pd.Series(["text"]).dtype


def repeated_strings(values: Sequence[str], counts: Sequence[int] | None = None
                     ) -> Any:
    """A column of ``values`` (each repeated ``counts`` times when given) as pandas would
    build it from a list of the strings (see :func:`string_columns`).

    Examples
    --------
    >>> list(repeated_strings(["A", "B"], [2, 1]))
    ['A', 'A', 'B']
    """
    return string_columns((values, counts))[0]


def _string_array(strings: np.ndarray) -> Any:
    """``pd.array(strings, dtype=STRING_DTYPE)`` (``strings``: an object array of str), by
    the dtype's own array type when it has one (pd.array's dtype lookup costs more)."""
    if isinstance(STRING_DTYPE, pd.StringDtype):
        return STRING_DTYPE.construct_array_type()._from_sequence(strings, dtype=STRING_DTYPE)
    return pd.array(strings, dtype=STRING_DTYPE)


def string_columns(*columns: tuple[Sequence[str], Sequence[int] | None]) -> list[Any]:
    """Columns of strings as pandas would build them from lists, every distinct string of
    all of them converted once: a frame's label columns repeat a few labels, and converting
    every row cost more than the frame. Each column is ``(values, counts)``: ``values[i]``
    repeated ``counts[i]`` times (once each when ``counts`` is None)."""
    every = [v for values, _ in columns for v in values]
    where = {v: i for i, v in enumerate(dict.fromkeys(every))}
    codes = np.fromiter(map(where.__getitem__, every), dtype=np.intp, count=len(every))
    strings = _string_array(np.array(list(where), dtype=object)) if where else None
    out = []
    start = 0
    for values, counts in columns:
        index = codes[start : start + len(values)]
        start += len(values)
        if counts is not None:
            index = np.repeat(index, counts)
        # an empty column stays an empty list: what an empty list of strings gives pandas
        out.append(strings.take(index) if len(index) and strings is not None else [])
    return out


def frame_from_columns(data: Mapping[str, Any]) -> pd.DataFrame:
    """``pd.DataFrame(data)`` for columns of equal length, faster when every column is
    already an array pandas keeps as it is (a float ndarray, a string extension array such
    as :func:`string_columns` gives): the columns' index is built once per set of names and
    pandas' checks of each column are skipped (they cost more than a grid's small frame).

    Examples
    --------
    >>> frame = frame_from_columns({"metric": string_columns((["a", "b"], None))[0],
    ...                             "value": np.array([1.0, 2.0])})
    >>> frame.equals(pd.DataFrame({"metric": ["a", "b"], "value": [1.0, 2.0]}))
    True
    """
    arrays = list(data.values())
    lengths = {len(column) for column in arrays}
    if len(lengths) == 1 and all(map(_kept_as_is, arrays)):
        # a copy of the shared index: a frame's ``columns.name`` may be set in place
        return pd.DataFrame._from_arrays(arrays, columns=_column_index(tuple(data)).copy(),
                                         index=pd.RangeIndex(lengths.pop()),
                                         verify_integrity=False)
    return pd.DataFrame(data, copy=False)


def _kept_as_is(column: Any) -> bool:
    """Whether the frame's constructor would keep ``column`` as it is (no conversion)."""
    if isinstance(column, np.ndarray):
        return column.ndim == 1 and column.dtype.kind in "fi"
    # pandas 3's str columns (pandas 2 turns its object-dtype arrays into numpy ones)
    return (isinstance(column, pd.api.extensions.ExtensionArray)
            and isinstance(column.dtype, pd.StringDtype) and column.dtype == STRING_DTYPE)


@functools.lru_cache(maxsize=64)
def _column_index(names: tuple[str, ...]) -> pd.Index:
    """The columns' index of a frame with these column names (an Index never changes)."""
    return pd.DataFrame({name: [] for name in names}).columns


def extra_columns(frame: pd.DataFrame) -> list[str]:
    """The situation and setting columns of a comparison frame (neither cell nor value)."""
    return [c for c in frame.columns if c not in COLUMNS]


def per_points(frame: pd.DataFrame, points: Mapping[str, float], *, by: str = "attacker",
               metrics: Sequence[str] = ("expected_damage", "expected_models_destroyed")
               ) -> pd.DataFrame:
    """Add per-100-points rows to any tidy frame of expectations (e.g. whole-unit results).

    Data interface: a frame with columns ``by`` (the label that has a points cost, e.g.
    ``attacker`` or ``unit``), ``metric``, ``value`` and ``stderr``; other columns (target,
    sweep settings, battle round...) are kept and identify the cell. For every row whose
    metric is in ``metrics`` and whose ``by`` label is in ``points``, a row is added with
    ``value * 100 / points`` (and the same scaling of ``stderr``), named by dropping
    ``expected_`` and adding ``_per_100pts`` (``expected_damage`` ->
    ``damage_per_100pts``), right after its cell's rows. Probabilities are not scaled.

    Examples
    --------
    >>> df = pd.DataFrame({"unit": ["A", "A"], "metric": ["expected_damage", "p_unit_destroyed"],
    ...                    "value": [3.0, 0.5], "stderr": [0.1, 0.01]})
    >>> per_points(df, {"A": 150}, by="unit")[["metric", "value"]].round(3).values.tolist()
    [['expected_damage', 3.0], ['p_unit_destroyed', 0.5], ['damage_per_100pts', 2.0]]
    """
    by = text(by, "by (the column of the labels that have points)")
    metrics = texts(metrics, "metrics")
    check_frame(frame, (by, "metric", "value", "stderr"), "per_points")
    if not isinstance(points, Mapping):
        raise OptionError(f"points must be a dict label -> points cost, not "
                          f"{type(points).__name__} {points!r:.60}")
    for label, cost in points.items():
        points_cost(cost, f"points for '{label}'")
    # In Python over the rows (these frames are small: pandas calls per row group cost more
    # than the rows): each row's cell, numbered in order of first appearance; a cell's
    # added rows follow its own, cells in that order.
    keys = [c for c in frame.columns if c not in VALUE_COLUMNS]
    cells: dict[tuple[str, ...], int] = {}
    cell_ids = [cells.setdefault(tuple(map(str, row)), len(cells))
                for row in zip(*(frame[c].tolist() for c in keys))]
    wanted, costs = set(metrics), {k: float(v) for k, v in points.items()}
    labels, metric_names = frame[by].tolist(), frame["metric"].tolist()
    chosen = [i for i, (label, metric) in enumerate(zip(labels, metric_names))
              if metric in wanted and label in costs]
    rows = sorted(range(len(cell_ids) + len(chosen)),
                  key=lambda r: cell_ids[r] if r < len(cell_ids)
                  else cell_ids[chosen[r - len(cell_ids)]])
    positions = [r if r < len(cell_ids) else chosen[r - len(cell_ids)] for r in rows]
    scales = [1.0 if r < len(cell_ids) else 100.0 / costs[labels[chosen[r - len(cell_ids)]]]
              for r in rows]
    out = frame.take(positions)
    out.index = pd.RangeIndex(len(out))
    out["metric"] = [metric_names[p] if r < len(cell_ids)
                     else metric_names[p].removeprefix("expected_") + "_per_100pts"
                     for r, p in zip(rows, positions)]
    factor = np.array(scales)
    out["value"] = out["value"].to_numpy() * factor
    out["stderr"] = out["stderr"].to_numpy() * factor
    out.attrs = dict(frame.attrs)
    out.attrs["points"] = {**(frame.attrs.get("points") or {}),
                           **{str(k): float(v) for k, v in points.items()}}
    return out


def with_points(label: Any, metric: str, frame: pd.DataFrame) -> str:
    """A per-100-points row's label with the points it was divided by ("Unit (120 pts)"),
    from ``frame.attrs["points"]`` (written by :func:`per_points`); any other label as is.

    Examples
    --------
    >>> df = per_points(pd.DataFrame({"attacker": ["A"], "metric": ["expected_damage"],
    ...                               "value": [3.0], "stderr": [0.1]}), {"A": 150})
    >>> with_points("A", "damage_per_100pts", df), with_points("A", "expected_damage", df)
    ('A (150 pts)', 'A')
    """
    points = (frame.attrs.get("points") or {}).get(str(label))
    if str(metric).endswith("_per_100pts") and points:
        return f"{label} ({float(points):g} pts)"
    return str(label)


def engine_words(frame: pd.DataFrame) -> str:
    """The engine behind a frame, in words: ``"exact"``, ``"Monte Carlo, 200,000 trials
    per cell, seed 1"``, or for a ``"mixed"`` frame (``method="auto"``) ``"exact where it
    can, else Monte Carlo, ..."``; ``""`` when ``attrs`` do not say."""
    method = frame.attrs.get("method")
    if method == "exact":
        return "exact"
    if method not in ("monte-carlo", "mixed") or not frame.attrs.get("trials"):
        return ""
    words = f"Monte Carlo, {frame.attrs['trials']:,} trials per cell"
    if frame.attrs.get("seed") is not None:
        words += f", seed {frame.attrs['seed']}"
    return f"exact where it can, else {words}" if method == "mixed" else words


def to_json_dict(frame: pd.DataFrame) -> dict[str, Any]:
    """The ``--json`` shape: provenance plus one record per row (NaN stderr as null)."""
    check_frame(frame, COLUMNS[:5], "to_json_dict")
    records = []
    for row in frame.to_dict(orient="records"):
        records.append({k: (None if isinstance(v, float) and math.isnan(v) else
                            v.item() if isinstance(v, np.generic) else v)
                        for k, v in row.items()})
    return {"method": frame.attrs.get("method"), "trials": frame.attrs.get("trials"),
            "seed": frame.attrs.get("seed"), "rows": records}


def check_frame(frame: Any, columns: Sequence[str], what: str) -> None:
    """Refuse a ``frame`` that is not a DataFrame with ``columns`` (a comparison's), naming
    what is missing."""
    if not isinstance(frame, pd.DataFrame):
        raise OptionError(f"{what} takes a comparison frame (a pandas DataFrame from "
                          f"compare or sweep), not {type(frame).__name__} {frame!r:.40}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise OptionError(f"{what} needs a '{missing[0]}' column; the frame has: "
                          f"{', '.join(map(str, frame.columns))}")


#: The frame's tables, moved to the edge (core imports nothing above it): they answer here
#: for one release, with a DeprecationWarning naming their home.
__getattr__, _ = lazy_names(__name__, {}, {
    name: f"mathhammer.report.frame_tables.{name}" for name in ("pivot", "table",
                                                                 "to_markdown")})
