"""Scenario files with open choices (``targets = [...]``, ``choose = {...}``): what the reader
keeps, and the one-line errors for what it refuses."""

import pytest

import mathhammer as mh
from mathhammer.errors import ScenarioError
from mathhammer.wh40k.scenario.model import OpenChoices

HEAD = '''[units.Gunners]
side = "us"
models = [{ name = "Gunner", count = 2, profile = "T4 Sv3+ W2",
            weapons = ['Gun: 12" A1 BS3+ S4 AP0 D1'] }]
[units.Termagants]
side = "them"
models = [{ name = "Termagant", count = 10, profile = "T3 Sv5+ W1" }]
[units.Carnifex]
side = "them"
models = [{ name = "Carnifex", count = 1, profile = "T9 Sv2+ W8" }]
[[activations]]
phase = "shooting"
attacker = "Gunners"
'''


def test_targets_and_choose_are_kept():
    sc = mh.parse_scenario(HEAD + 'targets = ["Termagants", "Carnifex"]\n'
                           'choose = { reroll_hits = ["ones", "failed"] }\n', open_choices=True)
    assert sc.activations[0].target == "Termagants"
    assert sc.activations[0].modifiers.reroll_hits == "ones"
    assert sc.open_choices == (OpenChoices(("Termagants", "Carnifex"),
                                           (("reroll_hits", ("ones", "failed")),)),)


def test_plain_files_have_no_open_choices():
    sc = mh.parse_scenario(HEAD + 'target = "Carnifex"\n', open_choices=True)
    assert sc.open_choices == ()


@pytest.mark.parametrize("lines, message, line", [
    ('targets = ["Termagants"]\n', "`mathhammer optimise FILE` decides", 14),
    ('target = "Carnifex"\nchoose = { reroll_hits = ["ones"] }\n', "leaves choices open", 15),
])
def test_run_refuses_open_choices(lines, message, line):
    with pytest.raises(ScenarioError) as info:
        mh.parse_scenario(HEAD + lines, source="orders.toml")
    assert message in str(info.value) and "\n" not in str(info.value)
    assert str(info.value).startswith(f"orders.toml:{line}:")


@pytest.mark.parametrize("lines, message", [
    ('target = "Carnifex"\ntargets = ["Termagants"]\n', "not both"),
    ('targets = []\n', "targets = [] is empty"),
    ('targets = "Carnifex"\n', "must be a list of unit names"),
    ('targets = ["Termagants", "Carnifx"]\n', "unknown unit 'Carnifx' in targets; did you mean "
                                              "'Carnifex'"),
    ('targets = ["Termagants", "Termagants"]\n', "names 'Termagants' twice"),
    ('targets = ["Termagants", "Gunners"]\n', "attacks 'Gunners' of its own side"),
    ('targets = ["Termagants"]\nchoose = { rerol_hits = ["ones"] }\n', "unknown key "
                                                                       "'rerol_hits' in choose"),
    ('targets = ["Termagants"]\nchoose = { reroll_hits = ["sometimes"] }\n',
     "reroll_hits='sometimes' is not a re-roll policy"),
    ('targets = ["Termagants"]\nchoose = { lethal_policy = ["maybe"] }\n',
     "lethal_policy 'maybe' must be one of"),
    ('targets = ["Termagants"]\nchoose = { reroll_hits = [] }\n', "non-empty list"),
    ('targets = ["Termagants"]\nmodifiers = { reroll_hits = "ones" }\n'
     'choose = { reroll_hits = ["ones", "failed"] }\n', "in both modifiers and choose"),
])
def test_bad_open_choices_are_one_line(lines, message):
    with pytest.raises(ScenarioError) as info:
        mh.parse_scenario(HEAD + lines, source="orders.toml", open_choices=True)
    assert message in str(info.value), str(info.value)
    assert "\n" not in str(info.value) and str(info.value).startswith("orders.toml:")


def test_a_candidate_of_the_attackers_own_side_is_refused():
    text = HEAD.replace('side = "them"\nmodels = [{ name = "Carnifex"',
                        'side = "us"\nmodels = [{ name = "Carnifex"')
    with pytest.raises(ScenarioError, match="of its own side 'us'"):
        mh.parse_scenario(text + 'targets = ["Termagants", "Carnifex"]\n', open_choices=True)


def test_python_open_choices_are_checked():
    sc = mh.parse_scenario(HEAD + 'target = "Carnifex"\n')
    with pytest.raises(ScenarioError, match="one per activation"):
        mh.wh40k.Scenario(sc.units, sc.activations, open_choices=(OpenChoices(), OpenChoices()))
    with pytest.raises(ScenarioError, match="is not one of its candidate targets"):
        mh.wh40k.Scenario(sc.units, sc.activations, open_choices=(OpenChoices(("Termagants",)),))
    with pytest.raises(ScenarioError, match="must be a tuple of OpenChoices"):
        mh.wh40k.Scenario(sc.units, sc.activations, open_choices=("Termagants",))
