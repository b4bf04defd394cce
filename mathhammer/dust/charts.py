"""Charts for Dust Tactics results (matplotlib is imported lazily, at the edge).

Every function takes ``ax=None`` (a new figure, not registered with pyplot, when omitted)
and returns its artists. Colours, line styles and markers are the shared ones of
:mod:`mathhammer.core.charts`, so every game's charts look alike.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from mathhammer.core.chart_layout import PALETTE  # noqa: F401  (the one palette, re-exported)
from mathhammer.core.chart_layout import (axes_or_new, fit_to_figure, grow_to_fit,
                                          label_chars, legend_outside, series_hatch,
                                          series_style, style, wrap)
from mathhammer.core.chart_layout import title as title_text
from mathhammer.core.result import Result


def _axes(ax):
    return axes_or_new(ax, (7.0, 4.0))


def plot_losses(frame: pd.DataFrame, ax=None, *, title: str = "Expected losses",
                ylabel: str = "expected models lost", errors: pd.DataFrame | None = None):
    """Grouped bars: one group per row of ``frame``, one bar per column.

    Parameters
    ----------
    frame
        E.g. rows = weapons, columns = targets (or cover states), values = expected losses.
    ax
        Matplotlib axes to draw on; a new figure when ``None``.
    errors
        Optional frame of the same shape with standard errors (Monte Carlo) for error bars.

    Returns
    -------
    list of matplotlib.container.BarContainer
    """
    with style():
        return _draw_losses(frame, _axes(ax), title, ylabel, errors)


def _draw_losses(frame, ax, title, ylabel, errors):
    n_rows, n_cols = frame.shape
    width = 0.8 / max(n_cols, 1)
    x = np.arange(n_rows)
    bars = []
    for k, column in enumerate(frame.columns):
        yerr = None if errors is None else errors[column].to_numpy()
        bars.append(ax.bar(x + (k - (n_cols - 1) / 2) * width, frame[column].to_numpy(),
                           width, label=str(column), color=series_style(k)["color"],
                           hatch=series_hatch(k), edgecolor="#ffffff" if series_hatch(k)
                           else None, yerr=yerr, capsize=3 if yerr is not None else 0))
    ax.set_xticks(x, [wrap(str(i), max(4, label_chars(ax, 0.9 / max(n_rows, 1), 14, 4)), 3)
                      for i in frame.index], rotation=0)
    ax.set_ylabel(ylabel)
    title_text(ax, title)
    legend_outside(ax, bars, [str(c) for c in frame.columns],
                   width=label_chars(ax, 0.35, 26, 12))
    ax.grid(axis="y", alpha=0.3)
    grow_to_fit(ax.figure)
    fit_to_figure([ax])
    return bars


def plot_pmfs(results: Mapping[str, Result], outcome: str = "models_destroyed", ax=None, *,
              title: str | None = None):
    """Overlay the pmf of ``outcome`` for several labelled results (markers and lines).

    Returns
    -------
    list of matplotlib.lines.Line2D
    """
    with style():
        return _draw_pmfs(results, outcome, _axes(ax), title)


def _draw_pmfs(results, outcome, ax, title):
    lines = []
    label = outcome.replace("_", " ")
    for k, (name, result) in enumerate(results.items()):
        label = result.label(outcome)
        pmf = result.pmf(outcome)
        (line,) = ax.plot(pmf.index, pmf.to_numpy(), label=name, **series_style(k))
        lines.append(line)
    ax.set_xlabel(label)
    ax.set_ylabel("probability")
    title_text(ax, title or f"Distribution of {label}")
    note, names = _pmf_notes(results)
    legend_outside(ax, lines, names, title=note or None, width=label_chars(ax, 0.35, 26, 12))
    ax.grid(alpha=0.3)
    grow_to_fit(ax.figure)
    fit_to_figure([ax])
    return lines


def _pmf_notes(results: Mapping[str, Result]) -> tuple[str, list[str]]:
    """The legend title and the series labels of :func:`plot_pmfs`: one caption (engine,
    situation, rules, profiles) when every result shares it; else the engine, situation and
    rules they share as the title and what a series has on its own in its label, so no
    result loses what it was computed under."""
    captions = list(dict.fromkeys(getattr(r, "caption", "") for r in results.values()))
    if len(captions) == 1:
        return captions[0], [str(name) for name in results]
    notes = ["; ".join(p for p in (getattr(r, "engine_note", ""), getattr(r, "situation", ""))
                       if p) for r in results.values()]
    shared = notes[0] if len(set(notes)) == 1 else ""
    names = [str(name) if not note or note == shared else f"{name} [{note}]"
             for name, note in zip(results, notes)]
    return shared, names

