"""Generated tournament lists for the meta matrix's tests and benchmark (test helper).

A pool of made-up datasheets (names, statlines and weapons written for the tests, in the
New Recruit JSON / BattleScribe XML schemas of :mod:`.builder`); each generated list draws a
few of them with one of two squad sizes, so an event's lists share most datasheets as real
events do.
"""

from __future__ import annotations

import random
from pathlib import Path

from . import builder as b

#: name, models, points per model, (T, Sv, W, InSv), ranged weapon, melee weapon, category
POOL = [
    ("Line Troopers", (5, 10), 10, (3, "5+", 1, "-"),
     ("Las carbine", '24"', "2", "4+", "3", "0", "1", "RAPID FIRE 1"),
     ("Bayonet", "1", "4+", "3", "0", "1", "-"), "Infantry"),
    ("Shield Wardens", (3, 6), 35, (4, "2+", 3, "4+"),
     ("Storm carbine", '18"', "2", "3+", "4", "-1", "1", "-"),
     ("Power maul", "3", "3+", "6", "-1", "2", "-"), "Infantry"),
    ("Heavy Gun Team", (1, 2), 60, (5, "4+", 3, "-"),
     ("Autocannon", '48"', "2", "4+", "9", "-1", "3", "HEAVY"),
     ("Fists", "1", "5+", "4", "0", "1", "-"), "Infantry"),
    ("Assault Brutes", (3, 6), 30, (6, "4+", 3, "-"),
     ("Slugga", '12"', "1", "5+", "4", "0", "1", "PISTOL"),
     ("Big choppa", "4", "3+", "7", "-1", "2", "-"), "Infantry"),
    ("Walker", (1, 1), 140, (9, "3+", 10, "-"),
     ("Lascannon", '48"', "1", "3+", "12", "-3", "D6+1", "-"),
     ("Walker fist", "4", "3+", "10", "-2", "3", "-"), "Vehicle"),
    ("Raiders", (5, 10), 14, (3, "4+", 1, "-"),
     ("Splinter gun", '24"', "2", "3+", "2", "0", "1", "ANTI-INFANTRY 3+"),
     ("Blade", "2", "3+", "3", "0", "1", "-"), "Infantry"),
    ("Jetbikes", (3, 6), 25, (5, "3+", 2, "-"),
     ("Twin shuriken", '18"', "4", "3+", "4", "-1", "1", "TWIN-LINKED"),
     ("Bike blade", "2", "3+", "4", "0", "1", "-"), "Mounted"),
    ("Tank", (1, 1), 180, (11, "2+", 14, "-"),
     ("Battle cannon", '48"', "D6+3", "4+", "9", "-1", "3", "BLAST"),
     ("Tracks", "3", "4+", "7", "0", "1", "-"), "Vehicle"),
    ("Gene Hunters", (3, 6), 28, (4, "4+", 2, "5+"),
     ("Needle pistol", '12"', "1", "3+", "3", "-1", "1", "PISTOL"),
     ("Rending claws", "3", "3+", "4", "-2", "1", "DEVASTATING WOUNDS"), "Infantry"),
    ("Beast", (1, 1), 120, (10, "3+", 12, "-"),
     ("Spine volley", '24"', "6", "4+", "5", "0", "1", "-"),
     ("Scything talons", "5", "3+", "8", "-2", "3", "-"), "Monster"),
]


def _unit(index: int, size: int, edition: int) -> dict:
    name, _, points, (t, sv, w, insv), gun, blade, category = POOL[index]
    gun_name, rng, a, bs, s, ap, d, kw = gun
    blade_name, ma, ws, ms, map_, md, mkw = blade
    weapons = [b.selection(gun_name, number=size, profiles=[b.ranged(gun_name, rng, a, bs, s,
                                                                     ap, d, kw)]),
               b.selection(blade_name, number=size, profiles=[
                   b.melee(blade_name, ma, ws, ms, map_, md, mkw)])]
    kind = "unit" if size > 1 else "model"
    statline = b.statline(name.rstrip("s"), edition, t, sv, w, insv)
    if kind == "model":
        return b.selection(name, "model", 1, pts=points, categories=[category],
                           profiles=[statline], selections=weapons)
    model = b.selection(name.rstrip("s"), "model", size, selections=weapons)
    return b.selection(name, "unit", pts=points * size, categories=[category],
                       profiles=[statline], selections=[model])


def event_lists(folder: Path, n: int, *, units: int = 4, seed: int = 36,
                edition: int = 11) -> list[Path]:
    """Write ``n`` lists of ``units`` datasheets each into ``folder`` (alternately New
    Recruit JSON and BattleScribe XML) and return their paths."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        chosen = rng.sample(range(len(POOL)), units)
        army = [_unit(k, rng.choice(POOL[k][1]), edition) for k in chosen]
        tree = b.roster(edition, f"Test - Event {i % 5}", army, name=f"List {i:03d}")
        if i % 2:
            path = folder / f"list_{i:03d}.ros"
            path.write_text(b.to_xml(tree), encoding="utf-8")
        else:
            path = folder / f"list_{i:03d}.json"
            path.write_text(b.to_json(tree), encoding="utf-8")
        paths.append(path)
    return paths
