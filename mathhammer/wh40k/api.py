"""The public 40k entry points: :func:`simulate` (Monte Carlo) and :func:`exact`.

Both take the same arguments: weapon lines (or :class:`Weapon` objects), a target line (or
:class:`TargetProfile`), and situation, modifier and rule switches as keyword arguments named
like the command-line flags (``half_range=True``, ``reroll_hits="ones"``, ``fnp=5``...).
Several weapon lines are resolved one batch after another against the same unit, in the order
given; wounds carry over.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from mathhammer.core import game as contract
from mathhammer.core.game import Game, Outcomes, SeedLike, Tallies
from mathhammer.core.limits import check_run_work
from mathhammer.core.inputs import refuse_unordered, switch
from mathhammer.core.progress import watch
from mathhammer.core.result import Distribution, Result
from mathhammer.core.trials import CHUNKS, DEFAULT_TRIALS
from mathhammer.errors import OptionError, did_you_mean
from mathhammer.wh40k.compile import CompiledPlan, compile_plan
from mathhammer.wh40k.profiles import (Modifiers, Rules, Situation, TargetProfile, Weapon,
                                       field_values)
from mathhammer.wh40k.options import FIELD_TYPES, check_option_value
from mathhammer.wh40k.parse import parse_weapon


LABELS = {"damage": "wounds lost", "models_destroyed": "models destroyed",
          "attacker_mortal_wounds": "hazard mortal wounds (attacker)",
          "unit_destroyed": "unit destroyed"}

#: The keyword options of :func:`simulate` and :func:`exact`, by the object they build
#: (:class:`Situation`, :class:`Modifiers`, :class:`Rules`), and the options of none of them.
SITUATION_FIELDS = {f.name for f in dataclasses.fields(Situation)}
MODIFIER_FIELDS = {f.name for f in dataclasses.fields(Modifiers)}
RULE_FIELDS = {f.name for f in dataclasses.fields(Rules)}
OTHER_OPTIONS = {"attacker_monster_vehicle"}


WeaponsLike = str | Weapon | Iterable[str | Weapon]

#: What :func:`build_options` gives for no options (the option objects are frozen).
_DEFAULT_OPTIONS = (Situation(), Modifiers(), Rules(), False)




def simulate(weapons: WeaponsLike, target: str | TargetProfile, *,
             trials: int | str = DEFAULT_TRIALS, seed: int | np.random.SeedSequence = 1,
             target_stderr: float | None = None, progress: bool | None = None,
             buffs: Sequence[Any] = (), **options: Any) -> Result:
    """Monte Carlo distribution of what ``weapons`` do to ``target``.

    Parameters
    ----------
    weapons
        One weapon line or :class:`Weapon`, or a list of them (resolved in order).
    target
        A target line or :class:`TargetProfile`.
    trials
        Number of simulated attack sequences (at least 1), or ``"auto"``: keep adding blocks
        of trials (100,000, then doubling the total) until every headline figure is precise
        enough (see ``target_stderr``), at most 50 million. The reached precision is
        reported in ``result.inputs["precision"]``.
    target_stderr
        With ``trials="auto"`` (implied when given): the standard error to reach on the mean
        wounds lost and mean models destroyed; default 0.2% of the mean (at least 0.002).
        P(unit destroyed) is always taken to a standard error of 0.001.
    seed
        Random seed; the same seed gives bit-identical results on any thread count. May be
        a :class:`numpy.random.SeedSequence` (e.g. the child spawned for one cell of a
        comparison grid): the result's ``seed`` is then its entropy and
        ``inputs["seed_spawn_key"]`` its spawn key; only (entropy, spawn key) matter.
    progress
        Progress bar on stderr for a run longer than about 2 s: ``None`` (default) shows it
        when stderr is a terminal or in a notebook, ``True``/``False`` force it on or off.
        The bar never changes the result.
    buffs
        Named buffs (army rules, stratagems, auras) as text, e.g.
        ``["Oath of Moment: re-roll hits", "[LETHAL HITS] to INFANTRY"]``, or
        :class:`~mathhammer.wh40k.buffs.Buff` objects; see :mod:`mathhammer.wh40k.buffs`.
    **options
        Situation flags (``half_range``, ``charged``, ``stationary``, ``cover``,
        ``indirect``, ``spotted``, ``overwatch``), modifiers (``hit_mod``, ``wound_mod``,
        ``skill_mod``, ``strength_mod``, ``reroll_hits``, ``reroll_wounds``,
        ``reroll_saves``, ``crit_hits``, ``crit_wounds``, ``ap_mod``, ``damage_plus``,
        ``damage_minus``, ``damage_halved``, ``fnp``, ``fnp_mortal``, ``reroll_damage``,
        ``reroll_attacks``, ``fnp_psychic``, ``command_reroll``), rule switches
        (``lethal_policy``, ``roll_mod_cap``, ``dw_timing``, ...; see :class:`Rules`),
        ``attacker_monster_vehicle``, or whole ``situation=``, ``modifiers=``, ``rules=``
        objects.

    Returns
    -------
    Result
        ``damage`` (wounds the target lost), ``models_destroyed``, and
        ``attacker_mortal_wounds`` when a weapon is [HAZARDOUS]; ``unit_destroyed``.

    Examples
    --------
    >>> r = simulate('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1', "10x Guardsman: T3 Sv5+ W1",
    ...              trials=20_000, seed=1, half_range=True)
    >>> round(r.mean("models_destroyed"), 1)   # exactly 7.284...
    7.3
    """
    return contract.simulate(GAME, weapons, target, trials=trials, seed=seed,
                             progress=progress, target_stderr=target_stderr,
                             **_with_buffs(options, buffs))


#: Most hits one Monte Carlo trial may roll, and most hits a whole run may roll (about an
#: hour of one core): beyond them a run would not end in any useful time.
MAX_HITS_PER_TRIAL = 10_000_000
MAX_HITS_PER_RUN = 100_000_000_000


def check_monte_carlo_size(plan: CompiledPlan, trials: int) -> None:
    """Refuse a run whose dice could not be rolled in any useful time, naming the figures."""
    from mathhammer.wh40k.compile import SUS_CONST, SUS_COUNT, SUS_SIDES

    hits = 0
    for b in range(plan.n_batches):
        row = plan.batch[b]
        hits += plan.max_dice(b) * (1 + row[SUS_COUNT] * max(row[SUS_SIDES], 1) + row[SUS_CONST])
    if hits > MAX_HITS_PER_TRIAL:
        raise OptionError(f"one trial could roll {hits:,} hits (limit {MAX_HITS_PER_TRIAL:,}): "
                          "fewer models, attacks or [SUSTAINED HITS] per line")
    check_run_work(hits, trials, "hits", MAX_HITS_PER_RUN)


def exact(weapons: WeaponsLike, target: str | TargetProfile, *, buffs: Sequence[Any] = (),
          **options: Any) -> Result:
    """Exact distribution of what ``weapons`` do to ``target``.

    Takes the same arguments as :func:`simulate` (without ``trials`` and ``seed``), buffs
    included.

    Raises
    ------
    UnsupportedError
        When the scenario is outside what the exact engine covers (it never approximates).

    Examples
    --------
    >>> e = exact("Bolter: A1 BS3+ S4 AP0 D1", "T4 Sv- W1")   # Appendix C1: 2/3 * 1/2
    >>> round(e.mean("damage"), 6)
    0.333333
    """
    return contract.exact(GAME, weapons, target, **_with_buffs(options, buffs))


def _with_buffs(options: dict[str, Any], buffs: Sequence[Any]) -> dict[str, Any]:
    """The options, with the buffs when there are any (read by :class:`Question`)."""
    return {**options, "buffs": buffs} if buffs else options


def solve_exact(plan: CompiledPlan) -> Outcomes:
    """The exact engine on a plan compiled for it
    (:func:`mathhammer.wh40k.exact_engine.chains.compiled_plan`): wounds lost, models destroyed
    (and hazard mortal wounds), P(unit destroyed)."""
    from mathhammer.wh40k.exact_engine import chains as engine, command

    return _outcomes(plan, (command if plan.command_reroll else engine).solve(plan))


def _outcomes(plan: CompiledPlan, pmfs: dict[str, np.ndarray]) -> Outcomes:
    distributions = {"damage": Distribution.from_pmf(pmfs["damage"]),
                     "models_destroyed": Distribution.from_pmf(pmfs["models_destroyed"])}
    if plan.hazard_rolls:
        distributions["attacker_mortal_wounds"] = Distribution.from_pmf(
            pmfs["attacker_mortal_wounds"])
    models = pmfs["models_destroyed"]
    return Outcomes(distributions, {"unit_destroyed": float(models[plan.total_models])})


def _best_policy(modifiers: Modifiers) -> bool:
    """Whether the question asks for a state-dependent Damage re-roll (free or Command)."""
    return modifiers.reroll_damage == "best" or modifiers.command_reroll == "damage_best"


def solve_best_rerolls(plan: CompiledPlan, goal: str, command: bool = False) -> Outcomes:
    """:func:`solve_exact` under the best state-dependent Damage re-roll for ``goal`` (every
    roll's, or the one Command Re-roll's with ``command``;
    :func:`mathhammer.wh40k.exact_engine.policies.solve_best`; ``plan`` compiled without
    them)."""
    from mathhammer.wh40k.exact_engine.policies import solve_best

    return _outcomes(plan, solve_best(plan, goal, command=command).pmfs)


def run_monte_carlo(plan: CompiledPlan, trials: int, seed: int | np.random.SeedSequence,
                    chunks: int = CHUNKS, progress: bool | None = None) -> Tallies:
    """Run the kernel: histograms ``damage`` (wounds lost), ``models_destroyed`` (and
    ``attacker_mortal_wounds`` when a weapon is [HAZARDOUS]), and the trials in which the
    unit was destroyed (``unit_destroyed``).

    A progress bar (see :mod:`mathhammer.core.progress`) counts the trials of finished
    chunks, read from the per-chunk histograms while the kernel runs: the kernel call is the
    same with or without it.
    """
    from mathhammer.wh40k.monte_carlo.cold_compile import compile_helpers_alongside

    compile_helpers_alongside()   # first: on a cold cache, the helpers compile meanwhile
    from mathhammer.core.threads import run_shares, thread_count
    from mathhammer.wh40k.monte_carlo.kernels import (Histograms, Scratch, run_chain_chunks,
                                                      run_chunks)

    from mathhammer.core.rng import chunk_streams   # numba: loaded when a run starts

    streams, per_chunk = chunk_streams(trials, seed, chunks)
    sizes = (plan.total_wounds + 1, plan.total_models + 1, plan.max_hazard_mortals + 1)
    hists = Histograms(*(np.zeros((chunks, n), dtype=np.int64) for n in sizes))
    max_pending = sum(plan.max_dice(b) for b in range(plan.n_batches)) * 7 \
        if plan.dw_at_unit_end else 1
    n_groups = plan.groups.shape[0]
    kernel = run_chain_chunks if plan.chains_only else run_chunks   # the same bits

    def share(first: int, step: int) -> None:
        # The thread's own copies of the tables and scratch: the kernel cannot allocate.
        scratch = Scratch(_scratch(streams.shape[1], np.uint64), _scratch(n_groups),
                          _scratch(n_groups), _scratch(n_groups), _scratch(7),
                          _scratch(2 * max_pending))
        kernel(first, step, streams, per_chunk, plan.kernel_arrays(), hists,
               Histograms(*(_scratch(n) for n in sizes)), scratch)

    watch(lambda: run_shares(share, thread_count(chunks)), lambda: hists.models.sum(), trials,
          "simulate", progress=progress)
    damage, models, hazard = (h.sum(axis=0) for h in hists)
    histograms = {"damage": damage, "models_destroyed": models}
    if plan.hazard_rolls:
        histograms["attacker_mortal_wounds"] = hazard
    destroyed = int(models[plan.total_models]) if len(models) > plan.total_models else 0
    return Tallies(trials, histograms, {"unit_destroyed": destroyed})


def _scratch(n: int, dtype: type = np.int64) -> np.ndarray:
    """``n`` zeros with 128 bytes of padding on each side.

    The kernel writes its scratch arrays on every trial; two threads' small arrays allocated
    side by side would share a cache line and slow both (measured: 2 threads slower than 1).
    """
    return np.zeros(n + 32, dtype=dtype)[16 : 16 + n]


def build_options(options: Mapping[str, Any]) -> tuple[Situation, Modifiers, Rules, bool]:
    """Split keyword options into :class:`Situation`, :class:`Modifiers` and :class:`Rules`.

    Raises
    ------
    OptionError
        For an unknown option (with a suggestion) or an impossible value.
    """
    if not options:
        return _DEFAULT_OPTIONS
    try:
        # the type too: 1, 1.0 and True are equal keys but not equally valid values
        key = tuple(sorted((k, type(v), v) for k, v in options.items()))
        hash(key)
    except TypeError:   # an unhashable value: checked (and refused) below
        return _build_options(options)
    return _built_options(key)


@lru_cache(maxsize=1024)
def _built_options(items: tuple[tuple[str, type, Any], ...]
                   ) -> tuple[Situation, Modifiers, Rules, bool]:
    """:func:`build_options` of hashable options, remembered (the option objects are frozen;
    a refusal raises every time)."""
    return _build_options({k: v for k, _, v in items})


def _build_options(options: Mapping[str, Any]) -> tuple[Situation, Modifiers, Rules, bool]:
    options = dict(options)
    situation = options.pop("situation", None) or _DEFAULT_OPTIONS[0]
    modifiers = options.pop("modifiers", None) or _DEFAULT_OPTIONS[1]
    rules = options.pop("rules", None) or _DEFAULT_OPTIONS[2]
    for given, cls, example in ((situation, Situation, "half_range=True"),
                                (modifiers, Modifiers, "hit_mod=1"), (rules, Rules, "edition=10")):
        if not isinstance(given, cls):
            raise OptionError(f"{cls.__name__.lower()}={given!r:.60} must be a {cls.__name__}; "
                              f"or give its fields as keywords, e.g. {example}")
    monster_vehicle = switch(options.pop("attacker_monster_vehicle", False),
                             "attacker_monster_vehicle")
    groups: dict[str, dict[str, Any]] = {"situation": {}, "modifiers": {}, "rules": {}}
    for key, value in options.items():
        if key in SITUATION_FIELDS:
            groups["situation"][key] = value
        elif key in MODIFIER_FIELDS:
            groups["modifiers"][key] = value
        elif key in RULE_FIELDS:
            groups["rules"][key] = value
        else:
            known = SITUATION_FIELDS | MODIFIER_FIELDS | RULE_FIELDS | OTHER_OPTIONS
            hint = did_you_mean(key, known).lower()
            raise OptionError(f"unknown option '{key}'{hint or '; see help(mathhammer.simulate)'}")
    for cls, group in ((Situation, "situation"), (Modifiers, "modifiers")):
        for key, value in groups[group].items():
            check_option_value(key, value, FIELD_TYPES[cls][key])
    try:
        situation = _changed(situation, groups["situation"])
        modifiers = _changed(modifiers, groups["modifiers"])
        rules = _changed(rules, groups["rules"])
    except TypeError as exc:  # pragma: no cover - guarded by the field checks above
        raise OptionError(str(exc)) from None
    return situation, modifiers, rules, monster_vehicle


def _changed(options: Any, fields: Mapping[str, Any]) -> Any:
    """``options`` with ``fields`` set; itself when they change nothing (``edition=11``,
    which every comparison passes, rebuilt three frozen objects per call)."""
    changes = {key: value for key, value in fields.items()
               if not (type(value) is type(current := getattr(options, key))
                       and value == current)}
    return dataclasses.replace(options, **changes) if changes else options


def parse_weapons(weapons: WeaponsLike) -> list[Weapon]:
    """Weapon lines or objects to a list of :class:`Weapon`; ``"@Name"`` (or a
    :class:`~mathhammer.wh40k.bsdata.Datasheet`) stands for a datasheet's default weapons
    (see :mod:`mathhammer.wh40k.bsdata.named`)."""
    if isinstance(weapons, (str, Weapon)) or names_datasheet(weapons):
        weapons = [weapons]  # type: ignore[list-item]
    if isinstance(weapons, (bytes, bytearray)) or not isinstance(weapons, Iterable):
        raise OptionError(f"weapons must be a weapon line, a Weapon or a list of them, not "
                          f"{type(weapons).__name__} {weapons!r:.60}")
    refuse_unordered(weapons, "weapons (resolved in order, wounds carrying over)")
    weapons = [line for w in weapons for line in _named_weapons(w)]
    parsed = [w if isinstance(w, Weapon) else
              _parsed_weapon(w) if isinstance(w, str) else parse_weapon(w) for w in weapons]
    if not parsed:
        raise OptionError("give at least one weapon line")
    return parsed


def names_datasheet(value: Any) -> bool:
    """Whether ``value`` names a datasheet of the user's BSData checkout (``"@Name"`` or a
    ``Datasheet``), without loading the reader for ordinary lines."""
    return (isinstance(value, str) and value.lstrip()[:1] == "@") or \
        type(value).__name__ == "Datasheet"


def datasheet_edition(weapons: Any, target: Any) -> int | None:
    """The edition of the BSData data the first ``@Name`` (or ``Datasheet``) among
    ``weapons`` and ``target`` comes from, or None when none names a datasheet: a question
    about datasheets is read by their edition's rules unless ``edition=`` says otherwise (as
    a roster is by its own)."""
    items = [weapons] if isinstance(weapons, str) or names_datasheet(weapons) else \
        list(weapons) if isinstance(weapons, (list, tuple)) else []
    for item in [*items, target]:
        if names_datasheet(item):
            from mathhammer.wh40k.bsdata.named import named_sheet

            return int(named_sheet(item).edition)
    return None


def _named_weapons(value: Any) -> list[Any]:
    if not names_datasheet(value):
        return [value]
    from mathhammer.wh40k.bsdata.named import named_weapon_lines

    return list(named_weapon_lines(value))


def named_target(value: Any) -> Any:
    """``value``, or for ``"@Name"`` / a ``Datasheet`` the unit's target line."""
    if not names_datasheet(value):
        return value
    from mathhammer.wh40k.bsdata.named import named_target_line

    return named_target_line(value)


