"""``--buff``, ``--buffs FILE`` and ``--attribution`` on ``mathhammer exact``, ``simulate`` and
``compare`` (issue 35): the numbers equal the hand-typed equivalents; refusals are one line."""

from __future__ import annotations

import json

import pytest

import mathhammer as mh
from mathhammer.cli import main

GUN = 'Gun: 24" A2 BS3+ S4 AP-1 D2'
SWORD = "Sword: Melee A3 WS3+ S4 AP0 D1"
TARGET = "5x Marine: T4 Sv3+ W3 [INFANTRY]"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def buff_file(tmp_path):
    path = tmp_path / "buffs.toml"
    path.write_text('[buffs]\n"Oath of Moment" = "re-roll hits (1CP)"\n'
                    '"Bolter drill" = "[SUSTAINED HITS 1] to RANGED weapons when stationary"\n'
                    'Fury = "+1 strength to MELEE weapons when charged (2CP)"\n',
                    encoding="utf-8")
    return str(path)


def test_exact_with_buffs_by_name_equals_the_typed_lines(capsys, buff_file):
    code, out, err = run(capsys, "exact", GUN, SWORD, "--target", TARGET, "--buffs", buff_file,
                         "--buff", "Oath of Moment", "--buff", "Bolter drill", "--buff", "Fury",
                         "--stationary", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    typed = mh.exact([GUN + " [SUSTAINED HITS 1]", SWORD], TARGET, reroll_hits="failed",
                     stationary=True)
    assert data["damage"]["mean"] == pytest.approx(typed.mean("damage"), abs=1e-12)


def test_the_header_says_which_buffs_applied_and_the_attribution_prints(capsys, buff_file):
    code, out, _ = run(capsys, "exact", GUN, SWORD, "--target", TARGET, "--buffs", buff_file,
                       "--buff", "Oath of Moment", "--buff", "Fury", "--buff", "+1 to wound",
                       "--attribution")
    assert code == 0
    assert "Buffs:   Oath of Moment; +1 to wound" in out
    assert "Not applied: Fury (needs charged)" in out
    assert "What each buff is worth (exact" in out and "per CP (1 CP)" in out
    line = next(x for x in out.splitlines() if x.startswith("Oath of Moment"))
    with_all = mh.exact([GUN, SWORD], TARGET, reroll_hits="failed", wound_mod=1)
    without = mh.exact([GUN, SWORD], TARGET, wound_mod=1)
    assert float(line.split()[3]) == pytest.approx(
        with_all.mean("damage") - without.mean("damage"), abs=5e-4)


def test_attribution_as_json_under_simulate_is_exact_where_it_can_be(capsys):
    code, out, _ = run(capsys, "simulate", GUN, "--target", TARGET, "--buff",
                       "Oath: re-roll hits (1CP)", "--attribution", "--json", "--trials",
                       "2000", "--sampler", "exact-draws")
    assert code == 0
    rows = json.loads(out)["attribution"]
    oath = next(r for r in rows if r["buff"] == "Oath" and r["metric"] == "expected_damage")
    assert oath["method"] == "exact" and oath["gain"] == pytest.approx(oath["gain_per_cost"])
    assert oath["with_buffs"] - oath["without_buff"] == pytest.approx(oath["gain"], abs=1e-12)


def test_compare_takes_buffs(capsys):
    code, out, _ = run(capsys, "compare", GUN, "--target", TARGET, "--exact", "--buff",
                       "[LETHAL HITS]", "--json")
    assert code == 0
    typed = mh.exact(GUN + " [LETHAL HITS]", TARGET).mean("damage")
    assert f"{typed:.4f}"[:5] in out


@pytest.mark.parametrize("argv, named", [
    (["--buff", "+1 to flavour"], "'flavour'"),
    (["--buff", ""], "empty buff"),
    (["--buff", "x" * 10_000], "too long"),
    (["--buff", "Oath of Momnet", "--buffs", "BUFFS"], "Oath of Moment"),
    (["--buff", "Oath", "--buffs", "/no/such/buffs.toml"], "does not exist"),
    (["--attribution"], "--attribution needs"),
    (["--buff", "+1 to hit to MELEE weapons"], "1 of 2 lines"),
])
def test_hostile_buff_flags_answer_in_one_line(capsys, buff_file, argv, named):
    argv = [buff_file if a == "BUFFS" else a for a in argv]
    code, out, err = run(capsys, "exact", GUN, SWORD, "--target", TARGET, *argv)
    assert code != 0 and out == ""
    assert len(err.strip().splitlines()) == 1 and named in err and "Traceback" not in err


def test_a_bad_buff_file_answers_in_one_line(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[buffs]\nOath = "re-roll hitz"\n', encoding="utf-8")
    code, _, err = run(capsys, "exact", GUN, "--target", TARGET, "--buffs", str(path),
                       "--buff", "Oath")
    assert code != 0 and len(err.strip().splitlines()) == 1 and "bad.toml" in err


_RLO = "(right-to-left override, a text-direction control)"


@pytest.mark.parametrize("buff, escape, kind, column", [
    ("Oa\x1bth: re-roll hits", "Oa\\x1bth: re-roll hits", "'\\x1b' (a control character)", 3),
    ("Oath: re-roll\u202e hits", "Oath: re-roll\\u202e hits", f"'\\u202e' {_RLO}", 14)])
def test_a_control_character_in_a_buff_is_refused_as_an_escape(capsys, buff, escape, kind,
                                                               column):
    code, out, err = run(capsys, "exact", GUN, "--target", TARGET, "--buff", buff)
    assert (code, out) == (2, "")
    assert err == (f"mathhammer: error: {kind} at column {column}: a buff is plain text: "
                   f"delete it (in '{escape}')\n")


@pytest.mark.parametrize("key, escape, kind", [
    ('"Oa\\u001bth"', "Oa\\x1bth", "'\\x1b' (a control character)"),
    ('"Oa\u202eth"', "Oa\\u202eth", f"'\\u202e' {_RLO}")])
def test_a_control_character_in_a_buff_file_name_is_refused_at_its_line(capsys, tmp_path, key,
                                                                        escape, kind):
    """The name was echoed raw: "unknown buff 'Oath'; did you mean 'Oath<ESC>'?"."""
    path = tmp_path / "buffs.toml"
    path.write_text(f'[buffs]\nFury = "+1 strength"\n{key} = "re-roll hits"\n', encoding="utf-8")
    code, out, err = run(capsys, "exact", GUN, "--target", TARGET, "--buffs", str(path),
                         "--buff", "Oath")
    assert (code, out) == (2, "")
    assert err == (f"mathhammer: error: buff file '{path}', line 3: buff name '{escape}' holds "
                   f"{kind}: rename it\n")


def test_attribution_plot_without_attribution_is_refused(capsys, tmp_path):
    """It wrote no chart and exited 0 when no --buff was given either."""
    chart = tmp_path / "gains.png"
    code, out, err = run(capsys, "exact", GUN, "--target", TARGET, "--attribution-plot",
                         str(chart))
    assert code == 2 and out == "" and not chart.exists()
    assert err.strip() == ("mathhammer: error: --attribution-plot draws the --attribution "
                           "table: add --attribution")


@pytest.mark.parametrize("command", ["exact", "compare"])
def test_a_broken_buff_file_without_a_buff_is_refused(capsys, tmp_path, command):
    """A --buffs file that cannot be read was never opened when no --buff named a buff."""
    broken = tmp_path / "broken.toml"
    broken.write_bytes(b"\xc1[buffs]\n")
    code, out, err = run(capsys, command, GUN, "--target", TARGET, "--buffs", str(broken))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"buff file '{broken}' cannot be read" in err


def test_a_folder_pipe_or_deep_file_as_buff_file_is_refused_in_words(capsys, tmp_path):
    """A folder said '[Errno 21] Is a directory'; a named pipe waited for a writer forever;
    5,000 nested arrays ended in a RecursionError traceback."""
    import os

    fifo = tmp_path / "buffs.toml"
    os.mkfifo(fifo)
    deep = tmp_path / "deep.toml"
    deep.write_text("[buffs]\nx = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    for path, message in [
            (tmp_path, f"'{tmp_path}' is a folder; give a buff file (.toml)"),
            (fifo, f"'{fifo}' is a device, pipe or socket, not a file; give a buff file "
                   "(.toml)"),
            (deep, f"buff file '{deep}', line 2: arrays or tables nested more than 50 deep; a "
                   'buff file is one [buffs] table of name = "text"')]:
        code, out, err = run(capsys, "exact", GUN, "--target", TARGET, "--buffs", str(path),
                             "--buff", "Oath")
        assert (code, out, err) == (2, "", f"mathhammer: error: {message}\n")


def test_a_buff_file_alone_is_read_and_changes_nothing(capsys, buff_file):
    code, out, err = run(capsys, "exact", GUN, "--target", TARGET, "--buffs", buff_file,
                         "--json")
    assert code == 0 and err == ""
    assert json.loads(out)["damage"]["mean"] == mh.exact([GUN], TARGET).mean("damage")
