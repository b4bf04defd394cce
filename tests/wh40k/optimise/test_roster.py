"""A list's shooting phase against another list (wh40k/optimise/roster.py): leaders_11e.json
(an Intercessor Squad led by a Captain and an Ancient; two Hellblasters) shoots at
marines_10e.ros (a Captain, an Intercessor Squad, a Devastator Squad)."""

import mathhammer as mh
import pytest

from mathhammer.errors import OptionError
from mathhammer.wh40k.optimise.roster import shooting_phase

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
