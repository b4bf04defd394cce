"""The best Damage re-roll policy as a player reads it: which results to roll again, by the
wounds the model has left and the rolls still to come, and what it gains over the fixed
policies (issue 34).

The policy itself is found by :func:`mathhammer.wh40k.exact_engine.policies.solve_best`;
this module asks the question, lays the choices out as tables and writes them as text.

Examples
--------
>>> policy = best_damage_rerolls("Gun: A2 BSN/A S8 AP0 DD3 [TORRENT]", "2x T4 Sv- W3")
>>> round(policy.value, 4), round(policy.fixed["low"], 4)
(1.046, 0.9465)
>>> policy.grids()[0].frame.loc[1, "last roll"]   # a model on 1 wound dies to any result
'keep'
"""

from __future__ import annotations

import textwrap
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mathhammer.wh40k.profiles import REROLL_GOALS

#: The fixed policies the best one is measured against: Damage re-rolls of every roll, and
#: where a Command Re-roll goes (none, or the first Damage roll below the average).
FIXED_POLICIES: tuple[str, ...] = ("none", "ones", "low")
FIXED_COMMAND_POLICIES: tuple[str, ...] = ("none", "damage")
#: Longest line of :meth:`DamageRerollPolicy.text` (a terminal, a documentation page).
TEXT_WIDTH = 88
#: Rolls-to-come columns shown one by one; more are gathered in a last "N+ more" column.
SHOWN_TO_COME = 4
GOAL_WORDS = {"models_destroyed": "mean models destroyed", "damage": "mean wounds lost",
              "unit_destroyed": "chance the unit is destroyed"}


@dataclass(frozen=True)
class PolicyGrid:
    """The choices for one weapon's Damage roll: ``frame`` has a row per wounds left on the
    model and a column per rolls still to come in the batch, each cell the results to roll
    again (``keep``: none); ``exceptions`` the states where the choice differs from the
    cell's, by the models already destroyed."""

    title: str
    frame: pd.DataFrame
    exceptions: tuple[str, ...]


