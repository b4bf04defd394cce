"""Publication-quality charts (matplotlib, imported lazily): ``from mathhammer import charts``.

Every function takes ``ax=None`` (a new figure of article width is made when it is ``None``)
and returns its artists in a small named tuple whose ``ax`` field leads to the figure
(``artists.ax.figure``); notebooks display the tuple as the chart, and :func:`save` writes
PNG, SVG (text kept as text) or PDF.

- :func:`distribution`: bars of P(exactly k) and the "at least k" steps on a second axis,
  mean marked, for one outcome of a result or for a bare distribution.
- :func:`overlay`: several results' "at least k" steps, head to head.
- :func:`bars`: one metric per attacker, grouped by target, with ±2 s.e. error bars.
- :func:`heatmap`: a comparison grid with the values printed in the cells.
- :func:`sweep_lines`: a metric against the swept parameter of :func:`mathhammer.sweep`.
- :func:`survival`: per-round survival curves of battle-round scenarios.

Charts are labelled from their data: a result names its outcomes (``label``), what it is
about (``subject``) and how it was computed (``caption``: engine, trials, seed, situation);
a tidy frame names its metrics through :mod:`mathhammer.report.labels` (which the games fill
in; ``attrs["labels"]`` overrides) and carries its engine and ``attrs["situation"]``. This
package knows no game and imports no result type: it reads any object with those public
methods.

Layout adapts to the content: long labels are wrapped, then shortened around the words that
tell them apart (the full text stays on the artist and in the SVG as a tooltip; a chart
that cannot tell its labels apart or fit a caller's figure at 8 pt says so in one
:class:`CrowdedChart` warning), legends sit outside the plotting area, captions
under it, titles above; the constrained layout keeps everything inside the figure, and the
heat map grows with its grid. Series differ in colour, line style and marker; beyond
:data:`MAX_SERIES_PER_PANEL` series, overlays and sweeps draw one panel per target.

This ``__init__`` is the charts' public face (``charts.heatmap(frame)``,
``charts.bars(frame, "expected_damage")``, ``charts.overlay(results)``,
``charts.save(art, "chart.svg")``); each kind is drawn by a module of its own
(:mod:`~mathhammer.charts.distributions`, :mod:`~mathhammer.charts.bar_charts`,
:mod:`~mathhammer.charts.heatmaps`, :mod:`~mathhammer.charts.sweeps`), on what
:mod:`~mathhammer.charts.data` reads of the data, the panels and titles of
:mod:`~mathhammer.charts.panels` and the layout of :mod:`~mathhammer.charts.layout`.

Examples
--------
>>> import mathhammer as mh
>>> from mathhammer import charts
>>> frame = mh.compare(['Lascannon: 48" A1 BS3+ S12 AP-3 D6+1'], ["MEQ", "VEQ"])
>>> len(charts.bars(frame).bars)  # one set of bars per target
2
"""

from __future__ import annotations

from mathhammer.charts.bar_charts import BarsArtists, bars
from mathhammer.charts.fitting import CrowdedChart
from mathhammer.charts.distributions import (DistributionArtists, OverlayArtists,
                                             distribution, overlay)
from mathhammer.charts.heatmaps import HeatmapArtists, heatmap
from mathhammer.charts.layout import (DPI, FIGSIZE, MARKERS, MAX_SERIES_PER_PANEL, PALETTE,
                                      new_axes, save, series_style, style)
from mathhammer.charts.sweeps import LinesArtists, survival, sweep_lines

# Each chart kind names this module as its home, so help(), reprs, pickles and doctests find
# it under its public name.
for _public in (BarsArtists, DistributionArtists, HeatmapArtists, LinesArtists, OverlayArtists,
                bars, distribution, heatmap, overlay, survival, sweep_lines):
    _public.__module__ = __name__
del _public

__all__ = [
    "DPI",
    "FIGSIZE",
    "MARKERS",
    "MAX_SERIES_PER_PANEL",
    "PALETTE",
    "BarsArtists",
    "CrowdedChart",
    "DistributionArtists",
    "HeatmapArtists",
    "LinesArtists",
    "OverlayArtists",
    "bars",
    "distribution",
    "heatmap",
    "new_axes",
    "overlay",
    "save",
    "series_style",
    "style",
    "survival",
    "sweep_lines",
]
