"""Sphinx directives that generate documentation from the code, so it cannot drift.

- ``.. mathhammer-cli::`` writes one section per command and subcommand of
  :func:`mathhammer.cli.build_parser`, each with the command's own ``--help`` text.
- ``.. mathhammer-switches:: mathhammer.wh40k.profiles.Rules`` writes a table of a rule-switch
  dataclass: every field, its default and the text of its numpy-style ``Parameters`` entry.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
import re
from collections.abc import Iterator

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

HELP_WIDTH = "92"  # argparse wraps to $COLUMNS: fixed so the pages do not change by terminal


def walk_commands(parser: argparse.ArgumentParser,
                  path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                                argparse.ArgumentParser]]:
    """Every (command words, parser) of the tree, depth first, in registration order."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if sub.prog.split()[-1] != name:  # an alias of a command listed already
                    continue
                yield from walk_commands(sub, (*path, name))


def command_help(parser: argparse.ArgumentParser) -> str:
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        return parser.format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


class CliDirective(SphinxDirective):
    """The whole command tree of ``mathhammer``, one section per command."""

    def run(self) -> list[nodes.Node]:
        from mathhammer.cli import build_parser

        result: list[nodes.Node] = []
        for path, parser in walk_commands(build_parser()):
            title = "mathhammer " + " ".join(path) if path else "mathhammer"
            section = nodes.section(ids=[nodes.make_id("cli-" + "-".join(path or ("top",)))])
            section += nodes.title(text=title)
            text = command_help(parser)
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            section += block
            result.append(section)
        return result


def _parameter_texts(cls: type) -> dict[str, str]:
    from numpydoc.docscrape import ClassDoc

    texts: dict[str, str] = {}
    for param in ClassDoc(cls, config={"show_class_members": False})["Parameters"]:
        for name in param.name.split(","):
            texts[name.strip()] = " ".join(" ".join(param.desc).split())
    return texts


def _import(dotted: str) -> object:
    module_name, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module_name), attr)


class SwitchesDirective(SphinxDirective):
    """A table of one rule-switch dataclass: name, default, meaning (from its docstring)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        cls = _import(self.arguments[0])
        assert isinstance(cls, type) and dataclasses.is_dataclass(cls)
        texts = _parameter_texts(cls)
        rows = []
        for field in dataclasses.fields(cls):
            default = field.default
            if default is dataclasses.MISSING and field.default_factory is not dataclasses.MISSING:
                default = field.default_factory()
            text = texts.get(field.name)
            if text is None:
                raise self.error(f"{cls.__qualname__}.{field.name} has no entry in the "
                                 "Parameters section of its docstring")
            rows.append([[nodes.literal(field.name, field.name)],
                         [nodes.literal(repr(default), repr(default))], _inline(text)])
        return [_table(["switch", "default", "meaning"], [22, 14, 64], rows)]


def _inline(text: str) -> list[nodes.Node]:
    """Docstring text with its ``literals`` kept as code; everything else plain text."""
    parts = re.split(r"``(.+?)``", text)
    return [nodes.literal(part, part) if i % 2 else nodes.Text(part)
            for i, part in enumerate(parts) if part]


def _table(header: list[str], widths: list[int], rows: list[list[list[nodes.Node]]]
           ) -> nodes.table:
    table = nodes.table(classes=["mathhammer-switches"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for width in widths:
        group += nodes.colspec(colwidth=width)

    def row_of(cells: list[list[nodes.Node]]) -> nodes.row:
        row = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += nodes.paragraph("", "", *cell)
            row += entry
        return row

    head = nodes.thead()
    head += row_of([[nodes.Text(h)] for h in header])
    body = nodes.tbody()
    for cells in rows:
        body += row_of(cells)
    group += head
    group += body
    return table


_SCRAPED: dict[str, set[int]] = {}


def chart_scraper(block, block_vars, gallery_conf):  # type: ignore[no-untyped-def]
    """sphinx-gallery image scraper for mathhammer's charts.

    The charts draw on figures that pyplot does not know (so a chart never opens a window or
    leaks a figure), which sphinx-gallery's matplotlib scraper cannot see. This one looks
    for chart artists (anything with a figure) among the script's variables after each code
    block, and writes each figure it has not seen yet with :func:`mathhammer.charts.save`.
    """
    from matplotlib.figure import Figure
    from sphinx_gallery.scrapers import figure_rst

    from mathhammer import charts
    from mathhammer.charts.layout import figure_of

    seen = _SCRAPED.setdefault(str(block_vars["src_file"]), set())
    paths = []
    for value in list(block_vars["example_globals"].values()):
        if not (isinstance(value, Figure) or hasattr(value, "ax") or hasattr(value, "figure")):
            continue
        try:
            figure = figure_of(value)
        except Exception:  # not a chart's artists
            continue
        if not isinstance(figure, Figure) or id(figure) in seen:
            continue
        seen.add(id(figure))
        path = next(block_vars["image_path_iterator"])
        charts.save(figure, path, dpi=110)
        paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])


def setup(app):  # type: ignore[no-untyped-def]
    app.add_directive("mathhammer-cli", CliDirective)
    app.add_directive("mathhammer-switches", SwitchesDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
