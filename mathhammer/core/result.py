"""Result objects shared by every game: distributions plus where they came from.

A :class:`Distribution` is a probability mass function over the integers 0..n (damage,
models destroyed, hits...). A :class:`Result` holds several of them, a few headline
probabilities (such as P(unit destroyed)), and its provenance: the engine, the trial count,
the seed and the inputs. Methods hand out new pandas objects; nothing here subclasses
``DataFrame``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from mathhammer.core.readonly import ReadOnlyDict
# re-exported: the game modules read a result's method names from here
from mathhammer.core.signatures import EXACT as EXACT, MONTE_CARLO as MONTE_CARLO
from mathhammer.core.subjects import subject_lines
from mathhammer.errors import MathhammerError, OptionError

if TYPE_CHECKING:  # pandas is imported when a method needs it: the CLI's JSON and text
    import pandas as pd  # output never do, and importing pandas costs ~0.5 s at start-up.


@dataclass(frozen=True, eq=False)
class Distribution:
    """A pmf over 0..n, either exact or estimated from ``trials`` Monte Carlo trials.

    Parameters
    ----------
    probabilities
        ``probabilities[k]`` = P(outcome == k).
    trials
        Number of Monte Carlo trials behind the estimate, or ``None`` for an exact pmf.
    """

    probabilities: np.ndarray
    trials: int | None = None
    label: str | None = None
    subject: str | None = None
    note: str | None = None

    def __post_init__(self) -> None:
        # read-only data: a result cannot be changed after it is made
        probabilities = self.probabilities
        if not (isinstance(probabilities, np.ndarray) and probabilities.dtype == np.float64
                and not probabilities.flags.writeable):
            probabilities = np.array(probabilities, dtype=np.float64)   # the caller's stays
            probabilities.flags.writeable = False
            object.__setattr__(self, "probabilities", probabilities)

    @classmethod
    def from_counts(cls, counts: np.ndarray, **names: str | None) -> Distribution:
        """Estimate from a histogram of trial outcomes (``counts[k]`` trials gave ``k``).

        ``names`` are the optional ``label``, ``subject`` and ``note`` (see :meth:`named`).
        """
        counts = _histogram(counts)
        total = int(counts.sum())
        if total <= 0:
            raise MathhammerError("a Monte Carlo histogram needs at least one trial")
        return cls(_trim(counts / total), trials=total).named(**names)

    @classmethod
    def from_pmf(cls, pmf: np.ndarray, **names: str | None) -> Distribution:
        """An exact pmf: a list of probabilities (``pmf[k]`` = P(outcome == k)) that are
        finite, not negative and sum to 1 within :data:`PMF_TOLERANCE` (the rounding drift
        of order 1e-15 an engine leaves, or the 1e-15 tail Dust's unbounded lasers list no
        further, is renormalised away; anything more is a mistake, refused).

        Raises
        ------
        OptionError
            Naming what is wrong: not one row of numbers, nan or infinite, negative, or a
            sum other than 1.
        """
        pmf = _probabilities(pmf)
        return cls(_trim(pmf)).named(**names) if names else cls(_trim(pmf))

    def named(self, label: str | None = None, subject: str | None = None,
              note: str | None = None) -> Distribution:
        """The same pmf with the words tables and charts print (``None`` keeps a field).

        Parameters
        ----------
        label
            What is counted, in words: ``"models destroyed"``, ``"wounds lost"``.
        subject
            Whose outcome and when: ``"Intercessors, end of round 2"``.
        note
            Where the numbers come from (default: :attr:`engine_note`).
        """
        changes: dict[str, Any] = {k: v for k, v in (("label", label), ("subject", subject),
                                                     ("note", note)) if v is not None}
        return replace(self, **changes) if changes else self

    @property
    def engine_note(self) -> str:
        """``"exact"`` or ``"Monte Carlo, N trials"``, unless a ``note`` was given."""
        if self.note:
            return self.note
        return "exact" if self.trials is None else f"Monte Carlo, {self.trials:,} trials"

    @property
    def is_exact(self) -> bool:
        return self.trials is None

    @property
    def support(self) -> np.ndarray:
        return np.arange(len(self.probabilities))

    @property
    def mean(self) -> float:
        return float(np.dot(self.support, self.probabilities))

    @property
    def variance(self) -> float:
        return float(np.dot((self.support - self.mean) ** 2, self.probabilities))

    @property
    def std(self) -> float:
        return math.sqrt(max(self.variance, 0.0))

    @property
    def stderr(self) -> float | None:
        """Monte Carlo standard error of the mean; ``None`` for an exact pmf."""
        return None if self.trials is None else self.std / math.sqrt(self.trials)

    def at_least(self) -> np.ndarray:
        """P(outcome >= k) for each k."""
        return np.cumsum(self.probabilities[::-1])[::-1].clip(0.0, 1.0)

    def probability_at_least(self, k: int) -> float:
        """P(outcome >= k) for a whole number ``k``."""
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)):
            raise MathhammerError(f"k={k!r:.40} must be a whole number")
        if k <= 0:
            return 1.0
        return float(self.probabilities[k:].sum()) if k < len(self.probabilities) else 0.0

    def quantile(self, q: float) -> int:
        """Smallest k with P(outcome <= k) >= q, for a number ``q`` from 0 to 1."""
        if isinstance(q, bool) or not isinstance(q, (int, float, np.integer, np.floating)) \
                or not 0.0 <= q <= 1.0:
            raise MathhammerError(f"quantile {q!r:.40} is not a number between 0 and 1")
        cdf = np.cumsum(self.probabilities)
        return min(int(np.searchsorted(cdf, q - 1e-12)), len(cdf) - 1)

    def proportion_stderr(self, p: float) -> float | None:
        """Standard error of a probability estimated from the same trials."""
        return None if self.trials is None else binomial_stderr(p, self.trials)


def binomial_stderr(p: float, trials: int) -> float:
    """The Monte Carlo standard error of a probability ``p`` estimated as the share of
    ``trials`` trials in which an event happened: ``sqrt(p (1 - p) / trials)``. The one
    place every result, table and report computes it.

    Examples
    --------
    >>> binomial_stderr(0.5, 10_000)
    0.005
    """
    return math.sqrt(p * (1 - p) / trials)


def situation_text(situation: Any) -> str:
    """Situation switches in words: a text as is; a dict's true or non-empty entries."""
    if not situation:
        return ""
    if isinstance(situation, str):
        return situation
    if isinstance(situation, Mapping):
        parts = []
        for key, value in situation.items():
            words = str(key).replace("_", " ")
            if value is True:
                parts.append(words)
            elif value is not False and value not in (None, "", "none") \
                    and not (value == 0 and not str(key).endswith("target")):
                parts.append(f"{words} {value}")
        return ", ".join(parts)
    return str(situation)


