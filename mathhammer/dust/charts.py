"""Charts for Dust Tactics results (matplotlib is imported here only, at the edge).

Every function takes ``ax=None`` (a new figure when omitted) and returns its artists.
Colours follow the Okabe-Ito palette, which stays distinguishable with colour blindness.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from mathhammer.core.result import Result

#: Okabe-Ito colour-blind-safe palette.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000")


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    return ax


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
    ax = _axes(ax)
    n_rows, n_cols = frame.shape
    width = 0.8 / max(n_cols, 1)
    x = np.arange(n_rows)
    bars = []
    for k, column in enumerate(frame.columns):
        yerr = None if errors is None else errors[column].to_numpy()
        bars.append(ax.bar(x + (k - (n_cols - 1) / 2) * width, frame[column].to_numpy(),
                           width, label=str(column), color=PALETTE[k % len(PALETTE)],
                           yerr=yerr, capsize=3 if yerr is not None else 0))
    ax.set_xticks(x, [str(i) for i in frame.index], rotation=0)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return bars


def plot_pmfs(results: Mapping[str, Result], outcome: str = "models_destroyed", ax=None, *,
              title: str | None = None):
    """Overlay the pmf of ``outcome`` for several labelled results (markers and lines).

    Returns
    -------
    list of matplotlib.lines.Line2D
    """
    ax = _axes(ax)
    lines = []
    label = outcome.replace("_", " ")
    for k, (name, result) in enumerate(results.items()):
        pmf = result.pmf(outcome)
        (line,) = ax.plot(pmf.index, pmf.to_numpy(), marker="o", label=name,
                          color=PALETTE[k % len(PALETTE)])
        lines.append(line)
    ax.set_xlabel(label)
    ax.set_ylabel("probability")
    ax.set_title(title or f"Distribution of {label}")
    ax.legend(frameon=False)
    ax.grid(alpha=0.3)
    return lines
