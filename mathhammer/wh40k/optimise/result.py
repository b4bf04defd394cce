"""What ``optimise`` returns: plans as orders, their values, margins, table, JSON, chart."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mathhammer.wh40k.optimise.objectives import Objective
from mathhammer.wh40k.optimise.search import Scored
from mathhammer.wh40k.optimise.space import Plan, Space

#: Plans listed by ``to_text``/``to_dict`` (the best and its runners-up).
SHOWN_PLANS = 5


@dataclass(frozen=True, eq=False)
class OptimiseResult:
    """The ranked plans of one optimisation.

    Attributes
    ----------
    engine
        ``exact`` or ``monte-carlo``: how plans were scored.
    method
        ``enumeration`` (every plan scored) or ``search`` (greedy + local search).
    optimal
        True when the best plan is proven best: exact scores of every plan.
    ranked
        Every scored plan, best first (Monte Carlo plans dropped by pruning come last,
        with their first-pass values).
    naive
        ``("everything at T", scored plan)`` for each target T: the plan as written with
        every weapon that may aim at T aimed at it.
    """

    space: Space
    objectives: list[Objective]
    engine: str
    method: str
    optimal: bool
    plan_count: int
    evaluated: int
    ranked: list[Scored]
    naive: list[tuple[str, Scored]]
    notes: list[str]
    trials: int | None
    seed: int

    @property
    def best(self) -> Scored:
        return self.ranked[0]

    @property
    def plans(self) -> list[Scored]:
        """Every scored plan, best first."""
        return self.ranked

    @property
    def value(self) -> float:
        """The best plan's value on the first objective."""
        return self.best.values[0][0]

    def objective_text(self) -> str:
        return ", then ".join(o.describe() for o in self.objectives)

    def orders(self, plan: Plan) -> list[dict[str, Any]]:
        """The plan as orders: ``{"attacker", "weapon", "count", "target", "profile",
        "group"}`` per share of a model group's weapon."""
        out = []
        for slot, allocation in zip(self.space.slots, plan.allocations):
            for (target, index), count in allocation:
                out.append({"attacker": slot.attacker, "weapon": slot.weapon.name,
                            "count": count, "target": target,
                            "profile": slot.profile(index).name or slot.weapon.name,
                            "group": slot.group, "activation": slot.activation + 1})
        return out

    def choices(self, plan: Plan) -> dict[str, Any]:
        """The plan's option values: ``{"activation 1 reroll_hits": "noncrit", ...}``."""
        return {(f"activation {o.activation + 1} {o.name}" if o.activation is not None
                 else o.name): v for o, v in zip(self.space.options, plan.options)}

    def describe(self, plan: Plan) -> str:
        """``"Marines: 5x Bolt rifle -> Termagants; Plasma gun (supercharge) -> Carnifex"``,
        activation by activation, then the options."""
        parts: dict[int, list[str]] = {}
        groups_per_weapon: dict[tuple[int, str], set[str]] = {}
        for slot in self.space.slots:
            groups_per_weapon.setdefault((slot.activation, slot.weapon.name), set()).add(
                slot.group)
        for slot, allocation in zip(self.space.slots, plan.allocations):
            several = len(groups_per_weapon[(slot.activation, slot.weapon.name)]) > 1
            for (target, index), count in allocation:
                label = slot.profile_label(index)
                name = slot.weapon.name + (f" ({label})" if label else "") + \
                    (f" [{slot.group}]" if several else "")
                parts.setdefault(slot.activation, []).append(
                    f"{count}x {name} -> {target}" if slot.models > 1 else f"{name} -> {target}")
        acts = self.space.scenario.activations
        order = self.space.activation_order(plan)
        text = " | ".join(f"{acts[k].attacker}: {'; '.join(parts[k])}" for k in order
                          if k in parts)
        options = "; ".join(f"{name} {value}" for name, value in self.choices(plan).items())
        if plan.order:
            options = "; ".join(filter(None, [options, "activation order: " + ", ".join(
                acts[k].label for k in order)]))
        return text + (f" | {options}" if options else "")

    def margin(self, other: Scored | None = None) -> tuple[float, float]:
        """The best plan's lead on the first objective over ``other`` (default: the
        runner-up), and its standard error (Monte Carlo: the two standard errors in
        quadrature, which overstates it when the plans' common random numbers make their
        results move together)."""
        if other is None:
            if len(self.ranked) < 2:
                return 0.0, 0.0
            other = self.ranked[1]
        (a, sa), (b, sb) = self.best.values[0], other.values[0]
        return a - b, math.hypot(sa, sb)

    def _entry(self, scored: Scored, label: str | None = None) -> dict[str, Any]:
        value, stderr = scored.values[0]
        out: dict[str, Any] = {"orders": [{k: v for k, v in o.items() if k not in
                                           ("group", "activation")} | {"group": o["group"]}
                                          for o in self.orders(scored.plan)],
                               "choices": self.choices(scored.plan),
                               "activation_order": [
                                   self.space.scenario.activations[k].label
                                   for k in self.space.activation_order(scored.plan)],
                               "value": value,
                               "stderr": stderr, "method": self.engine,
                               "description": self.describe(scored.plan)}
        if len(scored.values) > 1:
            out["values"] = [{"value": v, "stderr": s} for v, s in scored.values]
        if scored.trials is not None:
            out["trials"] = scored.trials
        if label:
            out["label"] = label
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``mathhammer optimise --json``: ``objective``, ``optimal``, ``method``,
        ``plans`` (best first) and the margins, naive plans and notes."""
        lead, lead_se = self.margin()
        return {"objective": self.objective_text(),
                "objectives": [{"kind": o.kind, "unit": o.unit, "side": o.side, "k": o.k}
                               for o in self.objectives],
                "optimal": self.optimal, "method": self.method, "engine": self.engine,
                "plans_in_space": self.plan_count, "plans_scored": self.evaluated,
                "trials": self.trials, "seed": self.seed if self.trials else None,
                "plans": [self._entry(s) for s in self.ranked[:SHOWN_PLANS]],
                "margin": {"value": lead, "stderr": lead_se},
                "naive": [self._entry(s, label) for label, s in self.naive],
                "notes": self.notes}

    def to_frame(self) -> pd.DataFrame:
        """One row per shown plan (and naive plan) and unit: mean models destroyed with its
        standard error, and the plan's objective value."""
        rows = []
        units = list(self.space.targets())
        shown = [(f"#{i + 1}", s) for i, s in enumerate(self.ranked[:SHOWN_PLANS])]
        for label, scored in shown + list(self.naive):
            value, stderr = scored.values[0]
            for unit in units:
                mean, se = scored.outcome.models(unit)
                rows.append({"plan": label, "orders": self.describe(scored.plan),
                             "unit": unit, "expected_models_destroyed": mean,
                             "models_stderr": se, "objective": self.objective_text(),
                             "value": value, "stderr": stderr, "method": self.engine})
        return pd.DataFrame(rows)

    def to_text(self) -> str:
        """The readable report of ``mathhammer optimise``."""
        proven = "proven optimal" if self.optimal else "not proven optimal"
        how = (f"every one of the {self.plan_count:,} plans scored" if self.method ==
               "enumeration" else f"greedy + local search, {self.evaluated:,} of "
               f"{self.plan_count:,} plans scored")
        engine = "exact" if self.engine == "exact" else \
            f"Monte Carlo, {self.trials:,} trials per plan, seed {self.seed}"
        lines = [f"Objective: maximise {self.objective_text()}",
                 f"Method: {self.method} ({how}); {engine}; {proven}", ""]
        first_p = self.objectives[0].kind.startswith("p_")
        lines.append("Best plan:")
        lines.append(f"  {self.describe(self.best.plan)}")
        lines.append(f"  value {_value(self.best, self.objectives)}")
        if len(self.ranked) > 1:
            lead, lead_se = self.margin()
            lines.append(f"  lead over the runner-up: {_number(lead, lead_se, 3, first_p)}")
            lines += ["", "Runners-up:"]
            for i, scored in enumerate(self.ranked[1:SHOWN_PLANS], start=2):
                lines.append(f"  {i}. {_value(scored, self.objectives)}: "
                             f"{self.describe(scored.plan)}")
        if self.naive:
            lines += ["", "Everything at one target:"]
            for label, scored in self.naive:
                lead, lead_se = self.margin(scored)
                lines.append(f"  {label}: {_value(scored, self.objectives)} (best plan leads by "
                             f"{_number(lead, lead_se, 3, first_p)})")
        lines += ["", "Mean models destroyed per target:"]
        lines.append(self._unit_table())
        if self.notes:
            lines += ["", *(f"Note: {n}" for n in self.notes)]
        return "\n".join(lines)

    def _unit_table(self) -> str:
        frame = self.to_frame()
        table = frame.pivot_table(index="plan", columns="unit",
                                  values="expected_models_destroyed", sort=False)
        return table.to_string(float_format=lambda v: f"{v:.3f}")

    def to_markdown(self, digits: int = 3) -> str:
        """The plans as a Markdown table."""
        rows = [f"| plan | orders | {self.objective_text()} |", "|---|---|---|"]
        shown = [(f"#{i + 1}", s) for i, s in enumerate(self.ranked[:SHOWN_PLANS])]
        for label, scored in shown + list(self.naive):
            orders = self.describe(scored.plan).replace("|", "/")
            rows.append(f"| {label} | {orders} | {_value(scored, self.objectives, digits)} |")
        return "\n".join(rows)

    def plot(self, outcome: str | None = None, *, title: str | None = None,
             ax: Any = None) -> Any:
        """Bars of the objective for the best plans and the everything-at-one-target
        plans (Monte Carlo: ±2 s.e.), labelled with their orders."""
        from mathhammer.wh40k.optimise.chart import plans_chart

        return plans_chart(self, title_text=title, ax=ax)

    def __repr__(self) -> str:
        return (f"OptimiseResult({self.objective_text()}: {self.value:.4g} by "
                f"{self.describe(self.best.plan)}; {self.method}, {self.engine})")


def _number(value: float, stderr: float, digits: int = 3, probability: bool = False) -> str:
    """A plan's value by the one rule of tables and charts
    (:func:`mathhammer.report.tables.format_estimate`)."""
    from mathhammer.report.tables import format_estimate

    return format_estimate(value, stderr or None, digits, percent=probability)


def _value(scored: Scored, objectives: list[Objective], digits: int = 3) -> str:
    return ", then ".join(_number(v, s, digits, o.kind.startswith("p_"))
                          for (v, s), o in zip(scored.values, objectives))
