"""A writer's charts on generated, realistic content (issue 41): six to fourteen series, unit
names of 40 to 60 characters that share most of their words, one shared target, a user's
small ``ax=``. Each check reads the drawn figure: the title names the target, no two tick or
legend labels are the same, no text is smaller than 8 pt, categories are drawn as points
and whole-number settings as steps; and the numbers of a table and a heat map agree."""

import warnings

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from mathhammer import charts  # noqa: E402
from mathhammer.charts.fitting import CrowdedChart  # noqa: E402
from mathhammer.core.result import MONTE_CARLO, Distribution, Result  # noqa: E402
from mathhammer.charts.fitting import overlapping  # noqa: E402
from tests.charts.test_geometry import rendered  # noqa: E402

UNITS = ["Devastator Squad", "Hellblaster Squad", "Eradicator Squad", "Predator Annihilator",
         "Broadside Battlesuits", "Intercessor Squad"]
KITS = ["4 lascannons", "5 plasma incinerators", "3 melta rifles", "twin lascannon",
        "heavy rail rifles", "bolt rifles and a grenade launcher"]
MODES = ["(supercharge)", "(standard)", "(Oath of Moment)", "(half range, stationary)"]


def writer_names(n, rng, low=40, high=60):
    """``n`` different names of ``low``-``high`` characters, most of them sharing their
    first words and differing only at the end, as a writer's profiles do."""
    names = []
    while len(names) < n:
        unit, kit = rng.choice(UNITS), rng.choice(KITS)
        name = f"{unit} with {kit} {rng.choice(MODES)}"
        filler = iter(["and a signum", "led by a Sergeant", "of the 3rd Company"])
        while len(name) < low:
            name = name.replace(" (", f" {next(filler)} (", 1)
        if len(name) <= high and name not in names:
            names.append(name)
    return names


def target_name(rng):
    return str(rng.choice(["Leman Russ Battle Tank of the Cadian 8th Regiment",
                           "Terminator Squad of the First Company (5 models)",
                           "Ork Boyz mob with a Nob and a banner (20 models)"]))


def fake_result(rng, attacker, target):
    counts = rng.integers(0, 1000, size=int(rng.integers(3, 14)))
    return Result(MONTE_CARLO, {"damage": Distribution.from_counts(counts)},
                  trials=int(counts.sum()), seed=1, labels={"damage": "wounds lost"},
                  inputs={"weapons": [attacker], "target": target,
                          "situation": {"half_range": True}}, game="wh40k")


def frame_of(attackers, targets, rng, setting=None, values=None):
    rows = []
    for a in attackers:
        for t in targets:
            for s in (values or [None]):
                v = float(rng.uniform(0.5, 9))
                row = {"attacker": a, "target": t, "metric": "expected_damage",
                       "value": v, "stderr": v * 0.004}
                if setting:
                    row[setting] = s
                rows.append(row)
    columns = ["attacker", "target", *([setting] if setting else []), "metric", "value",
               "stderr"]
    frame = pd.DataFrame(rows, columns=columns)
    frame.attrs.update(method="monte-carlo", trials=20_000, seed=1)
    return frame


# -- reading the figure ---------------------------------------------------------------------
def texts_of(figure):
    renderer = rendered(figure)
    return [t for t in figure.findobj(Text) if t.get_visible() and t.get_text().strip()
            and t.get_window_extent(renderer).width > 0]


def smallest_font(figure):
    return min(t.get_fontsize() for t in texts_of(figure))


def legend_labels(figure):
    legends = [ax.get_legend() for ax in figure.axes if ax.get_legend()] + figure.legends
    return [" ".join(t.get_text().split()) for lg in legends for t in lg.get_texts()]


def tick_labels(ax):
    rendered(ax.figure)
    return {axis: [t.get_text() for t in getattr(ax, f"get_{axis}ticklabels")()
                   if t.get_text()] for axis in ("x", "y")}


