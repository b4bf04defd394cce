"""Rules tests: hand-derived values against the exact engine.

Every row of Appendix C of ``shared/rules/wh40k-11e.md`` (C1-C20; all fall inside one batch
against one unit of identical models, so none is skipped: the rows that need mixed units are
the worked examples E2 and E3, which belong to the next issue), then one test or more per
ability and modifier of issue 2. Each expected value is derived by hand in a comment, as a
fraction. Targets are chosen so the quantity of interest is easy to read: ``Sv-`` removes the
save, a large W or many models make damage equal to unsaved wounds times D, TORRENT removes
the hit roll and S8 against T4 makes the wound roll a plain 2+ (5/6). In weapon lines ``D3``
is a fixed damage of 3 and ``DD3`` a damage of D3 (as ``AD6`` is an A of D6).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import mathhammer as mh
from tests.wh40k.oracle import Trace, resolve
from mathhammer.wh40k.parse import parse_target, parse_weapon

EPS = 1e-12


def mean(weapons, target, outcome="damage", **options) -> float:
    return mh.exact(weapons, target, **options).mean(outcome)


def pmf(weapons, target, outcome="damage", **options) -> list[float]:
    return list(mh.exact(weapons, target, **options).distributions[outcome].probabilities)


def approx(value) -> object:
    if isinstance(value, (list, tuple)):
        return pytest.approx([float(v) for v in value], abs=EPS)
    return pytest.approx(float(value), abs=EPS)


def forced(faces):
    """A dice source handing out ``faces`` in order, failing loudly if more are asked for."""
    it = iter(faces)

    def roll() -> int:
        try:
            return next(it)
        except StopIteration:
            raise AssertionError("the resolver asked for more dice than the test gave") from None
    return roll


# == Appendix C ===========================================================================
def test_c1_one_attack_no_save():
    # hit 3+ = 4/6, S4 v T4 wounds 4+ = 3/6, no save: 4/6 * 3/6 = 1/3
    assert mean("A1 BS3+ S4 AP0 D1", "T4 Sv- W1") == approx(F(1, 3))


def test_c2_cover_worsens_bs_not_the_save():
    # BS3+ -> 4+: 3/6 * 3/6 = 1/4
    assert mean("A1 BS3+ S4 AP0 D1", "T4 Sv- W1", cover=True) == approx(F(1, 4))
    # the save is unchanged: Sv4+ lets 3/6 through with or without cover
    assert mean("A1 BS3+ S4 AP0 D1", "T4 Sv4+ W1") == approx(F(1, 3) * F(1, 2))
    assert mean("A1 BS3+ S4 AP0 D1", "T4 Sv4+ W1", cover=True) == approx(F(1, 4) * F(1, 2))


@pytest.mark.parametrize("ability", ["IGNORES COVER", "PSYCHIC"])
def test_c3_ignores_cover_and_psychic(ability):
    # cover is cancelled (or ignored): back to 4/6 * 3/6 = 1/3
    assert mean(f"A1 BS3+ S4 AP0 D1 [{ability}]", "T4 Sv- W1", cover=True) == approx(F(1, 3))


def test_c4_cover_outside_the_cap():
    # BS4+ with cover -> 5+, then -1 to hit: only a raw 6 hits (1/6); 12 attacks -> 2 hits;
    # S10 v T4 wounds on 2+ (5/6): 12 * 1/6 * 5/6 = 5/3 kills
    assert mean("A12 BS4+ S10 AP0 D1", "12x T4 Sv- W1", "models_destroyed",
                hit_mod=-1, cover=True) == approx(F(5, 3))


def test_c5_heavy_absorbed_by_the_cap():
    # +1 alone: BS4+ hits on raw 3+ = 4/6; S4 v T4 = 3/6 -> 1/3; HEAVY adds nothing more
    plus_one = mean("A1 BS4+ S4 AP0 D1", "T4 Sv- W1", hit_mod=1)
    both = mean("A1 BS4+ S4 AP0 D1 [HEAVY]", "T4 Sv- W1", hit_mod=1, stationary=True)
    assert plus_one == approx(F(1, 3))
    assert both == approx(F(1, 3))


def test_c6_lance_absorbed_by_the_cap():
    # WS3+ = 4/6; S4 v T4 with +1 wounds on 3+ = 4/6 -> 4/9, with or without LANCE
    assert mean("Melee A1 WS3+ S4 AP0 D1", "T4 Sv- W1", wound_mod=1) == approx(F(4, 9))
    assert mean("Melee A1 WS3+ S4 AP0 D1 [LANCE]", "T4 Sv- W1", wound_mod=1,
                charged=True) == approx(F(4, 9))


def test_c7_strength_change_not_capped():
    # S4+2 = S6 > T5: 3+ = 4/6 (S4 v T5 would need 5+); 4/6 * 4/6 = 4/9
    assert mean("A1 BS3+ S4 AP0 D1", "T5 Sv- W1", strength_mod=2) == approx(F(4, 9))
    assert mean("A1 BS3+ S4 AP0 D1", "T5 Sv- W1") == approx(F(4, 6) * F(2, 6))


def test_c8_sustained_hits_1():
    # hits per attack: 4/6 + 1/6 (the extra hit) = 5/6; then S8 v T4 2+ = 5/6 -> 25/36
    assert mean("A1 BS3+ S8 AP0 D1 [SUSTAINED HITS 1]", "3x T4 Sv- W1") == approx(F(25, 36))


def test_c9_lethal_hits_wound_on_6():
    # S2 v T4 (2S <= T) wounds on 6+; BS4+: crit 1/6 auto-wounds, raw 4-5 (2/6) then 1/6:
    # 1/6 + 2/6 * 1/6 = 2/9
    assert mean("A1 BS4+ S2 AP0 D1 [LETHAL HITS]", "T4 Sv- W1") == approx(F(2, 9))


def test_c10_twin_linked():
    # TORRENT (auto hit), S4 v T4: 1/2 + 1/2 * 1/2 = 3/4
    assert mean("A1 BSN/A S4 AP0 D1 [TORRENT, TWIN-LINKED]", "T4 Sv- W1") == approx(F(3, 4))


def test_c11_reroll_ones():
    # P(hit) = 4/6 + 1/6 * 4/6 = 7/9; S8 v T4 = 5/6
    assert mean("A1 BS3+ S8 AP0 D1", "T4 Sv- W1", reroll_hits="ones") == approx(F(7, 9) * F(5, 6))


def test_c12_invuln_better_than_armour():
    # Sv3+ AP-2 -> 5+, InSv 4+ is better: saved on 4+, unsaved 3/6; 5/6 wound -> 5/12
    assert mean("A1 BSN/A S8 AP-2 D1 [TORRENT]", "T4 Sv3+ InSv4+ W1") == approx(F(5, 12))


def test_c13_armour_better_than_invuln():
    # Sv2+ AP-1 -> 3+ beats InSv4+: unsaved on 1-2 = 2/6; 5/6 * 2/6 = 5/18
    assert mean("A1 BSN/A S8 AP-1 D1 [TORRENT]", "T4 Sv2+ InSv4+ W1") == approx(F(5, 18))


@pytest.mark.parametrize("weapon, target, options, dice", [
    # [BLAST 2] A3 v 12 models: 3 + 2 * (12 // 5) = 7 dice
    ("A3 BS3+ S8 AP0 D1 [BLAST 2]", "12x T4 Sv- W1", {}, 7),
    # [CLEAVE 1] A3 v 16 models: 3 + 3 = 6 dice
    ("Melee A3 WS3+ S8 AP0 D1 [CLEAVE 1]", "16x T4 Sv- W1", {}, 6),
    # [RAPID FIRE 1] A1 at half range: 2 dice; not at half range: 1 die
    ("A1 BS3+ S8 AP0 D1 [RAPID FIRE 1]", "5x T4 Sv- W1", {"half_range": True}, 2),
    ("A1 BS3+ S8 AP0 D1 [RAPID FIRE 1]", "5x T4 Sv- W1", {}, 1),
    # [BLAST] (X = 1) v 9 models: 9 // 5 = 1 extra die; v 4 models: none
    ("A2 BS3+ S8 AP0 D1 [BLAST]", "9x T4 Sv- W1", {}, 3),
    ("A2 BS3+ S8 AP0 D1 [BLAST]", "4x T4 Sv- W1", {}, 2),
])
def test_c14_blast_cleave_rapid_fire_dice(weapon, target, options, dice):
    # each die kills with 4/6 * 5/6 = 5/9, independently: kills ~ Binomial(dice, 5/9)
    p = F(5, 9)
    got = pmf(weapon, target, "models_destroyed", **options)
    assert len(got) == dice + 1
    assert got[-1] == approx(p ** dice)
    assert mean(weapon, target, "models_destroyed", **options) == approx(dice * p)


def test_c15_melta_halve_minus_order():
    # D6 + 2 (Melta), halved, -1, round up, >= 1 (``DD6`` is D D6; ``D6`` would be D 6):
    # raw 1 -> 3/2 - 1 = 0.5 -> 1; 2 -> 1; 3 -> 1.5 -> 2; 4 -> 2;
    # 5 -> 2.5 -> 3 (C15; the 10e order would give 4); 6 -> 3
    # TORRENT, S8 v T4 wounds 5/6, no save, W20 so damage = D
    got = pmf("A1 BSN/A S8 AP0 DD6 [TORRENT, MELTA 2]", "T4 Sv- W20", half_range=True,
              damage_halved=True, damage_minus=1)
    w = F(5, 6)
    assert got == approx([F(1, 6), w * F(2, 6), w * F(2, 6), w * F(2, 6)])
    # the face 5 itself, through the reference resolver: damage roll 5 -> 3 wounds
    trace = Trace()
    resolve([parse_weapon("A1 BSN/A S8 AP0 DD6 [TORRENT, MELTA 2]")],
            parse_target("T4 Sv- W20"), *_options(half_range=True, damage_halved=True,
                                                         damage_minus=1),
            roll=forced([2, 5]), trace=trace)
    assert trace.of("damage") == [(3,)]


def test_c16_fnp_per_wound():
    # forced: wound 2+ on a 2, D2, FNP rolls 1 (lost) and 6 (saved) -> 1 wound lost
    out = resolve([parse_weapon("A1 BSN/A S8 AP0 D2 [TORRENT]")],
                  parse_target("T4 Sv- W5 FNP5+"), roll=forced([2, 1, 6]))
    assert out.wounds_lost == 1
    # exact: each of the 2 wounds is lost with 4/6: 0 -> 1/6 + 5/6 * 1/9,
    # 1 -> 5/6 * 4/9, 2 -> 5/6 * 4/9
    w = F(5, 6)
    assert pmf("A1 BSN/A S8 AP0 D2 [TORRENT]", "T4 Sv- W5 FNP5+") == approx(
        [F(1, 6) + w / 9, w * F(4, 9), w * F(4, 9)])


def test_c17_devastating_d3_vs_w2():
    # crits on 2+ make every wound a critical wound; D3 -> 3 mortal wounds, the first two
    # destroy one W2 model, the third is lost: exactly 1 model whatever the saves
    weapon, target = "A1 BSN/A S4 AP0 D 3 [TORRENT, DEVASTATING WOUNDS]", "5x T4 Sv2+ InSv4+ W2"
    assert pmf(weapon, target, "models_destroyed", crit_wounds=2) == approx([F(1, 6), F(5, 6)])
    assert pmf(weapon, target, crit_wounds=2) == approx([F(1, 6), 0, F(5, 6)])
    # two critical wounds: one model each
    assert pmf("A2 BSN/A S4 AP0 D 3 [TORRENT, DEVASTATING WOUNDS]", target, "models_destroyed",
               crit_wounds=2) == approx([F(1, 36), F(10, 36), F(25, 36)])


def test_c18_hazardous():
    # one hazard roll per weapon, fails on 1-2: E = 1/3 mortal wound, 1 for MONSTER/VEHICLE
    r = mh.exact("A1 BS3+ S4 AP0 D1 [HAZARDOUS]", "T4 Sv- W1")
    assert r.mean("attacker_mortal_wounds") == approx(F(1, 3))
    r = mh.exact("A1 BS3+ S4 AP0 D1 [HAZARDOUS]", "T4 Sv- W1", attacker_monster_vehicle=True)
    assert r.pmf("attacker_mortal_wounds").tolist() == approx([F(2, 3), 0, 0, F(1, 3)])
    assert r.mean("attacker_mortal_wounds") == approx(1)
    # three weapons: three rolls
    r = mh.exact("3x Plasma: A1 BS3+ S8 AP-3 D2 [HAZARDOUS]", "T4 Sv- W1")
    assert r.mean("attacker_mortal_wounds") == approx(1)


def test_c19_snap_shooting():
    # only raw 6 hits whatever BS2+, +1 or crits on 5+; every hit is critical. With LETHAL
    # HITS and S1 v T10 (6+ to wound) a critical hit wounds automatically: P = 1/6 exactly
    # (a non-critical hit would need a 6 to wound; crits on 5+ would give 2/6)
    assert mean("A1 BS2+ S1 AP0 D1 [LETHAL HITS]", "T10 Sv- W1", overwatch=True, hit_mod=1,
                crit_hits=5) == approx(F(1, 6))


def test_c20_bs_clamp():
    # BS6+ with cover stays 6+: 1/6 * 5/6
    assert mean("A1 BS6+ S8 AP0 D1", "T4 Sv- W1", cover=True) == approx(F(5, 36))
    # with -1 to hit only a raw 6 hits (critical): still 5/36
    assert mean("A1 BS6+ S8 AP0 D1", "T4 Sv- W1", cover=True, hit_mod=-1) == approx(F(5, 36))
    # the clamp is on the net BS: cover + +1 to hit -> raw 5+ (2/6), not a BS7+ miss
    assert mean("A1 BS6+ S8 AP0 D1", "T4 Sv- W1", cover=True, hit_mod=1) == approx(F(10, 36))
    # BS2+ improved by 1 stays 2+ (never 1+): with -1 to hit, raw 3+ (4/6), not raw 2+
    assert mean("A1 BS2+ S8 AP0 D1", "T4 Sv- W1", skill_mod=1, hit_mod=-1) == \
        approx(F(4, 6) * F(5, 6))


# == abilities (issue 2) ==================================================================
def test_torrent_never_critical():
    # auto hits are not critical: SUSTAINED and LETHAL never trigger; cover and -1 to hit
    # do nothing. 1 hit, S4 v T4 = 1/2.
    weapon = "A1 BSN/A S4 AP0 D1 [TORRENT, SUSTAINED HITS 2, LETHAL HITS]"
    assert mean(weapon, "5x T4 Sv- W1") == approx(F(1, 2))
    assert mean(weapon, "5x T4 Sv- W1", cover=True, hit_mod=-1) == approx(F(1, 2))


def test_sustained_hits_2():
    # BS3+: 4/6 hits, crit 1/6 gives 1 + 2: E[hits] = 3/6 + 3 * 1/6 = 1; * 5/6
    assert mean("A1 BS3+ S8 AP0 D1 [SUSTAINED HITS 2]", "5x T4 Sv- W1") == approx(F(5, 6))


def test_lethal_auto_wound_is_not_a_critical_wound():
    # v T4 Sv2+ W2, S4 D2 [LETHAL HITS, DEVASTATING WOUNDS]:
    # crit hit (1/6) auto-wounds -> save fails on 1 (1/6) -> 2;
    # other hit (3/6) -> raw 4-5 wound (2/6), fails save 1/6 -> 2; raw 6 -> DW 2 mortal (1/6)
    # E = 1/6*1/6*2 + 3/6*(2/6*1/6*2 + 1/6*2) = 2/36 + 8/36 = 5/18
    # (if the auto-wound were critical it would add DW: 1/6*2 + 8/36 = 5/9)
    weapon = "A1 BS3+ S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS]"
    assert mean(weapon, "T4 Sv2+ W2") == approx(F(5, 18))


def test_lethal_auto_wound_ignores_anti():
    # ANTI-INFANTRY 4+ makes raw 4-6 critical wounds -> DW 2; the auto-wound still saves:
    # crit hit: 1/6 * 1/6 * 2 = 2/36; other hit 3/6 * 3/6 * 2 = 1/2 -> 5/9
    weapon = "A1 BS3+ S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS, ANTI-INFANTRY 4+]"
    assert mean(weapon, "T4 Sv2+ W2 [INFANTRY]") == approx(F(5, 9))
    # ANTI does nothing against a target without the keyword: as the previous test
    assert mean(weapon, "T4 Sv2+ W2 [VEHICLE]") == approx(F(5, 18))


def test_devastating_after_normal_damage_on_the_wounded_model():
    # forced dice, W3 models, D2, crits 6: wounds [6 (DW), 4 (normal)]; save 1 -> 2 damage
    # on model A (1 left); then the DW 2 mortal wounds go to the wounded model A first:
    # 1 wound destroys it, the other is lost -> 3 wounds lost, 1 model destroyed
    trace = Trace()
    out = resolve([parse_weapon("A2 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS]")],
                  parse_target("3x T4 Sv4+ W3"), roll=forced([6, 4, 1]), trace=trace)
    assert (out.wounds_lost, out.models_destroyed) == (3, 1)
    assert [e[0] for e in trace.events if e[0] in ("damage", "mortal")] == ["damage", "mortal"]
    # exact: A1 crits-only version, DW D3 v W3 after nothing: 3 wounds on one model
    assert pmf("A1 BSN/A S4 AP0 D 3 [TORRENT, DEVASTATING WOUNDS]", "2x T4 Sv2+ W2",
               "models_destroyed", crit_wounds=2) == approx([F(1, 6), F(5, 6)])


def test_twin_linked_with_noncrit_policy():
    # TWIN-LINKED grants 'failed'; the user's 'noncrit' covers it: re-roll every non-6.
    # P(crit) = 1/6 + 5/6 * 1/6 = 11/36 -> DW D1 v W1 with Sv2+: unsaved ordinary wounds
    # P(raw 4-5 final) = 5/6 * 2/6 = 10/36, times save fail 1/6
    weapon = "A1 BSN/A S4 AP0 D1 [TORRENT, TWIN-LINKED, DEVASTATING WOUNDS]"
    assert mean(weapon, "T4 Sv2+ W1", reroll_wounds="noncrit") == \
        approx(F(11, 36) + F(10, 36) * F(1, 6))
    # alone: failed only: crit 1/6 + 3/6 * 1/6 = 9/36; wound 4-5: 2/6 + 3/6 * 2/6 = 18/36
    assert mean(weapon, "T4 Sv2+ W1") == approx(F(9, 36) + F(18, 36) * F(1, 6))


def test_melta_only_at_half_range():
    # D6 (mean 7/2) v D6+2 (11/2); TORRENT, 5/6 to wound, W20
    assert mean("A1 BSN/A S8 AP0 DD6 [TORRENT, MELTA 2]", "T4 Sv- W20") == \
        approx(F(5, 6) * F(7, 2))
    assert mean("A1 BSN/A S8 AP0 DD6 [TORRENT, MELTA 2]", "T4 Sv- W20", half_range=True) == \
        approx(F(5, 6) * F(11, 2))


def test_melta_adds_to_devastating_mortal_wounds():
    # DW mortal wounds equal the weapon's D with Melta: D2 + 2 = 4 on one W6 model (8.3 (2))
    assert mean("A1 BSN/A S4 AP0 D2 [TORRENT, DEVASTATING WOUNDS, MELTA 2]", "T4 Sv- W6",
                crit_wounds=2, half_range=True) == approx(F(5, 6) * 4)


def test_heavy():
    # BS4+: 3/6; HEAVY after staying put: +1 -> 4/6; moved: 3/6; not in overwatch (1/6)
    w = "A1 BS4+ S8 AP0 D1 [HEAVY]"
    assert mean(w, "T4 Sv- W1", stationary=True) == approx(F(4, 6) * F(5, 6))
    assert mean(w, "T4 Sv- W1") == approx(F(3, 6) * F(5, 6))
    assert mean(w, "T4 Sv- W1", stationary=True, overwatch=True) == approx(F(1, 6) * F(5, 6))


def test_lance():
    # S4 v T4 4+; LANCE after a charge: 3+
    w = "Melee A1 WS3+ S4 AP0 D1 [LANCE]"
    assert mean(w, "T4 Sv- W1", charged=True) == approx(F(4, 6) * F(4, 6))
    assert mean(w, "T4 Sv- W1") == approx(F(4, 6) * F(3, 6))


def test_indirect_fire():
    # raw 1-5 fails: 1/6 hits (a 6 is a critical hit); re-rolls forbidden
    w = "A1 BS3+ S8 AP0 D1 [INDIRECT FIRE]"
    assert mean(w, "T4 Sv- W1", indirect=True) == approx(F(1, 6) * F(5, 6))
    assert mean(w, "T4 Sv- W1", indirect=True, reroll_hits="failed") == approx(F(5, 36))
    # stationary and spotted: raw 1-3 fails; cover worsens BS3+ to 4+: raw 4+ = 3/6
    assert mean(w, "T4 Sv- W1", indirect=True, stationary=True, spotted=True) == \
        approx(F(3, 6) * F(5, 6))
    # with BS2+ the cover makes 3+, but raw 1-3 still fail: 3/6
    assert mean("A1 BS2+ S8 AP0 D1 [INDIRECT FIRE]", "T4 Sv- W1", indirect=True,
                stationary=True, spotted=True) == approx(F(3, 6) * F(5, 6))
    # IGNORES COVER removes the indirect-fire cover, not the raw 1-3 failure
    assert mean("A1 BS3+ S8 AP0 D1 [INDIRECT FIRE, IGNORES COVER]", "T4 Sv- W1",
                indirect=True, stationary=True, spotted=True) == approx(F(3, 6) * F(5, 6))
    assert mean("A1 BS4+ S8 AP0 D1 [INDIRECT FIRE, IGNORES COVER]", "T4 Sv- W1",
                indirect=True, stationary=True, spotted=True) == approx(F(3, 6) * F(5, 6))
    assert mean("A1 BS4+ S8 AP0 D1 [INDIRECT FIRE]", "T4 Sv- W1", indirect=True,
                stationary=True, spotted=True) == approx(F(2, 6) * F(5, 6))


def test_stealth_is_cover():
    # STEALTH on the target gives cover: BS3+ -> 4+; IGNORES COVER cancels it
    assert mean("A1 BS3+ S8 AP0 D1", "T4 Sv- W1 [STEALTH]") == approx(F(3, 6) * F(5, 6))
    assert mean("A1 BS3+ S8 AP0 D1 [IGNORES COVER]", "T4 Sv- W1 [STEALTH]") == \
        approx(F(4, 6) * F(5, 6))


def test_cover_never_applies_to_melee():
    assert mean("Melee A1 WS3+ S8 AP0 D1", "T4 Sv- W1", cover=True) == \
        approx(F(4, 6) * F(5, 6))


@pytest.mark.parametrize("hit_mod, expected", [(1, F(4, 6)), (2, F(4, 6)), (3, F(4, 6)),
                                               (-1, F(2, 6)), (-2, F(2, 6)), (0, F(3, 6))])
def test_hit_modifier_cap(hit_mod, expected):
    # BS4+: +1 -> raw 3+; any +N is +1; -N is -1 -> raw 5+
    assert mean("A1 BS4+ S8 AP0 D1", "T4 Sv- W1", hit_mod=hit_mod) == \
        approx(expected * F(5, 6))


def test_hit_modifier_without_cap():
    # roll_mod_cap=False: +2 on BS4+ -> raw 2+ = 5/6
    assert mean("A1 BS4+ S8 AP0 D1", "T4 Sv- W1", hit_mod=2, roll_mod_cap=False) == \
        approx(F(5, 6) * F(5, 6))


@pytest.mark.parametrize("wound_mod, expected", [(1, F(4, 6)), (2, F(4, 6)), (-1, F(2, 6)),
                                                 (-3, F(2, 6))])
def test_wound_modifier_cap(wound_mod, expected):
    # S4 v T4 4+: +N -> 3+, -N -> 5+
    assert mean("A1 BSN/A S4 AP0 D1 [TORRENT]", "T4 Sv- W1", wound_mod=wound_mod) == \
        approx(expected)


def test_modifiers_never_beat_an_unmodified_1():
    # +1 to wound with S8 v T4 (2+): a raw 1 still fails: 5/6
    assert mean("A1 BSN/A S8 AP0 D1 [TORRENT]", "T4 Sv- W1", wound_mod=1) == approx(F(5, 6))


@pytest.mark.parametrize("policy, p_hit", [
    ("ones", F(4, 6) + F(1, 6) * F(4, 6)),       # 7/9
    ("failed", F(4, 6) + F(2, 6) * F(4, 6)),     # 8/9
    ("noncrit", F(1, 6) + F(5, 6) * F(4, 6)),    # keep only 6s; re-roll 3-5 too
    ("all", F(4, 6)),
])
def test_hit_rerolls(policy, p_hit):
    assert mean("A1 BS3+ S8 AP0 D1", "T4 Sv- W1", reroll_hits=policy) == \
        approx(p_hit * F(5, 6))


def test_noncrit_reroll_fishes_for_sustained():
    # re-roll all non-6: P(6) = 1/6 + 5/6 * 1/6 = 11/36; P(3-5) = 5/6 * 3/6 = 15/36
    # E[hits] with SUSTAINED HITS 1 = 15/36 + 2 * 11/36 = 37/36; * 5/6
    assert mean("A1 BS3+ S8 AP0 D1 [SUSTAINED HITS 1]", "5x T4 Sv- W1",
                reroll_hits="noncrit") == approx(F(37, 36) * F(5, 6))


@pytest.mark.parametrize("policy, p_wound", [
    ("ones", F(3, 6) + F(1, 6) * F(3, 6)),
    ("failed", F(3, 6) + F(3, 6) * F(3, 6)),
    ("noncrit", F(1, 6) + F(5, 6) * F(3, 6)),
])
def test_wound_rerolls(policy, p_wound):
    assert mean("A1 BSN/A S4 AP0 D1 [TORRENT]", "T4 Sv- W1", reroll_wounds=policy) == \
        approx(p_wound)


def test_save_rerolls():
    # Sv4+ AP0: fails 3/6; re-roll failed: 3/6 * 3/6 = 1/4; re-roll ones: 2/6 + 1/6 * 3/6
    w = "A1 BSN/A S8 AP0 D1 [TORRENT]"
    assert mean(w, "T4 Sv4+ W1", reroll_saves="failed") == approx(F(5, 6) * F(1, 4))
    assert mean(w, "T4 Sv4+ W1", reroll_saves="ones") == \
        approx(F(5, 6) * (F(2, 6) + F(1, 6) * F(3, 6)))


def test_critical_hits_on_5():
    # BS3+ with SUSTAINED HITS 1 and crits on 5+: E[hits] = 2/6 + 2 * 2/6 = 1
    assert mean("A1 BS3+ S8 AP0 D1 [SUSTAINED HITS 1]", "5x T4 Sv- W1", crit_hits=5) == \
        approx(F(5, 6))
    # crits on 5+ with BS6+: a 5 is a critical hit, and so a hit: 2/6
    assert mean("A1 BS6+ S8 AP0 D1", "T4 Sv- W1", crit_hits=5) == approx(F(2, 6) * F(5, 6))


def test_critical_wounds_on_5():
    # S1 v T10 (6+), crits on 5+: wounds on 5-6 whatever S and T: 2/6
    assert mean("A1 BSN/A S1 AP0 D1 [TORRENT]", "T10 Sv- W1", crit_wounds=5) == approx(F(2, 6))
    # ANTI-VEHICLE 4+ against a VEHICLE: 3/6; the best of ANTI and crits-on-5+ applies
    w = "A1 BSN/A S1 AP0 D1 [TORRENT, ANTI-VEHICLE 4+]"
    assert mean(w, "T10 Sv- W1 [VEHICLE]", crit_wounds=5) == approx(F(3, 6))
    assert mean(w, "T10 Sv- W1 [MONSTER]", crit_wounds=5) == approx(F(2, 6))


@pytest.mark.parametrize("ap_mod, unsaved", [(0, F(3, 6)), (1, F(4, 6)), (-1, F(2, 6)),
                                             (-3, F(2, 6))])
def test_ap_modifier(ap_mod, unsaved):
    # AP-1 v Sv3+: 4+; improved to AP-2: 5+; worsened: AP0 -> 3+, never past AP0
    assert mean("A1 BSN/A S8 AP-1 D1 [TORRENT]", "T4 Sv3+ W1", ap_mod=ap_mod) == \
        approx(F(5, 6) * unsaved)


def test_invuln_unaffected_by_ap():
    # AP-4 v Sv2+ -> 6+, InSv5+ on the raw roll: saved on 5-6, unsaved 4/6
    assert mean("A1 BSN/A S8 AP-4 D1 [TORRENT]", "T4 Sv2+ InSv5+ W1") == \
        approx(F(5, 6) * F(4, 6))
    # ranged-only invulnerable saves do nothing against melee attacks: 6+ armour
    assert mean("Melee A1 WSN/A S8 AP-4 D1 [TORRENT]", "T4 Sv2+ InSv4+(ranged) W1") == \
        approx(F(5, 6) * F(5, 6))


@pytest.mark.parametrize("damage, options, expected", [
    ("2", {"damage_minus": 1}, 1),
    ("1", {"damage_halved": True}, 1),         # 0.5 -> 1
    ("3", {"damage_halved": True}, 2),         # 1.5 -> 2
    ("4", {"damage_halved": True, "damage_minus": 1}, 1),   # 4/2 - 1 = 1
    ("5", {"damage_halved": True, "damage_minus": 1}, 2),   # 2.5 - 1 = 1.5 -> 2
    ("3", {"damage_plus": 1, "damage_halved": True}, 2),    # (3 + 1) / 2 = 2
    ("1", {"damage_minus": 3}, 1),             # never below 1
])
def test_damage_modifier_order(damage, options, expected):
    # TORRENT, 5/6 to wound, W20: damage pmf has mass 5/6 at the final D
    got = pmf(f"A1 BSN/A S8 AP0 D {damage} [TORRENT]", "T4 Sv- W20", **options)
    assert len(got) == expected + 1
    assert got[expected] == approx(F(5, 6))


def test_defender_damage_reduction_not_on_devastating_by_default():
    # DW mortal wounds are never allocated: "halve damage" on allocation does not apply
    # (8.3 (2), defender_dmg_mods_vs_dw=by_trigger). D4 v W6: 4, or 2 when it applies.
    w = "A1 BSN/A S4 AP0 D4 [TORRENT, DEVASTATING WOUNDS]"
    assert mean(w, "T4 Sv- W6", crit_wounds=2, damage_halved=True) == approx(F(5, 6) * 4)
    assert mean(w, "T4 Sv- W6", crit_wounds=2, damage_halved=True,
                defender_dmg_mods_vs_dw="always") == approx(F(5, 6) * 2)


def test_fnp_all_and_mortal_only():
    # mortal-only FNP does nothing against normal damage: D2 on 5/6 -> 5/3
    w = "A1 BSN/A S8 AP0 D2 [TORRENT]"
    assert mean(w, "T4 Sv- W5 FNP4+(mortal)") == approx(F(5, 6) * 2)
    # ... and stops half of the DW mortal wounds
    dw = "A1 BSN/A S8 AP0 D2 [TORRENT, DEVASTATING WOUNDS]"
    assert mean(dw, "T4 Sv- W5 FNP4+(mortal)", crit_wounds=2) == approx(F(5, 6) * 2 * F(1, 2))
    # FNP 5+ against everything: each wound lost with 4/6
    assert mean(w, "T4 Sv- W5", fnp=5) == approx(F(5, 6) * 2 * F(4, 6))
    assert mean(dw, "T4 Sv- W5", fnp=5, crit_wounds=2) == approx(F(5, 6) * 2 * F(4, 6))
    # the better of the two applies to mortal wounds, only the general one to damage
    assert mean(dw, "T4 Sv- W5 FNP6+ FNP4+(mortal)", crit_wounds=2) == \
        approx(F(5, 6) * 2 * F(1, 2))
    assert mean(w, "T4 Sv- W5 FNP6+ FNP4+(mortal)") == approx(F(5, 6) * 2 * F(5, 6))


def test_excess_damage_is_lost():
    # D3 against W2 models, 2 unsaved wounds: 2 models, 4 wounds, never 6
    got = pmf("A2 BSN/A S8 AP0 D 3 [TORRENT]", "3x T4 Sv- W2")
    assert got == approx([F(1, 36), F(0), F(10, 36), F(0), F(25, 36)])


def test_lethal_policy_ev_declines_in_the_9_4_example():
    # 9.4: S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS] v T5 Sv2+ InSv4+ W3.
    # per critical hit: auto-wound 2 * 1/6 = 1/3; rolling: 1/6 * 2 + 1/6 * 1/6 * 2 = 7/18.
    # ev must decline: the same pmf as 'never'. E[damage] per attack with 'never':
    # 4/6 hits * 7/18 = 7/27; with 'always': 3/6 * 7/18 + 1/6 * 1/3 = 1/4
    weapon, target = "A1 BS3+ S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS]", "T5 Sv2+ InSv4+ W3"
    assert mean(weapon, target, lethal_policy="never") == approx(F(7, 27))
    assert mean(weapon, target, lethal_policy="always") == approx(F(1, 4))
    assert pmf(weapon, target, lethal_policy="ev") == approx(
        pmf(weapon, target, lethal_policy="never"))


def test_lethal_policy_ev_accepts_when_better():
    # S4 v T8 (6+), no DW, Sv-: auto-wound 1 beats rolling 1/6: ev takes it (= always)
    weapon, target = "A1 BS3+ S4 AP0 D1 [LETHAL HITS]", "T8 Sv- W1"
    assert pmf(weapon, target, lethal_policy="ev") == approx(
        pmf(weapon, target, lethal_policy="always"))
    assert mean(weapon, target, lethal_policy="ev") == approx(F(1, 6) + F(3, 6) * F(1, 6))


def test_psychic_keeps_helpful_modifiers():
    # PSYCHIC ignores cover and -1, keeps +1: BS4+ with +1 -> raw 3+
    assert mean("A1 BS4+ S8 AP0 D1 [PSYCHIC]", "T4 Sv- W1", cover=True, hit_mod=1) == \
        approx(F(4, 6) * F(5, 6))
    assert mean("A1 BS4+ S8 AP0 D1 [PSYCHIC]", "T4 Sv- W1", cover=True, hit_mod=-1) == \
        approx(F(3, 6) * F(5, 6))


def test_keyword_scoped_ability():
    # [LETHAL HITS: VEHICLE] only against VEHICLE targets (S4 v T8, 6+ to wound)
    w = "A1 BS3+ S4 AP0 D1 [LETHAL HITS: VEHICLE]"
    assert mean(w, "T8 Sv- W1 [VEHICLE]") == approx(F(1, 6) + F(3, 6) * F(1, 6))
    assert mean(w, "T8 Sv- W1 [INFANTRY]") == approx(F(4, 6) * F(1, 6))


def test_duplicate_abilities_do_not_stack():
    # SUSTAINED HITS 1 and 2: only 2 applies: E[hits] = 3/6 + 3/6 = 1
    assert mean("A1 BS3+ S8 AP0 D1 [SUSTAINED HITS 1, SUSTAINED HITS 2]", "5x T4 Sv- W1") == \
        approx(F(5, 6))


def test_unit_destroyed_stops_remaining_attacks():
    # 10 attacks at one W1 model: at most 1 wound is lost
    r = mh.exact("A10 BS3+ S8 AP0 D1", "T4 Sv- W1")
    assert len(r.pmf("damage")) == 2
    assert r.probability("unit_destroyed") == approx(1 - (1 - F(4, 6) * F(5, 6)) ** 10)


def _options(**options):
    from tests.wh40k.oracle import split_options

    situation, modifiers, rules, _ = split_options(**options)
    return situation, modifiers, rules


def test_lethal_policy_ev_counts_fnp_against_mortal_wounds():
    # S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS] v T4 Sv2+ W5 FNP4+(mortal).
    # Per critical hit: auto-wound -> save fails on a 1 -> 1/6 * 2 = 1/3 wounds lost (the
    # mortal-only FNP does not touch normal damage). Rolling: raw 4-5 (2/6) -> 1/6 * 2 = 1/9;
    # raw 6 (1/6) -> DW 2 mortal wounds, each stopped on 4+ -> 1/6 * 1 = 1/6; total 5/18.
    # 1/3 > 5/18, so 'ev' must take the auto-wound: E = 3/6 * 5/18 + 1/6 * 1/3 = 7/36
    # ('always'), not 4/6 * 5/18 = 5/27 ('never'). Damage is wounds lost after FNP (issue 2).
    weapon = "A1 BS3+ S4 AP0 D2 [LETHAL HITS, DEVASTATING WOUNDS]"
    target = "T4 Sv2+ W5 FNP4+(mortal)"
    assert mean(weapon, target, lethal_policy="always") == approx(F(7, 36))
    assert mean(weapon, target, lethal_policy="never") == approx(F(5, 27))
    assert mean(weapon, target, lethal_policy="ev") == approx(F(7, 36))


def test_lethal_policy_ev_counts_the_one_model_cap():
    # S4 AP0 D4 [LETHAL HITS, DEVASTATING WOUNDS] v T4 Sv3+ W2, defender halves damage
    # (on allocation, so not the DW mortal wounds). Per critical hit: auto-wound -> save
    # fails on 1-2 (1/3) -> D 4/2 = 2 -> 2/3. Rolling: raw 4-5 (2/6) -> 1/3 * 2 = 2/9;
    # raw 6 (1/6) -> 4 mortal wounds on one W2 model = 2 lost -> 1/3; total 5/9 < 2/3.
    # So 'ev' must auto-wound: E = 3/6 * 5/9 + 1/6 * 2/3 = 7/18 ('always'), not
    # 4/6 * 5/9 = 10/27 ('never'). Counting 4 mortal wounds instead of 2 flips the choice.
    weapon, target = "A1 BS3+ S4 AP0 D4 [LETHAL HITS, DEVASTATING WOUNDS]", "T4 Sv3+ W2"
    assert mean(weapon, target, lethal_policy="always", damage_halved=True) == approx(F(7, 18))
    assert mean(weapon, target, lethal_policy="never", damage_halved=True) == approx(F(10, 27))
    assert mean(weapon, target, lethal_policy="ev", damage_halved=True) == approx(F(7, 18))
