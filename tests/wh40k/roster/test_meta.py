"""The meta matrix: lists read and skipped, pairings keyed and solved once, each unit at its
best target with the same numbers as ``roster A --against B``."""

import dataclasses
import os
import subprocess
import sys

import pytest

import mathhammer as mh
from mathhammer.errors import OptionError, RosterError
from mathhammer.wh40k.roster.meta import (PLAN_RULE, attacker_key, canonical, digest, meta,
                                          read_lists)

from .conftest import FILES
from .event_lists import event_lists


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    return event_lists(tmp_path_factory.mktemp("event"), 4, units=3)


def test_unreadable_and_other_edition_files_are_named_and_skipped(tmp_path, event):
    (tmp_path / "notes.ros").write_text("not a roster", encoding="utf-8")
    found = read_lists([*event, tmp_path / "notes.ros", FILES / "ninth_edition.ros",
                        FILES / "marines_10e.ros"])
    assert list(found.rosters) == [p.stem for p in event] and found.edition == 11
    reasons = {os.path.basename(s.path): s.reason for s in found.skipped}
    assert set(reasons) == {"notes.ros", "ninth_edition.ros", "marines_10e.ros"}
    assert "not a roster" in reasons["notes.ros"]
    assert "9th Edition" in reasons["ninth_edition.ros"]
    assert reasons["marines_10e.ros"].endswith("marines_10e.ros: a 10th-edition list among "
                                               "11th-edition ones")
    assert all(os.path.basename(s.path) in s.reason for s in found.skipped)


def test_a_file_name_with_a_control_character_is_skipped_and_named_escaped(tmp_path, event):
    # the file name (without extension) labels the list in every table on stdout
    import shutil

    from mathhammer.core.limits import shown

    for name in ("esc\x1b]0;pwn\x07.ros", "new\nline.ros", "bad\udcff.ros"):
        shutil.copy(event[1], tmp_path / name)
    (tmp_path / "notes\x1b[31m.ros").write_text("not a roster", encoding="utf-8")
    found = read_lists([*event[:2], tmp_path])
    assert list(found.rosters) == [p.stem for p in event[:2]]
    reasons = sorted(shown(s.reason).replace(str(tmp_path), "DIR") for s in found.skipped)
    assert reasons == [
        "DIR/bad\\udcff.ros: its file name holds '\\udcff' (a byte that is not UTF-8 text): "
        "rename the file",
        "DIR/esc\\x1b]0;pwn\\x07.ros: its file name holds '\\x1b' (a control character): "
        "rename the file",
        "DIR/new\\nline.ros: its file name holds '\\n' (a control character): rename the file",
        "DIR/notes\\x1b[31m.ros: its file name holds '\\x1b' (a control character): rename "
        "the file"]


def test_fewer_than_two_lists_is_one_line_naming_the_files(tmp_path):
    with pytest.raises(RosterError, match="found 0") as caught:
        read_lists(tmp_path)
    (tmp_path / "notes.ros").write_text("not a roster", encoding="utf-8")
    with pytest.raises(RosterError, match="notes.ros") as caught:
        read_lists(tmp_path)
    assert "\n" not in str(caught.value)
    with pytest.raises(OptionError, match="neither a folder nor a file"):
        read_lists(tmp_path / "missing")
    with pytest.raises(OptionError, match="phase 'shoot'"):
        meta([FILES / "orks_11e.ros", FILES / "orks_11e.rosz"], phases="shoot")


def test_a_cell_equals_roster_against_with_the_same_plan(event):
    result = meta(event, method="exact")
    first, second = mh.load_roster(event[0]), mh.load_roster(event[1])
    frame = first.against(second, method="exact")
    per_model = {u.name: u.points / u.models for u in second.targets}
    rows = frame[frame["metric"] == "expected_models_destroyed"]
    plans = result.plans.set_index(["list", "opponent", "unit", "phase"])
    total = 0.0
    for (unit, phase), part in rows.groupby(["attacker", "phase"], sort=False):
        points = part["value"] * part["target"].map(per_model)
        best = part.loc[points.idxmax()]
        plan = plans.loc[(event[0].stem, event[1].stem, unit, phase)]
        assert plan["target"] == best["target"]
        # exact; the one-pass grid batches the pairings of many lists together, which can
        # move the last bit
        assert plan["points"] == pytest.approx(points.max(), rel=1e-12, abs=1e-300)
        assert plan["models"] == pytest.approx(best["value"], rel=1e-12, abs=1e-300)
        total += points.max()
    matrix = result.matrix("points_destroyed")
    assert matrix.loc[event[0].stem, event[1].stem] == pytest.approx(total, rel=1e-12)
    assert result.plan_rule == PLAN_RULE


