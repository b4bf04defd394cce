"""Whole lists against targets and against each other. Every number is checked against
mh.exact (or mh.run) on weapon lines written out by hand from the roster files."""

import json
import math

import numpy as np
import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import OptionError, RosterError, UnsupportedError

from .conftest import FILES

BOLT_RIFLES = '5x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'
MEQ = "5x T4 Sv3+ W2 [INFANTRY]"


def value(frame, attacker, target, phase, metric="expected_damage"):
    rows = frame.query("attacker == @attacker and target == @target and phase == @phase "
                       "and metric == @metric")
    assert len(rows) == 1, rows
    return rows.iloc[0]


@pytest.fixture(scope="module")
def marines():
    return mh.load_roster(FILES / "marines_10e.ros")


@pytest.fixture(scope="module")
def marines_exact(marines):
    return marines.compare([MEQ, "T10 Sv3+ W12 [VEHICLE]"], method="auto")


def test_columns_and_provenance(marines_exact):
    assert list(marines_exact.columns) == ["attacker", "target", "phase", "metric", "value",
                                           "stderr", "method"]
    assert set(marines_exact["method"]) == {"exact"}
    assert marines_exact.attrs["method"] == "exact"
    assert marines_exact.attrs["edition"] == 10 and marines_exact.attrs["notes"] == []
    custodes = mh.load_roster(FILES / "features_10e.ros").compare("MEQ", method="auto")
    assert custodes.attrs["notes"] == [
        "Objective marker: no statline in the file: it attacks, but is never a target"]
    assert set(marines_exact["metric"]) == {"expected_damage", "expected_models_destroyed",
                                            "p_unit_destroyed", "damage_per_100pts",
                                            "models_destroyed_per_100pts"}


def test_shooting_is_every_ranged_weapon(marines_exact):
    expected = mh.exact(['4x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
                         'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]'], MEQ)
    row = value(marines_exact, "Intercessor Squad", MEQ, "shooting")
    assert row.value == pytest.approx(expected.mean("damage"), rel=1e-12)
    assert math.isnan(row.stderr)
    destroyed = value(marines_exact, "Intercessor Squad", MEQ, "shooting", "p_unit_destroyed")
    assert destroyed.value == pytest.approx(expected.probability("unit_destroyed"), abs=1e-12)


def test_fight_is_one_melee_weapon_per_model(marines_exact):
    expected = mh.exact(["4x Close combat weapon: Melee A3 WS3+ S4 AP0 D1",
                         "Power fist: Melee A3 WS3+ S8 AP-2 D2"], MEQ)
    row = value(marines_exact, "Intercessor Squad", MEQ, "fight")
    assert row.value == pytest.approx(expected.mean("damage"), rel=1e-12)


def test_pistol_only_for_a_model_without_other_ranged_weapons(marines_exact):
    expected = mh.exact('Bolt pistol: 12" A1 BS2+ S4 AP0 D1 [PISTOL]', MEQ)
    row = value(marines_exact, "Captain", MEQ, "shooting")
    assert row.value == pytest.approx(expected.mean("damage"), rel=1e-12)


def test_per_100_points(marines_exact):
    damage = value(marines_exact, "Devastator Squad", MEQ, "shooting").value
    per = value(marines_exact, "Devastator Squad", MEQ, "shooting", "damage_per_100pts").value
    assert per == pytest.approx(damage * 100 / 85)
    captain = value(marines_exact, "Captain", MEQ, "fight").value
    assert value(marines_exact, "Captain", MEQ, "fight", "damage_per_100pts").value == \
        pytest.approx(captain * 100 / 90)  # the enhancement counts


def test_unit_without_melee_weapons_has_no_fight_rows(marines_exact):
    assert not ((marines_exact.attacker == "Devastator Squad")
                & (marines_exact.phase == "fight")).any()


