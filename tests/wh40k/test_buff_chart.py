"""What each buff is worth, drawn: one bar per buff and one for all of them, each as long as
the attribution's gain (the gains themselves are checked against hand-typed runs in
test_buff_attribution.py), costs in the labels, refusals in one line."""

import pytest

from mathhammer.cli import main
from mathhammer.errors import OptionError
from mathhammer.wh40k.buff_attribution import attribution
from mathhammer.wh40k.buff_chart import attribution_chart

BOLTERS = '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'
BUFFS = ["Oath of Moment: re-roll hits (1CP)", "[LETHAL HITS] to INFANTRY"]


@pytest.fixture(scope="module")
def frame():
    return attribution(BOLTERS, "MEQ", BUFFS, method="exact", stationary=True)


@pytest.mark.parametrize("metric", ["expected_damage", "p_unit_destroyed"])
def test_each_bar_is_the_gain_of_its_buff(frame, metric):
    art = attribution_chart(frame, metric)
    gains = frame[frame["metric"] == metric]["gain"].tolist()
    assert [bar.get_width() for bar in art.bars] == pytest.approx(gains, abs=1e-12)
    labels = [t.get_text() for t in art.ax.get_yticklabels()]
    assert labels[0] == "Oath of Moment (1 CP)" and labels[-1] == "(all buffs)"
    texts = [t.get_text() for t in art.ax.texts]
    assert all(t.startswith(("+", "-")) for t in texts) and len(texts) == 3


def test_an_unknown_metric_is_refused_in_one_line(frame):
    with pytest.raises(OptionError, match="no gains of 'points'.*expected_damage") as caught:
        attribution_chart(frame, "points")
    assert "\n" not in str(caught.value)


def test_the_command_line_draws_it_only_with_the_table(tmp_path, capsys):
    out = tmp_path / "worth.png"
    args = ["exact", BOLTERS, "--target", "MEQ", "--stationary",
            *[a for b in BUFFS for a in ("--buff", b)], "--attribution"]
    assert main([*args, "--attribution-plot", str(out)]) == 0
    assert out.stat().st_size > 5_000 and "What each buff is worth" in capsys.readouterr().out
    assert main([a for a in args if a != "--attribution"] +
                ["--attribution-plot", str(out)]) == 2
    err = capsys.readouterr().err
    assert "add --attribution" in err and len(err.strip().splitlines()) == 1
