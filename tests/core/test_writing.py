"""A result's text and tables are written by a module named from above: core imports no
report code (core <- games <- report/charts <- cli/web)."""

from pathlib import Path

import pytest

import mathhammer  # noqa: F401  (names the writing module)
from mathhammer.core import writing
from mathhammer.errors import MathhammerError
from tests.core.test_drawing import imported_names

CORE = Path(writing.__file__).parent


def test_mathhammer_names_the_report_module():
    assert writing.result_writer().__name__ == "mathhammer.report.results"


def test_without_a_writer_a_result_says_so(monkeypatch):
    import numpy as np

    from mathhammer.core.result import EXACT, Distribution, Result

    result = Result(EXACT, {"damage": Distribution.from_pmf(np.array([0.5, 0.5]))})
    assert "damage" in result.to_text()
    monkeypatch.setattr(writing, "_WRITER", [])
    with pytest.raises(MathhammerError, match="no module writes results"):
        result.to_text()


def test_core_imports_no_report_code():
    for path in CORE.glob("*.py"):
        assert not any(n.startswith("mathhammer.report") for n in imported_names(path)), \
            path.name
