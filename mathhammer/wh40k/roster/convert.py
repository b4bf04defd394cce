"""A roster tree (:mod:`.read`) to the units of an army list.

``roster > forces > force > selections > selection``: a top-level selection of type ``unit``
or ``model`` is a datasheet; top-level ``upgrade`` selections are settings (battle size,
detachment). Inside a datasheet, ``model`` selections are model groups (``number`` models)
and ``upgrade`` selections with weapon profiles are weapons (``number`` = the total carried by
the model group they hang under, or by the whole unit when they hang off the unit).

Each datasheet becomes a :class:`RosterEntry`: its points (``pts`` over the whole subtree),
its model groups as :class:`~mathhammer.wh40k.scenario.units.ModelGroup` s (one per statline
and loadout), notes for everything we could not model, and the id of the unit it is attached
to when the file records it (New Recruit's ``Leading`` / ``Supporting`` associations).
What is asked of a single node lives in :mod:`.nodes`, the model groups in :mod:`.groups`.
"""

from __future__ import annotations

from typing import Any, Protocol

from dataclasses import dataclass, replace
from pathlib import Path

from mathhammer.errors import ProfileError, RosterError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.roster import defense
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.defense import Effect
from mathhammer.wh40k.roster.groups import ModelSelection, model_groups
from mathhammer.wh40k.roster.leader_grants import LeaderGrant, about_attacks, read_grants
from mathhammer.wh40k.roster.nodes import (
    ability_texts, plain_number, raw_ability_texts, refuse_unsafe_text, selection_count,
    shortened, statline_profiles, subtree, visible_profiles, weapon_kind)
from mathhammer.wh40k.roster.read import Node
from mathhammer.wh40k.scenario.units import ModelGroup

#: ``roster@gameSystemId`` of the editions we read.
EDITIONS = {"sys-352e-adc2-7639-d6a9": 10, "sys-352e-adc2-7639-d610": 11}
KNOWN_OTHERS = {"28ec-711c-d87f-3aeb": "9th edition"}
MAX_MODELS = 500          # per datasheet
POINTS = "pts"


@dataclass(frozen=True)
class RosterEntry:
    """One datasheet of the list as the file has it (before attaching Leaders).

    Attributes
    ----------
    name
        Unique within the roster (``Name (2)`` for a second unit of the same name).
    points
        ``pts`` summed over the datasheet's whole subtree (enhancements included).
    models
        Number of models.
    groups
        Model groups with their statlines and weapons; empty when the file gives no Unit
        statline (then the entry is listed but not analysed).
    notes
        What could not be modelled, and other costs ("2 Detachment Points").
    selection_id
        The selection's id in the file.
    associations
        ``(kind, target selection id)`` for each Leading / Supporting link the file records.
    incoming
        Selection ids of the units the file records as attached to this one.
    damage_minus, damage_halved, defense
        The unit's whole-unit defensive rules (:func:`.defense.unit_defense`; ``defense``
        also holds the hit and wound roll penalties).
    can_lead, leader_text
        The units its Leader ability names, and whether the file prints a Leader ability.
    has_statline
        False when a model has no Unit profile in the file: the unit attacks (its groups
        carry a placeholder ``T1 Sv- W1`` statline) but is never a target.
    leader_effects
        Defensive effects it grants "while this model is leading a unit": applied to the
        unit it is attached to.
    conditional
        Defensive effects printed with a condition we cannot check (noted; applied only
        when assumed, ``assume=``).
    leader_grants
        What it grants the weapons of the unit it leads (or, as a bodyguard, its own unit
        when led), read by :mod:`.leader_grants`: applied to the attached unit.
    """

    name: str
    points: float
    models: int
    groups: tuple[ModelGroup, ...]
    notes: tuple[str, ...] = ()
    selection_id: str = ""
    associations: tuple[tuple[str, str], ...] = ()
    incoming: tuple[str, ...] = ()
    damage_minus: int = 0
    damage_halved: bool = False
    can_lead: tuple[str, ...] = ()
    has_statline: bool = True
    defense: tuple[tuple[str, int | bool], ...] = ()
    leader_effects: tuple[Effect, ...] = ()
    conditional: tuple[Effect, ...] = ()
    leader_text: bool = False
    leader_grants: tuple[LeaderGrant, ...] = ()


