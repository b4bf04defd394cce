"""Checking the kind of what Python callers pass, so a wrong object is named in one line
instead of failing deep inside with a TypeError."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Iterator, Mapping, MappingView, MutableMapping
from collections.abc import Set as AbstractSet
from typing import Any, Literal, overload

from mathhammer.errors import OptionError


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r:.60}"


def unordered(value: Any) -> bool:
    """Whether ``value`` is a collection whose order the caller did not choose: a set or
    frozenset (its order changes from run to run), a dict view, or a one-shot iterator such
    as a generator (read once, gone when a check or a retry reads it again)."""
    return isinstance(value, (AbstractSet, MappingView, Iterator))


def refuse_unordered(value: Any, what: str) -> None:
    """Raise an :class:`OptionError` naming ``what`` when ``value`` is :func:`unordered`:
    weapons resolve in order, cells are seeded in order, so order matters."""
    if unordered(value):
        raise OptionError(f"{what} must be a list or tuple (their order matters), not "
                          f"{_shown(value)}")


def one_or_many(value: Any, kinds: tuple[type, ...], what: str, example: str) -> list[Any]:
    """``[value]`` for one text or object of ``kinds``, else the items of a list of them.

    Raises
    ------
    OptionError
        Anything else (a number, None, bytes, a dict, an item of the wrong kind, a set or a
        generator, whose order is not the caller's), named with ``what`` and an ``example``
        of what to pass.
    """
    allowed = (str, *kinds)
    if isinstance(value, allowed):
        return [value]
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise OptionError(f"{what} must be text such as {example!r} (or a list of them), not "
                          f"{_shown(value)}")
    refuse_unordered(value, what)
    items = list(value)
    for item in items:
        if not isinstance(item, allowed):
            raise OptionError(f"each of {what} must be text such as {example!r}, not "
                              f"{_shown(item)}")
    return items


def optional_instance(value: Any, kind: type, what: str, example: str) -> Any:
    """``value`` when it is None (the default) or a ``kind``; else an :class:`OptionError`
    naming ``what`` and an ``example`` (``rules='x'`` would fail deep inside with an
    AttributeError)."""
    if value is not None and not isinstance(value, kind):
        raise OptionError(f"{what} must be a {kind.__name__}, e.g. {example}, or None for the "
                          f"defaults; not {_shown(value)}")
    return value


def whole_number(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as an int when it is a whole number in ``[low, high]`` (not a bool)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or not low <= int(value) <= high:
        raise OptionError(f"{what} must be a whole number from {low:,} to {high:,}, not "
                          f"{_shown(value)}")
    return int(value)


@overload
def text(value: Any, what: str, *, optional: Literal[False] = False) -> str: ...


@overload
def text(value: Any, what: str, *, optional: bool) -> str | None: ...


def text(value: Any, what: str, *, optional: bool = False) -> str | None:
    """``value`` when it is text (or None when ``optional``); else an :class:`OptionError`
    naming ``what`` (a name of 5 or ["B"] is not a name)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise OptionError(f"{what} must be text, not {_shown(value)}")
    return value


def texts(value: Any, what: str) -> tuple[str, ...]:
    """A tuple of texts from one text or a list/tuple of texts; else an :class:`OptionError`."""
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)):
        raise OptionError(f"{what} must be text or a list of texts, not {_shown(value)}")
    for item in value:
        if not isinstance(item, str):
            raise OptionError(f"each of {what} must be text, not {_shown(item)}")
    return tuple(value)


def real_number(value: Any, what: str, low: float, high: float) -> float:
    """``value`` as a float when it is a finite real number in ``[low, high]`` (not a bool,
    not text, not nan)."""
    import math
    import numbers

    # the ignore: mypy does not model numbers.Real's comparisons (PEP 484 leaves the tower out)
    # the range first: math.isfinite(10**400) raises OverflowError
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not low <= value <= high or not math.isfinite(value):  # type: ignore[operator]
        raise OptionError(f"{what} must be a number from {low:,g} to {high:,g}, not "
                          f"{_shown(value)}")
    return float(value)


#: Largest points cost of one attacker (the command line's ``--points`` limit too).
MAX_POINTS = 1e9


def points_cost(value: Any, what: str) -> float:
    """``value`` as a float when it is a positive finite number of points, at most
    :data:`MAX_POINTS` (``10**400`` would not even fit a float)."""
    import math
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not 0 < value <= MAX_POINTS or not math.isfinite(value):  # type: ignore[operator]
        raise OptionError(f"{what} must be a positive finite number of at most "
                          f"{MAX_POINTS:,.0f}, not {_shown(value)}")
    return float(value)


def switch(value: Any, what: str) -> bool:
    """``value`` when it is True or False (a numpy bool too); 'no', 1 and None are refused
    (``bool('no')`` is True)."""
    import numpy as np

    if not isinstance(value, (bool, np.bool_)):
        raise OptionError(f"{what} must be True or False, not {_shown(value)}")
    return bool(value)


