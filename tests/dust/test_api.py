"""Fire plans, tables, comparisons, plan search, exchanges and charts."""

from fractions import Fraction as F
from math import comb

import matplotlib
import pytest

from mathhammer.dust import (
    Combatant, ModelGroup, Rules, Unit, best_fire_orders, compare, dice_to_kill, exact, exact_pmfs,
    exchange, fire_orders, load_unit, losses_table, parse_target, simulate, weapon_breakdown,
)
from mathhammer.dust.plans import losses_frame
from mathhammer.dust.parse import parse_weapon_line
from mathhammer.errors import OptionError, UnsupportedError

matplotlib.use("Agg")


def test_losses_table_shape_and_values():
    table = losses_table("17-pounder: INF 4/1 4/1 2/1 2/1 VEH 7/1 7/1 6/1 6/1 5/1 5/1 4/1")
    assert list(table.columns) == ["open", "soft", "hard"]
    assert len(table) == 4 + 7 + 3
    assert table.loc[("infantry", 1)].tolist() == pytest.approx([4 / 3, 8 / 9, 4 / 9])
    # vehicles have no cover save by default (UNCERTAIN), so cover changes nothing
    assert table.loc[("vehicle", 7)].tolist() == pytest.approx([4 / 3] * 3)
    assert table.loc[("aircraft", 1)].isna().all()
    capped = losses_table("Gun: 6/1", models=1)
    assert capped.loc[("infantry", 1), "open"] == pytest.approx(1 - (2 / 3) ** 6)
    air = losses_table("AA: 3/1")
    # aircraft are attacked with a sustained attack without the reroll: still 1/3 a die
    assert air.loc[("aircraft", 2), "open"] == pytest.approx(1.0)


def test_vehicle_cover_from_card_or_rules():
    card = exact("Gun: 3/1", "Tank: VEHICLE2 BOXES5 [SOFT COVER, SOFT SAVE HIT]")
    assert card.mean("damage") == pytest.approx(2 / 3)
    ruled = exact("Gun: 3/1", "Tank: VEHICLE2 BOXES5 [HARD COVER]",
                  rules=Rules(vehicle_hard_save="miss_save"))
    assert ruled.mean("damage") == pytest.approx(1 / 3)


def test_compare_and_dice_to_kill():
    frame = compare({"normal": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2"),
                     "sustained": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2",
                                       sustained=True)})
    hits = frame[frame["metric"] == "expected_hits"].set_index("attacker")["value"]
    assert hits["normal"] == pytest.approx(2.0)
    assert hits["sustained"] == pytest.approx(10 / 3)
    mc = compare({"a": dict(weapons="Gun: 6/1", target="5x G: INFANTRY2")},
                 method="monte-carlo", trials=20_000)
    models = mc[mc["metric"] == "expected_models_destroyed"]
    assert (models["stderr"] > 0).all() and (models["method"] == "monte-carlo").all()
    assert dice_to_kill(3, F(10, 81)) == pytest.approx(24.3)


def test_best_fire_orders_concentrates_where_it_pays():
    plans = best_fire_orders(["A: 3/1", "B: 3/1"], ["1x Lone: INFANTRY1", "9x Mob: INFANTRY1"])
    best, second = plans.iloc[0], plans.iloc[1]
    # the big squad absorbs every hit (E = 2); a lone model wastes its overkill
    assert best["A"] == best["B"] == "Mob"
    assert best["expected_losses"] == pytest.approx(2.0)
    one_on_lone = 1 - F(2, 3) ** 3
    assert {second["A"], second["B"]} == {"Lone", "Mob"}
    assert second["expected_losses"] == pytest.approx(float(one_on_lone + 1))
    assert len(plans) == 4
    killers = best_fire_orders(["A: 3/1", "B: 3/1"], ["1x Lone: INFANTRY1", "9x Mob: INFANTRY1"],
                             objective="units_destroyed")
    assert killers.iloc[0]["A"] == killers.iloc[0]["B"] == "Lone"
    with pytest.raises(OptionError, match="cannot attack"):
        best_fire_orders(["A: INF - - - -"], ["G: INFANTRY1"])


@pytest.mark.parametrize("module, old, new", [
    ("mathhammer.dust", "fire_plan", "fire_orders"),
    ("mathhammer.dust", "best_fire_plan", "best_fire_orders"),
    ("mathhammer.dust.api", "fire_plan", "fire_orders"),
    ("mathhammer.dust.api", "compile_fire_plan", "compile_fire_orders"),
    ("mathhammer.dust.api", "FirePlan", "CompiledFireOrders"),
    ("mathhammer.dust.plans", "best_fire_plan", "best_fire_orders"),
])
def test_fire_plan_names_answer_for_one_release(module, old, new):
    """Fire orders were 'fire plans' ("plan" is kept for a compiled plan): the old names
    still answer, each with a DeprecationWarning naming the new one."""
    from importlib import import_module

    home = import_module(module)
    with pytest.warns(DeprecationWarning, match=f"use {module}.{new}$"):
        assert getattr(home, old) is getattr(home, new)


