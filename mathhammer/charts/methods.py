"""What the ``plot`` methods of results and comparisons draw.

:meth:`mathhammer.core.result.Result.plot` and
:meth:`mathhammer.core.comparison.Comparison.plot` are thin: core draws nothing and imports
no chart code, so the package's top level (:mod:`mathhammer`) names this module to core
(:func:`mathhammer.core.result.use_charts`) and the methods call :func:`result` and
:func:`comparison` here, which choose the chart kind and draw it with the public chart
functions.
"""

from __future__ import annotations

from typing import Any

from mathhammer.errors import MathhammerError


def result(answer: Any, outcome: str = "damage", kind: str = "distribution", *,
           ax: Any = None, **kwargs: Any) -> Any:
    """Chart of one outcome of a result: ``kind`` ``"distribution"`` (bars of P(= k), the
    "at least k" curve, the mean; :func:`~mathhammer.charts.distribution`) or
    ``"at_least"`` (the "at least k" curve alone; :func:`~mathhammer.charts.overlay`).

    Examples
    --------
    >>> import mathhammer as mh
    >>> r = mh.exact("Bolter: A2 BS3+ S4 AP0 D1", "MEQ")
    >>> type(result(r, "damage")).__name__
    'DistributionArtists'
    """
    from mathhammer.charts import distribution, overlay

    answer.distribution(outcome)   # an unknown outcome: named, with the ones there are
    if kind == "distribution":
        return distribution(answer, outcome, ax=ax, **kwargs)
    if kind == "at_least":
        return overlay([answer], outcome, ax=ax, **kwargs)
    raise MathhammerError(f"unknown chart kind '{kind}'; use 'distribution' or 'at_least'")


def comparison(kept: Any, kind: str = "bars", *, metric: str | None = None,
               outcome: str = "damage", ax: Any = None, **kwargs: Any) -> Any:
    """Chart of a :class:`~mathhammer.core.comparison.Comparison`: ``kind`` ``"bars"``
    (:func:`~mathhammer.charts.bars` of ``metric``), ``"heatmap"``
    (:func:`~mathhammer.charts.heatmap`) or ``"overlay"`` (every cell's "at least k" curve
    of ``outcome``, :func:`~mathhammer.charts.overlay`).

    Examples
    --------
    >>> import mathhammer as mh
    >>> kept = mh.compare(["Bolter: A2 BS3+ S4 AP0 D1"], ["MEQ", "GEQ"], keep_results=True)
    >>> type(comparison(kept, "heatmap")).__name__
    'HeatmapArtists'
    """
    from mathhammer.charts import bars, heatmap, overlay

    if kind == "bars":
        return bars(kept.frame, metric, ax=ax, **kwargs)
    if kind == "heatmap":
        return heatmap(kept.frame, metric, ax=ax, **kwargs)
    if kind == "overlay":
        return overlay(kept.results, outcome, ax=ax, **kwargs)
    raise MathhammerError(f"unknown chart kind '{kind}'; use 'bars', 'heatmap' or 'overlay'")
