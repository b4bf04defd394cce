"""Buffs on an army list (issue 35): a buffed list equals the same list with the ability
typed on its units' weapon lines (or the option given directly), exact to 1e-12; what each
buff is worth reconciles with analyses run apart; refusals are one line."""

from __future__ import annotations

import dataclasses
import json
import re
import types

import numpy as np
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import MathhammerError
from mathhammer.wh40k.parse import parse_weapon
from mathhammer.wh40k.roster.analyse import analyse
from mathhammer.wh40k.roster.buffed import ALL_BUFFS, defended, list_attribution

from .conftest import FILES

TARGETS = ["MEQ", "T10 Sv3+ W12 [VEHICLE]"]
BUFF_FILE = """[buffs]
"Close-range Eradication" = "+1 AP to RANGED weapons when stationary"
"Storm of Fire" = "[IGNORES COVER], [LETHAL HITS] to RANGED weapons (1CP)"
"Honour the Chapter" = "+1 to hit to MELEE weapons when charged (2CP)"
"""


@pytest.fixture(scope="module")
def marines():
    return mh.load_roster(FILES / "marines_10e.ros")


def _typed(roster, change):
    """The list with ``change(weapon line text, melee)`` typed on every line: each line is
    written out, changed as text and read back by the weapon line's reader."""
    units = []
    for unit in roster.units:
        groups = []
        for group in unit.groups:
            weapons = tuple(dataclasses.replace(c, profiles=tuple(
                parse_weapon(change(str(p), p.melee, group)) for p in c.profiles))
                for c in group.weapons)
            groups.append(dataclasses.replace(group, weapons=weapons))
        units.append(dataclasses.replace(unit, groups=tuple(groups)))
    return types.SimpleNamespace(source=roster.source, edition=roster.edition,
                                 entries=roster.entries, units=units)


def _with_ability(text, ability):
    return text[:-1] + f", {ability}]" if text.endswith("]") else f"{text} [{ability}]"


def _better_ap(text):
    return re.sub(r"AP(-?\d+)", lambda m: f"AP{int(m.group(1)) - 1}", text, count=1)


def _same(a, b):
    assert list(a["attacker"]) == list(b["attacker"]) and list(a["metric"]) == list(b["metric"])
    np.testing.assert_allclose(a["value"].to_numpy(float), b["value"].to_numpy(float),
                               rtol=0, atol=1e-12)


def test_a_buff_equals_the_ability_typed_on_every_line(marines):
    buffed = marines.compare(TARGETS, method="exact", stationary=True, buffs=[
        "Storm of Fire: [IGNORES COVER], [LETHAL HITS] to RANGED weapons",
        "Close-range Eradication: +1 AP to RANGED weapons when stationary"])
    typed = _typed(marines, lambda t, melee, g: t if melee else
                   _better_ap(_with_ability(_with_ability(t, "IGNORES COVER"), "LETHAL HITS")))
    _same(buffed, analyse(typed, TARGETS, method="exact", stationary=True))
    bare = marines.compare(TARGETS, method="exact", stationary=True)
    assert (buffed["value"].to_numpy() > bare["value"].to_numpy() + 1e-9).any()
    # the condition does not hold: only the abilities
    plain = marines.compare(TARGETS, method="exact", buffs=[
        "Storm of Fire: [IGNORES COVER], [LETHAL HITS] to RANGED weapons",
        "Close-range Eradication: +1 AP to RANGED weapons when stationary"])
    typed = _typed(marines, lambda t, melee, g: t if melee else
                   _with_ability(_with_ability(t, "IGNORES COVER"), "LETHAL HITS"))
    _same(plain, analyse(typed, TARGETS, method="exact"))


def test_to_keyword_changes_only_the_units_that_have_it(marines):
    buffed = marines.compare(TARGETS, method="exact", buffs=["[SUSTAINED HITS 1] to CHARACTER"])
    typed = _typed(marines, lambda t, melee, g: _with_ability(t, "SUSTAINED HITS 1")
                   if "CHARACTER" in g.profile.keywords else t)
    _same(buffed, analyse(typed, TARGETS, method="exact"))
    plain = marines.compare(TARGETS, method="exact")
    others = buffed["attacker"] != "Captain"
    _same(buffed[others], plain[others])
    assert not np.allclose(buffed[~others]["value"], plain[~others]["value"])
    # a Leader attached: only its own lines in the unit it leads
    attached = mh.load_roster(FILES / "marines_10e.ros", attach="Captain=Intercessor Squad")
    buffed = attached.compare(TARGETS, method="exact", buffs=["[SUSTAINED HITS 1] to CHARACTER"])
    typed = _typed(attached, lambda t, melee, g: _with_ability(t, "SUSTAINED HITS 1")
                   if "CHARACTER" in g.profile.keywords else t)
    _same(buffed, analyse(typed, TARGETS, method="exact"))


