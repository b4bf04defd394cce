"""User text in charts is drawn as written (issue 39, round 4): a "$" in a weapon, target or
unit name or a title is a dollar sign, never the start of matplotlib mathtext (which raised
on "$$" when the chart was drawn), in every chart kind, from the API and from every command
line ``--plot``."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.text import Text  # noqa: E402

import mathhammer as mh  # noqa: E402
from mathhammer import charts  # noqa: E402
from mathhammer.charts.layout import render  # noqa: E402
from tests.hostile import run_cli  # noqa: E402

#: Texts mathtext reads as math or refuses: "$" alone, an empty formula, a formula, a
#: backslash, sub- and superscript marks, a TeX command.
HOSTILE = ["$", "$$", "$x^2$", "a\\b", "a_b", "x^2", "$\\alpha$_{1}^"]
PROFILE = ": A2 BS3+ S4 AP0 D1"
TARGET = ": T4 Sv3+ W2"
SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def svg_texts(svg: bytes) -> list[str]:
    """Every text of an SVG as drawn (matplotlib writes text as text: svg.fonttype none)."""
    return ["".join(e.itertext()) for e in ET.fromstring(svg).iter(SVG_TEXT)]


def shown_texts(figure: Figure) -> list[str]:
    figure.draw_without_rendering()
    return [t.get_text() for t in figure.findobj(Text) if t.get_visible()]


def drawn(art, name: str) -> list[str]:
    """Render ``art`` as PNG and SVG; the SVG's texts, checked to hold ``name`` whole."""
    png = render(art, "png")
    assert png.startswith(b"\x89PNG")
    texts = svg_texts(render(art, "svg"))
    assert any(name in t for t in texts), (name, texts)
    return texts


@pytest.fixture(scope="module")
def results():
    return [mh.exact(f"{n}{PROFILE}", f"{n} t{TARGET}") for n in ("$$", "$x^2$ a_b")]


@pytest.fixture(scope="module")
def grid():
    return mh.compare([f"$${PROFILE}", f"$x^2$ a\\b{PROFILE}"], [f"$t${TARGET}", f"x^2{TARGET}"],
                      method="exact")


def test_distribution_titles_and_legend_are_literal(results):
    art = charts.distribution(results[0], "damage")
    assert art.ax.get_title(loc="left") == "Wounds lost: $$ vs $$ t"
    texts = drawn(art, "Wounds lost: $$ vs $$ t")
    assert any("$$: A2 BS3+ S4 AP0 D1 vs $$ t: T4 Sv3+ W2" in t for t in texts)  # the note
    art = charts.distribution(results[1], "damage", title="$x^2$ \\ _ ^", label="$$ lost")
    assert art.ax.get_title(loc="left") == "$x^2$ \\ _ ^"
    assert "k ($$ lost)" in drawn(art, "$x^2$ \\ _ ^")


def test_overlay_legend_is_literal(results):
    art = charts.overlay(results, "damage", title="$$")
    legend = [t.get_text().split("\n")[:2] for t in art.ax.get_legend().get_texts()]
    assert legend == [["$$", "vs $$ t (mean 0.222)"], ["$x^2$ a_b", "vs $x^2$ a_b t (mean"]]
    texts = drawn(art, "vs $x^2$ a_b t (mean")
    assert {"$$", "$x^2$ a_b", "vs $$ t (mean 0.222)"} <= set(texts)


@pytest.mark.parametrize("kind", ["bars", "dots"])
def test_bars_ticks_legend_and_title_are_literal(grid, kind):
    art = charts.bars(grid, "expected_damage", title="$\\alpha$", kind=kind)
    assert [t.get_text() for t in art.ax.get_yticklabels()] == ["$$", "$x^2$ a\\b"]
    assert [t.get_text() for t in art.ax.get_legend().get_texts()] == ["$t$", "x^2"]
    assert art.ax.get_title(loc="left") == "$\\alpha$"
    texts = drawn(art, "$x^2$ a\\b")
    assert {"$$", "$t$", "$\\alpha$"} <= set(texts)


def test_heatmap_ticks_and_cells_are_literal(grid):
    art = charts.heatmap(grid, title="$x^2$", rows="attacker", columns="target")
    assert [t.get_text() for t in art.ax.get_xticklabels()] == ["$t$", "x^2"]
    texts = drawn(art, "$x^2$ a\\b")
    assert {"$$", "$t$", "$x^2$"} <= set(texts)
    # cell labels are numbers; with a "$" column name the value column stays drawn too
    assert len(art.texts) == 4


def test_sweep_lines_are_literal():
    frame = pd.DataFrame({"attacker": "$$", "target": "$x^2$", "save": [2, 3, 4, 7],
                          "metric": "expected_damage", "value": [0.1, 0.2, 0.3, 0.4],
                          "stderr": np.nan})
    art = charts.sweep_lines(frame, title="a_b $")
    assert art.ax.get_title(loc="left") == "a_b $"
    texts = drawn(art, "a_b $")
    assert any("$$" in t for t in texts)


