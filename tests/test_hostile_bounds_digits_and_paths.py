"""Issue 22, what round 3 left: work bounds of Warmachine exact sprays and Dust exchanges,
0-point units in per-points tables, ``digits=`` in Python, chart output paths, and a roster
unit number in Arabic-Indic digits."""

from __future__ import annotations

import sys

import pytest

from mathhammer.errors import UnsupportedError
from mathhammer.warmachine.api import exact as wm_exact, plan as wm_plan
from tests.hostile import refused

WM_EXACT = sys.modules["mathhammer.warmachine.exact_engine"]


# -- 1. Warmachine exact: sprays and AOEs over many models -------------------------------------
@pytest.mark.parametrize("attack, target", [
    ("Flamer: RAT5 POW14 [SPRAY 14]", "14x Trooper: DEF12 ARM13 BOXES1"),
    ("Flamer: RAT5 POW14 [SPRAY 12]", "12x Trooper: DEF12 ARM13 BOXES1"),
    ("Flamer: RAT5 POW14 [SPRAY 5]", "5x Trooper: DEF12 ARM13 BOXES28"),
    ("Flamer: RAT5 POW14 [SPRAY 6]", "6x Trooper: DEF12 ARM18 BOXES5 [TOUGH]"),
    ("2x Flamer: RAT5 POW14 [SPRAY 3]", "3x Trooper: DEF12 ARM13 BOXES28"),
    ("2x Mortar: RAT5 POW14 [AOE, CATCHES 4]", "10x Trooper: DEF12 ARM13 BOXES5"),
    ("Mortar: RAT5 POW14 [AOE, CATCHES 9]", "10x Trooper: DEF12 ARM16 BOXES8"),
])
def test_an_exact_spray_too_big_is_refused_up_front(attack, target, monkeypatch):
    def no_enumeration(self):
        raise AssertionError("the chain ran: the plan was not refused up front")

    monkeypatch.setattr(WM_EXACT.Chain, "run", no_enumeration)
    with pytest.raises(UnsupportedError, match=r"joint outcomes \(limit 2,000,000.*simulate"):
        wm_exact(attack, target)


def test_generated_attacks_are_counted_as_the_chain_goes():
    # a spray whose kills generate more sprays: no bound from the plan is close, so the
    # chain counts what it enumerates and stops at the limit
    with pytest.raises(UnsupportedError, match=r"more than [\d,]+ joint outcomes \(limit 2,000,000"):
        wm_exact("3x Axe: MAT6 POW10 [EXTRA ATTACK ON KILL, SPRAY 6]",
                 "10x Grunt: DEF13 ARM13 BOXES3 [TOUGH]")


def test_a_quick_plan_with_generated_attacks_is_not_refused():
    # a loose bound from the plan (14.7 million) refused this; it enumerates a few thousand
    result = wm_exact(["Flamer: RAT5 POW12 [SPRAY 3, REROLL MISSES, CRITICAL DECAPITATION, "
                       "CRITICAL FIRE]", "2x Axe: MAT6 POW10 [EXTRA ATTACK ON KILL, "
                       "ADDITIONAL ATTACK DIE, ATTACK DROP LOWEST]"],
                      ["5x Grunt: DEF13 ARM13 BOXES1 [TOUGH]"])
    assert result.pmf("damage").sum() == pytest.approx(1.0)


def test_the_cli_refuses_spray_14_over_14_models_naming_the_figure_and_simulate():
    refused(["warmachine", "exact", "Flamer: RAT5 POW14 [SPRAY 14]", "--target",
             "14x Trooper: DEF12 ARM13 BOXES1"], "66,961,566", "limit 2,000,000", "simulate",
            seconds=10)


