"""A roster as a scenario file (TOML) that ``mathhammer run`` reads.

Every datasheet with a statline becomes a ``[units."NAME"]`` table with its points and model
groups (target lines and weapon lines, multi-profile weapons as ``{ name, profiles }``);
the ``[rules]`` table carries the list's edition, so ``mathhammer run`` resolves a
10th-edition list under 10th-edition rules without ``--edition``;
attached units are written as in any scenario (``attached = [...]`` on the bodyguard). So
that the file runs as written, it ends with a placeholder enemy (``Enemy``, a Space Marine
squad: replace it with your opponent's units) and one example activation per unit (each
shooting unit shoots it); edit the activations to play out your turn.

Every text of the list (unit, model and weapon names, profiles, the file's name, the
faction, notes) is written escaped: strings by :func:`toml_string`, comments by
:func:`toml_comment`, so no name can end a string or a comment and add lines of its own.
"""

from __future__ import annotations

import os
from typing import Any

from mathhammer.core.files import NotAFile, check_output_path
from mathhammer.errors import OptionError
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup
from mathhammer.wh40k.roster.convert import RosterLike


PLACEHOLDER = "Enemy"
PLACEHOLDER_MODELS = '{ name = "Intercessor", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]" }'


def check_scenario_path(path: Any, source: str) -> None:
    """Refuse a ``path`` :meth:`~mathhammer.wh40k.roster.api.Roster.to_toml` cannot write:
    not a file name, a folder or a missing one, or the roster file ``source`` itself."""
    if not isinstance(path, (str, os.PathLike)):
        raise OptionError(f"path must be a file name, not {type(path).__name__} {path!r:.60}")
    try:
        check_output_path(path)
    except NotAFile as exc:
        raise OptionError(f"cannot write the scenario to '{path}': {exc}") from None
    if source and os.path.isfile(path) and os.path.samefile(path, source):
        raise OptionError(f"cannot write the scenario to '{path}': it is the roster file this "
                          "list was read from; give another file name")


def roster_toml(roster: RosterLike) -> str:
    """The scenario text for ``roster`` (see the module docstring)."""
    lines = [toml_comment(f"Scenario written from {roster.source or 'a roster'}: "
                          f"{roster.faction}, {roster.edition}th edition, "
                          f"{roster.points:g} points."),
             "# Units and points come from the list; the activations below are examples.",
             "rounds = 1", "",
             "# The list's own edition: `mathhammer run` resolves it under these rules.",
             "[rules]", f"edition = {roster.edition}", ""]
    names = {e.name for e in roster.entries}
    enemy = PLACEHOLDER
    while enemy in names:
        enemy += "_"
    written = []
    for entry in roster.entries:
        if not entry.groups:
            lines.append(toml_comment(f"{entry.name} ({entry.points:g} points): no models in "
                                      "the file"))
            lines.append("")
            continue
        written.append(entry.name)
        if not entry.has_statline:
            lines.append("# no statline in the file: T1 Sv- W1 is a placeholder so that it "
                         "can attack; do not make it a target")
        lines.append(f"[units.{_q(entry.name)}]")
        lines.append('side = "list"')
        lines.append(f"points = {entry.points:g}")
        wide = roster.defense_of(entry.name)
        defense = [f"damage_minus = {wide['damage_minus']}"] if wide.get("damage_minus") \
            else []
        defense += ["damage_halved = true"] if wide.get("damage_halved") else []
        if defense:
            lines.append(f"defense = {{ {', '.join(defense)} }}")
        attached = [a.attached for a in roster.attachments
                    if a.bodyguard == entry.name and _has_groups(roster, a.attached)]
        if attached:
            lines.append(f"attached = [{', '.join(_q(a) for a in attached)}]")
        lines.append("models = [")
        lines += [f"  {_group(g)}," for g in roster.entry_groups(entry.name)]
        lines.append("]")
        for note in entry.notes:
            lines.append(toml_comment(f"note: {note}"))
        lines.append("")
    lines += ["# A placeholder target: replace it with your opponent's units.",
              f"[units.{_q(enemy)}]", 'side = "enemy"', f"models = [{PLACEHOLDER_MODELS}]", ""]
    shooters = [u.name for u in roster.units
                if any(not w.melee for g in u.groups for w in g.weapons)]
    for name in shooters or [u.name for u in roster.units][:1]:
        phase = "shooting" if shooters else "fight"
        lines += ["[[activations]]", f'phase = "{phase}"', f"attacker = {_q(name)}",
                  f"target = {_q(enemy)}"] + _granted(roster, name) + [""]
    return "\n".join(lines)


def _granted(roster: RosterLike, name: str) -> list[str]:
    """The activation's ``buffs`` line: what the unit's Leaders grant for whole activations
    (roll modifiers, re-rolls) or under a condition, each after a comment naming it."""
    found = roster.granted_buffs().get(name, ()) if hasattr(roster, "granted_buffs") else ()
    if not found:
        return []
    return [toml_comment(f"granted by its Leader: {b.name}") for b in found] + \
        [f"buffs = [{', '.join(_q(b.text) for b in found)}]"]


def _has_groups(roster: RosterLike, name: str) -> bool:
    return any(e.name == name and e.groups for e in roster.entries)


def _group(group: ModelGroup) -> str:
    profile = str(group.profile.with_count(1))
    weapons = ", ".join(_weapon(w) for w in group.weapons)
    return (f"{{ name = {_q(group.name)}, count = {group.count}, profile = {_q(profile)}, "
            f"weapons = [{weapons}] }}")


def _weapon(carried: CarriedWeapon) -> str:
    lines = [str(p.with_count(carried.per_model)) for p in carried.profiles]
    if len(lines) == 1 and carried.name == carried.profiles[0].name:
        return _q(lines[0])
    return f"{{ name = {_q(carried.name)}, profiles = [{', '.join(_q(x) for x in lines)}] }}"


def _q(text: str) -> str:
    return toml_string(text)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string, on one line.

    Quotes, backslashes and every character that is not printable (control characters,
    DEL, line and paragraph separators, ...) are escaped, so the string cannot end early
    or break its line; a lone surrogate (not a character: TOML cannot write it) becomes
    U+FFFD.

    Examples
    --------
    >>> print(toml_string('Say "hi"\\n\\u2028'))
    "Say \\"hi\\"\\n\\u2028"
    """
    return '"' + "".join(_string_char(ch) for ch in str(text)) + '"'


def _string_char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch.isprintable():
        return ch
    if "\ud800" <= ch <= "\udfff":
        return "\ufffd"
    return f"\\u{ord(ch):04X}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08X}"


def toml_comment(text: str) -> str:
    """``text`` as one TOML comment line: every character that is not printable (a newline,
    a carriage return, other control characters, U+2028, ...) written as its Python escape
    (``\\n``, ``\\u2028``), so the text cannot end the comment and start a line of its own.

    Examples
    --------
    >>> print(toml_comment("army.ros\\n[rules]"))
    # army.ros\\n[rules]
    """
    return "# " + "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in str(text))
