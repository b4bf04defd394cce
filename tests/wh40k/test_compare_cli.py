"""``mathhammer compare`` and the shared output options (--csv, --markdown, --plot, --json)
of simulate and exact, called through ``main([...])``."""

import json
import re
import struct

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

import mathhammer as mh
from mathhammer.cli import main

HB = 'Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]'
LC = 'Lascannon: 48" A1 BS4+ S12 AP-3 D6+1'


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


# -- simulate / exact outputs --------------------------------------------------------------
def test_exact_csv_plot_and_json_together(capsys, tmp_path):
    csv, png = tmp_path / "e.csv", tmp_path / "e.png"
    code, out, err = run(capsys, "exact", HB, "--target", "MEQ", "--json", "--csv", str(csv),
                         "--plot", str(png))
    assert code == 0 and err == ""
    data = json.loads(out)  # still exactly one JSON object
    frame = pd.read_csv(csv)
    assert list(frame.columns) == ["outcome", "value", "probability", "at_least"]
    e = mh.exact(HB, "MEQ")
    damage = frame[frame.outcome == "damage"]
    assert (damage.value * damage.probability).sum() == pytest.approx(e.mean("damage"))
    assert data["damage"]["mean"] == pytest.approx(e.mean("damage"))
    assert png_size(png) == (1050, 765)  # the distribution's two panels: 7 x 5.1 in


def test_simulate_markdown_and_svg_of_models_destroyed(capsys, tmp_path):
    svg = tmp_path / "s.svg"
    code, out, _ = run(capsys, "simulate", HB, "--target", "10x GEQ", "--trials", "5000",
                       "--markdown", "--plot", str(svg), "--plot-outcome", "models_destroyed")
    assert code == 0
    assert "- Target: `10x Guardsman: T3 Sv5+ W1 [INFANTRY]`" in out
    assert "| outcome | mean | stderr |" in out and "**models destroyed**" in out
    assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()


@pytest.mark.parametrize("argv, pattern", [
    (["--json", "--markdown"], "not allowed with"),
    (["--plot", "chart.jpg"], r"\.png, \.svg or \.pdf"),
    (["--plot", "x.png", "--plot-outcome", "hits"], "no outcome 'hits'"),
])
def test_bad_output_options(capsys, tmp_path, argv, pattern):
    code, out, err = run(capsys, "exact", HB, "--target", "MEQ", *argv)
    assert code == 2 and out == ""
    assert err.startswith("mathhammer: error:") and re.search(pattern, err)


def test_unwritable_csv_is_one_line_error(capsys, tmp_path):
    code, _, err = run(capsys, "exact", HB, "--target", "MEQ", "--csv",
                       str(tmp_path / "missing" / "x.csv"))
    assert code == 2 and err.count("\n") == 1