def test_best_melee_weapon_against_each_target():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    frame = orks.compare(["MEQ", "T10 Sv3+ W12 [VEHICLE]"], method="auto", phases=["fight"])
    squig = "Attack squig: Melee A2 WS4+ S4 AP0 D1 [EXTRA ATTACKS]"
    for target, line in (("MEQ", "5x T4 Sv3+ W2 [INFANTRY]"),
                         ("T10 Sv3+ W12 [VEHICLE]", "T10 Sv3+ W12 [VEHICLE]")):
        options = ["Big choppa: Melee A5 WS2+ S7 AP-1 D2",
                   "Power klaw: Melee A4 WS3+ S9 AP-2 D2 [LETHAL HITS: NON-MONSTER/NON-VEHICLE]"]
        best = max(mh.exact([weapon, squig], line).mean("damage") for weapon in options)
        assert value(frame, "Warboss", target, "fight").value == pytest.approx(best, rel=1e-12)
    assert any("Warboss fights with" in c for c in frame.attrs["choices"])


def test_profiles_first_takes_the_listed_order():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    frame = orks.compare("MEQ", method="auto", phases=["fight"], profiles="first")
    expected = mh.exact(["Big choppa: Melee A5 WS2+ S7 AP-1 D2",
                         "Attack squig: Melee A2 WS4+ S4 AP0 D1 [EXTRA ATTACKS]"],
                        "5x T4 Sv3+ W2 [INFANTRY]")
    assert value(frame, "Warboss", "MEQ", "fight").value == pytest.approx(
        expected.mean("damage"), rel=1e-12)


def test_weapon_modes_take_the_better_profile():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    frame = orks.compare(["GEQ", "VEQ"], method="auto", phases=["shooting"])
    for target in ("GEQ", "VEQ"):
        profile = mh.targets[target]
        best = max(mh.exact(line, profile).mean("damage") for line in (
            '2x Kan Blasta - Kill Shot: 24" A1 BS5+ S9 AP-2 DD6 [BLAST]',
            '2x Kan Blasta - Dakka: 24" AD6 BS5+ S5 AP0 D1 [BLAST 2, TORRENT]'))
        assert value(frame, "Killa Kans", target, "shooting").value == pytest.approx(
            best, rel=1e-12)


def test_monte_carlo_cells_agree_with_exact(marines):
    frame = marines.compare([MEQ], trials=100_000, seed=3, method="monte-carlo")
    exact = marines.compare([MEQ], method="auto")
    for _, row in frame[frame.metric == "expected_damage"].iterrows():
        reference = value(exact, row.attacker, row.target, row.phase).value
        assert abs(row.value - reference) < 5 * row.stderr
        assert row.method == "monte-carlo"


def test_same_seed_same_numbers(marines):
    a = marines.compare(["MEQ", "TEQ"], trials=20_000, seed=11, method="monte-carlo")
    b = marines.compare(["MEQ", "TEQ"], trials=20_000, seed=11, method="monte-carlo")
    assert a.equals(b)


def test_against_another_list_uses_its_statlines():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    marines = mh.load_roster(FILES / "leaders_11e.json")
    frame = orks.against(marines, method="auto")
    # the Hellblasters share one statline: the exact engine covers them
    row = value(frame, "Boyz", "Hellblaster Squad", "fight")
    expected = mh.exact(["9x Choppa: Melee A3 WS3+ S4 AP-1 D1",
                         "Power klaw: Melee A3 WS4+ S9 AP-2 D2"],
                        "2x T4 Sv3+ W2 [IMPERIUM, INFANTRY]")
    assert row.method == "exact"
    assert row.value == pytest.approx(expected.mean("damage"), rel=1e-12)
    # the Intercessors with their Captain and Ancient: the exact engine for mixed units
    led = frame[frame.target == "Intercessor Squad"]
    assert set(led.method) == {"exact"}
    assert frame.attrs["method"] == "exact"
    cell = value(frame, "Killa Kans", "Intercessor Squad", "fight")
    kans = mh.wh40k.Unit("Kans", (mh.wh40k.ModelGroup("Kan", 2, mh.parse_target("T8 Sv3+ W7 [VEHICLE]"),
                                          (mh.wh40k.CarriedWeapon.single(mh.parse_weapon(
                                              "Kan klaw: Melee A3 WS4+ S12 AP-2 DD6")),)),))
    scenario = mh.wh40k.Scenario(units={"Kans": kans, "Squad": marines.unit("Intercessor Squad")},
                           activations=(mh.wh40k.Activation("fight", "Kans", "Squad"),))
    reference = mh.run(scenario, trials=100_000, seed=6).wounds_lost("Squad")
    assert abs(cell.value - reference.mean) < 5 * reference.stderr


