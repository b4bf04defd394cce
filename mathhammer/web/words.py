"""Refusals in the page's own words.

An error names the options it is about in its fields (``OptionError("{drop advanced} or
{stationary}", options={"advanced": True, "stationary": True})``, see
:meth:`~mathhammer.errors.MathhammerError.in_words`): the command line says each as its flag
(``drop --advanced or --stationary``), the page as the control that sets it (``untick
'Advanced' or 'Stationary'``). :func:`page_message` renders an error so, from those fields;
no message is read back.
"""

from __future__ import annotations

import functools

from mathhammer.errors import (NAMED, MathhammerError, command_line_option, command_line_value,
                               command_line_words)

#: A slot's verb as the page says it, for an option set by a check box or field.
_VERBS = {"drop": "untick", "add": "tick", "leave out": "untick"}
#: Options whose page control is not a field of the same name (and a verb of their own).
_OTHER = {"attach": "the 'Attach Leaders' box", "assume": "the conditional rules box",
          "method": "the Engine choice", "exact": "the Engine choice",
          "faction": "@Name@Faction", "find": "the Units by name box"}
_OTHER_VERBS = {"choose one with": "write"}


#: The page controls' specs (``name``, ``label``), registered by the modules that define them
#: (forms, games, army), so that this module imports none of them.
_SPECS: list = []


def register(*specs: object) -> None:
    """Name the page controls whose labels refusals use (each has ``name`` and ``label``)."""
    _SPECS.extend(specs)
    labels.cache_clear()


@functools.lru_cache(maxsize=1)
def labels() -> dict[str, str]:
    """Option name (``half_range``, a keyword of the Python API) -> the label of the page
    control setting it."""
    out: dict[str, str] = {spec.name: spec.label for spec in _SPECS}
    out.update({"trials": "trials", "seed": "seed", "monte_carlo": "Monte Carlo"})
    return out


def spell(name: str, value: object, verb: str = "") -> str:
    """One option of a message in the page's words (a :data:`~mathhammer.errors.Speller`):
    its control's label, quoted, with the value the message gives it; a verb as a check box
    says it (``untick 'Advanced'``). An option the page has no control for (``--data``, a
    server option) is said as the command line says it."""
    if name == "method" and value == "monte-carlo":
        return "'Monte Carlo' (Engine)"
    if name in ("attach", "assume") and isinstance(value, str):
        return f'"{value}" in {_OTHER[name]}'
    known = labels()
    if name in known:
        said = f"'{known[name]}'" if value is NAMED or value is True else \
            f"'{known[name]}' {command_line_value(value)}"
        return f"{_VERBS.get(verb, verb)} {said}" if verb not in ("", "--") else said
    if name in _OTHER:
        said = _OTHER[name]
        return f"{_OTHER_VERBS.get(verb, verb)} {said}" if verb not in ("", "--") else said
    return command_line_option(name, value, verb)


def page_message(error: BaseException) -> str:
    """An error's message on one line, in the page's words (the command line's for an error
    that is not mathhammer's, such as a bug's)."""
    if isinstance(error, MathhammerError):
        words = error.in_words(spell)
        text = f"{error.location}: {words}" if error.location else words
    else:
        text = command_line_words(error)
    return " ".join(text.split())
