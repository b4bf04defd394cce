"""Where the ``plot`` methods of core's objects find their charts.

:meth:`~mathhammer.core.result.Result.plot` and
:meth:`~mathhammer.core.comparison.Comparison.plot` are thin methods; core draws nothing and
imports no chart code (charts sit above core). The package's top level, which sits above
both, names the module that draws (:mod:`mathhammer.charts.methods`) with
:func:`use_charts`; it is imported when a chart is first asked for. Stdlib only, so
``import mathhammer`` stays quick.
"""

from __future__ import annotations

from typing import Any

from mathhammer.errors import MathhammerError

#: The module that draws for the ``plot`` methods (see :func:`use_charts`).
_CHARTS: list[str] = []


def use_charts(module: str) -> None:
    """Name the module that draws for the ``plot`` methods: its function ``result(result,
    outcome, kind, ax=..., **kwargs)`` draws a result, ``comparison(comparison, kind,
    metric=..., outcome=..., ax=..., **kwargs)`` a comparison.

    Examples
    --------
    >>> import mathhammer
    >>> chart_drawer().__name__
    'mathhammer.charts.methods'
    """
    _CHARTS[:] = [str(module)]


def chart_drawer() -> Any:
    """The module named by :func:`use_charts`, imported."""
    from importlib import import_module

    if not _CHARTS:
        raise MathhammerError("no module draws charts for .plot(): import mathhammer, which "
                              "names mathhammer.charts.methods")
    return import_module(_CHARTS[0])
