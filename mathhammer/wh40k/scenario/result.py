"""What a scenario run answers: :class:`ScenarioResult`, the histograms of every unit and
every side at every checkpoint, holding a :class:`~mathhammer.core.result.Result` of
several subjects for the end of the scenario."""

from __future__ import annotations

import numbers
import re
import dataclasses
from dataclasses import dataclass
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from mathhammer.core.result import (MONTE_CARLO, Distribution, Result, binomial_stderr,
                                    seed_provenance, subject_key)
from mathhammer.errors import OptionError
from mathhammer.wh40k.scenario.layout import (U_MODEL_BINS, U_MODELS, U_SIDE, U_WOUND_BINS,
                                              U_WOUNDS, CompiledScenario)

if TYPE_CHECKING:   # pandas is imported where a frame is made: a report needs none (0.3 s)
    import pandas as pd

    from mathhammer.report.tables import Table

_ROUND_END = re.compile(r"round (?P<a>\d+) end|end of round (?P<b>\d+)")

#: Outcomes of every unit, and their words.
UNIT_OUTCOMES = {"models_destroyed": "models destroyed", "wounds_lost": "wounds lost"}
#: Events of every unit and every side, and their words.
UNIT_EVENTS = {"destroyed": "destroyed"}
SIDE_EVENTS = {"wiped_out": "wiped out"}


