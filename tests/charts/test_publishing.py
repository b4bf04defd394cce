"""Charts a writer publishes unedited (issue 21): 14 series each with its own look, no panel
over seven series, charts drawn into a caller's axes of three sizes (with and without a
layout engine) laid out inside the figure, 60-character unicode names, Warmachine and Dust
charts, titles that keep the matchup, numbers by one rule, and the command-line controls.

The geometry checks are those of ``test_geometry``: every text inside the canvas, no
two texts overlapping, legends off the plotted lines."""

import subprocess
import sys

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402

from mathhammer import charts  # noqa: E402
from mathhammer.charts.layout import (MAX_SERIES_PER_PANEL, series_style,  # noqa: E402
                                      title_text, wrap)
from mathhammer.core.result import EXACT, MONTE_CARLO, Distribution, Result  # noqa: E402
from mathhammer.dust.plans import losses_frame  # noqa: E402
from tests.charts.test_geometry import (assert_distinct_looks,  # noqa: E402
                                            assert_legends_off_the_lines, assert_no_overlaps,
                                            assert_texts_inside, check_geometry, rendered)

SIZES = [(4.0, 3.0), (7.0, 4.2), (10.0, 6.0)]
LAYOUTS = ["constrained", None]


def unicode_names(n, length=60):
    """Names of exactly ``length`` characters with accents, curly quotes and dashes."""
    stems = ["Ünïtëd “Grey” Knïghts – Paladin squad", "Ætherguard Σtrike Team ’Veteran’",
             "Šturmbrigade Ørks — Bößz mob", "Kharn’s “Gorechild” bearers"]
    return [(f"{stems[i % len(stems)]} {i} " + "ä" * 60)[:length] for i in range(n)]


def fake_result(i, method=EXACT, note=None, target="Ork Boyz mob (20)"):
    rng = np.random.default_rng(i)
    pmf = rng.dirichlet(np.ones(8 + i % 5))
    dist = Distribution.from_pmf(pmf) if method == EXACT else \
        Distribution.from_counts((pmf * 10_000).astype(int) + 1)
    return Result(method, {"damage": dist}, trials=None if method == EXACT else 10_000,
                  seed=None if method == EXACT else 1, labels={"damage": "wounds lost"},
                  inputs={"situation": note or {}})


def cells(attackers, targets):
    return {(a, t): fake_result(i * 7 + j) for i, a in enumerate(attackers)
            for j, t in enumerate(targets)}


def tidy(attackers, targets, metric="expected_damage", seed=0, monte_carlo=True):
    rng = np.random.default_rng(seed)
    rows = []
    for a in attackers:
        for t in targets:
            v = rng.uniform(0, 1) if metric.startswith("p_") else rng.uniform(0, 12)
            rows.append({"attacker": a, "target": t, "metric": metric, "value": v,
                         "stderr": v * 0.01 if monte_carlo else np.nan})
    frame = pd.DataFrame(rows)
    frame.attrs.update(method="monte-carlo" if monte_carlo else "exact",
                       trials=10_000 if monte_carlo else None, seed=1,
                       situation="half range, stationary")
    return frame


def drawn_in_given(figure, size, draw):
    """``draw()`` into a caller's figure; then either everything fits (checked), or, only in
    the smallest figure, the chart said in one CrowdedChart warning that it cannot fit at a
    readable size, and no text was shrunk below 8 points to hide it (issue 41)."""
    import warnings

    from mathhammer.charts.fitting import CrowdedChart

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        art = draw()
    assert all(issubclass(w.category, CrowdedChart) for w in caught), \
        [str(w.message) for w in caught]
    if caught:
        assert len(caught) == 1 and tuple(size) == SIZES[0], str(caught[0].message)
        assert min_font(figure) >= 8.0
        assert figure.get_size_inches().tolist() == list(size)
        return art
    renderer = check_given(figure, size)
    # the figure as check_given just laid it out: drawing it again measures the same texts
    assert min_font(figure, renderer) >= 8.0
    return art


