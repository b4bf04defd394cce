"""Every chart kind drawn on realistic content (long unit names, ten series, small
probabilities), then measured on the rendered canvas: every text inside the figure, no two
texts overlapping, legends off the plotted lines, the heat-map grid taking most of the
figure, every series with its own look, axis labels naming the outcome.

The checks are plain functions of a figure, so new content can be put through them; the
content here is generated (names of every length, many series), not hand-tuned."""

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer import charts  # noqa: E402
from mathhammer.wh40k.comparisons import results  # noqa: E402

ATTACKERS = {
    "Devastator Squad with 4 lascannons (Armour of Contempt ignored)":
        '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles":
        '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2, HEAVY]',
    "Hellblaster Squad, 10 plasma incinerators (supercharged)":
        '10x Plasma incinerator: 24" A2 BS3+ S8 AP-3 D2 [RAPID FIRE 1]',
    "Predator Annihilator, twin lascannon and lascannon sponsons":
        '3x Twin lascannon: 48" A1 BS3+ S12 AP-3 D6+1 [TWIN-LINKED]',
    "Broadside Battlesuits with heavy rail rifles":
        '3x Heavy rail rifle: 60" A2 BS4+ S12 AP-4 D6+1 [DEVASTATING WOUNDS]',
}
TARGETS = {
    "Leman Russ Battle Tank": "Leman Russ Battle Tank: T11 Sv2+ W13 [VEHICLE]",
    "Rhino": "Rhino: T9 Sv3+ W10 [VEHICLE]",
    "Terminator Squad (5)": "5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]",
    "Ork Boyz mob (20)": "20x Boy: T5 Sv5+ W1 [INFANTRY]",
}
SCENARIO = """
rounds = 3
[units."Intercessor Squad with an attached Captain in Gravis armour"]
attached = ["Captain"]
models = [{ name = "Intercessor", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1",
                       "Close combat weapon: Melee A3 WS3+ S4 AP0 D1"] }]
[units.Captain]
models = [{ name = "Captain", count = 1, profile = "T4 Sv3+ InSv4+ W5 [CHARACTER, INFANTRY]",
            weapons = ["Power fist: Melee A4 WS2+ S8 AP-2 D2"] }]
[units."Ork Boyz mob"]
models = [{ name = "Boy", count = 20, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Intercessor Squad with an attached Captain in Gravis armour"
target = "Ork Boyz mob"
[[activations]]
phase = "fight"
attacker = "Ork Boyz mob"
target = "Intercessor Squad with an attached Captain in Gravis armour"
situation = { charged = true }
"""


