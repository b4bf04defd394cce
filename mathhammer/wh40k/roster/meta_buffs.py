"""Buffs in the meta matrix (issue 35): each list's buffs and what its Leaders grant, on both
of its sides.

A list attacks with its buffs' grants to the attacks (weapon abilities and characteristics
on its lines, roll modifiers, re-rolls and critical thresholds on its cells) and with what
its Leaders grant the units they lead; it is attacked with its buffs' defensive grants (FNP,
invulnerable save, ``-1 damage``, halved damage) on its units. So a pairing of list A's unit
against list B's unit is the cell of ``A.against(B, buffs=A's grants to the attacks,
other_buffs=B's buffs)``, by the same code (:mod:`.buffed`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.wh40k.buff_reader import DEFENSIVE_KINDS
from mathhammer.wh40k.buffs import Buff, load_buff_file, resolve_buffs


@dataclasses.dataclass(frozen=True)
class Sides:
    """Each list as an attacker (its units' lines with the grants), as a list of targets
    (its units with the defensive grants), each unit's roll grants, and the buffs by list."""

    attackers: dict[str, Any]
    targets: dict[str, Any]
    rolls: dict[str, dict[str, tuple[Buff, ...]]]
    buffs: dict[str, tuple[Buff, ...]]


def list_texts(buffs: Any, per_list: Mapping[str, Any] | None, labels: list[str]
               ) -> dict[str, list[Any]]:
    """The buffs of each list: ``buffs`` for every list, then ``per_list[label]``'s own.

    Raises
    ------
    OptionError
        For a ``per_list`` label that names no list (with the labels).

    Examples
    --------
    >>> list_texts(["Oath: re-roll hits"], {"b": "+1 to wound"}, ["a", "b"])
    {'a': ['Oath: re-roll hits'], 'b': ['Oath: re-roll hits', '+1 to wound']}
    """
    if isinstance(buffs, (str, Buff)):
        buffs = [buffs]
    out = {label: list(buffs or ()) for label in labels}
    for label, own in (per_list or {}).items():
        if label not in out:
            raise OptionError(f"buffs for list '{label}': no such list; the lists: "
                              f"{', '.join(labels)}", token=str(label))
        out[label] += [own] if isinstance(own, (str, Buff)) else list(own)
    return out


def sides(rosters: Mapping[str, Any], options: Any, buffs: Any = None,
          buff_file: str | Path | Mapping[str, Buff] | None = None,
          per_list: Mapping[str, Any] | None = None) -> Sides:
    """Each list's two sides with its buffs (``buffs`` for all, ``per_list`` for one, names
    looked up in ``buff_file``) and its Leaders' grants applied.

    Raises
    ------
    OptionError
        In one line, as ``mathhammer roster --buff / --buff-other`` refuses: a text that
        does not read, a grant a list does not take yet (cover or ``+1 to save`` on its
        units, a roll grant to a weapon keyword or to some groups of a unit...).
    """
    from mathhammer.wh40k.roster.buffed import (buffed, defended, list_buffs, offensive,
                                                unit_rolls)

    library = load_buff_file(buff_file) if isinstance(buff_file, (str, Path)) else buff_file
    texts = list_texts(buffs, per_list, list(rosters))
    out = Sides({}, {}, {}, {})
    for label, army in rosters.items():
        mine = resolve_buffs(texts[label], library) if texts[label] else ()
        attacks = list_buffs(list(offensive(mine)))
        granted = army.granted_buffs() if hasattr(army, "granted_buffs") else {}
        if attacks or granted:
            attacker, cells = buffed(army, options, attacks, granted)
            out.rolls[label] = {u.name: found for u in attacker.units
                                if (found := unit_rolls(cells, u.name))}
        else:
            attacker = army
        out.attackers[label] = attacker
        guards = [b for b in mine if any(g.kind in DEFENSIVE_KINDS for g in b.grants)]
        out.targets[label] = defended(army, guards, situation=options.situation) \
            if guards else army
        out.buffs[label] = tuple(mine)
    return out
