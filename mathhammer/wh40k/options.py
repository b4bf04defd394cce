"""Checking situation, modifier and rule values given by keyword (Python API, scenario files).

The dataclasses in :mod:`mathhammer.wh40k.profiles` check what their values mean; this module
checks what they are, so ``hit_mod=1.5`` or ``cover="false"`` is refused rather than read
loosely (as 1, or as True).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from mathhammer.core.limits import MAX_NUMBER
from mathhammer.errors import OptionError
from mathhammer.wh40k.profiles import Modifiers, Situation

#: Field name to its annotation text, per options class (:class:`Rules` checks its own).
FIELD_TYPES: dict[type, dict[str, str]] = {
    cls: {f.name: str(f.type) for f in dataclasses.fields(cls)} for cls in (Situation, Modifiers)}


def build_checked(cls: type, values: dict[str, Any]) -> Any:
    """``cls(**values)`` after checking every value's kind (``cls`` one of the options
    classes; unknown names must have been refused already)."""
    for key, value in values.items():
        check_option_value(key, value, FIELD_TYPES.get(cls, {}).get(key, ""))
    return cls(**values)


def check_option_value(name: str, value: Any, type_text: str) -> None:
    """Refuse an option value of the wrong kind (``hit_mod=1.5``, ``cover="false"``) or a
    number beyond :data:`~mathhammer.core.limits.MAX_NUMBER`, instead of reading it loosely.

    Raises
    ------
    OptionError
        Naming the option, the value and what it takes.
    """
    if value is None and "None" in type_text:
        return
    if type_text == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise OptionError(f"{name}={value!r} must be True or False", token=name)
    elif type_text.split(" |")[0] == "int":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            raise OptionError(f"{name}={value!r} must be a whole number", token=name)
        if abs(int(value)) > MAX_NUMBER:
            raise OptionError(f"{name}={value:,} is too large: at most {MAX_NUMBER:,} either way",
                              token=name)
