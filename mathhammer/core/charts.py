"""Publication-quality charts (matplotlib, imported lazily).

Every function takes ``ax=None`` (a new figure of article width is made when it is ``None``)
and returns its artists in a small named tuple whose ``ax`` field leads to the figure
(``artists.ax.figure``); notebooks display the tuple as the chart, and :func:`save` writes
PNG or SVG. Charts are titled, their axes
labelled with units, and drawn with the Okabe–Ito colour-blind-safe palette, with
different markers and line styles as well so they survive greyscale printing.

- :func:`distribution`: bars of P(exactly k) and the "at least k" curve on a second axis,
  mean marked, for any outcome of a :class:`~mathhammer.core.result.Result`.
- :func:`overlay`: several results' "at least k" curves, head to head.
- :func:`heatmap`: a comparison grid (the tidy frame of :func:`mathhammer.wh40k.compare`) with
  values printed in the cells.
- :func:`sweep_lines`: a metric against the swept parameter of :func:`mathhammer.sweep`.
- :func:`survival`: per-round survival curves of battle-round scenarios, from a tidy frame
  (see :func:`survival` for the data interface).

Figures are made with :class:`matplotlib.figure.Figure` directly, not through ``pyplot``,
so nothing accumulates in pyplot's global figure list. This module is game-independent: it
reads results and tidy frames only.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from mathhammer.core.result import Distribution, Result

#: Okabe & Ito (2008) colour-blind-safe palette, in the order lines are drawn.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
           "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)), "-", "--")
#: Default figure size in inches (7 in: a typical article / two-column page width).
FIGSIZE = (7.0, 4.2)
#: Default resolution of saved PNGs: 7 x 4.2 in -> 1050 x 630 px.
DPI = 150
FORMATS = (".png", ".svg", ".pdf")

_RC = {
    "font.size": 11, "axes.titlesize": 12.5, "axes.titleweight": "bold",
    "axes.labelsize": 11, "xtick.labelsize": 10, "ytick.labelsize": 10,
    "legend.fontsize": 9.5, "legend.frameon": False, "axes.spines.top": False,
    "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.6,
    "lines.linewidth": 2.0, "lines.markersize": 5, "svg.hashsalt": "mathhammer",
    "svg.fonttype": "path",
}


# -- plumbing -------------------------------------------------------------------------------
@contextlib.contextmanager
def style() -> Iterator[None]:
    """The house style as a matplotlib ``rc_context`` (used by every chart function)."""
    import matplotlib

    with matplotlib.rc_context(_RC):
        yield


def new_axes(figsize: tuple[float, float] = FIGSIZE) -> Axes:
    """A fresh figure (constrained layout, house style) with one axes."""
    from matplotlib.figure import Figure

    with style():
        fig = Figure(figsize=figsize, layout="constrained")
        return fig.add_subplot()


def _axes(ax: Axes | None, figsize: tuple[float, float] = FIGSIZE) -> Axes:
    return new_axes(figsize) if ax is None else ax


def save(fig: Any, path: str | os.PathLike[str], *, dpi: int = DPI) -> Path:
    """Write a figure (or anything with an ``ax``/``figure``) as PNG, SVG or PDF.

    Parameters
    ----------
    fig
        A :class:`~matplotlib.figure.Figure`, an axes, or the artists tuple a chart
        function returned.
    path
        File name; the suffix (``.png``, ``.svg``, ``.pdf``) picks the format.
    dpi
        PNG resolution (default 150: a 7 x 4.2 in figure is 1050 x 630 px).
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise OptionError(f"cannot write a chart to '{path}': use a .png, .svg or .pdf "
                          "file name")
    figure = _figure_of(fig)
    metadata = {"Date": None} if suffix in (".svg",) else None
    if suffix == ".pdf":
        metadata = {"CreationDate": None, "ModDate": None}
    with style():  # svg.hashsalt is read at save time: stable ids, reproducible SVGs
        figure.savefig(path, dpi=dpi, format=suffix[1:], metadata=metadata)
    return path


def _figure_of(obj: Any) -> Figure:
    from matplotlib.figure import Figure

    if isinstance(obj, Figure):
        return obj
    if hasattr(obj, "ax"):
        return obj.ax.figure
    if hasattr(obj, "figure") and obj.figure is not None:
        return obj.figure
    raise OptionError(f"cannot find a figure in {type(obj).__name__}")


