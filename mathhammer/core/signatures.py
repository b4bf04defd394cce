"""The shared shape of the games' public functions: the engine choice, and old spellings
accepted for one release with a DeprecationWarning.

The games' public functions share one shape: the subjects first (``weapons, target`` for one
attack sequence, ``attackers, targets`` for a comparison), then keyword-only options with the
same names and defaults in every game (``method="auto"``, ``trials``, ``seed``,
``progress``). Spellings from before that shape (``exact=True``, optimise's ``engine=``,
Warmachine's ``attacks=``/``targets=`` and its positional ``rules``) still work for one
release through :func:`old_spellings`, which turns them into the new keywords and warns.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from mathhammer.core.inputs import switch
from mathhammer.errors import OptionError

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

#: An old keyword's translation: its value -> (new keyword, new value).
Translation = Callable[[Any], "tuple[str, Any]"]

#: The engine choices every game's functions take.
AUTO, EXACT, MONTE_CARLO = "auto", "exact", "monte-carlo"
METHODS = (AUTO, EXACT, MONTE_CARLO)


def renamed(new: str) -> Translation:
    """The translation of a keyword that only changed its name."""
    return lambda value: (new, value)


def exact_as_method(value: Any, *, if_true: str = EXACT,
                    if_none: str | None = None) -> tuple[str, Any]:
    """``exact=True``/``False`` as ``method="exact"``/``"monte-carlo"`` (``if_true`` for a
    function whose ``exact=True`` meant another engine choice; ``if_none`` when ``None``
    was a choice too)."""
    if value is None and if_none is not None:
        return "method", if_none
    try:
        value = switch(value, "exact")
    except OptionError:
        choices = "True, False or None" if if_none else "True or False"
        raise OptionError(f"exact must be {choices}, not {type(value).__name__} "
                          f"{value!r:.40}; better, give method='auto', 'exact' or "
                          f"'monte-carlo'") from None
    return "method", if_true if value else MONTE_CARLO


def check_method(method: Any, name: str = "method") -> str:
    """``method`` if it is one of :data:`METHODS` (``"simulate"`` is read as
    ``"monte-carlo"``), else an :class:`OptionError` naming the choices.

    Examples
    --------
    >>> check_method("auto"), check_method("simulate")
    ('auto', 'monte-carlo')
    """
    if method == "simulate":
        return MONTE_CARLO
    if isinstance(method, str) and method in METHODS:
        return method
    raise OptionError(f"{name}={method!r:.40} is not an engine; use 'auto' (exact where the "
                      f"exact engine can follow the attacks, else Monte Carlo), 'exact' or "
                      f"'monte-carlo'")


def by_method(method: str, exact: Callable[[], T], monte_carlo: Callable[[], T]) -> T:
    """``exact()`` or ``monte_carlo()`` as ``method`` (checked) asks; ``"auto"``: exact
    unless the exact engine refuses (an :class:`UnsupportedError`), then Monte Carlo.

    Examples
    --------
    >>> by_method("auto", lambda: "exact", lambda: "monte carlo")
    'exact'
    """
    from mathhammer.errors import UnsupportedError

    method = check_method(method)
    if method != MONTE_CARLO:
        try:
            return exact()
        except UnsupportedError:
            if method == EXACT:
                raise
    return monte_carlo()


def old_spellings(*, positional: Sequence[str] = (),
                  **translations: Translation) -> Callable[[F], F]:
    """Accept a function's old keyword spellings (and options once given by position) for
    one release, with a :class:`DeprecationWarning` naming the new spelling.

    Parameters
    ----------
    positional
        Options that used to follow the subjects by position, in their old order; the
        function now takes them by keyword only.
    translations
        Old keyword -> its :data:`Translation` (see :func:`renamed`,
        :func:`exact_as_method`).

    Examples
    --------
    >>> @old_spellings(colour=renamed("color"))
    ... def paint(*, color="red"):
    ...     return color
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     paint(colour="blue"), caught[0].category.__name__
    ('blue', 'DeprecationWarning')
    """
    def decorate(function: F) -> F:
        n_subjects = _subject_count(function)

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if positional and len(args) > n_subjects:
                args, kwargs, message = _by_keyword(function.__name__, args, kwargs,
                                                    n_subjects, positional)
                _warn(message)
            for old, translate in translations.items():
                if old in kwargs:
                    new, value = translate(kwargs.pop(old))
                    if new in kwargs:
                        raise OptionError(f"{function.__name__}: give {new}= alone; {old}= "
                                          f"is its old spelling")
                    _warn(f"{function.__name__}({old}=...) is deprecated and will be removed; "
                          f"use {new}={value!r:.40}")
                    kwargs[new] = value
            return function(*args, **kwargs)
        return wrapper  # type: ignore[return-value]
    return decorate


def moved_into(name: str, options: Callable[..., Any],
               keywords: Sequence[str] | Mapping[str, str]) -> Callable[[F], F]:
    """Accept keywords that moved into an options object (``name=options(...)``) for one
    release, with a :class:`DeprecationWarning` naming the new spelling. ``keywords`` may map
    an old keyword to the options' field of another name.

    Examples
    --------
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Brush:
    ...     width: int = 1
    >>> @moved_into("brush", Brush, ["width"])
    ... def paint(*, brush=Brush()):
    ...     return brush.width
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     paint(width=3), str(caught[0].message)
    (3, 'paint(width=...) is deprecated and will be removed; use brush=Brush(width=3)')
    """
    fields = dict(keywords) if isinstance(keywords, Mapping) else {k: k for k in keywords}

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            given = {k: kwargs.pop(k) for k in fields if k in kwargs}
            if given:
                if kwargs.get(name) is not None:
                    raise OptionError(f"{function.__name__}: give {', '.join(given)} inside "
                                      f"{name}=, not beside it")
                moved = {fields[k]: v for k, v in given.items()}
                shown = ", ".join(f"{k}={v!r:.30}" for k, v in moved.items())
                _warn(f"{function.__name__}({'=..., '.join(given)}=...) is deprecated and "
                      f"will be removed; use {name}={getattr(options, '__name__', name)}"
                      f"({shown})")
                kwargs[name] = options(**moved)
            return function(*args, **kwargs)
        return wrapper  # type: ignore[return-value]
    return decorate


def _subject_count(function: Callable[..., Any]) -> int:
    import inspect

    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in kinds for p in inspect.signature(function).parameters.values())


def _by_keyword(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], n_subjects: int,
                positional: Sequence[str]) -> tuple[tuple[Any, ...], dict[str, Any], str]:
    """The options given by position after the subjects, as keywords, and the warning."""
    extra = args[n_subjects:]
    if len(extra) > len(positional):
        raise OptionError(f"{name} takes {n_subjects} subjects by position, then keywords; "
                          f"got {len(args)} values by position")
    for keyword, value in zip(positional, extra):
        if keyword in kwargs:
            raise OptionError(f"{name}: {keyword} given twice (by position and by keyword)")
        kwargs[keyword] = value
    given = positional[:len(extra)]
    return args[:n_subjects], kwargs, (
        f"{name}: {', '.join(given)} by position is deprecated and will be removed; give "
        f"{'it' if len(given) == 1 else 'them'} by keyword ({given[0]}=...)")


def _warn(message: str) -> None:
    # stacklevel 3: the caller of the decorated function, not the wrapper
    warnings.warn(message, DeprecationWarning, stacklevel=3)
