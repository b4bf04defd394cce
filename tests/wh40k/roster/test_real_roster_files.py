"""Issue 20: rosters right on real files (both editions, XML, .rosz and JSON).

The files are written by :mod:`.real_lists` in the real schemas; expected numbers are
derived by hand in the comments (and agree with ``mh.exact`` on hand-written lines).
"""

from __future__ import annotations

import json
import time

import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import RosterError

from . import builder as b
from .conftest import FILES
from .real_lists import army

ALL = ["real_10e.ros", "real_10e.json", "real_11e.rosz", "real_11e.json"]
TENTH = ["real_10e.ros", "real_10e.json"]
ELEVENTH = ["real_11e.rosz", "real_11e.json"]


def entry(army_, name):
    return next(e for e in army_.entries if e.name == name)


def cell(frame, attacker, target, phase, metric="expected_damage"):
    rows = frame.query("attacker == @attacker and target == @target and phase == @phase "
                       "and metric == @metric")
    assert len(rows) == 1, (attacker, target, phase, metric)
    return float(rows["value"].iloc[0])


@pytest.fixture(scope="module", params=ALL)
def listed(request):
    return request.param, mh.load_roster(FILES / request.param)


# -- 1. scenarios keep the list's edition ---------------------------------------------------
@pytest.mark.parametrize("name, edition", [("real_10e.ros", 10), ("real_11e.json", 11)])
def test_scenario_runs_under_the_lists_edition(tmp_path, capsys, name, edition):
    out = tmp_path / "s.toml"
    assert main(["roster", str(FILES / name), "--to-scenario", str(out)]) == 0
    assert f"[rules]\nedition = {edition}\n" in out.read_text()
    capsys.readouterr()
    assert main(["run", str(out), "--trials", "200"]) == 0
    assert f"({edition}th-edition rules)" in capsys.readouterr().out


def test_conversion_weapon_scenario_runs_without_flags(tmp_path, capsys):
    # features_10e.ros carries a [CONVERSION] weapon, an ability 11th edition does not have
    out = tmp_path / "s.toml"
    assert main(["roster", str(FILES / "features_10e.ros"), "--to-scenario", str(out)]) == 0
    assert "CONVERSION" in out.read_text()
    assert main(["run", str(out), "--trials", "200"]) == 0
    assert "(10th-edition rules)" in capsys.readouterr().out


# -- 2. Feel No Pain against mortal wounds only ---------------------------------------------
def test_mortal_wound_feel_no_pain_is_not_applied_to_everything(listed):
    _, army_ = listed
    profile = entry(army_, "Warded Sentinels").groups[0].profile
    assert (profile.fnp, profile.fnp_mortal) == (None, 4)
    # Lascannon-like A1 BS3+ S12 AP-3 D6 against T4 Sv3+ W2: hit 2/3, wound 5/6 (S >= 2T),
    # save 3+ at AP-3 is 6+ (fails 5/6), damage min(D6, 2) averages 11/6 -> 0.8488
    gun = 'Gun: 48" A1 BS3+ S12 AP-3 DD6'
    value = mh.exact(gun, profile.with_count(5)).mean("damage")
    assert value == pytest.approx(2 / 3 * 5 / 6 * 5 / 6 * 11 / 6)
    # read as FNP4+ against everything it would be less: each point of damage is rolled for,
    # at most 2 lost: E[min(Bin(D, 1/2), 2)] for D = 1..6 is 1/2, 1, 11/8, 13/8, 57/32, 15/8
    wrong = 2 / 3 * 5 / 6 * 5 / 6 * (0.5 + 1 + 11 / 8 + 13 / 8 + 57 / 32 + 15 / 8) / 6
    assert mh.exact(gun, "5x T4 Sv3+ W2 FNP4+").mean("damage") == pytest.approx(wrong)


