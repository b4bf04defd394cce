"""Select Weapons (04.01) and Select Targets (04.02) for an activation: what each model
group of the active unit attacks with (the weapons the activation names, checked against
:mod:`~.weapon_rules`, or its defaults), and at whom; and which side each unit is on.

Everything that breaks those rules is a :class:`~mathhammer.errors.ScenarioError` naming
the unit, the weapon and the fix. A :class:`~.model.Scenario` runs this once per activation
and keeps the result.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from mathhammer.errors import ScenarioError, did_you_mean
from mathhammer.wh40k.scenario.activations import Activation, Attack, WeaponChoice
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit
from mathhammer.wh40k.scenario.weapon_rules import is_extra_attacks, mixes_sidearms, weapon_slots


def select_attacks(units: Mapping[str, Unit], activation: Activation) -> list[Attack]:
    """The weapons each model group uses in ``activation`` and their targets (04.01-04.02).

    Defaults: the first choice of each of the group's
    :func:`~.weapon_rules.weapon_slots`: when shooting, every ranged weapon a model may fire
    (only [ASSAULT] ones after advancing, only [INDIRECT FIRE] ones in indirect shooting;
    not its [PISTOL] / [CLOSE-QUARTERS] sidearms when it has other ranged weapons, unless it
    is a MONSTER or VEHICLE), each with its first allowed profile; when fighting, each
    model's first listed melee weapon plus all its [EXTRA ATTACKS] weapons. A ``weapons``
    list overrides this by name; a choice with a
    ``count`` gives that profile to that many of the group's models (see
    :class:`~.activations.WeaponChoice`).

    Raises
    ------
    ScenarioError
        Unknown weapons or units, melee weapons while shooting (and the reverse), Hunter
        profiles at a forbidden target, splits that do not add up, two melee weapons on one
        model, sidearms mixed with other ranged weapons, counts that do not fit the group.
    """
    unit = units[activation.attacker]
    melee = activation.phase == "fight"
    where = f"activation '{activation.label}'"
    chosen = _named_picks(unit, activation, where) if activation.weapons else {
        g.name: [] for g in unit.groups}
    shares: dict[str, list[_Pick]] = {}
    for group in unit.groups:
        picks = chosen[group.name]
        if melee:
            picks = _fight_selection(group, picks, where)
        elif not picks and not activation.weapons:
            picks = [(*slot.default, None)
                     for slot in weapon_slots(group, "shooting", activation.situation)]
        shares[group.name] = _share_models(group, picks, where)
        _check_sidearms(group, shares[group.name], where, melee)

    attacks: list[Attack] = []
    for group in unit.groups:
        attacks.extend(_group_attacks(units, activation, group.name, shares[group.name],
                                      where))
    if not attacks:
        raise ScenarioError(f"{where}: unit '{unit.name}' has no "
                            f"{'melee' if melee else 'ranged'} weapon to use"
                            f"{'' if melee else _restriction(activation)}", token=unit.name)
    return attacks


#: A selected profile: the weapon carried, its profile index, the choice naming it (None for
#: a default), and the models of the group it skips and takes at most (None: all the rest).
_Pick = tuple[CarriedWeapon, int, WeaponChoice | None, int, int | None]


def _named_picks(unit: Unit, activation: Activation, where: str):
    """Model group name -> (weapon, profile index, choice) for each entry of ``weapons``."""
    melee = activation.phase == "fight"
    chosen: dict[str, list[tuple[CarriedWeapon, int, WeaponChoice | None]]] = {
        g.name: [] for g in unit.groups}
    for choice in activation.weapons:
        groups = []
        for group in unit.groups:
            if choice.models is not None and group.name.lower() != choice.models.lower():
                continue
            for carried in group.weapons:
                index = _match(carried, choice.name)
                if index is None:
                    continue
                if carried.melee != melee:
                    kind = "melee" if carried.melee else "ranged"
                    fix = ("use it in a fight activation" if carried.melee
                           else "use it in a shooting activation")
                    raise ScenarioError(f"{where}: '{choice.name}' is a {kind} weapon and "
                                        f"the phase is {activation.phase}; {fix}",
                                        token=choice.name)
                chosen[group.name].append((carried, index, choice))
                groups.append(group.name)
        if not groups:
            names = {w.name for g in unit.groups for w in g.weapons} | {
                p.name for g in unit.groups for w in g.weapons for p in w.profiles}
            raise ScenarioError(f"{where}: unit '{unit.name}' has no weapon "
                                f"'{choice.name}'{did_you_mean(choice.name, names)}",
                                token=choice.name)
        if choice.count is not None and len(set(groups)) > 1:
            quoted = [f"'{g}'" for g in dict.fromkeys(groups)]
            listed = f"{', '.join(quoted[:-1])} and {quoted[-1]}"
            raise ScenarioError(f"{where}: '{choice.name}' has count = {choice.count} but "
                                f"model groups {listed} {'both' if len(quoted) == 2 else 'all'} "
                                "carry it; say which with models = \"GROUP\"", token=choice.name)
    return chosen


def _group_attacks(units: Mapping[str, Unit], activation: Activation, group: str,
                   picks: list[_Pick], where: str) -> list[Attack]:
    """One model group's :class:`Attack` s, targets checked (04.02)."""
    attacks: list[Attack] = []
    seen: set[tuple[int, int]] = set()
    for carried, index, choice, skipped, cap in picks:
        if choice is None or choice.count is None:
            if (id(carried), index) in seen:
                raise ScenarioError(f"{where}: model group '{group}' selects "
                                    f"'{carried.profiles[index].name or carried.name}' twice",
                                    token=group)
            seen.add((id(carried), index))
        profile = carried.profiles[index]
        if choice is not None and choice.split:
            attacks.extend(dataclasses.replace(a, models_skipped=skipped, models_cap=cap)
                           for a in _split(units, activation, carried, index, profile,
                                           carried.per_model, choice, where, group))
            continue
        target = (choice.target if choice and choice.target else activation.target)
        if target is None:
            raise ScenarioError(f"{where}: '{carried.name}' has no target; set target = "
                                "\"...\" on the activation or the weapon", token=carried.name)
        _check_target(units, activation, carried, index, target, where)
        attacks.append(Attack(group, profile, carried.per_model, target,
                              models_skipped=skipped, models_cap=cap))
    return attacks


