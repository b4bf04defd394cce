"""House style and layout helpers of the charts: one palette, series looks, label wrapping,
legends outside the data, captions, and saving (matplotlib, imported lazily); fitting a chart
into a caller's figure is :mod:`~mathhammer.charts.fitting`'s (``fit_to_figure`` and
``slot`` are imported from there).

Nothing here knows a game or a result type: chart functions in :mod:`mathhammer.charts`
hand in texts and artists. Long texts are wrapped or shortened for the page; the full text
stays on the artist (``get_label()``) and is written into the SVG as a ``<title>`` tooltip.
Text is drawn as written: names and titles come from users, so a "$" is a dollar sign and
never starts matplotlib's mathtext (see :func:`style` and :func:`literal_texts`).
"""

from __future__ import annotations

import contextlib
import functools
import io
import os
import re
import textwrap
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from xml.sax.saxutils import escape

import numpy as np

from mathhammer.charts.fitting import CrowdedChart, axes_figure, fit_to_figure, slot
from mathhammer.charts.labels import (  # wrapping and shortening live there, re-exported here
    clip_line,
    distinct_labels,
    wrap,
)
from mathhammer.errors import OptionError

T = TypeVar("T")

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import RcKeyType

#: Okabe & Ito (2008) colour-blind-safe palette, in the order series are drawn (yellow last:
#: it is the hardest to see on white). Every game's charts use it.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000",
           "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
LINESTYLES = ("-", "--", "-.", ":")
#: Default figure size in inches (7 in: a typical article / two-column page width).
FIGSIZE = (7.0, 4.2)
#: Default resolution of saved PNGs: 7 x 4.2 in -> 1050 x 630 px.
DPI = 150
FORMATS = (".png", ".svg", ".pdf")
#: Series one panel holds: beyond it :func:`mathhammer.charts.overlay` and
#: :func:`~mathhammer.charts.sweep_lines` draw one panel per target, and split a
#: target's attackers over several panels, so no panel carries more.
MAX_SERIES_PER_PANEL = 7
NOTE_COLOUR = "#555555"

_RC: dict[RcKeyType, Any] = {
    "font.size": 11, "axes.titlesize": 12.5, "axes.titleweight": "bold",
    "axes.labelsize": 11, "xtick.labelsize": 10, "ytick.labelsize": 10,
    "legend.fontsize": 9, "legend.frameon": True, "legend.framealpha": 1.0,
    "legend.edgecolor": "#cccccc", "axes.spines.top": False,
    "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "grid.linewidth": 0.6,
    "lines.linewidth": 2.0, "lines.markersize": 5, "svg.hashsalt": "mathhammer",
    "svg.fonttype": "none",
    # Text is drawn as written: names and titles come from users, and a "$" in them must be
    # a dollar sign, not the start of mathtext (which raises on "$$" at draw time). Each
    # Text reads these two when it is made, so every text a chart makes, and every tick
    # label matplotlib makes while a chart is laid out or saved, is literal.
    "text.parse_math": False, "text.usetex": False,
}


def checked_options(draw: Callable[..., T]) -> Callable[..., T]:
    """A public chart function that first checks the options every chart shares (``ax``,
    ``title``, ``label``, ``ylim``), refusing a value of the wrong kind in one line naming
    the parameter before anything is drawn."""
    from mathhammer.core.inputs import chart_axes, chart_limits, chart_text

    @functools.wraps(draw)
    def checked(*args: Any, **kwargs: Any) -> T:
        chart_axes(kwargs.get("ax"))
        for name in ("title", "label"):
            chart_text(kwargs.get(name), name)
        chart_limits(kwargs.get("ylim"))
        # one CrowdedChart warning per chart at most: the first thing it could not fit
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", CrowdedChart)
            art = draw(*args, **kwargs)
        crowded = [w for w in caught if issubclass(w.category, CrowdedChart)]
        for other in (w for w in caught if not issubclass(w.category, CrowdedChart)):
            warnings.warn_explicit(other.message, other.category, other.filename,
                                   other.lineno)
        if crowded:
            warnings.warn(crowded[0].message, stacklevel=2)
        return art

    return checked