class RosterLike(Protocol):
    """What the analysis and the scenario writer read of a :class:`~.api.Roster` (the roster
    module builds on them, so they name its attributes instead of importing it)."""

    source: str
    faction: str
    edition: int
    points: float
    entries: Any
    units: Any
    attachments: Any

    def defense_of(self, name: str) -> dict[str, int | bool]: ...

    def entry_groups(self, name: str) -> tuple[ModelGroup, ...]: ...


@dataclass(frozen=True)
class RosterData:
    edition: int
    faction: str
    points: float
    entries: tuple[RosterEntry, ...]
    notes: tuple[str, ...]
    name: str = ""


def convert(root: Node, source: str | Path) -> RosterData:
    """The army list in ``root`` (a ``roster`` node).

    Raises
    ------
    RosterError
        For an edition we do not read or a file that holds no forces.
    """
    refuse_unsafe_text(root, source)
    edition = _edition(root, source)
    forces = _forces(root)
    if not forces:
        raise RosterError(f"{source}: the roster has no forces (roster > forces > force); "
                          "it holds no army list")
    factions = list(dict.fromkeys(kw.clean(f.get("catalogueName")) for f in forces
                                  if f.get("catalogueName")))
    entries: list[RosterEntry] = []
    notes: list[str] = []
    for force in forces:
        for selection in force.list("selections"):
            if _is_datasheet(selection):
                entries.append(_entry(selection, source))
            else:
                notes.append(_setting(selection, source))
    entries = [for_edition(e, edition) for e in _unique_names(entries)]
    total = _roster_points(root, source)
    if total is None:
        total = sum(e.points for e in entries)
    return RosterData(edition=edition, faction=" + ".join(factions), points=_tidy(total),
                      entries=tuple(entries), notes=tuple(n for n in notes if n),
                      name=kw.clean(root.get("name")))


def for_edition(entry: RosterEntry, edition: int) -> RosterEntry:
    """``entry`` without the weapon abilities ``edition`` does not have, each left out with a
    note (BSData's 11th-edition data still gives some Knights' weapons 10th's [CONVERSION]:
    kept, the whole list would be refused by the rules of its own edition)."""
    notes: list[str] = []
    groups = tuple(replace(g, weapons=tuple(
        replace(w, profiles=tuple(_without_other_editions(p, edition, notes)
                                  for p in w.profiles)) for w in g.weapons))
        for g in entry.groups)
    if not notes:
        return entry
    return replace(entry, groups=groups, notes=tuple(dict.fromkeys(entry.notes + tuple(notes))))


def _without_other_editions(weapon: Any, edition: int, notes: list[str]) -> Any:
    other = [a for a in weapon.abilities if ab.EDITION_ONLY.get(a.name, edition) != edition]
    if not other:
        return weapon
    notes += [f"{weapon.name}: [{a.name}] is a rule of {ab.EDITION_ONLY[a.name]}th edition, "
              f"not of {edition}th: left out" for a in other]
    return replace(weapon, abilities=tuple(a for a in weapon.abilities if a not in other))


def _edition(root: Node, source) -> int:
    system = root.get("gameSystemId").strip()
    if system in EDITIONS:
        return EDITIONS[system]
    name = kw.clean(root.get("gameSystemName"))
    if not system:
        raise RosterError(f"{source}: not a roster: <roster> has no gameSystemId, so it was "
                          "not written by BattleScribe or New Recruit")
    found = name or KNOWN_OTHERS.get(system, "an unknown game system")
    raise RosterError(f"{source}: this roster is for {found} (gameSystemId {system}); "
                      "mathhammer reads Warhammer 40,000 10th and 11th edition rosters only")


def _forces(root: Node) -> list[Node]:
    out: list[Node] = []
    stack = list(reversed(root.list("forces")))
    while stack:
        force = stack.pop()
        out.append(force)
        stack.extend(reversed(force.list("forces")))
    return out