def parse_target(target: str | TargetProfile, edition: int = 11) -> TargetProfile:
    """A target line, or a reference name such as ``"MEQ"`` or ``"10x TEQ"``, to a profile;
    ``"@Name"`` (or a ``Datasheet``) for a datasheet of the user's BSData checkout."""
    target = named_target(target)
    if isinstance(target, str):
        return _resolved_target(target, edition)
    from mathhammer.wh40k.targets import resolve_target

    return resolve_target(target, edition=edition)


def clear_caches() -> None:
    """Forget remembered weapon lines, target lines and exact-engine tables (to time a first
    answer, or to free memory); answers are the same either way."""
    from mathhammer.wh40k.exact_engine import chains as engine

    _parsed_weapon.cache_clear()
    _resolved_target.cache_clear()
    _built_options.cache_clear()
    engine.clear_caches()


@lru_cache(maxsize=1024)
def _parsed_weapon(line: Any) -> Weapon:
    """:func:`parse_weapon`, remembered: a line always reads the same (profiles are frozen)."""
    return parse_weapon(line)


@lru_cache(maxsize=1024)
def _resolved_target(text: str, edition: int) -> TargetProfile:
    """A target line or built-in reference name, remembered (the built-in library is fixed)."""
    from mathhammer.wh40k.targets import resolve_target

    return resolve_target(text, edition=edition)