def test_survival_is_literal():
    frame = pd.DataFrame({"unit": ["$$"] * 2 + ["$x^2$ \\"] * 2, "round": [1, 2] * 2,
                          "p_alive": [0.9, 0.5, 1.0, 0.8]})
    frame.attrs["caption"] = "seed $1$"
    art = charts.survival(frame, title="$")
    assert [t.get_text() for t in art.ax.get_legend().get_texts()] == ["$$", "$x^2$ \\"]
    texts = drawn(art, "$x^2$ \\")
    assert {"$", "$$", "seed $1$"} <= set(texts)


def test_small_multiples_are_literal():
    """Beyond seven series an overlay draws panels with their own titles and a figure legend."""
    results = [mh.exact(f"${i}${PROFILE}", f"$t{i % 2}${TARGET}") for i in range(9)]
    art = charts.overlay(results, "damage", title="$$")
    assert len(art.axes) > 1
    texts = drawn(art, "$$")
    assert {"$3$", "vs $t0$ (mean 0.222)", "series 8–9 of 9"} <= set(texts)


def test_long_literal_labels_are_measured_as_written(grid):
    """Layout measures the text it draws: long "$"-laden names fit inside the figure."""
    names = ["$" * 40, "$x^2$ " * 8]
    frame = grid.replace({"$$": names[0], "$x^2$ a\\b": names[1]})
    art = charts.heatmap(frame)
    figure = art.ax.figure
    renderer = (figure.draw_without_rendering(), figure._get_renderer())[1]
    canvas = figure.bbox
    for text in figure.findobj(Text):
        if text.get_visible() and text.get_text():
            box = text.get_window_extent(renderer)
            assert canvas.x0 - 1 <= box.x0 and box.x1 <= canvas.x1 + 1, text.get_text()


def test_a_callers_axes_and_settings(results):
    """A chart drawn into axes the caller made (and drew already, so its ticks exist under
    the caller's settings) is literal when the caller saves it; the caller's own mathtext
    elsewhere in the figure and the caller's rcParams are left alone."""
    figure = Figure(figsize=(9, 4), layout="constrained")
    mine, other = figure.subplots(1, 2)
    other.set_title(r"$\alpha^2$")
    figure.draw_without_rendering()  # every tick of both axes made with parse_math on
    charts.bars(mh.compare([f"$${PROFILE}"], [f"$t${TARGET}"], method="exact"), ax=mine,
                title="$x^2$")
    import warnings

    from mathhammer.charts.fitting import CrowdedChart

    with warnings.catch_warnings():  # two panels in 1.2 in: too small at 8 pt, and it says so
        warnings.simplefilter("ignore", CrowdedChart)
        charts.distribution(results[0], ax=figure.add_axes((0.6, 0.1, 0.3, 0.3)))
    assert matplotlib.rcParams["text.parse_math"] is True
    assert other.title.get_parse_math() is True  # the caller's own text is theirs
    import io

    figure.savefig(io.BytesIO(), format="png")  # the caller's own save, own settings
    assert "$$" in shown_texts(figure) and "$x^2$" in shown_texts(figure)


# -- the property: any name, every chart kind ------------------------------------------------
NAME = st.text(st.sampled_from("$\\_^{}%#&~ ax1"), min_size=1, max_size=12).filter(
    lambda s: s.strip())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attacker=NAME, target=NAME, title=NAME)
def test_any_name_is_drawn_as_written(attacker, target, title):
    frame = pd.DataFrame({"attacker": [attacker, attacker + "!"], "target": target,
                          "metric": "expected_damage", "value": [0.5, 1.5], "stderr": np.nan})
    for art in (charts.bars(frame, title=title), charts.heatmap(frame, title=title)):
        texts = drawn(art, " ".join(title.split()))
        assert any(" ".join(attacker.split()) in t for t in texts)
    art = charts.survival(pd.DataFrame({"unit": attacker, "round": [1, 2],
                                        "p_alive": [0.9, 0.4]}), title=title)
    drawn(art, " ".join(title.split()))


# -- every command line --plot ---------------------------------------------------------------
SCENARIO = '''rounds = 1

[units."$$ Shooter"]
models = [{ name = "$x^2$ Gunner", count = 1, profile = "T4 Sv3+ W2",
            weapons = ['$$ Flamer: 12" A1 BSN/A S4 AP0 D1 [TORRENT]'] }]

[units."$a_b$ \\\\ Targets"]
models = [{ name = "Trooper", count = 10, profile = "T4 Sv7+ W1" }]

[[activations]]
phase = "shooting"
attacker = "$$ Shooter"
target = "$a_b$ \\\\ Targets"
'''