def _share_models(group: ModelGroup, picks, where: str) -> list[_Pick]:
    """Which of the group's models fire which profile when choices carry a ``count``.

    Counted choices of one weapon take, in the order listed, the models after those of the
    choices before them; the weapon's choice without a count (or else its first profile
    not chosen with a count, placed after the weapon's last counted choice) takes the rest.
    Picks of weapons without counts take every model.
    """
    out: list[_Pick] = []
    for k, (carried, index, choice) in enumerate(picks):
        counted = [j for j, p in enumerate(picks) if p[0] is carried and _counted(p)]
        if not counted:
            out.append((carried, index, choice, 0, None))
            continue
        total = _counted_total(group, carried, [picks[j] for j in counted], where)
        if _counted(picks[k]):
            before = sum(picks[j][2].count for j in counted if j < k)
            out.append((carried, index, choice, before, choice.count))
        else:
            out.append((carried, index, choice, total, None))
        if k == counted[-1]:
            rest = _rest_profile(group, carried, picks, total, where)
            if rest is not None:
                out.append((carried, rest, None, total, None))
    return out


def _counted(pick) -> bool:
    return pick[2] is not None and pick[2].count is not None


def _counted_total(group: ModelGroup, carried: CarriedWeapon, counted, where: str) -> int:
    """The models the counted choices of ``carried`` take, checked against the group."""
    total = 0
    for _, _, choice in counted:
        if len(carried.profiles) == 1:
            raise ScenarioError(f"{where}: '{choice.name}' has count = {choice.count}, but "
                                f"'{carried.name}' has a single profile that every model "
                                "fires; a count splits a group's models between the "
                                "profiles of one weapon: remove it", token=choice.name)
        if choice.count > group.count:
            raise ScenarioError(f"{where}: '{choice.name}' count = {choice.count} is more than "
                                f"the {group.count} models of model group '{group.name}'; "
                                f"give at most {group.count}", token=choice.name)
        total += choice.count
        if total > group.count:
            raise ScenarioError(f"{where}: '{choice.name}' count = {choice.count} brings the "
                                f"counts on '{carried.name}' to {total}, more than the "
                                f"{group.count} models of model group '{group.name}'; lower "
                                "them", token=choice.name)
    return total


def _rest_profile(group: ModelGroup, carried: CarriedWeapon, picks, total: int,
                  where: str) -> int | None:
    """The profile the models left by the counted choices of ``carried`` fire, when no
    choice without a count names one; None when a choice names it or no model is left."""
    uncounted = [p[2] for p in picks if p[0] is carried and not _counted(p)]
    if len(uncounted) > 1:
        names = [c.name if c is not None else carried.name for c in uncounted]
        raise ScenarioError(f"{where}: '{names[1]}' and '{names[0]}' both go without a count "
                            f"in model group '{group.name}', which has counts on "
                            f"'{carried.name}': the models left by the counts fire one profile; "
                            "give the other a count or drop it", token=names[1])
    if uncounted or total == group.count:
        return None
    taken = {p[1] for p in picks if p[0] is carried}
    free = [i for i in range(len(carried.profiles)) if i not in taken]
    if not free:
        last = [p[2] for p in picks if p[0] is carried][-1]
        raise ScenarioError(f"{where}: '{last.name}': every profile of '{carried.name}' has a "
                            f"count and the counts take {total} of the {group.count} models "
                            f"of model group '{group.name}'; leave one profile without a "
                            "count for the other models", token=last.name)
    return free[0]


