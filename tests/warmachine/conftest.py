"""Fixtures shared by the Warmachine tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def cli_main():
    """``mathhammer.cli.main``."""
    from mathhammer.cli import main

    return main
