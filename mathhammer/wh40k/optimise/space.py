"""The decisions a scenario leaves open, orders that settle them, and orders made concrete.

A :class:`Slot` is one model group firing one weapon in one activation: its models go to
*cells* (a candidate target and a profile), all to one cell or split between them (each
model's weapon picks its own target, 04.02). An :class:`Option` is a modifier the player
picks for an activation (a re-roll policy, where the Command Re-roll goes) or a rule
switch picked for the whole scenario ([LETHAL HITS] use). :class:`Orders` settle every
slot and option (and, when asked, the order of the activations);
:func:`concrete_scenario` turns them into an ordinary
:class:`~mathhammer.wh40k.scenario.model.Scenario` that ``run`` resolves: a group whose
models go different ways becomes several groups of the same models, and the activation's
``order`` fixes the order of its batches (:func:`batch_order`, which the exact evaluation
follows too).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mathhammer.core.lazy import lazy_names
from mathhammer.errors import ScenarioError
from mathhammer.wh40k.profiles import Modifiers, Rules, Weapon
from mathhammer.wh40k.scenario.activations import Activation, WeaponChoice
from mathhammer.wh40k.scenario.model import RULE_CHOICES, OpenChoices, Scenario
from mathhammer.wh40k.scenario.units import CarriedWeapon, ModelGroup, Unit

#: A cell: (target unit, profile index of the slot's weapon).
Cell = tuple[str, int]
#: How a slot's models are shared: (cell, models) pairs, models > 0, in cell order.
Allocation = tuple[tuple[Cell, int], ...]


@dataclass(frozen=True)
class Slot:
    """The models of one group firing one weapon in one activation, and where they may go."""

    activation: int
    attacker: str
    group: str
    weapon: CarriedWeapon
    models: int
    cells: tuple[Cell, ...]
    first: int = 0  # the group's models it covers: first .. first + models - 1

    def profile(self, index: int) -> Weapon:
        return self.weapon.profiles[index]

    def profile_label(self, index: int) -> str:
        """``"supercharge"`` for ``"Plasma gun - supercharge"``; ``""`` for one profile."""
        if len(self.weapon.profiles) == 1:
            return ""
        name = self.weapon.profiles[index].name or f"profile {index + 1}"
        for sep in (" - ", " – ", ": "):
            if name.lower().startswith((self.weapon.name + sep).lower()):
                return name[len(self.weapon.name) + len(sep):].strip()
        return name

    def allocations(self, split: bool) -> list[Allocation]:
        """Every way to share the models: one cell each, or (``split``) every composition."""
        if not split or self.models == 1 or len(self.cells) == 1:
            return [((cell, self.models),) for cell in self.cells]
        out = []
        for cut in itertools.combinations(range(self.models + len(self.cells) - 1),
                                          len(self.cells) - 1):
            bounds = (-1, *cut, self.models + len(self.cells) - 1)
            counts = [bounds[i + 1] - bounds[i] - 1 for i in range(len(self.cells))]
            out.append(tuple((c, n) for c, n in zip(self.cells, counts) if n))
        return out

    def allocation_count(self, split: bool) -> int:
        from math import comb

        if not split or self.models == 1:
            return len(self.cells)
        return comb(self.models + len(self.cells) - 1, len(self.cells) - 1)


@dataclass(frozen=True)
class Option:
    """A choice of modifier value for one activation, or of a rule switch (``activation``
    None) for the whole scenario."""

    activation: int | None
    name: str
    candidates: tuple[Any, ...]


#: Most activations whose order may be chosen (8! = 40,320 orderings).
MAX_ORDERED_ACTIVATIONS = 8


@dataclass(frozen=True)
class Orders:
    """The player's orders for a scenario's open choices: one allocation per slot, one value
    per option, and the activations' order (empty: as written). (Called ``Plan`` before
    issue 40: "plan" is kept for a compiled plan.)"""

    allocations: tuple[Allocation, ...]
    options: tuple[Any, ...]
    order: tuple[int, ...] = ()


@dataclass(frozen=True)
class Space:
    """The open decisions of a scenario."""

    scenario: Scenario
    slots: tuple[Slot, ...]
    options: tuple[Option, ...]
    split: bool
    choose_order: bool = False

    def size(self) -> int:
        """How many sets of orders there are."""
        total = math.factorial(len(self.scenario.activations)) if self.choose_order else 1
        for slot in self.slots:
            total *= slot.allocation_count(self.split)
        for option in self.options:
            total *= len(option.candidates)
        return total

    def every_orders(self) -> Iterator[Orders]:
        """Every set of orders (call only when :meth:`size` is small)."""
        per_slot = [slot.allocations(self.split) for slot in self.slots]
        per_option = [option.candidates for option in self.options]
        sequences = [normal_order(p) for p in itertools.permutations(
            range(len(self.scenario.activations)))] if self.choose_order else [()]
        for allocations in itertools.product(*per_slot):
            for values in itertools.product(*per_option):
                for order in sequences:
                    yield Orders(tuple(allocations), tuple(values), order)

    def as_written(self) -> Orders:
        """The scenario as written: each slot at its first cell, each option's first value."""
        return Orders(tuple(((s.cells[0], s.models),) for s in self.slots),
                    tuple(o.candidates[0] for o in self.options))

    def focused(self, target: str, base: Orders) -> Orders:
        """``base`` with every slot that may aim at ``target`` sending all its models there
        (first profile it has there, or the one ``base`` gave it)."""
        allocations: list[Allocation] = []
        for slot, allocation in zip(self.slots, base.allocations):
            cells = [c for c in slot.cells if c[0] == target]
            if cells:
                allocations.append(((cells[0], slot.models),))
            else:
                allocations.append(allocation)
        return dataclasses.replace(base, allocations=tuple(allocations))

    def activation_order(self, orders: Orders) -> tuple[int, ...]:
        """The activations' indices in the order the orders resolves them."""
        return orders.order or tuple(range(len(self.scenario.activations)))

    def targets(self) -> list[str]:
        """Every unit some slot may aim at, in first-seen order."""
        return list(dict.fromkeys(cell[0] for slot in self.slots for cell in slot.cells))

    def option_values(self, orders: Orders, activation: int) -> dict[str, Any]:
        """The orders' values of the activation's own options, by modifier name."""
        return {o.name: v for o, v in zip(self.options, orders.options)
                if o.activation == activation}

    def modifiers_of(self, orders: Orders, activation: int) -> Modifiers:
        """The activation's modifiers with the orders' option values (its buffs applied on
        top of them, as the orders' own scenario applies them)."""
        act = self.scenario.activations[activation]
        values = self.option_values(orders, activation)
        if not values:
            return act.modifiers
        if act.buffs and act.unbuffed is not None:
            from mathhammer.wh40k.buffs import buffed_activations

            base = dataclasses.replace(act, situation=act.unbuffed[0], unbuffed=None,
                                       modifiers=dataclasses.replace(act.unbuffed[1],
                                                                     **values))
            done, _ = buffed_activations(self.scenario.units, [base],
                                         [self.scenario.attacks[activation]])
            return done[0].modifiers
        return dataclasses.replace(act.modifiers, **values)

    def rules_of(self, orders: Orders) -> Rules:
        """The scenario's rules with the orders' option values."""
        values = {o.name: v for o, v in zip(self.options, orders.options)
                  if o.activation is None}
        return dataclasses.replace(self.scenario.rules, **values) if values \
            else self.scenario.rules


