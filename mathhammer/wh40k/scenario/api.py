"""Run whole-unit scenarios: :func:`run` and the :class:`ScenarioResult` it returns."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from mathhammer.core.limits import check_run_work
from mathhammer.core.progress import check_progress, watch
from mathhammer.core.result import MONTE_CARLO, Distribution
from mathhammer.core.tables import Table
from mathhammer.core.trials import (CHUNKS, DEFAULT_SCENARIO_TRIALS, check_seed, check_trials,
                                    chunk_streams)
from mathhammer.errors import MathhammerError, OptionError
from mathhammer.wh40k.compile import N_WEAPONS
from mathhammer.wh40k.scenario.compile import (K_FIRST_BATCH, K_N_BATCHES, U_MODEL_BINS, U_MODELS,
                                               U_WOUND_BINS, U_WOUNDS, ScenarioPlan,
                                               compile_scenario, wound_dice_bound)
from mathhammer.wh40k.scenario.model import Scenario
from mathhammer.wh40k.scenario.reader import load_scenario


_ROUND_END = re.compile(r"round (?P<a>\d+) end|end of round (?P<b>\d+)")


def run(scenario: Scenario | str | Path, trials: int = DEFAULT_SCENARIO_TRIALS,
        seed: int | np.random.SeedSequence = 1, *,
        progress: bool | None = None) -> ScenarioResult:
    """Simulate a scenario: every activation, every battle round, ``trials`` times.

    Parameters
    ----------
    scenario
        A :class:`Scenario` or the path of a scenario TOML file.
    trials, seed
        Monte Carlo trials and seed (bit-identical results for a seed on any thread count).
    progress
        A progress bar on stderr for a run longer than about 2 s: ``None`` (default) when
        stderr is a terminal or in a notebook, ``True``/``False`` to force it. It never
        changes the result.

    Returns
    -------
    ScenarioResult
        Distributions of models destroyed and wounds lost per unit and per model group, after
        every activation of every round, and when each side was wiped out.
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    trials = check_trials(trials)
    seed = check_seed(seed)
    check_progress(progress)
    try:
        plan = compile_scenario(scenario)
    except MathhammerError as exc:  # name the file and line of the activation, when known
        located = scenario.locate(str(exc))
        if located == str(exc):
            raise
        raise type(exc)(located) from None
    check_scenario_work(plan, trials, scenario.origins)
    hists = run_scenario_monte_carlo(plan, trials, seed, progress=progress)
    return ScenarioResult(plan=plan, trials=trials, seed=seed, models=hists[0],
                          wounds=hists[1], groups=hists[2], sides=hists[3])


#: Most dice one scenario trial may roll (every attack at its maximum), as for ``simulate``.
MAX_SCENARIO_DICE_PER_TRIAL = 10_000_000
#: Most memory the per-chunk histograms of one run may take.
MAX_SCENARIO_HISTOGRAM_BYTES = 512 * 2**20


def activation_dice(plan: ScenarioPlan) -> list[int]:
    """Most wound dice each activation can roll (every attack die at its maximum)."""
    largest_unit = int(plan.units[:, U_MODELS].max())
    out = []
    for k in range(plan.activations.shape[0]):
        first = plan.activations[k, K_FIRST_BATCH]
        rows = list(range(first, first + plan.activations[k, K_N_BATCHES]))
        if plan.retarget is not None:  # a retargeted weapon may roll against another unit
            rows += [int(r) for b in rows for r in plan.retarget[b] if r >= 0]
        out.append(sum(wound_dice_bound(plan.batches[b], plan.contribs, plan.subs,
                                        largest_unit) for b in rows))
    return out


def check_scenario_work(plan: ScenarioPlan, trials: int, origins: tuple[str, ...] = ()
                        ) -> None:
    """Refuse, before anything runs, a scenario whose trials could not end in any useful time
    or whose result histograms would not fit in memory; the message says what to shrink.

    Raises
    ------
    OptionError
        Naming the estimate, the limit and the fix.
    """
    dice = activation_dice(plan)
    per_trial = sum(dice) * plan.rounds
    worst = max(range(len(dice)), key=dice.__getitem__)
    where = f"{origins[worst]}: " if len(origins) > worst and origins[worst] else ""
    if per_trial > MAX_SCENARIO_DICE_PER_TRIAL:
        raise OptionError(f"{where}one trial of this scenario could roll {per_trial:,} dice "
                          f"({dice[worst]:,} in activation {worst + 1}; limit "
                          f"{MAX_SCENARIO_DICE_PER_TRIAL:,}): fewer models, weapons, attacks "
                          "or rounds")
    try:
        check_run_work(per_trial, trials, "dice")
    except OptionError as exc:
        raise OptionError(f"{where}{exc}") from None
    bins = plan.model_bins + plan.wound_bins + plan.group_bins
    need = CHUNKS * plan.checkpoints * bins * 8
    if need > MAX_SCENARIO_HISTOGRAM_BYTES:
        source = origins[0].rsplit(":", 1)[0] + ": " if origins and origins[0] else ""
        raise OptionError(f"{source}the results of {plan.rounds} rounds of "
                          f"{plan.activations.shape[0]} activations over {bins:,} model and "
                          f"wound counts need {need / 2**20:,.0f} MiB (limit "
                          f"{MAX_SCENARIO_HISTOGRAM_BYTES // 2**20} MiB): fewer rounds or "
                          "activations, or smaller units")


