"""Named buffs: army rules, detachment rules, stratagems and auras (issue 35).

A buff is read from text by :func:`parse_buff` (the grammar: :mod:`mathhammer.wh40k.buff_reader`),
named in a buff file (:func:`load_buff_file`), and applied by translating it into what the
engines take (:func:`apply_buffs`): abilities and characteristics on the weapon lines, the
target's profile, and :class:`~mathhammer.wh40k.profiles.Modifiers` /
:class:`~mathhammer.wh40k.profiles.Situation` values.

How a buff meets what is given directly (the rules' way of combining, never a silent
override): characteristic changes and roll modifiers add (the engines cap the net roll
modifier at +-1); re-roll policies take the wider one (a die is re-rolled once); Feel No Pain,
invulnerable saves, critical thresholds and ``-N damage`` take the best one; cover, halved
damage and abilities are on or off (duplicate abilities never stack). A grant that holds for
the whole activation (roll modifiers, re-rolls, critical thresholds, defensive grants) is
refused when its weapon scope picks some of the lines but not all: the engines take those
for every line of one call, so give the picked lines their own call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mathhammer.core.dice import DiceExpr
from mathhammer.core.files import MAX_TOML_NESTING, NotAFile, read_bounded, too_deeply_nested
from mathhammer.core.limits import shown, unsafe_text
from mathhammer.core.reference_names import table_line
from mathhammer.errors import MathhammerError, OptionError, ProfileError, did_you_mean
from mathhammer.wh40k.buff_reader import (CONDITIONS, DEFENSIVE_KINDS, MAX_BUFF_TEXT, Buff,
                                          Grant, parse_buff)
from mathhammer.wh40k.profiles import Modifiers, Situation, TargetProfile, Weapon

__all__ = ["CONDITIONS", "DEFENSIVE_KINDS", "MAX_BUFF_TEXT", "Buff", "Buffed", "Grant",
           "apply_buffs", "buff_question", "load_buff_file", "parse_buff",
           "resolve_buffs"]

#: Most buffs in one call.
MAX_BUFFS = 64

#: Grant kinds that change weapon lines (each selected line on its own).
LINE_KINDS = frozenset({"ability", "strength", "ap", "damage", "attacks"})
#: Grant kinds that hold for a whole activation (every line of the call).
ACTIVATION_KINDS = frozenset({"hit", "wound", "save", "reroll", "crit_hits", "crit_wounds",
                              "fnp", "invuln", "cover", "damage_minus", "damage_halved"})


# -- buff files and names ---------------------------------------------------------------------
def load_buff_file(path: str | Path) -> dict[str, Buff]:
    """Named buffs from a TOML file: a ``[buffs]`` table of ``name = "text"``.

    Parameters
    ----------
    path
        E.g. ``buffs.toml`` holding::

            [buffs]
            "Oath of Moment" = "re-roll hits (1CP)"
            "Bolter drill" = "[SUSTAINED HITS 1] to RANGED weapons when stationary"

    Returns
    -------
    dict
        Name -> :class:`Buff` (the text's own name, if any, gives way to the key).

    Raises
    ------
    OptionError
        In one line for a missing or unreadable file, a file without a ``[buffs]`` table, or
        an entry that is not text; a buff that does not read raises its own one-line error,
        with the file and the name in front.
    """
    import tomllib

    file = Path(path)
    text = _buff_file_text(file)
    deep = too_deeply_nested(text)
    if deep is not None:
        raise OptionError(f"buff file '{file}', line {deep}: arrays or tables nested more "
                          f"than {MAX_TOML_NESTING} deep; a buff file is one [buffs] table of "
                          "name = \"text\"", token=str(file))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise OptionError(f"buff file '{file}' is not TOML: {exc}", token=str(file)) from None
    table = data.get("buffs")
    if not isinstance(table, dict) or not table:
        raise OptionError(f"buff file '{file}' has no [buffs] table of name = \"text\"; write "
                          "e.g. [buffs] then \"Oath of Moment\" = \"re-roll hits (1CP)\"",
                          token="buffs")
    out: dict[str, Buff] = {}
    for key in table:
        problem = unsafe_text(key, "buff name", "rename it")
        if problem is not None:
            raise OptionError(f"buff file '{file}', line {table_line(text, 'buffs', key)}: "
                              f"{problem}", token=shown(key))
    for key, text in table.items():
        if not isinstance(text, str):
            raise OptionError(f"buff file '{file}': buff '{key}' must be text such as "
                              f"\"re-roll hits\", not {type(text).__name__}", token=key)
        try:
            buff = parse_buff(text, name=key)
        except MathhammerError as exc:
            raise exc.located(f"{file}: buff '{key}'") from None
        out[key] = replace(buff, name=key)
    return out


def _buff_file_text(file: Path) -> str:
    """The text of a buff file: a regular file of UTF-8 text (a folder is named as one; a
    pipe or device is refused, not waited on)."""
    try:
        return read_bounded(file).decode("utf-8")
    except FileNotFoundError:
        raise OptionError(f"buff file '{file}' does not exist", token=str(file)) from None
    except NotAFile:
        kind = "a folder" if file.is_dir() else "a device, pipe or socket, not a file"
        raise OptionError(f"'{file}' is {kind}; give a buff file (.toml)",
                          token=str(file)) from None
    except OSError as exc:   # no permission; FileTooLarge says its limit
        raise OptionError(f"buff file '{file}' cannot be read: {exc.strerror or exc}",
                          token=str(file)) from None
    except UnicodeDecodeError as exc:
        raise OptionError(f"buff file '{file}' cannot be read: not UTF-8 text (byte "
                          f"{exc.start}); save it as UTF-8", token=str(file)) from None


def resolve_buffs(items: Iterable[str | Buff] | str | Buff | None,
                  library: Mapping[str, Buff] | None = None) -> tuple[Buff, ...]:
    """Buffs from text, :class:`Buff` objects, or names of ``library`` (a buff file's).

    A text that names a buff of ``library`` (any case) is that buff; any other text is read
    as a buff.

    Raises
    ------
    OptionError or ProfileError
        In one line: an unknown name (when it does not read as a buff either), too many
        buffs, or an item that is neither text nor a Buff.

    Examples
    --------
    >>> [b.name for b in resolve_buffs(["Oath of Moment: re-roll hits", "[LETHAL HITS]"])]
    ['Oath of Moment', '[LETHAL HITS]']
    """
    if items is None:
        return ()
    if isinstance(items, (str, Buff)):
        items = [items]
    if not isinstance(items, Iterable) or isinstance(items, (bytes, Mapping)):
        raise OptionError(f"buffs must be a list of buff texts or names, not "
                          f"{type(items).__name__} {items!r:.60}", token="buffs")
    items = list(items)
    if len(items) > MAX_BUFFS:
        raise OptionError(f"{len(items):,} buffs: at most {MAX_BUFFS} in one call",
                          token="buffs")
    names = {k.casefold(): v for k, v in (library or {}).items()}
    out = []
    for item in items:
        if isinstance(item, Buff):
            out.append(item)
        elif not isinstance(item, str):
            raise OptionError(f"a buff is text or a Buff, not {type(item).__name__} "
                              f"{item!r:.60}", token="buffs")
        elif item.strip().casefold() in names:
            out.append(names[item.strip().casefold()])
        else:
            try:
                out.append(parse_buff(item))
            except ProfileError as exc:
                if library and _looks_like_name(item):
                    hint = did_you_mean(item.strip(), list(library))
                    raise OptionError(f"unknown buff '{item.strip()}'" + (
                        hint or f"; the buff file names {', '.join(sorted(library))}"),
                        token=item) from None
                raise exc
    return tuple(out)


def _looks_like_name(text: str) -> bool:
    return ":" not in text and "[" not in text and not re.search(r"\d", text)


# -- applying ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Buffed:
    """What buffs made of one question: the lines, target and options the engines take."""

    weapons: tuple[Weapon, ...]
    target: TargetProfile
    situation: Situation
    modifiers: Modifiers
    applied: tuple[str, ...]
    skipped: tuple[str, ...]


def apply_buffs(buffs: Sequence[Buff], weapons: Sequence[Weapon], target: TargetProfile,
                situation: Situation, modifiers: Modifiers) -> Buffed:
    """Translate ``buffs`` into weapon abilities and characteristics on the lines, the
    target's profile, and :class:`Modifiers` / :class:`Situation` values (see the module's
    rules for combining them with values given directly).

    Raises
    ------
    OptionError
        A grant that holds for the whole activation whose weapon scope picks some lines but
        not all, or a change a line cannot take (naming the buff).

    Examples
    --------
    >>> from mathhammer.wh40k.parse import parse_target, parse_weapon
    >>> w = [parse_weapon('Bolt rifle: 24" A2 BS3+ S4 AP-1 D1')]
    >>> done = apply_buffs([parse_buff("[LETHAL HITS]")], w, parse_target("T4 Sv3+ W2"),
    ...                    Situation(), Modifiers())
    >>> str(done.weapons[0])
    'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [LETHAL HITS]'
    """
    lines = list(weapons)
    applied: list[str] = []
    skipped: list[str] = []
    changes: dict[str, Any] = {}
    situation_changes: dict[str, Any] = {}
    for buff in buffs:
        reason = _inactive(buff, situation, target)
        if reason:
            skipped.append(f"{buff.name} ({reason})")
            continue
        picked = [i for i, w in enumerate(lines) if _picks(buff.weapons, w)]
        used = False
        for grant in buff.grants:
            if buff.against and not _target_has(buff.against, target) and \
                    grant.kind != "ability":
                continue
            if buff.recipients and grant.kind in DEFENSIVE_KINDS and \
                    not _target_has(buff.recipients, target):
                continue
            if grant.kind in LINE_KINDS:
                for i in picked:
                    lines[i] = _changed_line(lines[i], grant, buff)
                used = used or bool(picked)
                continue
            if not picked:
                continue
            if len(picked) != len(lines):
                raise OptionError(
                    f"buff '{buff.name}': '{grant}' holds for every line of an activation, and "
                    f"'to {buff.weapons} weapons' picks {len(picked)} of {len(lines)} lines; "
                    f"give those lines their own call", token=buff.name)
            _combine(grant, changes, situation_changes, modifiers, situation, target)
            used = True
        (applied if used else skipped).append(
            buff.name if used else f"{buff.name} (changes nothing here)")
    target = _target_changed(target, changes.pop("invuln", None))
    try:
        modifiers = replace(modifiers, **changes) if changes else modifiers
        situation = replace(situation, **situation_changes) if situation_changes else situation
    except MathhammerError as exc:   # pragma: no cover - values are checked on reading
        raise OptionError(f"buffs: {exc}") from None
    return Buffed(tuple(lines), target, situation, modifiers, tuple(applied), tuple(skipped))


def _inactive(buff: Buff, situation: Situation, target: TargetProfile) -> str:
    missing = [c for c in buff.conditions if not getattr(situation, c)]
    if missing:
        return "needs " + " and ".join(m.replace("_", " ") for m in missing)
    return ""


def _target_has(keywords: tuple[str, ...], target: TargetProfile) -> bool:
    return _keywords_have(keywords, target.keywords)


def _keywords_have(keywords: tuple[str, ...], has: frozenset[str]) -> bool:
    """Whether ``has`` holds one of ``keywords`` (and none a ``NON-`` keyword excludes), as
    an ability's keywords after a colon are read."""
    excluded = [k[4:] for k in keywords if k.startswith("NON-")]
    wanted = [k for k in keywords if not k.startswith("NON-")]
    if any(k in has for k in excluded):
        return False
    return not wanted or any(k in has for k in wanted)


def _picks(scope: str | None, weapon: Weapon) -> bool:
    if scope is None:
        return True
    if scope == "MELEE":
        return weapon.melee
    if scope == "RANGED":
        return not weapon.melee
    return weapon.has(scope)


def _changed_line(weapon: Weapon, grant: Grant, buff: Buff) -> Weapon:
    try:
        if grant.kind == "ability":
            added = tuple(replace(a, scope=buff.against) if buff.against else a
                          for a in grant.abilities)
            return replace(weapon, abilities=tuple(dict.fromkeys(weapon.abilities + added)))
        value = int(grant.value or 0)
        if grant.kind == "strength":
            return replace(weapon, strength=max(1, weapon.strength + value))
        if grant.kind == "ap":
            return replace(weapon, ap=min(0, weapon.ap - value))
        if grant.kind == "damage":
            return replace(weapon, damage=_plus(weapon.damage, value))
        return replace(weapon, attacks=_plus(weapon.attacks, value))
    except MathhammerError as exc:
        raise OptionError(f"buff '{buff.name}': '{grant}' on '{weapon.name or weapon}': {exc}",
                          token=buff.name) from None


def _plus(dice: DiceExpr, value: int) -> DiceExpr:
    """``dice`` + ``value`` (a fixed value stays at least 1)."""
    return DiceExpr(dice.count, dice.sides, max(dice.constant + value, 0 if dice.sides else 1))


#: Re-roll policies, narrowest first (a wider one re-rolls every die a narrower one does).
_REROLL_ORDER = ("none", "ones", "failed", "noncrit", "all")
_DICE_REROLL_ORDER = ("none", "ones", "low")


def _combine(grant: Grant, changes: dict[str, Any], situation_changes: dict[str, Any],
             modifiers: Modifiers, situation: Situation, target: TargetProfile | None) -> None:
    def current(name: str) -> Any:
        return changes.get(name, getattr(modifiers, name))

    kind, value = grant.kind, grant.value
    if kind in ("hit", "wound", "save"):
        name = {"hit": "hit_mod", "wound": "wound_mod", "save": "save_mod"}[kind]
        changes[name] = current(name) + int(value or 0)
    elif kind == "reroll":
        name = f"reroll_{grant.roll}"
        order = _DICE_REROLL_ORDER if grant.roll in ("damage", "attacks") else _REROLL_ORDER
        changes[name] = max(current(name), str(value), key=order.index)
    elif kind in ("crit_hits", "crit_wounds"):
        changes[kind] = min(current(kind), int(value or 6))
    elif kind == "fnp":
        own = [v for v in (current("fnp"), target.fnp if target else None) if v is not None]
        changes["fnp"] = min([*own, int(value or 6)])
    elif kind == "damage_minus":
        changes["damage_minus"] = max(current("damage_minus"), int(value or 0))
    elif kind == "damage_halved":
        changes["damage_halved"] = True
    elif kind == "cover":
        situation_changes["cover"] = True
    elif kind == "invuln":
        changes["invuln"] = min(changes.get("invuln", 7), int(value or 7))


def _target_changed(target: TargetProfile, invuln: int | None) -> TargetProfile:
    """The target with the best of its invulnerable save and a buff's (which works against
    every attack)."""
    if invuln is None:
        return target
    if target.invuln is not None and target.invuln <= invuln and target.invuln_scope == "all":
        return target
    if target.invuln is not None and target.invuln < invuln:
        raise OptionError(f"an invulnerable save {invuln}+ against every attack, and the "
                          f"target's own {target.invuln}+ ({target.invuln_scope} attacks "
                          f"only): the engines take one; give the target line the one that "
                          f"applies", token="invuln")
    return replace(target, invuln=invuln, invuln_scope="all")


def buff_question(question: Any, buffs: Any) -> None:
    """Apply ``buffs`` to a parsed 40k question (:class:`mathhammer.wh40k.api.Question`):
    its lines, target, situation and modifiers become the buffed ones, and its ``buffs``
    record says which applied and which did not (the result's ``inputs["buffs"]``)."""
    done = apply_buffs(resolve_buffs(buffs), question.weapons, question.target,
                       question.situation, question.modifiers)
    question.weapons = list(done.weapons)
    question.target = done.target
    question.situation = done.situation
    question.modifiers = done.modifiers
    question.buffs = {"applied": list(done.applied), "not_applied": list(done.skipped)}


def buffed_activations(units: Mapping[str, Any], activations: Sequence[Any],
                       attacks: Sequence[Sequence[Any]]) -> tuple[tuple[Any, ...],
                                                                  tuple[tuple[Any, ...], ...]]:
    """A scenario's activations and selected attacks with each activation's ``buffs``
    applied: abilities and characteristics on its attacks' weapon profiles (``against``
    read from each attack's target unit), roll modifiers, re-rolls and critical thresholds
    on its modifiers. Defensive grants belong to the target unit's own profile in a scenario,
    and are refused.

    Raises
    ------
    ScenarioError
        A defensive grant, or an activation-wide grant whose scope picks some attacks but
        not all (naming the activation and the buff).
    """
    from mathhammer.errors import ScenarioError

    out_activations, out_attacks = [], []
    for activation, selected in zip(activations, attacks):
        if not activation.buffs:
            out_activations.append(activation)
            out_attacks.append(tuple(selected))
            continue
        lines = list(selected)
        changes: dict[str, Any] = {}
        situation_changes: dict[str, Any] = {}
        situation, modifiers = activation.unbuffed or (activation.situation,
                                                       activation.modifiers)
        for buff in resolve_buffs(activation.buffs):
            if not buff.active(situation):
                continue
            picked = [i for i, a in enumerate(lines) if _picks(buff.weapons, a.weapon)]
            for grant in buff.grants:
                where = f"activation '{activation.label}': buff '{buff.name}': '{grant}'"
                if grant.kind in DEFENSIVE_KINDS:
                    raise ScenarioError(f"{where} is the defender's: give it on the target "
                                        "unit's line instead", token=buff.name)
                hits = [i for i in picked if not buff.against or grant.kind == "ability"
                        or _keywords_have(buff.against, units[lines[i].target].keywords)]
                if grant.kind in LINE_KINDS:
                    for i in hits:
                        lines[i] = replace(lines[i],
                                           weapon=_changed_line(lines[i].weapon, grant, buff))
                elif hits and len(hits) != len(lines):
                    raise ScenarioError(f"{where} holds for every attack of an activation, "
                                        f"and its scope picks {len(hits)} of {len(lines)}; "
                                        "split the activation", token=buff.name)
                elif hits:
                    _combine(grant, changes, situation_changes, modifiers, situation, None)
        out_activations.append(replace(
            activation, modifiers=replace(modifiers, **changes),
            situation=replace(situation, **situation_changes), unbuffed=(situation, modifiers)))
        out_attacks.append(tuple(lines))
    return tuple(out_activations), tuple(out_attacks)
