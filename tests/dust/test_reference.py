"""The exact reference values of the Dust Tactics rules reference (section 12), reproduced
by the exact engine. Expected values are the reference's own fractions or closed forms
computed here by hand (binomial sums), never read back from the engine."""

from fractions import Fraction as F
from math import comb

import pytest

from mathhammer.dust import (
    effective_probability, exact, exact_pmfs, fire_orders, weapon_breakdown,
)

POUNDER = ["17-pounder: 4/1", ".50 cal: 3/1", ".30 cal: 3/1"]
GRENADIERS = "5x Laser Grenadier: INFANTRY2"


def tail(n, k, p):
    """P(at least k successes of n) by the binomial sum."""
    return sum(comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1))


def mean(pmf):
    return sum(k * p for k, p in enumerate(pmf))


# -- 12.1 effective per-die probabilities ----------------------------------------------------
@pytest.mark.parametrize("tags, sustained, double, expected", [
    ("", False, False, F(1, 3)), ("", True, False, F(5, 9)),
    ("[SOFT COVER]", False, False, F(2, 9)), ("[SOFT COVER]", True, False, F(10, 27)),
    ("[HARD COVER]", False, False, F(1, 9)), ("[HARD COVER]", True, False, F(5, 27)),
    ("[HARD COVER, DAMAGE RESILIENT]", False, False, F(2, 27)),
    ("[HARD COVER, DAMAGE RESILIENT]", True, False, F(10, 81)),
    ("", False, True, F(2, 3)), ("", True, True, F(8, 9)),
])
def test_effective_probability_per_die(tags, sustained, double, expected):
    weapon = "Gun: 1/1" + (" [DOUBLE SUCCESS]" if double else "")
    pmf = exact_pmfs(weapon, f"9x T: INFANTRY2 {tags}", sustained=sustained)["damage"]
    assert pmf[1] == expected
    cover = {"": 0, "[SOFT COVER]": 2}.get(tags, 4)
    assert effective_probability(sustained=sustained, cover_faces=cover, double=double,
                                 damage_resilient="RESILIENT" in tags) == expected


# -- 12.2 binomial tails ---------------------------------------------------------------------
TABLE = {1: [.3333, 0, 0, 0, 0, 0], 2: [.5556, .1111, 0, 0, 0, 0],
         3: [.7037, .2593, .0370, 0, 0, 0], 4: [.8025, .4074, .1111, .0123, 0, 0],
         5: [.8683, .5391, .2099, .0453, .0041, 0], 6: [.9122, .6488, .3196, .1001, .0178, .0014],
         7: [.9415, .7366, .4294, .1733, .0453, .0069], 8: [.9610, .8049, .5318, .2586, .0879, .0197],
         10: [.9827, .8960, .7009, .4407, .2131, .0766],
         12: [.9923, .9460, .8189, .6069, .3685, .1777]}


@pytest.mark.parametrize("n", sorted(TABLE))
def test_binomial_tails(n):
    result = exact(f"Gun: {n}/1", "20x T: INFANTRY1")
    at_least = result.at_least("hits")
    for k, printed in enumerate(TABLE[n], start=1):
        got = float(at_least.get(k, 0.0))
        assert got == pytest.approx(printed, abs=5e-5)
        assert got == pytest.approx(float(tail(n, k, F(1, 3))), abs=1e-12)


def test_exact_pmfs_n3_n4():
    assert exact_pmfs("Gun: 4/1", "9x T: INFANTRY1")["hits"] == (F(16, 81), F(32, 81), F(8, 27),
                                                                  F(8, 81), F(1, 81))
    assert exact_pmfs("Gun: 3/1", "9x T: INFANTRY1")["hits"] == (F(8, 27), F(4, 9), F(2, 9),
                                                                  F(1, 27))


@pytest.mark.parametrize("n, printed", [(1, .5556), (2, .8025), (3, .9122), (4, .9610),
                                        (6, .9923)])
def test_sustained_at_least_one(n, printed):
    pmf = exact_pmfs(f"Gun: {n}/1", "9x T: INFANTRY1", sustained=True)["hits"]
    assert 1 - pmf[0] == 1 - F(4, 9) ** n
    assert float(1 - pmf[0]) == pytest.approx(printed, abs=5e-5)


