"""The fixed benchmark scenarios of issue 5.

Each :class:`Scenario` carries the text mathhammer reads (weapon lines, target line, options)
*and* the same attack written out by hand as plain numbers (hit, wound and save thresholds,
damage, allocation). The baselines read only the hand-derived numbers, never
:func:`mathhammer.wh40k.compile.compile_plan`, so they are independent implementations; the
benchmark then checks every engine's answer against mathhammer's exact engine, which also
cross-checks the hand derivations below.

Hand derivations (core rules 05.01-05.04):

- rifle squad: BS3+ hits on 3+; S4 vs T3 wounds on 3+; Sv5+ with AP-1 saves on 6+.
- heavy bolters: BS4+; a 6 is a critical hit and [SUSTAINED HITS 1] adds one hit; S5 vs T4
  wounds on 3+; Sv3+ with AP-1 saves on 4+; D2 against W2 kills a model per unsaved wound.
- lascannons: BS4+; S12 vs T10 wounds on 3+; Sv3+ with AP-3 saves on 6+; D6+1 damage against
  one W12 model (excess damage lost only past the last wound).
- thunder hammers: WS3+; S8 vs T5 wounds on 3+, a 6 is a critical wound and [DEVASTATING
  WOUNDS] turns it into D mortal wounds (no save); the best save is InSv4+ (Sv2+ with AP-2 is
  4+ too); D2 against W3 means two damaging events per Terminator, wounded model first.
- horde: [TORRENT] flamers (D6 attacks each) hit automatically; S4 vs T3 wounds on 3+;
  Sv6+ AP0 saves on 6+; FNP5+ ignores each wound on 5+; W1 with D1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

NO_ROLL = 7  # a save / FNP "on 7+": never succeeds


@dataclass(frozen=True)
class Dice:
    """``count`` D``sides`` + ``const`` (sides 0 when there are no dice)."""

    count: int = 0
    sides: int = 0
    const: int = 0

    @property
    def mean(self) -> Fraction:
        return self.count * Fraction(self.sides + 1, 2) + self.const if self.sides else \
            Fraction(self.const)

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.const

    @property
    def random(self) -> bool:
        return self.count > 0 and self.sides > 0


@dataclass(frozen=True)
class Scenario:
    """One single-batch benchmark scenario, in mathhammer's words and by hand."""

    key: str
    title: str
    weapons: tuple[str, ...]
    target: str
    options: dict[str, Any] = field(default_factory=dict)
    # Hand-derived numbers for the baselines (see the module docstring).
    n_weapons: int = 1
    attacks: Dice = Dice()
    hit_on: int | None = 3        # None: [TORRENT], hits automatically
    sustained: int = 0            # extra hits per critical hit (crit on 6)
    wound_on: int = 4
    devastating: bool = False     # critical wounds (6) become mortal wounds
    save_on: int = NO_ROLL        # best save after AP (7: none)
    damage: Dice = Dice(0, 0, 1)
    fnp: int = NO_ROLL
    models: int = 1
    wounds: int = 1

    @property
    def mean_attacks(self) -> Fraction:
        return self.n_weapons * self.attacks.mean

    def expected_d6(self) -> dict[str, Fraction]:
        """Expected D6 a one-die-at-a-time simulation rolls per trial, by step.

        Formula (no re-rolls in these scenarios; counts ignore that a simulation may stop
        rolling once the target unit is destroyed, so they are an upper bound on the dice
        really needed and make the floor, if anything, slower)::

            attack-count dice = n_weapons * A.count                 (AD6: one die per weapon)
            hit rolls         = E[A]                                (0 with [TORRENT])
            E[hits]           = E[A] * (P(non-critical hit) + 1/6 * (1 + SUSTAINED))
            wound rolls       = E[hits]
            save rolls        = E[hits] * (P(non-critical wound) + (0 if DEVASTATING else 1/6))
            damage events     = save rolls * P(save fails) + (E[hits]/6 if DEVASTATING)
            damage dice       = damage events * D.count
            FNP rolls         = damage events * E[D]                (only with Feel No Pain)
        """
        sixth = Fraction(1, 6)
        attacks = self.mean_attacks
        out = {"attack count": Fraction(self.n_weapons * self.attacks.count)
               if self.attacks.random else Fraction(0)}
        if self.hit_on is None:
            out["hit"] = Fraction(0)
            hits = attacks
        else:
            out["hit"] = attacks
            hits = attacks * (Fraction(6 - self.hit_on, 6) + sixth * (1 + self.sustained))
        out["wound"] = hits
        normal_wound = Fraction(6 - self.wound_on, 6)
        to_save = hits * (normal_wound + (0 if self.devastating else sixth))
        out["save"] = to_save
        events = to_save * Fraction(self.save_on - 1, 6) + (hits * sixth if self.devastating
                                                             else 0)
        out["damage"] = events * self.damage.count if self.damage.random else Fraction(0)
        out["fnp"] = events * self.damage.mean if self.fnp < NO_ROLL else Fraction(0)
        return out

    def d6_per_trial(self) -> float:
        return float(sum(self.expected_d6().values()))


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        key="rifle_geq", title="rifle squad -> GEQ",
        weapons=('10x Bolt rifle: 24" A2 BS3+ S4 AP-1 D1',),
        target="10x Guardsman: T3 Sv5+ W1 [INFANTRY]",
        n_weapons=10, attacks=Dice(0, 0, 2), hit_on=3, wound_on=3, save_on=6,
        damage=Dice(0, 0, 1), models=10, wounds=1),
    Scenario(
        key="hb_meq", title="heavy bolters (SH1) -> MEQ",
        weapons=('4x Heavy bolter: 36" A3 BS4+ S5 AP-1 D2 [SUSTAINED HITS 1]',),
        target="10x Intercessor: T4 Sv3+ W2 [INFANTRY]",
        n_weapons=4, attacks=Dice(0, 0, 3), hit_on=4, sustained=1, wound_on=3, save_on=4,
        damage=Dice(0, 0, 2), models=10, wounds=2),
    Scenario(
        key="lascannon_vehicle", title="lascannons -> vehicle",
        weapons=('2x Lascannon: 48" A1 BS4+ S12 AP-3 DD6+1',),
        target="Rhino: T10 Sv3+ W12 [VEHICLE]",
        n_weapons=2, attacks=Dice(0, 0, 1), hit_on=4, wound_on=3, save_on=6,
        damage=Dice(1, 6, 1), models=1, wounds=12),
    Scenario(
        key="hammers_teq", title="thunder hammers (DW) -> TEQ InSv4+",
        weapons=("5x Thunder hammer: Melee A3 WS3+ S8 AP-2 D2 [DEVASTATING WOUNDS]",),
        target="5x Terminator: T5 Sv2+ InSv4+ W3 [INFANTRY]",
        n_weapons=5, attacks=Dice(0, 0, 3), hit_on=3, wound_on=3, devastating=True,
        save_on=4, damage=Dice(0, 0, 2), models=5, wounds=3),
    Scenario(
        key="horde_fnp", title="flamers -> 20 horde FNP5+",
        weapons=('10x Flamer: 12" AD6 BSN/A S4 AP0 D1 [TORRENT, IGNORES COVER]',),
        target="20x Cultist: T3 Sv6+ W1 FNP5+ [INFANTRY]",
        n_weapons=10, attacks=Dice(1, 6, 0), hit_on=None, wound_on=3, save_on=6,
        damage=Dice(0, 0, 1), fnp=5, models=20, wounds=1),
)

BY_KEY = {s.key: s for s in SCENARIOS}

# --- the whole-unit shoot-then-fight scenario (issue 3's scenario engine) -------------------
#: The scenario file of issue 3's minimal schema: Intercessors shoot Boyz, the Boyz charge and
#: fight back. Runs once ``mathhammer.wh40k.scenario.model`` exists (see benchmarks/run.py).
SHOOT_THEN_FIGHT_TOML = '''
[units.Intercessors]
models = [
  { name = "Intercessor", count = 4, profile = "T4 Sv3+ W2 [INFANTRY]",
    weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]",
               "Close combat weapon: Melee A3 WS3+ S4 AP0 D1"] },
  { name = "Sergeant", count = 1, profile = "T4 Sv3+ W2 [INFANTRY]",
    weapons = ["Bolt rifle: 24\\" A2 BS3+ S4 AP-1 D1 [ASSAULT, HEAVY]",
               "Power weapon: Melee A4 WS3+ S5 AP-2 D1"] },
]

[units.Boyz]
models = [{ name = "Boy", count = 10, profile = "T5 Sv5+ W1 [INFANTRY]",
            weapons = ["Choppa: Melee A3 WS3+ S4 AP-1 D1"] }]

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
'''
