"""Charts take their words from the data: results and distributions name their outcomes,
games register their metric words, scenarios name their checkpoints; the shared core
imports no result type and knows no game word."""

import ast
import subprocess
import sys
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

import mathhammer as mh
from mathhammer.cli import main
from mathhammer import charts
from mathhammer.core.result import Distribution
from mathhammer.errors import OptionError

ROOT = Path(__file__).resolve().parents[2]
LC = 'Lascannon: 48" A1 BS4+ S12 AP-3 D6+1'
SCENARIO = """
rounds = 2
[units.Marines]
models = [{ name = "Intercessor", count = 4, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1"] }]
[units.Boyz]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Slugga: 12\\" A1 BS5+ S4 AP0 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Marines"
target = "Boyz"
[[activations]]
phase = "shooting"
attacker = "Boyz"
target = "Marines"
"""


def imports_of(path):
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_charts_import_no_result_module_and_no_game():
    chart_modules = sorted((ROOT / "mathhammer" / "charts").glob("*.py"))
    assert len(chart_modules) >= 9, chart_modules  # __init__.py and the modules it gathers
    for path in (*chart_modules, *(ROOT / "mathhammer" / "report").glob("*.py")):
        imported = imports_of(path)
        assert not any(m.startswith(("mathhammer.core.result", "mathhammer.wh40k",
                                     "mathhammer.dust", "mathhammer.warmachine"))
                       for m in imported), (path.name, imported)
    source = "".join(path.read_text() for path in chart_modules)
    assert "._dist(" not in source and "attacker_mortal_wounds" not in source


def test_result_hands_out_named_distributions():
    r = mh.simulate(LC, "MEQ", trials=2_000, seed=4, half_range=True, stationary=True)
    dist = r.distribution("models_destroyed")
    assert dist.label == "models destroyed" and dist.subject == "Lascannon vs 5x Intercessor"
    assert dist.note.startswith("Monte Carlo, 2,000 trials, seed 4; half range, stationary; "
                                "Lascannon: 48\" A1 BS4+")  # the profiles follow
    assert dist.mean == r.mean("models_destroyed")
    exact = mh.exact(LC, "MEQ")
    assert exact.caption.startswith("exact; Lascannon: 48\"") and exact.distribution("damage").label == "wounds lost"


def test_bare_distribution_is_labelled_by_its_own_words():
    dist = Distribution.from_pmf([0.5, 0.5], label="boxes marked", subject="Juggernaut")
    art = charts.distribution(dist)
    assert art.ax.get_xlabel() == "k (boxes marked)"
    assert art.ax.get_title(loc="left") == "Boxes marked: Juggernaut"


def test_scenario_checkpoints_by_round_name_and_chart_labels():
    result = mh.run(mh.parse_scenario(SCENARIO), trials=4_000, seed=2)
    assert result.checkpoint_name(1) == "round 1 end"
    assert result.checkpoint_name(2) == "round 2, after Marines shoots Boyz"
    for name in ("round 1 end", "end of round 1", "Round 1 End"):
        assert result.models_destroyed("Boyz", name).mean == \
            result.models_destroyed("Boyz", 1).mean
    assert result.destroyed("Boyz", "end") == result.destroyed("Boyz")
    art = charts.distribution(result.models_destroyed("Marines", "round 2 end"))
    assert art.ax.get_xlabel() == "k (models destroyed)"
    assert art.ax.get_title(loc="left") == "Models destroyed: Marines, round 2 end"
    assert "4,000 trials, seed 2" in art.twin.get_legend().get_title().get_text()
    with pytest.raises(OptionError, match="has 2 round"):
        result.models_destroyed("Boyz", "round 3 end")
    with pytest.raises(OptionError, match="'round R end'"):
        result.models_destroyed("Boyz", "round two")


def test_run_text_has_group_rows_and_round_names():
    result = mh.run(mh.parse_scenario(SCENARIO), trials=2_000, seed=2)
    text = result.to_text()
    assert "round 1 end" in text and "Marines: Intercessor" in text
    md = result.to_markdown()
    assert "| Boyz | Boy |" in md and "| round 2 end |" in md


@pytest.mark.parametrize("argv, offered", [
    (["exact", LC, "--target", "MEQ"], "attacker_mortal_wounds"),
    (["warmachine", "exact", "Axe: MAT7 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1"],
     "boosts_spent"),
    (["dust", "exact", "Gun: 3/1", "--target", "G: INFANTRY2"], "damage_before_saves"),
])
def test_plot_outcome_offers_each_games_outcomes(capsys, argv, offered):
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    out = capsys.readouterr().out
    assert offered in " ".join(out.split())
    if argv[0] != "exact":
        assert "attacker_mortal_wounds" not in out


def test_one_palette_for_every_game():
    # the shared charts serve every game: no game keeps chart code of its own
    for game in ("wh40k", "warmachine", "dust"):
        assert not (ROOT / "mathhammer" / game / "charts.py").exists(), game
    for path in (ROOT / "mathhammer").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "import matplotlib.pyplot" not in source, path


def test_public_charts_module():
    code = "import mathhammer.charts as c; print(c.heatmap.__module__, len(c.__all__))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("mathhammer.charts")
