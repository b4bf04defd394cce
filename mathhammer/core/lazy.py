"""Lazy public names for package ``__init__`` modules.

A package lists ``name -> module`` once; the module is imported the first time the name is
used, so ``import mathhammer`` and ``import mathhammer.dust`` stay quick (no numpy, numba or
pandas until they are needed).

Every game has an ``exact`` module (its exact engine) and exports an ``exact`` function (from
its ``api``). Importing a submodule makes Python set it as an attribute of its package, which
would hide the function of the same name; a lazy package refuses that one assignment, so
``from mathhammer.dust import exact`` is always the function. Code inside the package imports
names *from* the engine module (``from mathhammer.dust.exact import plan_pmfs``).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Mapping
from importlib import import_module
from types import ModuleType
from typing import Any


def lazy_names(package: str, names: Mapping[str, str]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` (PEP 562) of a package that serves ``names``
    (public name -> dotted module defining it) lazily.

    Call it at the end of the package's ``__init__``:
    ``__getattr__, __dir__ = lazy_names(__name__, _LAZY)``. A name is imported the first
    time it is used and then kept on the package, so later uses are plain attribute reads.
    """
    served = dict(names)

    def __getattr__(name: str) -> Any:
        module_name = served.get(name)
        if module_name is None:
            raise AttributeError(f"module '{package}' has no attribute '{name}'")
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


def lazy_package(package: str, names: Mapping[str, str]) -> None:
    """Serve ``names`` (public name -> dotted module defining it) lazily from ``package``.

    Call it at the end of the package's ``__init__`` with ``__name__``.
    """
    module = sys.modules[package]
    module.__class__ = type("LazyPackage", (_LazyPackage,), {"_lazy_names": dict(names)})


_resolving = threading.local()  # (package, name) pairs being resolved by this thread


class _LazyPackage(ModuleType):
    _lazy_names: dict[str, str] = {}

    def __getattr__(self, name: str) -> Any:
        module_name = self._lazy_names.get(name)
        if module_name is None:
            raise AttributeError(f"module '{self.__name__}' has no attribute '{name}'")
        # A module that, while it is being imported, asks this package for the very name it
        # defines would bring us back here without end: say so instead of recursing.
        key = (self.__name__, name)
        if key in _resolving.__dict__.setdefault("keys", set()):
            raise AttributeError(f"'{self.__name__}.{name}' is asked for while "
                                 f"'{module_name}' is still being imported (an import cycle)")
        _resolving.keys.add(key)
        try:
            value = getattr(import_module(module_name), name)
        finally:
            _resolving.keys.discard(key)
        # Kept on the package: later uses are plain attribute reads (1.9 us per mh.exact
        # call through __getattr__ otherwise).
        self.__dict__[name] = value
        return value

    def __dir__(self) -> list[str]:
        """The public names, the module's dunders and its public submodules already loaded.

        Names the ``__init__`` only uses (``annotations``, ``lazy_package``, ``_LAZY``) are
        left out, so ``dir()`` and tab completion show the API.
        """
        return sorted(set(self._lazy_names)
                      | {name for name in self.__dict__ if _is_dunder(name)}
                      | {name for name, value in self.__dict__.items()
                         if not name.startswith("_") and _is_submodule(self.__name__, value)})

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and name in self._lazy_names:
            return  # a submodule named like a public function: keep serving the function
        super().__setattr__(name, value)


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _is_submodule(package: str, value: object) -> bool:
    return isinstance(value, ModuleType) and value.__name__.startswith(package + ".")