@pytest.mark.parametrize("attack, target", [
    ("Flamer: RAT5 POW14 [SPRAY 8]", "8x Trooper: DEF12 ARM13 BOXES1"),
    ("Flamer: RAT5 POW14 [SPRAY 4]", "4x Trooper: DEF12 ARM18 BOXES5 [TOUGH]"),
    ("Mortar: RAT5 POW14 [AOE, CATCHES 4]", "10x Trooper: DEF12 ARM13 BOXES5"),
    ("4x Hammer: MAT7 POW16", "Jack: DEF12 ARM10 BOXES30 [GRID --AL/-----/------/---C--/-----/RRRR]"),
    ("10x Rifle: RAT5 POW10", "3x Trooper: DEF12 ARM13 BOXES5 [TOUGH]"),
])
def test_exact_cases_within_the_bound_still_run(attack, target):
    assert WM_EXACT.estimate_combinations(wm_plan(attack, target)) <= WM_EXACT.MAX_COMBINATIONS
    result = wm_exact(attack, target)
    assert result.pmf("damage").sum() == pytest.approx(1.0)


def test_the_estimate_is_the_exact_count_for_one_spray_of_one_box_models():
    # each model: missed, or hit or crit and destroyed -> 3 joint results; 3**8 * 8 models
    assert WM_EXACT.estimate_combinations(
        wm_plan("Flamer: RAT5 POW14 [SPRAY 8]", "8x Trooper: DEF12 ARM13 BOXES1")) == 3**8 * 8


# -- 2. Dust exchange: the exact engine's work bounded up front --------------------------------
def _squad(name: str, groups: int, per: int):
    from mathhammer.dust import parse_target
    from mathhammer.dust.parse import parse_weapon_line
    from mathhammer.dust.profiles import ModelGroup, Unit
    lines = tuple(parse_weapon_line(f"G{i}: 1/1")[0] for i in range(groups))
    return Unit(name, parse_target(f"{groups * per}x {name}: INFANTRY1"), lines,
                tuple(ModelGroup(per, (f"G{i}",)) for i in range(groups)))


@pytest.mark.parametrize("groups, per, rounds, policy", [
    (3, 30, 100, "random"), (3, 30, 1, "random"), (3, 30, 2, "protect_special"),
    (1, 20, 100, "protect_special"), (4, 3, 3, "random"), (6, 2, 2, "random"),
])
def test_an_exact_exchange_too_big_is_refused_up_front(groups, per, rounds, policy):
    from mathhammer.dust import exchange
    with pytest.raises(UnsupportedError, match=r"steps over .*limit 1,500,000.*monte-carlo"):
        exchange(_squad("A", groups, per), _squad("B", groups, per), rounds=rounds,
                 casualty_policy=policy, method="exact")


@pytest.mark.parametrize("groups, per, rounds, policy", [
    (3, 30, 1, "protect_special"), (1, 10, 50, "protect_special"), (1, 5, 100, "random"),
    (2, 5, 3, "random"), (4, 3, 1, "random"),
])
def test_exact_exchanges_within_the_bound_run(groups, per, rounds, policy):
    from mathhammer.dust import exchange
    a, b = _squad("A", groups, per), _squad("B", groups, per)
    exact = exchange(a, b, rounds=rounds, casualty_policy=policy)
    assert exact.pmf("a_losses").sum() == pytest.approx(1.0)


def test_the_cli_refuses_a_huge_exchange_and_bounds_monte_carlo(tmp_path, monkeypatch):
    groups = ", ".join(f'{{ count = 30, weapons = ["G{i}"] }}' for i in range(3))
    card = ('profile = "INFANTRY1"\nweapons = ["G0: 1/1", "G1: 1/1", "G2: 1/1"]\n'
            f"models = [{groups}]\n")
    (tmp_path / "big.toml").write_text(f"[units.A]\n{card}[units.B]\n{card}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    argv = ["dust", "exchange", "big.toml#A", "big.toml#B", "--rounds", "100",
            "--casualty-policy", "random"]
    refused(argv, "limit 1,500,000", "29,791 x 29,791", "monte-carlo", seconds=10)
    refused(argv + ["--method", "monte-carlo", "--trials", "20000000"],
            "18,200 dice", "lower --trials", seconds=10)


