"""An army analysis's options per cell: the fight has no shooting-only situation, the target
unit's own penalties add to the roll modifiers of the phase they apply to, its damage
reduction combines with one given (the larger), and the attacker's MONSTER / VEHICLE
keywords decide unless given."""

import pytest

from mathhammer.wh40k.roster.analysis_options import SHOOTING_ONLY, AnalysisOptions


class _Unit:
    all_monster_or_vehicle = True


@pytest.fixture()
def options():
    return AnalysisOptions.build({"half_range": True, "stationary": True, "cover": True,
                                  "hit_mod": 1, "damage_minus": 1})


def test_the_fight_clears_every_shooting_only_situation(options):
    fight = options.for_cell(_Unit(), (), "fight")
    assert all(not getattr(fight.situation, name) for name in SHOOTING_ONLY)
    shooting = options.for_cell(_Unit(), (), "shooting")
    assert shooting.situation.half_range and shooting.situation.stationary


def test_the_targets_penalties_apply_to_their_own_phase_and_damage_reduction_takes_the_larger(
        options):
    defense = (("hit_minus_ranged", 1), ("wound_minus_melee", 1), ("damage_minus", 2))
    shooting = options.for_cell(_Unit(), defense, "shooting")
    assert (shooting.modifiers.hit_mod, shooting.modifiers.wound_mod) == (0, 0)   # +1 - 1
    assert shooting.modifiers.damage_minus == 2
    fight = options.for_cell(_Unit(), defense, "fight")
    assert (fight.modifiers.hit_mod, fight.modifiers.wound_mod) == (1, -1)


def test_the_attackers_keywords_decide_unless_given(options):
    assert options.monster_vehicle is None
    assert options.for_cell(_Unit(), (), "shooting").monster_vehicle is True
    given = AnalysisOptions.build({"attacker_monster_vehicle": False})
    assert given.for_cell(_Unit(), (), "shooting").monster_vehicle is False
    assert given.keywords()["attacker_monster_vehicle"] is False
