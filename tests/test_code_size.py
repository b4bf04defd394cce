"""The size limits of issue 23, checked on every module of the package.

- no module over :data:`MAX_MODULE_LINES` lines;
- no function (kernels included) over :data:`MAX_FUNCTION_CODE_LINES` code lines (its
  docstring, blank lines and comment lines not counted);
- no numba kernel (a function under one of core/jit.py's decorators) with more than
  :data:`MAX_KERNEL_PARAMETERS` parameters: kernels take plans (named tuples of arrays).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "mathhammer"
MAX_MODULE_LINES = 700
MAX_FUNCTION_CODE_LINES = 120
MAX_KERNEL_PARAMETERS = 12
KERNEL_DECORATORS = ("kernel", "inline_kernel", "step_kernel", "lean_kernel", "njit", "jit")

MODULES = sorted(PACKAGE.rglob("*.py"))


def _docstring_lines(node: ast.AST) -> set[int]:
    body = getattr(node, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return set(range(body[0].lineno, body[0].end_lineno + 1))
    return set()


def code_lines(source: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of ``node`` that hold code: not blank, not only a comment, not its docstring."""
    lines = set(range(node.lineno, node.end_lineno + 1)) - _docstring_lines(node)
    return sum(1 for i in lines if source[i - 1].strip()
               and not source[i - 1].strip().startswith("#"))


def _decorator_name(decorator: ast.expr) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def oversized(path: Path) -> list[str]:
    """What in the module at ``path`` passes a limit, one line each."""
    text = path.read_text(encoding="utf-8")
    source = text.splitlines()
    found = []
    if len(source) > MAX_MODULE_LINES:
        found.append(f"{path.name}: {len(source)} lines (limit {MAX_MODULE_LINES})")
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        lines = code_lines(source, node)
        if lines > MAX_FUNCTION_CODE_LINES:
            found.append(f"{path.name}:{node.lineno} {node.name}: {lines} code lines "
                         f"(limit {MAX_FUNCTION_CODE_LINES})")
        if any(_decorator_name(d) in KERNEL_DECORATORS for d in node.decorator_list):
            args = node.args
            count = len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs)
            if count > MAX_KERNEL_PARAMETERS:
                found.append(f"{path.name}:{node.lineno} kernel {node.name}: {count} "
                             f"parameters (limit {MAX_KERNEL_PARAMETERS})")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_within_size_limits(path: Path) -> None:
    assert oversized(path) == []


def test_the_checks_catch_what_they_are_for(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_CODE_LINES))
    params = ", ".join(f"a{i}" for i in range(MAX_KERNEL_PARAMETERS + 1))
    module = tmp_path / "big.py"
    module.write_text(f'def long():\n    """Doc."""\n{body}\n    # a comment\n\n'
                      f"@kernel\ndef wide({params}):\n    return 0\n"
                      + "\n" * MAX_MODULE_LINES)
    found = oversized(module)
    assert len(found) == 3
    assert "121 code lines" in found[1] and "13 parameters" in found[2]
    assert f"{len(module.read_text().splitlines())} lines (limit" in found[0]
    fits = "\n".join(body.splitlines()[1:])   # with its def line, just at the limit
    module.write_text(f'def fits():\n    """Doc."""\n{fits}\n    # a comment\n')
    assert oversized(module) == []