# -- 4. digits= in the Python table and format API ----------------------------------------------
BAD_DIGITS = [-1, 0, 7, 10**9, -(10**9), 2.5, "3", None, True, float("nan")]


def _formatters():
    import pandas as pd

    import mathhammer as mh
    from mathhammer.report import tables
    from mathhammer.wh40k import comparisons as compare_module
    result = mh.exact("Gun: A2 BS3+ S4 AP0 D1", target="MEQ")
    frame = pd.DataFrame({"k": [0, 1], "P": [0.25, 0.75]})
    return {
        "format_value": lambda d: tables.format_value(0.5, d),
        "format_number": lambda d: tables.format_number(0.5, d),
        "format_estimate": lambda d: tables.format_estimate(0.5, 0.01, d),
        "estimate_parts": lambda d: tables.estimate_parts(0.5, 0.01, d),
        "markdown_table": lambda d: tables.markdown_table(frame, digits=d),
        "Result.table": lambda d: result.table(d),
        "Result.to_markdown": lambda d: result.to_markdown(d),
        "compare.to_markdown": lambda d: compare_module.to_markdown(
            mh.compare(["Gun: A2 BS3+ S4 AP0 D1"], ["MEQ"], method="exact"), digits=d),
    }


@pytest.mark.parametrize("digits", BAD_DIGITS, ids=repr)
def test_absurd_digits_are_refused_everywhere_in_python(digits):
    from mathhammer.errors import OptionError
    for name, call in _formatters().items():
        with pytest.raises(OptionError, match=r"digits=.*from 1 to 6"):
            call(digits)


def test_scenario_tables_refuse_absurd_digits():
    import mathhammer as mh
    from mathhammer.errors import OptionError
    result = mh.run("examples/shoot_charge_fight.toml", trials=2_000, seed=1)
    for call in (result.table, result.to_markdown):
        with pytest.raises(OptionError, match="digits=-2"):
            call(-2)
    assert "±" in result.table(2).to_markdown()


# -- 5. chart save() checks its output path as --plot does --------------------------------------
@pytest.fixture()
def figure():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    yield fig
    plt.close(fig)


def test_save_refuses_a_fifo_a_device_a_folder_and_a_missing_folder(figure, tmp_path):
    import os

    from mathhammer.charts import save
    from mathhammer.errors import OptionError
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.svg"
    folder.mkdir()
    cases = {fifo: "named pipe", folder: "a folder",
             tmp_path / "nope" / "c.png": "does not exist"}
    for path, words in cases.items():
        with pytest.raises(OptionError, match=words):
            save(figure, path)   # a FIFO is refused, never opened (that would block)


@pytest.mark.parametrize("path", [5, None, b"chart.png", "", "a\0.png", ["c.png"]], ids=repr)
def test_save_refuses_what_is_not_a_file_name(figure, path):
    from mathhammer.charts import save
    from mathhammer.errors import OptionError
    with pytest.raises(OptionError, match="cannot write a chart"):
        save(figure, path)


def test_save_still_writes_and_replaces_a_regular_file(figure, tmp_path):
    from mathhammer.charts import save
    target = tmp_path / "c.png"
    assert save(figure, target) == target and target.stat().st_size > 0
    save(figure, str(target))
    assert target.stat().st_size > 0


def test_save_refuses_a_device_through_a_symlink(figure, tmp_path):
    from mathhammer.charts import save
    from mathhammer.errors import OptionError
    link = tmp_path / "null.png"
    link.symlink_to("/dev/null")
    with pytest.raises(OptionError, match="device"):
        save(figure, link)