def normal_order(order: tuple[int, ...]) -> tuple[int, ...]:
    """``order``, or ``()`` when it is the order as written."""
    return () if order == tuple(range(len(order))) else tuple(order)


def build_space(scenario: Scenario, *, open_profiles: bool = True, split: bool = True,
                choose_order: bool = False) -> Space:
    """The slots and options of ``scenario`` (see the module docstring); with ``choose_order``,
    the order of its activations is open too.

    Raises
    ------
    ScenarioError
        For an activation that both leaves its targets open and splits a melee weapon's
        attacks or gives a profile a model count (the optimiser shares models itself), or
        an open order of more than :data:`MAX_ORDERED_ACTIVATIONS` activations.
    """
    if choose_order and len(scenario.activations) > MAX_ORDERED_ACTIVATIONS:
        raise ScenarioError(f"the order of {len(scenario.activations)} activations is too "
                            f"many to choose ({len(scenario.activations)}! orderings): at most "
                            f"{MAX_ORDERED_ACTIVATIONS}")
    choices = scenario.open_choices or tuple(OpenChoices() for _ in scenario.activations)
    slots: list[Slot] = []
    options: list[Option] = []
    rule_options: dict[str, list[Any]] = {}
    for k, (act, choice) in enumerate(zip(scenario.activations, choices)):
        slots += _activation_slots(scenario, k, act, choice, open_profiles)
        for name, candidates in choice.options:
            if name in RULE_CHOICES:
                rule_options.setdefault(name, [])
                rule_options[name] += [c for c in candidates if c not in rule_options[name]]
            else:
                options.append(Option(k, name, tuple(candidates)))
    options += [Option(None, name, tuple(values)) for name, values in rule_options.items()]
    return Space(scenario, tuple(slots), tuple(options), split, choose_order)


