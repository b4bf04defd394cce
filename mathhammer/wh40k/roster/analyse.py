"""Every unit of an army list against every target, in the shooting and the fight phase.

One cell is (attacking unit, target, phase). Its weapons follow 04.01:

- shooting: every ranged weapon of every model; a model's [PISTOL] / [CLOSE-QUARTERS]
  weapons only when it has no other ranged weapon (MONSTERs and VEHICLEs use all); with
  ``advanced`` only [ASSAULT] weapons, with ``indirect`` only [INDIRECT FIRE] weapons;
- fight: each model's one melee weapon plus all its [EXTRA ATTACKS] weapons;
- where a model has several melee weapons, or a weapon several profiles, the one with the
  highest expected damage against that target (exact engine) is taken, or with
  ``profiles="first"`` the one listed first. The choices made are in ``frame.attrs["choices"]``.

A target with one statline (a target line, a reference name, or a unit whose models all
share one profile) goes through :func:`mathhammer.wh40k.compare.compare`, so its rows are
exactly what ``mh.compare`` gives for the same weapon lines: exact with ``exact=True``
wherever the exact engine covers the cell, Monte Carlo elsewhere. A unit of several
statlines or with attached Leaders is a target for the whole-unit engine
(:func:`mathhammer.run`, Monte Carlo). The ``method`` column says which engine made each
row.

Cell ``i`` (attackers outermost, then targets, then phases) is seeded from
``numpy.random.SeedSequence(seed).spawn(n_cells)[i]`` (the whole-unit engine takes that child;
the grid takes the first 32-bit word it generates as its seed), so a cell's numbers do not
depend on the other cells.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd

from mathhammer.core.progress import bar as progress_bar, check_progress
from mathhammer.core.trials import DEFAULT_GRID_TRIALS, check_seed, check_trials
from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.wh40k import abilities as ab
from mathhammer.wh40k import api, compare as grid
from mathhammer.wh40k.profiles import TargetProfile, Weapon
from mathhammer.wh40k.scenario.units import (CarriedWeapon, ModelGroup, Unit,
                                             allocation_groups, declared_order)
from mathhammer.wh40k.roster.convert import RosterLike


PHASES = ("shooting", "fight")
COLUMNS = ["attacker", "target", "phase", "metric", "value", "stderr", "method"]
SHOOTING_ONLY = ("half_range", "indirect", "spotted", "overwatch", "advanced", "cover",
                 "stationary")
PROFILE_CHOICES = ("best", "first")

@dataclasses.dataclass(frozen=True)
class _Target:
    label: str
    profile: TargetProfile | None  # one statline: the compare grid
    unit: Unit | None              # several statlines: the whole-unit engine
    defense: tuple[tuple[str, Any], ...] = ()  # the unit's damage_minus / damage_halved

    @property
    def choice_profile(self) -> TargetProfile:
        """The profile weapon choices are judged against: the models attacked first."""
        if self.profile is not None:
            return self.profile
        groups = allocation_groups(self.unit)
        first = groups[declared_order(self.unit)[0]]
        index = first.parts[0][0]
        return self.unit.groups[index].profile.with_count(first.models)


def analyse(roster: RosterLike, targets: Any, *, exact: bool = False,
            trials: int = DEFAULT_GRID_TRIALS, seed: int = 1, profiles: str = "best",
            phases: Iterable[str] = PHASES, library: Any = None,
            progress: bool | None = None, **options: Any) -> pd.DataFrame:
    """Every analysed unit of ``roster`` against every target, in each phase.

    Parameters
    ----------
    roster
        The attacking list.
    targets
        Target lines, reference names, :class:`TargetProfile` s or :class:`Unit` s (a list,
        one of them, or a dict by label).
    exact
        Use the exact engine wherever it covers a cell (Monte Carlo elsewhere).
    trials, seed
        Monte Carlo trials per cell and the root seed.
    profiles
        ``"best"`` (the melee weapon / weapon profile with the highest expected damage
        against each target) or ``"first"`` (the one listed first).
    phases
        Any of ``"shooting"`` and ``"fight"``.
    library
        Reference-profile library for target names (default: the built-in one).
    progress
        A progress bar on stderr, one step per (unit, target, phase) cell, for an analysis
        longer than about 2 s: ``None`` (default) when stderr is a terminal or in a notebook,
        ``True``/``False`` to force it. It never changes the frame.
    **options
        Situation, modifier and rule options of :func:`mathhammer.simulate`; the
        shooting-only ones (half range, cover, indirect, overwatch, advanced, stationary)
        are dropped in the fight phase.

    Returns
    -------
    pandas.DataFrame
        Columns ``attacker, target, phase, metric, value, stderr, method``; when any unit
        has points, every unit has ``damage_per_100pts`` and
        ``models_destroyed_per_100pts`` rows, with no value (NaN) for a unit of 0 points
        (tables show ``-``); ``attrs`` holds
        ``method`` (``exact``, ``monte-carlo`` or ``mixed``), ``trials``, ``seed``,
        ``edition``, ``notes`` and ``choices``.
    """
    if profiles not in PROFILE_CHOICES:
        raise OptionError(f"profiles='{profiles}' must be 'best' or 'first'")
    phases = tuple(phases)
    for phase in phases:
        if phase not in PHASES:
            raise OptionError(f"phase '{phase}' must be shooting or fight")
    if not exact:
        trials = check_trials(trials)
    seed = check_seed(seed)
    check_progress(progress)
    api.build_options(options)
    target_list = _targets(targets, library)
    if not roster.units:
        raise OptionError(f"{roster.source}: no unit of this list has a statline to analyse")
    edition = options.pop("edition", None) or roster.edition
    notes = [f"{e.name}: no statline in the file: it attacks, but is never a target"
             for e in roster.entries if not e.has_statline]
    if hasattr(targets, "targets") and hasattr(targets, "entries"):  # another Roster
        notes += [f"{e.name} ({targets.source}): no statline in the file: not a target"
                  for e in targets.entries if not e.has_statline]
    cells = [(u, t, p) for u in roster.units for t in target_list for p in phases]
    children = np.random.SeedSequence(seed).spawn(len(cells))
    frames, choices = [], []
    with progress_bar(len(cells), "roster", progress=progress) as bar:
        for (unit, target, phase), child in zip(cells, children):
            frame = _cell(unit, target, phase, child, choices, exact=exact, trials=trials,
                          profiles=profiles, options={**options, "edition": edition})
            if frame is not None:
                frames.append(frame)
            bar.update()
    if not frames:
        raise OptionError("no unit of the list has a weapon to use in "
                          f"{' or '.join(phases)}")
    out = _with_unpriced(pd.concat(frames, ignore_index=True)[COLUMNS], roster.units)
    methods = set(out["method"])
    out.attrs.update(method=methods.pop() if len(methods) == 1 else "mixed",
                     trials=trials if (out["method"] == "monte-carlo").any() else None,
                     seed=seed if not isinstance(seed, np.random.SeedSequence) else seed.entropy,
                     edition=edition, notes=notes, choices=choices)
    return out


#: The per-100-points metrics and the expectation each one scales.
PER_POINTS = {"damage_per_100pts": "expected_damage",
              "models_destroyed_per_100pts": "expected_models_destroyed"}


def _with_unpriced(frame: pd.DataFrame, units: Iterable[Unit]) -> pd.DataFrame:
    """When some unit of the list has points, give each unit without any (0 points) its
    per-100-points rows too, with no value (NaN; tables show ``-``), right after its own
    rows: it keeps its place in every table instead of vanishing from the per-points ones.
    """
    present = [m for m in PER_POINTS if (frame["metric"] == m).any()]
    unpriced = [u.name for u in units if not u.points]
    if not present or not unpriced:
        return frame
    order = pd.Series(np.arange(len(frame), dtype=float), index=frame.index)
    added = []
    for rank, metric in enumerate(present, start=1):
        source = frame["metric"].eq(PER_POINTS[metric]) & frame["attacker"].isin(unpriced)
        rows = frame[source].assign(metric=metric, value=np.nan, stderr=np.nan)
        added.append((rows, order[source] + rank / (len(present) + 1)))
    out = pd.concat([frame] + [rows for rows, _ in added], ignore_index=True)
    keys = pd.concat([order] + [keys for _, keys in added], ignore_index=True)
    return out.iloc[np.argsort(keys.to_numpy(), kind="stable")].reset_index(drop=True)


# -- targets --------------------------------------------------------------------------------
def _targets(targets: Any, library: Any) -> list[_Target]:
    from mathhammer.wh40k.targets import resolve_target

    defenses: dict[str, dict] = {}
    if hasattr(targets, "targets") and hasattr(targets, "entries"):  # another Roster
        defenses = {unit.name: targets.defense_of(unit.name) for unit in targets.targets}
        targets = {unit.name: unit for unit in targets.targets}
    if isinstance(targets, Mapping):
        items = [(str(k), v) for k, v in targets.items()]
    else:
        if isinstance(targets, (str, TargetProfile, Unit)):
            targets = [targets]
        items = [(None, v) for v in targets]
    if not items:
        raise OptionError("give at least one target (a target line, a name such as MEQ, or "
                          "another list)")
    out: list[_Target] = []
    for label, spec in items:
        if isinstance(spec, Unit):
            out.append(_unit_target(label or spec.name, spec, defenses.get(spec.name, {})))
            continue
        profile = resolve_target(spec, library)
        if label is None:
            if isinstance(spec, str) and ":" not in spec and profile.name:
                label = " ".join(spec.split())
            elif profile.name:
                label = f"{profile.count}x {profile.name}" if profile.count != 1 \
                    else profile.name
            else:
                label = str(profile)
        out.append(_Target(label, profile, None))
    seen: dict[str, int] = {}
    unique = []
    for t in out:
        n = seen.get(t.label, 0) + 1
        seen[t.label] = n
        unique.append(t if n == 1 else dataclasses.replace(t, label=f"{t.label} ({n})"))
    return unique


def _unit_target(label: str, unit: Unit, extra: Mapping[str, Any] | None = None) -> _Target:
    """A unit as a target; ``extra`` adds its roster's hit and wound roll penalties."""
    first = unit.groups[0].profile
    same = all(dataclasses.replace(g.profile, name="", count=1)
               == dataclasses.replace(first, name="", count=1) for g in unit.groups)
    found = {"damage_minus": unit.damage_minus, "damage_halved": unit.damage_halved,
             **{k: v for k, v in (extra or {}).items() if k.startswith(("hit_", "wound_"))}}
    defense = tuple((k, v) for k, v in found.items() if v)
    if same and unit.reroll_saves == "none":
        profile = dataclasses.replace(first, name="", count=unit.models)
        return _Target(label, profile, None, defense)
    return _Target(label, None, unit, defense)