def _refuse_several_statlines(monkeypatch) -> None:
    """Make the mixed-unit exact engine refuse every cell, as it refuses what it does not
    cover (a Command Re-roll against several statlines was such a case until issue 34)."""
    from mathhammer.wh40k.exact_engine import mixed

    def refuse(_compiled):
        raise UnsupportedError("a Command Re-roll against a unit of several statlines is not "
                               "covered here")

    monkeypatch.setattr(mixed, "solve_activation", refuse)


def test_the_default_is_exact_wherever_the_exact_engine_covers_a_cell(monkeypatch):
    orks = mh.load_roster(FILES / "orks_11e.ros")
    marines = mh.load_roster(FILES / "leaders_11e.json")
    default = orks.against(marines, phases=["fight"])
    assert default.attrs["method"] == "exact"
    assert default.equals(orks.against(marines, phases=["fight"], method="auto"))
    # a Command Re-roll against the led squad is exact too since issue 34
    assert set(orks.against(marines, phases=["fight"], command_reroll="hit").method) == \
        {"exact"}
    # the old spelling exact=None was this default
    with pytest.warns(DeprecationWarning, match="use method='auto'"):
        assert orks.against(marines, phases=["fight"], exact=None).equals(default)
    # cells the exact engine refuses go to Monte Carlo, the others stay exact
    _refuse_several_statlines(monkeypatch)
    mixed = orks.against(marines, phases=["fight"], trials=2_000, command_reroll="hit")
    assert mixed.attrs["method"] == "mixed" and mixed.attrs["trials"] == 2_000
    assert set(mixed.method) == {"exact", "monte-carlo"}
    # method="exact" refuses, naming the first cell it does not cover
    with pytest.raises(UnsupportedError, match="exact engine does not cover .*method='auto'"):
        orks.against(marines, phases=["fight"], command_reroll="hit", method="exact")


def test_cells_left_to_monte_carlo_say_why(monkeypatch):
    _refuse_several_statlines(monkeypatch)
    orks = mh.load_roster(FILES / "orks_11e.ros")
    marines = mh.load_roster(FILES / "leaders_11e.json")
    frame = orks.against(marines, method="auto", phases=["fight"], trials=2_000,
                         command_reroll="hit")
    led = frame[frame.target == "Intercessor Squad"]
    assert set(led.method) == {"monte-carlo"}
    notes = [n for n in frame.attrs["notes"] if "Intercessor Squad (fight): Monte Carlo" in n]
    assert len(notes) == len(set(led.attacker)) and "Command Re-roll" in notes[0]


def test_attached_target_matches_the_whole_unit_engine():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    marines = mh.load_roster(FILES / "leaders_11e.json")
    frame = orks.against(marines, trials=40_000, seed=5, phases=["fight"], method="monte-carlo")
    row = value(frame, "Killa Kans", "Intercessor Squad", "fight")
    kans = mh.wh40k.Unit("Kans", (mh.wh40k.ModelGroup("Kan", 2, mh.parse_target("T8 Sv3+ W7 [VEHICLE]"),
                                          (mh.wh40k.CarriedWeapon.single(mh.parse_weapon(
                                              "Kan klaw: Melee A3 WS4+ S12 AP-2 DD6")),)),))
    scenario = mh.wh40k.Scenario(units={"Kans": kans, "Squad": marines.unit("Intercessor Squad")},
                           activations=(mh.wh40k.Activation("fight", "Kans", "Squad"),))
    reference = mh.run(scenario, trials=40_000, seed=6).wounds_lost("Squad")
    assert abs(row.value - reference.mean) < 5 * math.hypot(row.stderr, reference.stderr)


def test_lists_of_different_editions_are_refused():
    with pytest.raises(RosterError, match="same edition"):
        mh.load_roster(FILES / "orks_11e.ros").against(mh.load_roster(FILES / "marines_10e.ros"))