# -- measuring ------------------------------------------------------------------------------
def rendered(fig):
    """Lay the figure out as a draw does and return the renderer that measured it.

    ``draw_without_rendering`` runs every layout step of a draw (constrained layout, tick
    placement, text metrics) without rasterising the pixels, which no check here reads: the
    extents are those of a full draw, at a third of the time."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    return fig.canvas.get_renderer()


def drawn_texts(fig, renderer):
    """(Text, window extent) of every non-empty text the renderer draws."""
    tick_labels, drawn_ticks = set(), []
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for tick in axis.majorTicks + axis.minorTicks:
                tick_labels.update({id(tick.label1), id(tick.label2)})
            if not axis.get_visible():
                continue
            for tick in axis._update_ticks():
                drawn_ticks += [t for t in (tick.label1, tick.label2) if t.get_visible()]
    texts = [t for t in fig.findobj(Text) if id(t) not in tick_labels] + drawn_ticks
    out = []
    for text in texts:
        if not text.get_visible() or not text.get_text().strip():
            continue
        out.append((text, text.get_window_extent(renderer)))
    return out


def assert_texts_inside(fig, renderer, slack=1.0, texts=None):
    box = fig.bbox
    for text, extent in texts if texts is not None else drawn_texts(fig, renderer):
        assert extent.x0 >= box.x0 - slack and extent.x1 <= box.x1 + slack and \
            extent.y0 >= box.y0 - slack and extent.y1 <= box.y1 + slack, \
            f"text {text.get_text()!r} leaves the canvas: {extent} vs {box}"


def assert_no_overlaps(fig, renderer, shrink=1.0, texts=None):
    items = [(text, extent) for text, extent in
             (texts if texts is not None else drawn_texts(fig, renderer)) if extent.width != 0]
    if len(items) < 2:
        return
    box = np.array([[e.x0, e.y0, e.x1, e.y1] for _, e in items])   # every pair at once
    overlap_w = np.minimum(box[:, None, 2], box[None, :, 2]) - np.maximum(box[:, None, 0],
                                                                          box[None, :, 0])
    overlap_h = np.minimum(box[:, None, 3], box[None, :, 3]) - np.maximum(box[:, None, 1],
                                                                          box[None, :, 1])
    clash = np.triu((overlap_w > shrink) & (overlap_h > shrink), k=1)
    if clash.any():
        i, j = np.argwhere(clash)[0]
        raise AssertionError(f"texts overlap: {items[i][0].get_text()!r} and "
                             f"{items[j][0].get_text()!r}")


def line_points(line, per_segment=25):
    """Points along a drawn line (steps included), in display coordinates."""
    xy = line._get_transformed_path().get_fully_transformed_path().vertices
    xy = xy[np.isfinite(xy).all(axis=1)]
    if len(xy) < 2:
        return xy
    t = np.linspace(0, 1, per_segment)[:, None, None]
    return (xy[:-1] + t * (xy[1:] - xy[:-1])).reshape(-1, 2)


def assert_legends_off_the_lines(fig, renderer):
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    legends += list(fig.legends)
    for legend in legends:
        box = legend.get_window_extent(renderer)
        for ax in fig.axes:
            for line in ax.get_lines():
                points = line_points(line)
                inside = ((points[:, 0] > box.x0) & (points[:, 0] < box.x1)
                          & (points[:, 1] > box.y0) & (points[:, 1] < box.y1))
                assert not inside.any(), f"legend over the line {line.get_label()!r}"
            for patch in ax.patches:
                extent = patch.get_window_extent(renderer)
                assert not extent.overlaps(box) or extent.width * extent.height == 0, \
                    "legend over a bar"


def assert_distinct_looks(lines):
    looks = [(matplotlib.colors.to_hex(line.get_color()), str(line.get_linestyle()),
              str(line.get_marker())) for line in lines]
    assert len(set(looks)) == len(looks), looks


def check_geometry(art):
    fig = art.ax.figure
    renderer = rendered(fig)
    texts = drawn_texts(fig, renderer)
    assert_texts_inside(fig, renderer, texts=texts)
    assert_no_overlaps(fig, renderer, texts=texts)
    assert_legends_off_the_lines(fig, renderer)
    return fig, renderer


# -- content --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def grid():
    return mh.compare(ATTACKERS, TARGETS, method="monte-carlo", trials=4_000, seed=1, stationary=True,
                      points=[120, 95, 230, 130, 240])


@pytest.fixture(scope="module")
def ten_cells():
    attackers = dict(list(ATTACKERS.items())[:3]) | {
        "Lascannon": 'Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
        "Plasma gun": 'Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1]'}
    return results(attackers, {"VEQ": "VEQ", "MEQ": "MEQ"}, method="exact")


@pytest.fixture(scope="module")
def scenario():
    return mh.run(mh.parse_scenario(SCENARIO), trials=4_000, seed=3)


def made_up_names(n, seed):
    """Names of every length, as other writers will use them."""
    rng = np.random.default_rng(seed)
    words = ["Battle", "Squad", "with", "heavy", "plasma", "cannons", "(Oath of Moment)",
             "Legionaries", "Crisis", "Battlesuits", "Wraithguard", "D-scythes",
             "Kill Team Cassius", "Armiger", "Warglaives", "thermal spears", "mob"]
    out = []
    for i in range(n):
        length = int(rng.integers(1, 12))
        out.append(" ".join(rng.choice(words, length)) + f" {i}")
    return out


def made_up_grid(n_attackers, n_targets, seed, probability=False):
    rng = np.random.default_rng(seed)
    rows = []
    for a, t in itertools.product(made_up_names(n_attackers, seed),
                                  made_up_names(n_targets, seed + 1)):
        value = rng.uniform(0, 0.05) if probability else rng.uniform(0, 900)
        rows.append({"attacker": a, "target": t,
                     "metric": "p_unit_destroyed" if probability else "expected_damage",
                     "value": value, "stderr": value * 0.01})
    frame = pd.DataFrame(rows)
    frame.attrs.update(method="monte-carlo", trials=100_000, seed=7,
                       situation="half range, stationary, cover, hit mod -1, reroll hits ones")
    return frame


# -- tests ----------------------------------------------------------------------------------
def test_heatmap_of_long_names(grid):
    art = charts.heatmap(grid, "expected_damage")
    fig, renderer = check_geometry(art)
    grid_box = art.ax.get_window_extent(renderer)
    assert grid_box.width >= 0.5 * fig.bbox.width and grid_box.height >= 0.5 * fig.bbox.height
    assert art.ax.get_title(loc="left") == "Expected wounds lost"
    labels = [t.get_text() for t in art.ax.get_yticklabels()]
    assert all(len(line) <= 31 for label in labels for line in label.split("\n"))
    cells = [e for t, e in drawn_texts(fig, renderer) if t in art.texts]
    assert len(cells) == 20


@pytest.mark.parametrize("shape, seed", [((3, 2), 1), ((7, 5), 2), ((12, 3), 3), ((2, 8), 4)])
@pytest.mark.parametrize("probability", [False, True])
def test_heatmap_of_made_up_grids(shape, seed, probability):
    art = charts.heatmap(made_up_grid(*shape, seed, probability))
    fig, renderer = check_geometry(art)
    grid_box = art.ax.get_window_extent(renderer)
    assert grid_box.width >= 0.45 * fig.bbox.width
    assert grid_box.height >= 0.45 * fig.bbox.height
    if probability:
        assert all("%" in t.get_text() and "e" not in t.get_text() for t in art.texts)


@pytest.mark.parametrize("kind", ["auto", "bars", "dots"])
@pytest.mark.parametrize("metric, per_points", [("expected_damage", False),
                                                ("expected_damage", True),
                                                ("p_unit_destroyed", False)])
def test_bars_of_long_names(grid, kind, metric, per_points):
    art = charts.bars(grid, metric, per_points=per_points, kind=kind)
    check_geometry(art)
    assert len(art.bars) == 4 and len(art.errorbars) == 4
    label = art.ax.get_xlabel()
    assert label == {"expected_damage": "wounds lost per 100 points" if per_points
                     else "expected wounds lost",
                     "p_unit_destroyed": "P(unit destroyed)"}[metric]
    if kind != "bars":
        assert_distinct_looks(art.bars)


def test_bars_values_and_error_bars_come_from_the_frame(grid):
    art = charts.bars(grid, "expected_damage", kind="bars")
    part = grid[(grid.metric == "expected_damage") & (grid.target == "Rhino")]
    np.testing.assert_allclose([p.get_width() for p in art.bars[1]], part.value)
    segments = art.errorbars[1].lines[2][0].get_segments()
    np.testing.assert_allclose([s[1][0] - s[0][0] for s in segments], 4 * part.stderr)


def test_small_probabilities_fill_the_axis():
    frame = made_up_grid(4, 2, 9, probability=True)
    art = charts.bars(frame)
    check_geometry(art)
    low, high = art.ax.get_xlim()
    assert low == 0 and frame.value.max() < high < 1.4 * (frame.value + 2 * frame.stderr).max()
    assert all(t.get_text().endswith("%") for t in art.ax.get_xticklabels()
               if t.get_text())
    art = charts.bars(frame, ylim=(0, 1))
    assert art.ax.get_xlim() == (0, 1)


@pytest.mark.parametrize("facet", ["auto", None])
def test_overlay_of_ten_series(ten_cells, facet):
    art = charts.overlay(ten_cells, "damage", facet=facet)
    check_geometry(art)
    assert len(art.lines) == 10
    assert len(art.axes) == (2 if facet == "auto" else 1)
    if facet is None:
        assert_distinct_looks(art.lines)
    else:
        for panel in art.axes:
            assert_distinct_looks(panel.get_lines())
    assert art.ax.get_xlabel() == "k (wounds lost)"
    assert all(line.get_drawstyle() == "steps-mid" for line in art.lines)


def test_overlay_models_destroyed_is_labelled_so(ten_cells):
    art = charts.overlay(dict(list(ten_cells.items())[:3]), "models_destroyed")
    check_geometry(art)
    assert art.ax.get_xlabel() == "k (models destroyed)"
    assert "models destroyed" in art.ax.get_title(loc="left")


def test_sweep_with_ranges_and_facets():
    df = mh.sweep(dict(list(ATTACKERS.items())[:2]), dict(list(TARGETS.items())[:3]), "range",
                  ["full", "half"], method="exact")
    art = charts.sweep_lines(df)
    check_geometry(art)
    assert_distinct_looks(art.lines)
    art = charts.sweep_lines(df, facet="target")
    check_geometry(art)
    assert len(art.axes) == 3


def test_made_up_sweep_of_twelve_series():
    frame = made_up_grid(4, 3, 11)
    frame = pd.concat([frame.assign(hit_mod=m, value=frame.value * (1 + m / 4))
                       for m in (-1, 0, 1)], ignore_index=True)
    frame = frame[["attacker", "target", "hit_mod", "metric", "value", "stderr"]]
    frame.attrs.update(method="exact")
    art = charts.sweep_lines(frame)
    check_geometry(art)
    assert len(art.axes) == 3 and len(art.lines) == 12
    art = charts.sweep_lines(frame, facet=None)
    check_geometry(art)
    assert_distinct_looks(art.lines)


def test_distribution_of_a_result_and_of_a_scenario(scenario):
    r = mh.simulate(ATTACKERS["Eradicator Squad, 3 melta rifles"],
                    TARGETS["Leman Russ Battle Tank"], trials=4_000, seed=1, half_range=True)
    art = r.plot("damage")
    check_geometry(art)
    assert "Monte Carlo, 4,000 trials, seed 1; half range" in \
        art.twin.get_legend().get_title().get_text()
    assert art.curve.get_drawstyle() == "steps-mid"
    unit = "Intercessor Squad with an attached Captain in Gravis armour"
    art = charts.distribution(scenario.models_destroyed(unit, "round 2 end"))
    check_geometry(art)
    assert art.ax.get_xlabel() == "k (models destroyed)"
    assert "round 2 end" in art.ax.get_title(loc="left").replace("\n", " ")


def test_survival_of_a_scenario(scenario):
    art = scenario.plot()
    check_geometry(art)
    assert "4,000 trials, seed 3" in " ".join(art.ax.get_legend().get_title().get_text().split())


def test_long_title_and_engine_note_do_not_collide(grid):
    title = ("Which anti-tank unit earns its points against Leman Russ Battle Tanks and "
             "Rhinos when it stood still?")
    for art in (charts.heatmap(grid, title=title), charts.bars(grid, title=title),
                charts.overlay(results(list(ATTACKERS.values())[:2], ["MEQ"], method="exact"),
                               title=title)):
        check_geometry(art)


def test_given_axes_in_a_two_panel_figure(grid):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    charts.bars(grid, "expected_damage", ax=left)
    charts.heatmap(grid, "p_unit_destroyed", ax=right)
    renderer = rendered(fig)
    assert_texts_inside(fig, renderer)
    assert fig.get_size_inches().tolist() == [10, 4]


def test_svg_keeps_text_as_text_with_full_labels(tmp_path, grid):
    svg = charts.save(charts.heatmap(grid), tmp_path / "h.svg").read_text()
    assert "<text" in svg and "Expected wounds lost" in svg
    assert "<title>Devastator Squad with 4 lascannons (Armour of Contempt ignored)</title>" \
        in svg


# -- generated content: names of every length and alphabet, values over seven decades --------
def generated_names(n, rng, style):
    if style == "long":
        return made_up_names(n, int(rng.integers(0, 1000)))
    if style == "one word":
        word = "Supercalifragilisticexpialidocious" * 2
        return [word[: int(rng.integers(5, 60))] + str(i) for i in range(n)]
    if style == "short":
        return [f"U{i}" for i in range(n)]
    return [f"Ünït {'ß' * (i % 5)} «{i}» with a few more words" for i in range(n)]


def generated_grid(attackers, targets, rng, probability):
    rows = []
    for a, t in itertools.product(attackers, targets):
        value = rng.uniform(0, 0.03) if probability else \
            rng.uniform(0, 10) * 10.0 ** int(rng.integers(-3, 4))
        rows.append({"attacker": a, "target": t,
                     "metric": "p_unit_destroyed" if probability else "expected_damage",
                     "value": value, "stderr": value * 0.02})
    frame = pd.DataFrame(rows)
    frame.attrs.update(method="monte-carlo", trials=50_000, seed=3,
                       situation="half range, stationary, cover, hit mod -1, reroll hits "
                                 "ones, reroll wounds all")
    return frame


@pytest.mark.parametrize("seed, style", [(101, "long"), (202, "one word"), (303, "short"),
                                         (404, "unicode"), (505, "long")])
def test_generated_content(seed, style):
    from matplotlib.figure import Figure

    from mathhammer.core.result import MONTE_CARLO, Distribution, Result

    rng = np.random.default_rng(seed)
    n_attackers, n_targets = int(rng.integers(1, 14)), int(rng.integers(1, 9))
    attackers = generated_names(n_attackers, rng, style)
    targets = generated_names(n_targets, rng, style)
    for probability in (False, True):
        frame = generated_grid(attackers, targets, rng, probability)
        check_geometry(charts.heatmap(frame))
        check_geometry(charts.bars(frame))
    frame = generated_grid(attackers[:5], targets[:4], rng, False)
    swept = pd.concat([frame.assign(hit_mod=m, value=frame.value * (1 + m / 4))
                       for m in (-1, 0, 1)], ignore_index=True)
    swept = swept[["attacker", "target", "hit_mod", "metric", "value", "stderr"]]
    swept.attrs.update(frame.attrs)
    art = charts.sweep_lines(swept)
    check_geometry(art)
    for panel in art.axes:
        assert_distinct_looks(panel.get_lines())
    cells = {}
    for a, t in itertools.product(attackers[:6], targets[:3]):
        counts = rng.integers(0, 1000, size=int(rng.integers(2, 25)))
        cells[(a, t)] = Result(MONTE_CARLO, {"damage": Distribution.from_counts(counts)},
                               trials=int(counts.sum()), seed=1,
                               labels={"damage": "wounds lost"})
    check_geometry(charts.overlay(cells))
    survival = pd.DataFrame([{"unit": u, "round": r, "p_alive": max(0.0, 1 - r * 0.2 *
                                                                   rng.uniform()),
                              "stderr": 0.01} for u in attackers[:9] for r in range(6)])
    check_geometry(charts.survival(survival))
    counts = rng.integers(0, 1000, size=int(rng.integers(2, 80)))
    check_geometry(charts.distribution(Distribution.from_counts(
        counts, label=attackers[0], subject=targets[0])))
    figure = Figure(figsize=(10, 4.5), layout="constrained")
    left, right = figure.subplots(1, 2)
    small = generated_grid(attackers[:6], targets[:4], rng, False)
    charts.bars(small, ax=left)
    charts.heatmap(small, ax=right)
    renderer = rendered(figure)
    assert_texts_inside(figure, renderer)
    assert_no_overlaps(figure, renderer)
