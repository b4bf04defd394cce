"""Buffs in the meta matrix (issue 35): every list's and one list's own buffs, their defensive
grants on the list's units, a pairing equal to ``roster A --against B`` with the same buffs
(exact, 1e-12), a hand-derived value, refusals in one line, the command line."""

import json

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import OptionError
from mathhammer.wh40k.roster.meta import meta
from mathhammer.wh40k.roster.meta_buffs import list_texts

from . import builder as b
from .event_lists import event_lists

OATH = "Oath of Moment: re-roll hits (1CP)"
LETHAL = "Lethal: [LETHAL HITS] to RANGED weapons"
HIDE = "Iron hide: FNP 5+"


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return event_lists(tmp_path_factory.mktemp("event"), 2, units=3, seed=5)


def _check_plans(result, mine, theirs, frame, per_model):
    rows = frame[frame["metric"] == "expected_models_destroyed"]
    assert len(rows) >= 3
    plans = result.plans.set_index(["list", "opponent", "unit", "phase"])
    for (unit, phase), part in rows.groupby(["attacker", "phase"], sort=False):
        points = part["value"] * part["target"].map(per_model)
        plan = plans.loc[(mine, theirs, unit, phase)]
        assert plan["target"] == part.loc[points.idxmax(), "target"]
        assert plan["points"] == pytest.approx(points.max(), rel=1e-12, abs=1e-300)
        assert plan["models"] == pytest.approx(part.loc[points.idxmax(), "value"], rel=1e-12,
                                               abs=1e-300)


def test_a_pairing_equals_roster_against_with_the_same_buffs(event):
    first, second = (mh.load_roster(p) for p in event)
    a, c = event[0].stem, event[1].stem
    result = meta(event, method="exact", buffs=[OATH, LETHAL], list_buffs={c: [HIDE]})
    plain = meta(event, method="exact")
    assert result.buffs == {a: result.buffs[a], c: result.buffs[c]}
    assert [x.name for x in result.buffs[c]] == ["Oath of Moment", "Lethal", "Iron hide"]
    # the first list attacks with Oath and Lethal, the second defends with its FNP too
    forward = first.against(second, method="exact", buffs=[OATH, LETHAL],
                            other_buffs=[OATH, LETHAL, HIDE])
    _check_plans(result, a, c, forward, {u.name: u.points / u.models for u in second.targets})
    backward = second.against(first, method="exact", buffs=[OATH, LETHAL])
    _check_plans(result, c, a, backward, {u.name: u.points / u.models for u in first.targets})
    assert result.matrix("points_destroyed").loc[a, c] != plain.matrix("points_destroyed").loc[a, c]
    footer = result.footer()
    assert f"Buffs: {c}: Oath of Moment; Lethal; Iron hide" in footer
    assert result.to_dict()["lists"][1]["buffs"] == ["Oath of Moment", "Lethal", "Iron hide"]


def test_a_hand_derived_pairing(tmp_path):
    paths = b.gunner_and_crowd(tmp_path)
    result = meta(paths, method="exact", phases="shooting",
                  list_buffs={"gunner": ["Oath: re-roll hits", "Push: +1 to wound"]})
    plan = result.plans.set_index(["list", "unit"]).loc[("gunner", "Gunner")]
    # a BS3+ hit re-rolled: 1 - (1/3)^2 = 8/9; S4 v T4 wounds on 4+, +1: 3+ = 2/3; no save
    assert plan["models"] == pytest.approx(8 / 9 * 2 / 3, abs=1e-12)
    assert plan["points"] == pytest.approx(8 / 9 * 2 / 3 * 10, abs=1e-12)


def test_refusals_are_one_line(event, capsys):
    with pytest.raises(OptionError, match="buffs for list 'nobody': no such list"):
        list_texts([], {"nobody": ["+1 to hit"]}, ["a", "b"])
    with pytest.raises(OptionError, match="a roll grant to PISTOL weapons"):
        meta(event, method="exact", buffs=["re-roll hits to PISTOL weapons"])
    assert main(["meta", *map(str, event), "--buff-list", "no equals sign"]) == 2
    assert "write LIST=TEXT" in capsys.readouterr().err


def test_the_command_line_equals_the_api(event, tmp_path, capsys):
    file = tmp_path / "mine.toml"
    file.write_text('[buffs]\n"Oath of Moment" = "re-roll hits (1CP)"\n', encoding="utf-8")
    c = event[1].stem
    assert main(["meta", *map(str, event), "--exact", "--json", "--buffs", str(file),
                 "--buff", "Oath of Moment", "--buff-list", f"{c}={HIDE}"]) == 0
    document = json.loads(capsys.readouterr().out)
    result = meta(event, method="exact", buffs=[OATH], list_buffs={c: [HIDE]})
    assert [x["buffs"] for x in document["lists"]] == [["Oath of Moment"],
                                                       ["Oath of Moment", "Iron hide"]]
    assert [r["value"] for r in document["matrix"]] == pytest.approx(
        list(result.frame["value"]), rel=1e-12)
