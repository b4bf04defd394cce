"""Checking the kind of what Python callers pass, so a wrong object is named in one line
instead of failing deep inside with a TypeError."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, overload

from mathhammer.errors import OptionError


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r:.60}"


def one_or_many(value: Any, kinds: tuple[type, ...], what: str, example: str) -> list[Any]:
    """``[value]`` for one text or object of ``kinds``, else the items of an iterable of them.

    Raises
    ------
    OptionError
        Anything else (a number, None, bytes, a dict, an item of the wrong kind), named with
        ``what`` and an ``example`` of what to pass.
    """
    allowed = (str, *kinds)
    if isinstance(value, allowed):
        return [value]
    if isinstance(value, (bytes, Mapping)) or not isinstance(value, Iterable):
        raise OptionError(f"{what} must be text such as {example!r} (or a list of them), not "
                          f"{_shown(value)}")
    items = list(value)
    for item in items:
        if not isinstance(item, allowed):
            raise OptionError(f"each of {what} must be text such as {example!r}, not "
                              f"{_shown(item)}")
    return items


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
    if isinstance(value, bool) or not isinstance(value, numbers.Real) \
            or not math.isfinite(value) or not low <= value <= high:  # type: ignore[operator]
        raise OptionError(f"{what} must be a number from {low:,g} to {high:,g}, not "
                          f"{_shown(value)}")
    return float(value)


def switch(value: Any, what: str) -> bool:
    """``value`` when it is True or False; 'no', 1 and None are refused (``bool('no')`` is
    True)."""
    if not isinstance(value, bool):
        raise OptionError(f"{what} must be True or False, not {_shown(value)}")
    return value