def _wrap(title: str, width: int = 64) -> str:
    """Long titles on two or more lines so they stay inside an article-width figure."""
    import textwrap

    return "\n".join(textwrap.wrap(title, width)) if len(title) > width else title


def _percent_axis(axis: Any) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=0))


def _integer_axis(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=3))


def _engine_note(result: Result) -> str:
    if result.trials is None:
        return "exact"
    return f"Monte Carlo, {result.trials:,} trials, seed {result.seed}"


def _describe(result: Result) -> str:
    """Short 'weapons vs target' text from a result's inputs."""
    weapons = result.inputs.get("weapons") or []
    names = []
    for w in weapons:
        text = str(w)
        names.append(text.split(":")[0] if ":" in text else text)
    target = str(result.inputs.get("target", ""))
    target = target.split(":")[0] if ":" in target else target
    who = " + ".join(names) if names else ""
    return f"{who} vs {target}" if who and target else who or target


def _unit_of(outcome: str) -> str:
    return {"damage": "wounds", "models_destroyed": "models",
            "attacker_mortal_wounds": "mortal wounds"}.get(outcome, "count")


def _visible_max(dist: Distribution, tail: float = 5e-4) -> int:
    at_least = dist.at_least()
    big = np.flatnonzero(at_least >= tail)
    return max(int(big[-1]) if len(big) else 0, 1)


def _figure_png(self: Any) -> bytes:
    """Notebook display of a chart's artists: the figure as a 100-dpi PNG."""
    import io

    buffer = io.BytesIO()
    with style():
        self.ax.figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()


# -- distribution ---------------------------------------------------------------------------
class DistributionArtists(NamedTuple):
    ax: Any
    bars: Any
    curve: Any
    mean_line: Any
    twin: Any
    _repr_png_ = _figure_png


def distribution(result: Result | Distribution, outcome: str = "damage", *,
                 ax: Axes | None = None, title: str | None = None,
                 label: str | None = None) -> DistributionArtists:
    """Bars of P(exactly k), the "at least k" curve on a second axis, and the mean.

    Parameters
    ----------
    result
        A :class:`Result` (then ``outcome`` picks the distribution) or a
        :class:`Distribution`.
    outcome
        ``"damage"``, ``"models_destroyed"``, ``"attacker_mortal_wounds"``...
    ax
        Axes to draw in; a new article-width figure when ``None``.
    title
        Chart title (default: the outcome, weapons and target).
    label
        Axis label of the outcome (default: the result's label, e.g. "wounds lost").

    Returns
    -------
    DistributionArtists
        ``ax``, ``bars`` (BarContainer), ``curve`` (Line2D), ``mean_line`` (Line2D) and
        ``twin`` (the second axes).

    Notes
    -----
    Values of k beyond the point where P(at least k) drops below 0.05% are not drawn.
    """
    from mathhammer.core.result import Result

    if isinstance(result, Result):
        dist = result._dist(outcome)
        name = label or result.label(outcome)
        default_title = f"{name[:1].upper()}{name[1:]}: {_describe(result)}"
        note = _engine_note(result)
    else:
        dist = result
        name = label or outcome.replace("_", " ")
        default_title = name[:1].upper() + name[1:]
        note = "exact" if dist.is_exact else f"Monte Carlo, {dist.trials:,} trials"
    with style():
        ax = _axes(ax)
        top = _visible_max(dist)
        k = np.arange(top + 1)
        pmf = dist.probabilities[: top + 1]
        pmf = np.pad(pmf, (0, top + 1 - len(pmf)))
        at_least = np.pad(dist.at_least(), (0, max(0, top + 1 - len(dist.probabilities))))
        at_least = at_least[: top + 1]
        bars = ax.bar(k, pmf, width=0.8, color=PALETTE[0], alpha=0.85, zorder=2,
                      label="P(exactly k)")
        twin = ax.twinx()
        twin.grid(False)
        twin.spines["right"].set_visible(True)
        twin.spines["top"].set_visible(False)
        (curve,) = twin.plot(k, at_least, color=PALETTE[3], marker="o", markersize=4,
                             linewidth=2, zorder=3, label="P(at least k)")
        mean = dist.mean
        err = dist.stderr
        mean_text = f"mean {mean:.2f}" + (f" ± {err:.2f}" if err is not None and err >= 0.005
                                          else "")
        mean_line = ax.axvline(mean, color="#000000", linestyle="--", linewidth=1.4,
                               zorder=4, label=mean_text)
        ax.set_xlim(-0.6, top + 0.6)
        ax.set_ylim(0, max(float(pmf.max()) * 1.15, 0.01))
        twin.set_ylim(0, 1.04)
        _percent_axis(ax.yaxis)
        _percent_axis(twin.yaxis)
        _integer_axis(ax.xaxis)
        ax.set_xlabel(f"k ({name})")
        ax.set_ylabel("P(exactly k)", color=PALETTE[0])
        twin.set_ylabel("P(at least k)", color=PALETTE[3])
        ax.set_title(_wrap(title or default_title), loc="left")
        handles = [bars, curve, mean_line]
        _legend_below(ax, handles, note)
        ax.set_axisbelow(True)
    return DistributionArtists(ax, bars, curve, mean_line, twin)


