"""Scenario errors name the file, the line and the fix; the CLI prints one line, exit 2."""

import pytest

from mathhammer.cli import main
from mathhammer.errors import ScenarioError
from mathhammer.wh40k.scenario.reader import load_scenario, parse_scenario

BASE = '''
[units.Squad]
models = [{ name = "Marine", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1",
                       { name = "Krak", profiles = ["Krak: 24\\" A1 BS3+ S9 AP-2 D 6"], hunter = ["VEHICLE"] },
                       "Knife: Melee A3 WS3+ S4 AP0 D1"] }]
[units.Mob]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
[units.Grots]
models = [{ name = "Grot", count = 10, profile = "T2 Sv7+ W1", weapons = [] }]
[units.Cap1]
models = [{ name = "C1", count = 1, profile = "T4 Sv3+ W4 [CHARACTER]", weapons = [] }]
[units.Cap2]
models = [{ name = "C2", count = 1, profile = "T4 Sv3+ W4 [CHARACTER]", weapons = [] }]
[units.Cap3]
models = [{ name = "C3", count = 1, profile = "T4 Sv3+ W4 [CHARACTER]", weapons = [] }]
[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Mob"
'''


def line_of(text, needle, occurrence=0):
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    return hits[occurrence]


@pytest.mark.parametrize("edit, fragment, needle", [
    (('target = "Mob"', 'target = "Mobb"'), "unknown unit 'Mobb'; did you mean 'Mob'", '[[activations]]'),
    (('phase = "shooting"', 'phase = "shooting"\nweapons = ["Knife"]'), "is a melee weapon", "weapons = [\"Knife\"]"),
    (('phase = "shooting"', 'phase = "shooting"\nweapons = ["Krak"]'), "Hunter profile", "weapons = [\"Krak\"]"),
    (('phase = "shooting"\nattacker = "Squad"', 'phase = "fight"\nattacker = "Mob"\nweapons = [{ name = "Choppa", split = { Squad = 1, Grots = 1 } }]'),
     "sends 2 attacks per model but the weapon has A3", "split"),
    (('[units.Squad]\n', '[units.Squad]\nattached = ["Cap1", "Cap2", "Cap3"]\n'), "at most one Leader", "[units.Squad]"),
    (('phase = "shooting"', 'phase = "shoting"'), "phase 'shoting' must be one of", "[[activations]]"),
    (('count = 10, profile = "T5', 'count = -10, profile = "T5'), "count -10", "count = -10"),
    (('"T5 Sv5+ W1 [INFANTRY]"', '"T5 Sv5+ W0 [INFANTRY]"'), "W0", "W0"),
    (('phase = "shooting"', 'phase = "shooting"\nsituation = { stationery = true }'), "did you mean 'stationary'", "stationery"),
    (('target = "Mob"', 'target = "Squad"'), "cannot attack itself", "[[activations]]"),
])
def test_scenario_errors_name_the_line(edit, fragment, needle):
    text = BASE.replace(*edit, 1)
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, source="army.toml")
    message = str(err.value)
    assert fragment in message
    assert message.startswith("army.toml:")
    line = int(message.split(":")[1])
    expected = line_of(text, needle)
    slack = 4 if needle == "[[activations]]" else 1  # anywhere in the activation's table
    assert expected - 1 <= line <= expected + slack, message


@pytest.mark.parametrize("edit, message", [
    (('name = "Boy"', 'name = "B\\u001b]0;x\\u0007oy"'),
     "model group name 'B\\x1b]0;x\\x07oy' holds '\\x1b' (a control character): delete it"),
    (('name = "Krak"', 'name = "Kr\\u202eak"'), "weapon name 'Kr\\u202eak' holds '\\u202e' "
     "(right-to-left override, a text-direction control): delete it"),
    (('[units.Grots]', '[units."Gr\\u009bots"]'),
     "unit name 'Gr\\x9bots' holds '\\x9b' (a control character): delete it"),
    (('"Knife: Melee', '"Kn\\u0007ife: Melee'), "'\\x07' (a control character) at column 3: a "
     "weapon line is plain text: delete it (in 'Kn\\x07ife: Melee A3 WS3+ S4 AP0 D1')"),
])
def test_control_characters_in_names_are_refused_as_escapes(edit, message):
    text = BASE.replace(*edit, 1)
    with pytest.raises(ScenarioError) as err:
        parse_scenario(text, source="army.toml")
    line = line_of(text, edit[1])
    header = max(i + 1 for i, t in enumerate(text.splitlines()[:line]) if t.startswith("["))
    assert str(err.value) in (f"army.toml:{line}: {message}", f"army.toml:{header}: {message}")
    assert str(err.value).isprintable()


