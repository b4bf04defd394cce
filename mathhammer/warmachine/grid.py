"""Where damage lands on a warjack grid or a warbeast spiral (rules section 7.2).

Both are six lanes (grid columns, spiral branches) of ordered boxes. Damage fills the chosen
lane's unmarked boxes in order, then moves on to the next lane (6 wraps to 1) until it is all
placed or every box is marked. Whether the model is disabled depends on the total only, so
the engines track totals; this helper answers *which* boxes (and so which systems) are hit.
Standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from mathhammer.errors import OptionError


def mark_lanes(lane_lengths: Sequence[int], start_lane: int, damage: int,
               marked: Sequence[int] | None = None) -> tuple[int, ...]:
    """Boxes marked per lane after placing ``damage`` points starting in ``start_lane``.

    Parameters
    ----------
    lane_lengths
        Number of boxes in each of the six lanes.
    start_lane
        Lane rolled (or chosen), 1 to 6.
    damage
        Damage points to place.
    marked
        Boxes already marked per lane (default none).

    Returns
    -------
    tuple of int
        Marks per lane after the damage (including earlier marks).

    Examples
    --------
    >>> mark_lanes([4, 5, 6, 6, 5, 4], 6, 7)
    (3, 0, 0, 0, 0, 4)
    >>> mark_lanes([4, 5, 6, 6, 5, 4], 2, 12)
    (0, 5, 6, 1, 0, 0)
    """
    lengths = list(lane_lengths)
    n = len(lengths)
    if n == 0 or any(length < 0 for length in lengths):
        raise OptionError("lane_lengths needs non-negative box counts, one per lane")
    if not 1 <= start_lane <= n:
        raise OptionError(f"start lane {start_lane} is not between 1 and {n}")
    if damage < 0:
        raise OptionError(f"damage {damage} must not be negative")
    marks = [0] * n if marked is None else list(marked)
    if len(marks) != n or any(not 0 <= m <= length for m, length in zip(marks, lengths)):
        raise OptionError("marked must give 0..length marks for every lane")
    return fill_lanes(lengths, start_lane, damage, marks)


def fill_lanes(lane_lengths: Sequence[int], start_lane: int, damage: int,
               marked: Sequence[int]) -> tuple[int, ...]:
    """:func:`mark_lanes` without its checks of the arguments, which it takes valid: the
    exact engine's inner loop, placing damage hundreds of thousands of times on lanes it
    built itself (the checks were most of its time)."""
    n = len(lane_lengths)
    lengths = lane_lengths
    marks = list(marked)
    lane = start_lane - 1
    left = damage
    for _ in range(n):
        take = min(left, lengths[lane] - marks[lane])
        marks[lane] += take
        left -= take
        if left == 0:
            break
        lane = (lane + 1) % n
    return tuple(marks)