# -- overlay --------------------------------------------------------------------------------
class OverlayArtists(NamedTuple):
    ax: Any
    lines: list
    _repr_png_ = _figure_png


def overlay(results: Mapping[Any, Result] | Sequence[Result], outcome: str = "damage", *,
            ax: Axes | None = None, title: str | None = None,
            labels: Sequence[str] | None = None) -> OverlayArtists:
    """Several results' "at least k" curves on one chart, for head-to-head comparisons.

    Parameters
    ----------
    results
        A dict label -> Result (tuple keys, as from :func:`mathhammer.wh40k.compare.results`, are
        joined with " vs "), or a list of results (labelled "weapons vs target").
    outcome
        Which distribution to draw.
    labels
        Legend labels overriding the defaults.

    Returns
    -------
    OverlayArtists
        ``ax`` and ``lines`` (one Line2D per result, in order).
    """
    if isinstance(results, Mapping):
        items = [(" vs ".join(map(str, k)) if isinstance(k, tuple) else str(k), r)
                 for k, r in results.items()]
    else:
        items = [(_describe(r), r) for r in results]
    if not items:
        raise OptionError("overlay needs at least one result")
    if labels is not None:
        if len(labels) != len(items):
            raise OptionError(f"{len(labels)} labels for {len(items)} results")
        items = [(lab, r) for lab, (_, r) in zip(labels, items)]
    with style():
        ax = _axes(ax)
        lines = []
        top = 1
        for i, (name, result) in enumerate(items):
            dist = result._dist(outcome)
            top = max(top, _visible_max(dist))
        for i, (name, result) in enumerate(items):
            dist = result._dist(outcome)
            at_least = dist.at_least()
            k = np.arange(top + 1)
            values = np.pad(at_least, (0, max(0, top + 1 - len(at_least))))[: top + 1]
            (line,) = ax.plot(k, values, color=PALETTE[i % len(PALETTE)],
                              marker=MARKERS[i % len(MARKERS)],
                              linestyle=LINESTYLES[i % len(LINESTYLES)],
                              label=f"{name} (mean {dist.mean:.2f})")
            lines.append(line)
        first = items[0][1]
        name = first.label(outcome)
        ax.set_xlim(-0.3, top + 0.3)
        ax.set_ylim(0, 1.04)
        _percent_axis(ax.yaxis)
        _integer_axis(ax.xaxis)
        ax.set_xlabel(f"k ({name})")
        ax.set_ylabel("P(at least k)")
        ax.set_title(_wrap(title or f"Chance of at least k {name}"), loc="left")
        engines = {_engine_note(r) for _, r in items}
        ax.legend(loc="upper right", title=engines.pop() if len(engines) == 1 else None,
                  title_fontsize=8.5, alignment="left")
    return OverlayArtists(ax, lines)


# -- heat map -------------------------------------------------------------------------------
class HeatmapArtists(NamedTuple):
    ax: Any
    image: Any
    texts: list
    colorbar: Any
    _repr_png_ = _figure_png


_METRIC_LABELS = {
    "expected_damage": "expected wounds lost",
    "expected_models_destroyed": "expected models destroyed",
    "p_unit_destroyed": "P(unit destroyed)",
    "expected_attacker_mortal_wounds": "expected hazard mortal wounds",
    "damage_per_100pts": "wounds lost per 100 points",
    "models_destroyed_per_100pts": "models destroyed per 100 points",
}
_TIDY = ("attacker", "target", "metric", "value", "stderr")