def min_font(figure, renderer=None):
    from matplotlib.text import Text

    if renderer is None:
        with __import__("warnings").catch_warnings():
            __import__("warnings").simplefilter("ignore")
            renderer = rendered(figure)
    sizes = [t.get_fontsize() for t in figure.findobj(Text)
             if t.get_visible() and t.get_text().strip()
             and t.get_window_extent(renderer).width > 0]
    return min(sizes)


def check_given(figure, size):
    renderer = rendered(figure)
    assert_texts_inside(figure, renderer)
    assert_no_overlaps(figure, renderer)
    assert_legends_off_the_lines(figure, renderer)
    assert figure.get_size_inches().tolist() == list(size)
    return renderer


# -- 1. fourteen series ---------------------------------------------------------------------
def test_fourteen_series_each_look_their_own_and_the_legend_shows_it():
    looks = [series_style(i) for i in range(28)]
    keys = {(s["color"], s["linestyle"], s["marker"], s["markerfacecolor"]) for s in looks}
    assert len(keys) == 28
    for i in range(7):  # series i and i + 7 share only their colour
        a, b = looks[i], looks[i + 7]
        assert a["linestyle"] != b["linestyle"] and a["marker"] != b["marker"]
        assert a["markerfacecolor"] != b["markerfacecolor"]
    art = charts.overlay(cells(unicode_names(14), ["Ork Boyz mob (20)"]), facet=None)
    check_geometry(art)
    assert_distinct_looks(art.lines)
    handles = art.ax.get_legend().legend_handles
    shown = {(h.get_linestyle(), h.get_marker(), str(h.get_markerfacecolor())) for h in handles}
    assert len(handles) == 14 and len(shown) == 14  # the key shows dash, marker and fill


@pytest.mark.parametrize("targets", [1, 2, 3])
def test_no_panel_carries_more_than_seven_series(targets):
    names = unicode_names(14)
    art = charts.overlay(cells(names, [f"Target {t} – “T{t}”" for t in range(targets)]))
    check_geometry(art)
    for panel in art.axes:
        assert 0 < len(panel.get_lines()) <= MAX_SERIES_PER_PANEL
    assert len(art.lines) == 14 * targets
    assert_distinct_looks(art.lines[::targets])  # one look per attacker, in every panel
    legend = art.ax.figure.legends[0]
    assert len(legend.get_texts()) == 14


def test_a_list_of_fourteen_results_is_split_too():
    art = charts.overlay([fake_result(i) for i in range(14)],
                         labels=unicode_names(14, 30))
    check_geometry(art)
    assert len(art.axes) == 2 and all(len(p.get_lines()) == 7 for p in art.axes)
    assert_distinct_looks(art.lines)


def test_fourteen_line_sweep():
    frame = pd.concat([tidy(unicode_names(14), ["MEQ"], seed=s).assign(hit_mod=m)
                       for s, m in enumerate((-1, 0, 1))], ignore_index=True)
    frame = frame[["attacker", "target", "hit_mod", "metric", "value", "stderr"]]
    frame.attrs.update(method="exact")
    art = charts.sweep_lines(frame)
    check_geometry(art)
    assert len(art.lines) == 14 and all(len(p.get_lines()) <= 7 for p in art.axes)
    assert_distinct_looks(art.lines)
    check_geometry(charts.sweep_lines(frame, facet=None))


def test_bars_of_fourteen_targets_differ_by_hatch():
    art = charts.bars(tidy(["A", "B"], [f"{i} {n}" for i, n in enumerate(unicode_names(14,
                                                                                      18))]),
                      kind="bars")
    check_geometry(art)
    looks = {(matplotlib.colors.to_hex(c.patches[0].get_facecolor()), c.patches[0].get_hatch())
             for c in art.bars}
    assert len(looks) == 14