def _is_datasheet(selection: Node) -> bool:
    kind = selection.get("type").lower()
    if kind in ("unit", "model"):
        return True
    return any(statline_profiles(n) or any(weapon_kind(p) for p in visible_profiles(n))
               for n in subtree(selection))


def _setting(selection: Node, source: str | Path) -> str:
    name = kw.clean(selection.get("name"))
    chosen = [kw.clean(s.get("name")) for s in selection.list("selections")]
    text = f"{name}: {', '.join(chosen)}" if chosen else name
    points, other = _costs(selection, source)
    costs = ([f"{_tidy(points):g} pts"] if points else []) + [
        f"{_tidy(v):g} {k}" for k, v in other.items()]
    return f"{text} ({', '.join(costs)})" if costs else text


def _roster_points(root: Node, source: str | Path = "") -> float | None:
    for cost in root.list("costs"):
        if cost.get("name").strip().lower() == POINTS:
            return _cost_value(cost, root, source)
    return None


# -- one datasheet ------------------------------------------------------------------------
def read_entry(selection: Node, source: str | Path) -> RosterEntry:
    """One datasheet's selection (from a roster file, or written from a catalogue by
    :mod:`mathhammer.wh40k.bsdata`) read as a :class:`RosterEntry`.

    Raises
    ------
    RosterError
        Naming ``source`` and the unit, for a profile that cannot be used at all.
    """
    refuse_unsafe_text(selection, source)
    return _entry(selection, source)


def _entry(selection: Node, source) -> RosterEntry:
    name = kw.clean(selection.get("name")) or "Unnamed unit"
    try:
        return _read_entry(selection, source, name)
    except ProfileError as exc:
        raise RosterError(f"{source}: unit '{name}': {exc}") from None


def _read_entry(selection: Node, source, name: str) -> RosterEntry:
    notes: list[str] = []
    _check_numbers(selection, source, name)
    points, other_costs = _costs(selection, source)
    for cost_name, value in other_costs.items():
        notes.append(f"also costs {_tidy(value):g} {cost_name}")
    models, unit_parts = _split_models(selection, source, name)
    total_models = sum(m.count for m in models)
    if total_models > MAX_MODELS:
        raise RosterError(f"{source}: unit '{name}' has {total_models} models; a roster unit "
                          f"has at most {MAX_MODELS}")
    guard = _Defence.read(name, models, unit_parts, notes)
    if guard.unit_wide:
        notes.append("whole-unit defensive rules applied when it is a target: "
                     + ", ".join(_describe_wide(k, v) for k, v in guard.unit_wide))
    groups, complete = model_groups(name, models, unit_parts, selection, notes, source,
                                     guard.per_model)
    _note_unread(selection, notes)
    custom = kw.clean(selection.get("customName"))
    if custom and custom != name:
        notes.append(f"custom name: {custom}")
    texts = ability_texts(subtree(selection))
    grants, unread = read_grants(texts)
    notes += [f"'{g.ability}': {g.describe()}: applied when "
              + ("it leads a unit" if g.when == "leading" else "a Leader is attached to it")
              for g in grants] + list(unread)
    unit_wide = dict(guard.unit_wide)
    return RosterEntry(name=name, points=_tidy(points), models=total_models,
                       groups=tuple(groups), notes=tuple(dict.fromkeys(notes)),
                       selection_id=selection.get("id"),
                       associations=_associations(selection), incoming=_incoming(selection),
                       damage_minus=int(unit_wide.get("damage_minus", 0)),
                       damage_halved=bool(unit_wide.get("damage_halved", False)),
                       can_lead=kw.leads(raw_ability_texts(subtree(selection))),
                       has_statline=complete, defense=guard.unit_wide,
                       leader_effects=guard.leading, conditional=guard.conditional,
                       leader_text=any(kw.clean(n).lower() == "leader" for n, _ in texts),
                       leader_grants=grants)