def test_targets_file_and_aliases_on_simulate_and_exact(capsys, tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('[Sisters]\nline = "10x Battle Sister: T3 Sv3+ W1 [INFANTRY]"\n')
    code, out, _ = run(capsys, "exact", HB, "--target", "5x Sisters", "--targets-file",
                       str(mine), "--json")
    assert code == 0
    assert json.loads(out)["damage"]["mean"] == pytest.approx(
        mh.exact(HB, "5x Battle Sister: T3 Sv3+ W1 [INFANTRY]").mean("damage"))
    code, _, err = run(capsys, "exact", HB, "--target", "Sisters")
    assert code == 2 and "unknown target 'Sisters'" in err
    code, _, err = run(capsys, "exact", HB, "--target", "MEQ", "--targets-file",
                       str(tmp_path / "nope.toml"))
    assert code == 2 and "cannot read target file" in err


# -- compare -------------------------------------------------------------------------------
def test_compare_table_csv_and_heat_map(capsys, tmp_path):
    csv, png = tmp_path / "g.csv", tmp_path / "g.png"
    code, out, err = run(capsys, "compare", HB, LC, "--target", "MEQ", "--target", "TEQ",
                         "--trials", "5000", "--seed", "3", "--csv", str(csv), "--plot",
                         str(png))
    assert code == 0 and err == ""
    assert "Monte Carlo, 5,000 trials per cell, seed 3" in out and "±" in out
    frame = pd.read_csv(csv)
    expected = mh.compare([HB, LC], ["MEQ", "TEQ"], method="monte-carlo", trials=5000, seed=3)
    pd.testing.assert_frame_equal(frame, expected.reset_index(drop=True), check_exact=False,
                                  rtol=1e-12)
    w, h = png_size(png)
    assert w > 600 and h > 300


def test_compare_exact_json_with_situation_flags_and_points(capsys):
    code, out, _ = run(capsys, "compare", HB, LC, "--target", "MEQ", "--exact",
                       "--stationary", "--points", "20", "--points", "40", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["method"] == "exact" and data["trials"] is None
    rows = {(r["attacker"], r["metric"]): r for r in data["rows"]}
    e = mh.exact(LC, "MEQ", stationary=True)
    assert rows[("Lascannon", "expected_damage")]["value"] == pytest.approx(e.mean("damage"))
    assert rows[("Lascannon", "damage_per_100pts")]["value"] == \
        pytest.approx(e.mean("damage") * 100 / 40)
    assert rows[("Lascannon", "expected_damage")]["stderr"] is None


def test_compare_sweep_markdown(capsys):
    code, out, _ = run(capsys, "compare", HB, "--target", "MEQ", "--exact", "--sweep",
                       "save=2,3,-", "--metric", "expected_damage", "--markdown")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0] == "| attacker | save | MEQ |" and len(lines) == 5
    assert lines[-1] == "| Heavy bolter | - | 2.67 |"  # 2.6667 to three figures


def test_compare_sweep_of_an_option_and_a_unit(capsys, tmp_path):
    csv = tmp_path / "s.csv"
    code, _, _ = run(capsys, "compare", f"{HB} + {LC}", "--target", "MEQ", "--exact",
                     "--sweep", "hit_mod=-1,0,1", "--csv", str(csv))
    assert code == 0
    frame = pd.read_csv(csv)
    assert list(frame.columns) == ["attacker", "target", "hit_mod", "metric", "value",
                                   "stderr", "method"]
    row = frame[(frame.hit_mod == 1) & (frame.metric == "expected_damage")]
    assert row.value.iloc[0] == pytest.approx(mh.exact([HB, LC], "MEQ", hit_mod=1)
                                              .mean("damage"))
    assert frame.attacker.iloc[0] == "Heavy bolter + Lascannon"


@pytest.mark.parametrize("argv, pattern", [
    (["--target", "MEQQ"], "did you mean 'MEQ'"),
    (["--target", "MEQ", "--sweep", "hitmod=1"], "did you mean 'hit_mod'"),
    (["--target", "MEQ", "--sweep", "save"], "PARAM=V1,V2"),
    (["--target", "MEQ", "--metric", "dmg"], "no metric 'dmg'"),
    (["--target", "MEQ", "--points", "10", "--points", "20"], "2 points values for 1"),
    (["--target", "MEQ", "--trials", "0"], "must be at least 1"),
    ([], "required: --target"),
])
def test_compare_bad_input(capsys, argv, pattern):
    code, out, err = run(capsys, "compare", HB, "--exact", *argv)
    assert code == 2 and out == "" and re.search(pattern, err)
    assert err.count("\n") == 1


def test_compare_plot_kinds(capsys, tmp_path):
    overlay, lines = tmp_path / "o.png", tmp_path / "l.svg"
    code, _, _ = run(capsys, "compare", HB, LC, "--target", "MEQ", "--exact", "--plot",
                     str(overlay), "--plot-kind", "overlay", "--plot-outcome",
                     "models_destroyed")
    assert code == 0 and png_size(overlay) == (1050, 630)
    code, _, _ = run(capsys, "compare", HB, "--target", "MEQ", "--target", "TEQ", "--exact",
                     "--sweep", "hit_mod=-1,0,1", "--plot", str(lines))
    assert code == 0 and "<svg" in lines.read_text()
    code, _, err = run(capsys, "compare", HB, "--target", "MEQ", "--exact", "--plot",
                       str(tmp_path / "x.png"), "--plot-kind", "lines")
    assert code == 2 and "needs --sweep" in err


def test_keep_results_holds_every_cell():
    kept = mh.sweep([HB], ["MEQ"], "save", [2, 3], method="exact", keep_results=True)
    df, cells = kept.frame, kept.results
    assert set(cells) == {("Heavy bolter", "MEQ", 2), ("Heavy bolter", "MEQ", 3)}
    assert cells[("Heavy bolter", "MEQ", 3)].mean("damage") == \
        df[(df.save == 3) & (df.metric == "expected_damage")].value.iloc[0]


def test_results_out_still_collects_every_cell_with_a_deprecation_warning():
    cells = {}
    with pytest.warns(DeprecationWarning, match=r"keep_results=True\)\.results"):
        df = mh.sweep([HB], ["MEQ"], "save", [2, 3], method="exact", results_out=cells)
    assert set(cells) == {("Heavy bolter", "MEQ", 2), ("Heavy bolter", "MEQ", 3)}
    assert isinstance(df, pd.DataFrame)
    pd.testing.assert_frame_equal(
        df, mh.sweep([HB], ["MEQ"], "save", [2, 3], method="exact", keep_results=True).frame)


def test_compare_bar_chart_per_points(capsys, tmp_path):
    svg = tmp_path / "bars.svg"
    code, _, err = run(capsys, "compare", HB, LC, "--target", "MEQ", "--target", "TEQ",
                       "--exact", "--points", "120", "--points", "95", "--plot", str(svg),
                       "--chart", "bars", "--metric", "damage_per_100pts")
    assert code == 0 and err == ""
    text = svg.read_text()
    assert "<svg" in text and "wounds lost per 100 points" in text and "Heavy bolter" in text
    code, _, err = run(capsys, "compare", HB, "--target", "MEQ", "--exact", "--plot",
                       str(tmp_path / "x.png"), "--chart", "pie")
    assert code == 2 and "invalid choice: 'pie'" in err


def test_compare_markdown_caption_digits_and_percentages(capsys):
    code, out, _ = run(capsys, "compare", HB, LC, "--target", "MEQ", "--target", "TEQ",
                       "--trials", "4000", "--seed", "2", "--half-range", "--markdown",
                       "--metric", "p_unit_destroyed", "--caption", "--digits", "4")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0] == "*P(unit destroyed); Monte Carlo, 4,000 trials per cell, seed 2; " \
                       "half range*"
    assert lines[2] == "| attacker | MEQ | TEQ |"
    cells = [c.strip() for line in lines[4:] for c in line.strip("|").split("|")[1:]]
    assert cells and all(c.endswith("%") or "% ± " in c or c == "not seen in 4,000 trials"
                         for c in cells)
    assert "e-0" not in out


