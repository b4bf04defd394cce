"""Checking the kind of what Python callers pass, so a wrong object is named in one line
instead of failing deep inside with a TypeError."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

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
            or not low <= value <= high:
        raise OptionError(f"{what} must be a whole number from {low:,} to {high:,}, not "
                          f"{_shown(value)}")
    return int(value)