@contextlib.contextmanager
def style() -> Iterator[None]:
    """The house style as a matplotlib ``rc_context`` (used by every chart function)."""
    import matplotlib

    with matplotlib.rc_context(_RC):
        yield


#: Colours of series: the palette without its yellow, too faint for lines on white.
SERIES_COLOURS = PALETTE[:7]
#: Legend keys long enough to show a line's dash pattern and its marker.
HANDLE_LENGTH = 3.4


def series_style(i: int) -> dict[str, Any]:
    """Colour, line style, marker and marker fill of series ``i``: the first 28 series all
    differ, and every difference shows in a legend key.

    Colours cycle fastest (seven colour-blind-safe colours); each further group of seven
    changes the line style (solid, dashed, dash-dot, dotted), the marker shape and its fill
    (filled, then hollow), so series ``i`` and ``i + 7`` share only their colour.
    """
    n = len(SERIES_COLOURS)
    group = i // n
    colour = SERIES_COLOURS[i % n]
    return {"color": colour,
            "linestyle": LINESTYLES[group % len(LINESTYLES)],
            "marker": MARKERS[(i + 3 * group) % len(MARKERS)],
            "markerfacecolor": colour if group % 2 == 0 else "#ffffff",
            "markeredgecolor": colour}


def stacked_marker_size(i: int, n: int, smallest: float = 4.0, largest: float = 7.5) -> float:
    """Marker size of the ``i``-th of ``n`` series drawn on one axes: the first drawn the
    largest, each later one smaller, so markers at the same point show as rings around each
    other instead of hiding the ones beneath."""
    if n <= 1:
        return 5.0
    return largest - (largest - smallest) * i / (n - 1)


def series_hatch(i: int) -> str | None:
    """Hatching of bar series ``i``: none for the first seven, then one pattern per group
    of seven, so bars of series ``i`` and ``i + 7`` (same colour) differ."""
    group = i // len(SERIES_COLOURS)
    return None if group == 0 else ("//", "..", "xx", "\\\\")[(group - 1) % 4]


_drawing = threading.local()   # the width of figures made now (drawn_for_width)


@contextlib.contextmanager
def drawn_for_width(inches: float | None) -> Iterator[None]:
    """Figures made inside are ``inches`` wide, their heights as each chart asks: a chart
    drawn for the width a page gives it (its labels fitted to that width), not drawn at the
    article width and scaled down. ``None`` leaves the widths alone."""
    before = getattr(_drawing, "inches", None)
    _drawing.inches = inches
    try:
        yield
    finally:
        _drawing.inches = before


