"""A result in words: the plain-text report, the table, Markdown and HTML of one
:class:`~mathhammer.core.result.Result`.

The result's own methods (``to_text``, ``table``, ``to_markdown``, ``_repr_html_``) are thin
and call these; like the rest of :mod:`mathhammer.report`, this module imports nothing of
the engines: it reads a result by its public attributes and methods (``distributions``,
``probabilities``, ``trials``, ``seed``, ``inputs``, ``label``, ``probability_stderr``,
``caption``, ``subject``), so a game's own result with those reads the same.
"""

from __future__ import annotations

import html
import math
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:   # pandas is imported when a table is asked for: the command line's text
    from mathhammer.report.tables import Table   # output never does (~0.5 s at start-up)


def result_text(result: Any, max_rows: int = 120) -> str:
    """The readable plain-text report of ``result`` (see
    :meth:`~mathhammer.core.result.Result.to_text`; ``max_rows`` checked there)."""
    lines = []
    lines.append(f"Engine: {result.engine_note}")
    if "precision" in result.inputs:
        reached = result.inputs["precision"]
        state = "reached" if reached.get("reached") else "NOT reached (trial cap)"
        lines.append(f"  trials=auto: target standard errors {state}")
    lines.extend(_summary_lines(result))
    printed: list[tuple[str, Any]] = []
    for name, dist in result.distributions.items():
        lines.append("")
        same = next((label for label, shown_dist in printed
                     if np.array_equal(shown_dist.probabilities, dist.probabilities)), None)
        if same is not None:   # one-wound models: wounds lost and models destroyed agree
            lines.append(f"{result.label(name)}: the same distribution as {same} (they "
                         "coincide here), not printed twice")
            continue
        printed.append((result.label(name), dist))
        lines.append(f"{result.label(name)}:")
        lines.append(f"  {'k':>4}  {'P(= k)':>8}  {'P(>= k)':>8}")
        at_least = dist.at_least()
        shown, step = rows_to_show(dist.probabilities, max_rows)
        for k in shown:
            lines.append(f"  {k:>4}  {dist.probabilities[k]:8.4f}  {at_least[k]:8.4f}")
        if step > 1:
            lines.append(f"  (every {_ordinal(step)} k shown, and the last)")
        if shown[-1] < len(dist.probabilities) - 1:
            lines.append(f"  (values with P < 0.0005 beyond k = {shown[-1]} omitted)")
    return "\n".join(lines)


def _summary_lines(result: Any) -> list[str]:
    """Each outcome's mean (± s.e.), median and 90% point; each event's probability."""
    summary = []
    width = max([24] + [len(result.label(name)) for name in result.distributions])
    for name, dist in result.distributions.items():
        err = "" if dist.stderr is None else f" ± {dist.stderr:.4f}"
        summary.append(f"  {result.label(name):<{width}} mean {dist.mean:8.4f}{err}"
                       f"   median {dist.quantile(0.5)}   90% ≤ {dist.quantile(0.9)}")
    for name, p in result.probabilities.items():
        p_err = result.probability_stderr(name)
        err_text = "" if p_err is None else f" ± {p_err:.4f}"
        summary.append(f"  P({result.label(name)}) = {p:.4f}{err_text}")
    return summary


def result_table(result: Any, digits: int = 3) -> Table:
    """The summary of ``result`` as a :class:`~mathhammer.report.tables.Table` (see
    :meth:`~mathhammer.core.result.Result.table`)."""
    import pandas as pd

    from mathhammer.report.tables import Table, check_digits, estimate_parts, format_value

    digits = check_digits(digits)
    monte_carlo = result.trials is not None
    rows = []
    for name, dist in result.distributions.items():
        mean, error = estimate_parts(dist.mean, dist.stderr, digits, trials=result.trials)
        row = {"outcome": result.label(name), "mean": mean}
        if monte_carlo:
            row["stderr"] = error.removeprefix("± ")
        row.update({"sd": format_value(dist.std, digits), "5%": str(dist.quantile(0.05)),
                    "median": str(dist.quantile(0.5)), "95%": str(dist.quantile(0.95)),
                    "max": str(len(dist.probabilities) - 1)})
        rows.append(row)
    for name, p in result.probabilities.items():
        mean, error = estimate_parts(p, result.probability_stderr(name), digits,
                                     percent=True, trials=result.trials)
        row = {"outcome": f"P({result.label(name)})", "mean": mean}
        if monte_carlo:
            row["stderr"] = error.removeprefix("± ")
        rows.append(row)
    return Table(pd.DataFrame(rows).fillna(""), result.caption)


def result_markdown(result: Any, digits: int = 3) -> str:
    """Markdown of ``result`` for articles (see
    :meth:`~mathhammer.core.result.Result.to_markdown`)."""
    import pandas as pd

    from mathhammer.report.tables import Table

    parts = [result_table(result, digits).to_markdown()]
    for name, dist in result.distributions.items():
        shown, _ = rows_to_show(dist.probabilities, 10_000)
        at_least = dist.at_least()
        frame = pd.DataFrame({
            "k": [str(k) for k in shown],
            "P(= k)": [_share(result, dist.probabilities[k], digits) for k in shown],
            "P(>= k)": [_share(result, at_least[k], digits) for k in shown]})
        parts += ["", f"**{result.label(name)}**", "", Table(frame).to_markdown()]
    return "\n".join(parts)


def result_html(result: Any) -> str:
    """A notebook's view of ``result``: its subject in bold, then its table."""
    subject = html.escape(result.subject or "mathhammer result")
    return f"<p><b>{subject}</b></p>" + result_table(result).to_html()


def _share(result: Any, p: float, digits: int) -> str:
    """One probability of a pmf table, as precise as the engine allows."""
    from mathhammer.report.tables import estimate_parts

    return estimate_parts(float(p), result.proportion_stderr(p), digits, percent=True,
                          trials=result.trials)[0]


def rows_to_show(pmf: np.ndarray, max_rows: int) -> tuple[list[int], int]:
    """The k to print (every k up to the last with P >= 0.0005, thinned to ``max_rows``
    only beyond it) and the step between them.

    Examples
    --------
    >>> rows_to_show(np.array([0.5, 0.5, 0.0001]), 10)
    ([0, 1], 1)
    """
    significant = [k for k, p in enumerate(pmf) if p >= 0.0005]
    if not significant:
        return [0], 1
    last = significant[-1]
    rows = list(range(last + 1))
    step = 1
    if len(rows) > max_rows:
        step = math.ceil(len(rows) / max_rows)
        rows = rows[::step]
        if rows[-1] != last:
            rows.append(last)
    return rows, step


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