# -- 12.3 scenario D1: the Pounder's volley --------------------------------------------------
def test_d1_losses_distribution():
    pmf = exact_pmfs(POUNDER, GRENADIERS)
    assert pmf["models_destroyed"] == (F(1024, 59049), F(5120, 59049), F(1280, 6561),
                                       F(5120, 19683), F(4480, 19683), F(4195, 19683))
    assert mean(pmf["hits"]) == F(10, 3)
    assert mean(pmf["models_destroyed"]) == F(190925, 59049)
    assert pmf["hits"][3] == F(5120, 19683)


def test_d1_per_weapon_split():
    """P(17-pounder 2, .50 1, .30 0) = 256/6561, from the per-weapon exact pmfs."""
    p17 = exact_pmfs(POUNDER[0], GRENADIERS)["hits"][2]
    p50 = exact_pmfs(POUNDER[1], GRENADIERS)["hits"][1]
    p30 = exact_pmfs(POUNDER[2], GRENADIERS)["hits"][0]
    assert p17 * p50 * p30 == F(256, 6561)


def _d1_variant(p_die):
    """E[losses] and P(destroyed) of 10 dice at per-die probability p_die against 5 models."""
    pmf = [comb(10, k) * p_die ** k * (1 - p_die) ** (10 - k) for k in range(11)]
    return sum(min(k, 5) * p for k, p in enumerate(pmf)), sum(pmf[5:])


@pytest.mark.parametrize("tags, sustained, double, e_printed, p_printed, p_die", [
    ("", True, False, 4.6249, 0.7501, F(5, 9)),
    ("[SOFT COVER]", False, False, 2.2094, 0.0498, F(2, 9)),
    ("[HARD COVER]", False, False, 1.1108, 0.0026, F(1, 9)),
    ("[HARD COVER]", True, False, 1.8470, 0.0240, F(5, 27)),
    ("", False, True, 4.9000, 0.9234, F(2, 3)),
])
def test_d1_variants(tags, sustained, double, e_printed, p_printed, p_die):
    weapons = [w + (" [DOUBLE SUCCESS]" if double else "") for w in POUNDER]
    pmf = exact_pmfs(weapons, f"{GRENADIERS} {tags}", sustained=sustained)
    e_hand, p_hand = _d1_variant(p_die)
    assert mean(pmf["models_destroyed"]) == e_hand
    assert pmf["models_destroyed"][5] == p_hand
    assert float(e_hand) == pytest.approx(e_printed, abs=5e-5)
    assert float(p_hand) == pytest.approx(p_printed, abs=5e-5)


def test_d1_exact_fractions_of_variants():
    assert exact_pmfs(POUNDER, GRENADIERS, sustained=True)["models_destroyed"][5] == \
        F(32290625, 43046721)
    doubled = [w + " [DOUBLE SUCCESS]" for w in POUNDER]
    assert exact_pmfs(doubled, GRENADIERS)["models_destroyed"][5] == F(18176, 19683)


# -- 12.4 scenario D2: split fire ------------------------------------------------------------
def test_d2_split_fire():
    squad = "2x Grenadier: INFANTRY2"
    results = fire_orders([(".30 cal: 3/1", squad), (".50 cal: 3/1", squad),
                         ("17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1",
                          "Luther: VEHICLE6 BOXES4")])
    on_squad, on_luther = results
    assert on_squad.probability("unit_destroyed") == pytest.approx(473 / 729, abs=1e-12)
    assert on_squad.probability("damage_wasted") == pytest.approx(233 / 729, abs=1e-12)
    assert on_squad.mean("overkill") == pytest.approx(320 / 729, abs=1e-12)
    # the .30 alone destroys the squad with P = 7/27: the .50 still fires
    alone = exact_pmfs(".30 cal: 3/1", squad)
    assert alone["models_destroyed"][2] == F(7, 27)
    shares = weapon_breakdown([".30 cal: 3/1", ".50 cal: 3/1"], squad)
    assert shares.loc[".50 cal", "p_redundant"] == pytest.approx(7 / 27, abs=1e-12)
    assert shares["hits"].tolist() == pytest.approx([1.0, 1.0])
    assert on_luther.mean("hits") == pytest.approx(5 / 3, abs=1e-12)


