"""The meta matrix's result: the lists, each side's plan, the list x list tables, summaries
and the pairing table of one team against another."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathhammer.core.limits import shown
from mathhammer.errors import OptionError, did_you_mean
from mathhammer.wh40k.roster.meta_settings import PLAN_RULE, Settings, Skipped
from mathhammer.wh40k.roster.meta_words import DEFAULT_METRIC, METRICS

if TYPE_CHECKING:
    import pandas as pd


def check_metric(metric: str) -> str:
    """``metric`` if it is one of :data:`METRICS`, else a one-line refusal."""
    if metric not in METRICS:
        raise OptionError(f"meta metric '{metric}' is not one of {', '.join(METRICS)}"
                          f"{did_you_mean(str(metric), list(METRICS))}")
    return metric


class MetaResult:
    """Every list against every other one.

    Attributes
    ----------
    lists
        Labels (file names without extension) to the rosters, in file order.
    skipped
        The files not in the matrix and why.
    plans
        One row per list, opponent, attacking unit and phase: the unit's best target and its
        expected points, models and damage there.
    counts
        ``pairings`` (unit pairings behind the matrix), ``unique`` (distinct ones),
        ``solved`` (solved by this run), ``from_cache`` (identical to another pairing),
        ``resumed`` (read back from ``out``), ``lists``, ``list_pairs``.
    plan_rule
        How each side's plan is made (:data:`~mathhammer.wh40k.roster.meta.PLAN_RULE`).
    buffs
        Labels to the buffs applied to that list (lists without any left out).
    """

    def __init__(self, *, lists: Mapping[str, Any], skipped: Sequence[Skipped], edition: int,
                 plans: list[dict[str, Any]], counts: Mapping[str, int], settings: Settings,
                 method: str, buffs: Mapping[str, Sequence[Any]] | None = None) -> None:
        self.lists = dict(lists)
        self.skipped = tuple(skipped)
        self.edition = edition
        self.plans = _plan_frame(plans)
        self.counts = dict(counts)
        self.settings = settings
        self.method = method
        self.plan_rule = PLAN_RULE
        self.buffs = {k: tuple(v) for k, v in (buffs or {}).items() if v}
        self.frame = self._tidy()

    # -- tables ---------------------------------------------------------------------------
    def _tidy(self) -> pd.DataFrame:
        import pandas as pd

        labels = list(self.lists)
        sums = self.plans.groupby(["list", "opponent"])[["points", "models"]].sum()
        # one dictionary, not a pandas lookup per pair (15 s of 300 lists' 41 s)
        totals = {key: (float(points), float(models)) for key, points, models
                  in zip(sums.index, sums["points"], sums["models"])}
        rows = []
        for mine in labels:
            for theirs in labels:
                if mine == theirs:
                    continue
                done = totals.get((mine, theirs), (0.0, 0.0))
                lost = totals.get((theirs, mine), (0.0, 0.0))
                values = {"points_destroyed": done[0], "points_lost": lost[0],
                          "margin": done[0] - lost[0], "models_destroyed": done[1],
                          "models_lost": lost[1]}
                rows += [{"list": mine, "opponent": theirs, "metric": m, "value": v}
                         for m, v in values.items()]
        return pd.DataFrame(rows, columns=["list", "opponent", "metric", "value"])

    def matrix(self, metric: str = DEFAULT_METRIC) -> pd.DataFrame:
        """The list x list table of ``metric`` (rows: the list, columns: its opponent; the
        diagonal is empty)."""
        check_metric(metric)
        part = self.frame[self.frame["metric"] == metric]
        table = part.pivot(index="list", columns="opponent", values="value")
        return table.reindex(index=list(self.lists), columns=list(self.lists))

    def summary(self, metric: str = DEFAULT_METRIC) -> pd.DataFrame:
        """Each list's mean over its opponents, its worst and its best pairing."""
        import pandas as pd

        table = self.matrix(metric)
        rows = []
        for label, row in table.iterrows():
            values = row.dropna()
            rows.append({"list": label, "points": float(self.lists[label].points),
                         "mean": float(values.mean()), "worst": float(values.min()),
                         "worst_opponent": str(values.idxmin()),
                         "best": float(values.max()), "best_opponent": str(values.idxmax())})
        return pd.DataFrame(rows).set_index("list")

    def team_table(self, team: Iterable[str] | str, against: Iterable[str] | str,
                   metric: str = DEFAULT_METRIC) -> pd.DataFrame:
        """The pairing table of a team (3 to 8 lists) against another: each of ours against
        each of theirs, the numbers team captains rate by hand."""
        ours, theirs = self._team(team, "team"), self._team(against, "against-team")
        return self.matrix(metric).loc[ours, theirs]

    def _team(self, names: Iterable[str] | str, what: str) -> list[str]:
        if isinstance(names, str):
            names = names.split(",")
        out = []
        for name in (n.strip() for n in names):
            if name not in self.lists:
                hint = did_you_mean(name, list(self.lists))
                raise OptionError(f"--{what}: no list '{name}'{hint}; the lists: "
                                  f"{', '.join(self.lists)}")
            out.append(name)
        if not 1 <= len(out) <= 8:
            raise OptionError(f"--{what} names {len(out)} lists; a team has 1 to 8")
        return out

    # -- words ----------------------------------------------------------------------------
    def footer(self) -> list[str]:
        """The lines every output ends with: plan rule, engine, pairings, skipped files."""
        c = self.counts
        s = self.settings
        engine = {"exact": "exact", "monte-carlo": f"Monte Carlo, {s.trials:,} trials per "
                  f"pairing, seed {s.seed}", "mixed": f"exact where it covers a pairing, "
                  f"Monte Carlo ({s.trials:,} trials, seed {s.seed}) elsewhere"}.get(
                      self.method, self.method)
        lines = [f"Plan: {self.plan_rule}",
                 f"Engine: {engine}; {self.edition}th edition; phases: "
                 f"{', '.join(s.phases)}",
                 f"Pairings: {c['pairings']:,} unit pairings in {c['list_pairs']:,} list "
                 f"pairings; {c['solved']:,} solved, {c['from_cache']:,} from the cache "
                 f"(identical pairings), {c['resumed']:,} read back from --out"]
        lines += [f"Skipped: {shown(s.reason)}" for s in self.skipped]  # a name may hold ESC
        return lines + self._leader_rolls()

    def _leader_rolls(self) -> list[str]:
        """A line per list with buffs, and per unit whose Leaders grant roll modifiers or
        conditional buffs (applied to its cells, as ``mathhammer roster`` does)."""
        out = [f"Buffs: {label}: {'; '.join(b.name for b in buffs)}"
               for label, buffs in self.buffs.items()]
        for label, army in self.lists.items():
            found = army.granted_buffs() if hasattr(army, "granted_buffs") else {}
            for unit, buffs in found.items():
                out.append(f"Leader grants applied: {label}: {unit}: "
                           f"{'; '.join(b.text for b in buffs)}")
        return out

    def to_dict(self, metric: str = DEFAULT_METRIC) -> dict[str, Any]:
        """The ``--json`` document."""
        return {"edition": self.edition, "method": self.method, "plan_rule": self.plan_rule,
                "phases": list(self.settings.phases), "metric": metric,
                "counts": self.counts,
                "lists": [{"label": k, "source": v.source, "faction": v.faction,
                           "points": v.points,
                           "buffs": [b.name for b in self.buffs.get(k, ())]}
                          for k, v in self.lists.items()],
                "skipped": [{"path": s.path, "reason": s.reason} for s in self.skipped],
                "matrix": [_clean(r) for r in self.frame.to_dict(orient="records")],
                "summary": [{"list": k, **_clean(v)} for k, v in
                            self.summary(metric).to_dict(orient="index").items()],
                "plans": [_clean(r) for r in self.plans.to_dict(orient="records")]}

    def to_text(self, metric: str = DEFAULT_METRIC, width: int = 100) -> str:
        """The matrix and the summary as text tables, then :meth:`footer`.

        A matrix wider than ``width`` characters (more than about eight lists) would wrap
        into blocks no one can read across: the text then gives the summary alone and says
        where the whole matrix is (``--csv``, ``--markdown``, ``--json``, ``--plot``).
        """
        title = METRICS[check_metric(metric)].capitalize()
        matrix = self.matrix(metric).round(1).to_string(na_rep="-")
        if max(map(len, matrix.splitlines())) <= width:
            head = [f"{title} (row list against column list):", matrix, ""]
        else:
            n = len(self.lists)
            head = [f"{title}: the {n} x {n} matrix is too wide for a terminal; write it with "
                    "--csv FILE, --markdown or --json, or draw it with --plot FILE.", ""]
        parts = head + [f"Summary ({METRICS[metric]}):",
                        self.summary(metric).round(1).to_string(line_width=width), ""]
        return "\n".join(parts + self.footer())

    def to_markdown(self, metric: str = DEFAULT_METRIC) -> str:
        """The matrix and the summary as Markdown tables, then :meth:`footer` as a list."""
        parts = [f"### {METRICS[check_metric(metric)].capitalize()}", "",
                 self.matrix(metric).round(1).to_markdown(), "", "### Summary", "",
                 self.summary(metric).round(1).to_markdown(), ""]
        return "\n".join(parts + [f"- {line}" for line in self.footer()])

    def write(self, folder: str | os.PathLike[str]) -> None:
        """The matrix (``matrix.csv``, tidy), the plans (``plans.csv``) and the whole result
        (``meta.json``) in ``folder``."""
        folder = Path(folder)
        self.frame.to_csv(folder / "matrix.csv", index=False)
        self.plans.to_csv(folder / "plans.csv", index=False)
        (folder / "meta.json").write_text(json.dumps(self.to_dict()), encoding="utf-8")

    def __repr__(self) -> str:
        return (f"MetaResult({len(self.lists)} lists, {self.counts['pairings']} pairings, "
                f"{self.counts['solved']} solved)")


def _plan_frame(plans: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(plans, columns=["list", "opponent", "unit", "phase", "target",
                                        "points", "models", "damage", "method"])


def _clean(record: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and math.isnan(v) else
                v.item() if hasattr(v, "item") else v) for k, v in record.items()}
