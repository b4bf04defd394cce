"""The Jinja2 templates and static files shipped in the package (no CDN, no build step)."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

#: Static files the page loads, read once from the package (never from a path a request names).
STATIC = {"style.css": "text/css; charset=utf-8",
          "app.js": "text/javascript; charset=utf-8",
          "favicon.svg": "image/svg+xml"}


@functools.lru_cache(maxsize=1)
def environment() -> Any:
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    env = Environment(loader=PackageLoader("mathhammer.web", "templates"),
                      autoescape=select_autoescape(["html"]), undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True)
    env.globals["static_url"] = static_url
    from mathhammer.web.syntax import SYNTAX, ability_choices

    env.globals["syntax"] = SYNTAX   # how to write each kind of line (macros.lines)
    env.globals["abilities"] = ability_choices
    return env


def static_url(name: str) -> str:
    """The address of a shipped static file, naming its content (a browser's cached copy
    of an older version is never used)."""
    import hashlib

    return f"/static/{name}?v={hashlib.sha256(static_file(name) or b'').hexdigest()[:10]}"


def page(name: str, **context: Any) -> str:
    """Render the template ``name`` with ``context``."""
    return environment().get_template(name).render(**context)


@functools.lru_cache(maxsize=None)
def static_file(name: str) -> bytes | None:
    """The bytes of a shipped static file, or ``None`` for a name not in :data:`STATIC`."""
    if name not in STATIC:
        return None
    return resources.files("mathhammer.web").joinpath("static", name).read_bytes()
