"""Fixtures shared by the Warmachine tests."""

from __future__ import annotations

import sys
import types

import pytest


@pytest.fixture
def cli_main(monkeypatch):
    """``mathhammer.cli.main``, usable even before the 40k command module exists.

    ``build_parser`` imports ``mathhammer.wh40k.cli`` unconditionally; on a branch without it
    a stub with a no-op ``register`` stands in for the duration of the test.
    """
    try:
        import mathhammer.wh40k.cli  # noqa: F401
    except ModuleNotFoundError:
        package = sys.modules.get("mathhammer.wh40k") or types.ModuleType("mathhammer.wh40k")
        stub = types.ModuleType("mathhammer.wh40k.cli")
        stub.register = lambda subparsers: None
        monkeypatch.setitem(sys.modules, "mathhammer.wh40k", package)
        monkeypatch.setitem(sys.modules, "mathhammer.wh40k.cli", stub)
        monkeypatch.setattr(package, "cli", stub, raising=False)
    from mathhammer.cli import main

    return main
