"""The library hooks the web page uses: progress sent to a listener (and cancelling through
it), charts as bytes, rosters read from memory."""

from __future__ import annotations

import pytest

import mathhammer as mh
from mathhammer.core.progress import Cancelled, listen

BOLTER = 'Bolt rifle: 24" A2 BS3+ S4 AP-1 D1'


def test_a_listener_follows_a_grid_cell_by_cell():
    steps = []
    with listen(lambda done, total, desc: steps.append((done, total))):
        mh.compare([BOLTER, f"5x {BOLTER}"], ["MEQ", "GEQ"], method="exact")
    assert steps[0] == (0, 4) and steps[-1] == (4, 4)
    assert [d for d, _ in steps] == sorted(d for d, _ in steps)


def test_a_listener_raising_cancelled_stops_the_work():
    seen = []

    def report(done, total, desc):
        seen.append(done)
        if done >= 1:
            raise Cancelled("cancelled")

    with pytest.raises(Cancelled), listen(report):
        mh.compare([BOLTER] * 3, ["MEQ", "GEQ", "TEQ"], method="exact")
    assert max(seen) == 1  # stopped at the first step, eight cells never computed


def test_listening_in_one_thread_leaves_others_alone():
    import threading

    other = []
    thread = threading.Thread(target=lambda: other.append(mh.compare([BOLTER], ["MEQ"],
                                                                     method="exact")))
    with listen(lambda *args: None):
        thread.start()
        thread.join()
    assert not other[0].empty


def test_render_gives_the_bytes_save_writes(tmp_path):
    from mathhammer.charts.layout import render, save

    result = mh.exact([BOLTER], "MEQ")
    for fmt in ("png", "svg"):
        path = save(result.plot("damage"), tmp_path / f"chart.{fmt}")
        assert render(result.plot("damage"), fmt) == path.read_bytes()
    with pytest.raises(mh.OptionError, match="use png, svg or pdf"):
        render(result.plot("damage"), "gif")


def test_a_roster_from_memory_is_the_roster_of_its_file(roster_files):
    from mathhammer.wh40k.roster.api import parse_roster

    for path in roster_files.values():
        held = parse_roster(path.read_bytes(), path.name)
        on_disk = mh.load_roster(path)
        assert held.to_dict() == on_disk.to_dict() and held.source == path.name
    with pytest.raises(mh.errors.RosterError, match="big.ros: the file is 17.0 MiB"):
        parse_roster(b" " * (17 * 2**20), "big.ros")
    with pytest.raises(mh.errors.RosterError, match="content is bytes"):
        parse_roster("text", "x.ros")


def test_each_outermost_scope_in_turn_reports():
    from mathhammer.core.progress import bar

    steps = []
    with listen(lambda done, total, desc: steps.append((desc, done, total))):
        for desc in ("first", "second"):
            with bar(2, desc) as outer:
                with bar(5, "inner") as inner:  # nested: not reported
                    inner.update(5)
                outer.update(2)
    assert steps == [("first", 0, 2), ("first", 2, 2), ("second", 0, 2), ("second", 2, 2)]