def _fields(options: Situation | Modifiers | Rules) -> dict[str, Any]:
    """Field name -> value. Every field is a scalar, so no deep copy (``dataclasses.asdict``
    cost a third of a millisecond per call)."""
    return field_values(options)


# -- core's contract ---------------------------------------------------------------------------
class Question:
    """One 40k question as core's contract carries it: the parsed request, and its plans
    compiled when first asked for (the kernels' :attr:`plan` with sampling tables, the
    exact engine's remembered :attr:`exact_plan`)."""

    def __init__(self, weapons: WeaponsLike, target: str | TargetProfile,
                 options: dict[str, Any]) -> None:
        buffs = options.get("buffs")
        if "buffs" in options:
            options = {k: v for k, v in options.items() if k != "buffs"}
        self.weapons = parse_weapons(weapons)
        if "edition" not in options and "rules" not in options:
            data_edition = datasheet_edition(weapons, target)
            if data_edition is not None:
                options = {**options, "edition": data_edition}
        self.situation, self.modifiers, self.rules, self.monster_vehicle = \
            build_options(options)
        self.target = parse_target(target, self.rules.edition)
        self.buffs: dict[str, list[str]] = {}
        if buffs:
            from mathhammer.wh40k.buffs import buff_question

            buff_question(self, buffs)
        self._plans: dict[bool, CompiledPlan] = {}

    def _compiled(self, exact: bool) -> CompiledPlan:
        if exact not in self._plans:
            from mathhammer.wh40k.exact_engine.chains import compiled_plan

            compiler = compiled_plan if exact else compile_plan
            modifiers = self.modifiers
            if exact and _best_policy(modifiers):   # the policy search reads the
                modifiers = dataclasses.replace(   # laws of fresh rolls (never with
                    modifiers, reroll_damage="none", command_reroll="none")   # another re-roll)
            self._plans[exact] = compiler(
                self.weapons, self.target, self.situation, modifiers, self.rules,
                attacker_monster_vehicle=self.monster_vehicle, sampling_tables=not exact)
        return self._plans[exact]

    @property
    def plan(self) -> CompiledPlan:
        """The plan the kernels run (with sampling tables)."""
        return self._compiled(False)

    @property
    def exact_plan(self) -> CompiledPlan:
        """The plan the exact engine solves (remembered, read-only)."""
        return self._compiled(True)

    def inputs(self) -> dict[str, Any]:
        """The request as plain JSON-ready values (a result's ``inputs``)."""
        return {"weapons": [str(w) for w in self.weapons], "target": str(self.target),
                "situation": _fields(self.situation), "modifiers": _fields(self.modifiers),
                "rules": _fields(self.rules), **({"buffs": self.buffs} if self.buffs else {})}


