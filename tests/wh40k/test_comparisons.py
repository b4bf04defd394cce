"""Comparison grids and sweeps, checked cell by cell against single runs of the same pairs."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.wh40k.comparisons import COLUMNS, pivot, results, sweep, to_json_dict, to_markdown
from mathhammer.errors import OptionError, ProfileError

HB = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'
LC = 'Lascannon: 48" A1 BS4+ S12 AP-3 D6+1'
PLASMA = '5x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1, HAZARDOUS]'
TARGETS = ["GEQ", "MEQ", "10x TEQ"]
TRIALS = 20_000


def cell(frame, attacker, target, metric, **extra):
    mask = (frame.attacker == attacker) & (frame.target == target) & (frame.metric == metric)
    for key, value in extra.items():
        mask &= frame[key] == value
    rows = frame[mask]
    assert len(rows) == 1, (attacker, target, metric, extra)
    return rows.iloc[0]


def test_shape_labels_and_provenance():
    df = mh.compare([HB, LC], TARGETS, method="monte-carlo", trials=TRIALS, seed=5)
    assert list(df.columns) == COLUMNS
    assert list(dict.fromkeys(df.attacker)) == ["Heavy bolter", "Lascannon"]
    assert list(dict.fromkeys(df.target)) == TARGETS
    assert list(dict.fromkeys(df.metric)) == ["expected_damage", "expected_models_destroyed",
                                             "p_unit_destroyed"]
    assert len(df) == 2 * 3 * 3
    assert df.attrs == {"method": "monte-carlo", "trials": TRIALS, "seed": 5}
    assert (df.stderr >= 0).all() and df.value.dtype == float


def test_monte_carlo_cells_equal_single_runs_with_the_same_seed_child():
    seed = 11
    df = mh.compare([HB, PLASMA], TARGETS, method="monte-carlo", trials=TRIALS, seed=seed)
    children = np.random.SeedSequence(seed).spawn(2 * 3)
    for a, (label, line) in enumerate([("Heavy bolter", HB), ("5x Plasma gun", PLASMA)]):
        for t, target in enumerate(TARGETS):
            r = mh.simulate(line, target, trials=TRIALS, seed=children[a * 3 + t])
            got = cell(df, label, target, "expected_damage")
            assert (got.value, got.stderr) == (r.mean("damage"), r.stderr("damage"))
            got = cell(df, label, target, "expected_models_destroyed")
            assert (got.value, got.stderr) == (r.mean("models_destroyed"),
                                               r.stderr("models_destroyed"))
            got = cell(df, label, target, "p_unit_destroyed")
            assert got.value == r.probability("unit_destroyed")
            assert got.stderr == r.probability_stderr("unit_destroyed")
            got = cell(df, label, target, "expected_attacker_mortal_wounds") \
                if label.endswith("Plasma gun") else None
            if got is not None:
                assert got.value == r.mean("attacker_mortal_wounds")


def test_a_cell_does_not_depend_on_the_rest_of_the_grid():
    big = mh.compare([HB, LC], TARGETS, method="monte-carlo", trials=TRIALS, seed=3)
    small = mh.compare([HB], TARGETS[:1], method="monte-carlo", trials=TRIALS, seed=3)
    assert cell(big, "Heavy bolter", "GEQ", "expected_damage").value == \
        cell(small, "Heavy bolter", "GEQ", "expected_damage").value


def test_same_seed_same_frame_and_other_seed_differs():
    a = mh.compare([HB], ["MEQ"], method="monte-carlo", trials=TRIALS, seed=1)
    b = mh.compare([HB], ["MEQ"], method="monte-carlo", trials=TRIALS, seed=1)
    c = mh.compare([HB], ["MEQ"], method="monte-carlo", trials=TRIALS, seed=2)
    pd.testing.assert_frame_equal(a, b)
    assert not a.value.equals(c.value)


def test_exact_cells_equal_exact():
    df = mh.compare([HB, LC], TARGETS, method="exact", stationary=True)
    assert df.attrs["method"] == "exact" and df.stderr.isna().all()
    for label, line in (("Heavy bolter", HB), ("Lascannon", LC)):
        for target in TARGETS:
            e = mh.exact(line, target, stationary=True)
            # the grid solves its cells together (exact_batch): the same law, to rounding
            assert cell(df, label, target, "expected_damage").value == \
                pytest.approx(e.mean("damage"), rel=0, abs=1e-12)
            assert cell(df, label, target, "expected_models_destroyed").value == \
                pytest.approx(e.mean("models_destroyed"), rel=0, abs=1e-12)
            assert cell(df, label, target, "p_unit_destroyed").value == \
                pytest.approx(e.probability("unit_destroyed"), rel=0, abs=1e-12)


def test_lascannon_by_hand():
    # BS4+ 1/2, S12 vs T4 wounds on 2+ 5/6, AP-3 vs Sv3+ saves on 6+ 5/6 fail; D6+1 >= 2 = W
    df = mh.compare([LC], ["MEQ"], method="exact")
    assert cell(df, "Lascannon", "MEQ", "expected_models_destroyed").value == \
        pytest.approx(0.5 * 5 / 6 * 5 / 6)


def test_monte_carlo_agrees_with_exact_within_five_standard_errors():
    mc = mh.compare([HB, LC], TARGETS, method="monte-carlo", trials=50_000, seed=4)
    ex = mh.compare([HB, LC], TARGETS, method="exact")
    merged = mc.merge(ex, on=["attacker", "target", "metric"], suffixes=("_mc", "_ex"))
    ok = merged.stderr_mc > 0
    z = (merged.value_mc - merged.value_ex)[ok].abs() / merged.stderr_mc[ok]
    assert (z < 5).all()


def test_a_unit_of_several_weapon_lines_and_labels():
    df = mh.compare({"Devastators": [HB, LC]}, {"Marines": "MEQ"}, method="exact")
    e = mh.exact([HB, LC], "MEQ")
    assert cell(df, "Devastators", "Marines (5)", "expected_damage").value == e.mean("damage")
    default = mh.compare([[HB, LC]], ["MEQ"], method="exact")
    assert default.attacker.iloc[0] == "Heavy bolter + Lascannon"


def test_dict_labelled_targets_carry_their_unit_size():
    """Issue 21 item 5: a dict label without a number gets the model count; a label that
    states a number, and a one-model unit, are kept as given."""
    targets = {"Terminator Squad": "5x Terminator: T5 SV2+ INV4+ W3",
               "Squad of 10": "10x Intercessor: T4 SV3+ W2", "5 Boyz": "5x Boy: T5 SV5+ W1",
               "Land Raider": "Land Raider", "Tacticals": "MEQ",
               "Kharn’s “Berzerkers” – Squad": "8x Berzerker: T5 SV3+ W2"}
    kept = mh.compare({"Lascannon": LC}, targets, method="exact", keep_results=True)
    df, results = kept.frame, kept.results
    assert list(dict.fromkeys(df.target)) == [
        "Terminator Squad (5)", "Squad of 10", "5 Boyz", "Land Raider", "Tacticals (5)",
        "Kharn’s “Berzerkers” – Squad (8)"]
    assert ("Lascannon", "Terminator Squad (5)") in results
    sizes = mh.compare({"Lascannon": LC}, targets, method="exact", unit_sizes=False)
    assert list(dict.fromkeys(sizes.target)) == list(targets)


def test_unit_sizes_reach_tables_and_charts():
    import matplotlib

    matplotlib.use("Agg")
    from mathhammer import charts
    from mathhammer.wh40k.comparisons import pivot

    df = mh.compare({"Lascannon": LC, "Heavy bolter": HB},
                    {"Terminator Squad": "5x Terminator: T5 SV2+ INV4+ W3"}, method="exact")
    assert "Terminator Squad (5)" in pivot(df, "expected_damage").columns
    art = charts.heatmap(df, "expected_damage")
    shown = " ".join(t.get_text() for t in art.ax.get_xticklabels())
    assert "Terminator Squad (5)" in " ".join(shown.split())
    sweep = mh.sweep({"Lascannon": LC}, {"Terminator Squad": "5x Terminator: T5 SV2+ W3"},
                     "hit_mod", [-1, 0], method="exact")
    assert set(sweep.target) == {"Terminator Squad (5)"}
    by_size = mh.sweep({"Lascannon": LC}, {"Terminator Squad": "5x Terminator: T5 SV2+ W3"},
                       "target_models", [3, 10], method="exact")
    assert set(by_size.target) == {"Terminator Squad"}  # the size is the swept setting


def test_duplicate_labels_are_numbered_and_lines_label_by_name():
    df = mh.compare([HB, HB, "A2 BS3+ S4 AP0 D1"], ["T4 Sv3+ W2", "MEQ"], method="exact")
    assert list(dict.fromkeys(df.attacker)) == ["Heavy bolter", "Heavy bolter (2)",
                                               "A2 BS3+ S4 AP0 D1"]
    assert list(dict.fromkeys(df.target)) == ["T4 Sv3+ W2", "MEQ"]


def test_points_add_per_100_point_metrics():
    df = mh.compare([HB, LC], ["MEQ"], method="monte-carlo", trials=TRIALS, seed=2, points=[20, 40])
    for label, pts in (("Heavy bolter", 20), ("Lascannon", 40)):
        dmg = cell(df, label, "MEQ", "expected_damage")
        per = cell(df, label, "MEQ", "damage_per_100pts")
        assert per.value == pytest.approx(dmg.value * 100 / pts)
        assert per.stderr == pytest.approx(dmg.stderr * 100 / pts)
        models = cell(df, label, "MEQ", "expected_models_destroyed")
        assert cell(df, label, "MEQ", "models_destroyed_per_100pts").value == \
            pytest.approx(models.value * 100 / pts)
    by_name = mh.compare([HB, LC], ["MEQ"], method="monte-carlo", trials=TRIALS, seed=2,
                         points={"Heavy bolter": 20, "Lascannon": 40})
    pd.testing.assert_frame_equal(df, by_name)
    one = mh.compare(HB, "MEQ", method="exact", points=50)
    assert "damage_per_100pts" in set(one.metric)


@pytest.mark.parametrize("points, pattern", [
    ([10], "1 points values for 2 attackers"), ({"Nope": 3}, "not an attacker"),
    ([10, -1], "positive finite number"), (5, "one points value for 2 attackers")])
def test_bad_points(points, pattern):
    with pytest.raises(OptionError, match=pattern):
        mh.compare([HB, LC], ["MEQ"], method="exact", points=points)


def test_bad_inputs_fail_before_running():
    with pytest.raises(OptionError, match="unknown option 'half_rang'"):
        mh.compare([HB], ["MEQ"], half_rang=True)
    with pytest.raises(ProfileError, match="did you mean 'MEQ'"):
        mh.compare([HB], ["MEQQ"])
    with pytest.raises(OptionError, match="at least one attacker"):
        mh.compare([], ["MEQ"])
    with pytest.raises(OptionError, match="at least one target"):
        mh.compare([HB], [])


# -- sweeps --------------------------------------------------------------------------------
def test_sweep_save_equals_exact_on_the_changed_target():
    df = sweep([HB], ["T4 Sv3+ W2"], "save", [2, 3, "4+", 7], method="exact")
    assert list(df.columns) == ["attacker", "target", "save", "metric", "value", "stderr",
                                "method"]
    for save, line in ((2, "T4 Sv2+ W2"), (3, "T4 Sv3+ W2"), ("4+", "T4 Sv4+ W2"),
                       (7, "T4 Sv- W2")):
        e = mh.exact(HB, line)
        assert cell(df, "Heavy bolter", "T4 Sv3+ W2", "expected_damage", save=save).value == \
            pytest.approx(e.mean("damage"), abs=1e-15)


def test_sweep_option_cells_equal_single_runs_with_seed_children():
    values = [-1, 0, 1]
    df = sweep([HB, LC], ["MEQ"], "hit_mod", values, method="monte-carlo", trials=TRIALS, seed=9)
    children = np.random.SeedSequence(9).spawn(2 * 1 * 3)
    for a, (label, line) in enumerate([("Heavy bolter", HB), ("Lascannon", LC)]):
        for v, value in enumerate(values):
            r = mh.simulate(line, "MEQ", trials=TRIALS, seed=children[a * 3 + v], hit_mod=value)
            assert cell(df, label, "MEQ", "expected_damage", hit_mod=value).value == \
                r.mean("damage")


def test_sweep_range_models_and_target_models():
    melta = 'Meltagun: 12" A1 BS3+ S9 AP-4 D 6 [MELTA 2]'
    df = sweep([melta], ["VEQ"], "range", ["full", "half"], method="exact")
    assert cell(df, "Meltagun", "VEQ", "expected_damage", range="half").value == \
        pytest.approx(mh.exact(melta, "VEQ", half_range=True).mean("damage"))
    df = sweep([HB], ["GEQ"], "models", [1, 3], method="exact")
    assert cell(df, "Heavy bolter", "GEQ", "expected_damage", models=3).value == \
        pytest.approx(mh.exact("3x " + HB, "GEQ").mean("damage"))
    df = sweep([HB], ["MEQ"], "target_models", [1, 10], method="exact")
    assert cell(df, "Heavy bolter", "MEQ", "p_unit_destroyed", target_models=1).value == \
        pytest.approx(mh.exact(HB, "1x MEQ").probability("unit_destroyed"))
    df = sweep([LC], ["TEQ"], "invuln", ["-", 4], method="exact")
    assert cell(df, "Lascannon", "TEQ", "expected_damage", invuln="-").value > \
        cell(df, "Lascannon", "TEQ", "expected_damage", invuln=4).value


def test_sweep_errors():
    with pytest.raises(OptionError, match="cannot sweep over 'hitmod'; did you mean 'hit_mod'"):
        sweep([HB], ["MEQ"], "hitmod", [1])
    with pytest.raises(OptionError, match="at least one value"):
        sweep([HB], ["MEQ"], "save", [])
    with pytest.raises(OptionError, match="range band 'close'"):
        sweep([HB], ["MEQ"], "range", ["close"], method="exact")
    with pytest.raises(OptionError, match="save value 1 must be at least 2"):
        sweep([HB], ["MEQ"], "save", [1], method="exact")


# -- tables --------------------------------------------------------------------------------
def test_pivot_markdown_and_json():
    df = mh.compare([HB, LC], ["GEQ", "MEQ"], method="monte-carlo", trials=TRIALS, seed=1)
    wide = pivot(df, "expected_damage")
    assert list(wide.columns) == ["GEQ", "MEQ"] and list(wide.index) == ["Heavy bolter",
                                                                          "Lascannon"]
    assert " ± " in wide.iloc[0, 0]
    md = to_markdown(df, "expected_damage")
    lines = md.splitlines()
    assert lines[0] == "| attacker | GEQ | MEQ |" and len(lines) == 4
    full = pivot(df)
    assert list(full.index.names) == ["attacker", "target"] and len(full) == 4
    with pytest.raises(OptionError, match="no metric 'damage'"):
        pivot(df, "damage")
    exact = mh.compare([HB], ["MEQ"], method="exact")
    data = to_json_dict(exact)
    json.dumps(data, allow_nan=False)
    assert data["method"] == "exact" and data["rows"][0]["stderr"] is None
    assert " ± " not in to_markdown(exact)


def test_results_grid_matches_compare():
    df = mh.compare([HB], ["MEQ", "GEQ"], method="monte-carlo", trials=TRIALS, seed=6)
    res = results([HB], ["MEQ", "GEQ"], method="monte-carlo", trials=TRIALS, seed=6)
    assert set(res) == {("Heavy bolter", "MEQ"), ("Heavy bolter", "GEQ")}
    for (a, t), r in res.items():
        assert cell(df, a, t, "expected_damage").value == r.mean("damage")


def test_function_is_served_after_submodule_import():
    import mathhammer.wh40k.comparisons as module

    assert callable(mh.compare) and mh.compare is module.compare
    assert not math.isnan(mh.compare(HB, "MEQ", method="exact").value.iloc[0])


def test_per_points_on_any_tidy_frame_matches_compare_points():
    plain = mh.compare([HB, LC], ["MEQ", "TEQ"], method="monte-carlo", trials=TRIALS, seed=2)
    with_points = mh.compare([HB, LC], ["MEQ", "TEQ"], method="monte-carlo", trials=TRIALS, seed=2, points=[20, 40])
    from mathhammer.wh40k.comparisons import per_points

    added = per_points(plain, {"Heavy bolter": 20, "Lascannon": 40})
    pd.testing.assert_frame_equal(added, with_points)
    units = pd.DataFrame({"unit": ["Intercessors", "Intercessors", "Boyz"],
                          "round": [1, 2, 1], "metric": ["expected_damage"] * 3,
                          "value": [4.0, 6.0, 3.0], "stderr": [0.1, 0.2, float("nan")]})
    out = per_points(units, {"Intercessors": 80}, by="unit")
    assert list(out.metric) == ["expected_damage", "damage_per_100pts", "expected_damage",
                                "damage_per_100pts", "expected_damage"]
    assert out.value.tolist() == [4.0, 5.0, 6.0, 7.5, 3.0]
    with pytest.raises(OptionError, match="needs a 'unit' column"):
        per_points(plain, {"x": 1}, by="unit")
    with pytest.raises(OptionError, match="positive finite number"):
        per_points(units, {"Boyz": 0}, by="unit")