@dataclass
class _Defence:
    """A datasheet's defensive rules, read once: per model selection (index), unit-wide,
    a Leader's and the conditional ones."""

    per_model: list[list[Effect]]
    unit_wide: tuple[tuple[str, int | bool], ...]
    leading: tuple[Effect, ...]
    conditional: tuple[Effect, ...]

    @classmethod
    def read(cls, unit: str, models: list[ModelSelection], unit_parts: list[Node],
             notes: list[str]) -> _Defence:
        shared = _effects(ability_texts(unit_parts))
        unit_texts = set(ability_texts(unit_parts))
        own = [_effects([t for t in ability_texts(m.parts) if t not in unit_texts])
               for m in models]
        one_kind = len({m.name for m in models}) <= 1
        wide = [e for e in shared if e.kind in defense.PER_UNIT and not e.condition]
        for model, found in zip(models, own):
            for e in found:
                if e.kind in defense.PER_UNIT and not e.condition:
                    if one_kind:
                        wide.append(e)
                    else:
                        notes.append(f"'{e.ability}' ({e.describe()}) is printed for "
                                     f"{model.name} only; the engine gives it to a whole unit "
                                     "or none: not applied")
        every = shared + [e for found in own for e in found]
        for part in [unit_parts] + [m.parts for m in models]:
            for ability, text in ability_texts(part):
                for sentence in defense.unmodelled(ability, text):
                    if about_attacks(sentence):
                        continue   # read (or noted) by leader_grants
                    notes.append(f"'{kw.clean(ability)}' is not modelled: "
                                 f"\"{sentence[:120]}\"")
        leading = tuple(dict.fromkeys(e for e in every if e.leading or e.led))
        conditional = tuple(dict.fromkeys(e for e in every if e.condition and e not in leading))
        for e in leading:
            notes.append(f"'{e.ability}': {e.describe()} {e.condition}: applied when "
                         + ("it leads a unit" if e.leading else "a Leader is attached to it"))
        for e in conditional:
            notes.append(f"'{e.ability}' ({e.describe()}) has a condition ('{e.condition}'): "
                         f"not applied; --assume \"{unit}: {e.ability}\" applies it")
        per_model = [[e for e in shared + found if e.kind in defense.PER_MODEL and not e.condition]
                     for found in own]
        return cls(per_model, tuple(sorted(defense.unit_defense(wide).items())), leading,
                   conditional)


def _describe_wide(key: str, value: int | bool) -> str:
    if key == "damage_halved":
        return "halve Damage"
    if key == "damage_minus":
        return f"-{value} Damage"
    roll, _, scope = key.partition("_minus_")
    against = "" if scope == "all" else f" by {scope} attacks"
    return f"-{value} to be {'hit' if roll == 'hit' else 'wounded'}{against}"


def _effects(texts: list[tuple[str, str]]) -> list[Effect]:
    return list(dict.fromkeys(e for name, text in texts for e in defense.effects(name, text)))


def _split_models(selection: Node, source, name: str) -> tuple[list[ModelSelection], list[Node]]:
    """The model selections of a datasheet, and the nodes that belong to the whole unit.

    A single-model datasheet (type ``model``) is a model itself, with everything below it
    except further model selections (a character's attendant) as its parts."""
    models: list[ModelSelection] = []
    parts: list[Node] = [selection]
    stack = list(reversed(selection.list("selections")))
    while stack:
        node = stack.pop()
        if node.get("type").lower() == "model":
            model = ModelSelection(node, selection_count(node, source, name),
                                   kw.clean(node.get("name")))
            model.parts = subtree(node)
            if model.count > 0:
                models.append(model)
            continue
        parts.append(node)
        stack.extend(reversed(node.list("selections")))
    _check_datasheet_number(selection, bool(models), source, name)
    if selection.get("type").lower() == "model":
        itself = ModelSelection(selection, selection_count(selection, source, name),
                        kw.clean(selection.get("name")), parts)
        return ([itself] if itself.count > 0 else []) + models, []
    if not models:
        models = [ModelSelection(selection, max(selection_count(selection, source, name), 1),
                         kw.clean(selection.get("name")))]
    return models, parts