# -- 3. weapon profiles on the unit ---------------------------------------------------------
def test_unit_level_profiles_are_notes_not_everyones_weapons(listed):
    _, army_ = listed
    horrors = entry(army_, "Split Horrors")
    assert [(g.count, [w.name for w in g.weapons]) for g in horrors.groups] == [
        (10, ["Blue flame"])]
    for name in ("Pink flame", "Brimstone flame"):
        assert any(f"'{name}'" in n and "not given to any model" in n for n in horrors.notes)
    # ten A1 BS4+ S3 AP0 D1 shots against ten T3 Sv5+ W1: 10 x 1/2 x 1/2 x 2/3 = 5/3
    frame = army_.compare("10x T3 Sv5+ W1", method="auto", phases=["shooting"])
    assert cell(frame, "Split Horrors", "10x T3 Sv5+ W1", "shooting") == pytest.approx(5 / 3)


@pytest.mark.parametrize("edition", [10, 11])
def test_unit_level_profile_of_a_one_model_kind_unit_is_everyones(tmp_path, edition):
    gun = b.ranged("Rivet gun", '12"', "2", "4+", "4", "0", "1")
    squad = b.selection("Rivet Crew", "unit", pts=50, categories=["Infantry"],
                        profiles=[b.statline("Rivet Crew", edition, 4, "4+", 1), gun],
                        selections=[b.selection("Crewman", "model", 3)])
    path = tmp_path / "crew.json"
    path.write_text(b.to_json(b.roster(edition, "Test", [squad])))
    crew = entry(mh.load_roster(path), "Rivet Crew")
    assert [(g.count, [(w.name, w.per_model) for w in g.weapons]) for g in crew.groups] == [
        (3, [("Rivet gun", 1)])]


# -- 4. no weapon-like selection is dropped silently ----------------------------------------
def test_power_typed_profiles_are_weapons_and_profileless_weapons_are_noted(listed):
    _, army_ = listed
    engine = entry(army_, "Star Engine")
    assert [w.name for w in engine.groups[0].weapons] == ["Solar lash", "Void spear",
                                                          "Gravity well"]
    assert str(engine.groups[0].weapons[1].profiles[0]) == \
        'Void spear: 24" A1 BS2+ S14 AP-4 D6+2'
    keeper = entry(army_, "Oath Keeper")
    assert any("'Ancestral hammer' has no profile" in n for n in keeper.notes)


def _weapon_like(node) -> bool:
    from mathhammer.wh40k.roster.nodes import visible_profiles, weapon_kind

    if node.get("type").lower() in ("model", "unit"):
        return any(weapon_kind(p) for p in visible_profiles(node))
    if any(weapon_kind(p) for p in visible_profiles(node)):
        return True
    return not (node.list("selections") or node.list("profiles") or node.list("rules")
                or node.get("name").lower() == "warlord")


@pytest.mark.parametrize("name", sorted(p.name for p in FILES.iterdir()
                                        if p.suffix in (".ros", ".rosz", ".json")))
def test_every_weapon_like_selection_is_a_weapon_or_a_note(name):
    """Walk every selection of every test file: each weapon-like one (weapon profiles, or
    no profile at all) is named by a weapon line or a note of its unit."""
    from mathhammer.errors import MathhammerError
    from mathhammer.wh40k.roster.convert import _is_datasheet
    from mathhammer.wh40k.roster.nodes import subtree, visible_profiles, weapon_kind
    from mathhammer.wh40k.roster.keywords import profile_name
    from mathhammer.wh40k.roster.read import read_tree

    try:
        army_ = mh.load_roster(FILES / name)
    except MathhammerError:
        pytest.skip("a file refused on purpose")
    root = read_tree(FILES / name)
    datasheets = [s for f in root.list("forces") for s in f.list("selections")
                  if _is_datasheet(s)]
    for sheet, listed_entry in zip(datasheets, army_.entries):
        named = {w.name for g in listed_entry.groups for w in g.weapons}
        named |= {p.name for g in listed_entry.groups for w in g.weapons for p in w.profiles}
        text = " ".join(listed_entry.notes)
        for node in subtree(sheet):
            if not _weapon_like(node):
                continue
            names = [profile_name(p.get("name")) for p in visible_profiles(node)
                     if weapon_kind(p)] or [node.get("name")]
            for wanted in names:
                assert wanted in named or wanted in text or \
                    profile_name(node.get("name")) in named, (name, sheet.get("name"), wanted)


