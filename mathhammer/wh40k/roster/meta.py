"""A tournament's lists against each other: the meta matrix (issue 36).

:func:`meta` reads every list of a folder (or the files given), skips and names the ones it
cannot use (not a roster, damaged, another edition than most of the folder), and analyses
every list against every other one, both ways:

1. a *unit pairing* is one attacking unit, one target unit and one phase, exactly a cell of
   ``mathhammer roster A --against B`` (:func:`~mathhammer.wh40k.roster.analyse.analyse`:
   the same weapon selection, 04.01, the same exact / Monte Carlo engines);
2. identical unit pairings across lists are solved once: a pairing is keyed by the
   attacker's resolved model groups and weapons, the target's resolved profile(s) and
   defensive rules, the phase and the analysis options (names and points left out), so an
   event whose lists share datasheets solves a fraction of its pairings
   (:attr:`MetaResult.counts`);
3. each side's *plan*: every unit of a list, in each phase, at its best target of the other
   list, the one where its expected points destroyed are highest (models destroyed break
   ties; a list without points is scored by models destroyed). Each unit chooses on its own:
   no joint plan, no overkill between units (:data:`PLAN_RULE`, in every output).

Expected points destroyed of a pairing: expected models destroyed times the target unit's
points per model (its points over its models; an attached Leader's points are spread over
the whole unit).

Monte Carlo pairings are seeded from ``SeedSequence(seed, spawn_key=...)`` with a spawn key
from the pairing's key, so a pairing's numbers depend neither on the other pairings, nor on
the order of the lists, nor on where it runs: a Dask cluster gives the same bits as this
machine, and a resumed run the same as one that was never interrupted.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from mathhammer.core.limits import describe_character, shown, unsafe_character
from mathhammer.core.trials import DEFAULT_GRID_TRIALS
from mathhammer.errors import MathhammerError, OptionError, RosterError
from mathhammer.wh40k.roster.api import Roster, load_roster
from mathhammer.wh40k.roster.meta_settings import PHASES, Pairing, Settings, Skipped
from mathhammer.wh40k.roster.meta_settings import PLAN_RULE as PLAN_RULE  # said by meta()'s users
from mathhammer.wh40k.scenario.units import Unit

#: Unit pairings a matrix may weigh (each attacking unit of a list against each target unit
#: of another, per phase): about 2 microseconds each (300 generated lists of 4 units, both
#: phases: 2.9 million in 6 s), so about 40 s at the limit.
MAX_PAIRINGS = 20_000_000
#: Plan rows a matrix may hold (each attacking unit's best target against every other list,
#: per phase): about 400 bytes each while the matrix is made (those 300 lists: 717,600 rows,
#: 600 MB in all), so about 2 GB at the limit.
MAX_PLAN_ROWS = 5_000_000

@dataclasses.dataclass(frozen=True)
class Lists:
    """The lists read: labels (file names without their extension) to rosters, in file
    order, and the files skipped."""

    rosters: dict[str, Roster]
    skipped: tuple[Skipped, ...]
    edition: int


def read_lists(sources: str | os.PathLike[str] | Iterable[str | os.PathLike[str]]
               | Mapping[str, Roster]) -> Lists:
    """Every readable list of a folder or of the files given; the others named and skipped.

    Parameters
    ----------
    sources
        A folder (every file in it, hidden ones aside, in name order), a file, a list of
        folders and files, or a dict of labels to :class:`~mathhammer.Roster` s.

    Returns
    -------
    Lists
        The lists of the edition most of them share; a file that is not a roster, is
        damaged, or is of another edition is in ``skipped`` with the reason.

    Raises
    ------
    RosterError
        One line when no two lists can be read (naming the files skipped and why).

    Examples
    --------
    >>> from mathhammer.wh40k.roster.api import example
    >>> found = read_lists([example("marines"), example("orks")])
    >>> list(found.rosters), found.edition, found.skipped
    (['example_marines_11e', 'example_orks_11e'], 11, ())
    """
    if isinstance(sources, Mapping):
        rosters = {str(k): v for k, v in sources.items()}
        bad = [k for k, v in rosters.items() if not isinstance(v, Roster)]
        if bad:
            raise OptionError(f"meta list '{bad[0]}' is not a Roster; read it with "
                              "mh.load_roster(path)")
        skipped: list[Skipped] = []
    else:
        rosters, skipped = _read_files(_files(sources))
    editions = Counter(r.edition for r in rosters.values())
    edition = max(editions, key=lambda e: (editions[e], e)) if editions else 0
    for label, army in list(rosters.items()):
        if army.edition != edition:
            where = shown(str(army.source or label))
            skipped.append(Skipped(where, f"{where}: a {army.edition}th-edition list among "
                                   f"{edition}th-edition ones"))
            del rosters[label]
    if len(rosters) < 2:
        found = "; ".join(s.reason for s in skipped)
        raise RosterError(f"meta needs at least two readable lists, found {len(rosters)}"
                          + (f" (skipped {found})" if found else "")
                          + "; give a folder of .ros, .rosz or .json rosters")
    return Lists(rosters, tuple(skipped), edition)


def _files(sources: Any) -> list[Path]:
    if isinstance(sources, (str, os.PathLike)):
        sources = [sources]
    if not isinstance(sources, Iterable):
        raise OptionError(f"meta takes a folder, files or a dict of rosters, not "
                          f"{type(sources).__name__}")
    out: list[Path] = []
    for source in sources:
        if not isinstance(source, (str, os.PathLike)):
            raise OptionError(f"meta takes folder and file paths, not "
                              f"{type(source).__name__} {source!r:.60}")
        path = Path(source)
        if path.is_dir():
            out += sorted(p for p in path.iterdir()
                          if p.is_file() and not p.name.startswith("."))
        elif path.is_file():
            out.append(path)
        else:
            raise OptionError(f"'{path}' is neither a folder nor a file; give a folder of "
                              "rosters or roster files")
    return out


def _read_files(paths: Sequence[Path]) -> tuple[dict[str, Roster], list[Skipped]]:
    rosters: dict[str, Roster] = {}
    skipped = []
    for path in paths:
        unsafe = unsafe_character(path.stem, tab=False)
        if unsafe is not None:  # the stem names the list in every table, printed as it is
            skipped.append(Skipped(shown(str(path)), f"{shown(str(path))}: its file name holds "
                                   f"{describe_character(unsafe[1])}: rename the file"))
            continue
        try:
            army = load_roster(path)
        except (MathhammerError, OSError) as exc:
            skipped.append(Skipped(str(path), str(exc)))   # its message names the file
            continue
        label = path.stem if path.stem not in rosters else path.name
        if not army.units:
            skipped.append(Skipped(shown(str(path)), f"{shown(str(path))}: no unit with a "
                                   "statline"))
            continue
        rosters[label] = army
    return rosters, skipped


# -- unit pairings ------------------------------------------------------------------------
def canonical(value: Any) -> Any:
    """``value`` as nested tuples of plain values, the same in every process (sets sorted,
    dataclasses as their fields, enums as their values): what a pairing's digest is made of.

    Examples
    --------
    >>> canonical(frozenset({"b", "a"}))
    ('set', ('a', 'b'))
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple(
            (f.name, canonical(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, enum.Enum):
        return canonical(value.value)
    if isinstance(value, (frozenset, set)):
        return ("set", tuple(sorted((canonical(v) for v in value), key=repr)))
    if isinstance(value, Mapping):
        return ("map", tuple(sorted(((canonical(k), canonical(v)) for k, v in value.items()),
                                    key=repr)))
    if isinstance(value, (tuple, list)):
        return tuple(canonical(v) for v in value)
    if isinstance(value, float):
        return float.hex(value)
    return value


def attacker_key(unit: Unit) -> Unit:
    """The attacking unit as far as its pairings depend on it: no name, no points."""
    groups = tuple(dataclasses.replace(g, points=None) for g in unit.groups)
    return dataclasses.replace(unit, name="", groups=groups)


def target_key(target: Any) -> tuple[Any, ...]:
    """A target (the analysis's ``_Target``) as far as pairings depend on it: no label."""
    unit = target.unit
    if unit is not None:
        groups = tuple(dataclasses.replace(g, points=None) for g in unit.groups)
        unit = dataclasses.replace(unit, name="", groups=groups)
    return (target.profile, unit, target.defense)


def digest(*parts: Any) -> str:
    """A pairing's key as 24 hex digits (sha256 of its canonical form)."""
    return hashlib.sha256(repr(canonical(parts)).encode()).hexdigest()[:24]


#: One unit pairing of a list pair: ``(unit, target label, phase, key, target unit)``.
Row = tuple[str, str, str, str, Any]


class Cells(Mapping[tuple[str, str], list[Row]]):
    """Every list pair's unit pairings (:data:`Row`), made when a pair is asked for.

    A pair's rows are the product of its two lists' units and the phases: kept for every
    pair, they took memory that grows with the square of the number of lists (300 lists of 4
    units: 2.9 million rows, 260 MB). Here only each list's units and the keys are kept.
    """

    def __init__(self, attackers: Mapping[str, list[tuple[Unit, str, Any]]],
                 targets: Mapping[str, list[tuple[Any, str, Any]]], phases: Sequence[str],
                 keys: Mapping[tuple[str, str, str], str]) -> None:
        self._attackers, self._targets = attackers, targets
        self._phases, self._keys = tuple(phases), keys
        self._pairs = {(mine, theirs): None for mine in attackers for theirs in targets
                       if mine != theirs}

    def __getitem__(self, pair: tuple[str, str]) -> list[Row]:
        if pair not in self._pairs:
            raise KeyError(pair)
        mine, theirs = pair
        return [(unit.name, target.label, phase, self._keys[(unit_digest, target_digest, phase)],
                 target_unit)
                for unit, unit_digest, _ in self._attackers[mine]
                for target, target_digest, target_unit in self._targets[theirs]
                for phase in self._phases]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def size(self) -> int:
        """The unit pairings of every pair, counted without making them."""
        return len(self._phases) * sum(len(self._attackers[mine]) * len(self._targets[theirs])
                                       for mine, theirs in self._pairs)


def pairings(lists: Mapping[str, Roster], settings: Settings, sides: Any = None,
             progress: bool | None = None) -> tuple[Cells, dict[str, Pairing]]:
    """Every list pair's cells and the unique pairings behind them; ``sides``
    (:class:`~mathhammer.wh40k.roster.meta_buffs.Sides`) gives each list's attacking and
    target sides with its buffs and its Leaders' grants (a pairing's roll grants are part
    of its key). A bar counts the attacking lists on a terminal (``progress``).

    A unit pairing's key is made once per attacker, target and phase, however many list
    pairs hold them (an event's lists share datasheets): the same keys as one per cell, the
    unique pairings in the order the cells first meet them (the order they are solved in).

    Returns
    -------
    tuple
        :class:`Cells` (``{(list, other): [(unit, target label, phase, digest, target
        unit), ...]}``) and ``{digest: Pairing}``, one per distinct pairing.
    """
    from mathhammer.core.progress import bar
    from mathhammer.wh40k.roster.analyse import analysis_targets

    shared = digest(settings.key())
    attacking = sides.attackers if sides is not None else lists
    defending = sides.targets if sides is not None else lists
    rolls = sides.rolls if sides is not None else {}
    attackers = {}
    for label, army in attacking.items():
        own = rolls.get(label, {})
        attackers[label] = [(u, digest(attacker_key(u)) if not own.get(u.name) else
                             digest(attacker_key(u), own[u.name]), own.get(u.name, ()))
                            for u in army.units]
    targets = {}
    for label, army in defending.items():
        made = analysis_targets(army, None) if army.targets else []
        targets[label] = [(t, digest(target_key(t)), unit)
                          for t, unit in zip(made, lists[label].targets)]
    _check_size(attackers, targets, settings.phases)
    unique: dict[str, Pairing] = {}
    keys: dict[tuple[str, str, str], str] = {}
    with bar(len(attackers), "keying pairings", progress=progress, unit="list") as shown:
        for mine, units in attackers.items():
            for theirs, found in targets.items():
                if mine != theirs:
                    _key_pair(units, found, settings.phases, shared, keys, unique)
            shown.update(1)
    return Cells(attackers, targets, settings.phases, keys), unique


def _key_pair(units: list[tuple[Unit, str, Any]], found: list[tuple[Any, str, Any]],
              phases: Sequence[str], shared: str, keys: dict[tuple[str, str, str], str],
              unique: dict[str, Pairing]) -> None:
    """Key the unit pairings of one list pair that no earlier pair has keyed."""
    for unit, unit_digest, unit_rolls in units:
        for target, target_digest, _ in found:
            for phase in phases:
                if (unit_digest, target_digest, phase) not in keys:
                    key = keys[(unit_digest, target_digest, phase)] = digest(
                        unit_digest, target_digest, phase, shared)
                    unique.setdefault(key, Pairing(unit, target, phase, key, unit_rolls))


def _check_size(attackers: Mapping[str, list[Any]], targets: Mapping[str, list[Any]],
                phases: Sequence[str]) -> None:
    """Refuse, before any is made, more unit pairings than :data:`MAX_PAIRINGS` or more
    plan rows than :data:`MAX_PLAN_ROWS`."""
    units = sum(map(len, attackers.values()))
    both = sum(len(attackers[label]) * len(targets.get(label, ())) for label in attackers)
    weighed = len(phases) * (units * sum(map(len, targets.values())) - both)
    planned = len(phases) * units * (len(targets) - 1)
    per_phase = ", per phase" if len(phases) > 1 else ""
    for count, what, limit, cost in (
            (weighed, f"unit pairings (each unit against each unit of every other list"
                      f"{per_phase}", MAX_PAIRINGS, "about 40 s"),
            (planned, f"plan rows (each unit's best target against every other list"
                      f"{per_phase}", MAX_PLAN_ROWS, "about 2 GB")):
        if count > limit:
            raise OptionError(
                f"meta: {len(attackers)} lists make {count:,} {what}; limit {limit:,}, "
                f"{cost}): give fewer lists at once (a round's tables, a pod)" +
                (" or one phase (--phase shooting; phases='shooting' in Python)"
                 if len(phases) > 1 else ""))


# -- the matrix ---------------------------------------------------------------------------
def meta(sources: Any, *, phases: Iterable[str] | str = PHASES, method: str = "auto",
         trials: int = DEFAULT_GRID_TRIALS, seed: int = 1, profiles: str = "best",
         client: Any = None, out: str | os.PathLike[str] | None = None,
         progress: bool | None = None, buffs: Any = None, buff_file: Any = None,
         list_buffs: Mapping[str, Any] | None = None, **options: Any) -> Any:
    """Every list of an event against every other one: the meta matrix.

    Parameters
    ----------
    sources
        A folder of roster files, files, or a dict of labels to rosters (see
        :func:`read_lists`; unreadable and other-edition files are skipped and named in
        :attr:`MetaResult.skipped`).
    phases
        ``"shooting"``, ``"fight"`` or both (a list, or text such as ``"shooting,fight"``).
    method
        ``"auto"`` (exact wherever the exact engine covers a pairing, Monte Carlo
        elsewhere), ``"exact"`` (every pairing, or a one-line refusal naming the first it
        does not cover) or ``"monte-carlo"``.
    trials, seed
        Monte Carlo trials per pairing and the root seed.
    profiles
        ``"best"`` or ``"first"``: which of several melee weapons / weapon profiles a model
        uses, as in :meth:`~mathhammer.Roster.against`.
    client
        A ``dask.distributed.Client``: pairings are solved as tasks on its workers, with the
        same figures as here, bit for bit.
    out
        A folder where solved pairings are written as they come (``pairings.jsonl``); a run
        given the same folder and options skips the pairings already there.
    progress
        A progress bar on stderr, one step per pairing solved.
    buffs, buff_file, list_buffs
        Named buffs (texts, :class:`~mathhammer.wh40k.Buff` s or names of ``buff_file``)
        of every list, and ``{label: buffs}`` of one list: a list attacks with their grants
        to the attacks and is attacked with their defensive grants, so a pairing is the
        cell of ``A.against(B, buffs=..., other_buffs=...)``
        (:mod:`~mathhammer.wh40k.roster.meta_buffs`). What a list's Leaders grant the units
        they lead is applied with or without buffs.
    **options
        Situation, modifier and rule options of :func:`mathhammer.simulate`.

    Returns
    -------
    MetaResult

    Examples
    --------
    >>> from mathhammer.wh40k.roster.api import example
    >>> result = meta([example("marines"), example("orks")], method="exact",
    ...               phases="shooting")
    >>> table = result.matrix("points_destroyed")
    >>> round(float(table.loc["example_marines_11e", "example_orks_11e"]), 1)
    544.4
    >>> result.counts["solved"], result.counts["from_cache"]
    (190, 10)
    """
    from mathhammer.core.inputs import dask_client
    from mathhammer.wh40k.roster.meta_result import MetaResult
    from mathhammer.wh40k.roster.meta_buffs import sides
    from mathhammer.wh40k.roster.meta_solve import Store, solve

    dask_client(client)
    found = read_lists(sources)
    settings = Settings.build(found.edition, method, trials, seed, profiles, phases, options)
    store = Store(Path(out)) if out is not None else None
    both = sides(found.rosters, settings.options, buffs, buff_file, list_buffs)
    cells, unique = pairings(found.rosters, settings, both, progress)
    answers, solved, resumed = solve(unique, settings, client=client, store=store,
                                     progress=progress)
    plans = best_targets(cells, answers, progress)
    counts = {"lists": len(found.rosters), "list_pairs": len(cells),
              "pairings": cells.size(), "unique": len(unique),
              "solved": solved, "resumed": resumed}
    counts["from_cache"] = counts["pairings"] - solved - resumed
    methods = {a["method"] for a in answers.values()} - {"none"}
    result = MetaResult(lists=found.rosters, skipped=found.skipped, edition=found.edition,
                        plans=plans, counts=counts, settings=settings,
                        method=methods.pop() if len(methods) == 1 else "mixed",
                        buffs=both.buffs)
    if store is not None:
        result.write(store.folder)
    return result


def best_targets(cells: Mapping[tuple[str, str], list[Row]],
                 answers: Mapping[str, Mapping[str, Any]], progress: bool | None = None
                 ) -> list[dict[str, Any]]:
    """Each list's plan against each other list: one row per attacking unit and phase, at
    its best target (:data:`PLAN_RULE`; a unit with no weapon for a phase has no row). A bar
    counts the list pairs on a terminal (``progress``)."""
    from mathhammer.core.progress import bar

    rows: list[dict[str, Any]] = []
    points_per_model: dict[int, float] = {}   # by target unit: a property summing its models
    with bar(len(cells), "best targets", progress=progress, unit="pair") as shown:
        for pair, found in cells.items():
            rows += _best_of_pair(pair, found, answers, points_per_model)
            shown.update(1)
    return rows


def _best_of_pair(pair: tuple[str, str], found: list[Row],
                  answers: Mapping[str, Mapping[str, Any]],
                  points_per_model: dict[int, float]) -> list[dict[str, Any]]:
    """One list pair's plan rows (:func:`best_targets`)."""
    mine, theirs = pair
    options: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for unit, target, phase, key, target_unit in found:
        answer = answers[key]
        figures = answer["figures"]
        if not figures:
            continue
        models = figures["expected_models_destroyed"][0]
        per_model = points_per_model.get(id(target_unit))
        if per_model is None:
            per_model = points_per_model[id(target_unit)] = (
                float(target_unit.points) / target_unit.models if target_unit.points else 0.0)
        options.setdefault((unit, phase), []).append({
            "list": mine, "opponent": theirs, "unit": unit, "phase": phase,
            "target": target, "points": models * per_model, "models": models,
            "damage": figures["expected_damage"][0], "method": answer["method"]})
    return [max(choices, key=lambda c: (c["points"], c["models"]))
            for choices in options.values()]
