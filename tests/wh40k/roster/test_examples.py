"""The Examples sections of the roster API run, and the shipped example lists read."""

import doctest

import mathhammer as mh
from mathhammer.wh40k.roster import api
from mathhammer.wh40k.roster.api import example


def test_docstring_examples():
    failures, tried = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def test_example_lists_have_ten_units_each():
    marines, orks = mh.load_roster(example("marines")), mh.load_roster(example("orks"))
    assert len(marines.units) == len(orks.units) == 10
    assert marines.points == sum(e.points for e in marines.entries) == 1410
    assert orks.points == sum(e.points for e in orks.entries) == 1080


def test_lootas_by_hand():
    # 5 deffguns: D3 shots each (mean 2), 5+ to hit, S8 vs T4 wounds on 2+, Sv3+ with AP-1:
    # 4+ save, D2 on W2 models (twenty of them, so the unit's wounds never cap the total).
    frame = mh.load_roster(example("orks")).compare("20x T4 Sv3+ W2", method="auto",
                                              phases=["shooting"])
    row = frame.query("attacker == 'Lootas' and metric == 'expected_damage'")
    assert abs(row["value"].item() - 5 * 2 * (1 / 3) * (5 / 6) * (1 / 2) * 2) < 1e-12


def test_readme_worked_example(capsys):
    """The numbers of the roster example in the documentation (docs/guide/wh40k/rosters.md)
    are what the command prints."""
    from pathlib import Path

    from mathhammer.cli import main

    readme = (Path(__file__).resolve().parents[3] / "docs" / "guide" / "wh40k"
              / "rosters.md").read_text()
    block = readme.split("$ mathhammer roster army.rosz --target MEQ")[1].split("```")[0]
    assert main(["roster", str(example("orks")), "--target", "MEQ", "--target", "VEQ",
                 "--exact"]) == 0
    printed = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    shown = [" ".join(line.split()) for line in block.splitlines()[1:]]
    rows = [line for line in shown if line and line[0].isalpha() and line != "..."
            and not line.startswith("Choice")]
    assert rows and all(line in printed for line in rows), rows


def test_readme_listing(capsys):
    from pathlib import Path

    from mathhammer.cli import main

    readme = (Path(__file__).resolve().parents[3] / "docs" / "guide" / "wh40k"
              / "rosters.md").read_text()
    block = readme.split("$ mathhammer roster --example orks\n")[1].split("  ...")[0]
    assert main(["roster", "--example", "orks"]) == 0
    assert capsys.readouterr().out.startswith(block)
