"""TOML lines with their keys written one way (the scenario reader's line finder)."""

from __future__ import annotations

import pytest

from mathhammer.wh40k.scenario.toml_lines import canonical_lines


@pytest.mark.parametrize("line, canonical", [
    ("[units.Boyz]", "[units.Boyz]"),
    ('[units."Termagant Brood"]', "[units.Termagant Brood]"),
    ("[ units . 'Big Mob' ]  # comment", "[units.Big Mob]  # comment"),
    ('[units."A.B"]', "[units.A.B]"),
    ('[units."say \\"hi\\""]', '[units.say "hi"]'),
    ("[[activations]]", "[[activations]]"),
    ("[[ activations ]]", "[[activations]]"),
    ("rounds=2", "rounds =2"),
    ('"rounds" = 2', "rounds = 2"),
    ("units.Boyz.models = []", "units.Boyz.models = []"),
])
def test_headers_and_keys_are_written_one_way(line, canonical):
    assert canonical_lines(line) == [canonical]


def test_a_key_under_a_table_gets_the_tables_path():
    text = "rounds = 1\n[units]\nBoyz = {}\n[[activations]]\nphase = 'fight'"
    assert canonical_lines(text) == ["rounds = 1", "[units]", "units.Boyz = {}",
                                     "[[activations]]", "activations.phase = 'fight'"]


@pytest.mark.parametrize("line", ['{ name = "Boy", count = 9,', '"Bolt rifle: 24\\" A2",',
                                  "# [units.Boyz]", "[units.\"open", "[units.Boyz", "]", "",
                                  '[units."bad \\q"]'])
def test_other_lines_are_only_stripped(line):
    assert canonical_lines(f"  {line}  ") == [line]