def optional_switch(value: Any, what: str) -> bool | None:
    """``value`` when it is True, False or None (a three-way switch whose None means
    "decide for me"); anything else refused as by :func:`switch`."""
    if value is None:
        return None
    try:
        return switch(value, what)
    except OptionError:
        raise OptionError(f"{what} must be True, False or None, not {_shown(value)}") from None


def results_dict(value: Any, what: str = "results_out") -> MutableMapping[Any, Any] | None:
    """``value`` when it is None or a dict to fill (a list or a frozen mapping cannot take
    results by key)."""
    if value is not None and not isinstance(value, MutableMapping):
        raise OptionError(f"{what} must be a dict to fill with each cell's result (or None), "
                          f"not {_shown(value)}")
    return value


def dask_client(value: Any) -> Any:
    """``value`` when it is None or looks like a ``dask.distributed.Client`` (it can
    ``submit`` tasks and ``gather`` their results)."""
    if value is not None and not all(callable(getattr(value, name, None))
                                     for name in ("submit", "gather")):
        raise OptionError(f"client must be a dask.distributed.Client (or None to run here), "
                          f"not {_shown(value)}")
    return value


def chart_source(value: Any, what: str = "result") -> Any:
    """``value`` when a chart can draw it: a result (with a public ``distribution(outcome)``)
    or a distribution (with ``at_least()``); else an :class:`OptionError` naming ``what``."""
    if not any(callable(getattr(value, name, None)) for name in ("distribution", "at_least")):
        raise OptionError(f"{what} must be a result (mh.exact(...), mh.simulate(...)) or a "
                          f"Distribution, not {_shown(value)}")
    return value


def chart_sources(values: Any, what: str = "results") -> Any:
    """``values`` when it is a dict label -> result or a list of results (each a
    :func:`chart_source`); else an :class:`OptionError` naming ``what``."""
    if isinstance(values, Mapping):
        items = list(values.values())
    elif isinstance(values, (str, bytes)) or not isinstance(values, Iterable) \
            or unordered(values):
        raise OptionError(f"{what} must be a list of results or a dict label -> result (in "
                          f"the order to draw them), not {_shown(values)}")
    else:
        items = list(values)
    if not items:
        raise OptionError(f"{what} must hold at least one result to draw")
    for item in items:
        chart_source(item, f"each of {what}")
    return values


def chart_text(value: Any, what: str) -> str | None:
    """A chart's ``title`` or ``label``: text, or None for the chart's own words."""
    if value is not None and not isinstance(value, str):
        raise OptionError(f"{what} must be text (or None for the chart's own), not "
                          f"{_shown(value)}")
    return value


def chart_texts(values: Any, count: int, what: str = "labels") -> list[str] | None:
    """An overlay's ``labels``: one text per result, in order, or None."""
    if values is None:
        return None
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable) or \
            unordered(values):
        raise OptionError(f"{what} must be a list of texts, one per result, not "
                          f"{_shown(values)}")
    items = list(values)
    for item in items:
        chart_text(item, f"each of {what}")
    if len(items) != count:
        raise OptionError(f"{len(items)} {what} for {count} results: give one per result")
    return items


def chart_limits(value: Any, what: str = "ylim") -> tuple[float, float] | None:
    """An axis range ``(low, high)`` of finite numbers with low < high, or None."""
    if value is None:
        return None
    pair = list(value) if isinstance(value, (tuple, list)) else None
    if pair is None or len(pair) != 2 or not all(
            isinstance(v, numbers.Real) and not isinstance(v, bool) for v in pair):
        raise OptionError(f"{what} must be a pair of numbers (low, high), not {_shown(value)}")
    low, high = (float(v) for v in pair)
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise OptionError(f"{what} = ({low:g}, {high:g}) must be finite with low < high")
    return low, high


def chart_axes(value: Any) -> Any:
    """``ax``: None, or matplotlib axes to draw in."""
    if value is None:
        return None
    from matplotlib.axes import Axes

    if not isinstance(value, Axes):
        raise OptionError(f"ax must be matplotlib axes (fig, ax = plt.subplots()) or None for "
                          f"a new figure, not {_shown(value)}")
    return value


def chart_facet(value: Any) -> Any:
    """An overlay's ``facet``: ``"auto"``, ``"target"``, True, False or None (1 and 0 are
    not switches: they read as True and False)."""
    if not (value is None or isinstance(value, bool) or value in ("auto", "target")):
        raise OptionError(f"facet must be 'auto', 'target', True, False or None, not "
                          f"{_shown(value)}")
    return value


def chart_frame(value: Any, what: str = "frame") -> Any:
    """``value`` when it is a pandas DataFrame (a grid or sweep chart reads its columns);
    else an :class:`OptionError` naming ``what``."""
    import pandas as pd

    if not isinstance(value, pd.DataFrame):
        raise OptionError(f"{what} must be a pandas DataFrame (the frame of mh.compare, "
                          f"mh.sweep or a result's survival()), not {_shown(value)}")
    return value