def heatmap(frame: pd.DataFrame, metric: str | None = None, *, ax: Axes | None = None,
            title: str | None = None, rows: str = "attacker", columns: str = "target",
            cmap: str = "cividis", digits: int = 3) -> HeatmapArtists:
    """A comparison grid as a heat map with the values printed in the cells.

    Parameters
    ----------
    frame
        A tidy frame with ``metric`` and ``value`` columns plus the ``rows`` and ``columns``
        columns (the frame of :func:`mathhammer.wh40k.compare`). Any further columns (a
        :func:`mathhammer.sweep` parameter) are folded into the row labels.
    metric
        Which metric to draw (default: the first in the frame, ``expected_damage``).
    cmap
        A perceptually uniform, colour-blind-safe colormap (default ``cividis``).
    digits
        Significant figures printed in the cells (probabilities print as percentages).

    Returns
    -------
    HeatmapArtists
        ``ax``, ``image`` (AxesImage), ``texts`` (one Text per cell, row-major) and
        ``colorbar``.
    """
    import matplotlib

    for column in ("metric", "value", rows, columns):
        if column not in frame.columns:
            raise OptionError(f"heat map needs a '{column}' column; the frame has: "
                              f"{', '.join(map(str, frame.columns))}")
    present = list(dict.fromkeys(frame["metric"]))
    metric = metric or present[0]
    if metric not in present:
        raise OptionError(f"no metric '{metric}' in this frame; it has: {', '.join(present)}")
    part = frame[frame["metric"] == metric].copy()
    extra = [c for c in part.columns if c not in _TIDY and c not in (rows, columns)]
    if extra:
        part[rows] = [f"{r} ({', '.join(f'{c} {v}' for c, v in zip(extra, vals))})"
                      for r, *vals in part[[rows, *extra]].itertuples(index=False)]
    table = part.pivot_table(index=rows, columns=columns, values="value", aggfunc="first",
                             sort=False)
    values = table.to_numpy(dtype=float)
    n_rows, n_cols = values.shape
    is_probability = metric.startswith("p_")
    width = min(max(4.8, 1.0 * n_cols + 3.2), 8.0)
    height = min(max(2.6, 0.5 * n_rows + 1.7), 9.0)
    with style():
        ax = _axes(ax, (width, height))
        finite = values[np.isfinite(values)]
        vmin = 0.0 if finite.size == 0 else min(0.0, float(finite.min()))
        vmax = 1.0 if is_probability else (float(finite.max()) if finite.size else 1.0)
        if vmax <= vmin:
            vmax = vmin + 1.0
        image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto",
                          interpolation="nearest")
        colormap = matplotlib.colormaps[cmap]
        texts = []
        for i in range(n_rows):
            for j in range(n_cols):
                v = values[i, j]
                if not np.isfinite(v):
                    text = "–"
                    colour = "#000000"
                else:
                    text = _cell_text(v, is_probability, digits)
                    r, g, b, _ = colormap((v - vmin) / (vmax - vmin))
                    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
                    colour = "#000000" if luminance > 0.5 else "#ffffff"
                texts.append(ax.text(j, i, text, ha="center", va="center", color=colour,
                                     fontsize=10))
        ax.set_xticks(range(n_cols), [str(c) for c in table.columns],
                      rotation=30 if max((len(str(c)) for c in table.columns),
                                         default=0) > 8 else 0,
                      ha="right" if max((len(str(c)) for c in table.columns),
                                        default=0) > 8 else "center")
        ax.set_yticks(range(n_rows), [str(r) for r in table.index])
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.tick_params(length=0)
        ax.set_xlabel(columns)
        ax.set_ylabel(rows)
        label = _METRIC_LABELS.get(metric, metric.replace("_", " "))
        colorbar = ax.figure.colorbar(image, ax=ax, shrink=0.9)
        colorbar.set_label(label)
        if is_probability:
            _percent_axis(colorbar.ax.yaxis)
        colorbar.outline.set_visible(False)
        ax.set_title(title or f"{label[:1].upper()}{label[1:]}", loc="left")
        note = _frame_note(frame)
        if note:
            ax.set_title(note, loc="right", fontsize=8.5, color="#555555",
                         fontweight="normal")
    return HeatmapArtists(ax, image, texts, colorbar)