def heading(figure):
    texts = [ax.get_title(loc="left") for ax in figure.axes]
    if figure._suptitle is not None:
        texts.append(figure._suptitle.get_text())
    return " ".join(" ".join(texts).split())


def assert_no_repeats(labels):
    assert len(labels) == len(set(labels)), labels


# -- 1. the target, said once -----------------------------------------------------------------
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("keys", ["names", "tuples", "list"])
def test_an_overlay_names_its_shared_target_once(seed, keys):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 15))
    names, target = writer_names(n, rng), target_name(rng)
    results = [fake_result(rng, a, target) for a in names]
    given = {"names": dict(zip(names, results)),
             "tuples": {(a, target): r for a, r in zip(names, results)},
             "list": results}[keys]
    art = charts.overlay(given)
    figure = art.ax.figure
    title = heading(figure)
    assert " ".join(target.split()) in title or f"vs {target[:20]}" in title, title
    assert "half range" in title  # the situation every series shares, said once too
    labels = legend_labels(figure)
    assert labels and not any(f"vs {target[:12]}" in label for label in labels), labels
    assert_no_repeats(labels)
    assert smallest_font(figure) >= 8.0


@pytest.mark.parametrize("seed", [4, 5])
def test_a_sweep_against_one_target_names_it_in_the_title(seed):
    rng = np.random.default_rng(seed)
    names, target = writer_names(int(rng.integers(6, 8)), rng), target_name(rng)
    art = charts.sweep_lines(frame_of(names, [target], rng, "toughness", [4, 5, 6, 8, 10]))
    assert f"vs {' '.join(target.split())[:25]}" in heading(art.ax.figure)
    labels = legend_labels(art.ax.figure)
    assert_no_repeats(labels)
    assert not any(target[:12] in label for label in labels)


def test_bars_against_one_target_name_it_in_the_title():
    rng = np.random.default_rng(6)
    target = target_name(rng)
    frame = frame_of(writer_names(8, rng), [target], rng)
    art = charts.bars(frame)
    assert f"vs {' '.join(target.split())[:25]}" in heading(art.ax.figure)
    assert_no_repeats(tick_labels(art.ax)["y"])
    assert smallest_font(art.ax.figure) >= 8.0
    heat = charts.heatmap(frame)
    assert f"vs {' '.join(target.split())[:25]}" in heading(heat.ax.figure)