_RLO = "(right-to-left override, a text-direction control)"


@pytest.mark.parametrize("edit, message", [
    (('[units.Squad]\n', '[units.Squad]\nattached = ["\\u001b"]\n'),
     "unit 'Squad' attached '\\x1b' holds '\\x1b' (a control character): delete it"),
    (('[units.Squad]\n', '[units.Squad]\nattached = "Cap\u202e1"\n'),
     f"unit 'Squad' attached 'Cap\\u202e1' holds '\\u202e' {_RLO}: delete it"),
    (('[units.Squad]\n', '[units.Squad]\nside = "A\\u001b"\n'),
     "unit 'Squad' side 'A\\x1b' holds '\\x1b' (a control character): delete it"),
    (('[units.Squad]\n', '[units.Squad]\nside = "A\u202e"\n'),
     f"unit 'Squad' side 'A\\u202e' holds '\\u202e' {_RLO}: delete it"),
    (('[units.Grots]\n', '[units.Grots]\nallocation_order = ["Gr\\u001bot"]\n'), "unit 'Grots' "
     "allocation_order 'Gr\\x1bot' holds '\\x1b' (a control character): delete it"),
    (('[units.Grots]\n', '[units.Grots]\n"\\u001b" = 1\n'),
     "unit 'Grots' key '\\x1b' holds '\\x1b' (a control character): delete it"),
    (('"T2 Sv7+ W1"', '"T2 Sv7+\\u001b W1"'), "'\\x1b' (a control character) at column 8: a "
     "target line is plain text: delete it (in 'T2 Sv7+\\x1b W1')"),
    (('target = "Mob"', 'target = "Mo\\u001bb"'),
     "activation 1 target 'Mo\\x1bb' holds '\\x1b' (a control character): delete it"),
    (('attacker = "Squad"', 'attacker = "Sq\u202euad"'),
     f"activation 1 attacker 'Sq\\u202euad' holds '\\u202e' {_RLO}: delete it"),
    (('target = "Mob"', 'target = "Mob"\nlabel = "x\\ty"'),
     "activation 1 label 'x\\ty' holds '\\t' (a control character): delete it"),
    (('target = "Mob"', 'target = "Mob"\nweapons = [{ name = "Bolt rifle", split = '
                        '{ "Gr\\u009bots" = 1 } }]'),
     "activation 1 weapons split key 'Gr\\x9bots' holds '\\x9b' (a control character): delete it"),
    (('target = "Mob"', 'target = "Mob"\nbuffs = ["Oath\\u001b: re-roll hits"]'), "'\\x1b' (a "
     "control character) at column 5: a buff is plain text: delete it (in 'Oath\\x1b: re-roll "
     "hits')"),
    (('target = "Mob"', 'target = "Mob"\n[buffs]\n"Oa\u202eth" = "re-roll hits"'),
     f"buff name 'Oa\\u202eth' holds '\\u202e' {_RLO}: delete it"),
    (('target = "Mob"', 'target = "Mob"\n[buffs]\nOath = "re-roll\\u001b hits"'), "'\\x1b' (a "
     "control character) at column 8: a buff is plain text: delete it (in 're-roll\\x1b hits')"),
    (('phase = "shooting"', 'phase = "shoo\\u001bting"'),
     "activation 1 phase 'shoo\\x1bting' holds '\\x1b' (a control character): delete it"),
])
def test_control_characters_in_any_text_are_refused_at_their_line(edit, message, tmp_path,
                                                                   capsys):
    """attached, side, activation fields, [buffs], keys: every text is checked before it
    can be echoed (``attaches unknown unit '\\x1b'`` printed it raw)."""
    text = BASE.replace(*edit, 1)
    assert text != BASE
    file = tmp_path / "army.toml"
    file.write_text(text, encoding="utf-8")
    assert main(["run", str(file)]) == 2
    err = capsys.readouterr().err
    assert err == f"mathhammer: error: {file}:{line_of(text, edit[1].splitlines()[-1])}: " \
        f"{message}\n"
    assert err[:-1].isprintable()


