"""Issue 39, causes 2-4: roster characteristics that cannot be read are said, never changed;
scenario activations located in linear time and bounded in number; Monte Carlo runs whose
estimated time is beyond a few minutes refused, saying the estimate."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mathhammer as mh
from mathhammer.core.limits import (MAX_RUN_SECONDS, SECONDS_PER_DIE, SECONDS_PER_TRIAL,
                                    allow_long_runs, check_run_work, estimated_run_seconds)
from mathhammer.errors import OptionError, ScenarioError
from mathhammer.wh40k.roster import keywords as kw
from mathhammer.wh40k.roster.api import parse_roster
from mathhammer.wh40k.scenario import reader
from mathhammer.wh40k.scenario.model import MAX_ACTIVATIONS
from tests.hostile import refused, run_cli
from tests.wh40k.roster import builder as b

# -- cause 2: roster characteristics -------------------------------------------------------
GOOD_WEAPON = {"range": '24"', "a": "2", "bs": "3+", "s": "4", "ap": "-1", "d": "1"}
UNREADABLE = {
    "bs": ["3", "6", "99999", "abc", "", "*", "3+ or 4+", "+", "-", "nan"],
    "a": ["", "*", "lots", "2 3"],
    "s": ["*", "abc", "4+", "nan", "x4"],
    "ap": ["*", "-", "", "abc", "-1+", "nan", "--1"],
    "d": ["", "*", "-", "abc"],
}


@pytest.mark.parametrize("key, value", [(k, v) for k, vs in UNREADABLE.items() for v in vs])
def test_an_unreadable_weapon_characteristic_leaves_the_weapon_out_naming_it(key, value):
    notes: list[str] = []
    chars = dict(GOOD_WEAPON, **{key: value})
    assert kw.weapon_profile("Gun", chars, False, notes) is None
    assert len(notes) == 1 and notes[0].startswith("weapon 'Gun' left out")
    label = {"bs": "BS", "a": "A", "s": "S", "ap": "AP", "d": "D"}[key]
    assert f"{label} '{value}'" in notes[0] or f"{label}{value}" in notes[0], notes[0]


def test_an_unreadable_range_keeps_the_weapon_and_says_so():
    for rng in ["", "abc", "*", "12-24"]:
        notes: list[str] = []
        weapon = kw.weapon_profile("Gun", dict(GOOD_WEAPON, range=rng), False, notes)
        assert weapon is not None and weapon.range_inches is None
        assert any(f"Range '{rng}' cannot be read" in n for n in notes), notes


def test_a_footnote_mark_is_read_and_said():
    notes: list[str] = []
    weapon = kw.weapon_profile("Gun", dict(GOOD_WEAPON, s="4*"), False, notes)
    assert weapon is not None and weapon.strength == 4
    assert notes == ["Gun: S '4*' read as 4 (the * points to a rule that is not read)"]


def _skill_oracle(text: str) -> int | None | str:
    """By hand: the skill a BS text means (None for N/A), or 'out' when it cannot be used
    (spaces around a sign do not count, as in "3 +")."""
    text = re.sub(r"\s*([+-])\s*", r"\1", " ".join(text.split()))
    if len(text) > 1 and text.endswith("*"):  # a footnote mark
        text = text.rstrip("*")
    if text.upper() in ("N/A", "NA"):
        return None
    match = re.fullmatch(r"([0-9]+)\+", text)
    if match and 2 <= int(match.group(1)) <= 6:
        return int(match.group(1))
    return "out"


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(alphabet="0123456789+-*/NA na.", max_size=5),
                 st.sampled_from(["2+", "3+", "6+", "7+", "1+", "N/A", "0+", "10+"])))
def test_property_a_bs_is_read_as_written_or_the_weapon_is_left_out(text):
    notes: list[str] = []
    weapon = kw.weapon_profile("Gun", dict(GOOD_WEAPON, bs=text), False, notes)
    expected = _skill_oracle(text)
    if expected == "out":
        assert weapon is None and len(notes) == 1 and "left out" in notes[0]
    else:
        assert weapon is not None and weapon.skill == expected


def _statline_oracle(t: str, sv: str, w: str) -> tuple[int, int | None, int] | None:
    """By hand: (T, Sv, W) with 7 for no save, or None when a value cannot be used."""
    if not (re.fullmatch(r"[0-9]+", t) and re.fullmatch(r"[0-9]+", w)):
        return None
    if not 1 <= int(t) <= 10_000 or not 1 <= int(w) <= 10_000:
        return None
    if sv == "-":
        return int(t), 7, int(w)
    match = re.fullmatch(r"([0-9]+)\+", sv)
    if match is None or not 2 <= int(match.group(1)) <= 7:
        return None
    save = int(match.group(1))
    return int(t), save, int(w)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["4", "4+", "", "*", "nan", "x", "12", "0"]),
       st.sampled_from(["3+", "3", "nan", "*", "", "-", "7+", "1+", "3++", "2+*"]),
       st.sampled_from(["2", "7+", "", "W", "1", "0"]))
def test_property_a_statline_is_read_as_written_or_refused_naming_the_value(t, sv, w):
    chars = {"t": t, "sv": sv, "w": w}
    expected = _statline_oracle(t, sv.removesuffix("*") if sv.endswith("+*") else sv, w)
    if expected is None:
        with pytest.raises(mh.ProfileError):
            kw.statline(chars, [], None, None, None)
        return
    profile = kw.statline(chars, [], None, None, None)
    assert (profile.toughness, profile.save, profile.wounds) == expected


@pytest.mark.parametrize("insv, expected", [("4+", (4, "all")), ("5+ (ranged)", (5, "ranged")),
                                            ("-", (None, "all")), ("", (None, "all")),
                                            ("N/A", (None, "all"))])
def test_insv_read(insv, expected):
    profile = kw.statline({"t": "4", "sv": "3+", "w": "2", "insv": insv}, [], None, None, None)
    assert (profile.invuln, profile.invuln_scope) == expected


@pytest.mark.parametrize("insv", ["4", "abc", "*", "4+ maybe"])
def test_unreadable_insv_refused_naming_it(insv):
    with pytest.raises(mh.ProfileError, match=f"InSv '{re.escape(insv)}' cannot be read"):
        kw.statline({"t": "4", "sv": "3+", "w": "2", "insv": insv}, [], None, None, None)


def _squad(bs: str, sv: str, t: str = "4") -> bytes:
    gun = b.selection("Odd gun", number=5, profiles=[b.ranged("Odd gun", '24"', "2", bs, "4",
                                                              "0", "1")])
    rifle = b.selection("Bolt rifle", number=5, profiles=[b.ranged("Bolt rifle", '24"', "2",
                                                                   "3+", "4", "0", "1")])
    stat = b.profile("Trooper", "Unit", [("M", '6"'), ("T", t), ("Sv", sv), ("W", "2"),
                                         ("LD", "6+"), ("OC", "2"), ("InSv", "-")])
    models = b.selection("Trooper", "model", 5, profiles=[stat], selections=[gun, rifle])
    unit = b.selection("Odd Squad", "unit", pts=100, selections=[models],
                       categories=["Infantry"])
    return b.to_xml(b.roster(11, "Test Faction", [unit])).encode()


def test_a_roster_unit_names_the_unreadable_values_and_keeps_what_it_can():
    army = parse_roster(_squad("abc", "3+"), "odd.ros")
    entry = army.entries[0]
    assert any("weapon 'Odd gun' left out" in n and "BS 'abc'" in n for n in entry.notes)
    carried = [w.name for g in entry.groups for w in g.weapons]
    assert carried == ["Bolt rifle"]


@pytest.mark.parametrize("sv, t", [("nan", "4"), ("3", "4"), ("*", "4"), ("3+", "4+")])
def test_a_roster_statline_that_cannot_be_read_is_never_a_target(sv, t):
    army = parse_roster(_squad("3+", sv, t), "odd.ros")
    entry = army.entries[0]
    value = sv if t == "4" else t
    assert any("cannot be read" in n and f"'{value}'" in n for n in entry.notes), entry.notes
    assert all(g.profile.toughness == 1 for g in entry.groups)  # the placeholder


# -- cause 3: scenario activations ---------------------------------------------------------
_HEAD = ('[units.A]\nmodels = [{ name = "M", count = 5, profile = "T4 Sv3+ W2", '
         'weapons = ["Gun: 24\\" A2 BS3+ S4 AP0 D1"] }]\n'
         '[units.B]\nmodels = [{ name = "N", count = 5, profile = "T4 Sv3+ W2", '
         'weapons = ["Gun: 24\\" A2 BS3+ S4 AP0 D1"] }]\n')
_ACT = '[[activations]]\nphase = "shooting"\nattacker = "A"\ntarget = "B"\n'


def test_activation_origins_found_in_one_pass_per_header(monkeypatch):
    scans: list[str] = []
    original = reader._Locator._starts

    def counted(self, prefix):
        if prefix not in self._headers:
            scans.append(prefix)
        return original(self, prefix)

    monkeypatch.setattr(reader._Locator, "_starts", counted)
    scenario = reader.parse_scenario(_HEAD + _ACT * MAX_ACTIVATIONS, "big.toml")
    assert len(scenario.activations) == MAX_ACTIVATIONS
    assert scenario.origins[-1] == f"big.toml:{5 + 4 * (MAX_ACTIVATIONS - 1)}"
    assert scans == ["[[activations]]"]


@settings(max_examples=5, deadline=None)
@given(st.integers(MAX_ACTIVATIONS + 1, 20 * MAX_ACTIVATIONS))
def test_property_too_many_activations_refused_naming_the_first_extra(count):
    with pytest.raises(ScenarioError) as info:
        reader.parse_scenario(_HEAD + _ACT * count, "big.toml")
    message = str(info.value)
    assert message.startswith(f"big.toml:{5 + 4 * MAX_ACTIVATIONS}: {count:,} [[activations]]")
    assert f"at most {MAX_ACTIVATIONS:,}" in message and "\n" not in message


def test_too_many_activations_refused_on_the_command_line(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(_HEAD + _ACT * (3 * MAX_ACTIVATIONS))
    refused(["run", str(path)], "3,000 [[activations]]", "at most 1,000", str(path))


# -- cause 4: run time estimated up front ---------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 10_000), st.integers(1, 10**10))
def test_property_a_run_is_refused_exactly_when_its_estimate_is_over_the_limit(dice, trials):
    seconds = trials * (SECONDS_PER_TRIAL + dice * SECONDS_PER_DIE)
    assert estimated_run_seconds(dice, trials) == pytest.approx(seconds)
    within_hard_limit = dice * trials <= 10**14
    if seconds > MAX_RUN_SECONDS:
        with pytest.raises(OptionError, match="would take about .* pass --allow-long"):
            check_run_work(dice, trials, "dice", 10**14)
        if within_hard_limit:
            with allow_long_runs():
                check_run_work(dice, trials, "dice", 10**14)
    else:
        check_run_work(dice, trials, "dice", 10**14)


def test_allow_long_runs_is_scoped_and_takes_only_booleans():
    with allow_long_runs():
        check_run_work(1, 10**10, "dice")
    with pytest.raises(OptionError, match="lower --trials"):
        check_run_work(1, 10**10, "dice")
    with pytest.raises(OptionError, match="True or False"):
        with allow_long_runs("yes"):  # type: ignore[arg-type]
            pass


@pytest.mark.parametrize("argv", [
    ["simulate", "Gun: A1 BS3+ S4 AP0 D1", "--target", "T4 Sv3+ W2"],
    ["warmachine", "simulate", "Rifle: RAT6 POW12", "--target", "Trencher: DEF13 ARM13 BOXES1"],
    ["dust", "simulate", "Shotgun: 3/1", "--target", "Grenadier: INFANTRY2"],
])
def test_ten_billion_trials_refused_at_once_with_the_estimate(argv):
    refused(argv + ["--trials", "10000000000"], "10,000,000,000 trials", "would take about",
            "--allow-long", seconds=10)


def test_allow_long_takes_the_estimate_but_not_the_hard_limit():
    # 20 hits a trial: 4 billion trials are within the 100-billion-hit limit but estimated
    # at about 15 min; 10 billion are beyond the limit, --allow-long or not
    argv = ["simulate", "20x Gun: A1 BS3+ S4 AP0 D1", "--target", "T4 Sv3+ W2", "--trials"]
    refused(argv + ["4000000000"], "would take about 15 min", "--allow-long")
    refused(argv + ["10000000000", "--allow-long"], "more than 100,000,000,000 hits")


def test_the_python_api_refuses_and_allows_the_same():
    with pytest.raises(OptionError, match="would take about"):
        mh.simulate(["Gun: A1 BS3+ S4 AP0 D1"], "T4 Sv3+ W2", trials=10**10)
    status, _, err, _ = run_cli(["simulate", "Gun: A1 BS3+ S4 AP0 D1", "--target",
                                 "T4 Sv3+ W2", "--trials", "1000", "--allow-long", "--json"])
    assert status == 0, err
