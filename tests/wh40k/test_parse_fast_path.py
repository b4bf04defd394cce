"""Well-formed weapon and target lines are read in one match (issue 24's first-answer speed):
the profile must be exactly the one the full reader gives. A leading space sends a line
through the full reader, which strips it, so ``parse(line) == parse(" " + line)`` compares
the two readers on every generated line; malformed lines still get the full reader's errors.
"""

from __future__ import annotations

import itertools
import random

import pytest

from mathhammer.errors import ProfileError
from mathhammer.wh40k.parse import parse_target, parse_weapon


def weapon_lines(n: int = 400, seed: int = 24) -> list[str]:
    rng = random.Random(seed)
    abilities = ["", " [SUSTAINED HITS 1]", " [LETHAL HITS, DEVASTATING WOUNDS]",
                 " [RAPID FIRE D3]", " [MELTA 2]", " [ANTI-INFANTRY 4+, TWIN-LINKED]",
                 " [TORRENT, IGNORES COVER]", " [BLAST, HEAVY]", " [LETHAL HITS: VEHICLE]",
                 " [HAZARDOUS, PSYCHIC]", " [LANCE]", " [BLAST 2, SUSTAINED HITS 3]",
                 " [sustained hits 1, heavy]", " [HEAVY,BLAST]", " [HEAVY,  BLAST]",
                 " [SUSTAINED HITS 1, SUSTAINED HITS 2, SUSTAINED HITS 1]", " [HEAVY 1]",
                 " [SUSTAINED HITS 0]", " [RAPID FIRE 10]", " [TWIN LINKED, CLOSE QUARTERS]",
                 " [EXTRA ATTACKS, CLEAVE 1]", " [CONVERSION, ONE SHOT]", " [MELTA 2, ]",
                 " [HEAVY ]", " [SUSTAINED  HITS 1]", " [ASSAULT, PISTOL, PRECISION]"]
    dice = ["1", "2", "3", "10", "D3", "D6", "2D6", "D6+1", "D3+3", "2D3+1"]
    lines = []
    for _ in range(n):
        count = rng.choice(["", "2x ", "10x ", "9999x "])
        name = rng.choice(["Bolt rifle", "Gun", "Kai's blade", "Twin-linked gun 2"])
        if rng.random() < 0.3:
            head = f"Melee A{rng.choice(dice)} WS{rng.randint(2, 6)}+"
        else:
            skill = rng.choice(["N/A", f"{rng.randint(2, 6)}+"])
            head = f'{rng.randint(1, 72)}" A{rng.choice(dice)} BS{skill}'
        ap = rng.choice(["0", "-1", "-3"])
        damage = rng.choice(["1", "2", "D6+1", "D3", "D6", "2D6"])
        lines.append(f"{count}{name}: {head} S{rng.randint(1, 16)} AP{ap} D{damage}"
                     f"{rng.choice(abilities)}")
    return lines


def target_lines() -> list[str]:
    lines = []
    for count, name, save, invuln, fnp, keywords in itertools.product(
            ["", "5x ", "20x "], ["", "Intercessor: ", "Kai's guard: "], ["3+", "6+", "-"],
            ["", "InSv4+ "], ["", " FNP5+"], ["", " [INFANTRY]", " [VEHICLE, FLY]"]):
        lines.append(f"{count}{name}T4 Sv{save} {invuln}W2{fnp}{keywords}")
    return lines


@pytest.mark.parametrize("line", weapon_lines())
def test_a_weapon_line_reads_the_same_by_either_reader(line):
    try:
        full = parse_weapon(" " + line)
    except ProfileError as exc:
        with pytest.raises(ProfileError) as raised:
            parse_weapon(line)
        assert raised.value.token == exc.token
        return
    assert parse_weapon(line) == full
    assert str(parse_weapon(line)) == str(full)


@pytest.mark.parametrize("line", target_lines())
def test_a_target_line_reads_the_same_by_either_reader(line):
    assert parse_target(line) == parse_target(" " + line)


@pytest.mark.parametrize("line", [
    '2x Gun: 24" A2 BS3+ S4 AP-1 D3',           # ambiguous D3
    '2x Gun: 24" A2 BS7+ S4 AP-1 D1',           # impossible skill
    '2x Gun: 24" A2 BS3+ S4 AP-1 D1 [BLAST 0]',  # X adds nothing
    '2x Gun: 24" A2 BS3+ S4 AP-1 D1 [NOT AN ABILITY]',
    "Axe: Melee A2 BS3+ S4 AP-1 D1",            # melee with BS
    'nanx Gun: 24" A2 BS3+ S4 AP-1 D1',         # a count written wrong, not a name
])
def test_a_malformed_line_gets_the_full_readers_error(line):
    with pytest.raises(ProfileError) as fast:
        parse_weapon(line)
    with pytest.raises(ProfileError) as full:
        parse_weapon(" " + line)
    assert fast.value.token == full.value.token


@pytest.mark.parametrize("line", ["nanx Guardsman: T3 Sv- W1", "infx Boss: T5 Sv4+ W6"])
def test_a_malformed_count_on_a_target_line_is_refused(line):
    with pytest.raises(ProfileError, match="count"):
        parse_target(line)


def test_a_common_bracket_is_read_without_the_full_reader(monkeypatch):
    from mathhammer.wh40k import parse

    want = parse_weapon('4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1, HEAVY]')
    monkeypatch.setattr(parse, "_parse_abilities", lambda *args: pytest.fail("full reader"))
    got = parse_weapon('4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1, HEAVY]')
    assert got == want and [a.name for a in got.abilities] == ["SUSTAINED HITS", "HEAVY"]