def test_roll_grants_equal_the_options_given_directly_per_phase(marines):
    buffed = marines.compare(TARGETS, method="exact", charged=True, buffs=[
        "Oath of Moment: re-roll hits", "Honour the Chapter: +1 to hit to MELEE weapons "
        "when charged"])
    fight = marines.compare(TARGETS, method="exact", charged=True, reroll_hits="failed",
                            hit_mod=1)
    shooting = marines.compare(TARGETS, method="exact", charged=True, reroll_hits="failed")
    for phase, direct in (("fight", fight), ("shooting", shooting)):
        _same(buffed[buffed["phase"] == phase], direct[direct["phase"] == phase])


def test_an_ability_against_a_keyword_carries_it_as_its_scope(marines):
    buffed = marines.compare(TARGETS, method="exact", buffs=["[LETHAL HITS] against VEHICLE"])
    typed = _typed(marines, lambda t, melee, g: _with_ability(t, "LETHAL HITS: VEHICLE"))
    _same(buffed, analyse(typed, TARGETS, method="exact"))
    plain = marines.compare(TARGETS, method="exact")
    meq = buffed["target"] == "MEQ"
    _same(buffed[meq], plain[meq])


def test_against_another_list_takes_the_buffs_of_the_attacking_list(marines):
    buffed = marines.against(marines, method="exact", buffs=["re-roll hits of 1"])
    _same(buffed, marines.against(marines, method="exact", reroll_hits="ones"))


def _protected(roster, change, unit_change=None):
    """The list's target units with ``change(profile)`` on every model group's profile."""
    units = []
    for unit in roster.targets:
        groups = tuple(dataclasses.replace(g, profile=change(g)) for g in unit.groups)
        unit = dataclasses.replace(unit, groups=groups)
        units.append(unit_change(unit) if unit_change else unit)
    return types.SimpleNamespace(source=roster.source, entries=roster.entries, targets=units,
                                 defense_of=roster.defense_of)


def test_the_other_lists_defensive_buffs_equal_its_profiles_typed(marines):
    buffed = marines.against(marines, method="exact", other_buffs=[
        "Feel no pain 5+ to INFANTRY", "Iron Halo: invulnerable 4+ to CHARACTER",
        "Armour of Contempt: -1 damage"])

    def typed(group):
        profile = dataclasses.replace(group.profile, fnp=5)
        if "CHARACTER" in group.profile.keywords:
            profile = dataclasses.replace(profile, invuln=4, invuln_scope="all")
        return profile

    other = _protected(marines, typed, lambda u: dataclasses.replace(u, damage_minus=1))
    _same(buffed, analyse(marines, other, method="exact"))
    assert (buffed["value"].to_numpy() <
            marines.against(marines, method="exact")["value"].to_numpy() - 1e-9).any()


def _rows(frame, targets, phase=None):
    keep = frame["target"].isin(targets)
    if phase is not None:
        keep &= frame["phase"] == phase
    return frame[keep].reset_index(drop=True)


