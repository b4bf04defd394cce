"""Check one line as it is typed: the parser's own one-line message, or the line as read.

Lines are only parsed here (microseconds), never computed. Dust's unit-card references
(``FILE.toml#UNIT``) name files, so the page refuses them: no text from the page reaches
the file system.
"""

from __future__ import annotations

from collections.abc import Callable

import re

from mathhammer.errors import MathhammerError, ProfileError
from mathhammer.web.units import Units, is_named
from mathhammer.web.words import page_message

_FILE_REF = re.compile(r"\.toml\s*#", re.IGNORECASE)


def refuse_file_reference(line: str) -> None:
    """Refuse a Dust line naming a TOML unit file."""
    if _FILE_REF.search(line):
        raise ProfileError(f"'{line[:60]}': the web page does not read unit-card files "
                           "(FILE.toml#UNIT); type the weapon or target line itself")


def _wh40k_weapon(line: str) -> str:
    from mathhammer.wh40k.parse import parse_weapon

    return str(parse_weapon(line))


def _wh40k_target(line: str, edition: int = 11) -> str:
    from mathhammer.wh40k.targets import resolve_target

    return str(resolve_target(line, None, edition))



def _attacker(line: str, units: Units) -> str:
    """A 40k attacker: weapon lines of one unit joined with ' + '; an ``@Name`` part reads
    as the unit's default weapons."""
    return " + ".join("; ".join(units.weapon_lines(part)) if is_named(part)
                      else _wh40k_weapon(part.strip()) for part in line.split(" + "))


def _wh40k_line_target(line: str, units: Units) -> str:
    """A 40k target line, archetype or ``@Name``."""
    return units.target_line(line) if is_named(line) else _wh40k_target(line)


def _wh40k_buff(line: str) -> str:
    from mathhammer.wh40k.buffs import parse_buff

    return str(parse_buff(line))


def _warmachine_attack(line: str) -> str:
    from mathhammer.warmachine.parse import format_attack, parse_attack

    return format_attack(parse_attack(line))


def _warmachine_target(line: str) -> str:
    from mathhammer.warmachine.parse import format_target
    from mathhammer.warmachine.reference_targets import resolve_target

    return format_target(resolve_target(line))


def _dust_weapon(line: str) -> str:
    from mathhammer.dust.parse import parse_weapon

    refuse_file_reference(line)
    weapon = parse_weapon(line)
    return "; ".join(str(w) for w in weapon) if isinstance(weapon, tuple) else str(weapon)


def _dust_target(line: str) -> str:
    from mathhammer.dust.parse import parse_target

    refuse_file_reference(line)
    return str(parse_target(line))


CHECKERS: dict[tuple[str, str], Callable[..., str]] = {
            ("40k", "weapon"): _attacker, ("40k", "target"): _wh40k_line_target,
            ("40k", "buff"): _wh40k_buff,
            ("warmachine", "attack"): _warmachine_attack,
            ("warmachine", "target"): _warmachine_target,
            ("dust", "weapon"): _dust_weapon, ("dust", "target"): _dust_target}


#: The 40k checkers, which read ``@Name`` from the page's checkout.
_NAMED = {_attacker, _wh40k_line_target}


def check_line(game: str, kind: str, line: str, units: Units | None = None
               ) -> dict[str, object]:
    """``{"ok": True, "read": ...}`` or ``{"ok": False, "message": ...}`` for one line
    (``units``: the checkout ``@Name`` lines are read from, if any)."""
    checker = CHECKERS.get((game, kind))
    if checker is None:
        return {"ok": False, "message": f"no line kind '{kind[:30]}' for '{game[:30]}'"}
    try:
        if checker in _NAMED:
            return {"ok": True, "read": checker(line.strip(), units or Units(None))}
        return {"ok": True, "read": checker(line.strip())}
    except MathhammerError as exc:
        return {"ok": False, "message": page_message(exc)}
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        said = page_message(exc)[:200]
        return {"ok": False, "message": f"cannot read this line: {said}"}
