"""Focus/fury policy comparisons (rules section 9) and attacks to kill (section 10)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from mathhammer.errors import OptionError, UnsupportedError
from mathhammer.warmachine import (FocusPolicy, Rules, attacks_to_kill, compare_focus,
                                   exact, focus_policies, simulate)
from mathhammer.warmachine.parse import parse_attack

FIST = "Fist: MAT5 POW12"           # need 7 against DEF 12
WALL = "Wall: DEF12 ARM14 BOXES200"  # POW - ARM = -2, never capped


def test_policy_enumeration():
    assert [p.name for p in focus_policies(1)] == ["no spend", "boost damage", "boost attack",
                                                   "buy attack"]
    two = {p.name for p in focus_policies(2)}
    assert {"boost attack + boost damage", "2x buy attack", "boost attack + buy attack",
            "boost damage + buy attack"} <= two
    # a roll is boosted at most once: two damage boosts need two attacks
    assert "2x boost damage" not in two
    assert "2x boost damage" in {p.name for p in focus_policies(2, attacks=2)}
    # two attack boosts need two attacks: only with a bought one
    assert "2x boost attack + buy attack" not in two
    assert "2x boost attack" not in {p.name for p in focus_policies(2, attacks=1)}
    with pytest.raises(OptionError):
        focus_policies(-1)


REFERENCE_ONE_POINT = {  # E[damage], P(>=1), P(>=5), P(>=10)
    "no spend": (F(35, 12), 0.56713, 0.34028, 0.01620),
    "boost attack": (F(245, 54), 0.88220, 0.52932, 0.02521),
    "boost damage": (F(119, 24), 0.58333, 0.52932, 0.21875),
    "buy attack": (F(35, 6), 0.81262, 0.60546, 0.20281),
}


@pytest.mark.parametrize("policy", focus_policies(1), ids=lambda p: p.name)
def test_one_point_reference_table(policy):
    mean, p1, p5, p10 = REFERENCE_ONE_POINT[policy.name]
    result = exact(policy.apply(parse_attack(FIST)), WALL)
    damage = result.distributions["damage"]
    assert result.mean("damage") == pytest.approx(float(mean), abs=1e-12)
    for k, p in ((1, p1), (5, p5), (10, p10)):
        assert damage.probability_at_least(k) == pytest.approx(p, abs=5e-6), k


def test_two_point_references():
    both = exact(FocusPolicy(boost_attacks=1, boost_damage=1).apply(parse_attack(FIST)), WALL)
    assert both.mean("damage") == pytest.approx(833 / 108, abs=1e-12)
    assert both.distributions["damage"].probability_at_least(10) == pytest.approx(0.34028,
                                                                                 abs=5e-6)
    buys = exact(FocusPolicy(buy_attacks=2).apply(parse_attack(FIST)), WALL)
    assert buys.mean("damage") == pytest.approx(35 / 4, abs=1e-12)
    assert buys.distributions["damage"].probability_at_least(10) == pytest.approx(0.42442,
                                                                                 abs=5e-6)


def test_single_box_kill_ranking():
    # need 9, POW - ARM = -1 against one box
    table = compare_focus("Spear: MAT3 POW12", "Grunt: DEF12 ARM13 BOXES1", points=1)
    p_kill = dict(zip(table["policy"], table["p_kill"]))
    assert p_kill["no spend"] == pytest.approx(10 / 36, abs=1e-12)
    assert p_kill["boost attack"] == pytest.approx(160 / 216, abs=1e-12)
    assert p_kill["boost damage"] == pytest.approx(10 / 36, abs=1e-12)
    assert p_kill["buy attack"] == pytest.approx(1 - (26 / 36) ** 2, abs=1e-12)
    assert list(table["policy"])[:2] == ["boost attack", "buy attack"]
    assert table.loc[table["policy"] == "boost attack", "rank_p_kill"].item() == 1
    # the damage boost is only spent on hits: 10/36 of the time
    wasted = table.loc[table["policy"] == "boost damage"]
    assert wasted["expected_spent"].item() == pytest.approx(10 / 36, abs=1e-12)
    assert wasted["expected_unspent"].item() == pytest.approx(26 / 36, abs=1e-12)


def test_charge_damage_is_not_boosted_twice():
    policy = FocusPolicy(boost_damage=1)
    result = exact(policy.apply(parse_attack("Fist: MAT0 POW12 [AUTO HIT, CHARGE]")), WALL)
    assert result.mean("boosts_spent") == 0
    assert result.mean("damage") == pytest.approx(10.5 - 2)


def test_compare_focus_by_simulation_agrees():
    ex = compare_focus(FIST, "Jack: DEF12 ARM14 BOXES12", points=2)
    mc = compare_focus(FIST, "Jack: DEF12 ARM14 BOXES12", points=2, method="simulate",
                       trials=40_000, seed=3)
    merged = ex.merge(mc, on="policy", suffixes=("_exact", "_mc"))
    assert len(merged) == len(ex)
    for _, row in merged.iterrows():
        se = (row["p_kill_exact"] * (1 - row["p_kill_exact"]) / 40_000) ** 0.5
        assert abs(row["p_kill_mc"] - row["p_kill_exact"]) <= 5 * se + 1e-12
    with pytest.raises(OptionError):
        compare_focus(FIST, WALL, points=1, method="guess")


def test_attacks_to_kill_references():
    one = attacks_to_kill("Sword: MAT5 POW10", "Solo: DEF12 ARM13 BOXES1")
    assert one.mean("attacks") == pytest.approx(144 / 77, abs=1e-9)
    p = F(21, 36) * F(33, 36)
    assert one.pmf("attacks")[3] == pytest.approx(float((1 - p) ** 2 * p), abs=1e-12)
    eight = attacks_to_kill("Sword: MAT5 POW10", "Solo: DEF12 ARM13 BOXES8")
    assert eight.mean("attacks") == pytest.approx(4.3411, abs=5e-5)


def test_attacks_to_kill_agrees_with_simulation():
    dist = attacks_to_kill("Sword: MAT5 POW10", "Solo: DEF12 ARM13 BOXES8").distributions[
        "attacks"]
    # P(destroyed within k attacks) = P(N <= k): simulate k attacks
    for k in (3, 5):
        mc = simulate(f"{k}x Sword: MAT5 POW10", "Solo: DEF12 ARM13 BOXES8", trials=40_000,
                      seed=k)
        expected = float(dist.probabilities[: k + 1].sum())
        se = (expected * (1 - expected) / 40_000) ** 0.5
        assert abs(mc.probability("unit_destroyed") - expected) <= 5 * se


def test_attacks_to_kill_impossible():
    with pytest.raises(UnsupportedError):
        attacks_to_kill("Pin: MAT6 POW1", "Jack: DEF12 ARM25 BOXES5")


def test_unsupported_switches_say_so():
    with pytest.raises(OptionError, match="apply_crippling"):
        exact(FIST + " [CRIPPLED MIND]", WALL)
    with pytest.raises(UnsupportedError, match="retarget"):
        simulate(FIST, WALL, trials=10, rules=Rules(retarget_after_kill=False))
    with pytest.raises(OptionError):
        Rules(aoe_miss_coverage=1.5)