def test_compare_attribution_text_and_json_equal_the_api(capsys):
    from mathhammer.wh40k.buff_attribution import records

    argv = ["compare", "Bolter: A1 BS3+ S4 AP0 D1", "--target", "T4 Sv- W1", "--target",
            "MEQ", "--exact", "--buff", "Oath: re-roll hits (1CP)", "--buff", "+1 to wound",
            "--attribution"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "What each buff is worth (exact: wounds lost" in text
    # 16/27 - 4/9 = 0.148 against T4 Sv- W1, per CP the gain over both targets
    assert re.search(r"Bolter\s+Oath\s+\+0\.148\s+\+0\.049\s+\+0\.198\s+\+0\.198 per CP", text)
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    direct = mh.compare(["Bolter: A1 BS3+ S4 AP0 D1"], ["T4 Sv- W1", "MEQ"], method="exact",
                        buffs=["Oath: re-roll hits (1CP)", "+1 to wound"], attribution=True)
    assert out["attribution"] == records(direct)
    assert [r["value"] for r in out["rows"]] == list(direct.query(
        "buff == 'Oath'")["with_buffs"])


@pytest.mark.parametrize("extra, pattern", [
    ([], "--attribution needs at least one --buff"),
    (["--buff", "+1 to hit", "--sweep", "hit_mod=0,1"], "--attribution with --sweep"),
])
def test_compare_attribution_refusals(capsys, extra, pattern):
    assert main(["compare", "Bolter: A1 BS3+ S4 AP0 D1", "--target", "MEQ", "--exact",
                 "--attribution", *extra]) == 2
    err = capsys.readouterr().err
    assert pattern in err and len(err.strip().splitlines()) == 1