def _cell_text(value: float, is_probability: bool, digits: int) -> str:
    if is_probability:
        pct = 100 * value
        if 0 < pct < 0.5:
            return "<1%"
        if 99.5 < pct < 100:
            return ">99%"
        return f"{pct:.0f}%"
    if abs(value) >= 10 ** digits:
        return f"{value:.0f}"
    return f"{value:.{digits}g}"


def _save_text(value: Any) -> str:
    text = str(value).strip().rstrip("+")
    return "none" if text in ("7", "-", "None", "none") else f"{text}+"


def _legend_below(ax: Any, handles: list, title: str | None) -> Any:
    return ax.legend(handles, [h.get_label() for h in handles], loc="upper center",
                     bbox_to_anchor=(0.5, -0.16), ncol=len(handles), title=title,
                     title_fontsize=8.5)


def _frame_note(frame: pd.DataFrame) -> str:
    method = frame.attrs.get("method")
    if method == "exact":
        return "exact"
    if method == "monte-carlo" and frame.attrs.get("trials"):
        return f"Monte Carlo, {frame.attrs['trials']:,} trials per cell"
    return ""


# -- sweeps ---------------------------------------------------------------------------------
class LinesArtists(NamedTuple):
    ax: Any
    lines: list
    bands: list
    _repr_png_ = _figure_png


def sweep_lines(frame: pd.DataFrame, parameter: str | None = None, metric: str | None = None,
                *, ax: Axes | None = None, title: str | None = None) -> LinesArtists:
    """A metric against the swept parameter, one line per (attacker, target), with a band
    of ±2 Monte Carlo standard errors.

    Parameters
    ----------
    frame
        The frame of :func:`mathhammer.sweep`.
    parameter
        The swept column (default: the one column that is not attacker, target, metric,
        value or stderr).
    """
    extra = [c for c in frame.columns if c not in _TIDY]
    if parameter is None:
        if len(extra) != 1:
            raise OptionError("give the swept parameter: the frame has "
                              f"{len(extra)} extra columns ({', '.join(extra) or 'none'})")
        parameter = extra[0]
    if parameter not in frame.columns:
        raise OptionError(f"no column '{parameter}' in this frame")
    present = list(dict.fromkeys(frame["metric"]))
    metric = metric or present[0]
    if metric not in present:
        raise OptionError(f"no metric '{metric}' in this frame; it has: {', '.join(present)}")
    part = frame[frame["metric"] == metric]
    settings = list(dict.fromkeys(part[parameter]))
    numeric = all(isinstance(s, (int, float, np.integer, np.floating))
                  and not isinstance(s, bool) for s in settings)
    position = {s: (float(s) if numeric else i) for i, s in enumerate(settings)}
    groups = list(dict.fromkeys(zip(part["attacker"], part["target"])))
    several_targets = len({t for _, t in groups}) > 1
    several_attackers = len({a for a, _ in groups}) > 1
    with style():
        ax = _axes(ax)
        lines, bands = [], []
        for i, (attacker, target) in enumerate(groups):
            rows = part[(part["attacker"] == attacker) & (part["target"] == target)]
            x = np.array([position[s] for s in rows[parameter]])
            y = rows["value"].to_numpy(dtype=float)
            se = rows["stderr"].to_numpy(dtype=float) if "stderr" in rows else np.full_like(y,
                                                                                           np.nan)
            if several_attackers and several_targets:
                name = f"{attacker} vs {target}"
            elif several_targets:
                name = str(target)
            else:
                name = str(attacker)
            (line,) = ax.plot(x, y, color=PALETTE[i % len(PALETTE)],
                              marker=MARKERS[i % len(MARKERS)],
                              linestyle=LINESTYLES[i % len(LINESTYLES)], label=name)
            lines.append(line)
            if np.isfinite(se).any():
                bands.append(ax.fill_between(x, y - 2 * np.nan_to_num(se),
                                             y + 2 * np.nan_to_num(se),
                                             color=PALETTE[i % len(PALETTE)], alpha=0.2,
                                             linewidth=0))
        if not numeric:
            ax.set_xticks(range(len(settings)), [str(s) for s in settings])
        elif all(float(s).is_integer() for s in settings):
            ax.set_xticks([position[s] for s in settings], [str(int(s)) for s in settings])
        label = _METRIC_LABELS.get(metric, metric.replace("_", " "))
        if metric.startswith("p_"):
            ax.set_ylim(0, 1.04)
            _percent_axis(ax.yaxis)
        else:
            ax.set_ylim(bottom=0)
        if parameter == "save":
            ticks = [position[s] for s in settings]
            ax.set_xticks(ticks, [_save_text(s) for s in settings])
            ax.set_xlabel("target's save")
        else:
            ax.set_xlabel(parameter.replace("_", " "))
        ax.set_ylabel(label)
        ax.set_title(title or f"{label[:1].upper()}{label[1:]} by {parameter.replace('_', ' ')}",
                     loc="left")
        note = _frame_note(frame) + ("; bands: ±2 s.e." if bands else "")
        ax.legend(loc="best", title=note or None, title_fontsize=8.5, alignment="left")
    return LinesArtists(ax, lines, bands)