def test_split_weapon_line_switch():
    from mathhammer.dust import parse_weapon

    gun = parse_weapon("4x Gun: 1/1")
    a, b = parse_target("A: INFANTRY1"), parse_target("B: INFANTRY1")
    with pytest.raises(OptionError, match="split_weapon_line"):
        fire_orders([(gun, a), (gun, b)])
    assert len(fire_orders([(gun, a), (gun, b)], split_weapon_line=True)) == 2


def test_unbounded_laser_one_die_by_hand():
    # One die hits on 1/3; each hit rolls one more die that adds a hit on 1/3, without end:
    # P(0) = 2/3, P(1 + j) = 1/3 * (1/3)**j * 2/3, so P(1) = 2/9, P(2) = 2/27, mean 1/2.
    pmfs = exact_pmfs("Laser: 1/1 [LASER]", "9x G: INFANTRY2", laser_chain_depth=None)
    hits = pmfs["hits"]
    assert hits[:4] == (F(2, 3), F(2, 9), F(2, 27), F(2, 81))
    assert all(hits[1 + j] == F(2, 9) * F(1, 3) ** j for j in range(len(hits) - 1))
    assert 0 < 1 - sum(hits) <= F(1, 10 ** 15)  # the unlisted tail
    assert exact("Laser: 4/1 [LASER]", "9x G: INFANTRY2",
                 laser_chain_depth=None).mean("hits") == pytest.approx(2.0, abs=1e-12)
    # Soft cover keeps a hit on 2/3: P(no point) = 2/3 + sum_j 2/9 (1/3)**j (1/3)**(1+j) = 3/4
    covered = exact_pmfs("Laser: 1/1 [LASER]", "9x G: INFANTRY2 [SOFT COVER]",
                         laser_chain_depth=None)
    assert covered["damage"][0] == F(3, 4)


def test_unbounded_laser_losses_are_exact():
    # Two models: destroyed when the die hits and its first extra die hits: 1/3 * 1/3.
    pmfs = exact_pmfs("Laser: 1/1 [LASER]", "2x G: INFANTRY2", laser_chain_depth=None)
    assert pmfs["models_destroyed"] == (F(2, 3), F(2, 9), F(1, 9))
    result = exact("Laser: 1/1 [LASER]", "2x G: INFANTRY2", laser_chain_depth=None)
    assert result.probability("unit_destroyed") == pytest.approx(1 / 9, abs=1e-15)
    assert result.probability("damage_wasted") == pytest.approx(1 / 27, abs=1e-15)
    frame = weapon_breakdown(["Laser: 1/1 [LASER]", "Gun: 1/1"], "2x G: INFANTRY2",
                             laser_chain_depth=None)
    assert frame.loc["Laser", "hits"] == pytest.approx(0.5)
    # the laser is redundant when the gun alone kills both: impossible with one /1 die
    assert frame.loc["Laser", "p_redundant"] == 0
    assert frame.loc["Gun", "p_redundant"] == pytest.approx(1 / 9)


def test_unbounded_laser_support_limit_is_refused(monkeypatch):
    import importlib

    engine = importlib.import_module("mathhammer.dust.exact_engine")  # the package's `exact` is the API
    monkeypatch.setattr(engine, "MAX_SUPPORT", 20)
    with pytest.raises(UnsupportedError, match="at most 20 values"):
        exact("Laser: 30/1 [LASER]", "9x G: INFANTRY2", laser_chain_depth=None)


def _duel_units():
    tank = Unit("Tank", parse_target("Tank: VEHICLE1 BOXES9"),
                (parse_weapon_line("Gun: 1/1")[0],))
    squad = Unit("Squad", parse_target("2x Squad: INFANTRY1"),
                 (parse_weapon_line("Rifle: 1/1")[0], parse_weapon_line("Bazooka (1): 3/1")[0]),
                 (ModelGroup(1, ("Rifle",)), ModelGroup(1, ("Bazooka",))))
    return tank, squad


@pytest.mark.parametrize("policy, expected", [("protect_special", F(11, 9)),
                                              ("attacker_worst", F(1)),
                                              ("random", F(10, 9))])