# -- weapon selection (04.01) ---------------------------------------------------------------
def select_weapons(unit: Unit, phase: str, target: TargetProfile, options: Mapping[str, Any],
                   profiles: str = "best", choices: list[str] | None = None
                   ) -> list[tuple[ModelGroup, CarriedWeapon, Weapon, int]]:
    """The weapons each model group uses in ``phase`` against ``target``.

    Returns
    -------
    list
        ``(group, carried weapon, chosen profile, models using it x weapons each)``.
    """
    picks = []
    for group in unit.groups:
        if phase == "fight":
            picks += _fight(group, target, options, profiles, choices, unit.name)
        else:
            picks += _shooting(group, target, options, profiles, choices, unit.name)
    return picks


def _usable(profile: Weapon, options: Mapping[str, Any]) -> bool:
    if options.get("advanced") and not profile.has(ab.ASSAULT):
        return False
    if options.get("indirect") and not profile.has(ab.INDIRECT_FIRE):
        return False
    return True


def _shooting(group, target, options, profiles, choices, unit_name):
    ranged = [w for w in group.weapons if not w.melee
              and any(_usable(p, options) for p in w.profiles)]
    sidearm = [w for w in ranged if w.profiles[0].has(ab.PISTOL)
               or w.profiles[0].has(ab.CLOSE_QUARTERS)]
    others = [w for w in ranged if w not in sidearm]
    if others and not group.is_monster_or_vehicle:
        ranged = others
    out = []
    for carried in ranged:
        n = group.count * carried.per_model
        options_ = [p for p in carried.profiles if _usable(p, options)]
        chosen = _choose(options_, n, target, options, profiles)
        if len(options_) > 1 and choices is not None:
            choices.append(f"{unit_name}: {group.name} shoots {chosen.name or carried.name} "
                           f"({_how(profiles)} of {len(options_)} profiles)")
        out.append((group, carried, chosen, n))
    return out


