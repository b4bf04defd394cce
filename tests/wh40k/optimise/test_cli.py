"""``mathhammer optimise FILE``: text, JSON, CSV, chart, and one-line errors."""

import json
from pathlib import Path

import pandas as pd
import pytest

from mathhammer.cli import main

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "optimise_shooting.toml"


def test_json_is_one_object_best_plan_first(capsys):
    assert main(["optimise", str(EXAMPLE), "--objective", "expected_points_destroyed",
                 "--no-split", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert out.count("\n") == 1
    assert data["optimal"] is True and data["method"] == "enumeration"
    values = [p["value"] for p in data["ranked"]]
    assert values == sorted(values, reverse=True)
    order = data["ranked"][0]["orders"][0]
    assert {"attacker", "weapon", "count", "target", "profile"} <= set(order)
    assert all(p["method"] == "exact" and p["stderr"] == 0 for p in data["ranked"])
    counts = {}
    for o in data["ranked"][0]["orders"]:
        counts[o["group"]] = counts.get(o["group"], 0) + o["count"]
    assert counts == {"Veteran": 7, "Veteran with plasma": 2, "Sergeant": 1}


def test_text_csv_and_chart(tmp_path, capsys):
    csv, png = tmp_path / "plans.csv", tmp_path / "plans.png"
    assert main(["optimise", str(EXAMPLE), "--no-split", "--csv", str(csv), "--plot",
                 str(png)]) == 0
    text = capsys.readouterr().out
    assert "Best orders:" in text and "proven optimal" in text and "->" in text
    frame = pd.read_csv(csv)
    assert {"orders", "orders", "unit", "expected_models_destroyed", "value"} <= set(frame)
    assert png.stat().st_size > 10_000


@pytest.mark.parametrize("args, message", [
    (["--objective", "kills"], "objective 'kills' is unknown"),
    (["--unit", "Nobody"], "unknown unit 'Nobody'"),
    (["--side", "Nobody"], "unknown side 'Nobody'"),
    (["--then", "expected_damage"], "write OBJECTIVE:UNIT"),
    (["--weight", "Carnifex"], "write UNIT=POINTS"),
    (["--tolerance", "-1"], "tolerance=-1.0"),
])
def test_bad_options_are_one_line(args, message, capsys):
    assert main(["optimise", str(EXAMPLE), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_plain_scenario_needs_no_open_choices(tmp_path, capsys):
    path = tmp_path / "duel.toml"
    path.write_text(EXAMPLE.read_text().replace(
        'targets = ["Termagant Brood", "Tyranid Warriors with Ranged Bio-weapons", "Carnifex"]',
        'target = "Carnifex"'))
    assert main(["optimise", str(path), "--unit", "Carnifex", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {o["target"] for p in data["ranked"] for o in p["orders"]} == {"Carnifex"}
    assert data["ranked"][0]["orders"][-1]["profile"] == "Combi-weapon - melta"


def test_max_plans_is_the_old_name_of_max_orders(capsys):
    """--max-orders names what it limits (sets of orders); --max-plans works for one release,
    with a note on stderr, and gives the same answer."""
    args = ["optimise", str(EXAMPLE), "--no-split", "--json"]
    assert main([*args, "--max-orders", "5"]) == 0
    new = capsys.readouterr()
    assert main([*args, "--max-plans", "5"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out and json.loads(new.out)["method"] != "enumeration"
    assert "--max-plans is now --max-orders" in old.err and new.err == ""
    assert main([*args, "--max-plans", "5", "--max-orders", "5"]) == 2
    assert "give --max-orders alone" in capsys.readouterr().err