def test_exchange_casualty_policies_by_hand(policy, expected):
    # The tank's one die removes a model on 1/3. The squad then fires 4 dice (1 + 3), or 3
    # (the rifle lost) or 1 (the bazooka lost): E = 2/3 * 4/3 + 1/3 * E[dice left] / 3,
    # with the rifle lost first (11/9), the bazooka first (1), or either at 1/2 (10/9).
    tank, squad = _duel_units()
    result = exchange(tank, squad, rounds=1, casualty_policy=policy)
    assert result.mean("a_losses") == pytest.approx(float(expected), abs=1e-12)
    if policy == "random":
        # P(tank unharmed) = 2/3 (2/3)**4 + 1/3 (1/2 (2/3)**3 + 1/2 * 2/3) = 71/243
        assert result.pmf("a_losses")[0] == pytest.approx(71 / 243, abs=1e-12)


def test_exchange_random_policy_state_limit(monkeypatch):
    import importlib

    api = importlib.import_module("mathhammer.dust.exact_engine")  # the exchange chain's limit
    tank, squad = _duel_units()
    monkeypatch.setattr(api, "MAX_EXCHANGE_STATES", 1)
    with pytest.raises(UnsupportedError, match="more than 1 states"):
        exchange(tank, squad, rounds=2, casualty_policy="random", method="exact")


def test_exchange_one_round_by_hand():
    rangers = load_unit("seed.toml", "Assault Rangers")
    pounder = load_unit("seed.toml", "Pounder")
    # The rangers' lines cannot hurt the Pounder ('-' cells): only the Pounder deals damage.
    result = exchange(pounder, rangers, rounds=1)
    q = F(1, 3)
    p_destroyed = sum(comb(10, k) * q ** k * (1 - q) ** (10 - k) for k in range(5, 11))
    assert result.probability("b_destroyed") == pytest.approx(float(p_destroyed))
    assert result.mean("a_losses") == 0
    with pytest.raises(OptionError, match="rounds"):
        exchange(pounder, rangers, rounds=0)


def test_exchange_pools_shrink_between_rounds():
    rangers = load_unit("seed.toml", "Assault Rangers")
    pounder = load_unit("seed.toml", "Pounder")
    two = exchange(pounder, rangers, rounds=2)
    one = exchange(pounder, rangers, rounds=1)
    assert two.mean("b_losses") > one.mean("b_losses")
    covered = exchange(pounder, Combatant(rangers, cover="hard"), rounds=1)
    q = F(1, 9)
    p_destroyed = sum(comb(10, k) * q ** k * (1 - q) ** (10 - k) for k in range(5, 11))
    assert covered.probability("b_destroyed") == pytest.approx(float(p_destroyed))
    assert "HARD COVER" in covered.inputs["b_profile"]


def test_charts_return_artists():
    import matplotlib.pyplot as plt

    from mathhammer.charts import bars, overlay

    frame = losses_frame(losses_table(["Gun: 3/1"]).loc[["infantry"]])
    art = bars(frame, kind="bars")
    assert len(art.bars) == 3
    results = {"open": exact("Gun: 6/1", "5x G: INFANTRY2"),
               "soft": simulate("Gun: 6/1", "5x G: INFANTRY2 [SOFT COVER]", trials=5_000)}
    art = overlay(results, "models_destroyed")
    assert len(art.lines) == 2
    plt.close("all")


def test_unbounded_laser_size_is_checked_up_front():
    # 200 dice count as 3 each: 600 > the 500-outcome limit, refused before any work
    with pytest.raises(UnsupportedError, match="limit 500"):
        exact("Laser: 200/1 [LASER]", "9x G: INFANTRY2", laser_chain_depth=None)


def test_an_exchange_side_s_weapons_and_cover_travel_with_its_unit():
    """``Combatant(unit, weapons, cover)`` says one side's choices (issue 40, item 8: at
    most 12 parameters); the old ``a_weapons``/``b_cover`` keywords give the same numbers,
    bit for bit, with a DeprecationWarning naming the new spelling, for one release."""
    import warnings

    import numpy as np

    from mathhammer.errors import OptionError

    pounder, rangers = load_unit("seed.toml", "Pounder"), load_unit("seed.toml", "Assault Rangers")
    for method in ("exact", "monte-carlo"):
        new = exchange(pounder, Combatant(rangers, cover="hard"), rounds=2, method=method,
                       trials=20_000, seed=4)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = exchange(pounder, rangers, rounds=2, method=method, b_cover="hard",
                           trials=20_000, seed=4)
        assert [w.category for w in caught] == [DeprecationWarning]
        assert "b=Combatant(unit, cover='hard')" in str(caught[0].message)
        for name in ("a_losses", "b_losses"):
            assert np.array_equal(new.pmf(name).to_numpy(), old.pmf(name).to_numpy())
    with pytest.raises(OptionError, match="cover must be open, soft or hard"):
        Combatant(rangers, cover="behind a tree")
    with pytest.raises(OptionError, match="not also as b_weapons/b_cover"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exchange(pounder, Combatant(rangers), b_cover="soft")
