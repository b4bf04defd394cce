"""The web page's templates and static files (web/templating.py)."""

import hashlib

import pytest

from mathhammer.web.templating import STATIC, page, static_file, static_url


def test_static_files_are_only_the_shipped_ones():
    assert set(STATIC) == {"style.css", "app.js", "favicon.svg"}
    assert static_file("style.css")
    assert static_file("../pyproject.toml") is None and static_file("app.py") is None


def test_static_urls_name_their_content():
    digest = hashlib.sha256(static_file("app.js")).hexdigest()[:10]
    assert static_url("app.js") == f"/static/app.js?v={digest}"


def test_templates_escape_user_text_and_refuse_missing_values():
    from jinja2 import UndefinedError

    html = page("cell.html", attacker="<script>alert(1)</script>", target="MEQ",
                phase="shooting", table="<table></table>", charts=[])
    # text a user typed is escaped; the table the server built is kept as HTML
    assert "&lt;script&gt;" in html and "<script>" not in html
    assert "<table></table>" in html
    with pytest.raises(UndefinedError):
        page("cell.html")  # StrictUndefined: a missing value is an error, never blank
