"""Lazy public names for package ``__init__`` modules (PEP 562).

A package lists ``name -> module`` once and ends with
``__getattr__, __dir__ = lazy_names(__name__, _LAZY)``; the module is imported the first time
the name is used, so ``import mathhammer`` and ``import mathhammer.dust`` stay quick (no
numpy, numba or pandas until they are needed).

Importing a submodule makes Python set it as an attribute of its package, so no submodule
may share a public name of its package: the engines are ``exact_engine`` (and
``monte_carlo``), the comparison modules ``comparisons``, so ``mathhammer.dust.exact`` is
always the function (``tests/test_layout.py`` checks every package).
"""

from __future__ import annotations

import sys
import threading
import warnings
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import Any

_resolving = threading.local()  # (package, name) pairs being resolved by this thread


def lazy_names(package: str, names: Mapping[str, str], moved: Mapping[str, str] | None = None
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` (PEP 562) of a package that serves ``names``
    (public name -> dotted module defining it) lazily.

    Call it at the end of the package's ``__init__``:
    ``__getattr__, __dir__ = lazy_names(__name__, _LAZY)``. A name is imported the first
    time it is used and then kept on the package, so later uses are plain attribute reads.
    A name that is the package's own submodule (``"wh40k": "mathhammer.wh40k"``) is that
    module. ``moved`` names (name -> its new dotted spelling, ``"mathhammer.wh40k.Rules"``)
    still answer, each time with a :class:`DeprecationWarning` naming the new spelling;
    ``dir()`` leaves them out.
    """
    served = dict(names)
    homes = dict(moved or {})

    def __getattr__(name: str) -> Any:
        module_name = served.get(name)
        if module_name is None and name in homes:
            warnings.warn(f"{package}.{name} is deprecated and will be removed from "
                          f"{package}; use {homes[name]}", DeprecationWarning, stacklevel=2)
            home, _, new = homes[name].rpartition(".")
            return getattr(import_module(home), new)
        if module_name is None:
            raise AttributeError(f"module '{package}' has no attribute '{name}'")
        if module_name == f"{package}.{name}":
            return import_module(module_name)   # the import sets it on the package
        # A module that, while it is being imported, asks this package for the very name it
        # defines would bring us back here without end: say so instead of recursing.
        key = (package, name)
        if key in _resolving.__dict__.setdefault("keys", set()):
            raise AttributeError(f"'{package}.{name}' is asked for while "
                                 f"'{module_name}' is still being imported (an import cycle)")
        _resolving.keys.add(key)
        try:
            value = getattr(import_module(module_name), name)
        finally:
            _resolving.keys.discard(key)
        # Kept on the package: later uses are plain attribute reads (1.9 us per mh.exact
        # call through __getattr__ otherwise).
        vars(sys.modules[package])[name] = value
        return value

    def __dir__() -> list[str]:
        """The public names, the module's dunders and its public submodules already loaded.

        Names the ``__init__`` only uses (``annotations``, ``lazy_names``, ``_LAZY``) are
        left out, so ``dir()`` and tab completion show the API.
        """
        own = vars(sys.modules[package])
        return sorted(set(served)
                      | {name for name in own if _is_dunder(name)}
                      | {name for name, value in own.items()
                         if not name.startswith("_") and _is_submodule(package, value)})

    return __getattr__, __dir__


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _is_submodule(package: str, value: object) -> bool:
    return isinstance(value, ModuleType) and value.__name__.startswith(package + ".")
