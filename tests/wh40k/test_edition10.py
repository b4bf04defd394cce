"""10th-edition rules (spec Appendix A) beside the 11th: hand-derived values per row.

Every test resolves the same inputs under ``edition=10`` and under the default 11th edition and
checks both against values worked out by hand in the comments, with the exact engine and a
fixed-seed Monte Carlo run. Exact against brute force on random 10th-edition scenarios lives
in ``test_reference_vs_exact.py``; Monte Carlo against exact on a grid in
``test_monte_carlo_vs_exact.py``.
"""

from __future__ import annotations


import pytest

import mathhammer as mh
from mathhammer.cli import main
from mathhammer.errors import OptionError
from mathhammer.wh40k.compile import final_damage

BOLTER = 'Bolter: 24" A1 BS3+ S4 AP0 D1'


def mean(weapons, target, **options) -> float:
    return mh.exact(weapons, target, **options).mean("damage")


def both(weapons, target, **options) -> tuple[float, float]:
    """(10th-edition, 11th-edition) expected wounds lost."""
    return mean(weapons, target, edition=10, **options), mean(weapons, target, **options)


# -- the switch -------------------------------------------------------------------------------
@pytest.mark.parametrize("edition", [9, 12, "10", True, None])
def test_unsupported_editions_are_refused_with_the_supported_ones(edition):
    with pytest.raises(OptionError, match=r"edition .* not supported; use one of 10, 11"):
        mh.exact(BOLTER, "T4 Sv- W1", edition=edition)