def new_figure(figsize: tuple[float, float] = FIGSIZE) -> Figure:
    """A fresh figure (constrained layout, house style), not registered with pyplot.

    Chart functions may grow a figure made here (see :func:`grow_to_fit`), never one the
    caller handed in through ``ax=``. Inside :func:`drawn_for_width` it has that width.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    inches = getattr(_drawing, "inches", None)
    if inches:
        figsize = (inches, figsize[1])

    with style():
        figure = Figure(figsize=figsize, layout="constrained")
    # An Agg canvas of its own: every draw at one size then reuses one renderer and its text
    # measurements (a bare Figure gets a new canvas, so new measurements, for every draw)
    FigureCanvasAgg(figure)
    figure.__dict__["_mathhammer_owned"] = True
    figure.__dict__["_mathhammer_made"] = True
    return figure


def grow_to_fit(figure: Figure, margin: float = 0.05, drawn: bool = False) -> None:
    """Grow a figure made by :func:`new_figure` until every artist (legends, captions, long
    tick labels) fits inside it; a caller's figure is left alone. ``drawn``: the figure was
    just drawn at its size and not changed since, so the first measure needs no new draw."""
    if not figure.__dict__.get("_mathhammer_owned"):
        return
    for step in range(4):
        if not (drawn and step == 0):
            with warnings.catch_warnings():  # a too-small figure is what is being mended here
                warnings.filterwarnings("ignore", "constrained_layout not applied")
                figure.draw_without_rendering()
        renderer = figure._get_renderer()  # type: ignore[attr-defined]  # (private, no public twin)
        needed = figure.get_tightbbox(renderer)
        width, height = figure.get_size_inches()
        over_w = max(0.0, -needed.x0, needed.x1 - width)
        over_h = max(0.0, -needed.y0, needed.y1 - height, _legend_shortfall(figure, renderer))
        if over_w <= 0.01 and over_h <= 0.01:
            return
        figure.set_size_inches(width + over_w + margin, height + over_h + margin)


def new_axes(figsize: tuple[float, float] = FIGSIZE) -> Axes:
    """A fresh figure (constrained layout, house style) with one axes."""
    with style():
        return new_figure(figsize).add_subplot()


def axes_or_new(ax: Axes | None, figsize: tuple[float, float] = FIGSIZE) -> Axes:
    """``ax`` (refused in a subfigure, see :func:`axes_figure`; its texts made literal, see
    :func:`literal_texts`), or new axes."""
    if ax is None:
        return new_axes(figsize)
    axes_figure(ax)
    literal_texts(ax)
    return ax


def literal_texts(artist: Any) -> None:
    """Draw every text under ``artist`` (axes or figure) as written: no mathtext, no TeX.

    Texts made in the house style already are (see :func:`style`); this reaches the texts a
    caller's axes had before a chart took it over (its ticks, titles and axis labels, made
    under the caller's settings, which the chart writes its names into) and texts added to
    a figure :func:`new_figure` made outside the house style. The axes' offset texts
    ("1e6", mathtext when a caller asks for it) are numbers and left alone.
    """
    from matplotlib.axis import Axis
    from matplotlib.text import Text

    numbers = {id(axis.offsetText) for axis in artist.findobj(Axis)}
    for text in artist.findobj(Text):
        if id(text) not in numbers:
            text.set_parse_math(False)
            text.set_usetex(False)


def _literal_if_made(figure: Figure) -> None:
    """:func:`literal_texts` of a figure :func:`new_figure` made (all its text is the
    library's or its user's words); a caller's own figure keeps its settings."""
    if figure.__dict__.get("_mathhammer_made"):
        literal_texts(figure)


# -- text -----------------------------------------------------------------------------------
#: Most lines of a caption (engine, situation, rule switches, profiles): enough for a
#: Warmachine or Dust caption with several rule switches and two long profiles.
CAPTION_LINES = 8


def title_text(text: str, width: int, max_lines: int = 3) -> str:
    """A title on lines of ``width`` characters: wrapped whole when it fits in
    ``max_lines``, else the part before the last " vs " is shortened and the matchup's
    other side ("vs target") kept whole, so the title still says who fights whom."""
    flat = " ".join(str(text).split())
    lines = textwrap.wrap(flat, max(width, 8), break_long_words=False)
    if len(lines) <= max_lines:
        return "\n".join(clip_line(line, max(width, 8) + 6) for line in lines)
    head, sep, tail = flat.rpartition(" vs ")
    if not sep:
        return wrap(flat, width, max_lines)
    tail_text = wrap(f"vs {tail}", width, max(1, max_lines - 1))
    head_lines = max(1, max_lines - tail_text.count("\n") - 1)
    return wrap(head, width, head_lines) + "\n" + tail_text


def capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def remember_full_text(artist: Any, full: str, figure: Figure | None = None) -> None:
    """Keep ``full`` as the SVG tooltip of every text drawn as ``artist``'s shortened form
    (``artist`` may also be the shown string itself, with its ``figure``)."""
    figure = figure if figure is not None else artist.figure
    shown = artist if isinstance(artist, str) else artist.get_text()
    if figure is None or shown == str(full):
        return
    figure.__dict__.setdefault("_mathhammer_full_texts", {})[shown] = str(full)


