"""Warhammer 40,000 (11th and 10th edition) attack statistics, exact and by Monte Carlo.

The same calls as :mod:`mathhammer.warmachine` and :mod:`mathhammer.dust` (see the user
guide's "One shape for every game"), loaded lazily so the command line starts quickly:

- :func:`exact`, :func:`simulate`: one unit's weapons against one target.
- :func:`compare`, :func:`sweep`, :func:`results`: every attacker against every target (over
  the values of one parameter), the tidy frame of every game; ``method="auto"`` by default.
- :func:`run`: whole units, activations and battle rounds from a scenario.
- :func:`parse_weapon`, :func:`parse_target`, :class:`Weapon`, :class:`TargetProfile`,
  :class:`Situation`, :class:`Modifiers`, :class:`Rules`: lines, profiles and rule switches.
- :func:`parse_buff`, :class:`Buff`, :func:`load_buff_file`, :func:`attribution`: named buffs
  (army rules, stratagems, auras; ``buffs=[...]`` on every entry point) and what each is worth.

- :func:`parse_scenario`, :func:`load_scenario`, :class:`Scenario`, :class:`Activation`,
  :class:`Unit`...: whole units; :class:`Objective`, :class:`SearchOptions`: decisions
  (``mh.optimise``); :class:`Roster`, :class:`Datasheet`: army lists and units by name.

``import mathhammer as mh`` serves the most used of these as shortcuts (``mh.simulate``,
``mh.compare``, ``mh.run``...) plus army lists (``mh.load_roster``) and decisions
(``mh.optimise``), whose packages here (:mod:`~mathhammer.wh40k.roster`,
:mod:`~mathhammer.wh40k.optimise`) hold their names. Engines live in
:mod:`~mathhammer.wh40k.exact_engine` and :mod:`~mathhammer.wh40k.monte_carlo`; whole units
in :mod:`~mathhammer.wh40k.scenario`.
"""

from __future__ import annotations

from mathhammer.core.lazy import lazy_names
from mathhammer.core.subjects import register_subject_lines

_LAZY = {
    "simulate": "mathhammer.wh40k.api",
    "exact": "mathhammer.wh40k.api",
    "compare": "mathhammer.wh40k.comparisons",
    "sweep": "mathhammer.wh40k.comparisons",
    "results": "mathhammer.wh40k.comparisons",
    "run": "mathhammer.wh40k.scenario.api",
    "run_scripted": "mathhammer.wh40k.scenario.api",
    "ScenarioResult": "mathhammer.wh40k.scenario.api",
    "parse_weapon": "mathhammer.wh40k.parse",
    "parse_target": "mathhammer.wh40k.targets",
    "Weapon": "mathhammer.wh40k.profiles",
    "TargetProfile": "mathhammer.wh40k.profiles",
    "Situation": "mathhammer.wh40k.profiles",
    "Modifiers": "mathhammer.wh40k.profiles",
    "Rules": "mathhammer.wh40k.profiles",
    # named buffs: army rules, stratagems, auras (issue 35)
    "Buff": "mathhammer.wh40k.buffs",
    "parse_buff": "mathhammer.wh40k.buffs",
    "load_buff_file": "mathhammer.wh40k.buffs",
    "attribution": "mathhammer.wh40k.buff_attribution",
    # whole units and activations (mathhammer.wh40k.scenario)
    "parse_scenario": "mathhammer.wh40k.scenario.reader",
    "load_scenario": "mathhammer.wh40k.scenario.reader",
    "Scenario": "mathhammer.wh40k.scenario.model",
    "ScenarioRules": "mathhammer.wh40k.scenario.model",
    "Activation": "mathhammer.wh40k.scenario.activations",
    "WeaponChoice": "mathhammer.wh40k.scenario.activations",
    "Unit": "mathhammer.wh40k.scenario.units",
    "ModelGroup": "mathhammer.wh40k.scenario.units",
    "CarriedWeapon": "mathhammer.wh40k.scenario.units",
    "attach": "mathhammer.wh40k.scenario.units",
    # decisions (the function is mh.optimise: mathhammer.wh40k.optimise is its package)
    "Objective": "mathhammer.wh40k.optimise.objectives",
    "SearchOptions": "mathhammer.wh40k.optimise.settings",
    # army lists and units by name
    "load_roster": "mathhammer.wh40k.roster.api",
    "Roster": "mathhammer.wh40k.roster.api",
    "Datasheet": "mathhammer.wh40k.bsdata.index",
    "datasheets": "mathhammer.wh40k.bsdata.index",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_names(__name__, _LAZY)

# A 40k result's subject: its weapon lines against its target line.
register_subject_lines("wh40k", lambda inputs: (inputs.get("weapons"), inputs.get("target")))
