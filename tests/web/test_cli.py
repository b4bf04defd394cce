"""``mathhammer serve`` (web/cli.py): its port type and the missing-extra message."""

import argparse
import importlib.util

import pytest

from mathhammer.cli import main
from mathhammer.web import cli


def test_port_numbers():
    assert cli.port_number("8765") == 8765
    for bad in ("0", "65536", "http", "-1"):
        with pytest.raises(argparse.ArgumentTypeError, match="not a port number"):
            cli.port_number(bad)


def test_without_the_web_extra_serve_says_what_to_install(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert cli.missing_packages() == ["uvicorn"]
    assert main(["serve", "--port", "8799"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("mathhammer: error: 'mathhammer serve' needs uvicorn: install the web "
                   'extra with pip install "mathhammer[web]"')


def test_bad_port_is_one_line(capsys):
    assert main(["serve", "--port", "99999"]) == 2
    assert "not a port number" in capsys.readouterr().err