def _fight(group, target, options, profiles, choices, unit_name):
    melee = [w for w in group.weapons if w.melee]
    extra = [w for w in melee if w.profiles[0].has(ab.EXTRA_ATTACKS)]
    main = [w for w in melee if w not in extra]
    out = []
    if main:
        candidates = [(w, p) for w in main for p in w.profiles]
        weapons = [p for _, p in candidates]
        chosen = _choose(weapons, group.count, target, options, profiles)
        carried = next(w for w, p in candidates if p is chosen)
        if len(candidates) > 1 and choices is not None:
            choices.append(f"{unit_name}: {group.name} fights with "
                           f"{chosen.name or carried.name} ({_how(profiles)} of "
                           f"{len(candidates)} melee weapons/profiles)")
        out.append((group, carried, chosen, group.count))
    for carried in extra:
        chosen = _choose(list(carried.profiles), group.count, target, options, profiles)
        out.append((group, carried, chosen, group.count))
    return out


def _how(profiles: str) -> str:
    return "highest expected damage" if profiles == "best" else "listed first"


def _choose(candidates: list[Weapon], count: int, target: TargetProfile,
            options: Mapping[str, Any], profiles: str) -> Weapon:
    if len(candidates) == 1 or profiles == "first":
        return candidates[0]
    key = tuple(sorted((k, v) for k, v in options.items() if not isinstance(v, (dict, list))))
    scores = [_expected_damage(w.with_count(count), target, key) for w in candidates]
    return candidates[int(np.argmax(scores))]