def _activation_slots(scenario: Scenario, k: int, act: Activation, choice: OpenChoices,
                      open_profiles: bool) -> list[Slot]:
    unit = scenario.units[act.attacker]
    if any(a.split_attacks is not None for a in scenario.attacks[k]):
        if choice.targets:
            raise ScenarioError(f"activation '{act.label}': a melee weapon's attacks are split "
                                "by hand (split = ...) and targets are open: name the weapon "
                                "without split (the optimiser splits models between targets)")
        return []  # resolved as written (the exact scoring then steps aside)
    named = {(c.models or "").lower(): c for c in act.weapons}
    carried_of = {id(a): _carried(unit, a) for a in scenario.attacks[k]}
    counted = {(a.group, carried_of[id(a)].name) for a in scenario.attacks[k]
               if a.models_cap is not None}
    slots = []
    seen: set[tuple[str, str]] = set()
    for attack in scenario.attacks[k]:
        group = next(g for g in unit.groups if g.name == attack.group)
        carried = carried_of[id(attack)]
        key = (group.name, carried.name)
        if key in seen and key not in counted:
            continue
        seen.add(key)
        chosen = _choice_for(act, group, carried, named)
        index = _profile_index(carried, attack.weapon)
        profile_fixed = key in counted or (
            chosen is not None and chosen.name.lower() != carried.name.lower()
            and len(carried.profiles) > 1)
        profiles = [index] + ([i for i in range(len(carried.profiles)) if i != index]
                              if open_profiles and not profile_fixed else [])
        targets = [attack.target]
        if choice.targets and (chosen is None or chosen.target is None):
            targets += [t for t in choice.targets if t != attack.target]
        cells = tuple((t, i) for t in targets for i in profiles
                      if _may_target(carried, i, scenario.units[t]))
        models = group.count - attack.models_skipped
        if attack.models_cap is not None:  # a profile given to a count of models
            models = min(attack.models_cap, models)
        slots.append(Slot(k, act.attacker, group.name, carried, models,
                          cells or ((attack.target, index),), attack.models_skipped))
    return slots


def _carried(unit: Unit, attack) -> CarriedWeapon:
    """The weapon (with all its profiles) an attack's profile belongs to."""
    group = next(g for g in unit.groups if g.name == attack.group)
    for exact in (True, False):   # a buff may have changed the profile's characteristics
        for carried in group.weapons:
            if any(_same_profile(p, attack.weapon, exact) for p in carried.profiles):
                return carried
    raise ScenarioError(f"the optimiser cannot tell which weapon of '{group.name}' fires "
                        f"'{attack.weapon.name}'", token=attack.weapon.name)


def _same_profile(profile: Weapon, fired: Weapon, exact: bool) -> bool:
    """Whether ``fired`` is ``profile`` (``exact``) or a buffed copy of it (by its name)."""
    return profile.with_count(1) == fired if exact else profile.name == fired.name


def _profile_index(carried: CarriedWeapon, fired: Weapon) -> int:
    """The index in ``carried`` of the profile an attack fires (buffed or not)."""
    for exact in (True, False):
        for i, profile in enumerate(carried.profiles):
            if _same_profile(profile, fired, exact):
                return i
    raise ScenarioError(f"the optimiser cannot tell which profile of '{carried.name}' is "
                        f"'{fired.name}'", token=fired.name)


def _choice_for(act: Activation, group: ModelGroup, carried: CarriedWeapon,
                named: dict[str, WeaponChoice]) -> WeaponChoice | None:
    """The activation's weapon choice that selected ``carried`` for ``group``, if any."""
    names = {carried.name.lower()} | {p.name.lower() for p in carried.profiles if p.name}
    for choice in act.weapons:
        if choice.name.lower() in names and choice.models in (None, group.name) or (
                choice.models and choice.models.lower() == group.name.lower()
                and choice.name.lower() in names):
            return choice
    return None


def _may_target(carried: CarriedWeapon, index: int, target: Unit) -> bool:
    """A Hunter profile only aims at units with one of its keywords."""
    wanted = carried.hunter[index] if index < len(carried.hunter) else frozenset()
    if not wanted:
        return True
    keywords = set().union(*(g.profile.keywords for g in target.groups))
    return bool(wanted & keywords)


def batch_order(space: Space, orders: Orders, activation: int) -> list[tuple[Slot, Cell, int]]:
    """The (slot, cell, models) of one activation in the order its batches resolve:
    profiles named in the activation's ``order`` first, then slot by slot."""
    rows = [(slot, cell, n) for slot, allocation in zip(space.slots, orders.allocations)
            if slot.activation == activation for cell, n in allocation]
    wanted = [n.lower() for n in space.scenario.activations[activation].order]

    def rank(row) -> int:
        slot, (_, index), _ = row
        names = {slot.profile(index).name.lower(), slot.weapon.name.lower()}
        return next((i for i, w in enumerate(wanted) if w in names), len(wanted))

    return sorted(rows, key=rank)  # stable: slot order within each rank


