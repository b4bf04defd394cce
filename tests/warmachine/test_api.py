"""Warmachine's entry points (warmachine/api.py): exact and Monte Carlo against a sequence
worked out by hand."""

import pytest

from mathhammer.errors import OptionError
from mathhammer.warmachine.api import GAME, as_attacks, as_targets, exact, simulate
from mathhammer.warmachine.profiles import Attack, Target

# two MAT7 swords into three one-box DEF13 models: each attack hits on 6+ on 2d6 (26/36) and
# every hit destroys a model (POW12 + 2d6 >= ARM13 + 1), so models destroyed is
# Binomial(2, 13/18): mean 13/9
ATTACKS, TARGETS = "2x Sword: MAT7 POW12", "3x Grunt: DEF13 ARM13 BOXES1"


def test_exact_by_hand():
    result = exact(ATTACKS, TARGETS)
    assert result.mean("models_destroyed") == pytest.approx(26 / 18)
    assert result.probability("unit_destroyed") == 0.0  # two attacks cannot take three
    assert result.probability("hit") == pytest.approx(26 / 36)


def test_monte_carlo_agrees_and_takes_keywords_only():
    result = simulate(ATTACKS, TARGETS, trials=40_000, seed=3)
    assert abs(result.mean("models_destroyed") - 26 / 18) < 5 * result.stderr(
        "models_destroyed")
    with pytest.raises(TypeError):
        simulate(ATTACKS, TARGETS, 40_000)  # trials is keyword-only


def test_lines_and_objects():
    (sword,) = as_attacks("Sword: MAT7 POW12")
    assert isinstance(sword, Attack) and sword.stat == 7
    assert as_attacks([sword]) == (sword,)
    (grunt,) = as_targets(["Grunt: DEF13 ARM13 BOXES1"])
    assert isinstance(grunt, Target) and grunt.armor == 13
    with pytest.raises(OptionError):
        as_attacks(42)


def test_the_game_refuses_an_option_it_does_not_have():
    with pytest.raises(OptionError, match="unknown option 'half_range'"):
        GAME.compile("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30", half_range=True)


def test_a_tough_roll_is_reported_only_where_one_can_be_made():
    from mathhammer.warmachine.profiles import Rules

    plain = exact("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30")
    assert "tough_saved" not in plain.probabilities
    assert "Tough" not in plain.to_text()
    tough = "5x Grunt: DEF12 ARM12 BOXES1 [TOUGH]"
    assert "tough_saved" in exact("Fist: MAT6 POW12", tough).probabilities
    assert "tough_saved" in simulate("Fist: MAT6 POW12", tough, trials=1_000).probabilities
    assert "tough_saved" not in exact("Fist: MAT6 POW12", tough,
                                      rules=Rules(tough_allowed=False)).probabilities
    assert "tough_saved" not in simulate("Fist: MAT6 POW12", "Jack: DEF13 ARM14 BOXES30",
                                         trials=1_000).probabilities