# -- 2. a caller's axes -------------------------------------------------------------------
def draw_every_kind(ax, kind):
    names = unicode_names(6)
    if kind == "distribution":
        return charts.distribution(fake_result(3, MONTE_CARLO), ax=ax,
                                   title=f"Wounds lost: {names[0]} vs {names[1]}")
    if kind == "overlay":
        return charts.overlay(cells(names, ["MEQ"]), ax=ax)
    if kind == "overlay14":
        return charts.overlay(cells(unicode_names(14), ["MEQ"]), ax=ax)
    if kind == "bars":
        return charts.bars(tidy(names, ["MEQ", "TEQ"]), ax=ax)
    if kind == "heatmap":
        return charts.heatmap(tidy(names[:4], ["Terminators", "Intercessors", "Rhino"]),
                              ax=ax)
    if kind == "survival":
        frame = pd.DataFrame([{"unit": u, "round": r, "p_alive": 1 - 0.15 * r * (i + 1) / 6}
                              for i, u in enumerate(names) for r in range(6)])
        return charts.survival(frame, ax=ax)
    if kind == "dust_bars":
        frame = pd.DataFrame({"open": [1.2, 0.4], "soft": [0.8, 0.2], "hard": [0.4, 0.1]},
                             index=names[:2])
        return charts.bars(losses_frame(frame), ax=ax)  # Dust's losses table, core's chart
    return charts.overlay({n: fake_result(i) for i, n in enumerate(names[:4])}, "damage",
                          ax=ax)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kind", ["distribution", "overlay", "overlay14", "bars", "heatmap",
                                  "survival", "dust_bars", "dust_pmfs"])
def test_charts_lay_out_inside_the_figure_they_are_given(size, layout, kind):
    figure = Figure(figsize=size, layout=layout)
    ax = figure.add_subplot()
    drawn_in_given(figure, size, lambda: draw_every_kind(ax, kind))


def test_words_are_never_broken():
    assert wrap("Terminator Squad", 6, 3) == "Terminator\nSquad" or \
        "Termina\n" not in wrap("Terminator Squad", 6, 3)
    for width in range(4, 30):
        for line in wrap("Supercalifragilistic Terminator Squad of Doom", width, 3).split("\n"):
            assert line.rstrip("…") in "Supercalifragilistic Terminator Squad of Doom"
    figure = Figure(figsize=(4, 3), layout="constrained")
    art = charts.heatmap(tidy(["A", "B"], ["Terminators", "Intercessors", "Rhino", "Land "
                                           "Raider"]), ax=figure.add_subplot())
    for tick in art.ax.get_xticklabels():
        for word in tick.get_text().replace("\n", " ").split():
            assert word.rstrip("…") in "Terminators Intercessors Rhino Land Raider"


# -- 4. titles -------------------------------------------------------------------------------
def test_titles_wrap_and_keep_who_fights_whom():
    attacker = "Devastator Squad with four lascannons and a “Signum”-bearing Sergeant " * 3
    text = title_text(f"Wounds lost: {attacker}vs 10x Ork Boyz – Goff mob", 50)
    assert text.endswith("vs 10x Ork Boyz – Goff mob") and len(text.split("\n")) <= 3
    art = charts.distribution(fake_result(1), title=f"Wounds lost: {attacker}vs 10x Boyz")
    assert art.ax.get_title(loc="left").endswith("vs 10x Boyz")
    check_geometry(art)


# -- 3. numbers ------------------------------------------------------------------------------
VALUES = [1e-19, 1.88e-19, 3e-9, 1e-5, 1e-4, 0.00064, 0.0064, 0.036, 0.039, 0.5, 0.919,
          0.995, 0.9995, 0.9999, 0.0]