def concrete_scenario(space: Space, orders: Orders) -> Scenario:
    """``orders`` as an ordinary scenario (no open choices) that ``run`` resolves."""
    scenario = space.scenario
    units = dict(scenario.units)
    activations = list(scenario.activations)
    by_attacker: dict[str, dict[int, list[tuple[Slot, Allocation]]]] = {}
    for slot, allocation in zip(space.slots, orders.allocations):
        by_attacker.setdefault(slot.attacker, {}).setdefault(slot.activation, []).append(
            (slot, allocation))
    for attacker, rows in by_attacker.items():
        units[attacker], weapons, renamed = _split_groups(units[attacker], rows)
        for k, act in enumerate(scenario.activations):
            if act.attacker != attacker:
                continue
            if k not in rows:  # resolved as written: its model groups are now pieces
                pieces = {name.lower(): names for name, names in renamed.items()}
                activations[k] = dataclasses.replace(act, weapons=tuple(
                    dataclasses.replace(w, models=piece) if w.models else w
                    for w in act.weapons
                    for piece in pieces.get((w.models or "").lower(), [w.models])))
                continue
            order = tuple(dict.fromkeys(slot.profile(cell[1]).name or slot.weapon.name
                                        for slot, cell, _ in batch_order(space, orders, k)))
            situation, modifiers = act.unbuffed or (act.situation, act.modifiers)
            activations[k] = dataclasses.replace(   # buffs applied again when it is built
                act, weapons=weapons[k], order=order, situation=situation, unbuffed=None,
                modifiers=dataclasses.replace(modifiers, **space.option_values(orders, k)))
    sequence = space.activation_order(orders)
    origins = tuple(scenario.origins[k] for k in sequence) if scenario.origins else ()
    return Scenario(units=units, activations=tuple(activations[k] for k in sequence),
                    rounds=scenario.rounds, sides=dict(scenario.sides),
                    rules=space.rules_of(orders), switches=scenario.switches, origins=origins)


def _split_groups(unit: Unit, rows: dict[int, list[tuple[Slot, Allocation]]]):
    """The attacker with each model group cut where its models' orders differ (in any of its
    activations), the weapon choices of each activation (one per piece and weapon), and
    each group's pieces by name."""
    groups: list[ModelGroup] = []
    choices: dict[int, list[WeaponChoice]] = {k: [] for k in rows}
    renamed: dict[str, list[str]] = {}
    mine_all = [(k, slot, allocation) for k, part in rows.items() for slot, allocation in part]
    for group in unit.groups:
        mine = [row for row in mine_all if row[1].group == group.name]
        per_model = [tuple((i, _cell_of_model(a, m - slot.first))
                           for i, (_, slot, a) in enumerate(mine)
                           if slot.first <= m < slot.first + slot.models)
                     for m in range(group.count)]
        pieces = [(cells, len(list(run))) for cells, run in itertools.groupby(per_model)]
        names = [group.name] + [f"{group.name} ({j + 1})" for j in range(1, len(pieces))]
        taken = {g.name for g in unit.groups}
        names = [n if j == 0 or n not in taken else f"{n}'" for j, n in enumerate(names)]
        renamed[group.name] = names
        for name, (cells, count) in zip(names, pieces):
            share = None if group.points is None else group.points * count / group.count
            groups.append(dataclasses.replace(group, name=name, count=count, points=share))
            for i, (target, index) in cells:
                k, slot, _ = mine[i]
                profile = slot.profile(index)
                label = profile.name if len(slot.weapon.profiles) > 1 and profile.name \
                    else slot.weapon.name
                choices[k].append(WeaponChoice(label, target=target, models=name))
    order = unit.allocation_order
    if isinstance(order, tuple):
        order = tuple(n for name in order for n in renamed.get(name, [name]))
    return (dataclasses.replace(unit, groups=tuple(groups), allocation_order=order),
            {k: tuple(c) for k, c in choices.items()}, renamed)


def _cell_of_model(allocation: Allocation, model: int) -> Cell:
    for cell, n in allocation:
        if model < n:
            return cell
        model -= n
    return allocation[-1][0]


#: The old name of :class:`Orders`: it answers for one release with a DeprecationWarning.
__getattr__ = lazy_names(__name__, {}, {"Plan": "mathhammer.wh40k.optimise.space.Orders"})[0]