def _check_datasheet_number(selection: Node, has_models: bool, source, name: str) -> None:
    """A datasheet's own ``number``: at least 1 (0 would list a unit of no models at its full
    points); exactly 1 for a single-model datasheet (type ``model``) and for a unit whose
    model selections count its models: the numbers below it are totals (a model x9 > a weapon
    x9 is nine weapons), so a number above 1 would not say how many models each copy has."""
    number = selection_count(selection, source, name)
    if number == 0:
        raise RosterError(f"{source}: unit '{name}' has number 0: a datasheet in a list is "
                          "taken at least once; export the list again")
    if number > 1 and (has_models or selection.get("type").lower() == "model"):
        raise RosterError(f"{source}: unit '{name}' has number {number}: a datasheet's "
                          "selection is one unit, its model selections count its models; "
                          "export the list again with each unit as a selection of its own")


def _costs(selection: Node, source: str | Path = "") -> tuple[float, dict[str, float]]:
    points = 0.0
    other: dict[str, float] = {}
    for node in subtree(selection):
        for cost in node.list("costs"):
            value = _cost_value(cost, node, source)
            if value == 0:
                continue
            name = kw.clean(cost.get("name")) or "cost"
            if name.lower() == POINTS:
                points += value
            else:
                other[name] = other.get(name, 0.0) + value
    return points, other


def _cost_value(cost: Node, node: Node, source: str | Path) -> float:
    """A cost's value; a negative, huge or unreadable one is refused (it would change the
    list's points silently)."""
    text = cost.get("value").strip()   # missing, empty or null: refused, not 0 points
    value = plain_number(text) if text else None
    if value is None or value < 0:
        where = kw.clean(node.get("name")) or "the roster"
        raise RosterError(f"{source}: '{where}' costs '{shortened(text)}' "
                          f"{kw.clean(cost.get('name'))}; a cost is a number from 0 to "
                          "999,999,999: export the list again")
    return value


def _check_numbers(selection: Node, source: str | Path, unit: str) -> None:
    """Every ``number`` in a datasheet is a whole number of at most :data:`MAX_WEAPON_COUNT`
    (the unit's own included: ``-1e300`` must not pass as an empty unit)."""
    for node in subtree(selection):
        selection_count(node, source, unit)


def _associations(selection: Node) -> tuple[tuple[str, str], ...]:
    out = []
    for link in selection.list("associations"):
        kind = kw.clean(link.get("name")).lower()
        target = link.get("to").strip()
        if link.get("type", "outgoing").lower() == "outgoing" and target and \
                kind in ("leading", "supporting"):
            out.append((kind, target))
    return tuple(out)


def _incoming(selection: Node) -> tuple[str, ...]:
    out = []
    links = selection.list("incomingAssociations") + [
        link for link in selection.list("associations")
        if link.get("type").lower() == "incoming"]
    for link in links:
        kind = kw.clean(link.get("name")).lower()
        origin = link.get("from").strip()
        if origin and kind in ("leading", "supporting", ""):
            out.append(origin)
    return tuple(out)


_NOT_WEAPONS = {"warlord"}


def _note_unread(selection: Node, notes: list[str]) -> None:
    """A selection inside the datasheet that is neither a model nor carries any profile,
    rule or further selection (a weapon the file gives no profile for) becomes a note."""
    for node in subtree(selection)[1:]:
        if node.get("type").lower() in ("model", "unit") or node.list("selections") or \
                node.list("profiles") or node.list("rules"):
            continue
        name = kw.clean(node.get("name"))
        categories = {kw.clean(c.get("name")).lower() for c in node.list("categories")}
        if not name or name.lower() in _NOT_WEAPONS or name.lower() in categories:
            continue
        notes.append(f"'{name}' has no profile in the file: not modelled (add it by hand "
                     "if it is a weapon)")


# -- small helpers ------------------------------------------------------------------------
def _unique_names(entries: list[RosterEntry]) -> list[RosterEntry]:
    from dataclasses import replace

    seen: dict[str, int] = {}
    out = []
    for entry in entries:
        n = seen.get(entry.name, 0) + 1
        seen[entry.name] = n
        out.append(entry if n == 1 else replace(entry, name=f"{entry.name} ({n})"))
    return out


def _tidy(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)