def _match(carried: CarriedWeapon, name: str) -> int | None:
    if carried.name.strip().lower() == name.strip().lower():
        return 0
    return carried.profile_named(name)


def _restriction(activation: Activation) -> str:
    """What the activation's shooting allows, when it restricts the weapons (10.05, 10.07)."""
    kinds = [name for on, name in ((activation.situation.advanced, "[ASSAULT]"),
                                   (activation.situation.indirect, "[INDIRECT FIRE]")) if on]
    return f" (this shooting allows only {' and '.join(kinds)} weapons)" if kinds else ""


def _fight_selection(group: ModelGroup, picks, where: str):
    """The named melee picks, completed by the defaults of 04.01 / 24.11: the first melee
    weapon when none is named, and every [EXTRA ATTACKS] weapon not named."""
    main = [p for p in picks if not is_extra_attacks(p[0].profiles[p[1]])]
    if len({id(p[0]) for p in main}) > 1:
        raise ScenarioError(f"{where}: model group '{group.name}' would fight with two melee "
                            f"weapons ({', '.join(p[0].name for p in main)}); each model uses "
                            "one melee weapon plus its [EXTRA ATTACKS] weapons (04.01, 24.11)",
                            token=group.name)
    slots = weapon_slots(group, "fight")
    if not main:
        main = [(*slot.default, None) for slot in slots if slot.kind == "melee"]
    chosen_extra = [p for p in picks if is_extra_attacks(p[0].profiles[p[1]])]
    for slot in slots:
        if slot.kind == "extra attacks" and not any(p[0] is slot.default[0]
                                                    for p in chosen_extra):
            chosen_extra.append((*slot.default, None))
    return main + chosen_extra


def _check_sidearms(group: ModelGroup, picks, where: str, melee: bool) -> None:
    if melee:
        return
    if mixes_sidearms(group, [p[0].profiles[p[1]] for p in picks]):
        raise ScenarioError(f"{where}: model group '{group.name}' cannot shoot its [PISTOL] / "
                            "[CLOSE-QUARTERS] weapons together with its other ranged weapons "
                            "(24.07); select one kind", token=group.name)


def _check_target(units: Mapping[str, Unit], activation: Activation, carried: CarriedWeapon,
                  index: int, target: str, where: str) -> None:
    if target not in units:
        raise ScenarioError(f"{where}: unknown target unit '{target}'"
                            f"{did_you_mean(target, units)}", token=target)
    if target == activation.attacker:
        raise ScenarioError(f"{where}: unit '{target}' cannot attack itself", token=target)
    hunter = carried.hunter[index]
    if hunter and not (hunter & units[target].keywords):
        raise ScenarioError(f"{where}: '{carried.profiles[index].name or carried.name}' is a "
                            f"Hunter profile that may only target {'/'.join(sorted(hunter))} "
                            f"units, and '{target}' is none of them (04.01.03)",
                            token=carried.profiles[index].name or carried.name)


def _split(units, activation, carried, index, profile, per_model, choice, where, group):
    if profile.attacks.is_random:
        raise ScenarioError(f"{where}: '{carried.name}' has random attacks (A{profile.attacks}); "
                            "splitting it between targets is not supported", token=carried.name)
    total = sum(n for _, n in choice.split)
    if total != profile.attacks.constant:
        raise ScenarioError(f"{where}: the split of '{carried.name}' sends {total} attacks per "
                            f"model but the weapon has A{profile.attacks.constant}; make the "
                            "numbers add up (04.03.02)", token=carried.name)
    if any(n < 1 for _, n in choice.split):
        raise ScenarioError(f"{where}: every target of a split gets at least 1 attack")
    out = []
    for target, n in choice.split:
        _check_target(units, activation, carried, index, target, where)
        out.append(Attack(group, profile, per_model, target, split_attacks=n))
    return out


def infer_sides(units: Mapping[str, Unit], activations: Sequence[Activation],
                attacks: Sequence[Sequence[Attack]]) -> dict[str, str]:
    """Two-colour the attack graph: attackers and their targets are on opposite sides."""
    sides: dict[str, str] = {}
    edges = []
    for act, selected in zip(activations, attacks):
        for attack in selected:
            edges.append((act.attacker, attack.target))
    names = list(units)
    for start in names:
        if start in sides:
            continue
        sides[start] = "A" if not sides else _fresh_side(sides)
        stack = [start]
        while stack:
            unit = stack.pop()
            for a, b in edges:
                for x, y in ((a, b), (b, a)):
                    if x != unit:
                        continue
                    other = "B" if sides[unit] == "A" else "A"
                    if y not in sides:
                        sides[y] = other
                        stack.append(y)
                    elif sides[y] == sides[unit]:
                        raise ScenarioError(
                            f"'{x}' attacks a unit on its own side ('{y}'); give every unit a "
                            "side explicitly (side = \"...\")", token=y)
    return sides


def _fresh_side(sides: dict[str, str]) -> str:
    return "A" if "A" not in sides.values() else ("B" if "B" not in sides.values() else "A")
