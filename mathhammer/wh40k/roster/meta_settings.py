"""What every pairing of a meta matrix shares, and what it is made of: the settings, a unit
pairing to solve, a file left out, the plan rule said in every output.

Apart from :mod:`~mathhammer.wh40k.roster.meta` (reading the lists, the run) so that the
solving (:mod:`~mathhammer.wh40k.roster.meta_solve`) and the result
(:mod:`~mathhammer.wh40k.roster.meta_result`) take them without importing the run that uses
them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mathhammer.core.signatures import EXACT, check_method
from mathhammer.core.trials import check_seed, check_trials
from mathhammer.errors import OptionError

if TYPE_CHECKING:
    from mathhammer.wh40k.scenario.units import Unit

#: How each side's plan is made, said in every output.
PLAN_RULE = ("each unit at its own best target (highest expected points destroyed, then "
             "models destroyed), in each phase; units choose independently (no joint plan, "
             "no overkill between units)")
#: The phases analysed by default.
PHASES = ("shooting", "fight")
#: The figures kept of each unit pairing.
FIGURES = ("expected_damage", "expected_models_destroyed", "p_unit_destroyed")


@dataclasses.dataclass(frozen=True)
class Skipped:
    """A file of the folder that is not in the matrix, and why (a line naming the file)."""

    path: str
    reason: str


@dataclasses.dataclass(frozen=True)
class Settings:
    """What every pairing of a run shares: engine, trials, seed, weapon choice, phases and
    the checked situation / modifier / rule options."""

    method: str
    trials: int
    seed: int
    profiles: str
    phases: tuple[str, ...]
    options: Any   # the analysis's _Options

    @classmethod
    def build(cls, edition: int, method: str, trials: int, seed: int, profiles: str,
              phases: Iterable[str] | str, options: Mapping[str, Any]) -> Settings:
        from mathhammer.wh40k.roster.analyse import PROFILE_CHOICES, analysis_options

        method = check_method(method)
        trials = check_trials(trials) if method != EXACT else trials
        if profiles not in PROFILE_CHOICES:
            raise OptionError(f"profiles='{profiles}' must be 'best' or 'first'")
        if isinstance(phases, str):
            phases = phases.split(",")
        chosen = tuple(p.strip() for p in phases)
        for phase in chosen:
            if phase not in PHASES:
                raise OptionError(f"phase '{phase}' must be shooting or fight, e.g. "
                                  "--phase shooting,fight")
        if not chosen:
            raise OptionError("give at least one phase: shooting, fight")
        built = analysis_options({**options, "edition": options.get("edition") or edition})
        return cls(method, trials, check_seed(seed), profiles, tuple(dict.fromkeys(chosen)),
                   built)

    def key(self) -> tuple[Any, ...]:
        """The settings every pairing's digest includes (the seed only for Monte Carlo)."""
        seed = self.seed if self.method != EXACT else None
        trials = self.trials if self.method != EXACT else None
        return (self.method, trials, seed, self.profiles, self.options)


@dataclasses.dataclass(frozen=True)
class Pairing:
    """One unit pairing to solve: the attacker, the target (``_Target``), the phase, its
    digest and the roll grants of the attacker's buffs and Leaders (its lines carry the
    rest)."""

    unit: Unit
    target: Any
    phase: str
    key: str
    buffs: tuple[Any, ...] = ()
