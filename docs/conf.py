"""Sphinx configuration of the mathhammer documentation.

Build (from the repository root; warnings are errors)::

    python -m pip install -e ".[docs]"
    python -m sphinx -W --keep-going -b html docs docs/_build/html

``MATHHAMMER_DOCS_QUICK=1`` skips the gallery scripts and the notebooks' execution (the
test suite's quick build of a few pages uses it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from mathhammer.cli import version as _version  # noqa: E402

QUICK = os.environ.get("MATHHAMMER_DOCS_QUICK") == "1"

project = "mathhammer"
author = "the mathhammer authors"
copyright = "2026, the mathhammer authors"
release = _version()
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_nb",  # Markdown pages (MyST) and the notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "mathhammer_docs",  # generated CLI reference and rule-switch tables (docs/_ext)
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = [
    "_build", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store",
    "gallery_scripts/*",  # sphinx-gallery's sources; auto_gallery/ holds what it writes
    "auto_gallery/*.ipynb", "auto_gallery/*.py", "auto_gallery/*.zip",
    "auto_gallery/*.codeobj.json",
    "gallery/*",  # the README's pictures (python docs/make_gallery.py)
    "jupyter_execute",
]

# -- the Markdown pages ---------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- the notebooks (notebooks/ through the docs/notebooks link): run at build time ----------
nb_execution_mode = "off" if QUICK else "cache"
nb_execution_cache_path = str(HERE / "_build" / ".jupyter_cache")
nb_execution_in_temp = True  # they may write files (a scenario, a chart): never into notebooks/
nb_execution_timeout = 600
nb_execution_raise_on_error = True  # a notebook that fails fails the build
nb_execution_show_tb = True
# what a notebook writes on stderr depends on the building machine, not on the notebook: the
# first compile's notice on an empty numba cache, a progress bar; the pages show neither
nb_output_stderr = "remove"

# -- the API reference: one page per public name --------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # the signatures carry them; numpydoc reads the docstrings
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False


def _numpydoc_template_compiled_once() -> None:
    """numpydoc (1.x) makes a new Jinja environment for every docstring it renders
    (``get_doc_object``), so its docstring template is compiled ~1,400 times a build (about
    a fifth of the quick build's time). Here it is compiled once per builder, from the same
    loader and the same template, and handed to the same docstring classes; the pages are
    unchanged. Left alone when numpydoc no longer has the pieces replaced."""
    from numpydoc import docscrape_sphinx as scrape
    from numpydoc import numpydoc as extension

    original = scrape.get_doc_object
    if extension.get_doc_object is not original or not all(
            hasattr(scrape, name) for name in ("get_doc_object_orig", "BuiltinTemplateLoader",
                                               "SandboxedEnvironment", "SphinxClassDoc",
                                               "SphinxFunctionDoc", "SphinxObjDoc")):
        return
    templates: dict[int, object] = {}

    def get_doc_object(obj, what=None, doc=None, config=None, builder=None):
        if builder is None:
            return original(obj, what=what, doc=doc, config=config, builder=builder)
        if id(builder) not in templates:
            loader = scrape.BuiltinTemplateLoader()
            loader.init(builder, dirs=[str(Path(scrape.__file__).parent / "templates")])
            templates[id(builder)] = scrape.SandboxedEnvironment(loader=loader).get_template(
                "numpydoc_docstring.rst")
        config = {} if config is None else config
        config["template"] = templates[id(builder)]
        return scrape.get_doc_object_orig(obj, what=what, doc=doc, config=config,
                                          class_doc=scrape.SphinxClassDoc,
                                          func_doc=scrape.SphinxFunctionDoc,
                                          obj_doc=scrape.SphinxObjDoc)

    extension.get_doc_object = get_doc_object


def setup(app):
    # after the extensions: numpydoc's own setup resets the function replaced here
    _numpydoc_template_compiled_once()

# -- the chart gallery: every script runs at build time ---------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "gallery_scripts",
    "gallery_dirs": "auto_gallery",
    "filename_pattern": r"/plot_",
    "run_stale_examples": False,
    "plot_gallery": "False" if QUICK else "True",
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "remove_config_comments": True,
    "download_all_examples": False,
    "image_scrapers": ("mathhammer_docs.chart_scraper",),
    "matplotlib_animations": False,
    "within_subsection_order": "FileNameSortKey",
    "show_memory": False,
    "min_reported_time": 1,
}

# -- HTML -----------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"mathhammer {release}"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "navbar_align": "left",
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_context = {"default_mode": "light"}
html_show_sourcelink = False


# -- the API pages: written from each package's __all__, so a new public name gets its page --
API_PACKAGES = {
    "mathhammer": "The shared names and the 40k shortcuts (``import mathhammer as mh``)",
    "mathhammer.wh40k": "Warhammer 40,000 (``mathhammer.wh40k``)",
    "mathhammer.charts": "Charts (``from mathhammer import charts``)",
    "mathhammer.warmachine": "Warmachine MkIV (``mathhammer.warmachine``)",
    "mathhammer.dust": "Dust Tactics (``mathhammer.dust``)",
}
API_EXTRA = {
    "mathhammer.wh40k.comparisons": ["pivot", "table", "to_markdown", "per_points", "results"],
    "mathhammer.wh40k.targets": ["load_targets"],
}


def _write_api_pages() -> None:
    import importlib

    out = HERE / "api"
    out.mkdir(exist_ok=True)
    classes_shown: set[int] = set()   # a class served by two packages gets one page
    for package, title in API_PACKAGES.items():
        module = importlib.import_module(package)
        names = [name for name in module.__all__
                 if not (isinstance(getattr(module, name), type)
                         and id(getattr(module, name)) in classes_shown)]
        classes_shown.update(id(getattr(module, name)) for name in names
                             if isinstance(getattr(module, name), type))
        names += API_EXTRA.get(package, [])
        _write_page(out / f"{package}.rst", package, title, names)
    for module, names in API_EXTRA.items():
        if module not in API_PACKAGES:
            _write_page(out / f"{module}.rst", module, f"``{module}``", names)


def _write_page(path: Path, package: str, title: str, names: list[str]) -> None:
    lines = [".. This page is written by docs/conf.py from the package's __all__: do not edit.",
             "", title, "=" * len(title), "", f".. currentmodule:: {package}", "",
             ".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
    lines += [f"   {name}" for name in sorted(set(names), key=str.lower)]
    text = "\n".join(lines) + "\n"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


_write_api_pages()
