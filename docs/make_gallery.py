"""Draw every chart kind on realistic content into ``docs/gallery/``: the pictures the README
shows. The documentation site's gallery is made by ``docs/gallery_scripts/`` at build time.

Realistic means what articles use: unit names of forty to sixty characters, ten series in one
comparison, probabilities of a few percent, a whole-unit scenario. Run from the repository
root::

    python docs/make_gallery.py

The same content is drawn by ``tests/charts/test_geometry.py``, which checks the drawn
geometry (texts inside the canvas and not overlapping, legends off the data).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import mathhammer as mh  # noqa: E402
from mathhammer import charts  # noqa: E402
from mathhammer.wh40k.comparisons import results  # noqa: E402

ATTACKERS = {
    "Devastator Squad with 4 lascannons (Armour of Contempt ignored)":
        '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles":
        '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2, HEAVY]',
    "Hellblaster Squad, 10 plasma incinerators (supercharged)":
        '10x Plasma incinerator: 24" A2 BS3+ S8 AP-3 D2 [HAZARDOUS, RAPID FIRE 1]',
    "Predator Annihilator, twin lascannon and lascannon sponsons":
        '3x Twin lascannon: 48" A1 BS3+ S12 AP-3 D6+1 [TWIN-LINKED]',
    "Broadside Battlesuits with heavy rail rifles":
        '3x Heavy rail rifle: 60" A2 BS4+ S12 AP-4 D6+1 [DEVASTATING WOUNDS, HEAVY]',
}
POINTS = [120, 95, 230, 130, 240]
TARGETS = {
    "Leman Russ Battle Tank": "Leman Russ Battle Tank: T11 Sv2+ W13 [VEHICLE]",
    "Rhino": "Rhino: T9 Sv3+ W10 [VEHICLE]",
    "Terminator Squad (5)": "5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]",
    "Ork Boyz mob (20)": "20x Boy: T5 Sv5+ W1 [INFANTRY]",
}
TRIALS = 20_000

SCENARIO = '''
rounds = 3

[units.Intercessors]
attached = ["Captain"]
models = [
  { name = "Intercessor", count = 4, profile = "T4 Sv3+ W2 [INFANTRY]",
    weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]",
               "Close combat weapon: Melee A3 WS3+ S4 AP0 D1"] },
  { name = "Sergeant", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]",
    weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]",
               "Power weapon: Melee A4 WS3+ S5 AP-2 D1"] },
]

[units.Captain]
models = [{ name = "Captain", count = 1, profile = "T4 Sv3+ InSv4+ W5 [CHARACTER, INFANTRY]",
            weapons = ["Master-crafted bolt rifle: 24\\" A2 BS2+ S4 AP-1 D2",
                       "Power fist: Melee A4 WS2+ S8 AP-2 D2"] }]

[units.Boyz]
models = [
  { name = "Boy", count = 19, profile = "T5 Sv5+ W1 [INFANTRY]",
    weapons = ["Slugga: 12\\" A1 BS5+ S4 AP0 D1 [PISTOL]", "Choppa: Melee A3 WS3+ S4 AP-1 D1"] },
  { name = "Boss Nob", count = 1, profile = "T5 Sv5+ W2 [INFANTRY]",
    weapons = ["Power klaw: Melee A3 WS4+ S9 AP-2 D2"] },
]

[[activations]]
phase = "shooting"
attacker = "Intercessors"
target = "Boyz"
situation = { half_range = true, stationary = true }

[[activations]]
phase = "fight"
attacker = "Boyz"
target = "Intercessors"
situation = { charged = true }

[[activations]]
phase = "fight"
attacker = "Intercessors"
target = "Boyz"
'''


FOURTEEN = {
    "Devastator Squad – 4 lascannons": '4x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
    "Eradicator Squad, 3 melta rifles": '3x Melta rifle: 24" A1 BS3+ S9 AP-4 DD6 [MELTA 2]',
    "Hellblaster Squad, 10 plasma incinerators": '10x Plasma: 24" A2 BS3+ S8 AP-3 D2',
    "Intercessor Squad with bolt rifles": '10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
    "Aggressor Squad, flamestorm gauntlets":
        '6x Flamestorm: 12" AD6 BS3+ S7 AP-2 D1 [TORRENT]',
    "Sternguard Veterans with combi-weapons":
        '10x Combi: 24" A2 BS3+ S4 AP0 D1 [DEVASTATING WOUNDS]',
    "Inceptor Squad, plasma exterminators": '3x Plasma exterminator: 18" A2 BS3+ S8 AP-3 D2',
    "Desolation Squad, superfrag rockets": '5x Missile: 48" AD6 BS3+ S5 AP0 D1 [BLAST]',
    "Infernus Squad, pyreblasters": '10x Pyreblaster: 12" AD6 BS3+ S5 AP0 D1 [TORRENT]',
    "Heavy Intercessors, heavy bolt rifles": '5x Heavy bolt rifle: 30" A2 BS3+ S5 AP-1 D2',
    "Suppressor Squad, accelerator autocannons": '3x Accelerator: 48" A2 BS3+ S7 AP-1 D2',
    "Eliminator Squad, las fusils": '3x Las fusil: 36" A1 BS3+ S9 AP-3 D 3',
    "Outrider Squad, twin bolt rifles": '3x Twin bolt rifle: 24" A2 BS3+ S4 AP-1 D1',
    "Bladeguard Veterans, master-crafted swords":
        '3x Sword: Melee A4 WS3+ S5 AP-2 D2',
}


def extra_charts() -> dict[str, tuple[str, object]]:
    """Fourteen series, a chart drawn into the reader's own axes, Warmachine and Dust."""
    from matplotlib.figure import Figure

    from mathhammer import dust, warmachine

    boyz = {"Ork Boyz mob (20)": "20x Boy: T5 Sv5+ W1 [INFANTRY]"}
    fourteen = results(FOURTEEN, boyz, method="exact")
    figure = Figure(figsize=(7.0, 4.2), layout="constrained")
    own = charts.overlay(dict(list(fourteen.items())[:6]), ax=figure.add_subplot())
    wm = warmachine.exact(["3x Battle hammer: MAT7 POW16 [CHARGE, ARMOR-PIERCING]"],
                          ["5x Trencher Infantry: DEF13 ARM13 BOXES1 [TOUGH]"])
    du = dust.exact(["4x Laser rifle: 3/1", "Heavy laser: 4/2"],
                    "5x Ranger squad “Death Dealers”: INFANTRY2 [SOFT COVER]",
                    sustained=True)
    return {
        "overlay_fourteen": ("Fourteen series against one target: two panels of seven, "
                             "every series its own colour, dash, marker and fill",
                             charts.overlay(fourteen)),
        "overlay_fourteen_one_panel": ("The same fourteen in one panel (facet=None): the "
                                       "legend keys show each look",
                                       charts.overlay(fourteen, facet=None)),
        "own_axes": ("Drawn into your own 7 x 4.2 in axes (ax=): laid out inside it",
                     own),
        "warmachine": ("Warmachine: a charging warjack's three hammer blows against "
                       "Trenchers (caption names MAT/POW, CHARGE and the target)",
                       wm.plot("damage")),
        "dust": ("Dust Tactics: a sustained attack (caption names weapons, target and the "
                 "sustained attack)", du.plot("models_destroyed")),
    }