def seed_provenance(seed: Any) -> tuple[Any, list[int]]:
    """What a result records of its seed: ``(entropy, spawn key)``; the one place every
    result, comparison frame and roster analysis records it.

    An int seed is its own entropy with no spawn key; a :class:`numpy.random.SeedSequence`
    gives its entropy (an int, or a list of ints) and its spawn key, plain JSON values both,
    never the object (whose repr a caption would otherwise print).

    Examples
    --------
    >>> seed_provenance(7), seed_provenance(np.random.SeedSequence(7).spawn(2)[1])
    ((7, []), (7, [1]))
    """
    if isinstance(seed, np.random.SeedSequence):
        entropy = seed.entropy
        if isinstance(entropy, (list, tuple, np.ndarray)):
            entropy = [int(e) for e in entropy]
        elif isinstance(entropy, (int, np.integer)):
            entropy = int(entropy)
        return entropy, [int(k) for k in seed.spawn_key]
    return seed, []


def subject_key(subject: str, outcome: str) -> str:
    """The key of one subject's outcome in a result holding several subjects (the units
    of a scenario): ``subject_key("Boyz", "models_destroyed")`` is ``"Boyz: models_destroyed"``.
    """
    return f"{subject}{SUBJECT_SEPARATOR}{outcome}"


SUBJECT_SEPARATOR = ": "


def _name_of(text: Any) -> str:
    name = str(text)
    return name.split(":")[0].strip() if ":" in name else name.strip()


