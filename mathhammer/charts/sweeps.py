"""Line charts: a metric against a swept parameter (:func:`sweep_lines`) and per-round
survival curves of battle-round scenarios (:func:`survival`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd

from mathhammer.charts.data import TIDY, frame_note
from mathhammer.charts.fitting import axes_figure, fit_to_figure
from mathhammer.charts.layout import (
    axes_or_new,
    capitalised,
    checked_options,
    distinct_labels,
    figure_png,
    fit_limits,
    grow_to_fit,
    integer_axis,
    label_chars,
    legend_outside,
    percent_axis,
    series_style,
    stacked_marker_size,
    style,
    wrap,
)
from mathhammer.charts.panels import (
    chart_title,
    facets,
    finish_panels,
    panel_axes,
    panel_columns,
    series_index,
)
from mathhammer.core.inputs import chart_frame
from mathhammer.core.limits import check_chart_size
from mathhammer.report.labels import metric_label
from mathhammer.errors import OptionError

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes


# -- sweeps ---------------------------------------------------------------------------------
class LinesArtists(NamedTuple):
    ax: Any
    lines: list
    bands: list
    axes: list = []
    def _repr_png_(self) -> bytes:
        return figure_png(self)


@checked_options
def sweep_lines(frame: pd.DataFrame, parameter: str | None = None, metric: str | None = None,
                *, ax: Axes | None = None, title: str | None = None,
                facet: str | bool | None = "auto",
                ylim: tuple[float, float] | None = None) -> LinesArtists:
    """A metric against the swept parameter, one line per (attacker, target), with a band
    of ±2 Monte Carlo standard errors.

    Parameters
    ----------
    frame
        The frame of :func:`mathhammer.sweep`.
    parameter
        The swept column (default: the one column that is not attacker, target, metric,
        value or stderr).
    facet
        ``"auto"``: one panel per target when there are more than
        :data:`MAX_SERIES_PER_PANEL` lines; ``"target"`` always; ``None`` never.
    ylim
        y range (default: fitted to the data).
    """
    parameter, metric, part = _sweep_rows(chart_frame(frame), parameter, metric)
    settings = list(dict.fromkeys(part[parameter]))
    numeric = all(isinstance(s, (int, float, np.integer, np.floating))
                  and not isinstance(s, bool) for s in settings)
    position = {s: (float(s) if numeric else i) for i, s in enumerate(settings)}
    groups = list(dict.fromkeys(zip(part["attacker"], part["target"])))
    check_chart_size("lines", len(groups))
    several_targets = len({t for _, t in groups}) > 1
    several_attackers = len({a for a, _ in groups}) > 1
    names = [str(a) if not several_targets else f"{a} vs {t}" if several_attackers
             else str(t) for a, t in groups]
    panels = [str(t) for _, t in groups] if several_targets and several_attackers \
        else [""] * len(groups)
    attackers = [str(a) if p else n for (a, _), p, n in zip(groups, panels, names)]
    panel_of, panel_titles = facets(attackers, panels, facet, ax)
    faceted = len(panel_titles) > 1
    looks = series_index(attackers, panel_of, panels)
    shape = _sweep_shape(parameter, settings, numeric)
    spacing = _spacing(sorted(position.values())) if shape != "lines" else 0.0
    with style():
        axes = panel_axes(ax, len(panel_titles))
        lines, bands = [], []
        for i, (attacker, target) in enumerate(groups):
            rows = part[(part["attacker"] == attacker) & (part["target"] == target)]
            place = panel_of[:i].count(panel_of[i])
            count = panel_of.count(panel_of[i])
            # side by side within a setting, so series with equal values stay visible
            dodge = (place - (count - 1) / 2) * 0.5 * spacing / max(count, 1)
            x = np.array([position[s] for s in rows[parameter]]) + dodge
            y = rows["value"].to_numpy(dtype=float)
            se = rows["stderr"].to_numpy(dtype=float) if "stderr" in rows else \
                np.full_like(y, np.nan)
            look = {**series_style(looks[i]),
                    "markersize": 6.5 if shape != "lines" else stacked_marker_size(place, count)}
            target_ax = axes[panel_of[i]]
            if shape == "points":  # categories: points, never a slope between them
                look["linestyle"] = "none"
            (line,) = target_ax.plot(x, y, label=names[i],
                                     drawstyle="steps-mid" if shape == "steps" else "default",
                                     **look)
            lines.append(line)
            if not np.isfinite(se).any():
                continue
            spread = 2 * np.nan_to_num(se)
            if shape == "points":
                bands.append(target_ax.errorbar(x, y, yerr=spread, fmt="none",
                                                ecolor=look["color"], elinewidth=1.2,
                                                capsize=2.5, alpha=0.7))
            else:
                bands.append(target_ax.fill_between(x, y - spread, y + spread,
                                                    color=look["color"], alpha=0.15,
                                                    linewidth=0,
                                                    step="mid" if shape == "steps" else None))
        label = metric_label(metric, frame)
        everything = part["value"].to_numpy(dtype=float) + 2 * np.nan_to_num(
            part["stderr"].to_numpy(dtype=float) if "stderr" in part else 0.0)
        low, high = fit_limits(everything, probability=metric.startswith("p_"), ylim=ylim)
        for j, panel in enumerate(axes):
            _sweep_axes(panel, parameter, settings, position, numeric)
            panel.set_ylim(low, high)
            if metric.startswith("p_"):
                percent_axis(panel.yaxis, high - low)
            if j % panel_columns(len(axes)) == 0:
                panel.set_ylabel(wrap(label, 34, 2))
        against = f" vs {groups[0][1]}" if not several_targets and groups else ""
        heading = title or f"{capitalised(label)} by {parameter.replace('_', ' ')}{against}"
        if title and against:  # the caller's title: the shared target goes in the key
            note_head = against.strip() + "; "
        else:
            note_head = ""
        spans = "error bars" if shape == "points" else "bands"
        note = note_head + frame_note(frame) + (f"; {spans}: ±2 s.e." if bands else "")
        legend_names = attackers if faceted and any(panels) else None
        finish_panels(axes, lines, heading, note, panel_titles if faceted else None,
                      legend_names)
        grow_to_fit(axes_figure(axes[0]))
        fit_to_figure(axes)
    return LinesArtists(axes[0], lines, bands, axes)


def _sweep_shape(parameter: str, settings: list, numeric: bool) -> str:
    """How a sweep's series are drawn: ``"points"`` over categories (full/half range, any
    setting that is not a number), ``"steps"`` over whole-number settings (toughness,
    save, attacks: nothing lies between 4 and 5), ``"lines"`` over a continuous one."""
    if not numeric:
        return "points"
    if parameter == "save" or all(float(s).is_integer() for s in settings):
        return "steps"
    return "lines"


def _spacing(positions: list[float]) -> float:
    """The smallest gap between neighbouring settings (1 for a single setting)."""
    gaps = [b - a for a, b in zip(positions, positions[1:]) if b > a]
    return min(gaps) if gaps else 1.0


def _sweep_rows(frame, parameter, metric):
    extra = [c for c in frame.columns if c not in TIDY]
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
    return parameter, metric, frame[frame["metric"] == metric]


def _sweep_axes(ax, parameter, settings, position, numeric) -> None:
    if parameter == "save":
        ax.set_xticks([position[s] for s in settings], [_save_text(s) for s in settings])
        ax.set_xlabel("target's save")
        return
    if not numeric:
        ax.set_xticks(range(len(settings)), distinct_labels([str(s) for s in settings], 14, 2,
                                                            what="settings"))
        ax.set_xlim(-0.5, len(settings) - 0.5)
    elif all(float(s).is_integer() for s in settings):
        ax.set_xticks([position[s] for s in settings], [str(int(s)) for s in settings])
    ax.set_xlabel(parameter.replace("_", " "))


def _save_text(value: Any) -> str:
    text = str(value).strip().rstrip("+")
    return "none" if text in ("7", "-", "None", "none") else f"{text}+"


# -- survival -------------------------------------------------------------------------------
@checked_options
def survival(frame: pd.DataFrame, *, ax: Axes | None = None, title: str | None = None,
             unit: str = "unit", round: str = "round", value: str = "p_alive",
             stderr: str = "stderr", ylim: tuple[float, float] | None = None) -> LinesArtists:
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
    ``round=``, ``value=`` and ``stderr=``. ``frame.attrs["caption"]`` (engine, trials,
    seed), if present, is printed with the legend.

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
    _check_survival(chart_frame(frame), unit, round, value)
    with style():
        ax = axes_or_new(ax)
        lines, bands = [], []
        for i, name in enumerate(dict.fromkeys(frame[unit])):
            rows = frame[frame[unit] == name].sort_values(round)
            x = rows[round].to_numpy(dtype=float)
            y = rows[value].to_numpy(dtype=float)
            look = series_style(i)
            (line,) = ax.plot(x, y, label=str(name), **look)
            lines.append(line)
            if stderr in rows.columns:
                se = rows[stderr].to_numpy(dtype=float)
                if np.isfinite(se).any():
                    se = np.nan_to_num(se)
                    bands.append(ax.fill_between(x, np.clip(y - 2 * se, 0, 1),
                                                 np.clip(y + 2 * se, 0, 1),
                                                 color=look["color"], alpha=0.15,
                                                 linewidth=0))
        low, high = ylim if ylim is not None else (0.0, 1.04)
        ax.set_ylim(low, high)
        percent_axis(ax.yaxis, high - low)
        integer_axis(ax.xaxis)
        ax.set_xlabel("battle round (end of)")
        ax.set_ylabel("P(unit still on the table)")
        chart_title(ax, title or "Survival by battle round")
        note = "; ".join(p for p in (frame.attrs.get("caption", ""),
                                     "bands: ±2 s.e." if bands else "") if p)
        legend_outside(ax, lines, [str(line.get_label()) for line in lines],
                       title=note or None, width=label_chars(ax, 0.4, 26, 14))
        grow_to_fit(axes_figure(ax))
        fit_to_figure([ax])
    return LinesArtists(ax, lines, bands, [ax])


def _check_survival(frame: pd.DataFrame, unit: str, round: str, value: str) -> None:
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