# -- 5. a unit without a statline still attacks ---------------------------------------------
def test_unit_without_statline_attacks_but_is_no_target(listed):
    _, army_ = listed
    assert not entry(army_, "Unknown Beast").has_statline
    assert "Unknown Beast" in [u.name for u in army_.units]
    assert "Unknown Beast" not in [u.name for u in army_.targets]
    # A6 WS3+ S8 AP-2 D3 against MEQ (5x T4 Sv3+ W2): each attack gets through with
    # p = 2/3 x 5/6 x 2/3 (5+ save fails) and takes 2 wounds, at most 5 models: the wounds
    # lost are 2 E[min(N, 5)] for N ~ Bin(6, p), that is 2 (6p - p^6)
    p = 2 / 3 * 5 / 6 * 2 / 3
    frame = army_.compare("MEQ", method="auto", phases=["fight"])
    assert cell(frame, "Unknown Beast", "MEQ", "fight") == pytest.approx(2 * (6 * p - p ** 6))
    assert any("Unknown Beast" in n and "never a target" in n for n in frame.attrs["notes"])
    duel = army_.against(army_, method="auto", phases=["fight"])
    assert "Unknown Beast" in set(duel["attacker"])
    assert "Unknown Beast" not in set(duel["target"])


# -- 6. printed defensive rules -------------------------------------------------------------
def test_unconditional_defensive_rules_are_applied(listed):
    _, army_ = listed
    warden = entry(army_, "Iron Warden")
    assert str(warden.groups[0].profile) == "T10 Sv2+ W13 FNP5+ [VEHICLE, WALKER]"  # W12 + 1
    assert dict(warden.defense) == {"damage_minus": 1}
    assert any("Hold the Line" in n and "objective marker" in n and "--assume" in n
               for n in warden.notes)
    stalkers = entry(army_, "Veiled Stalkers")
    assert "STEALTH" in stalkers.groups[0].profile.keywords
    assert dict(stalkers.defense) == {"hit_minus_ranged": 1}


def test_defensive_rules_in_the_analysis(listed):
    name, army_ = listed
    duel = army_.against(army_, method="auto")
    # Castellan blade A6 WS2+ S6 AP-2 D2 against Iron Warden (T10 Sv2+ W13 FNP5+, -1 D):
    # 6 x 5/6 hit x 1/3 wound (5+) x 1/2 (4+ save fails) x (2-1) damage x 2/3 (FNP) = 5/9
    attacker = "Lord Castellan" if "10e" in name else "Warded Sentinels"  # 11e: it leads
    assert cell(duel, attacker, "Iron Warden", "fight") == pytest.approx(5 / 9)
    # Twin stubber A3 BS4+ S4 AP0 D1 [TWIN-LINKED] against the Veiled Stalkers (Sv4+, -1 to
    # be hit by ranged attacks, Stealth): 10th: Stealth is -1 to hit too, capped at -1 in
    # all: 3 x 1/3 x 3/4 (4+, re-rolled) x 1/2 = 3/8; 11th: Stealth gives cover, which
    # worsens BS by 1 (13.08: BS5+), and the -1 to hit then makes it 6+:
    # 3 x 1/6 x 3/4 x 1/2 = 3/16
    expected = 3 / 8 if "10e" in name else 3 / 16
    assert cell(duel, "Iron Chariot", "Veiled Stalkers", "shooting") == pytest.approx(expected)


