"""Property test: the Dust Monte Carlo engine agrees with the exact engine on generated fire
plans.

Hypothesis draws one or two targets (a squad of 1-6 models, infantry armour 1-4, or a
vehicle, armour 1-7, with 1-6 boxes; cover, Damage Resilient, the card's own saves) and one
to three weapon lines, each declared against one of them (1-4 carriers, ``n/d`` cells with
1-4 dice and 1-3 damage, phasers ``XzY``, tags: lasers, double success, extra dice, ignoring
cover, flame, a special weapon), and the call's switches (sustained attack, cover save per
damage point, laser chain depth 0-2 or unbounded, rerolled laser dice, the Dust 1947
ruleset). Every target's result must agree in the sense of :mod:`tests.agreement` (means
within 5 standard errors, pooled chi-square, event probabilities within 5 binomial standard
errors). Fire plans the engines refuse with a :class:`~mathhammer.errors.MathhammerError` are
skipped.

A second property test does the same for multi-round exchanges (``exchange``): two units,
each a squad of one or two model groups (a special weapon among them) or a vehicle, firing
at each other for one to three rounds under every casualty policy, with cover and sustained
attacks.

Examples are derandomized and every simulation has a fixed seed, so the test is
deterministic.
"""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from mathhammer.dust import exchange, fire_orders
from mathhammer.dust.parse import parse_target, parse_weapon_line
from mathhammer.dust.profiles import ModelGroup, Unit
from mathhammer.errors import MathhammerError
from tests.agreement import disagreements

TRIALS = 40_000

TAGS = ["IGNORES COVER", "FLAME", "LASER", "DOUBLE SUCCESS", "EXTRA DICE 1", "DICE x2"]
TARGET_TAGS = ["DAMAGE RESILIENT", "SAVES ON BLANKS", "SOFT SAVE MISS", "HARD SAVE HIT",
               "EVADE"]
SWITCHES = {"sustained": [True], "cover_save_per": ["damage_point"],
            "laser_chain_depth": [0, 2, None], "laser_extra_rerolled": [True],
            "ruleset": ["dust1947"]}


@st.composite
def weapons(draw, index: int) -> str:
    """One weapon line: carriers, a dice/damage cell or a phaser, and up to two tags."""
    if draw(st.integers(0, 4)) == 0:
        cell = f"{draw(st.integers(1, 3))}z{draw(st.integers(1, 3))}"
        tags = []
    else:
        cell = f"{draw(st.integers(1, 4))}/{draw(st.integers(1, 3))}"
        tags = draw(st.lists(st.sampled_from(TAGS), max_size=2, unique=True))
    if draw(st.integers(0, 5)) == 0:  # a special weapon: one carrier
        line = f"Gun {index} (1): {cell}"
    else:
        line = f"{draw(st.integers(1, 4))}x Gun {index}: {cell}"
    return line + (f" [{', '.join(tags)}]" if tags else "")


@st.composite
def targets(draw, index: int) -> str:
    """A squad (one model per damage point) or a vehicle with boxes, and its tags."""
    if draw(st.booleans()):
        line = f"{draw(st.integers(1, 6))}x Squad {index}: INFANTRY{draw(st.integers(1, 4))}"
    else:
        line = (f"Vehicle {index}: VEHICLE{draw(st.integers(1, 7))} "
                f"BOXES{draw(st.integers(1, 6))}")
    tags = draw(st.lists(st.sampled_from(TARGET_TAGS), max_size=2, unique=True))
    tags += draw(st.sampled_from([[], ["SOFT COVER"], ["HARD COVER"]]))
    return line + (f" [{', '.join(tags)}]" if tags else "")


@st.composite
def fire_orders_cases(draw) -> tuple[list[tuple[str, str]], dict]:
    """``[(weapon, target), ...]`` over one or two targets, and the call's switches."""
    aimed = [draw(targets(i + 1)) for i in range(draw(st.integers(1, 2)))]
    plan = [(draw(weapons(i + 1)), aimed[min(i, len(aimed) - 1)] if i < len(aimed)
             else draw(st.sampled_from(aimed)))
            for i in range(draw(st.integers(len(aimed), 3)))]
    names = draw(st.lists(st.sampled_from(sorted(SWITCHES)), max_size=3, unique=True))
    return plan, {name: draw(st.sampled_from(SWITCHES[name])) for name in names}


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate, Phase.shrink],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(fire_orders_cases())
def test_monte_carlo_agrees_with_exact_on_generated_fire_plans(case) -> None:
    plan, switches = case
    try:
        exact = fire_orders(plan, method="exact", **switches)
    except MathhammerError:
        assume(False)  # a plan the engines refuse (a cell it cannot attack, too large a pmf)
        return
    simulated = fire_orders(plan, method="monte-carlo", trials=TRIALS, seed=2023, **switches)
    assert len(simulated) == len(exact)
    for target, (mc, ex) in enumerate(zip(simulated, exact)):
        assert disagreements(mc, ex, TRIALS) == [], (plan, switches, target)


POLICIES = ["protect_special", "owner_optimal", "attacker_worst", "random"]


@st.composite
def units(draw, name: str) -> Unit:
    """A squad of one or two model groups (the second carries a special weapon) or a
    vehicle, each weapon a one-cell line."""
    cell = f"{draw(st.integers(1, 3))}/{draw(st.integers(1, 2))}"
    gun = parse_weapon_line(f"Gun: {cell}" + draw(st.sampled_from(["", " [LASER]",
                                                                     " [IGNORES COVER]"])))[0]
    tags = draw(st.lists(st.sampled_from(["DAMAGE RESILIENT", "SOFT COVER"]), unique=True))
    tail = f" [{', '.join(tags)}]" if tags else ""
    if draw(st.booleans()):
        return Unit(name, parse_target(f"{name}: VEHICLE{draw(st.integers(1, 4))} "
                                       f"BOXES{draw(st.integers(1, 4))}{tail}"), (gun,))
    groups = [ModelGroup(draw(st.integers(1, 3)), ("Gun",))]
    lines = [gun]
    if draw(st.booleans()):
        lines.append(parse_weapon_line(f"Special (1): {draw(st.integers(1, 3))}/2")[0])
        groups.append(ModelGroup(1, ("Special",)))
    models = sum(g.count for g in groups)
    return Unit(name, parse_target(f"{models}x {name}: INFANTRY{draw(st.integers(1, 4))}{tail}"),
                tuple(lines), tuple(groups))


@st.composite
def exchanges(draw) -> tuple[Unit, Unit, dict]:
    """Two units and the exchange's options."""
    options = {"rounds": draw(st.integers(1, 3)),
               "casualty_policy": draw(st.sampled_from(POLICIES)),
               "sustained": draw(st.booleans())}
    return draw(units("A")), draw(units("B")), options


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate, Phase.shrink],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(exchanges())
def test_monte_carlo_agrees_with_exact_on_generated_exchanges(case) -> None:
    a, b, options = case
    try:
        exact = exchange(a, b, **options)
    except MathhammerError:
        assume(False)  # an exchange the exact engine refuses (too many states)
        return
    simulated = exchange(a, b, method="monte-carlo", trials=TRIALS, seed=2023, **options)
    assert disagreements(simulated, exact, TRIALS) == [], (a, b, options)