def shorten_ticks(ticks: Sequence[Any], width: int, max_lines: int = 2) -> list[str]:
    """Tick labels wrapped to ``width`` characters on ``max_lines`` lines, shortened so that
    different labels stay different (see :func:`distinct_labels`)."""
    return distinct_labels([str(t) for t in ticks], width, max_lines)


def keep_tick_texts(ax: Axes, shown: Sequence[str], full: Sequence[str]) -> None:
    """Remember the full text of shortened tick labels (see :func:`remember_full_text`)."""
    for text, whole in zip(shown, full):
        remember_full_text(text, whole, axes_figure(ax))


# -- axes -----------------------------------------------------------------------------------
def percent_axis(axis: Any, span: float = 1.0) -> None:
    from matplotlib.ticker import PercentFormatter

    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=_percent_decimals(span)))


def _percent_decimals(span: float) -> int:
    if span >= 0.05:
        return 0
    return 1 if span >= 0.005 else 2


def integer_axis(axis: Any) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=3))


def fit_limits(values: np.ndarray, *, probability: bool, ylim: Any = None) -> tuple[float, float]:
    """y range fitted to the data: from 0 to a little above the largest value (probabilities:
    at most 100%, and the whole 0-100% when the values reach past 60%). ``ylim`` overrides."""
    if ylim is not None:
        from mathhammer.core.inputs import chart_limits

        low, high = chart_limits(ylim)  # type: ignore[misc]
        return low, high
    finite = np.asarray(values, dtype=float)
    finite = finite[np.isfinite(finite)]
    top = float(finite.max()) if finite.size else 1.0
    if probability:
        if top > 0.6:
            return 0.0, 1.04
        return 0.0, max(min(top * 1.15, 1.04), 1e-3)
    return min(0.0, float(finite.min()) if finite.size else 0.0), max(top * 1.12, 1e-9)


# -- legends and captions -------------------------------------------------------------------
def legend_outside(ax: Axes, handles: list, labels: Sequence[str], *, title: str | None = None,
                   width: int = 26) -> Any:
    """A legend to the right of the plotting area (never over the data), labels wrapped to
    ``width`` characters (beside a caller's axes, on as few lines as its height needs; then
    :func:`fit_to_figure` scales the text down if it must); the title (a caption) wrapped
    too."""
    title_text_ = wrap(title, max(width + 8, 30), CAPTION_LINES) if title else None
    title_lines = title_text_.count("\n") + 1 if title_text_ else 0
    lines = legend_lines(ax, len(labels), title_lines)
    shown = legend_texts(labels, width, lines)
    legend = ax.legend(handles, shown, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                       borderaxespad=0.0, title=title_text_,
                       title_fontsize=8.5, alignment="left", handlelength=HANDLE_LENGTH)
    for text, full in zip(legend.get_texts(), labels):
        remember_full_text(text, full)
    return legend


def _legend_shortfall(figure: Figure, renderer: Any) -> float:
    """Inches a side legend is taller than its axes can be: such a legend would squeeze the
    axes under constrained layout, so the figure must be at least that much taller."""
    worst = 0.0
    for ax in figure.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        box = legend.get_window_extent(renderer)
        frame = ax.get_window_extent(renderer)
        if box.x0 >= frame.x1 - 1 and box.height > 0.8 * frame.height:
            worst = max(worst, (box.height - 0.8 * frame.height) / figure.dpi)
    return worst


_MEAN_RE = re.compile(r" \((?:mean|expected) [^()]*\)$")


