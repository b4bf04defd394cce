"""What a comparison answers when its results are kept: :class:`Comparison`, the tidy frame
and the :class:`~mathhammer.core.result.Result` of every cell behind it.

Every game's ``compare`` and ``sweep`` return the tidy frame (a ``pandas.DataFrame``, what
tables, charts and pandas code take); with ``keep_results=True`` they return a
:class:`Comparison` instead, whose :attr:`~Comparison.frame` is that same frame and whose
:attr:`~Comparison.results` maps each cell's key to its whole result (for overlays of
whole distributions). A frame stays the default because building each cell's whole result
costs time and memory a frame does not need (40k's exact grid answers many cells in one
pass and builds no result unless asked).

The old way, a dict passed as ``results_out=`` and filled on the way, still works for one
release with a :class:`DeprecationWarning` (:func:`results_out_deprecated`).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from mathhammer.core.drawing import chart_drawer
from mathhammer.core.inputs import results_dict, switch
from mathhammer.core.readonly import ReadOnlyDict
from mathhammer.core.result import Result

if TYPE_CHECKING:
    import pandas as pd

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, eq=False)
class Comparison:
    """A comparison's tidy frame and the whole result of every cell behind it.

    Parameters
    ----------
    frame
        The tidy frame ``compare`` returns without ``keep_results`` (columns ``attacker,
        target``, the situation and setting columns, ``metric, value, stderr, method``).
    results
        Cell key -> :class:`~mathhammer.core.result.Result`, in the frame's order; the key
        is ``(attacker, target)``, then the values of the cell's setting columns (a sweep's
        setting). Read-only.

    Examples
    --------
    >>> import mathhammer as mh
    >>> kept = mh.compare(["Bolter: A2 BS3+ S4 AP0 D1"], ["MEQ", "GEQ"], keep_results=True)
    >>> list(kept.results)
    [('Bolter', 'MEQ'), ('Bolter', 'GEQ')]
    >>> round(kept.results["Bolter", "GEQ"].mean("damage"), 4)
    0.5926
    >>> kept.frame.query("metric == 'expected_damage'")["value"].round(4).tolist()
    [0.2222, 0.5926]
    """

    frame: pd.DataFrame
    results: Mapping[tuple[Any, ...], Result]

    def __post_init__(self) -> None:
        if not isinstance(self.results, ReadOnlyDict):
            object.__setattr__(self, "results", ReadOnlyDict(self.results))

    def plot(self, kind: str = "bars", *, metric: str | None = None, outcome: str = "damage",
             ax: Any = None, **kwargs: Any) -> Any:
        """Chart of the comparison (matplotlib; see :mod:`mathhammer.charts`).

        Parameters
        ----------
        kind
            ``"bars"`` (one metric per attacker, grouped by target), ``"heatmap"`` (the grid
            with its values) or ``"overlay"`` (every cell's "at least k" curve of
            ``outcome``, from :attr:`results`).
        metric
            The frame's metric to draw (``bars`` and ``heatmap``; default: the first).
        outcome
            The results' outcome to draw (``overlay``).
        ax
            Axes to draw in; a new article-width figure when ``None``.
        **kwargs
            Passed to the chart function (``title=``...).

        Returns
        -------
        The chart's artists; ``.ax.figure`` is the figure.
        """
        return chart_drawer().comparison(self, kind, metric=metric, outcome=outcome, ax=ax,
                                         **kwargs)

    def _repr_html_(self) -> str:
        html: str = self.frame._repr_html_()
        return html

    def __repr__(self) -> str:
        return repr(self.frame)


def returned(comparison: Comparison, keep_results: bool) -> Any:
    """What a game's ``compare`` hands back: the :class:`Comparison`, or its frame alone."""
    return comparison if keep_results else comparison.frame


def results_out_deprecated(function: F) -> F:
    """Accept the old ``results_out=`` dict of a comparison function for one release.

    The decorated function takes ``keep_results`` instead; a call with ``results_out=`` (a
    dict) warns with a :class:`DeprecationWarning`, runs with ``keep_results=True``, fills
    the dict with the cells' results and returns what the call asked for (the frame unless
    ``keep_results=True`` was given too).

    Examples
    --------
    >>> import mathhammer as mh
    >>> cells = {}
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     frame = mh.compare(["Bolter: A2 BS3+ S4 AP0 D1"], "MEQ", results_out=cells)
    >>> list(cells), caught[0].category.__name__
    ([('Bolter', 'MEQ')], 'DeprecationWarning')
    """
    @functools.wraps(function)
    def wrapper(*args: Any, results_out: Any = None, **kwargs: Any) -> Any:
        if results_out is None:
            return function(*args, **kwargs)
        results_dict(results_out)   # a list or a text: named, at once
        warnings.warn(f"{function.__name__}(results_out=...) is deprecated and will be "
                      f"removed; use {function.__name__}(..., keep_results=True).results",
                      DeprecationWarning, stacklevel=2)
        keep = switch(kwargs.pop("keep_results", False), "keep_results")
        comparison = function(*args, keep_results=True, **kwargs)
        results_out.update(comparison.results)
        return returned(comparison, keep)
    return wrapper  # type: ignore[return-value]