def test_assume_applies_a_conditional_rule(listed):
    name, _ = listed
    army_ = mh.load_roster(FILES / name, assume="Iron Warden: hold the line")
    assert army_.defense_of("Iron Warden")["wound_minus_all"] == 1
    duel = army_.against(army_, method="auto", phases=["fight"])
    attacker = "Lord Castellan" if "10e" in name else "Warded Sentinels"
    # as above, wounding on 6+ instead of 5+: 6 x 5/6 x 1/6 x 1/2 x 1 x 2/3 = 5/18
    assert cell(duel, attacker, "Iron Warden", "fight") == pytest.approx(5 / 18)


def test_assume_refuses_an_unknown_rule():
    with pytest.raises(RosterError, match="Hold the Line") as info:
        mh.load_roster(FILES / "real_10e.ros", assume="Iron Warden: Iron Skin")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name, text, expected", [
    ("A", "Models in this unit have the Feel No Pain 5+ ability.", ("fnp", 5, "")),
    ("B", "This model has the Feel No Pain 4+ ability against Psychic Attacks and mortal "
          "wounds.", ("fnp_mortal", 4, "")),
    ("C", "Each time an attack is allocated to this model, halve the Damage characteristic "
          "of that attack.", ("damage_halved", 1, "")),
    ("D", "Models in this unit have a 5+ invulnerable save against ranged attacks.",
     ("invuln", 5, "")),
    ("E", "Each time an attack targets this unit, if the Strength characteristic of that "
          "attack is greater than the Toughness characteristic of this unit, subtract 1 "
          "from that attack's Wound roll.", ("wound_minus", 1, "if the strength")),
    ("F", "Once per battle, at the start of any phase, select this unit. Until the end of "
          "the phase, models in this unit have the Feel No Pain 4+ ability.",
     ("fnp", 4, "until the end of the phase")),
    ("Feel No Pain 6+", "", ("fnp", 6, "")),
    ("H", "At the start of your Command phase, select one of the following abilities.\n"
          "\u25a0 Models in this unit have a 4+ invulnerable save.", ("invuln", 4, "select one")),
    ("Invulnerable Save", "5+", ("invuln", 5, "")),
    ("I", "While a friendly Infantry unit is within 6\" of this model, models in that unit "
          "have the Feel No Pain 6+ ability.", ("fnp", 6, "while a friendly infantry unit")),
    ("G", "Each time this model makes an attack, subtract 1 from the Hit roll.", None),
])
def test_defensive_texts(name, text, expected):
    from mathhammer.wh40k.roster.defense import effects

    found = effects(name, text)
    if expected is None:
        assert found == []
        return
    kind, value, condition = expected
    assert (found[0].kind, found[0].value) == (kind, value)
    assert found[0].condition.startswith(condition)


# -- 7. Leaders ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ALL)
def test_can_lead_from_dash_and_square_bullets(name):
    castellan = entry(mh.load_roster(FILES / name), "Lord Castellan")
    assert castellan.can_lead == ("Warded Sentinels", "Veiled Stalkers")


@pytest.mark.parametrize("pair, words", [
    ("Lord Castellan=Iron Chariot", "allows only Warded Sentinels, Veiled Stalkers"),
    ("Warded Sentinels=Lord Castellan", "reversed"),
])
@pytest.mark.parametrize("name", TENTH)
def test_attach_checked_against_the_leader_text(name, pair, words):
    with pytest.raises(RosterError, match=words) as info:
        mh.load_roster(FILES / name, attach=pair)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("name", ALL)
def test_leaders_rules_apply_to_the_unit_it_leads(name):
    attach = "Lord Castellan=Warded Sentinels" if "10e" in name else None
    army_ = mh.load_roster(FILES / name, attach=attach)
    unit = army_.unit("Warded Sentinels")
    # Bulwark: Feel No Pain 5+ for the whole unit; the Sentinels keep their 4+ vs mortals
    assert [(g.profile.fnp, g.profile.fnp_mortal) for g in unit.groups] == [(5, 4), (5, None)]