class Wh40kGame(Game[Question]):
    """Warhammer 40,000 under core's contract (:class:`mathhammer.core.game.Game`): a unit's
    weapon lines against one target profile, by the kernels or the exact engines.
    :func:`simulate` and :func:`exact` are core's, through this class."""

    name = "wh40k"
    labels = LABELS
    metrics = {"expected_damage": ("mean", "damage"),
               "expected_models_destroyed": ("mean", "models_destroyed"),
               "p_unit_destroyed": ("probability", "unit_destroyed"),
               "expected_attacker_mortal_wounds": ("mean", "attacker_mortal_wounds")}

    def compile(self, weapons: WeaponsLike, target: str | TargetProfile, /,
                **options: Any) -> Question:
        return Question(weapons, target, options)

    def run_monte_carlo(self, question: Question, trials: int, seed: SeedLike, *,
                        progress: bool | None = None) -> Tallies:
        check_monte_carlo_size(question.plan, trials)
        return run_monte_carlo(question.plan, trials, seed, progress=progress)

    def run_exact(self, question: Question) -> Outcomes:
        if _best_policy(question.modifiers):
            return solve_best_rerolls(question.exact_plan, question.modifiers.reroll_goal,
                                      command=question.modifiers.command_reroll == "damage_best")
        return solve_exact(question.exact_plan)

    def inputs_of(self, question: Question, method: str) -> dict[str, Any]:
        return question.inputs()


#: Warhammer 40,000's side of the contract, for core's simulate, exact and compare.
GAME = Wh40kGame()