@pytest.mark.parametrize("armour, dice, printed, e_hits", [
    (1, 7, [.9415, .7366, .4294, .1733], F(7, 3)), (2, 7, [.9415, .7366, .4294, .1733], F(7, 3)),
    (3, 6, [.9122, .6488, .3196, .1001], F(2)), (4, 6, [.9122, .6488, .3196, .1001], F(2)),
    (5, 5, [.8683, .5391, .2099, .0453], F(5, 3)), (6, 5, [.8683, .5391, .2099, .0453], F(5, 3)),
    (7, 4, [.8025, .4074, .1111, .0123], F(4, 3)),
])
def test_d2_17_pounder_against_vehicles(armour, dice, printed, e_hits):
    line = "17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1"
    pmf = exact_pmfs(line, f"Walker: VEHICLE{armour} BOXES9")["hits"]
    assert len(pmf) == dice + 1
    assert mean(pmf) == e_hits
    for h, value in enumerate(printed, start=1):
        assert sum(pmf[h:]) == tail(dice, h, F(1, 3))
        assert float(sum(pmf[h:])) == pytest.approx(value, abs=5e-5)


# -- 12.5 other checks -----------------------------------------------------------------------
def test_rangers_before_and_after_losses():
    full = exact_pmfs("4x Shotgun: 3/1", "9x G: INFANTRY2")["hits"]
    assert mean(full) == 4
    assert float(1 - full[0]) == pytest.approx(.9923, abs=5e-5)
    assert float(sum(full[5:])) == pytest.approx(.3685, abs=5e-5)
    half = exact_pmfs("2x Shotgun: 3/1", "9x G: INFANTRY2")["hits"]
    assert mean(half) == 2
    assert float(sum(half[5:])) == pytest.approx(.0178, abs=5e-5)


def test_heavy_laser_grenadiers_damage_resilient_hard_cover():
    target = "3x Heavy Laser Grenadier: INFANTRY3 [HARD COVER, DAMAGE RESILIENT]"
    q = F(10, 81)
    assert 3 / q == F(243, 10)
    for dice, printed in ((24, .5829), (25, .6115)):
        pmf = exact_pmfs(f"Gun: {dice}/1", target, sustained=True)["models_destroyed"]
        assert pmf[3] == tail(dice, 3, q)
        assert float(pmf[3]) == pytest.approx(printed, abs=5e-5)


def test_cover_granularity():
    target = "9x G: INFANTRY2 [HARD COVER]"
    per_hit = exact_pmfs("Gun: 2/2", target)["damage"]
    assert per_hit == (F(64, 81), 0, F(16, 81), 0, F(1, 81))
    per_point = exact_pmfs("Gun: 2/2", target, cover_save_per="damage_point")["damage"]
    assert per_point == (F(484, 729), F(176, 729), F(20, 243), F(8, 729), F(1, 729))
    assert mean(per_hit) == mean(per_point) == F(4, 9)


def test_phaser_2z3():
    pmf = exact_pmfs("Phaser: 2z3", "9x G: INFANTRY2 [HARD COVER]")["damage"]
    assert pmf == (F(3844, 6561), F(496, 2187), F(296, 2187), F(268, 6561), F(20, 2187),
                   F(4, 2187), F(1, 6561))
    assert mean(pmf) == F(2, 3)
    sustained = exact_pmfs("Phaser: 2z3", "9x G: INFANTRY2", sustained=True)["damage"]
    assert mean(sustained) == F(10, 9)


def test_laser_expectations():
    hits = exact_pmfs("Laser: 1/1 [LASER]", "9x G: INFANTRY2")["hits"]
    assert mean(hits) == F(4, 9)
    deep = exact_pmfs("Laser: 1/1 [LASER]", "9x G: INFANTRY2", laser_chain_depth=12)["hits"]
    assert mean(deep) == F(1, 3) * sum(F(1, 3) ** k for k in range(13))