@pytest.mark.parametrize("edit, message", [
    (('target = "Mob"', 'targets = ["Mob", "Gr\\u001bots"]'),
     "activation 1 targets 'Gr\\x1bots' holds '\\x1b' (a control character): delete it"),
    (('target = "Mob"', 'targets = ["Mob"]\nchoose = { reroll_hits = ["failed", "no\u202ene"] }'),
     f"activation 1 choose reroll_hits 'no\\u202ene' holds '\\u202e' {_RLO}: delete it"),
    (('target = "Mob"', 'targets = ["Mob"]\nchoose = { "re\\u001broll" = ["failed"] }'),
     "activation 1 choose key 're\\x1broll' holds '\\x1b' (a control character): delete it"),
])
def test_control_characters_in_choose_and_targets_are_refused_by_optimise(edit, message,
                                                                         tmp_path, capsys):
    text = BASE.replace(*edit, 1)
    file = tmp_path / "army.toml"
    file.write_text(text, encoding="utf-8")
    assert main(["optimise", str(file)]) == 2
    assert capsys.readouterr().err == (f"mathhammer: error: {file}:"
                                       f"{line_of(text, edit[1].splitlines()[-1])}: {message}\n")


def test_not_toml_and_unreadable_files(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[units.Squad\nmodels = 1")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_scenario(bad)
    assert main(["run", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert "cannot read scenario file" in err and err.count("\n") == 1
    assert main(["run", str(bad)]) == 2
    assert "not valid TOML" in capsys.readouterr().err


def test_two_melee_weapons_on_one_model_are_refused():
    text = BASE.replace('"Knife: Melee A3 WS3+ S4 AP0 D1"]', '"Knife: Melee A3 WS3+ S4 AP0 D1", "Axe: Melee A2 WS3+ S5 AP-1 D1"]')
    text = text.replace('phase = "shooting"', 'phase = "fight"\nweapons = ["Knife", "Axe"]')
    with pytest.raises(ScenarioError, match="two melee weapons"):
        parse_scenario(text)


def test_sidearms_with_other_ranged_weapons_are_refused():
    text = BASE.replace('"Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1",', '"Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1", "Pistol: 12\\" A1 BS3+ S4 AP0 D1 [PISTOL]",')
    text = text.replace('phase = "shooting"', 'phase = "shooting"\nweapons = ["Bolt rifle", "Pistol"]')
    with pytest.raises(ScenarioError, match=r"\[PISTOL\]"):
        parse_scenario(text)


def test_the_line_comes_from_the_error_s_fields_not_its_words():
    """An unknown weapon is found on the line that names it: the error carries the name
    (its token) and its activation, so the quoted suggestion or unit name in the message does
    not decide the line (issue 40, item 4)."""
    text = BASE.replace('target = "Mob"', 'target = "Mob"\nweapons = ["Bolt rifel"]')
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, "army.toml")
    error = info.value
    assert "no weapon 'Bolt rifel'; did you mean 'Bolt rifle'" in str(error)
    assert error.location == f"army.toml:{line_of(text, 'Bolt rifel')}"
    assert error.token == "Bolt rifel"
    assert str(error).startswith(f"{error.location}: ")


_BAD_GROUP = 'models = [{ name = "Boy", count = 1.5, profile = "T5 Sv5+ W1" }]\n'


@pytest.mark.parametrize("header, line", [
    ('[units."Boyz"]\n' + _BAD_GROUP, 2),            # a quoted name (any name with a space)
    ("[units.'Boyz']\n" + _BAD_GROUP, 2),            # a literal-string name
    ("[ units . Boyz ]  # the mob\n" + _BAD_GROUP, 2),
    ("[units]\nBoyz = { " + _BAD_GROUP.strip() + " }\n", 3),
    ("units.Boyz.models = " + _BAD_GROUP.split("= ", 1)[1], 2),
    ('[units."Big \\"Mob\\""]\n' + _BAD_GROUP, 2),
])
def test_an_error_in_a_unit_written_with_quotes_or_dots_names_its_line(header, line):
    """These spellings of [units.Boyz] named the file only (the shipped optimise example
    quotes its unit names): the error's line is the unit's header or key line."""
    text = 'rounds = 1\n' + header
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "duel.toml")
    assert str(caught.value).startswith(f"duel.toml:{line}: model group 'Boy': count = 1.5 "
                                        "must be a whole number")


def test_a_unit_name_that_begins_another_is_not_its_line():
    text = ('[units.Boyz]\nmodels = [{ name = "Boy", count = 2, profile = "T5 Sv5+ W1" }]\n'
            '[units.Boy]\n' + _BAD_GROUP)
    with pytest.raises(ScenarioError, match=r"^s\.toml:3: model group 'Boy'"):
        parse_scenario(text, "s.toml")