@pytest.mark.parametrize("monte_carlo", [False, True])
@pytest.mark.parametrize("metric", ["p_unit_destroyed", "expected_damage"])
def test_heat_map_cells_from_1e_19_to_0_9999(monte_carlo, metric):
    rows = [{"attacker": f"U{i}", "target": "T", "metric": metric, "value": v,
             "stderr": (v * (1 - v) / 10_000) ** 0.5 if monte_carlo else np.nan}
            for i, v in enumerate(VALUES)]
    frame = pd.DataFrame(rows)
    frame.attrs.update(method="monte-carlo" if monte_carlo else "exact",
                       trials=10_000 if monte_carlo else None)
    art = charts.heatmap(frame, metric)
    check_geometry(art)
    texts = [t.get_text() for t in art.texts]
    assert all("e-" not in t and "e+" not in t for t in texts)
    percent = metric.startswith("p_")
    floor = "<0.01%" if percent else "<0.001"
    assert texts[0] == texts[1] == texts[2] == floor
    assert texts[-1] == ("not seen" if monte_carlo else "0%" if percent else "0")
    if percent and not monte_carlo:
        assert texts[VALUES.index(0.9999)] == "99.99%" and texts[VALUES.index(0.919)] == "91.9%"
    if monte_carlo:  # the error under the value, with the value's decimals
        shown, error = texts[VALUES.index(0.5)].split("\n")
        assert error.startswith("±")
        assert len(shown.rstrip("%").partition(".")[2]) == \
            len(error[1:].lstrip("<").rstrip("%").partition(".")[2])


def test_result_tables_never_print_strings_of_zeros():
    r = Result(EXACT, {"damage": Distribution.from_pmf(np.array([1 - 6.4e-21, 6.4e-21]))},
               probabilities={"unit_destroyed": 6.4e-21}, labels={"damage": "wounds lost"})
    md = r.to_markdown()
    assert "0.0000000" not in md and "<0.01%" in md


# -- 5. situations ---------------------------------------------------------------------------
def test_overlaying_different_situations_keeps_them_apart():
    art = charts.overlay({"A": fake_result(1, note={"half_range": True}),
                          "B": fake_result(2, note={"cover": True})}, facet=None)
    labels = [line.get_label() for line in art.lines]
    assert "[half range]" in labels[0] and "[cover]" in labels[1]
    assert art.ax.get_legend().get_title().get_text().startswith("exact")


def test_warmachine_and_dust_charts_name_what_was_computed():
    from mathhammer import dust, warmachine

    wm = warmachine.exact(["3x Battle hammer: MAT7 POW16 [CHARGE, ARMOR-PIERCING]"],
                          ["5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"])
    art = wm.plot("damage")
    check_geometry(art)
    note = art.twin.get_legend().get_title().get_text().replace("\n", " ")
    assert "MAT7 POW16 [CHARGE" in note and "5x Trencher" in note
    du = dust.exact(["4x Shotgun: 3/1"], "5x Laser Grenadier: INFANTRY2 [SOFT COVER]",
                    sustained=True)
    art = du.plot("models_destroyed")
    check_geometry(art)
    note = art.twin.get_legend().get_title().get_text().replace("\n", " ")
    assert "sustained attack" in note and "4x Shotgun: 3/1" in note
    for size in SIZES:
        figure = Figure(figsize=size, layout="constrained")
        wm.plot("damage", ax=figure.add_subplot())
        check_given(figure, size)


WM_SWITCHES = dict(tough_allowed=False, aoe_miss_coverage=0.5, stationary_base_def=3,
                   transfer_policy="lethal", apply_crippling=True)
WM_WORDS = ["no Tough rolls", "a missed AOE still covers a listed model 50% of the time",
            "DEF 3 for knocked-down or stationary models",
            "a warlock transfers only damage that would disable it",
            "crippled systems of the attacker apply older-edition penalties"]
DUST_SWITCHES = dict(ruleset="dust1947", dice_set="newer", cover_save_per="damage_point",
                     laser_chain_depth=None)
DUST_WORDS = ["Dust 1947 rules", "newer dice", "a cover save cancels a damage point (not a hit)",
              "laser extra dice unbounded"]