def test_cover_and_a_save_on_the_other_lists_units_equal_the_options_given_for_them():
    from mathhammer.wh40k.roster.api import example

    marines, orks = (mh.load_roster(example(n)) for n in ("marines", "orks"))
    kwargs = dict(method="exact", phases=["shooting", "fight"])
    plain = marines.against(orks, **kwargs)
    # cover for every unit: the shooting cells equal --cover, the fight cells are unchanged
    covered = marines.against(orks, other_buffs=["Cover: benefit of cover"], **kwargs)
    given = marines.against(orks, cover=True, **kwargs)
    _same(covered, given)
    # a buff without FNP keeps a unit's own (Beast Snagga Boyz: FNP 6+; it was dropped)
    snaggas = next(u for u in defended(orks, ["Cover: benefit of cover"]).targets
                   if u.name == "Beast Snagga Boyz")
    assert {g.profile.fnp for g in snaggas.groups} == {6}
    _same(_rows(covered, set(plain["target"]), "fight"), _rows(plain, set(plain["target"]),
                                                                "fight"))
    # +1 to save to VEHICLE: the vehicles' cells equal save_mod=1, the others the plain ones
    vehicles = {u.name for u in orks.targets
                if all("VEHICLE" in g.profile.keywords for g in u.groups)}
    others = set(plain["target"]) - vehicles
    saved = marines.against(orks, other_buffs=["Armour: +1 to save to VEHICLE"], **kwargs)
    _same(_rows(saved, vehicles), _rows(marines.against(orks, save_mod=1, **kwargs), vehicles))
    _same(_rows(saved, others), _rows(plain, others))
    assert (_rows(saved, vehicles)["value"].to_numpy()
            < _rows(plain, vehicles)["value"].to_numpy() - 1e-9).any()


def test_a_save_on_a_lists_target_by_hand(tmp_path):
    from .builder import gunner_and_crowd

    lists = [mh.load_roster(p) for p in gunner_and_crowd(tmp_path, crowd_save="4+")]
    frame = lists[0].against(lists[1], method="exact", phases=["shooting"],
                             other_buffs=["Shields: +1 to save"])
    value = frame[frame["metric"] == "expected_damage"]["value"].item()
    # hits on 3+ (2/3), wounds S4 v T4 on 4+ (1/2), saves on 4+ improved to 3+: 1/3 fail
    assert value == pytest.approx(2 / 3 * 1 / 2 * 1 / 3, abs=1e-12)


@pytest.mark.parametrize("buff, token", [
    ("Cover to MOB", "picks some model groups of Boyz but not all"),
    ("FNP 5+ to MELEE weapons", "to MELEE weapons"),
])
def test_what_a_lists_targets_do_not_take_yet_is_refused(marines, buff, token):
    from mathhammer.wh40k.roster.api import example

    with pytest.raises(MathhammerError) as caught:
        mh.load_roster(example("marines")).against(mh.load_roster(example("orks")),
                                                   method="exact", other_buffs=[buff])
    assert token in str(caught.value) and "\n" not in str(caught.value)


def test_attribution_reconciles_with_analyses_run_apart(marines, tmp_path):
    path = tmp_path / "buffs.toml"
    path.write_text(BUFF_FILE, encoding="utf-8")
    names = ["Close-range Eradication", "Storm of Fire", "Honour the Chapter"]
    options = dict(method="exact", stationary=True, charged=True)
    worth = list_attribution(marines, TARGETS, names, buff_file=path, **options)
    library = mh.wh40k.load_buff_file(path)

    def total(subset, target, phase):
        frame = marines.compare(TARGETS, buffs=[library[n] for n in subset], **options)
        rows = frame.query("metric == 'expected_damage' and target == @target "
                           "and phase == @phase")
        return rows["value"].sum()

    rows = worth.query("metric == 'expected_damage'")
    assert set(rows["buff"]) == {*names, ALL_BUFFS}
    for target in TARGETS:
        for phase in ("shooting", "fight"):
            full = total(names, target, phase)
            for name in names:
                row = rows.query("buff == @name and target == @target and phase == @phase")
                without = total([n for n in names if n != name], target, phase)
                assert abs(row["gain"].iloc[0] - (full - without)) < 1e-12
                cost = {"Storm of Fire": 1, "Honour the Chapter": 2}.get(name)
                if cost:
                    assert abs(row["gain_per_cost"].iloc[0] * cost - row["gain"].iloc[0]) \
                        < 1e-12
            row = rows.query("buff == @ALL_BUFFS and target == @target and phase == @phase")
            assert abs(row["gain"].iloc[0] - (full - total([], target, phase))) < 1e-12
    assert set(worth["method"]) == {"exact"}
    # stationary holds in the shooting phase only, charged in the fight
    gains = rows.set_index(["buff", "phase", "target"])["gain"].sort_index()
    assert gains["Close-range Eradication", "fight"].abs().max() == 0
    assert gains["Honour the Chapter", "shooting"].abs().max() == 0
    assert gains["Honour the Chapter", "fight"].min() > 0


