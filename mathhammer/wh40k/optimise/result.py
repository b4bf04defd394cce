"""What ``optimise`` returns: the best orders, their values, margins, table, JSON, chart."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import pandas as pd

from mathhammer.wh40k.optimise.objectives import Objective
from mathhammer.wh40k.optimise.search import Scored
from mathhammer.wh40k.optimise.space import Orders, Space

#: Orders listed by ``to_text``/``to_dict`` (the best and its runners-up).
SHOWN_ORDERS = 5


@dataclass(frozen=True, eq=False)
class OptimiseResult:
    """The ranked orders of one optimisation.

    Attributes
    ----------
    engine
        ``exact`` or ``monte-carlo``: how the orders were scored.
    method
        ``enumeration`` (every set of orders scored), ``branch and bound`` (the rest proven
        no better by a bound, :mod:`.branch_bound`) or ``search`` (greedy + local search).
    optimal
        True when the best orders are proven best: exact scores of every set of orders.
    orders_in_space
        How many sets of orders the scenario's open choices allow.
    ranked
        Every scored set of orders, best first (Monte Carlo orders dropped by pruning come
        last, with their first-pass values).
    naive
        ``("everything at T", scored orders)`` for each target T: the orders as written with
        every weapon that may aim at T aimed at it.
    """

    space: Space
    objectives: list[Objective]
    engine: str
    method: str
    optimal: bool
    orders_in_space: int
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
        """The old name of :attr:`ranked` ("plan" is kept for a compiled plan): it answers
        for one release with a DeprecationWarning."""
        warnings.warn("OptimiseResult.plans is deprecated and will be removed; use "
                      "OptimiseResult.ranked", DeprecationWarning, stacklevel=2)
        return self.ranked

    @property
    def plan_count(self) -> int:
        """The old name of :attr:`orders_in_space`: it answers for one release with a
        DeprecationWarning."""
        warnings.warn("OptimiseResult.plan_count is deprecated and will be removed; use "
                      "OptimiseResult.orders_in_space", DeprecationWarning, stacklevel=2)
        return self.orders_in_space

    @property
    def value(self) -> float:
        """The best orders' value on the first objective."""
        return self.best.values[0][0]

    def objective_text(self) -> str:
        return ", then ".join(o.describe() for o in self.objectives)

    def orders(self, orders: Orders) -> list[dict[str, Any]]:
        """The orders as rows: ``{"attacker", "weapon", "count", "target", "profile",
        "group"}`` per share of a model group's weapon."""
        out = []
        for slot, allocation in zip(self.space.slots, orders.allocations):
            for (target, index), count in allocation:
                out.append({"attacker": slot.attacker, "weapon": slot.weapon.name,
                            "count": count, "target": target,
                            "profile": slot.profile(index).name or slot.weapon.name,
                            "group": slot.group, "activation": slot.activation + 1})
        return out

    def choices(self, orders: Orders) -> dict[str, Any]:
        """The orders' option values: ``{"activation 1 reroll_hits": "noncrit", ...}``."""
        return {(f"activation {o.activation + 1} {o.name}" if o.activation is not None
                 else o.name): v for o, v in zip(self.space.options, orders.options)}

    def describe(self, orders: Orders) -> str:
        """``"Marines: 5x Bolt rifle -> Termagants; Plasma gun (supercharge) -> Carnifex"``,
        activation by activation, then the options."""
        parts: dict[int, list[str]] = {}
        groups_per_weapon: dict[tuple[int, str], set[str]] = {}
        for slot in self.space.slots:
            groups_per_weapon.setdefault((slot.activation, slot.weapon.name), set()).add(
                slot.group)
        for slot, allocation in zip(self.space.slots, orders.allocations):
            several = len(groups_per_weapon[(slot.activation, slot.weapon.name)]) > 1
            for (target, index), count in allocation:
                label = slot.profile_label(index)
                name = slot.weapon.name + (f" ({label})" if label else "") + \
                    (f" [{slot.group}]" if several else "")
                parts.setdefault(slot.activation, []).append(
                    f"{count}x {name} -> {target}" if slot.models > 1 else f"{name} -> {target}")
        acts = self.space.scenario.activations
        order = self.space.activation_order(orders)
        text = " | ".join(f"{acts[k].attacker}: {'; '.join(parts[k])}" for k in order
                          if k in parts)
        options = "; ".join(f"{name} {value}" for name, value in self.choices(orders).items())
        if orders.order:
            options = "; ".join(filter(None, [options, "activation order: " + ", ".join(
                acts[k].label for k in order)]))
        return text + (f" | {options}" if options else "")

    def margin(self, other: Scored | None = None) -> tuple[float, float]:
        """The best orders' lead on the first objective over ``other`` (default: the
        runner-up), and its standard error (Monte Carlo: the two standard errors in
        quadrature, which overstates it when the orders' common random numbers make their
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
                                          for o in self.orders(scored.orders)],
                               "choices": self.choices(scored.orders),
                               "activation_order": [
                                   self.space.scenario.activations[k].label
                                   for k in self.space.activation_order(scored.orders)],
                               "value": value,
                               "stderr": stderr, "method": self.engine,
                               "description": self.describe(scored.orders)}
        if len(scored.values) > 1:
            out["values"] = [{"value": v, "stderr": s} for v, s in scored.values]
        if scored.trials is not None:
            out["trials"] = scored.trials
        if label:
            out["label"] = label
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``mathhammer optimise --json``: ``objective``, ``optimal``, ``method``,
        ``ranked`` (the best orders first) and the margins, naive orders and notes."""
        lead, lead_se = self.margin()
        return {"objective": self.objective_text(),
                "objectives": [{"kind": o.kind, "unit": o.unit, "side": o.side, "k": o.k}
                               for o in self.objectives],
                "optimal": self.optimal, "method": self.method, "engine": self.engine,
                "orders_in_space": self.orders_in_space, "orders_scored": self.evaluated,
                "trials": self.trials, "seed": self.seed if self.trials else None,
                "ranked": [self._entry(s) for s in self.ranked[:SHOWN_ORDERS]],
                "margin": {"value": lead, "stderr": lead_se},
                "naive": [self._entry(s, label) for label, s in self.naive],
                "notes": self.notes}

    def to_frame(self) -> pd.DataFrame:
        """One row per shown set of orders (``candidate`` ``#1``, ``#2``... and the naive
        ``everything at T``) and unit: mean models destroyed with its standard error, and the
        orders' objective value."""
        rows = []
        units = list(self.space.targets())
        shown = [(f"#{i + 1}", s) for i, s in enumerate(self.ranked[:SHOWN_ORDERS])]
        for label, scored in shown + list(self.naive):
            value, stderr = scored.values[0]
            for unit in units:
                mean, se = scored.outcome.models(unit)
                rows.append({"candidate": label, "orders": self.describe(scored.orders),
                             "unit": unit, "expected_models_destroyed": mean,
                             "models_stderr": se, "objective": self.objective_text(),
                             "value": value, "stderr": stderr, "method": self.engine})
        return pd.DataFrame(rows)

    def to_text(self) -> str:
        """The readable report of ``mathhammer optimise``."""
        proven = "proven optimal" if self.optimal else "not proven optimal"
        how = (f"every one of the {self.orders_in_space:,} sets of orders scored"
               if self.method == "enumeration" else
               f"{self.evaluated:,} of {self.orders_in_space:,} sets of orders scored, every "
               "other bounded below the best" if self.method == "branch and bound" else
               f"greedy + local search, {self.evaluated:,} of {self.orders_in_space:,} sets of "
               "orders scored")
        engine = "exact" if self.engine == "exact" else \
            f"Monte Carlo, {self.trials:,} trials per set of orders, seed {self.seed}"
        lines = [f"Objective: maximise {self.objective_text()}",
                 f"Method: {self.method} ({how}); {engine}; {proven}", ""]
        first_p = self.objectives[0].kind.startswith("p_")
        lines.append("Best orders:")
        lines.append(f"  {self.describe(self.best.orders)}")
        lines.append(f"  value {_value(self.best, self.objectives)}")
        if len(self.ranked) > 1:
            lead, lead_se = self.margin()
            lines.append(f"  lead over the runner-up: {_number(lead, lead_se, 3, first_p)}")
            lines += ["", "Runners-up:"]
            for i, scored in enumerate(self.ranked[1:SHOWN_ORDERS], start=2):
                lines.append(f"  {i}. {_value(scored, self.objectives)}: "
                             f"{self.describe(scored.orders)}")
        if self.naive:
            lines += ["", "Everything at one target:"]
            for label, scored in self.naive:
                lead, lead_se = self.margin(scored)
                lines.append(f"  {label}: {_value(scored, self.objectives)} (the best orders lead "
                             f"by {_number(lead, lead_se, 3, first_p)})")
        lines += ["", "Mean models destroyed per target:"]
        lines.append(self._unit_table())
        if self.notes:
            lines += ["", *(f"Note: {n}" for n in self.notes)]
        return "\n".join(lines)

    def _unit_table(self) -> str:
        frame = self.to_frame()
        table = frame.pivot_table(index="candidate", columns="unit",
                                  values="expected_models_destroyed", sort=False)
        return table.to_string(float_format=lambda v: f"{v:.3f}")

    def to_markdown(self, digits: int = 3) -> str:
        """The ranked orders as a Markdown table."""
        rows = [f"| candidate | orders | {self.objective_text()} |", "|---|---|---|"]
        shown = [(f"#{i + 1}", s) for i, s in enumerate(self.ranked[:SHOWN_ORDERS])]
        for label, scored in shown + list(self.naive):
            orders = self.describe(scored.orders).replace("|", "/")
            rows.append(f"| {label} | {orders} | {_value(scored, self.objectives, digits)} |")
        return "\n".join(rows)

    def plot(self, outcome: str | None = None, *, title: str | None = None,
             ax: Any = None) -> Any:
        """Bars of the objective for the best orders and the everything-at-one-target
        orders (Monte Carlo: ±2 s.e.), labelled with their orders."""
        from mathhammer.wh40k.optimise.chart import orders_chart

        return orders_chart(self, title_text=title, ax=ax)

    def __repr__(self) -> str:
        return (f"OptimiseResult({self.objective_text()}: {self.value:.4g} by "
                f"{self.describe(self.best.orders)}; {self.method}, {self.engine})")


def _number(value: float, stderr: float, digits: int = 3, probability: bool = False) -> str:
    """The value of a set of orders by the one rule of tables and charts
    (:func:`mathhammer.report.tables.format_estimate`)."""
    from mathhammer.report.tables import format_estimate

    return format_estimate(value, stderr or None, digits, percent=probability)


def _value(scored: Scored, objectives: list[Objective], digits: int = 3) -> str:
    return ", then ".join(_number(v, s, digits, o.kind.startswith("p_"))
                          for (v, s), o in zip(scored.values, objectives))