def several_switches():
    from mathhammer import dust, warmachine
    from mathhammer.warmachine.profiles import Rules

    wm = warmachine.exact(
        ["3x Khador’s “Devastator” – Battle hammer: MAT7 POW16 [CHARGE, ARMOR-PIERCING]"],
        ["5x Trencher Infantry — “Long Gunners”: DEF13 ARM13 BOXES1 [TOUGH]"],
        rules=Rules(**WM_SWITCHES))
    du = dust.exact(["4x Shotgun: 3/1"], "5x Laser Grenadier: INFANTRY2 [SOFT COVER]",
                    sustained=True, rules=dust.Rules(**DUST_SWITCHES))
    return wm, du


def full_note(art):
    return " ".join(art.twin.get_legend().get_title().get_text().split())


def test_captions_name_every_rule_switch_that_differs_from_the_defaults():
    wm, du = several_switches()
    for result, words in ((wm, WM_WORDS), (du, DUST_WORDS)):
        art = result.plot(result.outcomes[0])
        check_geometry(art)
        note = full_note(art)
        assert "rules: " in note and all(w in note for w in words), note
        assert " vs 5x " in note  # the profiles still follow the rules
        shown = art.twin.get_legend().get_title().get_text()
        assert "…" not in shown and shown.count("\n") <= 7
        for size in SIZES:
            figure = Figure(figsize=size, layout="constrained")
            ax = figure.add_subplot()
            drawn_in_given(figure, size, lambda: result.plot(result.outcomes[0], ax=ax))


def test_default_rules_add_nothing_to_the_caption():
    from mathhammer import dust, warmachine

    wm = warmachine.exact(["Battle hammer: MAT7 POW16"], ["Trencher: DEF13 ARM13 BOXES1"])
    du = dust.exact(["4x Shotgun: 3/1"], "5x Laser Grenadier: INFANTRY2")
    assert "rules" not in wm.caption and "rules" not in du.caption


def test_overlaying_different_rules_keeps_them_apart():
    from mathhammer import warmachine
    from mathhammer.warmachine.profiles import Rules

    line, target = "3x Battle hammer: MAT7 POW16", "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]"
    art = charts.overlay({"Default rules": warmachine.exact(line, target),
                          "House rules": warmachine.exact(line, target, rules=Rules(
                              tough_allowed=False, stationary_base_def=3))}, facet=None)
    check_geometry(art)
    shown = [" ".join(t.get_text().split()) for t in art.ax.get_legend().get_texts()]
    assert "no Tough rolls" in shown[1] and "DEF 3" in shown[1] and "…" not in shown[1]
    assert "[" not in shown[0]


def test_dust_pmfs_of_different_profiles_keep_engine_and_rules():
    _, du = several_switches()
    from mathhammer import dust

    other = dust.exact(["2x Laser “Heavy” – Cannon: 2/2 [LASER]"],
                       "5x Laser Grenadier: INFANTRY2 [SOFT COVER]", sustained=True,
                       rules=dust.Rules(**DUST_SWITCHES))
    lines = charts.overlay({"Shotgun squad": du, "Laser “Heavy” – Cannon": other},
                           "models_destroyed", facet=None).lines
    check_given(lines[0].figure, tuple(lines[0].figure.get_size_inches()))
    legend = lines[0].axes.get_legend()
    note = " ".join(legend.get_title().get_text().split())
    assert note == "exact"
    # what both share, the target and the situation, is said once, in the title (issue 41)
    heading = " ".join(lines[0].axes.get_title(loc="left").split())
    assert "vs 5x Laser Grenadier" in heading or "vs Laser Grenadier" in heading, heading
    assert "sustained attack; rules: Dust 1947 rules" in heading, heading
    names = [" ".join(t.get_text().split()) for t in legend.get_texts()]
    assert names[0].startswith("Shotgun squad (mean")
    assert names[1].startswith("Laser “Heavy” – Cannon (mean")


