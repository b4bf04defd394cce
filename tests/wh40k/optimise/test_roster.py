"""A list's shooting phase against another list (wh40k/optimise/roster.py): leaders_11e.json
(an Intercessor Squad led by a Captain and an Ancient; two Hellblasters) shoots at
marines_10e.ros (a Captain, an Intercessor Squad, a Devastator Squad)."""

import mathhammer as mh
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.parse import parse_weapon
from mathhammer.wh40k.optimise.roster import ENEMY_SIDE, optimise_shooting, shooting_phase

from ..roster.conftest import FILES


def lists():
    return mh.load_roster(FILES / "leaders_11e.json"), mh.load_roster(FILES / "marines_10e.ros")


def test_every_shooting_unit_with_every_target_open():
    ours, theirs = lists()
    scenario, notes = shooting_phase(ours, theirs, edition=11)
    assert [a.attacker for a in scenario.activations] == ["Intercessor Squad",
                                                           "Hellblaster Squad"]
    # a unit of the same name on the other side is told apart
    assert scenario.open_choices[0].targets == ("Captain", "Intercessor Squad (enemy)",
                                                "Devastator Squad")
    assert scenario.sides["Intercessor Squad"] != scenario.sides["Intercessor Squad (enemy)"]
    assert notes == [] and scenario.rules.edition == 11


def test_options_apply_to_every_activation_and_bad_ones_are_refused():
    ours, theirs = lists()
    scenario, _ = shooting_phase(ours, theirs, edition=11, options={"cover": True})
    assert all(a.situation.cover for a in scenario.activations)
    with pytest.raises(OptionError, match="unknown option 'cuver'"):
        shooting_phase(ours, theirs, edition=11, options={"cuver": True})


# --- buffs on the optimised shooting phase (issue 35) -----------------------------------------
def _small_lists(tmp_path):
    """A Captain leading a Squad, who re-rolls its ranged attacks' Hit rolls of 1, against a
    crowd (ten T4 W1 INFANTRY, no save) and a walker (T8 Sv3+ W10)."""
    import dataclasses

    from ..roster import builder as b
    from ..roster.test_leader_grants import LEAD, _army, _load

    text = LEAD + "each time a model in that unit makes a ranged attack, re-roll a Hit roll of 1."
    army = _load(tmp_path, _army(11, text), 11, "led")
    crowd = b.selection("Crowd", "unit", pts=100, categories=["Infantry"], selections=[
        b.selection("Body", "model", 10, profiles=[b.statline("Body", 11, 4, "-", 1)])])
    walker = b.selection("Walker", "model", pts=150, categories=["Vehicle"],
                         profiles=[b.statline("Walker", 11, 8, "3+", 10)])
    path = tmp_path / "other.json"
    path.write_text(b.to_json(b.roster(11, "Test - other", [crowd, walker])), encoding="utf-8")
    return army, mh.load_roster(path), dataclasses


BUFFS = ["Oath: +1 to wound (1CP)", "Hunters: [LETHAL HITS] to RANGED weapons"]


def test_buffs_equal_the_scenario_with_the_buffs_typed_in_by_hand(tmp_path):
    from mathhammer.wh40k.optimise.api import optimise
    from mathhammer.wh40k.optimise.settings import SearchOptions
    from mathhammer.wh40k.scenario.model import OpenChoices, Scenario

    army, other, dataclasses = _small_lists(tmp_path)
    assert [str(b.grants[0]) for b in army.granted_buffs()["Test Squad"]] == [
        "re-roll hits (ones)"]
    result = optimise_shooting(army, other, buffs=BUFFS, other_buffs=["FNP 5+ to INFANTRY"],
                               method="exact", progress=False)
    plain, _ = shooting_phase(army, other)
    lethal = parse_weapon('24" A1 BS3+ S4 AP0 D1 [LETHAL HITS]').abilities
    units = {}   # typed in by hand: the abilities on the ranged lines, the FNP on the crowd
    for name, unit in plain.units.items():
        groups = []
        for g in unit.groups:
            if plain.sides[name] == ENEMY_SIDE:
                fnp = 5 if name == "Crowd" else g.profile.fnp
                groups.append(dataclasses.replace(g, profile=dataclasses.replace(g.profile,
                                                                                 fnp=fnp)))
                continue
            groups.append(dataclasses.replace(g, weapons=tuple(dataclasses.replace(
                w, profiles=tuple(p if p.melee else dataclasses.replace(
                    p, abilities=p.abilities + lethal) for p in w.profiles))
                for w in g.weapons)))
        units[name] = dataclasses.replace(unit, groups=tuple(groups))
    activations = tuple(dataclasses.replace(   # the roll grants typed as modifiers
        a, modifiers=dataclasses.replace(
            a.modifiers, wound_mod=1,
            reroll_hits="ones" if a.attacker == "Test Squad" else "none"))
        for a in plain.activations)
    hand = Scenario(units, activations, sides=dict(plain.sides), rules=plain.rules,
                    open_choices=tuple(OpenChoices(("Crowd", "Walker")) for _ in activations))
    typed = optimise(hand, result.objectives, side=ENEMY_SIDE, method="exact", progress=False,
                     options=SearchOptions(split=False))
    assert result.engine == typed.engine == "exact"
    assert abs(result.value - typed.value) <= 1e-12
    assert result.describe(result.best.orders) == typed.describe(typed.best.orders)
    assert len(result.ranked) == len(typed.ranked) > 1
    for ours, theirs in zip(result.ranked, typed.ranked):   # every orders, not just the best
        assert ours.orders == theirs.orders
        assert abs(ours.values[0][0] - theirs.values[0][0]) <= 1e-12
    bare = optimise_shooting(army, other, method="exact", progress=False)
    assert result.value > bare.value


def test_buffs_by_hand_one_gunner_one_crowd(tmp_path):
    # one shot BS3+ S4 at ten T4 W1 models without a save (10 pts each): re-rolled hits 8/9,
    # wounds on 3+ with +1 to wound 2/3, the crowd's FNP 5+ lets 2/3 through:
    # 8/9 x 2/3 x 2/3 = 32/81 models, 320/81 points
    from ..roster.builder import gunner_and_crowd

    gunner, crowd = (mh.load_roster(p) for p in gunner_and_crowd(tmp_path))
    result = optimise_shooting(gunner, crowd, buffs=["Oath: re-roll hits", "+1 to wound"],
                               other_buffs=["FNP 5+"], method="exact", progress=False)
    assert abs(result.value - 320 / 81) <= 1e-12
    plain = optimise_shooting(gunner, crowd, method="exact", progress=False)
    assert abs(plain.value - 10 / 3) <= 1e-12
    # cover for every unit of the other list goes on every activation: the crowd's save of
    # none becomes 6+ in cover (2/3 x 1/2 x 1/2 = 1/6 model... as cover=True gives it)
    covered = optimise_shooting(gunner, crowd, other_buffs=["Cover: benefit of cover"],
                                method="exact", progress=False)
    given = optimise_shooting(gunner, crowd, options={"cover": True}, method="exact",
                              progress=False)
    assert abs(covered.value - given.value) <= 1e-12


def test_buffs_refused_in_one_line(tmp_path):
    army, other, _ = _small_lists(tmp_path)
    with pytest.raises(OptionError, match="defensive grant") as info:
        shooting_phase(army, other, buffs=["FNP 5+"])
    assert "\n" not in str(info.value)
    with pytest.raises(OptionError, match="some of its units") as info:
        shooting_phase(army, other, other_buffs=["Cover: benefit of cover to VEHICLE"])
    assert "\n" not in str(info.value) and info.value.token == "Walker"
