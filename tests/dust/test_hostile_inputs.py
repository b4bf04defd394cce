"""Issue 13: hostile Dust lines are refused in one line, at once (or answered when valid)."""

from __future__ import annotations

import pytest

from tests.hostile import refused, run_cli

TARGET = "5x Laser Grenadier: INFANTRY2"


@pytest.mark.parametrize("weapon, fragments", [
    ("Phaser: 9223372036854775808z3", ["'9223372036854775808'", "10,000"]),
    ("9223372036854775808x Shotgun: 3/1", ["'9223372036854775808'"]),
    ("\uff13x Mortar: 3/1", ["\uff13"]),
    ("Shotgun: 3/1 [,,]", ["empty tag"]),
    ("Shotgun: 3/1 [IGNORES COVER, ,]", ["empty tag"]),
])
def test_broken_lines_are_refused(weapon, fragments):
    for command in ("exact", "simulate"):
        refused(["dust", command, weapon, "--target", TARGET, "--trials", "1000"][
            :None if command == "simulate" else 5], *fragments)


@pytest.mark.parametrize("weapon, target", [
    ("Sh\x1bot: 3/1", TARGET), ("Shotgun: 3/1", "5x Laser\x07 Grenadier: INFANTRY2")])
def test_control_characters_in_a_name_are_refused_as_escapes(weapon, target):
    char, column = ("\x1b", 3) if "\x1b" in weapon else ("\x07", 9)
    line = refused(["dust", "exact", weapon, "--target", target],
                   f"'{ascii(char)[1:-1]}' (a control character) at column {column}: a line is "
                   "plain text: delete it")
    assert char not in line


_CARD = '[units.Jeep]\nprofile = "VEHICLE6 BOXES4"\nweapons = ["Gun: INF 3/1 3/1 3/1 3/1"]\n'
_RLO = "(right-to-left override, a text-direction control)"


@pytest.mark.parametrize("card, line, message", [
    ('[units."B\\u001b"]\nprofile = "VEHICLE6"\n', 4,
     "unit name 'B\\x1b' holds '\\x1b' (a control character): delete it"),
    ('[units."B\u202e"]\nprofile = "VEHICLE6"\n', 4,
     f"unit name 'B\\u202e' holds '\\u202e' {_RLO}: delete it"),
    ('[units.B]\nprofile = "VEHICLE6"\n"X\\u001b" = 1\n', 6,
     "unit 'B': key 'X\\x1b' holds '\\x1b' (a control character): delete it"),
    ("[ units . 'B' ]\nprofile = \"INFANTRY2\"\nweapons = [\"Gun: INF 3/1 3/1 3/1 3/1\"]\n"
     'models = [{count = 2, weapons = ["G\\u001bun"]}]\n', 7,
     "unit 'B': a models weapon 'G\\x1bun' holds '\\x1b' (a control character): delete it"),
    ('[units.B]\nprofile = "VEHICLE6\\u001b"\n', 5, "unit 'B': '\\x1b' (a control character) "
     "at column 9: a profile line is plain text: delete it (in 'VEHICLE6\\x1b')"),
    ('[units.B]\nprofile = "VEHICLE6"\nweapons = ["G\u202eun: INF 3/1 3/1 3/1 3/1"]\n', 6,
     f"unit 'B': '\\u202e' {_RLO} at column 2: a weapon line is plain text: delete it (in "
     "'G\\u202eun: INF 3/1 3/1 3/1 3/1')"),
])
def test_control_characters_in_a_unit_file_are_refused_at_their_line(tmp_path, card, line,
                                                                     message):
    path = tmp_path / "cards.toml"
    path.write_text(_CARD + card, encoding="utf-8")
    refused_line = refused(["dust", "exact", f"{path}#Jeep/Gun", "--target", TARGET])
    assert refused_line == f"mathhammer: error: unit file '{path}', line {line}: {message}"
    assert refused_line.isprintable()


@pytest.mark.parametrize("command, escape", [
    (["exact", "seed.toml#Pou\x1bnder", "--target", TARGET], "\\x1b"),
    (["exchange", "seed.toml#Pou\u202ender", "seed.toml#Assault Rangers"], "\\u202e")])
def test_a_control_character_in_a_unit_reference_is_refused_as_an_escape(command, escape):
    kind = "(a control character)" if escape == "\\x1b" else _RLO
    assert refused(["dust", *command]) == (
        f"mathhammer: error: '{escape}' {kind} at column 14: a unit reference is plain text: "
        f"delete it (in 'seed.toml#Pou{escape}nder')")


@pytest.mark.parametrize("weapon", ["Shotgun: 3/1 [EXTRA DICE 9999]", "10000x Shotgun: 3/1",
                                    "Phaser: 3z9999"])
def test_exact_refuses_what_it_cannot_follow_and_points_to_simulate(weapon):
    refused(["dust", "exact", weapon, "--target", TARGET], "limit 500", "simulate")


def test_thousands_of_spaces_are_valid():
    status, out, err, took = run_cli(["dust", "exact", "4x" + " " * 100_000 + "Shotgun: 3/1",
                                      "--target", TARGET])
    assert status == 0 and err == "" and took < 5


def test_digits_in_a_name_are_part_of_the_name():
    from mathhammer.dust.parse import parse_target

    assert parse_target("A000000: VEHICLE1 BOXES1").name == "A000000"
    assert parse_target("Squad 1234567: INFANTRY2").name == "Squad 1234567"


@pytest.mark.parametrize("argv, fragments", [
    # 100,000,000 dice a trial: the histograms alone would need 143 GiB
    (["dust", "simulate", "10000x Shotgun: 10000/1", "--target", "10000x G: INFANTRY2"],
     ["100,000,001", "limit 100,000", "fewer carriers"]),
    (["dust", "simulate", "1000x Shotgun: 10/1", "--target", TARGET,
      "--trials", "10000000000"], ["10,000,000,000 trials", "10,000 dice", "lower --trials"]),
    (["dust", "exchange", "seed.toml#Pounder", "seed.toml#Pounder", "--rounds", "1000000000"],
     ["rounds 1000000000", "from 1 to 100"]),
    (["dust", "exchange", "seed.toml#Pounder", "seed.toml#Pounder", "--rounds", "1000000000",
      "--method", "monte-carlo"], ["rounds 1000000000", "from 1 to 100"]),
])
def test_runs_too_large_to_finish_are_refused_before_any_work(argv, fragments):
    refused(argv, *fragments, seconds=5)


def test_the_largest_exchange_still_answers():
    status, out, err, took = run_cli(["dust", "exchange", "seed.toml#Pounder",
                                      "seed.toml#Laser Grenadiers", "--rounds", "100"])
    assert status == 0 and err == "" and "losses" in out