def max_pending(plan: ScenarioPlan) -> int:
    """An upper bound on [DEVASTATING WOUNDS] critical wounds in one activation."""
    largest_unit = int(plan.units[:, U_MODELS].max())
    worst = 1
    for k in range(plan.activations.shape[0]):
        first = plan.activations[k, K_FIRST_BATCH]
        rows = list(range(first, first + plan.activations[k, K_N_BATCHES]))
        if plan.retarget is not None:  # a retargeted weapon may roll against another unit
            rows += [int(r) for b in rows for r in plan.retarget[b] if r >= 0]
        total = sum(wound_dice_bound(plan.batches[b], plan.contribs, plan.subs, largest_unit)
                    for b in rows)
        worst = max(worst, total)
    return int(worst)


def run_scenario_monte_carlo(plan: ScenarioPlan, trials: int,
                             seed: int | np.random.SeedSequence, chunks: int = CHUNKS,
                             progress: bool | None = None):
    """Run the scenario kernel; return summed histograms (models, wounds, groups, sides).

    A progress bar counts the trials of finished chunks (side 0's row of ``sides`` gets one
    count per trial when its chunk ends), read while the kernel runs; the call is the same.
    """
    from mathhammer.wh40k.scenario.chunks import Histograms, run_chunks

    streams, per_chunk = chunk_streams(trials, seed, chunks)
    out = Histograms.zeros(plan, (chunks,))
    pending = max_pending(plan) if plan.dw_at_unit_end else 1
    watch(lambda: run_chunks(plan, streams, per_chunk, out, pending),
          lambda: out.sides[:, 0].sum() if out.sides.shape[1] else 0, trials, "run",
          progress=progress)
    models, wounds, groups, sides = out.arrays()
    return models.sum(axis=0), wounds.sum(axis=0), groups.sum(axis=0), sides.sum(axis=0)