@pytest.mark.parametrize("game", ["warmachine", "dust"])
def test_every_rule_switch_has_words(game):
    import dataclasses

    from mathhammer.dust.profiles import Rules as DustRules
    from mathhammer.warmachine.profiles import Rules as WmRules

    rules, other = (WmRules, {"all_ones_miss": False, "special_on_kept_dice": False,
                              "roll_vs_auto_hit": True, "stationary_base_def": 4,
                              "tough_allowed": False, "aoe_boost_all": False,
                              "aoe_miss_coverage": 0.125, "apply_crippling": True,
                              "retarget_after_kill": False, "transfer_policy": "lethal"}) \
        if game == "warmachine" else \
        (DustRules, {"ruleset": "dust1947", "dice_set": "newer", "infantry_soft_save": "none",
                     "infantry_hard_save": "hit_save", "vehicle_soft_save": "hit_save",
                     "vehicle_hard_save": "miss_save", "cover_save_per": "damage_point",
                     "damage_resilient_per": "damage_point", "split_weapon_line": True,
                     "laser_chain_depth": 2, "laser_extra_rerolled": True,
                     "aircraft_levels": 2, "aircraft_needs_sustained": False,
                     "aircraft_no_reroll": False, "hero_joined": True,
                     "casualty_policy": "random"})
    names = {f.name for f in dataclasses.fields(rules)}
    assert set(other) == names  # a new switch needs its words here and in changes()
    for name, value in other.items():
        if value == getattr(rules(), name):
            continue  # a switch with one allowed value
        words = rules(**{name: value}).changes()
        assert len(words) == 1 and "_" not in words[0], (name, words)
    assert rules().changes() == ()


# -- 6. text ---------------------------------------------------------------------------------
def test_plain_text_pmf_shows_every_k():
    pmf = np.full(40, 1 / 40)
    text = Result(EXACT, {"damage": Distribution.from_pmf(pmf)}).to_text()
    ks = [int(line.split()[0]) for line in text.splitlines()
          if line.strip() and line.split()[0].isdigit() and len(line.split()) == 3]
    assert ks == list(range(40))


def test_a_saved_grid_is_labelled_in_words_in_a_new_process(tmp_path):
    csv = tmp_path / "grid.csv"
    tidy(["A"], ["MEQ"]).to_csv(csv, index=False)
    code = ("import matplotlib; matplotlib.use('Agg'); import pandas as pd; "
            "from mathhammer import charts; "
            f"art = charts.heatmap(pd.read_csv({str(csv)!r})); "
            "print(art.colorbar.ax.get_ylabel())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "expected wounds lost"


# -- 7. command line -------------------------------------------------------------------------
HB = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2'


def run(capsys, *argv):
    from mathhammer.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_dpi_size_and_title_on_the_command_line(capsys, tmp_path):
    from tests.charts.test_charts import png_size

    png = tmp_path / "c.png"
    code, _, err = run(capsys, "exact", HB, "--target", "MEQ", "--plot", str(png), "--dpi",
                       "100", "--size", "5x4", "--title", "Heavy bolter – “MEQ” test")
    assert code == 0 and not err and png_size(png) == (500, 400)
    svg = tmp_path / "c.svg"
    code, _, _ = run(capsys, "compare", HB, "--target", "MEQ", "--target", "TEQ", "--exact",
                     "--plot", str(svg), "--title", "My grid – “title”")
    assert code == 0 and "My grid – “title”" in svg.read_text()


@pytest.mark.parametrize("argv, token", [
    (["--dpi", "0"], "--dpi"), (["--size", "garbage"], "--size"),
    (["--size", "0x4"], "--size"), (["--digits", "1000"], "--digits"),
    (["--digits", "-2"], "--digits"), (["--dpi", "99999999999999999999"], "--dpi")])
def test_bad_chart_options_are_refused_in_one_line(capsys, tmp_path, argv, token):
    code, out, err = run(capsys, "exact", HB, "--target", "MEQ", "--plot",
                         str(tmp_path / "x.png"), *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert token in err and "Traceback" not in err


def test_save_refuses_a_bad_dpi(tmp_path):
    from mathhammer.errors import OptionError

    with pytest.raises(OptionError, match="dpi=0"):
        charts.save(charts.distribution(fake_result(1)), tmp_path / "x.png", dpi=0)
