"""No module of the package uses another module's private names.

A name with a leading underscore belongs to its module: what another module needs is
promoted (a public name with a docstring) or moved to the module that owns it. The test reads
every source file of ``mathhammer/`` (ast, nothing is imported) and lists each
``from mathhammer.x import _name`` and each ``module._name`` where ``module`` is a package
module bound by an import. Dunder names (``__version__``) are public.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "mathhammer"


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_module(dotted: str) -> bool:
    """Whether ``dotted`` (``mathhammer.a.b``) names a module or package of the package."""
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imported_from(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module of ``from ... import``, relative imports resolved."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    base = base[:len(base) - node.level + (1 if is_package else 0)]
    return ".".join(base + ([node.module] if node.module else []))


def private_uses(source: str, module: str, is_package: bool = False) -> list[str]:
    """Every private name of another package module that ``source`` (of ``module``) uses."""
    tree = ast.parse(source)
    found: list[str] = []
    modules: dict[str, str] = {}  # local name -> package module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = _imported_from(node, module, is_package)
            if not origin.split(".")[0] == "mathhammer":
                continue
            for alias in node.names:
                if _is_private(alias.name) and origin != module:
                    found.append(f"line {node.lineno}: from {origin} import {alias.name}")
                elif _is_module(f"{origin}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{origin}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mathhammer":
                    local = alias.asname or alias.name.split(".")[0]
                    modules[local] = alias.name if alias.asname else local
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            owner = ast.unparse(node.value)
            head, _, rest = owner.partition(".")
            dotted = modules.get(head, "") + ("." + rest if rest else "")
            if head in modules and _is_module(dotted) and dotted != module:
                found.append(f"line {node.lineno}: {owner}.{node.attr} ({dotted})")
    return found


def test_no_module_uses_another_modules_private_names():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        uses = private_uses(path.read_text(encoding="utf-8"), _module_name(path),
                            path.name == "__init__.py")
        problems += [f"{path.relative_to(PACKAGE.parent)} {use}" for use in uses]
    assert problems == []


def test_the_scan_sees_every_form():
    source = ("from mathhammer.wh40k.exact_engine.chains import _add, convolve\n"
              "from . import api\n"
              "import mathhammer.dust.compile as dc\n"
              "def f():\n"
              "    from mathhammer.warmachine.api import _attacks\n"
              "    return api._RULE_FIELDS, dc._compile_row, self._cache, convolve._x\n")
    uses = private_uses(source, "mathhammer.wh40k.comparisons")
    assert [u.split(": ", 1)[1] for u in uses] == [
        "from mathhammer.wh40k.exact_engine.chains import _add",
        "from mathhammer.warmachine.api import _attacks",
        "api._RULE_FIELDS (mathhammer.wh40k.api)",
        "dc._compile_row (mathhammer.dust.compile)"]


def test_a_module_may_use_its_own_private_names():
    source = "import mathhammer.wh40k.api as api\nx = api._helper\n"
    assert private_uses(source, "mathhammer.wh40k.api") == []
