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
"""

from __future__ import annotations

from typing import Any, Protocol

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from mathhammer.errors import ProfileError, RosterError
from mathhammer.wh40k.profiles import TargetProfile, Weapon
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.read import Node
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup

#: ``roster@gameSystemId`` of the editions we read.
EDITIONS = {"sys-352e-adc2-7639-d6a9": 10, "sys-352e-adc2-7639-d610": 11}
KNOWN_OTHERS = {"28ec-711c-d87f-3aeb": "9th edition"}
MAX_MODELS = 500          # per datasheet
MAX_WEAPON_COUNT = 5_000  # per weapon selection
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
                notes.append(_setting(selection))
    entries = _unique_names(entries)
    total = _roster_points(root)
    if total is None:
        total = sum(e.points for e in entries)
    return RosterData(edition=edition, faction=" + ".join(factions), points=_tidy(total),
                      entries=tuple(entries), notes=tuple(n for n in notes if n),
                      name=kw.clean(root.get("name")))


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
    return any(_unit_profiles(n) for n in _subtree(selection))


def _setting(selection: Node) -> str:
    name = kw.clean(selection.get("name"))
    chosen = [kw.clean(s.get("name")) for s in selection.list("selections")]
    text = f"{name}: {', '.join(chosen)}" if chosen else name
    points, other = _costs(selection)
    costs = ([f"{_tidy(points):g} pts"] if points else []) + [
        f"{_tidy(v):g} {k}" for k, v in other.items()]
    return f"{text} ({', '.join(costs)})" if costs else text


def _roster_points(root: Node) -> float | None:
    for cost in root.list("costs"):
        if cost.get("name").strip().lower() == POINTS:
            value = _float(cost.get("value"))
            if value is not None:
                return value
    return None


# -- one datasheet ------------------------------------------------------------------------
@dataclass
class _Model:
    """One model selection: its node, its count and what it carries."""

    node: Node
    count: int
    name: str
    parts: list[Node] = field(default_factory=list)


def _entry(selection: Node, source) -> RosterEntry:
    name = kw.clean(selection.get("name")) or "Unnamed unit"
    notes: list[str] = []
    points, other_costs = _costs(selection)
    for cost_name, value in other_costs.items():
        notes.append(f"also costs {_tidy(value):g} {cost_name}")
    models, unit_parts = _split_models(selection, source, name)
    total_models = sum(m.count for m in models)
    if total_models > MAX_MODELS:
        raise RosterError(f"{source}: unit '{name}' has {total_models} models; a roster unit "
                          f"has at most {MAX_MODELS}")
    groups = _groups(name, models, unit_parts, selection, notes, source)
    texts = _texts(_subtree(selection))
    minus, halved = kw.damage_reduction(texts, notes)
    if minus or halved:
        notes.append("damage reduction: " + ("halve the Damage" if halved else "")
                     + (", then " if minus and halved else "") + (f"-{minus} Damage" if minus
                                                                  else ""))
    custom = kw.clean(selection.get("customName"))
    if custom and custom != name:
        notes.append(f"custom name: {custom}")
    return RosterEntry(name=name, points=_tidy(points), models=total_models,
                       groups=tuple(groups), notes=tuple(dict.fromkeys(notes)),
                       selection_id=selection.get("id"),
                       associations=_associations(selection), incoming=_incoming(selection),
                       damage_minus=minus, damage_halved=halved, can_lead=kw.leads(texts))


def _split_models(selection: Node, source, name: str) -> tuple[list[_Model], list[Node]]:
    """The model selections of a datasheet, and the nodes that belong to the whole unit.

    A single-model datasheet (type ``model``) is a model itself, with everything below it
    except further model selections (a character's attendant) as its parts."""
    models: list[_Model] = []
    parts: list[Node] = [selection]
    stack = list(reversed(selection.list("selections")))
    while stack:
        node = stack.pop()
        if node.get("type").lower() == "model":
            model = _Model(node, _count(node, source, name), kw.clean(node.get("name")))
            model.parts = _subtree(node)
            if model.count > 0:
                models.append(model)
            continue
        parts.append(node)
        stack.extend(reversed(node.list("selections")))
    if selection.get("type").lower() == "model":
        itself = _Model(selection, _count(selection, source, name),
                        kw.clean(selection.get("name")), parts)
        return ([itself] if itself.count > 0 else []) + models, []
    if not models:
        models = [_Model(selection, max(_count(selection, source, name), 1),
                         kw.clean(selection.get("name")))]
    return models, parts


def _subtree(node: Node) -> list[Node]:
    out: list[Node] = []
    stack = [node]
    while stack:
        item = stack.pop()
        out.append(item)
        stack.extend(reversed(item.list("selections")))
    return out


def _count(node: Node, source, unit: str) -> int:
    text = node.get("number", "1").strip() or "1"
    value = _float(text)
    if value is None or value < 0 or value != int(value):
        raise RosterError(f"{source}: unit '{unit}': selection '{node.get('name')}' has number "
                          f"'{text}'; a number of models or weapons is a whole number")
    if value > MAX_WEAPON_COUNT:
        raise RosterError(f"{source}: unit '{unit}': selection '{node.get('name')}' has number "
                          f"{int(value)}; that is more than any army list holds")
    return int(value)


def _costs(selection: Node) -> tuple[float, dict[str, float]]:
    points = 0.0
    other: dict[str, float] = {}
    for node in _subtree(selection):
        for cost in node.list("costs"):
            value = _float(cost.get("value"))
            if value is None or value == 0:
                continue
            name = kw.clean(cost.get("name")) or "cost"
            if name.lower() == POINTS:
                points += value
            else:
                other[name] = other.get(name, 0.0) + value
    return points, other


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


# -- profiles -----------------------------------------------------------------------------
def _profiles(node: Node) -> list[Node]:
    return [p for p in node.list("profiles") if p.get("hidden").lower() != "true"]


def _type(profile: Node) -> str:
    return kw.clean(profile.get("typeName")).lower()


def _unit_profiles(node: Node) -> list[Node]:
    return [p for p in _profiles(node) if _type(p) in ("unit", "unit profile", "model")]


def _chars(profile: Node) -> dict[str, str]:
    out: dict[str, str] = {}
    for char in profile.list("characteristics"):
        out.setdefault(kw.clean(char.get("name")).lower(), char.text)
    return out


def _weapon_kind(profile: Node) -> str | None:
    kind = _type(profile)
    if kind.startswith("ranged weapon"):
        return "ranged"
    if kind.startswith("melee weapon"):
        return "melee"
    return None


def _texts(nodes: list[Node]) -> list[tuple[str, str]]:
    """(name, text) of every ability profile and rule on ``nodes``."""
    out = []
    for node in nodes:
        for profile in _profiles(node):
            if _type(profile).startswith("abilit") or _type(profile) in ("", "wargear"):
                chars = profile.list("characteristics")
                text = " ".join(kw.clean(c.text) for c in chars)
                out.append((profile.get("name"), text))
        for rule in node.list("rules"):
            out.append((rule.get("name"), kw.clean(rule.child_text("description"))))
    return out


def _categories(nodes: list[Node]) -> list[str]:
    return [c.get("name") for n in nodes for c in n.list("categories")]


# -- weapons and model groups -------------------------------------------------------------
def _weapons_of(node: Node, notes: list[str]) -> list[CarriedWeapon]:
    """The weapons one selection holds: one per kind (ranged, melee), each with its modes."""
    by_kind: dict[str, list[Weapon]] = {"ranged": [], "melee": []}
    for profile in _profiles(node):
        kind = _weapon_kind(profile)
        if kind is None:
            continue
        weapon = kw.weapon_profile(kw.profile_name(profile.get("name")), _chars(profile),
                                   kind == "melee", notes)
        if weapon is not None:
            by_kind["melee" if weapon.melee else "ranged"].append(weapon)
    out = []
    base = kw.profile_name(node.get("name"))
    for kind, profiles in by_kind.items():
        if not profiles:
            continue
        if len(profiles) == 1:
            name = profiles[0].name
        else:
            name = base
        if by_kind["ranged"] and by_kind["melee"] and kind == "melee" and \
                name in {w.name for w in by_kind["ranged"]} | {base}:
            name = f"{name} (melee)"
        out.append(CarriedWeapon(name, tuple(profiles)))
    return out


def _groups(unit: str, models: list[_Model], unit_parts: list[Node], selection: Node,
            notes: list[str], source) -> list[ModelGroup]:
    unit_profiles = [p for n in unit_parts for p in _unit_profiles(n)]
    slots: list[dict[CarriedWeapon, int]] = []
    owners: list[int] = []
    for index, model in enumerate(models):
        for _ in range(model.count):
            slots.append({})
            owners.append(index)
    if not slots:
        return []
    for index, model in enumerate(models):
        mine = [s for s, o in zip(range(len(slots)), owners) if o == index]
        for node in model.parts:
            number = model.count if node is model.node else _count(node, source, unit)
            for weapon in _weapons_of(node, notes):
                _share(weapon, number, mine, slots)
    everyone = list(range(len(slots)))
    for node in unit_parts:
        number = len(slots) if node is selection else _count(node, source, unit)
        for weapon in _weapons_of(node, notes):
            _share(weapon, number, everyone, slots)
    order: dict[CarriedWeapon, int] = {}
    for slot in slots:
        for weapon in slot:
            order.setdefault(weapon, len(order))
    unit_texts = _texts(unit_parts)
    unit_keywords = _categories([selection])
    out: list[ModelGroup] = []
    missing: list[str] = []
    for index, model in enumerate(models):
        profile = _statline(model, unit_profiles, unit_texts, unit_keywords, notes)
        if profile is None:
            missing.append(model.name)
            continue
        mine = [s for s, o in zip(range(len(slots)), owners) if o == index]
        out.extend(_loadout_groups(model, profile, [slots[s] for s in mine], order))
    if not out:
        notes.append("no Unit statline in the file: listed with its points, left out of the "
                     "analysis")
    elif missing:
        notes.append(f"no statline for {', '.join(missing)}: those models are left out of "
                     "the analysis")
    return _merge_groups(out)


def _share(weapon: CarriedWeapon, number: int, among: list[int],
           slots: list[dict[CarriedWeapon, int]]) -> None:
    """``number`` of ``weapon`` spread over the models ``among``: each gets the same share,
    the first ones one more when it does not divide."""
    if number <= 0 or not among:
        return
    each, extra = divmod(number, len(among))
    for position, slot in enumerate(among):
        n = each + (1 if position < extra else 0)
        if n:
            slots[slot][weapon] = slots[slot].get(weapon, 0) + n


def _statline(model: _Model, unit_profiles: list[Node], unit_texts: list[tuple[str, str]],
              unit_keywords: list[str], notes: list[str]) -> TargetProfile | None:
    """The model's own Unit profile, or the unit's closest by name; with the invulnerable
    save, Feel No Pain and keywords of the unit and of the model's own selections."""
    own = [p for n in model.parts for p in _unit_profiles(n)]
    profile = own[0] if own else _closest(model.name, unit_profiles)
    if profile is None:
        return None
    texts = list(dict.fromkeys(unit_texts + _texts(model.parts)))
    invuln = kw.invulnerable(texts, notes)
    fnp, fnp_mortal = kw.feel_no_pain(texts, notes)
    words = kw.unit_keywords(unit_keywords + _categories(model.parts))
    if kw.has_stealth(texts):
        words.add("STEALTH")
    try:
        return kw.statline(_chars(profile), words, invuln, fnp, fnp_mortal)
    except ProfileError as exc:
        notes.append(f"statline '{kw.clean(profile.get('name'))}' cannot be read ({exc}); "
                     "left out of the analysis")
        return None


def _closest(name: str, profiles: list[Node]) -> Node | None:
    """The Unit profile whose name best matches a model's name (names may differ in
    spelling: "Armor" / "Armour")."""
    if not profiles:
        return None
    if len(profiles) == 1:
        return profiles[0]
    wanted = name.lower()
    names = [kw.clean(p.get("name")).lower() for p in profiles]
    for i, candidate in enumerate(names):
        if candidate == wanted:
            return profiles[i]
    contained = [i for i, c in enumerate(names) if c and (c in wanted or wanted in c)]
    if contained:
        return profiles[max(contained, key=lambda i: len(names[i]))]
    scores = [difflib.SequenceMatcher(None, wanted, c).ratio() for c in names]
    return profiles[max(range(len(names)), key=scores.__getitem__)]


def _loadout_groups(model: _Model, profile: TargetProfile, slots: list[dict[CarriedWeapon, int]],
                    order: dict[CarriedWeapon, int]) -> list[ModelGroup]:
    """Models of one selection grouped by identical loadout (weapons in file order); the
    largest group keeps the selection's name, the others are named after what they carry in
    addition."""
    loadouts: dict[tuple, int] = {}
    for slot in slots:
        key = tuple(sorted(slot.items(), key=lambda item: order[item[0]]))
        loadouts[key] = loadouts.get(key, 0) + 1
    ordered = sorted(loadouts.items(), key=lambda item: -item[1])
    main = dict(ordered[0][0])
    out = []
    for key, count in ordered:
        carried = dict(key)
        name = model.name or "Model"
        if carried != main:
            extra = [w.name for w, n in carried.items() if n > main.get(w, 0)]
            name = f"{name} w/ {', '.join(extra)}" if extra else f"{name} (other loadout)"
        weapons = tuple(CarriedWeapon(w.name, w.profiles, w.hunter, per_model=n)
                        for w, n in key)
        out.append(ModelGroup(name=name, count=count, profile=profile, weapons=weapons))
    return out


def _merge_groups(groups: list[ModelGroup]) -> list[ModelGroup]:
    """Identical groups (BattleScribe may list five models as five selections) become one;
    groups that differ but share a name are numbered."""
    merged: dict[tuple, ModelGroup] = {}
    for g in groups:
        key = (g.name, g.profile, g.weapons)
        if key in merged:
            old = merged[key]
            merged[key] = ModelGroup(old.name, old.count + g.count, old.profile, old.weapons)
        else:
            merged[key] = g
    out: list[ModelGroup] = []
    seen: dict[str, int] = {}
    for g in merged.values():
        n = seen.get(g.name, 0) + 1
        seen[g.name] = n
        out.append(g if n == 1 else ModelGroup(f"{g.name} ({n})", g.count, g.profile,
                                               g.weapons))
    return out


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


def _float(text: str) -> float | None:
    try:
        value = float(str(text).strip())
    except ValueError:
        return None
    return value if value == value and abs(value) < 1e9 else None


def _tidy(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)
