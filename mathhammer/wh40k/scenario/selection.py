"""Select Weapons (04.01) and Select Targets (04.02): what each model group of the active
unit attacks with, and at whom; and which side each unit is on.

Everything that breaks those rules is a :class:`~mathhammer.errors.ScenarioError` naming
the unit, the weapon and the fix. A :class:`~.model.Scenario` runs this once per activation
and keeps the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mathhammer.errors import ScenarioError, did_you_mean
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k.scenario.activations import Activation, Attack, WeaponChoice
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit


def select_attacks(units: Mapping[str, Unit], activation: Activation) -> list[Attack]:
    """The weapons each model group uses in ``activation`` and their targets (04.01-04.02).

    Defaults: when shooting, every ranged weapon a model has (but not its [PISTOL] /
    [CLOSE-QUARTERS] sidearms when it has other ranged weapons, unless it is a MONSTER or
    VEHICLE); when fighting, each model's first listed melee weapon plus all its
    [EXTRA ATTACKS] weapons. A ``weapons`` list overrides this by name.

    Raises
    ------
    ScenarioError
        Unknown weapons or units, melee weapons while shooting (and the reverse), Hunter
        profiles at a forbidden target, splits that do not add up, two melee weapons on one
        model, sidearms mixed with other ranged weapons.
    """
    unit = units[activation.attacker]
    melee = activation.phase == "fight"
    where = f"activation '{activation.label}'"
    chosen: dict[str, list[tuple[CarriedWeapon, int, WeaponChoice | None]]] = {
        g.name: [] for g in unit.groups}
    if activation.weapons:
        for choice in activation.weapons:
            matched = False
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
                                            f"the phase is {activation.phase}; {fix}")
                    chosen[group.name].append((carried, index, choice))
                    matched = True
            if not matched:
                names = {w.name for g in unit.groups for w in g.weapons} | {
                    p.name for g in unit.groups for w in g.weapons for p in w.profiles}
                raise ScenarioError(f"{where}: unit '{unit.name}' has no weapon "
                                    f"'{choice.name}'{did_you_mean(choice.name, names)}")
    for group in unit.groups:
        picks = chosen[group.name]
        if melee:
            picks = _fight_selection(group, picks, where)
        elif not picks and not activation.weapons:
            picks = _shooting_defaults(group)
            if activation.situation.advanced:  # 10.05: assault shooting
                picks = [p for p in picks if p[0].profiles[p[1]].has(ab.ASSAULT)]
        _check_sidearms(group, picks, where, melee)
        chosen[group.name] = picks

    attacks: list[Attack] = []
    for group in unit.groups:
        seen: set[tuple[int, int]] = set()
        for carried, index, choice in chosen[group.name]:
            if (id(carried), index) in seen:
                raise ScenarioError(f"{where}: model group '{group.name}' selects "
                                    f"'{carried.profiles[index].name or carried.name}' twice")
            seen.add((id(carried), index))
            profile = carried.profiles[index]
            if choice is not None and choice.split:
                attacks.extend(_split(units, activation, carried, index, profile,
                                      carried.per_model, choice, where, group.name))
                continue
            target = (choice.target if choice and choice.target else activation.target)
            if target is None:
                raise ScenarioError(f"{where}: '{carried.name}' has no target; set target = "
                                    "\"...\" on the activation or the weapon")
            _check_target(units, activation, carried, index, target, where)
            attacks.append(Attack(group.name, profile, carried.per_model, target))
    if not attacks:
        raise ScenarioError(f"{where}: unit '{unit.name}' has no "
                            f"{'melee' if melee else 'ranged'} weapon to use")
    return attacks


def _match(carried: CarriedWeapon, name: str) -> int | None:
    if carried.name.strip().lower() == name.strip().lower():
        return 0
    return carried.profile_named(name)


def _shooting_defaults(group: ModelGroup):
    ranged = [w for w in group.weapons if not w.melee]
    sidearm = {id(w) for w in ranged
               if w.profiles[0].has(ab.PISTOL) or w.profiles[0].has(ab.CLOSE_QUARTERS)}
    others = [w for w in ranged if id(w) not in sidearm]
    if group.is_monster_or_vehicle or not others:
        return [(w, 0, None) for w in ranged]
    return [(w, 0, None) for w in others]


def _fight_selection(group: ModelGroup, picks, where: str):
    extra = [w for w in group.weapons if w.melee and w.profiles[0].has(ab.EXTRA_ATTACKS)]
    main = [p for p in picks if not p[0].profiles[p[1]].has(ab.EXTRA_ATTACKS)]
    if len({id(p[0]) for p in main}) > 1:
        raise ScenarioError(f"{where}: model group '{group.name}' would fight with two melee "
                            f"weapons ({', '.join(p[0].name for p in main)}); each model uses "
                            "one melee weapon plus its [EXTRA ATTACKS] weapons (04.01, 24.11)")
    if not main:
        first = next((w for w in group.weapons
                      if w.melee and not w.profiles[0].has(ab.EXTRA_ATTACKS)), None)
        main = [(first, 0, None)] if first is not None else []
    chosen_extra = [p for p in picks if p[0].profiles[p[1]].has(ab.EXTRA_ATTACKS)]
    for w in extra:
        if not any(p[0] is w for p in chosen_extra):
            chosen_extra.append((w, 0, None))
    return main + chosen_extra


def _check_sidearms(group: ModelGroup, picks, where: str, melee: bool) -> None:
    if melee or group.is_monster_or_vehicle:
        return
    kinds = {p[0].profiles[p[1]].has(ab.PISTOL) or p[0].profiles[p[1]].has(ab.CLOSE_QUARTERS)
             for p in picks}
    if len(kinds) > 1:
        raise ScenarioError(f"{where}: model group '{group.name}' cannot shoot its [PISTOL] / "
                            "[CLOSE-QUARTERS] weapons together with its other ranged weapons "
                            "(24.07); select one kind")


def _check_target(units: Mapping[str, Unit], activation: Activation, carried: CarriedWeapon,
                  index: int, target: str, where: str) -> None:
    if target not in units:
        raise ScenarioError(f"{where}: unknown target unit '{target}'"
                            f"{did_you_mean(target, units)}")
    if target == activation.attacker:
        raise ScenarioError(f"{where}: unit '{target}' cannot attack itself")
    hunter = carried.hunter[index]
    if hunter and not (hunter & units[target].keywords):
        raise ScenarioError(f"{where}: '{carried.profiles[index].name or carried.name}' is a "
                            f"Hunter profile that may only target {'/'.join(sorted(hunter))} "
                            f"units, and '{target}' is none of them (04.01.03)")


def _split(units, activation, carried, index, profile, per_model, choice, where, group):
    if profile.attacks.is_random:
        raise ScenarioError(f"{where}: '{carried.name}' has random attacks (A{profile.attacks}); "
                            "splitting it between targets is not supported")
    total = sum(n for _, n in choice.split)
    if total != profile.attacks.constant:
        raise ScenarioError(f"{where}: the split of '{carried.name}' sends {total} attacks per "
                            f"model but the weapon has A{profile.attacks.constant}; make the "
                            "numbers add up (04.03.02)")
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
                            "side explicitly (side = \"...\")")
    return sides


def _fresh_side(sides: dict[str, str]) -> str:
    return "A" if "A" not in sides.values() else ("B" if "B" not in sides.values() else "A")
