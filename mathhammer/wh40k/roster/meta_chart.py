"""The meta matrix as a heat map that stays readable with 100 lists (``mathhammer meta
--plot``): lists ordered by clustering (lists that fare alike side by side) or by their mean,
labels shortened to fit their cells, the values printed in the cells only while they fit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from mathhammer.charts.layout import (axes_or_new, caption, figure_png, keep_tick_texts,
                                      shorten_ticks, style)
from mathhammer.errors import OptionError
from mathhammer.wh40k.roster.meta_words import ORDERS

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

#: Short words for each metric (titles and the colour bar).
SHORT = {"margin": "points destroyed - points lost", "points_destroyed": "points destroyed",
         "points_lost": "points lost", "models_destroyed": "models destroyed",
         "models_lost": "models lost"}
#: Up to this many lists the values are printed in the cells.
MAX_PRINTED = 14


class MetaHeatmapArtists(NamedTuple):
    ax: Any
    image: Any
    texts: list
    colorbar: Any
    order: list

    def _repr_png_(self) -> bytes:
        return figure_png(self)


def list_order(table: Any, order: str = "cluster") -> list[str]:
    """The lists of a matrix (:meth:`MetaResult.matrix`) in chart order.

    ``"cluster"``: hierarchical clustering (average linkage, optimal leaf order) of the
    lists' rows and columns together, so lists that fare alike sit side by side, the block
    with the highest mean first; ``"mean"``: highest mean first; ``"file"``: as read.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame([[None, 5.0, 4.0], [-5.0, None, 1.0], [-4.0, -1.0, None]],
    ...                      index=list("abc"), columns=list("abc"))
    >>> list_order(table, "mean")
    ['a', 'b', 'c']
    """
    if order not in ORDERS:
        raise OptionError(f"--order '{order}' must be one of {', '.join(ORDERS)}")
    names = [str(n) for n in table.index]
    values = table.to_numpy(dtype=float)
    means = np.nanmean(np.where(np.isnan(values), np.nan, values), axis=1)
    if order == "file" or len(names) < 3:
        return names if order != "mean" else [names[i] for i in np.argsort(-means,
                                                                             kind="stable")]
    if order == "mean":
        return [names[i] for i in np.argsort(-means, kind="stable")]
    from scipy.cluster.hierarchy import leaves_list, linkage  # type: ignore[import-untyped]

    filled = np.nan_to_num(values, nan=0.0)
    features = np.hstack([filled, -filled.T])
    leaves = list(leaves_list(linkage(features, "average", optimal_ordering=True)))
    if means[leaves[-1]] > means[leaves[0]]:  # the stronger end on top
        leaves.reverse()
    return [names[i] for i in leaves]


def meta_heatmap(result: Any, metric: str = "margin", *, order: str = "cluster",
                 ax: Axes | None = None, title: str | None = None) -> MetaHeatmapArtists:
    """The list x list matrix of a :class:`~mathhammer.wh40k.roster.meta_result.MetaResult`.

    Parameters
    ----------
    result
        The meta matrix.
    metric
        One of :data:`~mathhammer.wh40k.roster.meta_words.METRICS` (default ``margin``,
        drawn on a diverging colour scale centred on zero).
    order
        ``"cluster"`` (default), ``"mean"`` or ``"file"`` (see :func:`list_order`).
    ax
        Axes to draw in (default: a new figure sized for the number of lists).
    title
        The chart's title (default: the metric).

    Returns
    -------
    MetaHeatmapArtists
        ``ax``, ``image``, ``texts`` (the cells' values, empty beyond
        :data:`MAX_PRINTED` lists), ``colorbar`` and ``order`` (the lists as drawn).
    """
    from matplotlib.colors import TwoSlopeNorm

    from mathhammer.wh40k.roster.meta_result import check_metric

    check_metric(metric)
    table = result.matrix(metric)
    names = list_order(table, order)
    values = table.loc[names, names].to_numpy(dtype=float)
    n = len(names)
    side = float(min(max(3.0 + 0.13 * n, 6.0), 17.0))
    font = float(min(max(0.62 * 72 * (side - 3.0) / n, 4.5), 10.0))
    chars = 28 if n <= 40 else 22
    ticks = shorten_ticks(names, chars, 1)
    with style():
        ax = axes_or_new(ax, (side + 1.6, side))
        finite = values[np.isfinite(values)]
        if metric == "margin":
            reach = float(np.max(np.abs(finite))) if finite.size else 1.0
            norm = TwoSlopeNorm(0.0, -reach or -1.0, reach or 1.0)
            image = ax.imshow(values, cmap="PuOr", norm=norm, aspect="equal",
                              interpolation="nearest")
        else:
            image = ax.imshow(values, cmap="cividis", aspect="equal", interpolation="nearest")
        ax.set_xticks(range(n), ticks, rotation=90, fontsize=font)
        ax.set_yticks(range(n), ticks, fontsize=font)
        keep_tick_texts(ax, ticks, names)
        ax.tick_params(length=0)
        ax.set_xlabel("opponent (column list)")
        ax.set_ylabel("list (its expected figures against the opponent)")
        texts = []
        if n <= MAX_PRINTED:
            middle = float(np.nanmean(finite)) if finite.size else 0.0
            for i in range(n):
                for j in range(n):
                    if np.isfinite(values[i, j]):
                        dark = values[i, j] < middle if metric != "margin" else \
                            abs(values[i, j]) > 0.6 * (np.max(np.abs(finite)) or 1.0)
                        texts.append(ax.text(j, i, f"{values[i, j]:.0f}", ha="center",
                                             va="center", fontsize=font,
                                             color="white" if dark else "black"))
        colorbar = ax.figure.colorbar(image, ax=ax, shrink=0.6)
        colorbar.set_label(SHORT[metric])
        ax.grid(False)
        ax.set_title(title or f"Meta matrix: {SHORT[metric]}", loc="left")
        caption(ax, f"{n} lists, ordered by {order}; {result.plan_rule}")
    return MetaHeatmapArtists(ax, image, texts, colorbar, names)