@pytest.mark.parametrize("buff, token", [
    ("FNP 5+", "defensive grant"),
    ("+1 to hit against VEHICLE", "against VEHICLE"),
    ("re-roll hits to PISTOL weapons", "to PISTOL weapons"),
    ("re-roll hits to CHARACTER", "picks 1 of 3 model groups of Intercessor Squad"),
])
def test_what_a_list_does_not_take_yet_is_refused_in_one_line(marines, buff, token):
    attached = mh.load_roster(FILES / "marines_10e.ros", attach="Captain=Intercessor Squad")
    with pytest.raises(MathhammerError) as caught:
        attached.compare(TARGETS, method="exact", buffs=[buff])
    assert token in str(caught.value) and "\n" not in str(caught.value)


def test_cli_one_call_with_a_buff_file_and_attribution(marines, tmp_path, capsys):
    path = tmp_path / "buffs.toml"
    path.write_text(BUFF_FILE, encoding="utf-8")
    args = ["roster", str(FILES / "marines_10e.ros"), "--target", "MEQ", "--exact",
            "--buffs", str(path), "--buff", "Close-range Eradication", "--buff",
            "Storm of Fire", "--buff", "honour the chapter", "--stationary", "--charged",
            "--attribution"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "What each buff is worth on the list" in text and "per CP (2 CP)" in text
    assert "Buffs: Close-range Eradication; Storm of Fire; Honour the Chapter" in text
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    worth = list_attribution(marines, ["MEQ"], ["Close-range Eradication", "Storm of Fire",
                                                "Honour the Chapter"], buff_file=path,
                             method="exact", stationary=True, charged=True)
    assert out["buffs"] == ["Close-range Eradication", "Storm of Fire", "Honour the Chapter"]
    assert [r["gain"] for r in out["attribution"]] == pytest.approx(list(worth["gain"]),
                                                                    abs=1e-12)
    frame = marines.compare(["MEQ"], method="exact", stationary=True, charged=True,
                            buffs=["Close-range Eradication", "Storm of Fire",
                                   "Honour the Chapter"], buff_file=path)
    assert [r["value"] for r in out["rows"]] == pytest.approx(list(frame["value"]), abs=1e-12)


@pytest.mark.parametrize("extra, token", [
    (["--buff", "Storm of Fyre"], "unknown buff 'Storm of Fyre'; did you mean 'Storm of Fire'"),
    (["--buff", "[LETHAL HITZ]"], "LETHAL HITZ"),
    (["--buff", "Oath: re-roll hitz"], "'hitz'"),
    (["--buff", "FNP 5+"], "defensive grant"),
    (["--attribution"], "--attribution needs at least one --buff"),
    (["--buff-other", "FNP 5+"], "--buff-other needs --against"),
])
def test_cli_bad_buffs_exit_2_in_one_line(extra, token, tmp_path, capsys):
    path = tmp_path / "buffs.toml"
    path.write_text(BUFF_FILE, encoding="utf-8")
    assert main(["roster", str(FILES / "marines_10e.ros"), "--target", "MEQ",
                 "--buffs", str(path), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and token in err


def test_cli_against_with_the_other_lists_buffs(marines, capsys):
    ros = str(FILES / "marines_10e.ros")
    assert main(["roster", ros, "--against", ros, "--exact", "--json", "--buff",
                 "re-roll hits", "--buff-other", "FNP 5+", "--attribution"]) == 0
    out = json.loads(capsys.readouterr().out)
    frame = marines.against(marines, method="exact", buffs=["re-roll hits"],
                            other_buffs=["FNP 5+"])
    assert [r["value"] for r in out["rows"]] == pytest.approx(list(frame["value"]), abs=1e-12)
    assert {r["buff"] for r in out["attribution"]} == {"re-roll hits", ALL_BUFFS}


def test_cli_the_other_lists_cover_equals_cover_given(marines, capsys):
    ros = str(FILES / "marines_10e.ros")
    assert main(["roster", ros, "--against", ros, "--exact", "--json", "--phase", "shooting",
                 "--buff-other", "Cover: benefit of cover"]) == 0
    out = json.loads(capsys.readouterr().out)
    frame = marines.against(marines, method="exact", phases=["shooting"], cover=True)
    assert [r["value"] for r in out["rows"]] == pytest.approx(list(frame["value"]), abs=1e-12)