def charts_to_draw() -> dict[str, tuple[str, object]]:
    """Every chart kind on realistic content: name -> (caption, artists)."""
    grid = mh.compare(ATTACKERS, TARGETS, trials=TRIALS, seed=1, points=POINTS,
                      stationary=True)
    ranged = mh.sweep(dict(list(ATTACKERS.items())[:2]), dict(list(TARGETS.items())[:3]),
                      "range", ["full", "half"], method="exact")
    cells = results(dict(list(ATTACKERS.items())[:3]) | {
        "Lascannon": '1x Lascannon: 48" A1 BS3+ S12 AP-3 D6+1',
        "Plasma gun": '1x Plasma gun: 24" A1 BS3+ S8 AP-3 D2 [RAPID FIRE 1]'},
        {"VEQ": "VEQ", "MEQ": "MEQ"}, method="exact")
    scenario = mh.run(mh.parse_scenario(SCENARIO), trials=TRIALS, seed=1)
    single = mh.simulate(ATTACKERS["Eradicator Squad, 3 melta rifles"],
                         TARGETS["Leman Russ Battle Tank"], trials=TRIALS, seed=1,
                         half_range=True)
    return {
        "heatmap": ("Heat map of a comparison grid, five units with long names against four "
                    "targets", charts.heatmap(grid, "expected_damage")),
        "heatmap_probability": ("The same grid, P(unit destroyed): small probabilities "
                                "keep a decimal", charts.heatmap(grid, "p_unit_destroyed")),
        "bars": ("Dot chart of one metric per unit, one marker per target, ±2 s.e. error "
                 "bars", charts.bars(grid, "expected_damage")),
        "bars_two_targets": ("Bars for one or two targets",
                             charts.bars(grid[grid.target.isin(list(TARGETS)[:2])],
                                         "expected_damage")),
        "bars_per_points": ("The per-100-points variant",
                            charts.bars(grid, "expected_damage", per_points=True)),
        "bars_small_probability": ("Small probabilities: P(unit destroyed) of a Terminator "
                                   "squad and a mob of Boyz stays readable, the axis fits "
                                   "the data",
                                   charts.bars(grid[grid.target.isin(list(TARGETS)[2:])],
                                               "p_unit_destroyed")),
        "sweep": ("A sweep over the range band, six series", charts.sweep_lines(ranged)),
        "overlay_ten": ("Ten series: one panel per target",
                        charts.overlay(cells, "damage")),
        "overlay_one_panel": ("Ten series forced into one panel (facet=None)",
                              charts.overlay(cells, "damage", facet=None)),
        "distribution": ("Distribution of one outcome, Monte Carlo",
                         single.plot("damage")),
        "scenario_distribution": ("A unit's losses in a whole-unit scenario",
                                  charts.distribution(scenario.models_destroyed(
                                      "Intercessors", "round 2 end"))),
        "survival": ("Survival by battle round", scenario.plot()),
        **extra_charts(),
    }


def main() -> None:
    out = HERE / "gallery"
    out.mkdir(exist_ok=True)
    for name, (_, art) in charts_to_draw().items():
        charts.save(art, out / f"{name}.png", dpi=110)


if __name__ == "__main__":
    main()
