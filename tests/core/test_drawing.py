"""The plot methods' chart module is named from above: core imports no chart code."""

import ast
from pathlib import Path

import pytest

import mathhammer  # noqa: F401  (names the chart module)
from mathhammer.core import drawing
from mathhammer.errors import MathhammerError

CORE = Path(drawing.__file__).parent


def test_mathhammer_names_the_chart_module():
    assert drawing.chart_drawer().__name__ == "mathhammer.charts.methods"


def test_without_a_chart_module_plot_says_so(monkeypatch):
    monkeypatch.setattr(drawing, "_CHARTS", [])
    with pytest.raises(MathhammerError, match="no module draws charts"):
        drawing.chart_drawer()


def imported_names(path):
    """Every module (and module.name) a file imports, at any depth of its code."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            yield from [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names)


def test_core_imports_no_chart_code():
    for path in CORE.glob("*.py"):
        assert not any(n.startswith("mathhammer.charts") for n in imported_names(path)), \
            path.name
