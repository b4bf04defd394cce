"""Where a result's text, tables and HTML are written.

:meth:`~mathhammer.core.result.Result.to_text`, :meth:`~mathhammer.core.result.Result.table`,
:meth:`~mathhammer.core.result.Result.to_markdown` and ``_repr_html_`` are thin methods; core
formats no report and imports no report code (the report sits above core). The package's top
level, which sits above both, names the module that writes
(:mod:`mathhammer.report.results`) with :func:`use_writer`; it is imported when a result is
first written. Stdlib only, so ``import mathhammer`` stays quick (as
:mod:`~mathhammer.core.drawing` does for charts).
"""

from __future__ import annotations

from typing import Any

from mathhammer.errors import MathhammerError

#: The module that writes for a result's text, table, Markdown and HTML methods.
_WRITER: list[str] = []


def use_writer(module: str) -> None:
    """Name the module that writes results: its functions ``result_text(result, max_rows)``,
    ``result_table(result, digits)``, ``result_markdown(result, digits)`` and
    ``result_html(result)``.

    Examples
    --------
    >>> import mathhammer
    >>> result_writer().__name__
    'mathhammer.report.results'
    """
    _WRITER[:] = [str(module)]


def result_writer() -> Any:
    """The module named by :func:`use_writer`, imported."""
    from importlib import import_module

    if not _WRITER:
        raise MathhammerError("no module writes results' text and tables: import mathhammer, "
                              "which names mathhammer.report.results")
    return import_module(_WRITER[0])
