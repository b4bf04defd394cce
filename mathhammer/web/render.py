"""Charts and tables as the page shows them: the command line's matplotlib figures as inline
SVG (and PNG/SVG downloads), result tables as HTML.

Matplotlib is not safe to drive from several threads at once, so every figure is drawn and
rendered under :data:`CHART_LOCK` (the engines themselves run in parallel).
"""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Callable
from typing import Any

from mathhammer.charts.layout import drawn_for_width, figure_of, render
from mathhammer.web.jobs import Download

CHART_LOCK = threading.RLock()
_counter = itertools.count(1)
_ID_RE = re.compile(r'(id="|url\(#|href="#)([^")]+)')
#: Charts are drawn for the page width at this many CSS px per inch (8 pt text is then 11
#: CSS px), for widths rounded to WIDTH_STEP px between WIDTHS.
PAGE_DPI = 100
WIDTH_STEP = 40
WIDTHS = (280, 1400)


class Chart:
    """One figure, drawn when first asked for: inline SVG for the page (fetched by the page
    after the numbers, so they never wait for a chart), PNG / SVG files on demand."""

    def __init__(self, draw: Callable[[], Any], name: str) -> None:
        self._draw = draw
        self.name = name
        self._figure: Any = None
        self._inline: str | None = None
        self._for_width: dict[int, str] = {}

    @property
    def view(self) -> str:
        """The name of the answer's view that draws it (``chart-NAME``)."""
        return f"chart-{self.name}"

    def figure(self) -> Any:
        with CHART_LOCK:
            if self._figure is None:
                self._figure = figure_of(self._draw())
            return self._figure

    @property
    def inline(self) -> str:
        """The chart as an ``<svg>`` element whose ids are unique on the page."""
        with CHART_LOCK:
            if self._inline is None:
                self._inline = _unique_ids(render(self.figure(), "svg").decode("utf-8"))
            return self._inline

    def inline_for(self, width: int | None) -> str:
        """The chart as :attr:`inline`, drawn for a page ``width`` CSS px wide (rounded to
        :data:`WIDTH_STEP`, within :data:`WIDTHS`; ``None``: the article width), so its
        text fits that width at its own size instead of being scaled down."""
        if width is None:
            return self.inline
        width = min(max(WIDTHS[0], round(width / WIDTH_STEP) * WIDTH_STEP), WIDTHS[1])
        with CHART_LOCK:
            if width not in self._for_width:
                with drawn_for_width(width / PAGE_DPI):
                    figure = figure_of(self._draw())
                self._for_width[width] = _unique_ids(render(figure, "svg").decode("utf-8"))
            return self._for_width[width]

    def file(self, fmt: str) -> bytes:
        with CHART_LOCK:
            return render(self.figure(), fmt)

    def downloads(self) -> dict[str, Download]:
        return {f"{self.name}.png": Download("image/png", lambda: self.file("png")),
                f"{self.name}.svg": Download("image/svg+xml", lambda: self.file("svg"))}


def _unique_ids(svg: str) -> str:
    """An SVG document's ``<svg>`` element with ids no other chart of the page has."""
    prefix = f"c{next(_counter)}-"  # several charts share one page
    return _ID_RE.sub(lambda m: m.group(1) + prefix + m.group(2), svg[svg.index("<svg"):])


def chart_views(charts: list[Chart]) -> dict[str, Callable[..., str]]:
    """The answer's views drawing each of ``charts`` (for the page width they are given)."""
    return {chart.view: _inline_view(chart) for chart in charts}


def _inline_view(chart: Chart) -> Callable[..., str]:
    return lambda width=None: chart.inline_for(width)


def text_download(make: Callable[[], str], media_type: str = "text/markdown") -> Download:
    """A text file made when it is asked for (``make`` returns its text)."""
    return Download(f"{media_type}; charset=utf-8", lambda: make().encode("utf-8"))


def csv_download(make: Callable[[], Any]) -> Download:
    """A CSV file of the frame ``make`` returns, made when it is asked for."""
    return text_download(lambda: make().to_csv(index=False), "text/csv")


def frame_html(frame: Any, *, index: bool = True, classes: str = "grid") -> str:
    """A pandas frame as an escaped HTML table."""
    return frame.to_html(index=index, escape=True, border=0, classes=classes, na_rep="-")


#: Most rows of a "chance of at least k" table (the chart shows the rest).
AT_LEAST_ROWS = 60


def at_least_html(result: Any, outcomes: tuple[str, ...]) -> str:
    """The chance of exactly and of at least ``k`` of each outcome in ``outcomes`` that the
    result has, as one HTML table (``k`` down the side, four decimals as the command line
    prints them): the numbers behind the distribution charts."""
    import pandas as pd

    present = [o for o in outcomes if o in result.outcomes]
    columns = {}
    for outcome in present:
        label = result.label(outcome)
        columns[f"P({label} = k)"] = result.pmf(outcome)
        columns[f"P({label} ≥ k)"] = result.at_least(outcome)
    frame = pd.DataFrame(columns).fillna(0.0).head(AT_LEAST_ROWS)
    frame.index.name = "k"
    return frame.to_html(escape=True, border=0, classes="grid at-least",
                         float_format=lambda p: f"{p:.4f}")