#: How far from 1 the sum of a pmf given to :meth:`Distribution.from_pmf` may be.
PMF_TOLERANCE = 1e-9


def _one_row(values: Any, what: str) -> np.ndarray:
    """``values`` as a 1-D numpy array with at least one value, else a refusal naming
    ``what`` (a 2-D table or a single number is not a distribution)."""
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):   # ragged nested lists
        raise OptionError(f"{what} must be one row of numbers, not a ragged nested list") \
            from None
    if array.ndim != 1 or not len(array):
        raise OptionError(f"{what} must be one row of numbers (a 1-D list or array with "
                          f"at least one value), not an array of shape {array.shape}")
    if array.dtype.kind not in "iuf":
        raise OptionError(f"{what} must hold numbers, not {array.dtype} values such as "
                          f"{array[0].item()!r:.30}")
    return array


def _histogram(counts: Any) -> np.ndarray:
    """Trial counts as int64: whole numbers, none negative (``[-1, 2]`` would give a
    negative probability, ``1.5`` trials none at all)."""
    array = _one_row(counts, "a histogram of trial counts")
    if array.dtype.kind == "f":
        wrong = array[~np.isfinite(array) | (array != np.floor(array))]
        if len(wrong):
            raise OptionError(f"a histogram of trial counts must hold whole numbers, not "
                              f"{wrong[0].item()!r}")
    if (array < 0).any():
        raise OptionError(f"a histogram of trial counts must not hold a negative count, "
                          f"not {array[array < 0][0].item()!r}")
    return array.astype(np.int64, copy=False)


def _probabilities(pmf: Any) -> np.ndarray:
    """A pmf as float64, checked (see :meth:`Distribution.from_pmf`) and renormalised
    against rounding drift (a new array)."""
    array = _one_row(pmf, "a pmf").astype(np.float64)   # a new array
    if not np.isfinite(array).all():
        raise OptionError(f"a pmf must hold finite probabilities, not "
                          f"{array[~np.isfinite(array)][0].item()!r}")
    if (array < -PMF_TOLERANCE).any():
        raise OptionError(f"a pmf must not hold a negative probability, not "
                          f"{array[array < -PMF_TOLERANCE][0].item()!r}")
    np.maximum(array, 0.0, out=array)
    total = float(array.sum())
    if abs(total - 1.0) > PMF_TOLERANCE:
        raise OptionError(f"a pmf's probabilities must sum to 1, not {total!r}: give "
                          "P(outcome == k) for every k (Distribution.from_counts takes "
                          "trial counts)")
    array /= total
    return array


def _trim(pmf: np.ndarray) -> np.ndarray:
    """``pmf`` up to its last positive value (at least one value), contiguous float64."""
    if len(pmf) and pmf[-1] > 0:   # the usual case: nothing to trim
        return np.ascontiguousarray(pmf, dtype=np.float64)
    nonzero = np.flatnonzero(pmf > 0)
    end = int(nonzero[-1]) + 1 if len(nonzero) else 1
    return np.ascontiguousarray(pmf[:end], dtype=np.float64)


#: Most rows :meth:`Result.to_text` prints per outcome.
MAX_TEXT_ROWS = 1_000_000


