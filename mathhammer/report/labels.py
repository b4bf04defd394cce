"""Words for metric ids, filled in by the games (the core knows none of them).

A game registers the metrics its tidy frames use (``expected_damage`` -> ``"expected wounds
lost"``) when its comparison module is imported; tables and charts look the words up here.
A frame can override them with ``frame.attrs["labels"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_METRIC_LABELS: dict[str, str] = {}
_SOURCES: list[str] = []  # modules with a METRIC_LABELS dict, imported on first need


def add_label_source(module: str) -> None:
    """Name a (light) module whose ``METRIC_LABELS`` dict is registered the first time a
    metric has no words yet; :mod:`mathhammer` names each game's, so frames read back from
    files are labelled in any process."""
    if module not in _SOURCES:
        _SOURCES.append(module)


def _load_sources() -> None:
    from importlib import import_module

    while _SOURCES:
        register_metric_labels(getattr(import_module(_SOURCES.pop(0)), "METRIC_LABELS", {}))


def register_metric_labels(labels: Mapping[str, str]) -> None:
    """Add a game's metric words (later registrations win for the same id)."""
    _METRIC_LABELS.update({str(k): str(v) for k, v in labels.items()})


def metric_label(metric: str, frame: Any = None) -> str:
    """``metric`` in words: the frame's ``attrs["labels"]``, then the registered words, then
    the id with spaces."""
    attrs = getattr(frame, "attrs", None) or {}
    own = attrs.get("labels") or {}
    if metric not in own and metric not in _METRIC_LABELS:
        _load_sources()
    return own.get(metric) or _METRIC_LABELS.get(metric) or metric.replace("_", " ")
