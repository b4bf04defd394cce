"""A comparison frame's tables (report/frame_tables.py): pivot, table, Markdown."""

import math

import pytest

from mathhammer.core.frames import tidy_frame
from mathhammer.errors import OptionError
from mathhammer.report.frame_tables import pivot, table, to_markdown
from tests.core.test_frames import grid

NAN = math.nan


def test_pivot_table_and_markdown():
    wide = pivot(grid(), "expected_damage")
    assert list(wide.columns) == ["MEQ", "VEQ"]
    assert wide.loc[("Lascannon", 3)].tolist() == ["1.500", "3.000"]  # 4 significant figures
    result = table(grid(), "p_unit_destroyed")
    assert result.caption == "P(unit destroyed); exact; half range"
    assert "| Lascannon | 3 | 25.0% | 0% |" in to_markdown(grid(), "p_unit_destroyed")
    with pytest.raises(OptionError, match="no metric 'p_kill' in this comparison"):
        pivot(grid(), "p_kill")


def test_tables_show_cells_whose_settings_are_missing():
    """A setting no row sets (Dust's distance when none is given) is left out of the tables,
    a setting some rows lack reads '-': pandas drops a group whose key is missing, and the
    tables used to come out empty."""
    rows = [{"attacker": "Gun", "target": t, "distance": d, "metric": "expected_hits",
             "value": v, "stderr": NAN} for t, d, v in (("G", None, 2.0), ("H", None, 1.0))]
    unset = tidy_frame(rows, ["distance"], method="exact")
    assert pivot(unset).shape == (2, 1) and "distance" not in pivot(unset).index.names
    assert "| Gun | 2.00 | 1.00 |" in to_markdown(unset, "expected_hits")
    rows[1]["distance"] = 2
    partly = tidy_frame(rows, ["distance"], method="exact")
    wide = pivot(partly, "expected_hits")
    assert wide.index.tolist() == [("Gun", "-"), ("Gun", 2)]
    assert table(partly).frame["distance"].tolist() == ["-", 2]
    assert partly["distance"].isna().sum() == 1   # the frame itself is left as it was