@dataclass(frozen=True, eq=False)
class Result:
    """The answer to one question: named distributions, headline probabilities, provenance.

    Parameters
    ----------
    method
        ``"exact"`` or ``"monte-carlo"``.
    distributions
        Outcome name (``"damage"``, ``"models_destroyed"``...) to :class:`Distribution`.
    probabilities
        Headline event probabilities such as ``{"unit_destroyed": 0.41}``.
    trials, seed
        Monte Carlo provenance (``None`` for exact results); ``seed`` is an int (or the
        entropy of a ``SeedSequence``, whose spawn key is ``inputs["seed_spawn_key"]``; see
        :func:`seed_provenance`).
    inputs
        What was asked: profile texts, situation, engine switches.
    labels
        Human-readable name of each outcome, for tables and charts.
    game
        The name of the game that made it (``"wh40k"``, ``"warmachine"``, ``"dust"``), whose
        registered hook says which inputs are its subject lines
        (:mod:`mathhammer.core.subjects`); ``None`` for a result no game made.

    A result may hold several subjects (the units of a scenario): each subject's outcomes
    are keyed :func:`subject_key` (``"Boyz: models_destroyed"``) and :meth:`for_subject`
    hands out one subject's outcomes as a result of its own.
    """

    method: str
    distributions: dict[str, Distribution]
    probabilities: dict[str, float] = field(default_factory=dict)
    trials: int | None = None
    seed: int | list[int] | None = None
    inputs: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    game: str | None = None

    def __post_init__(self) -> None:
        # read-only data: each mapping a ReadOnlyDict of its own (a copy of the caller's)
        for name in ("distributions", "probabilities", "inputs", "labels"):
            value = getattr(self, name)
            if not isinstance(value, ReadOnlyDict):
                object.__setattr__(self, name, ReadOnlyDict(value))

    # -- access ---------------------------------------------------------------------------
    def for_subject(self, subject: str) -> Result:
        """The outcomes and probabilities of one ``subject`` of a result holding several
        (keys ``subject_key(subject, outcome)``), under their own names, as a :class:`Result`
        with the same provenance whose :attr:`subject` is ``subject``."""
        prefix = subject_key(subject, "")

        def own(mapping: Mapping[str, Any]) -> dict[str, Any]:
            return {k[len(prefix):]: v for k, v in mapping.items() if k.startswith(prefix)}

        distributions = own(self.distributions)
        probabilities = own(self.probabilities)
        if not distributions and not probabilities:
            raise MathhammerError(f"no subject '{subject}' in this result")
        labels = {k[len(prefix):]: v.removeprefix(prefix) for k, v in self.labels.items()
                  if k.startswith(prefix)}
        inputs = {k: v for k, v in self.inputs.items() if k != "subject"}
        return Result(method=self.method, distributions=distributions,
                      probabilities=probabilities, trials=self.trials, seed=self.seed,
                      inputs={**inputs, "subject": subject}, labels=labels, game=self.game)

    def _dist(self, outcome: str) -> Distribution:
        try:
            return self.distributions[outcome]
        except (KeyError, TypeError):
            known = ", ".join(self.distributions)
            raise MathhammerError(f"no outcome '{outcome}' in this result; it has: {known}") \
                from None

    def distribution(self, outcome: str) -> Distribution:
        """The :class:`Distribution` of ``outcome``, named for tables and charts: its label
        (``"wounds lost"``), subject (weapons vs target) and note (engine and situation)."""
        return self._dist(outcome).named(label=self.label(outcome), subject=self.subject,
                                         note=self.caption)

    @property
    def engine_note(self) -> str:
        """``"exact"`` or ``"Monte Carlo, N trials, seed S"``."""
        if self.trials is None:
            return "exact"
        drawn = " drawn from the exact distribution" if self.inputs.get("engine") else ""
        return f"Monte Carlo{drawn}, {self.trials:,} trials, seed {self.seed}"

    @property
    def situation(self) -> str:
        """The situation switches that were on, in words (``"half range, stationary"``),
        then the rules that differ from the game's defaults.

        Reads ``inputs["situation"]``: a text as is, or a dict whose true or non-empty
        entries are listed (``{"half_range": True, "cover": False}`` -> ``"half range"``);
        then ``inputs["rule_changes"]``, phrases the game wrote for its non-default rule
        switches (``["no Tough rolls"]``), after ``"rules: "``.
        """
        changes = [str(c) for c in self.inputs.get("rule_changes") or () if c]
        rules = "rules: " + ", ".join(changes) if changes else ""
        return "; ".join(p for p in (situation_text(self.inputs.get("situation")), rules) if p)

    @property
    def caption(self) -> str:
        """Engine, situation and the profiles behind the subject in one line, for chart and
        table captions: what was computed, for whom (unit sizes and characteristics),
        against what, under which rules."""
        return "; ".join(p for p in (self.engine_note, self.situation, self.profiles) if p)

    @property
    def profiles(self) -> str:
        """The full attacker and target lines (``"3x Battle hammer: MAT7 POW16 [CHARGE] vs
        5x Trencher: DEF13 ARM13"``) when they say more than :attr:`subject` (the lines are
        the game's to name: :mod:`mathhammer.core.subjects`)."""
        attackers, targets = subject_lines(self.game, self.inputs)
        lines = [str(a) for a in attackers] + [str(t) for t in targets]
        if not any(":" in line for line in lines):
            return ""
        return " + ".join(map(str, attackers)) + (" vs " + " + ".join(map(str, targets))
                                                  if targets else "")

    @property
    def subject(self) -> str:
        """Short "weapons vs target" text from the game's subject lines (names before a
        ``:``; :mod:`mathhammer.core.subjects`), or the inputs' own ``subject``."""
        if self.inputs.get("subject"):
            return str(self.inputs["subject"])
        attackers, targets = subject_lines(self.game, self.inputs)
        who = " + ".join(_name_of(a) for a in attackers)
        target = " + ".join(_name_of(t) for t in targets)
        return f"{who} vs {target}" if who and target else who or target

    @property
    def outcomes(self) -> tuple[str, ...]:
        return tuple(self.distributions)

    def label(self, outcome: str) -> str:
        """The words of ``outcome`` (``"wounds lost"``), or its name with spaces."""
        if not isinstance(outcome, str):
            raise OptionError(f"outcome must be a name such as 'damage', not "
                              f"{type(outcome).__name__} {outcome!r:.40}")
        return self.labels.get(outcome, outcome.replace("_", " "))

    def mean(self, outcome: str) -> float:
        return self._dist(outcome).mean

    def stderr(self, outcome: str) -> float | None:
        return self._dist(outcome).stderr

    def pmf(self, outcome: str) -> pd.Series:
        """P(outcome == k) as a Series indexed by k."""
        import pandas as pd

        dist = self._dist(outcome)
        return pd.Series(dist.probabilities, index=pd.Index(dist.support, name=outcome),
                         name="probability")

    def at_least(self, outcome: str) -> pd.Series:
        """P(outcome >= k) as a Series indexed by k."""
        import pandas as pd

        dist = self._dist(outcome)
        return pd.Series(dist.at_least(), index=pd.Index(dist.support, name=outcome),
                         name="at_least")

    def quantile(self, outcome: str, q: float) -> int:
        return self._dist(outcome).quantile(q)

    def probability(self, event: str) -> float:
        try:
            return self.probabilities[event]
        except (KeyError, TypeError):   # TypeError: an unhashable name such as ['x']
            raise MathhammerError(f"no event '{event}' in this result; it has: "
                                  f"{', '.join(self.probabilities)}") from None

    def probability_stderr(self, event: str) -> float | None:
        """The Monte Carlo standard error of ``event``'s probability (``None``: exact)."""
        if self.trials is None:
            return None
        return binomial_stderr(self.probability(event), self.trials)

    def proportion_stderr(self, p: float) -> float | None:
        """The Monte Carlo standard error of any probability ``p`` estimated from this
        result's trials, e.g. one value of a pmf (``None``: exact)."""
        return None if self.trials is None else binomial_stderr(p, self.trials)

    # -- tables ---------------------------------------------------------------------------
    def summary(self) -> pd.DataFrame:
        """One row per outcome: mean, standard error, sd, median, 5% and 95% quantiles."""
        import pandas as pd

        rows = []
        for name, dist in self.distributions.items():
            rows.append({"outcome": name, "mean": dist.mean, "stderr": dist.stderr,
                         "sd": dist.std, "p05": dist.quantile(0.05),
                         "median": dist.quantile(0.5), "p95": dist.quantile(0.95),
                         "max": len(dist.probabilities) - 1})
        for name, p in self.probabilities.items():
            rows.append({"outcome": name, "mean": p, "stderr": self.probability_stderr(name)})
        frame = pd.DataFrame(rows).set_index("outcome")
        if self.trials is None:
            frame = frame.drop(columns="stderr")
        return frame

    def to_frame(self) -> pd.DataFrame:
        """Tidy frame: one row per (outcome, k) with P(== k) and P(>= k)."""
        import pandas as pd

        parts = []
        for name, dist in self.distributions.items():
            parts.append(pd.DataFrame({"outcome": name, "value": dist.support,
                                       "probability": dist.probabilities,
                                       "at_least": dist.at_least()}))
        return pd.concat(parts, ignore_index=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of the command line: method, trials, seed, then each outcome."""
        out: dict[str, Any] = {"method": self.method}
        if self.method == MONTE_CARLO:
            out["trials"] = self.trials
            out["seed"] = self.seed
            if self.inputs.get("engine"):   # which sampler drew the trials, when not the kernel
                out["engine"] = self.inputs["engine"]
            if self.inputs.get("seed_spawn_key"):
                out["seed_spawn_key"] = list(self.inputs["seed_spawn_key"])
        for name, dist in self.distributions.items():
            block: dict[str, Any] = {"mean": dist.mean}
            if dist.stderr is not None:
                block["stderr"] = dist.stderr
            block["pmf"] = {str(k): float(p) for k, p in enumerate(dist.probabilities) if p > 0}
            out[name] = block
        for name, p in self.probabilities.items():
            out[name] = p
        if "precision" in self.inputs:
            out["precision"] = self.inputs["precision"]
        return out

    # -- presentation: thin, written and drawn by the modules the top level names ---------
    # (core.writing: mathhammer.report.results; core.drawing: mathhammer.charts.methods)
    def to_text(self, max_rows: int = 120) -> str:
        """A readable plain-text report (the command line's default output): the summary,
        then P(= k) and P(>= k) for every k up to where P(>= k) drops below 0.05% (a
        footnote says so; beyond ``max_rows`` values of k, every n-th k and a footnote).
        Written by :func:`mathhammer.report.results.result_text`.

        Raises
        ------
        OptionError
            When ``max_rows`` is not a whole number from 1 to :data:`MAX_TEXT_ROWS`.
        """
        from mathhammer.core.inputs import whole_number
        from mathhammer.core.writing import result_writer

        max_rows = whole_number(max_rows, "max_rows (rows of each table)", 1, MAX_TEXT_ROWS)
        return str(result_writer().result_text(self, max_rows))

    def table(self, digits: int = 3) -> Any:
        """The summary as a table ready to paste: one row per outcome (named in words),
        means to ``digits`` significant figures with their standard errors (a Monte Carlo
        mean never shows more decimals than its error supports), probabilities as
        percentages, and a caption line with the engine and situation (see
        :func:`mathhammer.report.tables.format_value` for the rule); a
        :class:`mathhammer.report.tables.Table`."""
        from mathhammer.core.writing import result_writer

        return result_writer().result_table(self, digits)

    def to_markdown(self, digits: int = 3) -> str:
        """Markdown for articles: a caption line (engine, situation), the summary, then
        P(= k) and P(>= k) per outcome as percentages to ``digits`` significant figures
        (Monte Carlo: no more decimals than the standard error supports; a value that never
        came up reads "not seen", an impossible one "0%")."""
        from mathhammer.core.writing import result_writer

        return str(result_writer().result_markdown(self, digits))

    def plot(self, outcome: str = "damage", *, kind: str = "distribution", ax: Any = None,
             **kwargs: Any) -> Any:
        """Chart of one outcome (matplotlib; drawn by :mod:`mathhammer.charts`).

        Parameters
        ----------
        outcome
            ``"damage"``, ``"models_destroyed"``...
        kind
            ``"distribution"`` (bars of P(= k), the "at least k" curve, the mean) or
            ``"at_least"`` (the "at least k" curve alone).
        ax
            Axes to draw in; a new article-width figure when ``None``.

        Returns
        -------
        The chart's artists; ``.ax.figure`` is the figure (save it with
        :func:`mathhammer.charts.save`).
        """
        from mathhammer.core.drawing import chart_drawer

        return chart_drawer().result(self, outcome, kind, ax=ax, **kwargs)

    def _repr_html_(self) -> str:
        from mathhammer.core.writing import result_writer

        return str(result_writer().result_html(self))

    def __repr__(self) -> str:
        means = ", ".join(f"{k}={d.mean:.3f}" for k, d in self.distributions.items())
        return f"<Result {self.method}: {means}>"
