"""Tests mirror the package: every module with logic, ``mathhammer/<path>/<module>.py``, has
``tests/<path>/test_<module>.py`` (topic files for cross-cutting rules stay beside them).

A module without one is either listed in :data:`NOTHING_TO_TEST` (pure data or re-exports, with
the reason) or in :data:`OWED` (a module with logic whose mirrored file is still to be written);
a new module in neither list fails here, and so does an entry of either list that no longer
fits.
"""

from __future__ import annotations

import ast
import importlib
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mathhammer"

#: Modules with nothing of their own to test, and why.
NOTHING_TO_TEST = {
    "__main__.py": "`python -m mathhammer`: calls cli.command_line (tests/test_main.py)",
    "wh40k/abilities.py": "the table of weapon abilities: names, rule sections, parameters",
    "wh40k/metric_words.py": "the table of 40k metric words (read by report.labels)",
    "wh40k/plan_columns.py": "column numbers of the compiled 40k plan",
}

#: Modules with logic whose mirrored test file is still owed, named so the suite says what is
#: missing (empty since issue 23's pass wrote every one); each leaves when its file is written.
OWED: set[str] = set()


def modules() -> list[str]:
    return sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py"))


def mirrored_test(module: str) -> Path:
    path = Path(module)
    name = "test_init.py" if path.name == "__init__.py" else f"test_{path.stem}.py"
    return ROOT / "tests" / path.parent / name


def is_package_face(module: str) -> bool:
    """An ``__init__.py`` that defines no function or class: it only hands names on."""
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    return Path(module).name == "__init__.py" and not any(
        isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        for node in ast.walk(tree))


def test_every_module_with_logic_has_its_mirrored_test():
    missing = [m for m in modules() if not mirrored_test(m).exists()
               and m not in NOTHING_TO_TEST and m not in OWED and not is_package_face(m)]
    assert missing == [], (
        f"write {', '.join(str(mirrored_test(m).relative_to(ROOT)) for m in missing)}")


def test_the_lists_name_only_modules_that_still_fit():
    present = set(modules())
    assert set(NOTHING_TO_TEST) <= present, set(NOTHING_TO_TEST) - present
    gone = sorted(m for m in OWED if m not in present)
    written = sorted(m for m in OWED if m in present and mirrored_test(m).exists())
    assert gone == [] and written == [], f"take out of OWED: {gone + written}"


@pytest.mark.parametrize("module", sorted(m for m in NOTHING_TO_TEST if m != "__main__.py"))
def test_nothing_to_test_modules_define_no_function(module):
    # data tables and re-exports only: a function here would need tests of its own
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    functions = [n.name for n in ast.walk(tree)
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    assert functions == [], (module, functions)


@pytest.mark.parametrize("module", [m for m in modules() if is_package_face(m)])
def test_package_faces_resolve_every_public_name(module):
    name = "mathhammer" + "".join(f".{part}" for part in Path(module).parent.parts)
    package = importlib.import_module(name)
    for public in getattr(package, "__all__", []):
        assert getattr(package, public) is not None, (name, public)


def test_the_package_ships_its_type_hints():
    assert (PACKAGE / "py.typed").exists()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["mathhammer"]


@pytest.mark.parametrize("init", sorted(m for m in modules() if Path(m).name == "__init__.py"))
def test_no_module_shadows_a_public_name_of_its_package(init):
    # `mathhammer.dust.exact` the module would hide the `exact` function of mathhammer.dust
    # (Python sets an imported submodule on its package): the engines are exact_engine and
    # monte_carlo, the grids comparisons, for that reason
    folder = (PACKAGE / init).parent
    package = ".".join(("mathhammer",) + Path(init).parent.parts)
    public = set(getattr(importlib.import_module(package), "__all__", ()))
    submodules = {p.stem for p in folder.glob("*.py")} | {
        p.parent.name for p in folder.glob("*/__init__.py")}
    clashes = public & submodules
    assert clashes == set(), (package, clashes)
