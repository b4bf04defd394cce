"""Read-only containers: what a result holds cannot be changed after it is made."""

from __future__ import annotations

from typing import Any, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")


class ReadOnlyDict(dict[_K, _V]):
    """A dict that refuses every change after it is made: a
    :class:`~mathhammer.core.result.Result`'s mappings.

    Still a dict for readers (``json.dumps``, ``isinstance``, ``{**d}``); it pickles and
    copies as a new ReadOnlyDict. Make a changed result with ``dataclasses.replace``.

    Examples
    --------
    >>> d = ReadOnlyDict({"a": 1})
    >>> try:
    ...     d["b"] = 2
    ... except TypeError as exc:
    ...     print(str(exc)[:44])
    a result cannot be changed after it is made;
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a result cannot be changed after it is made; build a new one "
                        "(dataclasses.replace(result, inputs={**result.inputs, ...}))")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[type[ReadOnlyDict[_K, _V]], tuple[dict[_K, _V]]]:
        return type(self), (dict(self),)