@lru_cache(maxsize=4096)
def _expected_damage(weapon: Weapon, target: TargetProfile, options: tuple) -> float:
    kwargs = dict(options)
    try:
        return api.exact(weapon, target, **kwargs).mean("damage")
    except UnsupportedError:
        return api.simulate(weapon, target, trials=4_000, seed=0, **kwargs).mean("damage")
    except OptionError:
        return -1.0


# -- one cell -------------------------------------------------------------------------------
def _cell(unit: Unit, target: _Target, phase: str, child: np.random.SeedSequence,
          choices: list[str], *, exact: bool, trials: int, profiles: str,
          options: dict[str, Any]) -> pd.DataFrame | None:
    if phase == "fight":
        options = {k: v for k, v in options.items() if k not in SHOOTING_ONLY}
    if unit.all_monster_or_vehicle:
        options.setdefault("attacker_monster_vehicle", True)
    options = _with_defense(options, target.defense, phase)
    made: list[str] = []
    picks = select_weapons(unit, phase, target.choice_profile, options, profiles, made)
    choices += [f"{text} against {target.label}" for text in made]
    if not picks:
        return None
    points = {unit.name: unit.points} if unit.points else None
    if target.profile is not None:
        weapons = [p.with_count(n) for _, _, p, n in picks]
        frame, method = _grid_cell(unit.name, weapons, target, child, exact, trials, points,
                                   options)
    else:
        frame = _unit_cell(unit, picks, target, phase, child, trials, points, options)
        method = "monte-carlo"
    frame.insert(2, "phase", phase)
    frame["method"] = method
    return frame


def _with_defense(options: dict[str, Any], defense, phase: str) -> dict[str, Any]:
    """The target unit's own damage reduction, combined with any given as an option, and
    its hit / wound roll penalties (``hit_minus_ranged`` ...) for the attacks of ``phase``
    added to ``hit_mod`` / ``wound_mod``."""
    out = dict(options)
    attacks = "ranged" if phase == "shooting" else "melee"
    for key, value in defense:
        if key.startswith(("hit_minus_", "wound_minus_")):
            roll, _, scope = key.partition("_minus_")
            if scope in ("all", attacks):
                out[f"{roll}_mod"] = (out.get(f"{roll}_mod") or 0) - int(value)
        elif key == "damage_minus":
            out[key] = max(out.get(key) or 0, value)
        else:
            out[key] = True
    return out


def _grid_cell(label, weapons, target, child, exact, trials, points, options):
    kwargs = dict(points=points, seed=int(child.generate_state(1)[0]), unit_sizes=False,
                  **options)
    if exact:
        try:
            return grid.compare({label: weapons}, {target.label: target.profile}, exact=True,
                                **kwargs), "exact"
        except UnsupportedError:
            pass
    return grid.compare({label: weapons}, {target.label: target.profile}, trials=trials,
                        **kwargs), "monte-carlo"


def _unit_cell(unit, picks, target, phase, child, trials, points, options):
    """A target of several statlines: one activation of the whole-unit engine."""
    from mathhammer.wh40k.scenario.api import run
    from mathhammer.wh40k.scenario.model import Activation, Scenario

    situation, modifiers, rules, _ = api.build_options(
        {k: v for k, v in options.items() if k != "attacker_monster_vehicle"})
    groups = []
    for group in unit.groups:
        mine = [(c, p, n) for g, c, p, n in picks if g is group]
        if mine:
            weapons = tuple(CarriedWeapon(p.name or c.name, (p,),
                                          per_model=max(n // group.count, 1))
                            for c, p, n in mine)
            groups.append(dataclasses.replace(group, weapons=weapons, role="bodyguard"))
    attacker = Unit(name="attacker", groups=tuple(groups))
    defender = dataclasses.replace(target.unit, name="target",
                                   damage_minus=options.get("damage_minus", 0),
                                   damage_halved=bool(options.get("damage_halved", False)))
    scenario = Scenario(units={"attacker": attacker, "target": defender},
                        activations=(Activation(phase=phase, attacker="attacker",
                                                target="target", situation=situation,
                                                modifiers=modifiers),),
                        rules=rules)
    result = run(scenario, trials=trials, seed=child)
    wounds, models = result.wounds_lost("target"), result.models_destroyed("target")
    p = result.destroyed("target")
    rows = [("expected_damage", wounds.mean, wounds.stderr),
            ("expected_models_destroyed", models.mean, models.stderr),
            ("p_unit_destroyed", p, math.sqrt(p * (1 - p) / trials))]
    frame = pd.DataFrame([{"attacker": unit.name, "target": target.label, "metric": m,
                           "value": float(v), "stderr": float(s)} for m, v, s in rows])
    if points:
        frame = grid.per_points(frame, points, by="attacker")
    return frame
