"""Issue 13: hostile scenario files end in one line naming FILE:LINE and the fix."""

from __future__ import annotations

import pytest

import mathhammer as mh

from tests.hostile import refused
from tests.wh40k.scenario.test_reader import BASE, line_of

TWO_SIDES = BASE.replace("[units.Mob]\n", '[units.Mob]\nside = "Orks"\n').replace(
    "[units.Squad]\n", '[units.Squad]\nside = "Marines"\n').replace(
    "[units.Grots]\n", '[units.Grots]\nside = "Orks"\n').replace(
    "[units.Cap1]\n", '[units.Cap1]\nside = "Marines"\n').replace(
    "[units.Cap2]\n", '[units.Cap2]\nside = "Marines"\n').replace(
    "[units.Cap3]\n", '[units.Cap3]\nside = "Marines"\n')
ACTIVATION = 'phase = "shooting"\nattacker = "Squad"\ntarget = "Mob"'


@pytest.mark.parametrize("text, fragments, needle", [
    ("rounds = 1000000000\n" + BASE, ["rounds = 1000000000", "100"], "rounds"),
    (BASE.replace("count = 10, profile = \"T5", "count = 100000000, profile = \"T5"),
     ["100,000,000", "10,000"], "count = 100000000"),
    (BASE.replace(ACTIVATION, ACTIVATION + '\norder = ["Ghost"]'), ["'Ghost'"], "order"),
    (BASE.replace(ACTIVATION, ACTIVATION + '\nsituation = { half_range = "yes" }'),
     ["half_range='yes'", "True or False"], "half_range"),
    (BASE.replace(ACTIVATION, ACTIVATION + "\nmodifiers = { hit_mod = 0.5 }"),
     ["hit_mod=0.5", "whole number"], "hit_mod"),
    (BASE.replace(ACTIVATION, ACTIVATION + '\nmodifiers = { hit_mod = "lots" }'),
     ["hit_mod='lots'"], "hit_mod"),
    (TWO_SIDES.replace('target = "Mob"', 'target = "Cap1"'), ["own side", "'Marines'"],
     "[[activations]]"),
    (BASE.replace("[units.Cap1]\n", '[units.Cap1]\nattached = ["Cap2"]\n').replace(
        "[units.Cap2]\n", '[units.Cap2]\nattached = ["Cap1"]\n'), ["has units attached itself"],
     "[units.Cap"),
    (BASE.replace("[units.Cap1]\n", '[units.Cap1]\nattached = ["Cap1"]\n'),
     ["'Cap1' is attached to itself"], "[units.Cap1]"),
    (BASE.replace("[units.Squad]\n", '[units.Squad]\nattached = "Cap1"\n').replace(
        'target = "Mob"', 'target = "Cap1"'), ["'Cap1' is attached to 'Squad'", "name 'Squad'"],
     "[[activations]]"),
    (BASE.replace(ACTIVATION, ACTIVATION + '\nweapons = [{ name = "Bolt rifle", models = "Ghost" }]'),
     ["models 'Ghost'", "no such model group", "Marine"], "Ghost"),
    (BASE.replace("[units.Mob]\n", "[units.Mob]\ndefense = { damage_minus = -1 }\n"),
     ["damage_minus = -1"], "[units.Mob]"),
    ("[rules]\nmagic = true\n" + BASE, ["unknown key 'magic'"], "[rules]"),
])
def test_scenario_files_are_refused_with_file_and_line(tmp_path, text, fragments, needle):
    path = tmp_path / "army.toml"
    path.write_text(text, encoding="utf-8")
    line = refused(["run", str(path), "--trials", "100"], str(path), *fragments)
    found = int(line.split(f"{path}:")[1].split(":")[0])
    assert abs(found - line_of(text, needle)) <= 4, (found, line)


def test_a_file_that_is_not_utf8_names_its_line(tmp_path):
    path = tmp_path / "army.toml"
    path.write_bytes(BASE.encode().replace(b'"Boy"', b'"Bo\xffy"'))
    boy = line_of(BASE, '"Boy"')
    refused(["run", str(path)], f"{path}:{boy}:", "not UTF-8", "0xff")


def test_an_attached_unit_given_as_a_string_still_works(tmp_path):
    from mathhammer.wh40k.scenario.reader import parse_scenario

    text = BASE.replace("[units.Squad]\n", '[units.Squad]\nattached = "Cap1"\n').replace(
        ACTIVATION, ACTIVATION + '\nweapons = ["Bolt rifle"]')
    scenario = parse_scenario(text)
    assert "Cap1" not in scenario.units and "Squad" in scenario.units


def test_a_scenario_built_in_python_bounds_its_rounds():
    from dataclasses import replace

    from mathhammer.errors import ScenarioError
    from mathhammer.wh40k.scenario.reader import parse_scenario

    text = BASE.replace(ACTIVATION, ACTIVATION + '\nweapons = ["Bolt rifle"]')
    scenario = parse_scenario(text)
    for rounds in (10**9, 0, 2.5):
        with pytest.raises(ScenarioError, match="from 1 to 100"):
            replace(scenario, rounds=rounds)


@pytest.mark.parametrize("value", [0, None, b"x", [1], 2.5])
def test_run_names_a_scenario_of_the_wrong_kind(value):
    # were TypeErrors from pathlib
    with pytest.raises(mh.errors.ScenarioError, match="a Scenario or the path of a TOML file"):
        mh.run(value)


def test_errors_found_when_compiling_name_the_activation_line(tmp_path):
    text = (
        '[units.A]\n'
        'models = [{ name = "M", count = 5, profile = "T4 Sv3+ W2",'
        ' weapons = ["Gun: 24\\" A2 BS3+ S4 AP0 D1"] }]\n'
        '[units.B]\n'
        'models = [{ name = "N", count = 5, profile = "T4 Sv3+ W2",'
        ' weapons = ["Gun: 24\\" A2 BS3+ S4 AP0 D1"] }]\n'
        '\n'
        '[[activations]]\n'
        'phase = "shooting"\nattacker = "A"\ntarget = "B"\n'
        '\n'
        '[[activations]]\n'
        'phase = "overwatch"\nattacker = "B"\ntarget = "A"\n'
        'modifiers = { command_reroll = "hit" }\n')
    path = tmp_path / "overwatch.toml"
    path.write_text(text)
    # the re-roll is refused while compiling, after the file was read: it named no line
    line = refused(["run", str(path), "--trials", "1000"], f"{path}:11: activation 'B fires "
                   "overwatch at A'", "cannot be re-rolled in overwatch")
    assert line.count(str(path)) == 1
    with pytest.raises(mh.OptionError, match=f"^{path}:11: activation"):
        mh.run(path, trials=1000)