def test_identical_pairings_are_solved_once(event):
    counts = meta(event, method="exact").counts
    assert counts["solved"] == counts["unique"] < counts["pairings"]
    assert counts["from_cache"] == counts["pairings"] - counts["unique"]
    assert counts["list_pairs"] == 12
    # a list against its own copy: each direction is the other's pairings again
    twins = meta({"A": mh.load_roster(event[0]), "B": mh.load_roster(event[0])},
                 method="exact")
    assert twins.counts["unique"] * 2 == twins.counts["pairings"]
    assert twins.matrix("margin").loc["A", "B"] == 0.0


def test_pairing_keys_leave_out_names_and_points_and_hold_across_processes():
    army = mh.load_roster(FILES / "orks_11e.ros")
    unit = army.units[0]
    renamed = attacker_key(dataclasses.replace(unit, name="Other"))
    assert renamed == attacker_key(unit)
    key = digest(attacker_key(unit))
    code = ("import mathhammer as mh; from mathhammer.wh40k.roster.meta import digest, "
            f"attacker_key; print(digest(attacker_key(mh.load_roster({str(FILES / 'orks_11e.ros')!r}).units[0])))")
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed}, check=True)
        assert out.stdout.strip() == key
    assert canonical({"b": {2.5}}) == ("map", (("b", ("set", (float.hex(2.5),))),))


def test_exact_refusal_names_the_pairing_as_the_lists_name_it(monkeypatch):
    # the mixed-unit exact engine made to refuse, as it refuses what it does not cover (a
    # Command Re-roll against several statlines was such a case until issue 34)
    from mathhammer.wh40k.exact_engine import mixed

    def refuse(_compiled):
        raise mh.UnsupportedError("a Command Re-roll against a unit of several statlines is "
                                  "not covered here")

    monkeypatch.setattr(mixed, "solve_activation", refuse)
    lists = [FILES / "orks_11e.ros", FILES / "leaders_11e.json"]
    with pytest.raises(mh.UnsupportedError, match=r"does not cover \w.* against Intercessor "
                       r"Squad \(fight\).*Command Re-roll.*leave out --exact") as caught:
        meta(lists, method="exact", phases="fight", command_reroll="hit")
    assert "\n" not in str(caught.value)


def test_every_cell_keeps_the_key_of_its_own_digest(event):
    # The keys are made once per attacker, target and phase however many list pairs hold
    # them: each cell's key must still be the digest of that cell's own parts.
    from mathhammer.wh40k.roster.analyse import analysis_targets
    from mathhammer.wh40k.roster.meta import Settings, pairings, target_key

    found = read_lists(event)
    settings = Settings.build(found.edition, "exact", 1, 1, "best", ("shooting", "fight"), {})
    cells, unique = pairings(found.rosters, settings)
    shared = digest(settings.key())
    for (mine, theirs), rows in cells.items():
        units = {u.name: digest(attacker_key(u)) for u in found.rosters[mine].units}
        made = analysis_targets(found.rosters[theirs], None)
        targets = {t.label: digest(target_key(t)) for t in made}
        assert len(rows) == len(units) * len(targets) * 2
        for unit, target, phase, key, _ in rows:
            assert key == digest(units[unit], targets[target], phase, shared)
            assert unique[key].phase == phase


@pytest.mark.parametrize("limit, count, what, cost", [
    ("MAX_PAIRINGS", 216, "unit pairings (each unit against each unit of every other list",
     "about 40 s"),
    ("MAX_PLAN_ROWS", 72, "plan rows (each unit's best target against every other list",
     "about 2 GB")])
def test_too_many_pairings_are_refused_before_any_is_made(event, monkeypatch, limit, count,
                                                          what, cost):
    # 4 lists of 3 units, each unit a target, 2 phases, by hand: unit pairings 2 x (12 x 12 -
    # 4 x 3 x 3) = 216; plan rows (a unit's best target per other list) 2 x 12 x 3 = 72
    from mathhammer.wh40k.roster import meta as meta_module

    monkeypatch.setattr(meta_module, limit, count - 1)
    with pytest.raises(OptionError) as caught:
        meta(event, method="exact")
    assert str(caught.value) == (
        f"meta: 4 lists make {count} {what}, per phase; limit {count - 1}, {cost}): give "
        "fewer lists at once (a round's tables, a pod) or one phase (--phase shooting; "
        "phases='shooting' in Python)")
    assert meta(event, method="exact", phases="shooting").counts["pairings"] == 108
    monkeypatch.setattr(meta_module, limit, count)
    assert meta(event, method="exact").counts["pairings"] == 216


def test_cells_are_made_when_asked_and_counted_without_making_them(event):
    from mathhammer.wh40k.roster.meta import Settings, pairings

    found = read_lists(event)
    settings = Settings.build(found.edition, "exact", 1, 1, "best", ("shooting",), {})
    cells, _ = pairings(found.rosters, settings)
    labels = list(found.rosters)
    assert list(cells) == [(a, b) for a in labels for b in labels if a != b]
    assert cells.size() == sum(len(rows) for rows in cells.values()) == 12 * 3 * 3
    with pytest.raises(KeyError):
        cells[(labels[0], labels[0])]
