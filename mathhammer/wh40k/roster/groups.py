"""The model groups of one datasheet: which weapons each model carries, grouped by statline
and loadout (:class:`~mathhammer.wh40k.scenario.units.ModelGroup`).

Weapons hung on a model selection are shared among its models, those hung on the unit among
all of them (the first models get one more when a count does not divide); models with the
same statline and loadout become one group, identical groups are merged.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from mathhammer.errors import ProfileError
from mathhammer.wh40k.profiles import TargetProfile, Weapon
from mathhammer.wh40k.roster import defense
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.defense import Effect
from mathhammer.wh40k.roster.nodes import (
    category_names, characteristics, selection_count, shortened, statline_profiles, subtree,
    visible_profiles, weapon_kind)
from mathhammer.wh40k.roster.read import Node
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup


@dataclass
class ModelSelection:
    """One model selection of a datasheet: its node, its count, its name and the nodes below
    it (``parts``: what it carries)."""

    node: Node
    count: int
    name: str
    parts: list[Node] = field(default_factory=list)


def _weapons_of(node: Node, notes: list[str]) -> list[CarriedWeapon]:
    """The weapons one selection holds: one per kind (ranged, melee), each with its modes."""
    by_kind: dict[str, list[Weapon]] = {"ranged": [], "melee": []}
    for profile in visible_profiles(node):
        kind = weapon_kind(profile)
        if kind is None:
            continue
        weapon = kw.weapon_profile(kw.profile_name(profile.get("name")), characteristics(profile),
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


def model_groups(unit: str, models: list[ModelSelection], unit_parts: list[Node],
                 selection: Node, notes: list[str], source, per_model: list[list[Effect]]
                 ) -> tuple[list[ModelGroup], bool]:
    """The model groups of a datasheet, and whether every model had a statline.

    ``models`` are its model selections, ``unit_parts`` the nodes of the whole unit,
    ``per_model[i]`` the unconditional defensive effects of model selection ``i``; what
    cannot be modelled is added to ``notes``."""
    slots: list[dict[CarriedWeapon, int]] = []
    owners: list[int] = []
    for index, model in enumerate(models):
        slots += [{} for _ in range(model.count)]
        owners += [index] * model.count
    if not slots:
        return [], True
    for index, model in enumerate(models):
        mine = [s for s, o in enumerate(owners) if o == index]
        for node in model.parts:
            number = model.count if node is model.node else selection_count(node, source, unit)
            for weapon in _weapons_of(node, notes):
                _share(weapon, number, mine, slots)
    everyone = list(range(len(slots)))
    for node in unit_parts:
        if node is selection:
            weapons = _unit_level_weapons(selection, models, notes)
            number = len(slots)
        else:
            weapons, number = _weapons_of(node, notes), selection_count(node, source, unit)
        for weapon in weapons:
            _share(weapon, number, everyone, slots)
    order: dict[CarriedWeapon, int] = {}
    for slot in slots:
        for weapon in slot:
            order.setdefault(weapon, len(order))
    return _statline_groups(models, unit_parts, selection, slots, owners, order, notes,
                            per_model)


def _statline_groups(models, unit_parts, selection, slots, owners, order, notes, per_model
                     ) -> tuple[list[ModelGroup], bool]:
    unit_profiles = [p for n in unit_parts for p in statline_profiles(n)]
    unit_keywords = category_names([selection])
    out: list[ModelGroup] = []
    missing: list[str] = []
    for index, model in enumerate(models):
        profile = _statline(model, unit_profiles, unit_keywords, notes,
                            per_model[index])
        if profile is None:
            missing.append(model.name)
            profile = _placeholder(unit_keywords + category_names(model.parts))
        mine = [slots[s] for s, o in enumerate(owners) if o == index]
        out.extend(_loadout_groups(model, profile, mine, order))
    if missing:
        notes.append(f"no statline in the file for {', '.join(dict.fromkeys(missing))}: the "
                     "unit attacks (placeholder statline T1 Sv- W1) but is never a target")
    return _merge_groups(out), not missing


def _placeholder(categories: list[str]) -> TargetProfile:
    """``T1 Sv- W1`` with the model's keywords (MONSTER/VEHICLE change which weapons shoot):
    a model with no statline can attack, never be a target."""
    return kw.statline({"t": "1", "sv": "-", "w": "1"}, kw.unit_keywords(categories), None,
                       None, None)


def _unit_level_weapons(selection: Node, models: list[ModelSelection],
                        notes: list[str]) -> list[CarriedWeapon]:
    """Weapon profiles hung on the unit's own selection, not on a model or a weapon
    selection: every model's only when the unit has one kind of model and no weapon
    selections at all; else they belong to models not in the list and are notes."""
    found = [CarriedWeapon(p.name, (p,)) for w in _weapons_of(selection, notes)
             for p in w.profiles]
    if not found:
        return []
    one_kind = len({m.name for m in models}) <= 1
    selections = [n for n in subtree(selection) if n is not selection
                  and any(weapon_kind(p) for p in visible_profiles(n))]
    itself = len(models) == 1 and models[0].node is selection  # no model selections
    if itself or (one_kind and not selections):
        return found
    for weapon in found:
        notes.append(f"weapon '{weapon.name}' is a profile on the unit, not on any model or "
                     "weapon selection of this list (it may be for models not taken): not "
                     "given to any model")
    return []


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


def _statline(model: ModelSelection, unit_profiles: list[Node], unit_keywords: list[str],
              notes: list[str], found: list[Effect]) -> TargetProfile | None:
    """The model's own Unit profile, or the unit's closest by name; with the unconditional
    per-model defensive effects ``found`` and the keywords of the unit and of the model's
    own selections."""
    own = [p for n in model.parts for p in statline_profiles(n)]
    profile = own[0] if own else _closest(model.name, unit_profiles)
    if profile is None:
        return None
    words = kw.unit_keywords(unit_keywords + category_names(model.parts))
    try:
        line = kw.statline(characteristics(profile), words, None, None, None, notes,
                           f"statline '{kw.clean(profile.get('name'))}'")
        return defense.apply_to_profile(line, found)
    except ProfileError as exc:
        notes.append(f"statline '{kw.clean(profile.get('name'))}' cannot be read "
                     f"({shortened(str(exc), 160)}); "
                     "its models get a placeholder statline: never a target")
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


def _loadout_groups(model: ModelSelection, profile: TargetProfile,
                    slots: list[dict[CarriedWeapon, int]],
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