@dataclass(frozen=True)
class DamageRerollPolicy:
    """The best state-dependent Damage re-roll of one question, and the fixed ones beside it.

    Attributes
    ----------
    goal
        What the policy maximises (:data:`~mathhammer.wh40k.profiles.REROLL_GOALS`).
    command
        Whether the policy places one Command Re-roll (else every roll may be re-rolled).
    value
        The goal under the best policy.
    fixed
        The goal under each fixed policy, by name (``none``, ``ones``, ``low``; with
        ``command``: ``none`` and ``damage``, the first Damage roll below the average).
    decisions
        Every reachable choice, one row each: weapon, roll, models destroyed, wounds left on
        the model, rolls to come, the results re-rolled, the chance of meeting it.
    """

    goal: str
    value: float
    fixed: dict[str, float]
    decisions: pd.DataFrame
    command: bool = False

    @property
    def best_fixed(self) -> tuple[str, float]:
        """The fixed policy with the highest value, and that value."""
        name = max(self.fixed, key=self.fixed.__getitem__)
        return name, self.fixed[name]

    def grids(self) -> list[PolicyGrid]:
        """One :class:`PolicyGrid` per weapon and kind of Damage roll that has a choice."""
        what = "results that take the Command Re-roll" if self.command else \
            "results to roll again"
        return [_grid(f"{title}: {what}", rows)
                for title, rows in self.decisions.groupby("roll", sort=False)]

    def header(self) -> str:
        """What the tables say, in one sentence."""
        what = ("The Command Re-roll's best Damage roll" if self.command
                else "Best Damage re-rolls")
        which = ("while the Command Re-roll is in hand, each result below takes it"
                 if self.command else "each result below is rolled again")
        return (f"{what} for the {GOAL_WORDS[self.goal]} (exact): {which}, by the wounds the "
                "model has left (rows) and the batch's Damage rolls still to come after this "
                "one (columns); - never met.")

    def summary(self, digits: int = 3) -> list[str]:
        """Two lines: the goal under each policy, and the gain over the best fixed one."""
        name, value = self.best_fixed
        fixed = ", ".join(f"{k} {_fmt(v, digits)}" for k, v in self.fixed.items())
        return [f"{GOAL_WORDS[self.goal].capitalize()}: best {_fmt(self.value, digits)}; "
                f"fixed policies {fixed}.",
                f"Gain over the best fixed policy ({name}): "
                f"{_fmt(self.value - value, digits, signed=True)}."]

    def text(self, digits: int = 3) -> str:
        """The grids and the comparison with the fixed policies, for a terminal (lines of at
        most :data:`TEXT_WIDTH` characters but the tables')."""
        lines = textwrap.wrap(self.header(), TEXT_WIDTH)
        for grid in self.grids():
            lines += ["", grid.title, grid.frame.to_string()]
            lines += textwrap.wrap(f"* {'; '.join(grid.exceptions)}", TEXT_WIDTH,
                                   initial_indent="  ", subsequent_indent="    ") \
                if grid.exceptions else []
        lines.append("")
        for line in self.summary(digits):
            lines += textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="  ")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain values for JSON."""
        return {"goal": self.goal, "command": self.command, "value": self.value,
                "fixed": dict(self.fixed),
                "decisions": self.decisions.to_dict("records")}


def best_damage_rerolls(weapons: Any, target: Any, *, goal: str = "models_destroyed",
                        command: bool = False, **options: Any) -> DamageRerollPolicy:
    """The best Damage re-roll of ``weapons`` against ``target`` for ``goal``.

    Parameters
    ----------
    weapons, target, options
        As :func:`mathhammer.exact` takes them (``reroll_damage``, ``command_reroll`` and
        ``reroll_goal`` are set here).
    goal
        ``"models_destroyed"`` (mean, the default), ``"damage"`` (mean wounds lost) or
        ``"unit_destroyed"`` (the chance).
    command
        False: every Damage roll may be re-rolled (``reroll_damage="best"``); True: one
        Command Re-roll, on the Damage roll where it gains most
        (``command_reroll="damage_best"``).

    Raises
    ------
    OptionError, UnsupportedError
        As :func:`mathhammer.exact`, in one line.
    """
    from mathhammer.wh40k.api import GAME, exact
    from mathhammer.wh40k.exact_engine.policies import solve_best

    options = {k: v for k, v in options.items()
               if k not in ("reroll_damage", "reroll_goal", "command_reroll")}
    name, best_name, policies = (("command_reroll", "damage_best", FIXED_COMMAND_POLICIES)
                                 if command else ("reroll_damage", "best", FIXED_POLICIES))
    question = GAME.compile(weapons, target, reroll_goal=goal, **{name: best_name}, **options)
    best = solve_best(question.exact_plan, goal, command=command)
    fixed = {p: _goal_value(exact(weapons, target, **{name: p}, **options), goal)
             for p in policies}
    return DamageRerollPolicy(goal, best.value, fixed, _decisions(question.exact_plan, best),
                              command)


def _goal_value(result: Any, goal: str) -> float:
    if goal == "unit_destroyed":
        return result.probability("unit_destroyed")
    return result.mean(goal)


def _decisions(plan: Any, best: Any) -> pd.DataFrame:
    from mathhammer.wh40k.compile import G_WOUNDS

    wounds = int(plan.groups[0, G_WOUNDS])
    rows = []
    for d in best.decisions:
        weapon = plan.weapons[d.batch]
        roll = f"{weapon.name or 'weapon'} ({weapon.damage})"
        if d.roll != "damage":
            roll += f", {d.roll}"
        rows.append({"roll": roll, "models_destroyed": d.wounds_lost // wounds,
                     "wounds_left": wounds - d.wounds_lost % wounds,
                     "rolls_to_come": d.rolls_to_come, "reroll": _results(d.rerolled),
                     "reach": d.reach})
    return pd.DataFrame(rows, columns=["roll", "models_destroyed", "wounds_left",
                                       "rolls_to_come", "reroll", "reach"])


def _results(values: tuple[int, ...]) -> str:
    """``(1, 2, 3, 5)`` as ``"1-3, 5"``; none as ``"keep"``."""
    if not values:
        return "keep"
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _column(to_come: int) -> str:
    if to_come >= SHOWN_TO_COME:
        return f"{SHOWN_TO_COME}+ more"
    return "last roll" if to_come == 0 else f"{to_come} more"


def _grid(title: str, rows: pd.DataFrame) -> PolicyGrid:
    """The most likely choice per (wounds left, column); the others as exceptions."""
    reach: dict[tuple[int, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    where: dict[tuple[int, str, str], set[int]] = defaultdict(set)
    for row in rows.itertuples(index=False):
        key = (row.wounds_left, _column(row.rolls_to_come))
        reach[key][row.reroll] += row.reach
        where[key + (row.reroll,)].add(row.models_destroyed)
    columns = [_column(n) for n in sorted(set(rows.rolls_to_come.clip(upper=SHOWN_TO_COME)))]
    left = sorted({k[0] for k in reach}, reverse=True)
    frame = pd.DataFrame("-", index=pd.Index(left, name="wounds left"), columns=columns)
    exceptions = []
    for (wounds_left, column), choices in reach.items():
        usual = max(choices, key=choices.__getitem__)
        frame.loc[wounds_left, column] = usual + ("*" if len(choices) > 1 else "")
        for other in sorted(set(choices) - {usual}):
            models = ", ".join(str(m) for m in sorted(where[(wounds_left, column, other)]))
            plural = "" if models == "1" else "s"
            exceptions.append(f"{wounds_left} wounds left, {column}, with {models} "
                              f"model{plural} destroyed: {other}")
    return PolicyGrid(title, frame, tuple(exceptions))


def _fmt(value: float, digits: int, signed: bool = False) -> str:
    return f"{value:{'+' if signed else ''}.{digits}g}"


__all__ = ["DamageRerollPolicy", "FIXED_POLICIES", "PolicyGrid", "REROLL_GOALS",
           "best_damage_rerolls"]