COMMANDS = {
    "exact": ["exact", f"$${PROFILE}", "--target", f"$t${TARGET}"],
    "simulate": ["simulate", f"$${PROFILE}", "--target", f"$t${TARGET}", "--trials", "2000"],
    "compare-heatmap": ["compare", f"$${PROFILE}", f"$x^2${PROFILE}", "--target",
                        f"$t${TARGET}", "--target", "MEQ", "--exact"],
    "compare-overlay": ["compare", f"$${PROFILE}", "--target", f"$t${TARGET}", "--exact",
                        "--plot-kind", "overlay"],
    "compare-lines": ["compare", f"$${PROFILE}", "--target", f"$t${TARGET}", "--exact",
                      "--sweep", "hit_mod=-1,0"],
    "warmachine-exact": ["warmachine", "exact", "$$ Fist: MAT6 POW12", "--target",
                         "$j$: DEF13 ARM14 BOXES30"],
    "warmachine-compare": ["warmachine", "compare", "$$ Fist: MAT6 POW12", "--target",
                           "$j$: DEF13 ARM14 BOXES30"],
    "dust-exact": ["dust", "exact", "$$ Gun: 6/1", "--target", "5x $G$: INFANTRY2"],
    "dust-compare": ["dust", "compare", "$$ Gun: 6/1", "--target", "5x $G$: INFANTRY2"],
    "dust-table": ["dust", "table", "$$ Gun: 3/1"],
}


@pytest.mark.parametrize("suffix", [".png", ".svg"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_plot_of_the_command_line_is_literal(tmp_path, command, suffix):
    out = tmp_path / f"chart{suffix}"
    status, _, err, _ = run_cli([*COMMANDS[command], "--plot", str(out), "--title", "$x^2$ $$"])
    assert status == 0, err
    data = out.read_bytes()
    if suffix == ".svg":
        texts = svg_texts(data)
        assert "$x^2$ $$" in texts and any("$$" in t and t != "$x^2$ $$" for t in texts)
    else:
        assert data.startswith(b"\x89PNG") and len(data) > 10_000


@pytest.mark.parametrize("command, shown", [
    (["run", "--trials", "2000"], {"$$ Shooter", "$a_b$ \\ Targets"}),
    (["optimise"], {"$$ Shooter: $$ Flamer -> $a_b$ \\ Targets"}),
])
def test_scenarios_with_dollar_unit_names(tmp_path, command, shown):
    scenario = tmp_path / "battle.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    out = tmp_path / "battle.svg"
    status, _, err, _ = run_cli([command[0], str(scenario), *command[1:], "--plot", str(out),
                                 "--title", "$$"])
    assert status == 0, err
    assert shown | {"$$"} <= set(svg_texts(out.read_bytes()))


@pytest.mark.parametrize("command", ["dust-table", "compare-heatmap"])
def test_a_plot_laid_out_at_a_size_is_literal(tmp_path, command):
    """--size lays the chart out again (a draw) after the command added its own titles."""
    out = tmp_path / "sized.svg"
    status, _, err, _ = run_cli([*COMMANDS[command], "--plot", str(out), "--title", "$$",
                                 "--size", "6x5"])
    assert status == 0, err
    assert "$$" in svg_texts(out.read_bytes())


def dollar_roster() -> dict:
    """An 11th-edition list whose unit names hold mathtext's marks."""
    from tests.wh40k.roster import builder as b

    rifle = b.selection("$$ rifle", number=5, profiles=[
        b.ranged("$$ rifle", '24"', "2", "3+", "4", "-1", "1")])
    squad = b.selection("$x^2$ Squad", "unit", pts=80, categories=["Infantry"],
                        profiles=[b.statline("Trooper", 11, 4, "3+", 2)],
                        selections=[b.selection("Trooper", "model", 5, selections=[rifle])])
    knife = b.selection("Knife", profiles=[b.melee("Knife", "4", "3+", "4", "0", "1")])
    boss = b.selection("$ Boss_1 \\", "model", pts=50, categories=["Character"],
                       profiles=[b.statline("$ Boss_1 \\", 11, 4, "3+", 4)], selections=[knife])
    return b.roster(11, "$Test$ faction", [squad, boss], name="$$ list")


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_roster_with_dollar_unit_names(tmp_path, suffix):
    from tests.wh40k.roster import builder as b

    path = tmp_path / "army.json"
    path.write_text(b.to_json(dollar_roster()), encoding="utf-8")
    out = tmp_path / f"army{suffix}"
    status, _, err, _ = run_cli(["roster", str(path), "--target", "$t$: T4 Sv3+ W2",
                                 "--exact", "--plot", str(out), "--title", "$$"])
    assert status == 0, err
    if suffix == ".svg":
        texts = svg_texts(out.read_bytes())
        assert {"$$", "$x^2$ Squad", "$t$"} <= set(texts), texts
    else:
        assert out.read_bytes().startswith(b"\x89PNG")