# -- 3. 0-point units keep their rows; per-points cells read '-' ------------------------------
def _crew(name: str, pts: float, weapon: str, number="3"):
    from tests.wh40k.roster import builder as b
    arm = (b.ranged("Rivet gun", '12"', "2", "4+", "4", "0", "1") if weapon == "gun"
           else b.melee("Axe", "2", "4+", "4", "0", "1"))
    return b.selection(name, "unit", pts=pts, categories=["Infantry"],
                       profiles=[b.statline(name, 11, 4, "4+", 1), arm],
                       selections=[b.selection("Crewman", "model", number)])


def _list(tmp_path, *units, xml=False):
    from tests.wh40k.roster import builder as b
    tree = b.roster(11, "Test", list(units))
    path = tmp_path / ("list.ros" if xml else "list.json")
    path.write_text(b.to_xml(tree) if xml else b.to_json(tree), encoding="utf-8")
    return path


def test_a_zero_point_unit_keeps_its_metrics_and_reads_dash_per_points(tmp_path):
    import math

    import mathhammer as mh
    path = _list(tmp_path, _crew("Paid Gunners", 50, "gun"), _crew("Free Gunners", 0, "gun"))
    frame = mh.load_roster(path).compare("MEQ", method="exact", phases=["shooting"])
    free = frame[frame["attacker"] == "Free Gunners"].set_index("metric")["value"]
    assert free["expected_damage"] == pytest.approx(0.5)
    assert math.isnan(free["damage_per_100pts"]) and math.isnan(free["models_destroyed_per_100pts"])
    paid = frame[frame["attacker"] == "Paid Gunners"].set_index("metric")["value"]
    assert paid["damage_per_100pts"] == pytest.approx(1.0)
    from tests.hostile import run_cli
    status, out, err, _ = run_cli(["roster", str(path), "--target", "MEQ", "--exact",
                                   "--phase", "shooting"])
    assert status == 0, err
    assert "per 100 points" in out and "Free Gunners" in out
    assert [ln.split()[-1] for ln in out.splitlines() if ln.startswith("Free")] == ["-"]


def test_a_phase_with_only_zero_point_units_prints_and_plots(tmp_path):
    from tests.hostile import run_cli
    path = _list(tmp_path, _crew("Paid Gunners", 50, "gun"), _crew("Free Brawlers", 0, "axe"))
    for extra in ([], ["--all"], ["--plot", str(tmp_path / "c.png")], ["--json"]):
        status, out, err, _ = run_cli(["roster", str(path), "--target", "MEQ", "--exact",
                                       *extra])
        assert status == 0 and "no metric" not in err, (extra, err)
    assert (tmp_path / "c.png").stat().st_size > 0
    status, out, _, _ = run_cli(["roster", str(path), "--target", "MEQ", "--exact"])
    fight = out.split("Fight:")[1]
    assert "Free Brawlers" in fight and fight.splitlines()[2].split()[-1] == "-"


# -- 6. a roster unit number in Arabic-Indic digits ---------------------------------------------
@pytest.mark.parametrize("xml", [False, True])
@pytest.mark.parametrize("number", ["\u0663", "\u0661\u0660", "\uff13", "3.5", "1e1"])
def test_a_roster_number_not_in_digits_0_to_9_is_refused(tmp_path, xml, number):
    import mathhammer as mh
    from mathhammer.errors import RosterError
    path = _list(tmp_path, _crew("Odd Crew", 50, "gun", number=number), xml=xml)
    with pytest.raises(RosterError) as caught:
        mh.load_roster(path)
    message = str(caught.value)
    assert number in message or repr(number) in message or "number" in message
    assert path.name in message
    from tests.hostile import refused
    refused(["roster", str(path)], path.name)


def test_a_roster_number_in_ascii_digits_still_reads(tmp_path):
    import mathhammer as mh
    army = mh.load_roster(_list(tmp_path, _crew("Crew", 50, "gun", number="3")))
    assert [g.count for g in army.units[0].groups] == [3]