def test_unit_targets_can_be_given_directly():
    marines = mh.load_roster(FILES / "leaders_11e.json")
    orks = mh.load_roster(FILES / "orks_11e.ros")
    frame = marines.compare({"Kans": orks.unit("Killa Kans")}, method="auto",
                            phases=["shooting"])
    # bodyguard first, then the Leader, then the Support unit, as attach() lists them
    row = value(frame, "Intercessor Squad", "Kans", "shooting")
    reordered = mh.exact(['5x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
                          'Master-crafted bolter: 24" A2 BS2+ S4 AP-1 D2',
                          'Bolt pistol: 12" A1 BS3+ S4 AP0 D1 [PISTOL]'],
                         "2x T8 Sv3+ W7 [VEHICLE, WALKER]")
    assert row.value == pytest.approx(reordered.mean("damage"), rel=1e-12)


def test_shooting_only_flags_are_dropped_in_the_fight(marines):
    plain = marines.compare("MEQ", method="auto", phases=["fight"])
    flagged = marines.compare("MEQ", method="auto", phases=["fight"], half_range=True, cover=True)
    assert np.allclose(plain["value"], flagged["value"])


def test_bad_options(marines):
    with pytest.raises(OptionError, match="profiles"):
        marines.compare("MEQ", profiles="worst")
    with pytest.raises(OptionError, match="unknown option"):
        marines.compare("MEQ", hit_modd=1)


def test_a_list_is_analysed_with_its_own_edition(marines):
    # cover: 11th edition worsens BS by 1, 10th edition improves the armour save by 1
    lines = ['4x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
             'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]']
    for edition in (10, 11):
        frame = marines.compare(MEQ, method="auto", phases=["shooting"], cover=True,
                                **({} if edition == 10 else {"edition": 11}))
        assert frame.attrs["edition"] == edition
        expected = mh.exact(lines, MEQ, cover=True, edition=edition).mean("damage")
        assert value(frame, "Intercessor Squad", MEQ, "shooting").value == pytest.approx(
            expected, rel=1e-12)
    assert mh.exact(lines, MEQ, cover=True, edition=10).mean("damage") != pytest.approx(
        mh.exact(lines, MEQ, cover=True, edition=11).mean("damage"))


def test_edition_override_allows_lists_of_both_editions():
    frame = mh.load_roster(FILES / "orks_11e.ros").against(mh.load_roster(FILES / "marines_10e.ros"),
                                                      edition=11, method="auto")
    assert frame.attrs["edition"] == 11


