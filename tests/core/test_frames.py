"""The tidy comparison frame and its readers (core/frames.py), on frames written by hand."""

import json
import math

import pandas as pd
import pytest

from mathhammer.core.frames import (COLUMNS, extra_columns, per_points, pivot, table,
                                    tidy_frame, to_json_dict, to_markdown)
from mathhammer.errors import OptionError

NAN = math.nan


def grid(method="exact"):
    rows = [{"attacker": a, "target": t, "save": s, "metric": m, "value": v, "stderr": e}
            for a, t, s, m, v, e in (
                ("Lascannon", "MEQ", 3, "expected_damage", 1.5, NAN),
                ("Lascannon", "MEQ", 3, "p_unit_destroyed", 0.25, NAN),
                ("Lascannon", "VEQ", 3, "expected_damage", 3.0, NAN),
                ("Lascannon", "VEQ", 3, "p_unit_destroyed", 0.0, NAN))]
    return tidy_frame(rows, ["save"], method=method, trials=1000, seed=4,
                      situation="half range")


def test_columns_order_and_provenance():
    frame = grid()
    assert list(frame.columns) == ["attacker", "target", "save", "metric", "value", "stderr",
                                   "method"]
    assert extra_columns(frame) == ["save"] and COLUMNS[-1] == "method"
    # an exact frame keeps no trials or seed
    assert frame.attrs == {"method": "exact", "trials": None, "seed": None,
                           "situation": "half range"}
    assert grid("monte-carlo").attrs["trials"] == 1000


def test_per_points_rows_follow_their_cell():
    frame = per_points(grid(), {"Lascannon": 150})
    # 1.5 wounds for 150 points is 1 per 100 points; probabilities are not scaled
    meq = frame[frame["target"] == "MEQ"]
    assert meq["metric"].tolist() == ["expected_damage", "p_unit_destroyed",
                                      "damage_per_100pts"]
    assert meq["value"].tolist() == [1.5, 0.25, 1.0]
    assert frame.attrs["points"] == {"Lascannon": 150.0}
    with pytest.raises(OptionError, match="must be a positive finite number"):
        per_points(grid(), {"Lascannon": 0})


def test_pivot_table_and_markdown():
    wide = pivot(grid(), "expected_damage")
    assert list(wide.columns) == ["MEQ", "VEQ"]
    assert wide.loc[("Lascannon", 3)].tolist() == ["1.500", "3.000"]  # 4 significant figures
    result = table(grid(), "p_unit_destroyed")
    assert result.caption == "P(unit destroyed); exact; half range"
    assert "| Lascannon | 3 | 25.0% | 0% |" in to_markdown(grid(), "p_unit_destroyed")
    with pytest.raises(OptionError, match="no metric 'p_kill' in this comparison"):
        pivot(grid(), "p_kill")


def test_json_dict():
    out = to_json_dict(grid())
    assert out["method"] == "exact" and out["rows"][0]["stderr"] is None
    json.dumps(out)  # plain JSON, no numpy scalars
    assert isinstance(pd.DataFrame(out["rows"]), pd.DataFrame)