@dataclass(frozen=True, eq=False)
class ScenarioResult:
    """Per-unit and per-group distributions after every activation of every round.

    It holds the summed histograms of every checkpoint and, as :attr:`end`, a
    :class:`~mathhammer.core.result.Result` of several subjects: every unit's models
    destroyed and wounds lost at the end of the scenario (keys such as
    ``"Boyz: models_destroyed"``, see :func:`~mathhammer.core.result.subject_key`), every
    unit's P(destroyed) and every side's P(wiped out) by then. The result's attributes and
    reading methods (``distributions``, ``probabilities``, ``inputs``, ``labels``,
    ``mean``, ``probability``, :meth:`for_subject`, ``caption``...) read :attr:`end`;
    :meth:`at` gives every unit's outcomes at another checkpoint. The methods below read the
    histograms of every checkpoint: checkpoint ``i`` is the state after activation
    ``i % A`` of round ``i // A + 1`` (``A`` activations per round); the last checkpoint is
    the end.

    ``seed`` is an int (a ``SeedSequence``'s entropy, its spawn key in
    ``inputs["seed_spawn_key"]``), so :meth:`to_dict` is JSON whatever seed was given.

    Parameters
    ----------
    plan
        The compiled scenario.
    models, wounds, groups
        int64 ``[checkpoints, bins]``: trials by models destroyed, wounds lost and models
        destroyed per model group, at each checkpoint (read-only).
    sides
        int64 ``[sides, rounds + 1]``: trials by the round each side was wiped out in
        (column 0: never).
    end
        Every unit's and side's outcomes at the end, with the run's provenance.
    """

    plan: CompiledScenario
    models: np.ndarray
    wounds: np.ndarray
    groups: np.ndarray
    sides: np.ndarray
    end: Result

    def __post_init__(self) -> None:
        for name in ("models", "wounds", "groups", "sides"):   # read-only, as a Result's
            array = getattr(self, name)
            if isinstance(array, np.ndarray) and array.flags.writeable:
                array = array.copy()
                array.flags.writeable = False
                object.__setattr__(self, name, array)

    @classmethod
    def from_histograms(cls, plan: CompiledScenario, trials: int,
                        seed: int | np.random.SeedSequence, models: np.ndarray,
                        wounds: np.ndarray, groups: np.ndarray, sides: np.ndarray
                        ) -> ScenarioResult:
        """The result of ``trials`` trials run with ``seed``, from the summed histograms of
        :func:`~mathhammer.wh40k.scenario.api.run_scenario_monte_carlo`."""
        entropy, spawn_key = seed_provenance(seed)
        n = plan.activations.shape[0]
        inputs: dict[str, Any] = {"subject": ", ".join(plan.unit_names),
                                  "situation": f"{plan.rounds} round(s) of {n} activation(s)"}
        if spawn_key:
            inputs["seed_spawn_key"] = spawn_key
        labels = {subject_key(u, k): f"{u}: {words}" for u in plan.unit_names
                  for k, words in {**UNIT_OUTCOMES, **UNIT_EVENTS}.items()}
        labels.update({subject_key(s, k): f"{s}: {words}" for s in plan.side_names
                       for k, words in SIDE_EVENTS.items()})
        provenance = Result(method=MONTE_CARLO, distributions={}, trials=trials, seed=entropy,
                            inputs=inputs, labels=labels)
        bare = cls(plan, models, wounds, groups, sides, provenance)
        distributions, probabilities = bare._subjects_at(bare.checkpoints - 1)
        for s, side in enumerate(plan.side_names):
            probabilities[subject_key(side, "wiped_out")] = float(sides[s, 1:].sum() / trials)
        return dataclasses.replace(bare, end=dataclasses.replace(
            provenance, distributions=distributions, probabilities=probabilities))

    # -- the end of the scenario: the core Result it holds ---------------------------------
    @property
    def method(self) -> str:
        return self.end.method

    @property
    def distributions(self) -> Mapping[str, Distribution]:
        return self.end.distributions

    @property
    def probabilities(self) -> Mapping[str, float]:
        return self.end.probabilities

    @property
    def trials(self) -> int | None:
        return self.end.trials

    @property
    def seed(self) -> int | list[int] | None:
        return self.end.seed

    @property
    def inputs(self) -> Mapping[str, Any]:
        return self.end.inputs

    @property
    def labels(self) -> Mapping[str, str]:
        return self.end.labels

    @property
    def outcomes(self) -> tuple[str, ...]:
        return self.end.outcomes

    @property
    def engine_note(self) -> str:
        return self.end.engine_note

    @property
    def situation(self) -> str:
        return self.end.situation

    @property
    def caption(self) -> str:
        return self.end.caption

    @property
    def subject(self) -> str:
        return self.end.subject

    def for_subject(self, subject: str) -> Result:
        """One unit's or side's outcomes at the end (see
        :meth:`~mathhammer.core.result.Result.for_subject`)."""
        return self.end.for_subject(subject)

    def distribution(self, outcome: str) -> Distribution:
        return self.end.distribution(outcome)

    def label(self, outcome: str) -> str:
        return self.end.label(outcome)

    def mean(self, outcome: str) -> float:
        return self.end.mean(outcome)

    def stderr(self, outcome: str) -> float | None:
        return self.end.stderr(outcome)

    def quantile(self, outcome: str, q: float) -> int:
        return self.end.quantile(outcome, q)

    def pmf(self, outcome: str) -> pd.Series:
        return self.end.pmf(outcome)

    def at_least(self, outcome: str) -> pd.Series:
        return self.end.at_least(outcome)

    def probability(self, event: str) -> float:
        return self.end.probability(event)

    def probability_stderr(self, event: str) -> float | None:
        return self.end.probability_stderr(event)

    # -- every checkpoint ----------------------------------------------------------------
    def _subjects_at(self, cp: int) -> tuple[dict[str, Distribution], dict[str, float]]:
        distributions: dict[str, Distribution] = {}
        probabilities: dict[str, float] = {}
        for unit in self.units:
            distributions[subject_key(unit, "models_destroyed")] = \
                self.models_destroyed(unit, cp)
            distributions[subject_key(unit, "wounds_lost")] = self.wounds_lost(unit, cp)
            probabilities[subject_key(unit, "destroyed")] = self.destroyed(unit, cp)
        return distributions, probabilities

    def at(self, checkpoint: int | str | None = None) -> Result:
        """Every unit's outcomes at ``checkpoint`` (an index, a name such as ``"round 1
        end"``, or ``None`` for the end) as a :class:`~mathhammer.core.result.Result`."""
        cp = self._checkpoint(checkpoint)
        distributions, probabilities = self._subjects_at(cp)
        inputs = {**self.inputs, "situation": f"{self.inputs['situation']}; "
                                               f"{self.checkpoint_name(cp)}"}
        return Result(method=self.method, distributions=distributions,
                      probabilities=probabilities, trials=self.trials, seed=self.seed,
                      inputs=inputs, labels=self.end.labels)

    @property
    def trials_run(self) -> int:
        """The trials run (a scenario's result is always Monte Carlo)."""
        return int(self.trials or 0)

    @property
    def units(self) -> tuple[str, ...]:
        return self.plan.unit_names

    @property
    def checkpoints(self) -> int:
        return self.plan.checkpoints

    def _unit_row(self, unit: str) -> int:
        try:
            return self.plan.unit_names.index(unit)
        except ValueError:
            raise OptionError(f"no unit {unit!r:.60} in this scenario; units: "
                              f"{', '.join(self.plan.unit_names)}") from None

    def _checkpoint(self, checkpoint: int | str | None) -> int:
        if checkpoint is None:
            return self.checkpoints - 1
        if isinstance(checkpoint, str):
            return self._named_checkpoint(checkpoint)
        # a whole number only: int(1.5) is 1, a checkpoint the caller did not ask for
        if isinstance(checkpoint, bool) or not isinstance(checkpoint, numbers.Integral):
            raise OptionError(f"checkpoint {checkpoint!r:.40} is not an activation index: give "
                              f"a whole number 0..{self.checkpoints - 1}, a name such as "
                              "'round 1 end', or None for the end")
        if not -self.checkpoints <= int(checkpoint) < self.checkpoints:
            raise OptionError(f"checkpoint {checkpoint!r} is out of range: give 0.."
                              f"{self.checkpoints - 1} or a name such as 'round 1 end'")
        return int(checkpoint) % self.checkpoints

    def _named_checkpoint(self, text: str) -> int:
        """``"round 2 end"`` / ``"end of round 2"`` / ``"end"`` -> checkpoint index."""
        words = " ".join(text.lower().replace(",", " ").split())
        if words in ("end", "the end"):
            return self.checkpoints - 1
        match = _ROUND_END.fullmatch(words)
        if match is None:
            raise OptionError(f"checkpoint '{text}': write 'round R end' (or 'end of round "
                              "R', or 'end') or give an activation index")
        rnd = int(match.group("a") or match.group("b"))
        if not 1 <= rnd <= self.plan.rounds:
            raise OptionError(f"checkpoint '{text}': the scenario has {self.plan.rounds} "
                              f"round(s); give round 1..{self.plan.rounds}")
        return rnd * self.plan.activations.shape[0] - 1

    def checkpoint_name(self, checkpoint: int | str | None = None) -> str:
        """``"round 2 end"`` for the last activation of a round, else ``"round 2, after
        Intercessors shoots Boyz"``."""
        cp = self._checkpoint(checkpoint)
        rnd, label = self.checkpoint_label(cp)
        if cp % self.plan.activations.shape[0] == self.plan.activations.shape[0] - 1:
            return f"round {rnd} end"
        return f"round {rnd}, after {label}"

    def _named(self, dist: Distribution, label: str, who: str, cp: int) -> Distribution:
        return dist.named(label=label, subject=f"{who}, {self.checkpoint_name(cp)}",
                          note=self.engine_note)

    def models_destroyed(self, unit: str, checkpoint: int | str | None = None) -> Distribution:
        """Models of ``unit`` destroyed by ``checkpoint``: an index, a name such as ``"round
        2 end"``, or ``None`` for the end."""
        u = self._unit_row(unit)
        cp = self._checkpoint(checkpoint)
        row = self.plan.units[u]
        start = row[U_MODEL_BINS]
        counts = self.models[cp, start:start + row[U_MODELS] + 1]
        return self._named(Distribution.from_counts(counts), "models destroyed", unit, cp)

    def wounds_lost(self, unit: str, checkpoint: int | str | None = None) -> Distribution:
        """Wounds ``unit`` lost by ``checkpoint`` (as for :meth:`models_destroyed`)."""
        u = self._unit_row(unit)
        cp = self._checkpoint(checkpoint)
        row = self.plan.units[u]
        start = row[U_WOUND_BINS]
        counts = self.wounds[cp, start:start + row[U_WOUNDS] + 1]
        return self._named(Distribution.from_counts(counts), "wounds lost", unit, cp)

    def group_models_destroyed(self, unit: str, group: str,
                               checkpoint: int | str | None = None) -> Distribution:
        """Models of one model group of ``unit`` destroyed by ``checkpoint``."""
        cp = self._checkpoint(checkpoint)
        if not isinstance(group, str):
            raise OptionError(f"group must be the name of a model group (text), not "
                              f"{type(group).__name__} {group!r:.40}")
        for i, (u, g) in enumerate(self.plan.group_names):
            if u == unit and g.lower() == group.lower():
                _, models, start = self.plan.report_groups[i]
                counts = self.groups[cp, start:start + models + 1]
                return self._named(Distribution.from_counts(counts),
                                   f"{g} models destroyed", unit, cp)
        self._unit_row(unit)   # an unknown unit: named, with the units there are
        groups = [g for u, g in self.plan.group_names if u == unit]
        raise OptionError(f"unit '{unit}' has no model group {group!r:.60}; its groups: "
                          f"{', '.join(groups) or 'none'}")

    def destroyed(self, unit: str, checkpoint: int | str | None = None) -> float:
        """P(every model of ``unit`` destroyed by ``checkpoint``)."""
        dist = self.models_destroyed(unit, checkpoint)
        n = int(self.plan.units[self._unit_row(unit), U_MODELS])
        return float(dist.probabilities[n]) if len(dist.probabilities) > n else 0.0

    def side_units(self, side: str) -> list[str]:
        """The units of ``side``, in the scenario's order (a side is named by them in the
        report: side "A" alone tells a reader nothing)."""
        from mathhammer.wh40k.scenario.layout import U_SIDE

        index = self.plan.side_names.index(side)
        return [name for i, name in enumerate(self.plan.unit_names)
                if int(self.plan.units[i, U_SIDE]) == index]

    def wiped_out(self) -> pd.DataFrame:
        """Per side: P(wiped out in round r) for each round, and P(still standing)."""
        import pandas as pd

        return pd.DataFrame(self._wiped_out_rows())

    def _wiped_out_rows(self) -> list[dict[str, Any]]:
        rows = []
        for s, side in enumerate(self.plan.side_names):
            counts = self.sides[s]
            for r in range(1, self.plan.rounds + 1):
                rows.append({"side": side, "round": r, "p_wiped_out": counts[r] / self.trials,
                             "p_wiped_out_by_then": counts[1:r + 1].sum() / self.trials})
        return rows

    def checkpoint_label(self, checkpoint: int) -> tuple[int, str]:
        n = self.plan.activations.shape[0]
        return checkpoint // n + 1, self.plan.activation_labels[checkpoint % n]

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per unit x checkpoint x outcome value."""
        import pandas as pd

        parts = []
        for cp in range(self.checkpoints):
            rnd, label = self.checkpoint_label(cp)
            for unit in self.units:
                for outcome, dist in (("models_destroyed", self.models_destroyed(unit, cp)),
                                      ("wounds_lost", self.wounds_lost(unit, cp))):
                    parts.append(pd.DataFrame({
                        "checkpoint": cp, "round": rnd, "activation": label, "unit": unit,
                        "group": "", "outcome": outcome, "value": dist.support,
                        "probability": dist.probabilities}))
            for unit, group in self.plan.group_names:
                dist = self.group_models_destroyed(unit, group, cp)
                parts.append(pd.DataFrame({
                    "checkpoint": cp, "round": rnd, "activation": label, "unit": unit,
                    "group": group, "outcome": "models_destroyed", "value": dist.support,
                    "probability": dist.probabilities}))
        return pd.concat(parts, ignore_index=True)

    def summary(self) -> pd.DataFrame:
        """Per unit at the end: mean models destroyed and wounds lost (± stderr), P(destroyed)."""
        import pandas as pd

        rows = []
        for unit in self.units:
            m, w = self.models_destroyed(unit), self.wounds_lost(unit)
            p = self.destroyed(unit)
            rows.append({"unit": unit, "models_destroyed": m.mean, "models_stderr": m.stderr,
                         "wounds_lost": w.mean, "wounds_stderr": w.stderr, "p_destroyed": p,
                         "p_destroyed_stderr": binomial_stderr(p, self.trials_run)})
        return pd.DataFrame(rows).set_index("unit")

    def survival(self) -> pd.DataFrame:
        """Per unit and round: P(unit still has models) at the end of the round (round 0: the
        start), with its Monte Carlo standard error (the data interface of
        :func:`mathhammer.charts.survival`)."""
        import pandas as pd

        n = self.plan.activations.shape[0]
        rows = []
        for unit in self.units:
            rows.append({"unit": unit, "round": 0, "p_alive": 1.0, "stderr": 0.0})
            for r in range(self.plan.rounds):
                p = 1.0 - self.destroyed(unit, r * n + n - 1)
                rows.append({"unit": unit, "round": r + 1, "p_alive": p,
                             "stderr": binomial_stderr(p, self.trials_run)})
        frame = pd.DataFrame(rows)
        frame.attrs["caption"] = self.engine_note
        return frame

    def plot(self, outcome: str = "damage", *, kind: str = "survival", ax: Any = None,
             **kwargs: Any) -> Any:
        """Per-round survival curves of every unit (``outcome`` and ``kind`` are accepted
        and ignored, for the command line's shared ``--plot``; ``title=`` is passed on)."""
        from mathhammer.charts import survival

        return survival(self.survival(), ax=ax, title=kwargs.get("title"))

    def table(self, digits: int = 3) -> Table:
        """Per unit at the end, ready to paste: mean models destroyed and wounds lost
        (± s.e.), P(destroyed) as a percentage, with the engine in the caption."""
        import pandas as pd

        from mathhammer.report.tables import Table, check_digits, format_estimate

        digits = check_digits(digits)
        rows = []
        for unit in self.units:
            m, w = self.models_destroyed(unit), self.wounds_lost(unit)
            p = self.destroyed(unit)
            rows.append({"unit": unit,
                         "models destroyed": format_estimate(m.mean, m.stderr, digits,
                                                             trials=self.trials),
                         "wounds lost": format_estimate(w.mean, w.stderr, digits,
                                                        trials=self.trials),
                         "P(destroyed)": format_estimate(
                             p, binomial_stderr(p, self.trials_run), digits, percent=True,
                             trials=self.trials)})
        return Table(pd.DataFrame(rows), self.caption)

    def to_markdown(self, digits: int = 3) -> str:
        """Markdown for articles: a caption line, the per-unit summary at the end, mean
        models destroyed per model group at the end of each round, then each activation
        (probabilities as percentages, ``digits`` decimals)."""
        import pandas as pd

        from mathhammer.report.tables import Table, check_digits, format_value

        digits = check_digits(digits)
        per_step = pd.DataFrame([
            {"after": self.checkpoint_name(cp),
             **{f"{u}: models destroyed": format_value(self.models_destroyed(u, cp).mean,
                                                       digits) for u in self.units},
             **{f"{u}: P(destroyed)": format_value(self.destroyed(u, cp), digits,
                                                   percent=True) for u in self.units}}
            for cp in range(self.checkpoints)])
        groups = self.group_table()
        for column in groups.columns[2:]:
            groups[column] = [format_value(v, digits) for v in groups[column]]
        return "\n\n".join([self.table(digits).to_markdown(),
                             "**Mean models destroyed per model group**",
                             Table(groups).to_markdown(),
                             "**After each activation**", Table(per_step).to_markdown()])

    def group_table(self) -> pd.DataFrame:
        """Mean models destroyed of every model group (a Leader in a bodyguard unit has his
        own row) at the end of each round, one column per round."""
        import pandas as pd

        return pd.DataFrame(self._group_rows())

    def _group_rows(self) -> list[dict[str, Any]]:
        rows = []
        for unit, group in self.plan.group_names:
            row: dict[str, Any] = {"unit": unit, "model group": group}
            for r in range(1, self.plan.rounds + 1):
                row[f"round {r} end"] = self.group_models_destroyed(unit, group,
                                                                    f"round {r} end").mean
            rows.append(row)
        return rows

    def _unit_block(self, unit: str, checkpoint: int) -> dict[str, Any]:
        groups = {}
        for u, g in self.plan.group_names:
            if u == unit:
                groups[g] = {"models_destroyed": _dist_json(
                    self.group_models_destroyed(unit, g, checkpoint))}
        return {"models_destroyed": _dist_json(self.models_destroyed(unit, checkpoint)),
                "wounds_lost": _dist_json(self.wounds_lost(unit, checkpoint)),
                "destroyed": self.destroyed(unit, checkpoint), "groups": groups}

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``mathhammer run --json``."""
        n = self.plan.activations.shape[0]
        out: dict[str, Any] = {"method": self.method, "trials": self.trials, "seed": self.seed}
        if self.inputs.get("seed_spawn_key"):
            out["seed_spawn_key"] = list(self.inputs["seed_spawn_key"])
        out["units"] = {u: self._unit_block(u, self.checkpoints - 1) for u in self.units}
        out["activations"] = [
            {"round": cp // n + 1, "activation": self.plan.activation_labels[cp % n],
             "units": {u: self._unit_block(u, cp) for u in self.units}}
            for cp in range(self.checkpoints)]
        out["rounds"] = [
            {"round": r + 1, "units": {u: self._unit_block(u, r * n + n - 1)
                                       for u in self.units}}
            for r in range(self.plan.rounds)]
        out["sides"] = {
            side: {"units": [u for u, i in zip(self.units, self.plan.units[:, U_SIDE])
                             if self.plan.side_names[i] == side],
                   "wiped_out_in_round": {str(r): self.sides[s][r] / self.trials
                                          for r in range(1, self.plan.rounds + 1)},
                   "standing": self.sides[s][0] / self.trials}
            for s, side in enumerate(self.plan.side_names)}
        return out

    def to_text(self, max_rows: int = 120) -> str:
        """The readable report of ``mathhammer run``: per unit after every activation, per
        model group at the end of every round, and when each side was wiped out
        (``max_rows``, a Result's, is not used: the report has no long tables)."""
        lines = [f"Engine: {self.caption}", ""]
        lines.append("Mean models destroyed (P(unit destroyed)):")
        lines.append(f"  {'after':<44} " + "  ".join(f"{u[:18]:>18}" for u in self.units))
        for cp in range(self.checkpoints):
            cells = "  ".join(
                f"{self.models_destroyed(u, cp).mean:7.2f} ({self.destroyed(u, cp):5.3f})"
                .rjust(18) for u in self.units)
            lines.append(f"  {self.checkpoint_name(cp)[:44]:<44} {cells}")
        lines += ["", "Mean models destroyed per model group:"]
        rounds = [f"round {r} end" for r in range(1, self.plan.rounds + 1)]
        lines.append(f"  {'unit: model group':<36} " + "  ".join(f"{r:>11}" for r in rounds))
        for row in self._group_rows():
            name = f"{row['unit']}: {row['model group']}"
            lines.append(f"  {name[:36]:<36} " + "  ".join(f"{row[r]:11.2f}" for r in rounds))
        lines += ["", "Side wiped out (probability by round):"]
        wiped = self._wiped_out_rows()
        named = {side: f"{side} ({', '.join(self.side_units(side))})"
                 for side in self.plan.side_names}
        width = min(max(len(n) for n in named.values()), 44)
        for side in self.plan.side_names:
            cells = ", ".join(f"round {row['round']}: {row['p_wiped_out']:.3f}"
                              for row in wiped if row["side"] == side)
            lines.append(f"  {named[side][:44]:<{width}} {cells}; still standing: "
                         f"{self.sides[self.plan.side_names.index(side)][0] / self.trials:.3f}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self.table().to_html()

    def __repr__(self) -> str:
        return (f"<ScenarioResult {self.engine_note}: {len(self.units)} units, "
                f"{self.checkpoints} checkpoints>")


def _dist_json(dist: Distribution) -> dict[str, Any]:
    return {"mean": dist.mean, "stderr": dist.stderr,
            "pmf": {str(k): float(p) for k, p in enumerate(dist.probabilities) if p > 0}}