@dataclass(frozen=True, eq=False)
class ScenarioResult:
    """Per-unit and per-group distributions after every activation of every round.

    Checkpoint ``i`` is the state after activation ``i % A`` of round ``i // A + 1``
    (``A`` activations per round); the last checkpoint is the end of the scenario.
    """

    plan: ScenarioPlan
    trials: int
    seed: int
    models: np.ndarray
    wounds: np.ndarray
    groups: np.ndarray
    sides: np.ndarray
    method: str = MONTE_CARLO

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
        if isinstance(checkpoint, bool) or not -self.checkpoints <= int(checkpoint) \
                < self.checkpoints:
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
                          note=f"Monte Carlo, {self.trials:,} trials, seed {self.seed}")

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
        for i, (u, g) in enumerate(self.plan.group_names):
            if u == unit and g.lower() == group.lower():
                _, models, start = self.plan.report_groups[i]
                counts = self.groups[cp, start:start + models + 1]
                return self._named(Distribution.from_counts(counts),
                                   f"{g} models destroyed", unit, cp)
        raise KeyError(f"unit '{unit}' has no model group '{group}'")

    def destroyed(self, unit: str, checkpoint: int | str | None = None) -> float:
        """P(every model of ``unit`` destroyed by ``checkpoint``)."""
        dist = self.models_destroyed(unit, checkpoint)
        n = int(self.plan.units[self._unit_row(unit), U_MODELS])
        return float(dist.probabilities[n]) if len(dist.probabilities) > n else 0.0

    def wiped_out(self) -> pd.DataFrame:
        """Per side: P(wiped out in round r) for each round, and P(still standing)."""
        rows = []
        for s, side in enumerate(self.plan.side_names):
            counts = self.sides[s]
            for r in range(1, self.plan.rounds + 1):
                rows.append({"side": side, "round": r, "p_wiped_out": counts[r] / self.trials,
                             "p_wiped_out_by_then": counts[1:r + 1].sum() / self.trials})
        return pd.DataFrame(rows)

    def checkpoint_label(self, checkpoint: int) -> tuple[int, str]:
        n = self.plan.activations.shape[0]
        return checkpoint // n + 1, self.plan.activation_labels[checkpoint % n]

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per unit x checkpoint x outcome value."""
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
        rows = []
        for unit in self.units:
            m, w = self.models_destroyed(unit), self.wounds_lost(unit)
            p = self.destroyed(unit)
            rows.append({"unit": unit, "models_destroyed": m.mean, "models_stderr": m.stderr,
                         "wounds_lost": w.mean, "wounds_stderr": w.stderr, "p_destroyed": p,
                         "p_destroyed_stderr": math.sqrt(p * (1 - p) / self.trials)})
        return pd.DataFrame(rows).set_index("unit")

    def survival(self) -> pd.DataFrame:
        """Per unit and round: P(unit still has models) at the end of the round (round 0: the
        start), with its Monte Carlo standard error (the data interface of
        :func:`mathhammer.core.charts.survival`)."""
        n = self.plan.activations.shape[0]
        rows = []
        for unit in self.units:
            rows.append({"unit": unit, "round": 0, "p_alive": 1.0, "stderr": 0.0})
            for r in range(self.plan.rounds):
                p = 1.0 - self.destroyed(unit, r * n + n - 1)
                rows.append({"unit": unit, "round": r + 1, "p_alive": p,
                             "stderr": math.sqrt(p * (1 - p) / self.trials)})
        frame = pd.DataFrame(rows)
        frame.attrs["caption"] = f"Monte Carlo, {self.trials:,} trials, seed {self.seed}"
        return frame

    def plot(self, outcome: str | None = None, *, ax=None, title: str | None = None):
        """Per-round survival curves of every unit (``outcome`` is accepted and ignored, for
        the command line's shared ``--plot``)."""
        from mathhammer.core.charts import survival

        return survival(self.survival(), ax=ax, title=title)

    def table(self, digits: int = 3) -> Table:
        """Per unit at the end, ready to paste: mean models destroyed and wounds lost
        (± s.e.), P(destroyed) as a percentage, with the engine in the caption."""
        from mathhammer.core.tables import Table, check_digits, format_estimate

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
                             p, math.sqrt(p * (1 - p) / self.trials), digits, percent=True,
                             trials=self.trials)})
        return Table(pd.DataFrame(rows), self._caption())

    def _caption(self) -> str:
        return (f"Monte Carlo, {self.trials:,} trials, seed {self.seed}; {self.plan.rounds} "
                f"round(s) of {self.plan.activations.shape[0]} activation(s)")

    def to_markdown(self, digits: int = 3) -> str:
        """Markdown for articles: a caption line, the per-unit summary at the end, mean
        models destroyed per model group at the end of each round, then each activation
        (probabilities as percentages, ``digits`` decimals)."""
        from mathhammer.core.tables import Table, check_digits, format_value

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
        rows = []
        for unit, group in self.plan.group_names:
            row: dict[str, Any] = {"unit": unit, "model group": group}
            for r in range(1, self.plan.rounds + 1):
                row[f"round {r} end"] = self.group_models_destroyed(unit, group,
                                                                    f"round {r} end").mean
            rows.append(row)
        return pd.DataFrame(rows)

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
        seed: Any = self.seed
        if isinstance(seed, np.random.SeedSequence):  # JSON: its entropy and spawn key
            seed = {"entropy": seed.entropy, "spawn_key": [int(k) for k in seed.spawn_key]}
        out: dict[str, Any] = {"method": self.method, "trials": self.trials, "seed": seed,
                               "units": {u: self._unit_block(u, self.checkpoints - 1)
                                         for u in self.units}}
        out["activations"] = [
            {"round": cp // n + 1, "activation": self.plan.activation_labels[cp % n],
             "units": {u: self._unit_block(u, cp) for u in self.units}}
            for cp in range(self.checkpoints)]
        out["rounds"] = [
            {"round": r + 1, "units": {u: self._unit_block(u, r * n + n - 1)
                                       for u in self.units}}
            for r in range(self.plan.rounds)]
        out["sides"] = {
            side: {"units": [u for u, i in zip(self.units, self.plan.units[:, -3])
                             if self.plan.side_names[i] == side],
                   "wiped_out_in_round": {str(r): self.sides[s][r] / self.trials
                                          for r in range(1, self.plan.rounds + 1)},
                   "standing": self.sides[s][0] / self.trials}
            for s, side in enumerate(self.plan.side_names)}
        return out

    def to_text(self) -> str:
        """The readable report of ``mathhammer run``: per unit after every activation, per
        model group at the end of every round, and when each side was wiped out."""
        lines = [f"Engine: Monte Carlo, {self.trials:,} trials, seed {self.seed}; "
                 f"{self.plan.rounds} round(s) of {self.plan.activations.shape[0]} "
                 "activation(s)", ""]
        lines.append("Mean models destroyed (P(unit destroyed)):")
        lines.append(f"  {'after':<44} " + "  ".join(f"{u[:18]:>18}" for u in self.units))
        for cp in range(self.checkpoints):
            cells = "  ".join(
                f"{self.models_destroyed(u, cp).mean:7.2f} ({self.destroyed(u, cp):5.3f})"
                .rjust(18) for u in self.units)
            lines.append(f"  {self.checkpoint_name(cp)[:44]:<44} {cells}")
        lines += ["", "Mean models destroyed per model group:"]
        groups = self.group_table()
        rounds = [c for c in groups.columns if c.startswith("round ")]
        lines.append(f"  {'unit: model group':<36} " + "  ".join(f"{r:>11}" for r in rounds))
        for row in groups.itertuples(index=False):
            name = f"{row[0]}: {row[1]}"
            lines.append(f"  {name[:36]:<36} " + "  ".join(f"{v:11.2f}" for v in row[2:]))
        lines += ["", "Side wiped out (probability by round):"]
        frame = self.wiped_out()
        for side in self.plan.side_names:
            sub = frame[frame.side == side]
            cells = ", ".join(f"round {r}: {p:.3f}"
                              for r, p in zip(sub["round"], sub.p_wiped_out))
            lines.append(f"  {side:<10} {cells}; still standing: "
                         f"{self.sides[self.plan.side_names.index(side)][0] / self.trials:.3f}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self.table().to_html()


def _dist_json(dist: Distribution) -> dict[str, Any]:
    return {"mean": dist.mean, "stderr": dist.stderr,
            "pmf": {str(k): float(p) for k, p in enumerate(dist.probabilities) if p > 0}}


__all__ = ("run", "ScenarioResult", "run_scenario_monte_carlo", "N_WEAPONS")


def run_scripted(scenario: Scenario, faces: list[int]) -> dict[str, Any]:
    """Run ONE trial with forced dice (tests and worked examples).

    Parameters
    ----------
    scenario
        The scenario (one round is usual).
    faces
        Every D6 the trial rolls, in the kernel's documented order (see
        :mod:`mathhammer.wh40k.scenario.kernels`).

    Returns
    -------
    dict
        ``{"units": {unit: {"models_destroyed": n, "wounds_lost": n,
        "groups": {group: n}}}, "dice_used": n}`` at the end of the scenario.

    Raises
    ------
    OptionError
        When a face is not a whole number from 1 to 6 (or there are more than
        :data:`MAX_SCRIPTED_FACES`).
    IndexError
        When the scenario needs more dice than given.
    """
    from mathhammer.core.rng import (check_script_not_exhausted, scripted_dice_used,
                                      scripted_stream)
    from mathhammer.wh40k.scenario.chunks import Histograms, run_trials, scratch_arrays

    faces = _checked_faces(faces)
    plan = compile_scenario(scenario)
    check_scenario_work(plan, 1, scenario.origins)
    stream = scripted_stream(faces)
    out = Histograms.zeros(plan)
    run_trials(plan, stream, 1, out, scratch_arrays(plan, len(faces)), 0)
    models, wounds, groups, sides = out.arrays()
    check_script_not_exhausted(stream)
    result = ScenarioResult(plan=plan, trials=1, seed=0, models=models, wounds=wounds,
                            groups=groups, sides=sides)
    out: dict[str, Any] = {"units": {}, "dice_used": scripted_dice_used(stream)}
    for unit in plan.unit_names:
        out["units"][unit] = {
            "models_destroyed": int(result.models_destroyed(unit).quantile(0.5)),
            "wounds_lost": int(result.wounds_lost(unit).quantile(0.5)),
            "groups": {g: int(result.group_models_destroyed(unit, g).quantile(0.5))
                       for u, g in plan.group_names if u == unit}}
    return out


#: Most dice one scripted trial may be given.
MAX_SCRIPTED_FACES = 1_000_000


def _checked_faces(faces: Any) -> list[int]:
    """``faces`` as a list of ints 1-6, or an :class:`OptionError` naming the first bad one."""
    if isinstance(faces, (str, bytes)) or not hasattr(faces, "__iter__"):
        raise OptionError(f"faces must be a list of D6 results 1-6, not {type(faces).__name__}")
    faces = list(faces)
    if len(faces) > MAX_SCRIPTED_FACES:
        raise OptionError(f"{len(faces):,} scripted faces: at most {MAX_SCRIPTED_FACES:,}")
    for index, face in enumerate(faces):
        if isinstance(face, bool) or not isinstance(face, (int, np.integer)) \
                or not 1 <= face <= 6:
            raise OptionError(f"scripted face {index + 1} is {face!r:.20}: each face is a D6 "
                              "result, a whole number from 1 to 6")
    return [int(f) for f in faces]
