"""Reading buffs (issue 35): what a buff's text reads as, and hostile texts refused in one
line naming the token and its column, never a traceback."""

from __future__ import annotations

import pytest

from mathhammer.errors import MathhammerError, ProfileError
from mathhammer.wh40k.buff_reader import parse_buff


HOSTILE = [
    ("", "empty buff"),
    ("   ", "empty buff"),
    ("Oath: twiddle thumbs", "'twiddle'"),
    ("+x to hit", "'+x'"),
    ("+1 to flavour", "'flavour'"),
    ("+99999999999999999999 strength", "too large"),
    ("+7 to hit", "too large"),
    ("FNP 9+", "'9+'"),
    ("[LETHAL HITZ]", "LETHAL HITZ"),
    ("[LETHAL HITS] against INF@NTRY", "INF@NTRY"),
    ("+1 to hit to FOO weapons", "'FOO'"),
    ("+1 to hit when flying", "'flying'"),
    ("re-roll", "'re-roll'"),
    ("re-roll noncrit saves", "noncrit"),
    ("lethal hits", "[LETHAL HITS]"),
    ("[LETHAL HITS", "'['"),
    ("Oath: re-roll hits]", "']'"),
    (": re-roll hits", "':'"),
    ("+1 to hit (zero CP)", "(zero CP)"),
    ("Oath: re-roll hits (1CP) when charged", "'when'"),
    ("FNP 5+ against INFANTRY", "against"),
    ("x" * 10_000, "too long"),
    ("+1 to hit" + " and +1 to hit" * 40, "too long"),
    ("+1 to hit ٣", "٣"),
]


@pytest.mark.parametrize("text, named", HOSTILE, ids=[h[0][:30] for h in HOSTILE])
def test_hostile_buffs_are_refused_in_one_line_naming_the_token(text, named):
    with pytest.raises(MathhammerError) as info:
        parse_buff(text)
    message = str(info.value)
    assert "\n" not in message and named in message and len(message) < 700


def test_parsed_buffs_read_back():
    buff = parse_buff("Bolter drill: [SUSTAINED HITS 1] to RANGED weapons when stationary "
                      "(1CP)")
    assert (buff.name, buff.weapons, buff.conditions, buff.cost, buff.cost_unit) == (
        "Bolter drill", "RANGED", ("stationary",), 1.0, "CP")
    assert str(parse_buff("re-roll hits of 1").grants[0]) == "re-roll hits (ones)"
    assert parse_buff("[LETHAL HITS] to ADEPTUS ASTARTES INFANTRY").recipients == (
        "ADEPTUS ASTARTES INFANTRY",)
    with pytest.raises(ProfileError):
        parse_buff(None)  # type: ignore[arg-type]