def legend_text(label: str, width: int = 26, max_lines: int = 4) -> str:
    """A legend entry on up to ``max_lines`` lines; in "attacker vs target (mean 1.2)" the
    attacker is shortened first, so the parts that tell entries apart ("vs target", the
    mean) stay whole."""
    label = " ".join(str(label).split())
    match = _MEAN_RE.search(label)
    body, mean = (label[:match.start()], match.group(0).strip()) if match else (label, "")
    head, sep, target = body.rpartition(" vs ")
    if not sep:
        head, target = body, ""
    tail = " ".join(p for p in (f"vs {target}" if target else "", mean) if p)
    if not tail:
        return wrap(label, width, max_lines)
    if max_lines <= 1:
        return clip_line(f"{clip_line(head, max(width - len(tail) - 1, 6))} {tail}", width + 12)
    tail_text = wrap(tail, width, max(1, max_lines // 2))
    head_lines = max(1, max_lines - tail_text.count("\n") - 1)
    return wrap(head, width, head_lines) + "\n" + tail_text


def legend_texts(labels: Sequence[str], width: int = 26, max_lines: int = 4) -> list[str]:
    """:func:`legend_text` of every entry, the attackers shortened together so that entries
    of different series never read the same (see :func:`distinct_labels`)."""
    shown = [legend_text(label, width, max_lines) for label in labels]
    if len(set(shown)) == len(set(map(str, labels))):
        return shown
    parts = [_legend_parts(label) for label in labels]
    out = []
    for (head, tail), label in zip(parts, labels):
        if not tail:
            out.append(("", str(label), max_lines))
            continue
        tail_text = wrap(tail, width, max(1, max_lines // 2))
        out.append((tail_text, head, max(1, max_lines - tail_text.count("\n") - 1)))
    heads = distinct_labels([head for _, head, _ in out], width,
                            min(lines for _, _, lines in out), what="legend entries")
    return [f"{h}\n{tail}" if tail else h for h, (tail, _, _) in zip(heads, out)]


def _legend_parts(label: str) -> tuple[str, str]:
    """"attacker vs target (mean 1.2)" as its attacker and the rest ("vs target (mean
    1.2)"; empty when the label has neither)."""
    label = " ".join(str(label).split())
    match = _MEAN_RE.search(label)
    body, mean = (label[:match.start()], match.group(0).strip()) if match else (label, "")
    head, sep, target = body.rpartition(" vs ")
    if not sep:
        head, target = body, ""
    return head, " ".join(p for p in (f"vs {target}" if target else "", mean) if p)


def legend_lines(ax: Axes, entries: int, title_lines: int = 0) -> int:
    """Lines each of ``entries`` legend entries may take beside a caller's axes (9-point
    lines are about 0.15 in, an entry's gap about 0.1 in); in a figure the chart made,
    which grows instead, 4, or up to 8 when there are few entries (a series label that
    carries its own rule switches stays whole)."""
    figure = axes_figure(ax)
    if figure.__dict__.get("_mathhammer_owned"):
        return max(4, min(8, 16 // max(entries, 1)))
    height = slot(ax).height * figure.get_figheight() - 0.15 * title_lines - 0.2
    limit = max(4, min(8, 16 // max(entries, 1)))
    return int(min(max((height / max(entries, 1) - 0.06) / 0.13, 1), limit))


def legend_below(ax: Axes, handles: list, *, title: str | None = None) -> Any:
    """A legend under the x-axis label (however many lines it has), in one row (for two or
    three short entries)."""
    from matplotlib.transforms import ScaledTranslation

    lines = ax.get_xlabel().count("\n") + 1
    drop = ScaledTranslation(0, -(24 + 14 * lines) / 72, ax.figure.dpi_scale_trans)
    legend = ax.legend(handles, [h.get_label() for h in handles], loc="upper center",
                       bbox_to_anchor=(0.5, 0.0), bbox_transform=ax.transAxes + drop,
                       ncol=len(handles), title=title, title_fontsize=8.5, frameon=False)
    return legend


def caption(ax: Axes, text: str) -> Any:
    """A small grey caption (engine, trials, seed, situation) under the chart: the figure's
    bottom line when the chart owns its figure, else a note under the axes' x label."""
    if not text:
        return None
    figure = axes_figure(ax)
    if figure.__dict__.get("_mathhammer_owned") and len(figure.axes) <= 2:
        width = max(40, int(figure.get_figwidth() * 13))
        artist = figure.supxlabel(wrap(text, width, CAPTION_LINES), x=0.01, ha="left",
                                  fontsize=8.5, color=NOTE_COLOUR)
    else:
        width = max(24, int(axes_width(ax) * 13))
        artist = ax.annotate(wrap(text, width, CAPTION_LINES), xy=(0.0, 0.0),
                             xycoords=("axes fraction", ax.xaxis.label), xytext=(0, -6),
                             textcoords="offset points", ha="left", va="top", fontsize=8.5,
                             color=NOTE_COLOUR, annotation_clip=False)
    remember_full_text(artist, text)
    return artist


def axes_width(ax: Axes) -> float:
    """Width in inches of the slot the axes has in its figure (before the layout)."""
    return float(ax.get_position().width * axes_figure(ax).get_figwidth())


def label_chars(ax: Axes, share: float, most: int = 30, least: int = 10, *,
                size: float = 10.0) -> int:
    """How many characters a line of tick labels may have when it takes ``share`` of the
    axes' width (``size``-point text: 10-point text is about 0.085 in a character)."""
    return int(min(max(axes_width(ax) * share / (0.0085 * size), least), most))


#: Size of tick labels in a caller's axes (points): small enough for two lines a row, at
#: least :data:`MIN_READABLE`.
SMALL_TICKS = 8.5


def title(ax: Axes, text: str, *, width: int = 60) -> Any:
    """A bold title above the axes, left-aligned, wrapped by :func:`title_text`."""
    from mathhammer.core.inputs import chart_text

    chart_text(text, "title")
    artist = ax.set_title(title_text(text, width), loc="left")
    remember_full_text(artist, text)
    return artist


# -- saving ---------------------------------------------------------------------------------
def figure_of(obj: Any) -> Figure:
    from matplotlib.figure import Figure

    if isinstance(obj, Figure):
        return obj
    if hasattr(obj, "ax"):
        return obj.ax.figure
    if hasattr(obj, "figure") and obj.figure is not None:
        return obj.figure
    raise OptionError(f"cannot find a figure in {type(obj).__name__}")


def resize(art: Any, size: tuple[float, float]) -> None:
    """Give a chart's figure the size ``(width, height)`` in inches and lay the chart out
    inside it (:func:`fit_to_figure`): the figure no longer grows to fit its labels."""
    figure = figure_of(art)
    figure.__dict__["_mathhammer_owned"] = False
    figure.set_size_inches(*size)
    if figure.get_layout_engine() is None:
        figure.set_layout_engine("constrained")
    _literal_if_made(figure)
    with style():
        fit_to_figure([a for a in figure.axes if a.get_visible()])


def _chart_path(path: Any) -> Path:
    """``path`` checked as a chart file: a .png/.svg/.pdf name that is a regular file or a
    new one in an existing folder (the same check as the command line's ``--plot``)."""
    from mathhammer.core.files import NotAFile, check_output_path

    if not isinstance(path, (str, os.PathLike)):
        raise OptionError(f"cannot write a chart to {path!r:.60}: give a file name (text or "
                          "a path), e.g. 'chart.png'")
    try:
        text = os.fspath(path)
        if not isinstance(text, str):
            raise TypeError
    except TypeError:
        raise OptionError(f"cannot write a chart to {path!r:.60}: give a file name as text "
                          "or a path, e.g. 'chart.png'") from None
    if not text or "\0" in text:
        raise OptionError(f"cannot write a chart to {text!r:.60}: give a file name (without "
                          "NUL characters), e.g. 'chart.png'")
    suffix = Path(text).suffix.lower()
    if suffix not in FORMATS:
        raise OptionError(f"cannot write a chart to '{text}': use a .png, .svg or .pdf "
                          "file name")
    try:
        check_output_path(text)
    except NotAFile as exc:
        raise OptionError(f"cannot write a chart to '{text}': {exc}") from None
    return Path(text)


def save(fig: Any, path: str | os.PathLike[str], *, dpi: int = DPI) -> Path:
    """Write a figure (or anything with an ``ax``/``figure``) as PNG, SVG or PDF.

    Parameters
    ----------
    fig
        A :class:`~matplotlib.figure.Figure`, an axes, or the artists tuple a chart
        function returned.
    path
        File name; the suffix (``.png``, ``.svg``, ``.pdf``) picks the format. SVG text
        stays text (searchable, editable), and shortened labels carry their full text as a
        ``<title>`` tooltip.
    dpi
        PNG resolution (default 150: a 7 x 4.2 in figure is 1050 x 630 px), 20 to 1200.

    Raises
    ------
    OptionError
        An unknown suffix, a bad resolution, or a path that is not a regular file or a new
        file in an existing folder (a named pipe, device or folder is refused at once, as
        ``--plot`` does).
    """
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not 20 <= dpi <= 1200:
        raise OptionError(f"dpi={dpi!r}: give a resolution from 20 to 1200 dots per inch, "
                          "e.g. 300")
    path = _chart_path(path)
    path.write_bytes(render(fig, path.suffix.lower()[1:], dpi=dpi))
    return path


def render(fig: Any, fmt: str, *, dpi: int = DPI) -> bytes:
    """A figure (or a chart's artists) as the bytes of a ``png``, ``svg`` or ``pdf`` file,
    exactly as :func:`save` writes it (SVG text stays text, with ``<title>`` tooltips for
    shortened labels; no creation dates, so the same chart gives the same bytes)."""
    if isinstance(dpi, bool) or not isinstance(dpi, (int, float)) or not 20 <= dpi <= 1200:
        raise OptionError(f"dpi={dpi!r}: give a resolution from 20 to 1200 dots per inch, "
                          "e.g. 300")
    if fmt not in ("png", "svg", "pdf"):
        raise OptionError(f"cannot draw a chart as '{fmt}': use png, svg or pdf")
    figure = figure_of(fig)
    metadata: dict[str, Any] | None = {"Date": None} if fmt == "svg" else None
    if fmt == "pdf":
        metadata = {"CreationDate": None, "ModDate": None}
    _literal_if_made(figure)
    with style():  # svg.hashsalt and svg.fonttype are read at save time
        if fmt == "svg":
            tags = _tag_shortened_texts(figure)
            text = io.StringIO()
            figure.savefig(text, format="svg", metadata=metadata)
            return _with_titles(text.getvalue(), tags).encode("utf-8")
        buffer = io.BytesIO()
        figure.savefig(buffer, dpi=dpi, format=fmt, metadata=metadata)
        return buffer.getvalue()


def _tag_shortened_texts(figure: Figure) -> dict[str, str]:
    """Give every drawn text that shows a shortened label an id; return id -> full text."""
    from matplotlib.text import Text

    full_texts = figure.__dict__.get("_mathhammer_full_texts", {})
    if not full_texts:
        return {}
    figure.draw_without_rendering()  # tick labels exist only once the ticks are made
    tags: dict[str, str] = {}
    for text in figure.findobj(Text):
        full = full_texts.get(text.get_text())
        if full is not None:
            gid = f"mathhammer-text-{len(tags) + 1}"
            text.set_gid(gid)
            tags[gid] = full
    return tags


def _with_titles(svg: str, tags: dict[str, str]) -> str:
    for gid, full in tags.items():
        tooltip = f"\n   <title>{escape(full)}</title>"
        svg = re.sub(rf'(<g id="{re.escape(gid)}"[^>]*>)', lambda m: m.group(1) + tooltip, svg,
                     count=1)
    return svg


def figure_png(self: Any) -> bytes:
    """Notebook display of a chart's artists: the figure as a 100-dpi PNG."""
    buffer = io.BytesIO()
    _literal_if_made(self.ax.figure)
    with style():
        self.ax.figure.savefig(buffer, format="png", dpi=100)
    return buffer.getvalue()