# -- 2. shortened labels stay distinct ----------------------------------------------------------
@pytest.mark.parametrize("seed", [7, 8, 9])
def test_a_users_small_axes_with_two_panels(seed):
    """The issue's case: a 7 x 3 in figure of the user's, a heat map and a bar chart side
    by side, six to fourteen units with long names that share most of their words."""
    rng = np.random.default_rng(seed)
    names = writer_names(int(rng.integers(6, 15)), rng)
    targets = [target_name(np.random.default_rng(s)) for s in range(3)]
    targets = list(dict.fromkeys(targets)) or targets[:1]
    frame = frame_of(names, targets, rng)
    figure = Figure(figsize=(7, 3), layout="constrained")
    left, right = figure.subplots(1, 2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        heat = charts.heatmap(frame, ax=left)
        charts.bars(frame, ax=right)
    assert all(issubclass(w.category, CrowdedChart) for w in caught), \
        [str(w.message) for w in caught]
    assert len(caught) <= 2  # at most one per chart
    # what is drawn in the cells and past the bars never runs into itself: a value too
    # big for its cell or bar is left out (and said), never overprinted
    renderer = rendered(figure)
    for texts in (heat.texts, right.texts):
        shown = [t.get_window_extent(renderer) for t in texts if t.get_visible()]
        assert not overlapping(shown)
    for ax in (left, right):
        ticks = tick_labels(ax)
        assert_no_repeats(ticks["y"])
        assert_no_repeats(ticks["x"]) if ax is left else None
    assert_no_repeats(legend_labels(figure))
    assert smallest_font(figure) >= 8.0


def test_stacked_heat_maps_of_a_list_keep_their_rows_apart():
    """The page's list-vs-list heat maps (one per phase, stacked in one figure)."""
    from mathhammer.wh40k.roster.cli import analysis_figure

    rng = np.random.default_rng(10)
    names = ["Intercessor Squad with bolt rifles (5)", "Intercessor Squad with bolt rifles (10)",
             "Intercessor Squad with auto bolt rifles", *writer_names(5, rng)]
    targets = ["Mega Armour Nobz", "Lootas with deffguns", "Boyz mob (20)"]
    frame = pd.concat([frame_of(names, targets, rng).assign(phase=p) for p in
                       ("shooting", "fight")], ignore_index=True)
    frame["method"] = "monte-carlo"
    figure = analysis_figure(frame, "expected_damage")
    for ax in figure.axes:
        if ax.get_yticklabels():
            assert_no_repeats(tick_labels(ax)["y"])
    assert smallest_font(figure) >= 8.0


# -- 3. shapes that do not mislead --------------------------------------------------------------
def test_categories_are_points_and_whole_numbers_steps():
    rng = np.random.default_rng(11)
    names, target = writer_names(6, rng), target_name(rng)
    ranged = charts.sweep_lines(frame_of(names, [target], rng, "range", ["full", "half"]))
    assert all(line.get_linestyle() == "None" for line in ranged.lines)
    xs = [tuple(np.round(line.get_xdata(), 6)) for line in ranged.lines]
    assert len(set(xs)) == len(xs)  # side by side: equal values never hide each other
    assert [t.get_text() for t in ranged.ax.get_xticklabels()] == ["full", "half"]
    tough = charts.sweep_lines(frame_of(names, [target], rng, "toughness", [3, 4, 5, 8]))
    assert all(line.get_drawstyle() == "steps-mid" for line in tough.lines)
    smooth = charts.sweep_lines(frame_of(names, [target], rng, "hit_rate", [0.3, 0.5, 0.6]))
    assert all(line.get_drawstyle() == "default" and line.get_linestyle() != "None"
               for line in smooth.lines)


def test_coinciding_overlay_markers_stay_visible():
    rng = np.random.default_rng(12)
    same = Distribution.from_counts(np.array([100, 300, 600]))
    results = {n: Result(MONTE_CARLO, {"damage": same}, trials=1000, seed=1)
               for n in writer_names(6, rng)}
    sizes = [line.get_markersize() for line in charts.overlay(results).lines]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == len(sizes)


# -- 4. numbers that agree -----------------------------------------------------------------------
def test_a_cell_reads_the_same_in_the_table_and_the_heat_map():
    from mathhammer.report.frame_tables import table

    rng = np.random.default_rng(13)
    frame = frame_of(writer_names(6, rng), ["MEQ", "TEQ"], rng)
    frame.loc[0, ["value", "stderr"]] = [1.3281, 0.0041]
    cells = [t.get_text().replace("\n", " ").replace("±", "± ")
             for t in charts.heatmap(frame).texts]
    grid = table(frame, "expected_damage").frame
    assert cells[0] == grid.iloc[0, 1] == "1.328 ± 0.004"
    assert cells == [grid.iloc[i, j] for i in range(len(grid)) for j in (1, 2)]


def test_captions_print_the_datasheet_damage():
    import mathhammer as mh

    result = mh.exact('4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1', "Rhino: T9 Sv3+ W10")
    assert "D6+1" in result.caption and "DD6+1" not in result.caption


# -- 5. per-100-points tables say the divisor ------------------------------------------------
def test_per_points_tables_name_the_points():
    from mathhammer.core.frames import per_points
    from mathhammer.report.frame_tables import table

    rng = np.random.default_rng(14)
    names = writer_names(6, rng)
    costs = {n: int(rng.integers(60, 300)) for n in names}
    frame = per_points(frame_of(names, ["MEQ"], rng), costs)
    one = table(frame, "damage_per_100pts").frame
    assert list(one["attacker"]) == [f"{n} ({costs[n]} pts)" for n in names]
    every = table(frame).frame
    assert list(every["points"]) == [str(costs[n]) for n in names]
