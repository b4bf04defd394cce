"""Issue 13, kept closed: mutated lines of the three games and mutated scenario files are
answered (exit 0) or refused in one line (exit 2), never with a traceback, within seconds.

Valid inputs are mutated as a hostile user would: tokens dropped, duplicated and swapped,
numbers made huge or negative, non-ASCII text inserted, brackets emptied or nested, spaces
piled up. The command line runs in-process (``mathhammer.cli.main``) for speed; a few cases
run as a real process, to see what a user sees.
"""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hostile import run_cli

SECONDS_PER_CASE = 10

WH40K_WEAPONS = ['10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]',
                 'Battle cannon: 48" AD6+3 BS4+ S10 AP-1 DD3 [BLAST]',
                 "Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS, ANTI-INFANTRY 4+]"]
WH40K_TARGETS = ["5x Intercessor: T4 Sv3+ W2 [INFANTRY]", "10x MEQ", "Knight: T11 Sv3+ InSv5+(ranged) W22 FNP6+"]
WARMACHINE = [("2x Battle hammer: MAT7 POW16 [CHARGE]", "Heavy warjack: DEF12 ARM19 BOXES30"),
              ("Rifle: RAT6 POW12", "5x Trencher: DEF13 ARM13 BOXES1 [TOUGH]")]
DUST = [("4x Shotgun: 3/1", "5x Laser Grenadier: INFANTRY2 [SOFT COVER]"),
        ("17-pounder: 4/1 [IGNORES COVER]", "Luther: VEHICLE6 BOXES4")]
SCENARIO = '''rounds = 2
[units.Squad]
models = [{ name = "Marine", count = 5, profile = "T4 Sv3+ W2 [INFANTRY]",
            weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1", "Knife: Melee A3 WS3+ S4 AP0 D1"] }]
[units.Mob]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]
[[activations]]
phase = "shooting"
attacker = "Squad"
target = "Mob"
situation = { half_range = true }
[[activations]]
phase = "fight"
attacker = "Mob"
target = "Squad"
modifiers = { hit_mod = 1 }
'''

HUGE = ["9223372036854775808", "99999999999999999999", "1000000", "65536", "0", "-1", "-7",
        "2147483648", "1" * 40]
ODD = ["\u0663", "\uff13", "\U0001d7d1", "\u00e9", "\u2013", "\u00d7", "\u200b", "\U0001f600",
       "[]", "[[", "]]", "[,,]", "[[HEAVY]]", "[", "]", ",", ":", '"', " " * 2000, "\t"]


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` with one to three hostile edits to its whitespace-separated tokens."""
    tokens = text.split(" ")
    for _ in range(draw(st.integers(1, 3))):
        if not tokens:
            tokens = [""]
        i = draw(st.integers(0, len(tokens) - 1))
        edit = draw(st.sampled_from(["drop", "duplicate", "swap", "number", "odd", "glue"]))
        if edit == "drop":
            tokens.pop(i)
        elif edit == "duplicate":
            tokens.insert(i, tokens[i])
        elif edit == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif edit == "number":
            digits = [k for k, c in enumerate(tokens[i]) if c.isdigit()]
            huge = draw(st.sampled_from(HUGE))
            if digits:
                k = draw(st.sampled_from(digits))
                tokens[i] = tokens[i][:k] + huge + tokens[i][k + 1:]
            else:
                tokens.insert(i, huge)
        elif edit == "odd":
            k = draw(st.integers(0, len(tokens[i])))
            tokens[i] = tokens[i][:k] + draw(st.sampled_from(ODD)) + tokens[i][k:]
        else:
            tokens[i:i + 2] = ["".join(tokens[i:i + 2])]
    return " ".join(tokens)


def _check(argv: list[str]) -> None:
    """Exit 0, or exit 2 with one line on stderr; no traceback; within the time bound."""
    def too_slow(*_):
        raise TimeoutError(f"no answer within {SECONDS_PER_CASE} s: {argv!r}")

    previous = signal.signal(signal.SIGALRM, too_slow)
    signal.alarm(SECONDS_PER_CASE)
    try:
        status, _, err, took = run_cli(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert status in (0, 2), (status, argv, err)
    assert "Traceback" not in err
    if status == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("mathhammer: error: "), (argv, err)
        assert "mathhammer: error: mathhammer" not in lines[0]
    assert took < SECONDS_PER_CASE, (took, argv)


SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(scope="module", autouse=True)
def _warm_up(tmp_path_factory):
    """Compile and load everything once, so the time bound measures the input, not imports."""
    for argv in (["exact", WH40K_WEAPONS[0], "--target", WH40K_TARGETS[0]],
                 ["warmachine", "exact", *WARMACHINE[0][:1], "--target", WARMACHINE[0][1]],
                 ["dust", "exact", DUST[0][0], "--target", DUST[0][1]]):
        assert run_cli(argv)[0] == 0
    path = tmp_path_factory.mktemp("warm") / "s.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    assert run_cli(["run", str(path), "--trials", "100"])[0] == 0


@SETTINGS
@given(data=st.data())
def test_mutated_40k_lines(data):
    weapon = data.draw(st.sampled_from(WH40K_WEAPONS))
    target = data.draw(st.sampled_from(WH40K_TARGETS))
    if data.draw(st.booleans()):
        weapon = data.draw(mutated(weapon))
    else:
        target = data.draw(mutated(target))
    _check(["exact", weapon, "--target", target])


@SETTINGS
@given(data=st.data())
def test_mutated_warmachine_lines(data):
    attack, target = data.draw(st.sampled_from(WARMACHINE))
    if data.draw(st.booleans()):
        attack = data.draw(mutated(attack))
    else:
        target = data.draw(mutated(target))
    _check(["warmachine", "exact", attack, "--target", target])


@SETTINGS
@given(data=st.data())
def test_mutated_dust_lines(data):
    weapon, target = data.draw(st.sampled_from(DUST))
    if data.draw(st.booleans()):
        weapon = data.draw(mutated(weapon))
    else:
        target = data.draw(mutated(target))
    _check(["dust", "exact", weapon, "--target", target])


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_scenario_files(tmp_path, data):
    lines = SCENARIO.splitlines()
    i = data.draw(st.integers(0, len(lines) - 1))
    lines[i] = data.draw(mutated(lines[i]))
    path = tmp_path / "s.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _check(["run", str(path), "--trials", "100"])


@pytest.mark.parametrize("argv", [
    ["exact", 'X: 24" A9223372036854775808 BS3+ S4 AP-1 D1', "--target", "MEQ"],
    ["dust", "exact", "Shotgun: 3/1 [,,]", "--target", "Luther: VEHICLE6 BOXES4"],
    ["exact", "X: A1 BS3+ S4 AP0 D1", "--target", "MEQ", "--stationairy"],
])
def test_a_real_process_prints_one_line_and_exits_2(argv):
    done = subprocess.run([sys.executable, "-m", "mathhammer", *argv], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
