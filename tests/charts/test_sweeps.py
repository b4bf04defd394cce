"""Sweep lines and survival curves (charts/sweeps.py): lines through the frame's values."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from mathhammer.charts.sweeps import survival, sweep_lines  # noqa: E402
from mathhammer.errors import OptionError  # noqa: E402


def sweep():
    # a bolter against saves 2+..7 (none): 1/2 hit x 1/2 wound x P(fail save) = (s-1)/6 / 4
    saves = [2, 3, 4, 7]
    values = [(min(s, 7) - 1) / 6 / 4 for s in saves]
    return pd.DataFrame({"attacker": "Bolter", "target": "T4 W1", "save": saves,
                         "metric": "expected_damage", "value": values, "stderr": np.nan})


def test_sweep_lines_plot_values_against_the_setting():
    art = sweep_lines(sweep())
    (line,) = art.lines
    assert line.get_xdata().tolist() == [2, 3, 4, 7]
    assert np.allclose(line.get_ydata(), [1 / 24, 2 / 24, 3 / 24, 6 / 24])
    # saves are labelled as the target sees them; 7 is no save
    assert [t.get_text() for t in art.ax.get_xticklabels()] == ["2+", "3+", "4+", "none"]
    assert art.bands == []


def test_sweep_lines_needs_to_know_the_swept_column():
    with pytest.raises(OptionError, match="give the swept parameter"):
        sweep_lines(sweep().assign(cover=True))
    with pytest.raises(OptionError, match="no column 'range'"):
        sweep_lines(sweep(), parameter="range")


def test_sweep_lines_beyond_the_series_limit_are_refused(monkeypatch):
    from mathhammer.core import limits

    two = pd.concat([sweep(), sweep().assign(attacker="Melta")])
    monkeypatch.setattr(limits, "MAX_CHART_SERIES", 1)
    with pytest.raises(OptionError, match="^a sweep chart of 2 lines is more than 1 lines"):
        sweep_lines(two)
    assert len(sweep_lines(sweep()).lines) == 1


def test_survival_curves_and_bands():
    frame = pd.DataFrame({"unit": ["A"] * 3 + ["B"] * 3, "round": [1, 2, 3] * 2,
                          "p_alive": [0.9, 0.6, 0.2, 1.0, 0.95, 0.9],
                          "stderr": [0.01] * 3 + [np.nan] * 3})
    art = survival(frame)
    assert [line.get_ydata().tolist() for line in art.lines] == [[0.9, 0.6, 0.2],
                                                                [1.0, 0.95, 0.9]]
    assert len(art.bands) == 1  # only A has standard errors


@pytest.mark.parametrize("change, message", [
    ({"p_alive": [1.2, 0.5]}, "probabilities between 0 and 1"),
    ({"round": [1.5, 2]}, "whole battle-round numbers"),
])
def test_survival_refuses_impossible_frames(change, message):
    frame = pd.DataFrame({"unit": ["A", "A"], "round": [1, 2], "p_alive": [0.9, 0.5]})
    with pytest.raises(OptionError, match=message):
        survival(frame.assign(**change))
    with pytest.raises(OptionError, match="need a 'unit' column"):
        survival(frame.drop(columns="unit"))
