"""How long a chart takes to make, against the floor of one layout of the finished figure.

    python -m benchmarks.chart_rows

A chart lays itself out (long labels shortened, text fitted, the figure grown) and every
layout is one full matplotlib draw; the floor is one more draw of the finished figure, so the
ratio counts draws' worth of work. Cases: a 13 x 8 heat map and the bar chart of the same
grid with long generated names in the chart's own figure, and both side by side in a
caller's 7 x 3 in figure (the crowded case that ends in a warning). Median of 5, warm.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from benchmarks.run import median_time  # noqa: E402


def _grid(n_rows: int, n_cols: int, seed: int = 505) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    words = ["Intercessor", "Squad", "with", "bolt", "rifles", "Terminator", "Assault",
             "heavy", "flamers", "Devastator", "melta", "Eradicator", "multi-meltas"]
    attackers = [" ".join(rng.choice(words, 6)) + f" ({i})" for i in range(n_rows)]
    targets = [" ".join(rng.choice(words, 5)) + f" [{j}]" for j in range(n_cols)]
    rows = [{"attacker": a, "target": t, "metric": "expected_damage",
             "value": float(rng.uniform(0, 10)), "stderr": 0.02}
            for a in attackers for t in targets]
    frame = pd.DataFrame(rows)
    frame.attrs.update(method="monte-carlo", trials=50_000, seed=3)
    return frame


def _one_draw(figure) -> float:
    return median_time(figure.draw_without_rendering, 5)[0]


def rows() -> list[tuple[str, float, float]]:
    """(case, seconds, seconds of one draw of the result) for each case."""
    from matplotlib.figure import Figure

    from mathhammer import charts

    frame = _grid(13, 8)
    charts.heatmap(frame), charts.bars(frame)   # warm: imports, fonts

    def two_panels():
        figure = Figure(figsize=(7, 3), layout="constrained")
        left, right = figure.subplots(1, 2)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            charts.heatmap(frame, ax=left)
            charts.bars(frame, ax=right)
        return figure

    out = []
    for case, make in (("heat map, 13 x 8, long names", lambda: charts.heatmap(frame).ax.figure),
                       ("bars, 13 x 8, long names", lambda: charts.bars(frame).ax.figure),
                       ("both in a caller's 7 x 3 in figure", two_panels)):
        seconds, figure = median_time(make, 5)
        out.append((case, seconds, _one_draw(figure)))
    return out


def main() -> int:
    print("| chart | seconds | one draw of the result | ratio |")
    print("|---|---:|---:|---:|")
    for case, seconds, draw in rows():
        print(f"| {case} | {seconds:.2f} | {draw:.2f} | {seconds / draw:.1f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
