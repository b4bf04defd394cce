"""What the optimiser maximises, and its value on the outcome of one set of orders.

An :class:`Objective` names a quantity of a unit or of a side; an :class:`Outcome` (exact
distributions per unit, or a Monte Carlo :class:`~mathhammer.wh40k.scenario.api.ScenarioResult`)
gives its value and standard error. Several objectives are lexicographic: the first decides,
the next only among orders tied on the first (see :func:`lexicographic_best`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mathhammer.core.inputs import real_number, text
from mathhammer.errors import OptionError, did_you_mean

#: Objective kinds, with what they measure.
KINDS = {
    "expected_models_destroyed": "expected models destroyed",
    "expected_damage": "expected wounds lost",
    "p_unit_destroyed": "P(unit destroyed)",
    "p_at_least": "P(at least k models destroyed)",
    "expected_points_destroyed": "expected points destroyed",
}


@dataclass(frozen=True)
class Objective:
    """One quantity to maximise.

    Parameters
    ----------
    kind
        One of :data:`KINDS`.
    unit, side
        The unit or the side it is measured on (one of them; neither: every unit of the
        sides the orders attacks). ``p_unit_destroyed`` of a side is P(every unit of the side
        destroyed).
    k
        For ``p_at_least``: the number of models.
    weights
        For ``expected_points_destroyed``: points per model of a unit, overriding the
        scenario's points (e.g. ``{"Carnifex": 3}`` to value a Carnifex as three Termagants).
    """

    kind: str
    unit: str | None = None
    side: str | None = None
    k: int | None = None
    weights: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        text(self.unit, "an objective's unit", optional=True)
        text(self.side, "an objective's side", optional=True)
        _check_weights(self.weights)
        if not isinstance(self.kind, str) or self.kind not in KINDS:
            raise OptionError(f"objective '{self.kind}' is unknown"
                              f"{did_you_mean(str(self.kind), KINDS)}; use one of "
                              f"{', '.join(KINDS)}")
        if self.unit is not None and self.side is not None:
            raise OptionError("give an objective's unit or its side, not both")
        if self.kind == "p_at_least":
            if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
                raise OptionError(f"p_at_least needs k = a whole number of models, at least 1 "
                                  f"(got {self.k!r:.20})")
            if self.unit is None:
                raise OptionError("p_at_least is measured on one unit: give unit=NAME")
        elif self.k is not None:
            raise OptionError(f"k = {self.k!r:.20} is only for the p_at_least objective")

    def describe(self) -> str:
        """``"expected models destroyed of Termagants"``."""
        what = KINDS[self.kind].replace("k models", f"{self.k} models") if self.k else \
            KINDS[self.kind]
        if self.unit:
            return f"{what} of {self.unit}"
        return f"{what} of side {self.side}" if self.side else f"{what} of every target"


def _check_weights(weights: Any) -> None:
    """Refuse weights that are not ``(unit name, points per model)`` pairs."""
    if not isinstance(weights, tuple):
        raise OptionError(f"an objective's weights must be a tuple of (unit, points) pairs, "
                          f"not {type(weights).__name__} {weights!r:.40}")
    for pair in weights:
        if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)):
            raise OptionError(f"each of an objective's weights must be a (unit, points) "
                              f"pair, not {pair!r:.40}")
        real_number(pair[1], f"the weight of '{pair[0]}'", 0.0, 1e9)


class Outcome(Protocol):
    """What an objective reads from the outcome of a set of orders (both engines provide it)."""

    def models(self, unit: str) -> tuple[float, float]: ...          # mean, stderr
    def wounds(self, unit: str) -> tuple[float, float]: ...
    def p_destroyed(self, units: Sequence[str]) -> tuple[float, float]: ...  # all of them
    def p_at_least(self, unit: str, k: int) -> tuple[float, float]: ...
    def points(self, unit: str, weights: Mapping[str, float]) -> tuple[float, float]: ...


def units_measured(objective: Objective, sides: Mapping[str, str],
                   targets: Sequence[str]) -> list[str]:
    """The units an objective adds up: its unit, the units of its side, or ``targets``.

    Raises
    ------
    OptionError
        For an unknown unit or side, naming the known ones.
    """
    if objective.unit is not None:
        if objective.unit not in sides:
            raise OptionError(f"unknown unit '{objective.unit}'"
                              f"{did_you_mean(objective.unit, sides)}; units: "
                              f"{', '.join(sides)}")
        return [objective.unit]
    if objective.side is not None:
        names = [u for u, s in sides.items() if s == objective.side]
        if not names:
            known = sorted(set(sides.values()))
            raise OptionError(f"unknown side '{objective.side}'"
                              f"{did_you_mean(objective.side, known)}; sides: "
                              f"{', '.join(known)}")
        return names
    return list(targets)


def value_of(objective: Objective, outcome: Outcome, units: Sequence[str]
             ) -> tuple[float, float]:
    """The objective's value on ``outcome`` and its standard error (0 when exact).

    Sums over several units add standard errors in quadrature, as if the units' results
    were independent (they are, exactly, when no unit attacks back).
    """
    if objective.kind == "p_unit_destroyed":
        return outcome.p_destroyed(units)
    if objective.kind == "p_at_least":
        return outcome.p_at_least(units[0], int(objective.k or 1))
    parts = []
    for unit in units:
        if objective.kind == "expected_models_destroyed":
            parts.append(outcome.models(unit))
        elif objective.kind == "expected_damage":
            parts.append(outcome.wounds(unit))
        else:
            parts.append(outcome.points(unit, dict(objective.weights)))
    return sum(v for v, _ in parts), math.sqrt(sum(s * s for _, s in parts))


def lexicographic_best(values: Sequence[Sequence[tuple[float, float]]],
                       tolerance: float = 1e-9) -> list[int]:
    """Indices of ``values`` (one list of (value, stderr) per orders, an entry per
    objective) ranked best first, lexicographically.

    Orders within ``tolerance`` (plus two standard errors of the difference, for Monte
    Carlo values) of the best on the first objective count as tied there and are ranked by
    the next one; the rest follow, ranked the same way among themselves.
    """
    return _rank(list(range(len(values))), values, 0, tolerance)


def _rank(items: list[int], values, level: int, tolerance: float) -> list[int]:
    if len(items) <= 1 or level >= len(values[items[0]]):
        return items
    ordered = sorted(items, key=lambda i: -values[i][level][0])
    out: list[int] = []
    start = 0
    while start < len(ordered):  # runs of orders tied with the run's first, best first
        top, se_top = values[ordered[start]][level]
        end = start + 1
        while end < len(ordered) and top - values[ordered[end]][level][0] <= tolerance \
                + 2 * math.hypot(se_top, values[ordered[end]][level][1]):
            end += 1
        out += _rank(ordered[start:end], values, level + 1, tolerance)
        start = end
    return out