# -- survival -------------------------------------------------------------------------------
def survival(frame: pd.DataFrame, *, ax: Axes | None = None, title: str | None = None,
             unit: str = "unit", round: str = "round", value: str = "p_alive",
             stderr: str = "stderr") -> LinesArtists:
    """Per-round survival curves of battle-round scenarios.

    Data interface: a tidy frame with one row per (unit, battle round):

    ============  ================================================================
    ``unit``      the unit's label (str); one curve per unit, in order of appearance
    ``round``     battle round (int, 1..5; a row for round 0, before the first round,
                  is optional and drawn at 100% if present)
    ``p_alive``   probability (0..1) that the unit still has at least one model on the
                  table at the end of that round
    ``stderr``    optional: Monte Carlo standard error of ``p_alive`` (NaN or absent for
                  exact results), drawn as a ±2 s.e. band
    ============  ================================================================

    Other columns are ignored; other column names can be mapped with ``unit=``,
    ``round=``, ``value=`` and ``stderr=``.

    Returns
    -------
    LinesArtists
        ``ax``, ``lines`` (one Line2D per unit) and ``bands`` (PolyCollections).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"unit": ["A"] * 3, "round": [1, 2, 3],
    ...                    "p_alive": [0.9, 0.6, 0.2]})
    >>> len(survival(df).lines)
    1
    """
    for column in (unit, round, value):
        if column not in frame.columns:
            raise OptionError(f"survival curves need a '{column}' column (unit, round, "
                              f"p_alive); the frame has: {', '.join(map(str, frame.columns))}")
    p = frame[value].to_numpy(dtype=float)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise OptionError(f"'{value}' must hold probabilities between 0 and 1")
    rounds = frame[round].to_numpy()
    if not np.all(np.equal(np.mod(rounds.astype(float), 1), 0)):
        raise OptionError(f"'{round}' must hold whole battle-round numbers")
    with style():
        ax = _axes(ax)
        lines, bands = [], []
        for i, name in enumerate(dict.fromkeys(frame[unit])):
            rows = frame[frame[unit] == name].sort_values(round)
            x = rows[round].to_numpy(dtype=float)
            y = rows[value].to_numpy(dtype=float)
            (line,) = ax.plot(x, y, color=PALETTE[i % len(PALETTE)],
                              marker=MARKERS[i % len(MARKERS)],
                              linestyle=LINESTYLES[i % len(LINESTYLES)], label=str(name))
            lines.append(line)
            if stderr in rows.columns:
                se = rows[stderr].to_numpy(dtype=float)
                if np.isfinite(se).any():
                    se = np.nan_to_num(se)
                    bands.append(ax.fill_between(x, np.clip(y - 2 * se, 0, 1),
                                                 np.clip(y + 2 * se, 0, 1),
                                                 color=PALETTE[i % len(PALETTE)], alpha=0.2,
                                                 linewidth=0))
        ax.set_ylim(0, 1.04)
        _percent_axis(ax.yaxis)
        _integer_axis(ax.xaxis)
        ax.set_xlabel("battle round (end of)")
        ax.set_ylabel("P(unit still on the table)")
        ax.set_title(_wrap(title or "Survival by battle round"), loc="left")
        ax.legend(loc="lower left", title="bands: ±2 s.e." if bands else None,
                  title_fontsize=8.5, alignment="left")
    return LinesArtists(ax, lines, bands)


__all__ = [
    "DPI",
    "FIGSIZE",
    "PALETTE",
    "DistributionArtists",
    "HeatmapArtists",
    "LinesArtists",
    "OverlayArtists",
    "distribution",
    "heatmap",
    "new_axes",
    "overlay",
    "save",
    "style",
    "survival",
    "sweep_lines",
]
