"""The documentation's sources hold together (issue 42), quickly: the full Sphinx build runs
every gallery script and notebook and takes minutes, so it is a command of its own
(CONTRIBUTING.md); here, what can go wrong between builds is checked in seconds, and a few
pages are built with Sphinx, warnings as errors, when the docs extra is installed.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import os
import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"

#: documents that docs/conf.py or sphinx-gallery write at build time
GENERATED = {"auto_gallery/index", "api/mathhammer", "api/mathhammer.wh40k", "api/mathhammer.charts",
             "api/mathhammer.warmachine", "api/mathhammer.dust", "api/mathhammer.wh40k.comparisons",
             "api/mathhammer.wh40k.targets"}
#: sources that are not pages of the site (see exclude_patterns in docs/conf.py)
NOT_PAGES = {"sg_execution_times.rst"}  # the second: sphinx-gallery, orphan
SOURCE_SUFFIXES = (".md", ".rst", ".ipynb")


def pages() -> dict[str, Path]:
    """docname -> file of every page source under docs/ (notebooks through the link)."""
    found = {}
    files = [Path(folder, name) for folder, _, names in os.walk(DOCS, followlinks=True)
             for name in names]
    for path in sorted(files):
        rel = path.relative_to(DOCS)
        if (path.suffix not in SOURCE_SUFFIXES or rel.parts[0] in ("_build", "gallery_scripts",
                                                                     "auto_gallery", "_ext")
                or str(rel) in NOT_PAGES or ".ipynb_checkpoints" in rel.parts
                or rel.parts[:2] == ("api", "generated")):
            continue
        found[str(rel.with_suffix(""))] = path
    return found


def toctree_entries(path: Path) -> list[str]:
    """The entries of every toctree of one page (MyST fences or reST directives)."""
    text = path.read_text(encoding="utf-8")
    entries = []
    for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.S) + \
            re.findall(r"\.\. toctree::\n((?:[ \t]+.*\n|\n)+)", text):
        entries += [line.strip() for line in block.splitlines()
                    if line.strip() and not line.strip().startswith(":")]
    return entries


def normalise(docname: str) -> str:
    parts: list[str] = []
    for part in docname.split("/"):
        if part == "..":
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def test_every_toctree_entry_is_a_page_and_every_page_is_in_a_toctree():
    docs = pages()
    listed = set()
    for name, path in docs.items():
        for entry in toctree_entries(path):
            target = normalise(str(Path(name).parent / entry))
            if "*" in entry:
                matches = [d for d in docs if Path(d).match(target)]
                assert matches, f"{path.name}: toctree glob {entry!r} matches no page"
                listed.update(matches)
                continue
            assert target in docs or target in GENERATED, \
                f"{path.relative_to(ROOT)}: toctree entry {entry!r} is not a page"
            listed.add(target)
    orphans = sorted(set(docs) - listed - {"index"})
    assert not orphans, f"pages in no toctree: {orphans}"


def test_markdown_links_between_pages_point_at_pages():
    docs = pages()
    for name, path in docs.items():
        if path.suffix != ".md":
            continue
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # an address outside the site
            resolved = (path.parent / target).resolve()
            assert resolved.exists() or normalise(
                str(Path(name).parent / target).rsplit(".", 1)[0]) in GENERATED, \
                f"{path.relative_to(ROOT)}: link to {target!r} points at nothing"


def test_the_readme_is_a_front_page_linking_into_the_docs():
    text = README.read_text(encoding="utf-8")
    lines = text.splitlines()
    # the project's contract: the first two commands, unchanged and first
    first_block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert first_block[0].startswith("python -m pip install . && python -m mathhammer simulate")
    assert first_block[1] == 'python -m pip install ".[test]" && python -m pytest'
    assert len(lines) <= 170, f"the README has {len(lines)} lines: move reference prose to docs/"
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    into_docs = [link for link in links if link.startswith("docs/")]
    assert len(into_docs) >= 8, "the README should link into the documentation"
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        assert (ROOT / link).exists(), f"README links to {link!r}, which does not exist"


@pytest.mark.parametrize("script", sorted((DOCS / "gallery_scripts").glob("plot_*.py")),
                         ids=lambda p: p.stem)
def test_gallery_scripts_compile_and_have_a_title(script):
    source = script.read_text(encoding="utf-8")
    tree = ast.parse(source, str(script))  # a syntax error fails here, not at build time
    doc = ast.get_docstring(tree)
    assert doc, f"{script.name}: sphinx-gallery needs a docstring with a title"
    title, underline = doc.splitlines()[:2]
    assert underline == "=" * len(title), f"{script.name}: the title's underline"
    assert "charts" in source or ".plot(" in source, f"{script.name}: draws no chart"


def test_every_chart_kind_is_in_the_gallery():
    from mathhammer import charts

    kinds = {"bars", "distribution", "heatmap", "overlay", "survival", "sweep_lines"}
    assert kinds <= set(charts.__all__)
    sources = "\n".join(p.read_text(encoding="utf-8")
                        for p in (DOCS / "gallery_scripts").glob("plot_*.py"))
    drawn = {k for k in kinds if f"charts.{k}(" in sources}
    drawn |= {"survival"} if "result.plot()" in sources else set()  # a scenario's survival
    drawn |= {"distribution"} if '.plot("damage")' in sources else set()
    assert drawn == kinds, f"chart kinds with no gallery script: {sorted(kinds - drawn)}"


def test_every_notebook_is_on_the_notebooks_page():
    notebooks = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    docs = pages()
    shown = {Path(d).name for d in docs if d.startswith("notebooks/")}
    assert notebooks == shown, "docs/notebooks must link ../notebooks"
    entries = toctree_entries(DOCS / "notebooks.md")
    listed = {n for n in notebooks
              if any(Path("notebooks", n).match(e) or e == f"notebooks/{n}" for e in entries)}
    assert listed == notebooks, f"notebooks in no toctree: {sorted(notebooks - listed)}"


@pytest.mark.parametrize("name", ["mathhammer.wh40k.profiles.Rules",
                                  "mathhammer.wh40k.scenario.model.ScenarioRules",
                                  "mathhammer.warmachine.profiles.Rules",
                                  "mathhammer.dust.profiles.Rules"])
def test_every_rule_switch_has_its_docstring_entry(name):
    """The rules readings page is written from these docstrings; a switch without its
    Parameters entry would fail the build."""
    module_name, _, attr = name.rpartition(".")
    cls = getattr(importlib.import_module(module_name), attr)
    text = cls.__doc__ or ""
    documented = set()
    for line in text.splitlines():
        if re.match(r"^    [a-z_][a-z0-9_, ]*$", line):
            documented |= {n.strip() for n in line.split(",")}
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in documented]
    assert not missing, f"{name}: no Parameters entry for {missing}"


def test_the_cli_page_lists_every_command():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from mathhammer_docs import chart_scraper, command_help, walk_commands
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    from mathhammer.cli import build_parser

    commands = {" ".join(path) for path, _ in walk_commands(build_parser())}
    assert {"", "simulate", "exact", "compare", "run", "roster", "warmachine exact",
            "dust exchange", "serve", "warmup"} <= commands
    assert callable(chart_scraper)  # docs/conf.py names it as the gallery's image scraper
    help_text = command_help(build_parser())
    assert "--version" in help_text and max(map(len, help_text.splitlines())) <= 92


@pytest.mark.skipif(importlib.util.find_spec("sphinx") is None
                    or importlib.util.find_spec("myst_parser") is None
                    or importlib.util.find_spec("numpydoc") is None
                    or importlib.util.find_spec("pydata_sphinx_theme") is None,
                    reason="the docs extra is not installed (pip install -e '.[docs]')")
def test_the_whole_site_builds_with_warnings_as_errors(tmp_path):
    """Every page of the site, the API reference generated from the docstrings included, built
    by Sphinx as the docs command does, warnings as errors: a broken cross-reference, a bad
    directive or a public name without a page fails here. The notebooks' and the gallery
    scripts' execution are left to their own tests (test_notebooks.py and the test below):
    running them again here would double the suite's longest tests."""
    src = tmp_path / "docs"
    shutil.copytree(DOCS, src, symlinks=True, ignore=shutil.ignore_patterns(
        "_build", "auto_gallery", "generated", "sg_execution_times.rst", ".ipynb_checkpoints"))
    for entry in ROOT.iterdir():   # what the pages include from the root: CHANGELOG.md, ...
        if entry.name not in ("docs", ".git"):
            (tmp_path / entry.name).symlink_to(entry)
    env = {**os.environ, "MATHHAMMER_DOCS_QUICK": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b",
                           "html", str(src), str(tmp_path / "html")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    html = tmp_path / "html"
    cli = (html / "cli.html").read_text(encoding="utf-8")
    assert "mathhammer warmachine exact" in cli and "--half-range" in cli
    readings = (html / "rules-readings.html").read_text(encoding="utf-8")
    assert "dw_timing" in readings and "retarget_on_destroyed" in readings
    assert readings.count("<table") == 4 and "list-table" not in readings
    for name in importlib.import_module("mathhammer").__all__:
        assert list(html.glob(f"api/generated/mathhammer.{name}.html")), \
            f"mathhammer.{name} has no API page"


GALLERY_SCRIPTS = sorted((DOCS / "gallery_scripts").glob("plot_*.py"))


@pytest.mark.parametrize("script", GALLERY_SCRIPTS, ids=[p.stem for p in GALLERY_SCRIPTS])
def test_every_gallery_script_runs_and_draws(script, tmp_path, monkeypatch):
    """What the full docs build does with each gallery script: run it and save every chart it
    leaves in its variables through the gallery's own scraper's path (a script that raises, or
    draws nothing, fails the build and so this test)."""
    from matplotlib.figure import Figure

    from mathhammer import charts
    from mathhammer.charts.layout import figure_of

    monkeypatch.chdir(tmp_path)
    variables = runpy.run_path(str(script), run_name="__main__")
    figures = {}
    for value in variables.values():
        if isinstance(value, Figure) or hasattr(value, "ax") or hasattr(value, "figure"):
            try:
                figure = figure_of(value)
            except Exception:  # not a chart's artists, as the scraper judges
                continue
            if isinstance(figure, Figure):
                figures[id(figure)] = figure
    assert figures, f"{script.name} leaves no chart for the gallery to show"
    for number, figure in enumerate(figures.values()):
        charts.save(figure, tmp_path / f"{number}.png", dpi=110)
        assert (tmp_path / f"{number}.png").stat().st_size > 5_000


@pytest.mark.parametrize("package", ["mathhammer", "mathhammer.charts", "mathhammer.warmachine",
                                     "mathhammer.dust"])
def test_every_public_function_and_class_has_a_docstring(package):
    """The API pages are written from each package's __all__; a name without a docstring
    would give an empty page."""
    import inspect

    module = importlib.import_module(package)
    bare = [name for name in module.__all__
            if callable(obj := getattr(module, name))
            and (inspect.isclass(obj) or inspect.isroutine(obj) or hasattr(obj, "__wrapped__"))
            and not (obj.__doc__ or "").strip()]
    assert not bare, f"{package}: public names without a docstring: {bare}"
