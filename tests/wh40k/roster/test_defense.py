"""Defensive abilities read from roster text (wh40k/roster/defense.py): ability texts written
for the tests in datasheet style, effects read by hand."""

from mathhammer.wh40k.parse import parse_target
from mathhammer.wh40k.roster.defense import (Effect, apply_to_profile, effects, unit_defense,
                                             unmodelled)


def kinds(found):
    return [(e.kind, e.value, e.scope, e.condition) for e in found]


def test_feel_no_pain_and_invulnerable_saves():
    assert kinds(effects("Warded", "Models in this unit have a 4+ invulnerable save.")) == [
        ("invuln", 4, "all", "")]
    assert kinds(effects("Resilient", "Each time a model in this unit would lose a wound, "
                                      "roll one D6: on a 5+, that wound is not lost.")) == [
        ("fnp", 5, "all", "")]
    # a named ability with the roll in its name
    assert kinds(effects("Feel No Pain 6+", "")) == [("fnp", 6, "all", "")]


def test_damage_reduction_and_hit_penalties():
    assert kinds(effects("Armoured", "Each time an attack is allocated to a model in this "
                                     "unit, subtract 1 from the Damage characteristic of "
                                     "that attack.")) == [("damage_minus", 1, "all", "")]
    found = effects("Shrouded", "Each time a ranged attack targets this unit, subtract 1 "
                                "from that attack's Hit roll.")
    assert kinds(found) == [("hit_minus", 1, "ranged", "")]
    assert found[0].describe() == "-1 to be hit (ranged attacks)"


def test_conditions_are_kept():
    found = effects("Bodyguard", "While this model is leading a unit, models in that unit "
                                 "have the Feel No Pain 5+ ability.")
    assert kinds(found) == [("fnp", 5, "all", "while this model is leading a unit")]
    assert found[0].leading and not found[0].led


def test_unmodelled_sentences_become_notes():
    text = ("Each time an attack targets this unit, worsen the Armour Penetration "
            "characteristic of that attack by 1.")
    assert effects("Tough Hide", text) == []
    assert len(unmodelled("Tough Hide", text)) == 1


def test_apply_to_profile_keeps_the_best_of_each_kind():
    found = [Effect("fnp", 6, "all", "A"), Effect("fnp", 5, "all", "B"),
             Effect("invuln", 5, "ranged", "C"), Effect("invuln", 4, "all", "D"),
             Effect("wounds_plus", 1, "all", "E"), Effect("stealth", 1, "ranged", "F")]
    profile = apply_to_profile(parse_target("T4 Sv3+ W2"), found)
    assert (profile.fnp, profile.invuln, profile.invuln_scope, profile.wounds) == (5, 4, "all",
                                                                                   3)
    assert "STEALTH" in profile.keywords


def test_unit_defense_takes_the_largest_penalties():
    found = [Effect("damage_minus", 1, "all", "A"), Effect("damage_minus", 2, "all", "B"),
             Effect("hit_minus", 1, "melee", "C"), Effect("damage_halved", 1, "all", "D"),
             Effect("fnp", 5, "all", "E")]
    assert unit_defense(found) == {"damage_minus": 2, "hit_minus_melee": 1,
                                   "damage_halved": True}