def test_attach_cli_refusal_is_one_line(capsys):
    assert main(["roster", str(FILES / "real_10e.ros"), "--attach",
                 "Lord Castellan=Iron Chariot"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "real_10e.ros" in err[0] and "Warded Sentinels" in err[0]


# -- 8. malformed files ----------------------------------------------------------------------
def _json_with(tmp_path, change) -> str:
    tree = army(11)
    change(tree["roster"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(tree))
    return str(path)


def _first_unit(roster_):
    return roster_["forces"][0]["selections"][1]


@pytest.mark.parametrize("change, token", [
    (lambda r: r.update(forces=[1, 2, 3]), '"forces"[0] is 1'),
    (lambda r: _first_unit(r).update(number=-1e300), "-1e+300"),
    (lambda r: _first_unit(r)["costs"][0].update(value=-50), "'-50'"),
    (lambda r: r["costs"][0].update(value=10 ** 400), "costs"),
])
def test_malformed_json_is_a_one_line_refusal(tmp_path, capsys, change, token):
    path = _json_with(tmp_path, change)
    assert main(["roster", path]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "bad.json" in err[0] and token in err[0], err


def test_a_4301_digit_number_is_refused(tmp_path, capsys):
    text = b.to_json(army(11)).replace('"value": 100', '"value": ' + "9" * 4301, 1)
    path = tmp_path / "digits.json"
    path.write_text(text)
    assert main(["roster", str(path)]) == 2
    assert "4,300 digits" in capsys.readouterr().err


def test_negative_points_in_xml_are_refused(tmp_path):
    text = b.to_xml(army(10)).replace('value="100"', 'value="-100"', 1)
    path = tmp_path / "neg.ros"
    path.write_text(text)
    with pytest.raises(RosterError, match="'-100'"):
        mh.load_roster(path)


def test_thousands_of_keywords_are_refused_quickly(tmp_path):
    keywords = ", ".join(["Assault"] * 5000)
    gun = b.selection("Odd gun", profiles=[b.ranged("Odd gun", '24"', "1", "3+", "4", "0",
                                                    "1", keywords)])
    unit = b.selection("Odd Squad", "model", pts=10, profiles=[b.statline("Odd", 10, 4,
                                                                          "3+", 2)],
                       selections=[gun])
    path = tmp_path / "long.ros"
    path.write_text(b.to_xml(b.roster(10, "Test", [unit])))
    start = time.perf_counter()
    with pytest.raises(RosterError, match="5000 keywords"):
        mh.load_roster(path)
    assert time.perf_counter() - start < 5


# -- 9. text exports -------------------------------------------------------------------------
@pytest.mark.parametrize("text, kind", [
    ("My list (1000 Points)\n\nCHARACTERS\n\nHero (80 Points)\n  \u2022 1x Sword\n\n"
     "Exported with App Version: v1 (1), Data Version: v1\n", "GW app"),
    ("+++++++++++++++\n+ FACTION KEYWORD: Test\n+ DETACHMENT: Test\n\nChar1: 1x Hero "
     "(80 pts): Sword\n", "New Recruit"),
])
def test_text_exports_are_refused_naming_the_export_to_use(tmp_path, text, kind):
    path = tmp_path / "list.txt"
    path.write_text(text)
    with pytest.raises(RosterError) as info:
        mh.load_roster(path)
    message = str(info.value)
    assert kind in message and "New Recruit as JSON" in message and "\n" not in message


# -- 10. readable output ---------------------------------------------------------------------
def test_default_tables_fit_100_columns(capsys):
    assert main(["roster", str(FILES / "real_10e.ros"), "--against",
                 str(FILES / "real_10e.json"), "--trials", "500"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= 100
    assert sum(line.startswith(("Shooting:", "Fight:")) for line in lines) == 2


def test_all_prints_one_table_per_metric(capsys):
    assert main(["roster", str(FILES / "real_10e.ros"), "--target", "MEQ", "--exact",
                 "--all"]) == 0
    out = capsys.readouterr().out
    assert out.count("Shooting:") == 5 and out.count("Fight:") == 5


def test_tiny_probabilities_are_short():
    from mathhammer.wh40k.roster.tables import format_cell

    assert format_cell(3.4e-21, 0.0, "p_unit_destroyed", "exact") == "<0.01%"
    assert format_cell(1.0, 0.0, "p_unit_destroyed", "exact") == "100%"
    assert format_cell(0.4081, 0.011, "p_unit_destroyed", "monte-carlo") == "40.8%±1.1%"
    assert format_cell(0.49, 0.012, "expected_damage", "monte-carlo") == "0.490±0.012"


def test_plot_draws_every_phase(tmp_path, monkeypatch):
    from mathhammer import charts

    drawn = []
    original = charts.heatmap
    monkeypatch.setattr(charts, "heatmap", lambda *a, **k: drawn.append(k["title"])
                        or original(*a, **k))
    out = tmp_path / "grid.png"
    assert main(["roster", str(FILES / "real_10e.ros"), "--target", "MEQ", "--exact",
                 "--plot", str(out)]) == 0
    assert out.stat().st_size > 0
    assert [t.split(":")[0] for t in drawn] == ["Shooting phase", "Fight phase"]


def test_scenario_carries_the_leaders_rules_and_defense(tmp_path):
    text = mh.load_roster(FILES / "real_11e.json").to_toml()
    sentinels = text.split('[units."Warded Sentinels"]')[1].split("[units.")[0]
    assert 'profile = "T4 Sv3+ W2 FNP5+ FNP4+(mortal) [BATTLELINE, INFANTRY]"' in sentinels
    warden = text.split('[units."Iron Warden"]')[1].split("[units.")[0]
    assert "defense = { damage_minus = 1 }" in warden
    assert "placeholder so that it can attack" in text


@pytest.mark.parametrize("name", ["mathhammer.wh40k.roster.defense",
                                  "mathhammer.wh40k.roster.tables",
                                  "mathhammer.wh40k.roster.keywords"])
def test_docstring_examples(name):
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("text", [
    "While this model is leading a unit, each time a model in that unit makes an attack, "
    "you can ignore any or all modifiers to that attack's Ballistic Skill.",
    "Each time an attack targets this unit, worsen the Armour Penetration characteristic of "
    "that attack by 1.",
])
def test_rules_we_do_not_model_are_notes(tmp_path, text):
    hero = b.selection("Test Hero", "model", pts=60, categories=["Character", "Infantry"],
                       profiles=[b.statline("Test Hero", 10, 4, "3+", 4),
                                 b.ability("Odd Rule", text)])
    path = tmp_path / "odd.ros"
    path.write_text(b.to_xml(b.roster(10, "Test", [hero])))
    notes = entry(mh.load_roster(path), "Test Hero").notes
    assert any("'Odd Rule' is not modelled" in n or
               ("'Odd Rule'" in n and "cannot be read" in n) for n in notes)


def test_huge_numbers_in_xml_are_short_refusals_or_notes(tmp_path):
    big = "9" * 4301
    text = b.to_xml(army(10))
    path = tmp_path / "huge.ros"
    path.write_text(text.replace('number="5"', f'number="{big}"', 1))
    with pytest.raises(RosterError) as info:
        mh.load_roster(path)
    assert len(str(info.value)) < 300 and "huge.ros" in str(info.value)
    path.write_text(text.replace('>24"<', '>24"<', 1).replace(">2<", f">{big}<", 1))
    for e in mh.load_roster(path).entries:   # an unreadable characteristic: a short note
        assert all(len(n) < 600 for n in e.notes)


def test_assume_on_the_command_line(capsys):
    assert main(["roster", str(FILES / "real_10e.ros"), "--assume",
                 "Iron Warden: Hold the Line"]) == 0
    assert "assumed: Iron Warden 'Hold the Line' (-1 to be wounded)" in capsys.readouterr().out
    assert main(["roster", str(FILES / "real_10e.ros"), "--assume", "Iron Warden"]) == 2
    assert "write UNIT: ABILITY" in capsys.readouterr().err