def test_cli_analysis_json(capsys):
    code = main(["roster", str(FILES / "marines_10e.ros"), "--target", "MEQ", "--target", "TEQ",
                 "--exact", "--json"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"method", "edition", "rows"}
    assert out["edition"] == 10 and out["method"] == "exact"
    for row in out["rows"]:
        assert set(row) == {"attacker", "target", "phase", "metric", "value", "stderr",
                            "method"}
        assert row["phase"] in ("shooting", "fight") and row["stderr"] is None


def test_cli_against_csv_and_plot(tmp_path, capsys):
    csv, png = tmp_path / "grid.csv", tmp_path / "grid.png"
    code = main(["roster", str(FILES / "orks_11e.rosz"), "--against",
                 str(FILES / "leaders_11e.json"), "--trials", "2000", "--csv", str(csv),
                 "--plot", str(png), "--attach-other", "Hellblaster Squad=Intercessor Squad"])
    assert code == 2  # the Intercessors already have a Leader and a Support unit
    assert "Intercessor Squad" in capsys.readouterr().err
    code = main(["roster", str(FILES / "orks_11e.rosz"), "--against",
                 str(FILES / "leaders_11e.json"), "--trials", "2000", "--csv", str(csv),
                 "--plot", str(png)])
    assert code == 0
    text = capsys.readouterr().out
    assert "Shooting:" in text and "Fight:" in text and "Engine:" in text
    assert csv.read_text().startswith("attacker,target,phase,metric,value,stderr,method")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_cli_against_other_edition_exit_2(capsys):
    code = main(["roster", str(FILES / "orks_11e.ros"), "--against",
                 str(FILES / "marines_10e.ros")])
    assert code == 2
    assert "same edition" in capsys.readouterr().err


def test_compare_takes_another_roster_as_targets():
    orks = mh.load_roster(FILES / "orks_11e.ros")
    marines = mh.load_roster(FILES / "leaders_11e.json")
    a = orks.compare(marines, method="auto", phases=["shooting"], trials=5_000)
    b = orks.against(marines, method="auto", phases=["shooting"], trials=5_000)
    assert a.equals(b)


def test_target_damage_reduction_is_applied():
    custodes = mh.load_roster(FILES / "features_10e.ros")
    orks = mh.load_roster(FILES / "orks_11e.ros")
    frame = orks.compare({"Plague": custodes.unit("Plague Marines")}, method="auto",
                         phases=["fight"], edition=10)
    expected = mh.exact(["Big choppa: Melee A5 WS2+ S7 AP-1 D2",
                         "Attack squig: Melee A2 WS4+ S4 AP0 D1 [EXTRA ATTACKS]"],
                        "5x T5 Sv3+ W2 FNP5+ [INFANTRY]", damage_minus=1, edition=10)
    klaw = mh.exact(["Power klaw: Melee A4 WS3+ S9 AP-2 D2 [LETHAL HITS: NON-MONSTER/NON-VEHICLE]",
                     "Attack squig: Melee A2 WS4+ S4 AP0 D1 [EXTRA ATTACKS]"],
                    "5x T5 Sv3+ W2 FNP5+ [INFANTRY]", damage_minus=1, edition=10)
    best = max(expected.mean("damage"), klaw.mean("damage"))
    assert value(frame, "Warboss", "Plague", "fight").value == pytest.approx(best, rel=1e-12)


@pytest.mark.parametrize("extra, message", [
    (["--target", "MEQ", "--against", str(FILES / "orks_11e.ros")], "not both"),
    (["--target", "MEQ", "--attach-other", "A=B"],
     "--attach-other and --assume-other need --against"),
    (["--attach-other", "A=B"], "--attach-other and --assume-other need --against"),
    (["--plot", "x.png"], "--plot draws the analysis"),
    (["--target", "MEQ", "--metric", "damge_per_100pts", "--exact"], "did you mean"),
    (["--target", "MEQQ"], "unknown target"),
    (["--attach", "Captain"], "LEADER=BODYGUARD"),
])
def test_cli_errors(extra, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["roster", str(FILES / "leaders_11e.json"), *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def _pistol_squad(tmp_path):
    """Two infantry models, each with an assault pistol and a heavy bolter (11e keywords)."""
    from . import builder as b

    pistol = b.selection("Assault pistol", number=2, profiles=[
        b.ranged("Assault pistol", '12"', "1", "3+", "4", "0", "1", "ASSAULT, PISTOL")])
    heavy = b.selection("Heavy bolter", number=2, profiles=[
        b.ranged("Heavy bolter", '36"', "3", "4+", "5", "-1", "2", "HEAVY")])
    model = b.selection("Trooper", "model", 2, selections=[pistol, heavy])
    unit = b.selection("Troopers", "unit", pts=50, categories=["Infantry"],
                       profiles=[b.statline("Trooper", 11, 4, "3+", 2)], selections=[model])
    path = tmp_path / "pistols.json"
    path.write_text(b.to_json(b.roster(11, "Test - Pistols", [unit])), encoding="utf-8")
    return mh.load_roster(path)


def test_advanced_models_fire_their_assault_pistols_by_hand(tmp_path):
    # Not advanced (24.07): the heavy bolters, never with the pistols: 2 x A3 = 6 attacks,
    # hit 4+ (1/2), S5 vs T3 wounds on 3+ (2/3), AP-1 makes Sv5+ a 6+ (fails 5/6), each
    # unsaved D2 takes one W1 model: 6 * 1/2 * 2/3 * 5/6 = 5/3 wounds.
    # Advanced (10.05): only [ASSAULT] weapons, the pistols: 2 x A1, hit 3+ (2/3),
    # wound 3+ (2/3), Sv5+ fails 4/6: 2 * (2/3)^3 = 16/27.
    squad = _pistol_squad(tmp_path)
    target = "10x T3 Sv5+ W1"
    still = squad.compare(target, method="auto", phases=["shooting"])
    moved = squad.compare(target, method="auto", phases=["shooting"], advanced=True)
    assert value(still, "Troopers", target, "shooting").value == pytest.approx(5 / 3)
    assert value(moved, "Troopers", target, "shooting").value == pytest.approx(16 / 27)


def test_options_are_split_and_checked_once(monkeypatch, marines):
    # The situation / modifier / rule keywords given to the analysis are read into their
    # objects once; every cell (compare grid, exact choices, whole-unit engine) gets those
    # objects, so no later call splits the loose keywords again.
    from mathhammer.wh40k import api

    seen = []
    real = api.build_options

    def spy(options):
        seen.append(set(options) - {"situation", "modifiers", "rules", "edition",
                                    "attacker_monster_vehicle"})
        return real(options)

    monkeypatch.setattr(api, "build_options", spy)
    marines.compare([MEQ, "T10 Sv3+ W12 [VEHICLE]"], method="auto", cover=True, hit_mod=-1,
                    reroll_wounds="ones")
    loose = [keys for keys in seen if keys]
    assert loose == [{"cover", "hit_mod", "reroll_wounds"}]
    assert len(seen) > 1  # the cells did get options, as objects


def _cell_by_cell(cells, seed, trials, profiles, options, kept, progress, exact):
    """The matrix as it was built before it went through one pass: each cell's own compare
    grid or whole-unit engine, one frame per cell, concatenated."""
    from mathhammer.wh40k.roster import analyse

    children = np.random.SeedSequence(seed).spawn(len(cells))
    frames, choices, monte_carlo = [], [], []
    for (unit, target, phase), child in zip(cells, children):
        frame = analyse._cell(unit, target, phase, child, choices, monte_carlo, exact=exact,
                              trials=trials, profiles=profiles, options=options,
                              kept=kept)
        if frame is not None:
            frames.append(frame)
    return (pd.concat(frames, ignore_index=True) if frames else None), choices, monte_carlo


ONE_PASS_CASES = {
    "marines vs a line and a vehicle": ("marines_10e.ros", [MEQ, "T10 Sv3+ W12 [VEHICLE]"],
                                        dict(method="auto")),
    "orks vs led squads": ("orks_11e.ros", "leaders_11e.json", dict(method="auto")),
    "command re-roll: some cells Monte Carlo": ("orks_11e.ros", "leaders_11e.json",
                                                dict(method="auto", trials=2_000,
                                                     command_reroll="hit")),
    "default: Monte Carlo where not covered": ("orks_11e.ros", "leaders_11e.json",
                                          dict(trials=2_000, command_reroll="hit",
                                               phases=["fight"])),
    "default exact, other options": ("features_10e.ros", ["MEQ", "TEQ", "GEQ"],
                                     dict(cover=True, hit_mod=-1, profiles="first")),
    "several statlines": ("multi_statline_10e.ros", "marines_10e.ros", dict(method="auto")),
    "example lists": ("example:marines", "example:orks", dict(method="auto")),
}


def _roster(name):
    from mathhammer.wh40k.roster.api import example

    return mh.load_roster(example(name.removeprefix("example:")) if name.startswith("example:")
                     else FILES / name)


@pytest.mark.parametrize("case", ONE_PASS_CASES)
def test_one_pass_matrix_equals_the_cell_by_cell_one(case, monkeypatch):
    import pandas.testing

    from mathhammer.wh40k.roster import analyse

    attacker, targets, options = ONE_PASS_CASES[case]
    roster = _roster(attacker)
    if isinstance(targets, str):
        targets = _roster(targets)

    def run():
        kept = roster.compare(targets, seed=3, keep_results=True, **options)
        return kept.frame, kept.results

    one_pass, one_pass_results = run()
    monkeypatch.setattr(analyse, "_run_cells", _cell_by_cell)
    by_cell, by_cell_results = run()
    pandas.testing.assert_frame_equal(one_pass, by_cell, check_exact=False, rtol=0,
                                      atol=1e-12)
    assert one_pass.attrs == by_cell.attrs
    assert list(one_pass_results) == list(by_cell_results)
    for key, result in by_cell_results.items():
        mine = one_pass_results[key]
        assert type(mine) is type(result)
        if "damage" in result.distributions:   # a cell's Result (not the whole-unit one)
            assert mine.mean("damage") == pytest.approx(result.mean("damage"), abs=1e-12)
            assert mine.inputs == result.inputs
