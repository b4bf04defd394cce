"""Dust's fire orders laid out as rows (dust/compile.py): cover saves as the rules spec gives
them (dust-tactics.md section 8: hit_save 1/3 = 2 faces, miss_save 2/3 = 4 faces)."""

import pytest

from mathhammer.dust.compile import cover_save_faces
from mathhammer.dust.profiles import Rules, Target


def target(kind="infantry", cover="open"):
    return Target("T", kind, 2, models=5, cover=cover) if kind == "infantry" else \
        Target("T", kind, 3, boxes=4, cover=cover)


@pytest.mark.parametrize("kind, cover, faces", [
    ("infantry", "open", 0), ("infantry", "soft", 2), ("infantry", "hard", 4),
    ("vehicle", "soft", 0), ("vehicle", "hard", 0),
])
def test_dust_tactics_cover(kind, cover, faces):
    # soft cover saves infantry on the hit faces (2 of 6), hard cover on the misses (4 of 6)
    assert cover_save_faces(target(kind, cover), Rules(), False, False) == faces


def test_ignoring_cover_and_the_1947_saves():
    assert cover_save_faces(target("infantry", "hard"), Rules(), True, False) == 0
    rules_1947 = Rules(ruleset="dust1947")
    # Dust 1947: infantry always saves on 2 faces in the open, 4 in cover; a sniper ignores it
    assert cover_save_faces(target("infantry", "open"), rules_1947, False, False) == 2
    assert cover_save_faces(target("infantry", "hard"), rules_1947, False, False) == 4
    assert cover_save_faces(target("vehicle", "hard"), rules_1947, False, False) == 2
    assert cover_save_faces(target("infantry", "hard"), rules_1947, False, True) == 0
