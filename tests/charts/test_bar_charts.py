"""Bar and dot charts (charts/bar_charts.py): the drawn lengths are the frame's values."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mathhammer.charts.bar_charts import bars  # noqa: E402
from mathhammer.errors import OptionError  # noqa: E402


def grid(targets=("MEQ", "VEQ"), stderr=np.nan):
    rows = [{"attacker": a, "target": t, "metric": "expected_damage", "value": v,
             "stderr": stderr}
            for (a, t), v in zip([(a, t) for a in ("Lascannon", "Melta") for t in targets],
                                 [0.9, 1.7, 2.1, 3.3, 0.5, 0.6][:2 * len(targets)])]
    return pd.DataFrame(rows)


def test_one_bar_container_per_target_with_the_values():
    art = bars(grid())
    assert len(art.bars) == 2 and art.errorbars == []
    widths = [[patch.get_width() for patch in container] for container in art.bars]
    # target by target, attackers in order: MEQ (0.9, 2.1), VEQ (1.7, 3.3)
    assert widths == [[0.9, 2.1], [1.7, 3.3]]
    assert [t.get_text() for t in art.ax.get_legend().get_texts()] == ["MEQ", "VEQ"]


def test_three_targets_draw_dots_and_monte_carlo_draws_error_bars():
    art = bars(grid(("A", "B", "C"), stderr=0.05))
    assert all(isinstance(line, matplotlib.lines.Line2D) for line in art.bars)
    assert [line.get_xdata().tolist() for line in art.bars] == [[0.9, 3.3], [1.7, 0.5],
                                                                [2.1, 0.6]]
    assert len(art.errorbars) == 3


def test_per_points_reads_the_per_100_points_metric():
    frame = grid(("MEQ",))
    frame = pd.concat([frame, frame.assign(metric="damage_per_100pts",
                                           value=[0.6, 1.4])])
    frame.attrs["points"] = {"Lascannon": 150, "Melta": 150}
    art = bars(frame, per_points=True)
    assert [p.get_width() for p in art.bars[0]] == [0.6, 1.4]
    labels = [t.get_text() for t in art.ax.get_yticklabels()]
    assert labels[0].replace("\n", " ") == "Lascannon (150 pts)"


def test_unknown_kind_is_refused():
    with pytest.raises(OptionError, match="kind='pie'"):
        bars(grid(), kind="pie")