def test_cli_refuses_edition_9_in_one_line(capsys):
    for command in (["simulate", BOLTER, "--target", "MEQ", "--trials", "10"],
                    ["exact", BOLTER, "--target", "MEQ"],
                    ["compare", BOLTER, "--target", "MEQ", "--exact"]):
        assert main(command + ["--edition", "9"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1
        assert "edition '9' is not supported" in err and "10, 11" in err


def test_cli_edition_10_reaches_the_engine(capsys):
    # cover on an Sv4+ target: 10th edition 1/9 (save 3+), 11th edition 1/8 (BS4+)
    assert main(["exact", BOLTER, "--target", "T4 Sv4+ W1", "--cover", "--edition", "10",
                 "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["damage"]["mean"] == pytest.approx(1 / 9)


def test_launch_text_needs_the_10th_edition():
    with pytest.raises(OptionError, match="edition=10"):
        mh.exact(BOLTER, "T4 Sv- W1", devastating_text="launch")


# -- benefit of cover ----------------------------------------------------------------------
def test_cover_improves_the_armour_save_instead_of_worsening_bs():
    # 10e: hit 2/3, wound 1/2, Sv4+ becomes 3+: fails 1/3 -> 1/9.
    # 11e: BS4+: hit 1/2, wound 1/2, Sv4+ fails 1/2 -> 1/8.
    assert both(BOLTER, "T4 Sv4+ W1", cover=True) == pytest.approx((1 / 9, 1 / 8))


def test_no_cover_for_sv3_or_better_against_ap0():
    # 10e: Sv3+ at AP0 gets nothing: 2/3 * 1/2 * 1/3 = 1/9 with or without cover.
    assert mean(BOLTER, "T4 Sv3+ W1", edition=10, cover=True) == pytest.approx(1 / 9)
    # ...but it does against AP-1: Sv3+ -1 +1 = 3+: 1/9 (without cover 4+: 1/6).
    ap1 = BOLTER.replace("AP0", "AP-1")
    assert mean(ap1, "T4 Sv3+ W1", edition=10, cover=True) == pytest.approx(1 / 9)
    assert mean(ap1, "T4 Sv3+ W1", edition=10) == pytest.approx(1 / 6)


def test_cover_never_improves_the_invulnerable_save():
    # AP-3 against Sv6+ InSv4+: armour 9+ (8+ with cover) never saves; the InSv4+ is not
    # improved: 2/3 * 1/2 * 1/2 = 1/6 with or without cover.
    ap3 = BOLTER.replace("AP0", "AP-3")
    assert mean(ap3, "T4 Sv6+ InSv4+ W1", edition=10, cover=True) == pytest.approx(1 / 6)


def test_cover_is_not_cumulative_and_not_for_melee():
    # indirect fire also gives cover: still +1 only. Indirect: -1 to hit and raw 1-3 fail,
    # so hits on 4+ (1/2); wound 1/2; Sv5+ becomes 4+: fails 1/2 -> 1/8.
    indirect = 'Mortar: 48" A1 BS3+ S4 AP0 D1 [INDIRECT FIRE]'
    assert mean(indirect, "T4 Sv5+ W1", edition=10, indirect=True,
                cover=True) == pytest.approx(1 / 8)
    melee = "Sword: Melee A1 WS3+ S4 AP0 D1"
    assert mean(melee, "T4 Sv5+ W1", edition=10, cover=True) == pytest.approx(
        2 / 3 * 1 / 2 * 2 / 3)


def test_sv7_in_cover_saves_on_a_6():
    # A 7+ save (Sv- / Sv7+, e.g. Gretchin) improved by 1 saves on a 6: 2/3 * 1/2 * 5/6.
    assert both(BOLTER, "T4 Sv- W1", cover=True) == pytest.approx((5 / 18, 1 / 4))


def test_ignores_cover_cancels_the_save_bonus():
    ignores = 'Bolter: 24" A1 BS3+ S4 AP0 D1 [IGNORES COVER]'
    assert both(ignores, "T4 Sv4+ W1", cover=True) == pytest.approx((1 / 6, 1 / 6))


# -- a save roll is never improved by more than +1 -----------------------------------------
def test_save_improvement_is_capped_at_plus_one():
    # +2 to saves on Sv5+: 10e caps it at +1 (4+, fails 1/2); 11e takes it whole (3+, fails
    # 1/3). Hit 2/3, wound 1/2.
    assert both(BOLTER, "T4 Sv5+ W1", save_mod=2) == pytest.approx((1 / 6, 1 / 9))
    # +1 to saves and cover: still +1 in 10e (Sv5+ -> 4+); in 11e +1 save and BS4+ instead:
    # 1/2 * 1/2 * 1/2.
    assert both(BOLTER, "T4 Sv5+ W1", save_mod=1, cover=True) == pytest.approx(
        (1 / 6, 1 / 8))
    # a worsening is not capped: -2 on Sv3+ -> 5+: fails 2/3 in both editions.
    assert both(BOLTER, "T4 Sv3+ W1", save_mod=-2) == pytest.approx((2 / 9, 2 / 9))


def test_save_modifiers_apply_to_the_invulnerable_save_capped_too():
    # AP-4 on Sv3+ InSv5+, +2 to saves: 10e InSv 5+ -> 4+ (capped), fails 1/2;
    # 11e InSv 5+ -> 3+, fails 1/3 (armour 3+4-2 = 5+ is worse).
    ap4 = BOLTER.replace("AP0", "AP-4")
    assert both(ap4, "T4 Sv3+ InSv5+ W1", save_mod=2) == pytest.approx((1 / 6, 1 / 9))


# -- Stealth ------------------------------------------------------------------------------
def test_stealth_is_minus_one_to_hit_inside_the_cap():
    # 10e: -1 to hit: BS3+ hits on 4+ (1/2); wound 1/2; Sv- : 1/4. 11e: cover, BS4+: 1/4 too.
    assert both(BOLTER, "T4 Sv- W1 [STEALTH]") == pytest.approx((1 / 4, 1 / 4))
    # With +1 to hit: 10e net 0 (2/3 * 1/2 = 1/3); 11e BS4+ with +1 -> 3+: 1/3 as well.
    # With -1 to hit: 10e -2 capped at -1: 1/4; 11e BS4+ and -1: 5+: 1/3 * 1/2 = 1/6.
    assert both(BOLTER, "T4 Sv- W1 [STEALTH]", hit_mod=-1) == pytest.approx((1 / 4, 1 / 6))
    # With cover on an Sv4+ target: 10e -1 to hit and +1 save: 1/2 * 1/2 * 1/3 = 1/12;
    # 11e one BS step only: 1/2 * 1/2 * 1/2 = 1/8.
    assert both(BOLTER, "T4 Sv4+ W1 [STEALTH]", cover=True) == pytest.approx((1 / 12, 1 / 8))


def test_ignores_cover_does_not_remove_10th_edition_stealth():
    ignores = 'Bolter: 24" A1 BS3+ S4 AP0 D1 [IGNORES COVER]'
    # 10e: still -1 to hit: 1/4; 11e: Stealth is cover, ignored: 1/3.
    assert both(ignores, "T4 Sv- W1 [STEALTH]") == pytest.approx((1 / 4, 1 / 3))


def test_psychic_does_not_ignore_modifiers_in_10th_edition():
    psychic = 'Smite: 24" A1 BS3+ S4 AP0 D1 [PSYCHIC]'
    # 11e: drops the -1 (1/3); 10e: [PSYCHIC] has no such effect (1/4).
    assert both(psychic, "T4 Sv- W1", hit_mod=-1) == pytest.approx((1 / 4, 1 / 3))


# -- [LETHAL HITS] is mandatory --------------------------------------------------------------
def test_lethal_hits_ignores_the_11th_edition_policy():
    # Appendix C9: BS4+, wound on 6+: 1/6 + 2/6 * 1/6 = 2/9 when the auto-wound is taken;
    # declined (11e lethal_policy="never"): 1/2 * 1/6 = 1/12.
    lethal = 'Gun: 24" A1 BS4+ S2 AP0 D1 [LETHAL HITS]'
    assert both(lethal, "T4 Sv- W1", lethal_policy="never") == pytest.approx(
        (2 / 9, 1 / 12))
    assert mean(lethal, "T4 Sv- W1", edition=10, lethal_policy="ev") == pytest.approx(2 / 9)


def test_sustained_extra_hits_do_not_auto_wound_in_either_edition():
    # crit (1/6) -> 1 auto wound + 1 extra hit rolling 6+ (1/6); normal hit (3/6) -> 1/6.
    gun = 'Gun: 24" A1 BS3+ S2 AP0 D1 [LETHAL HITS, SUSTAINED HITS 1]'
    value = 1 / 6 * (1 + 1 / 6) + 3 / 6 * 1 / 6
    assert both(gun, "5x T4 Sv- W1") == pytest.approx((value, value))


# -- damage modifiers in the 10th-edition order -------------------------------------------
def test_damage_modifier_order_c15():
    # Appendix C15: D5 (a rolled 5), [MELTA 2] at half range, halved, -1:
    # 11e (5 + 2) / 2 - 1 = 2.5 -> 3; 10e 5 / 2 + 2 - 1 = 3.5 -> 4.
    assert final_damage(5, 2, True, 1) == 3
    assert final_damage(5, 2, True, 1, edition=10) == 4
    melta = 'Melta: 12" A1 BSN/A S12 AP-4 D5 [TORRENT, MELTA 2]'
    options = {"half_range": True, "damage_halved": True, "damage_minus": 1}
    # S12 vs T4 wounds on 2+: 5/6 of the damage on a W10 model.
    assert both(melta, "T4 Sv- W10", **options) == pytest.approx((5 / 6 * 4, 5 / 6 * 3))


@pytest.mark.parametrize("raw, add, halved, minus, tenth, eleventh", [
    (1, 0, True, 0, 1, 1), (3, 0, True, 0, 2, 2), (3, 1, True, 0, 3, 2),
    (4, 2, True, 1, 3, 2), (2, 0, False, 1, 1, 1), (6, 2, True, 2, 3, 2)])
def test_final_damage_both_orders(raw, add, halved, minus, tenth, eleventh):
    # 10e: ceil(raw/2 + add - minus); 11e: ceil((raw + add)/2 - minus); never below 1.
    assert final_damage(raw, add, halved, minus, edition=10) == tenth
    assert final_damage(raw, add, halved, minus) == eleventh


# -- [ANTI] with different keywords ------------------------------------------------------------
def test_anti_with_different_keywords_gives_the_best_threshold_in_both_editions():
    # 10e: both apply; 11e: duplicates, the best applicable instance is chosen. Against an
    # INFANTRY CHARACTER both give critical wounds on 2+ (S1 vs T4 otherwise needs 6+).
    gun = 'Gun: 24" A1 BSN/A S1 AP0 D1 [TORRENT, ANTI-INFANTRY 4+, ANTI-CHARACTER 2+]'
    assert both(gun, "T4 Sv- W1 [INFANTRY, CHARACTER]") == pytest.approx((5 / 6, 5 / 6))
    assert both(gun, "T4 Sv- W1 [INFANTRY]") == pytest.approx((1 / 2, 1 / 2))


# -- [INDIRECT FIRE] -------------------------------------------------------------------------
def test_indirect_fire_10th_edition():
    mortar = 'Mortar: 48" A1 BS3+ S5 AP0 D1 [INDIRECT FIRE]'
    # 10e: -1 to hit and raw 1-3 fail: hits on 4+ (1/2); S5 vs T4 wounds 3+ (2/3); cover on
    # Sv5+ -> 4+ fails 1/2: 1/6. 11e: raw 1-5 fail: 1/6 * 2/3 * 2/3 = 2/27.
    assert both(mortar, "T4 Sv5+ W1", indirect=True) == pytest.approx((1 / 6, 2 / 27))
    # +1 to hit cancels the -1, but raw 1-3 still fail: 1/2 again.
    assert mean(mortar, "T4 Sv5+ W1", edition=10, indirect=True,
                hit_mod=1) == pytest.approx(1 / 6)
    # 10e has no ban on hit re-rolls here: re-roll failed hits: 1/2 + 1/2 * 1/2 = 3/4;
    # Sv 7+ in cover saves on a 6 (fails 5/6).
    assert mean(mortar, "T4 Sv- W1", edition=10, indirect=True,
                reroll_hits="failed") == pytest.approx(3 / 4 * 2 / 3 * 5 / 6)
    # stationary and spotted change nothing in 10e
    assert mean(mortar, "T4 Sv- W1", edition=10, indirect=True, stationary=True,
                spotted=True) == pytest.approx(1 / 2 * 2 / 3 * 5 / 6)


def test_torrent_cannot_fire_indirectly_in_10th_edition():
    flamer = 'Flamer: 12" A1 BSN/A S4 AP0 D1 [TORRENT, INDIRECT FIRE]'
    with pytest.raises(OptionError, match="cannot shoot indirectly in 10th edition"):
        mh.exact(flamer, "T4 Sv- W1", edition=10, indirect=True)
    assert mean(flamer, "T4 Sv- W1", indirect=True) == pytest.approx(1 / 2)


# -- [CLEAVE] and [CONVERSION] ---------------------------------------------------------------
def test_cleave_is_refused_in_10th_edition():
    axe = "Axe: Melee A3 WS3+ S5 AP-1 D1 [CLEAVE 1]"
    with pytest.raises(OptionError, match=r"\[CLEAVE\], which does not exist in 10th edition"):
        mh.exact(axe, "10x GEQ", edition=10)
    with pytest.raises(OptionError):
        mh.simulate(axe, "10x GEQ", edition=10, trials=10)
    assert mh.exact(axe, "10x GEQ").mean("damage") > 0


def test_conversion_crits_on_4_beyond_12_inches():
    # BS3+ [LETHAL HITS, CONVERSION], S4 vs T8 (6+ to wound). Beyond 12": critical hits on
    # 4+ auto-wound: 1/2 + (a 3) 1/6 * 1/6 = 19/36. Within 12": 1/6 + 3/6 * 1/6 = 1/4.
    gun = 'Conversion beamer: 48" A1 BS3+ S4 AP0 D1 [LETHAL HITS, CONVERSION]'
    assert mean(gun, "T8 Sv- W1", edition=10, beyond_12=True) == pytest.approx(19 / 36)
    assert mean(gun, "T8 Sv- W1", edition=10) == pytest.approx(1 / 4)
    with pytest.raises(OptionError, match=r"\[CONVERSION\], which does not exist in 11th"):
        mh.exact(gun, "T8 Sv- W1", beyond_12=True)


def test_beyond_12_flag_on_the_cli(capsys):
    gun = 'Conversion beamer: 48" A1 BS3+ S4 AP0 D1 [LETHAL HITS, CONVERSION]'
    assert main(["exact", gun, "--target", "T8 Sv- W1", "--edition", "10", "--beyond-12",
                 "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["damage"]["mean"] == pytest.approx(19 / 36)


# -- Monte Carlo agrees with the hand values -------------------------------------------------
@pytest.mark.parametrize("weapon, target, options, expected", [
    (BOLTER, "T4 Sv4+ W1", {"cover": True}, 1 / 9),
    (BOLTER, "T4 Sv- W1 [STEALTH]", {"hit_mod": -1}, 1 / 4),
    ('Mortar: 48" A1 BS3+ S5 AP0 D1 [INDIRECT FIRE]', "T4 Sv5+ W1", {"indirect": True},
     1 / 6),
    ('Melta: 12" A1 BSN/A S12 AP-4 D5 [TORRENT, MELTA 2]', "T4 Sv- W10",
     {"half_range": True, "damage_halved": True, "damage_minus": 1}, 5 / 6 * 4),
])
def test_monte_carlo_matches_the_hand_values(weapon, target, options, expected):
    result = mh.simulate(weapon, target, edition=10, trials=200_000, seed=12, **options)
    stderr = result.distributions["damage"].std / (200_000 ** 0.5)
    assert abs(result.mean("damage") - expected) < 5 * stderr


# -- reference targets per edition -------------------------------------------------------------
KNIGHTS = '''[Knight]
name = "Knight"
T = 11
Sv = 3
W = 26
InSv = 5
InSv_scope = "ranged"
data = "11e"

[Knight.10e]
W = 22
data = "older 10e data set"
'''


def test_a_reference_target_can_carry_a_10th_edition_statline(tmp_path, capsys):
    from mathhammer.wh40k.targets import load_targets, resolve_target

    path = tmp_path / "knights.toml"
    path.write_text(KNIGHTS)
    library = load_targets(path)
    assert resolve_target("Knight", library).wounds == 26
    assert resolve_target("2x Knight", library, edition=10).wounds == 22
    assert library.info("Knight").other_editions[0][2] == "older 10e data set"
    lascannon = 'Lascannon: 48" A1 BSN/A S12 AP-3 D30 [TORRENT]'
    # D30 on a W26 / W22 model: S12 vs T11 wounds on 3+ (2/3), InSv5+ fails 2/3
    frame = mh.compare(lascannon, "Knight", library=library, method="exact", edition=10)
    value = frame.query("metric == 'expected_damage'")["value"].item()
    assert value == pytest.approx(2 / 3 * 2 / 3 * 22)
    assert main(["exact", lascannon, "--target", "Knight", "--targets-file", str(path),
                 "--edition", "10", "--json"]) == 0
    import json

    assert json.loads(capsys.readouterr().out)["damage"]["mean"] == pytest.approx(
        2 / 3 * 2 / 3 * 22)
    assert main(["exact", lascannon, "--target", "Knight", "--targets-file", str(path),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["damage"]["mean"] == pytest.approx(
        2 / 3 * 2 / 3 * 26)


def test_a_bad_10th_edition_sub_table_names_file_line_and_field(tmp_path):
    from mathhammer.errors import ProfileError
    from mathhammer.wh40k.targets import load_targets

    path = tmp_path / "bad.toml"
    path.write_text(KNIGHTS.replace("W = 22", "Wounds = 22"))
    with pytest.raises(ProfileError, match=r"bad.toml, line 11: \[Knight.10e\] unknown field "
                                           r"'Wounds'"):
        load_targets(path)


def test_built_in_targets_carry_no_second_statline():
    # every built-in number is 10th-edition data (Appendix B); none differs in 11th edition
    from mathhammer.wh40k.targets import targets

    assert all(not targets.info(name).other_editions for name in targets)
    assert mh.exact(BOLTER, "MEQ", edition=10).inputs["target"] == str(targets["MEQ"])
