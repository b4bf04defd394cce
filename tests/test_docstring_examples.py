"""Every Examples section of the package runs as a doctest (issue 42): the documentation's
examples are the code's answers, module by module (about 190 examples in 8 s)."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import matplotlib
import pytest

import mathhammer

matplotlib.use("Agg")

#: Every module of the package except the command line's entry (importing it runs it).
MODULES = sorted(m.name for m in pkgutil.walk_packages(mathhammer.__path__, "mathhammer.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_examples(name, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)   # examples/ paths
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_the_modules_people_read_first_have_examples():
    for name in ("mathhammer.wh40k.comparisons", "mathhammer.report.tables",
                 "mathhammer.charts", "mathhammer.wh40k.targets", "mathhammer.wh40k.api",
                 "mathhammer.core.game"):
        _, tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS,
                                   report=False)
        assert tried > 0, name
