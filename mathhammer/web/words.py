"""Refusals in the page's own words: the engines' messages name command-line flags
(``drop --advanced or --stationary``); the page has check boxes and fields, so each flag a
page has a control for is named by that control's label (``untick 'Advanced' or
'Stationary'``)."""

from __future__ import annotations

import functools
import re

_VERB = re.compile(r"\b(drop|add|leave out) --([a-z][a-z-]*)")
_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z-]*)")
_VALUE = re.compile(r'--(attach|assume) ("[^"]*")')
_VERBS = {"drop": "untick", "add": "tick", "leave out": "untick"}
#: Flags whose page control is not a field of the same name.
_OTHER = {"attach": "the 'Attach Leaders' box", "assume": "the conditional rules box",
          "method": "the Engine choice", "exact": "the Engine choice",
          "faction": "@Name@Faction", "find": "the Units by name box"}
#: Flags no page has a control for: said as the command line's (a server option, say).
_KEEP = {"data", "port", "host"}


#: The page controls' specs (``name``, ``label``), registered by the modules that define them
#: (forms, games, army), so that this module imports none of them.
_SPECS: list = []


def register(*specs: object) -> None:
    """Name the page controls whose labels refusals use (each has ``name`` and ``label``)."""
    _SPECS.extend(specs)
    labels.cache_clear()


@functools.lru_cache(maxsize=1)
def labels() -> dict[str, str]:
    """Flag name (``half-range``) -> the label of the page control setting it."""
    out: dict[str, str] = {}
    for spec in _SPECS:
        out[spec.name.replace("_", "-")] = spec.label
    out.update({"trials": "trials", "seed": "seed", "monte-carlo": "Monte Carlo"})
    return out


def page_words(message: str) -> str:
    """``message`` with each command-line flag the page has a control for named by it."""
    if "--" not in message:
        return message
    known = labels()

    def verb(match: re.Match) -> str:
        flag = match.group(2)
        if flag in known:
            return f"{_VERBS[match.group(1)]} '{known[flag]}'"
        return match.group(0)

    def flag(match: re.Match) -> str:
        name = match.group(1)
        if name in _KEEP:
            return match.group(0)
        if name in known:
            return f"'{known[name]}'"
        return _OTHER.get(name, match.group(0))

    message = _VALUE.sub(lambda m: f"{m.group(2)} in {_OTHER[m.group(1)]}", message)
    message = message.replace("--method monte-carlo", "'Monte Carlo' (Engine)")
    message = _VERB.sub(verb, message)
    return _FLAG.sub(flag, message)
