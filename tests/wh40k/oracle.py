"""A plain reference resolver of the 40k attack sequence, and a brute-force enumerator.

This module is a test oracle. It is written straight from the rules reference
(``shared/rules/wh40k-11e.md``, sections 2-5 and 8-10, and Appendix A for ``edition=10``:
cover as +1 armour save capped with ``save_mod`` at +1, Stealth and indirect fire as -1 to
hit, mandatory [LETHAL HITS], the 10th-edition damage order, [DEVASTATING WOUNDS] after every
batch or spilling, [HAZARDOUS] failing on a 1 for 3 mortal wounds), works from the model objects
(:class:`Weapon`, :class:`TargetProfile`, :class:`Situation`, :class:`Modifiers`,
:class:`Rules`) and shares no code with :mod:`~mathhammer.wh40k.compile`,
:mod:`~mathhammer.wh40k.monte_carlo.kernels` or :mod:`~mathhammer.wh40k.exact_engine.chains`: when it agrees with
them, two independent readings of the rules agree. It is pure Python and slow on purpose;
use it for single scenarios and tiny exhaustive enumerations, never for statistics.

Dice come from a callable ``roll() -> int`` that returns the next D6 face, so a test can
force every die, and :func:`enumerate_outcomes` can walk every dice path.

Order in which :func:`resolve` asks for dice
--------------------------------------------
For each batch, in the order given (a batch is one :class:`Weapon` line, or a tuple of
weapons making identical attacks; a batch is skipped when the unit is already destroyed):

1. Attack dice, weapon by weapon (``count`` times per line): the A dice (and at once their
   re-roll, ``reroll_attacks``), a random [BLAST X] once per 5 target models, then the
   [RAPID FIRE] X dice when within half range. A fixed [BLAST]/[CLEAVE] adds fixed dice.
2. Hit rolls, attack by attack: the hit die, its re-roll at once when the policy asks for
   one, then, on a critical hit with a random [SUSTAINED HITS] X, the X dice.
3. Wound rolls for ordinary hits, then the extra hits, then the critical hits that did
   not take the [LETHAL HITS] automatic wound; each die followed at once by its re-roll.
4. Save rolls, one per wound that is still in the sequence (automatic wounds first, then
   rolled wounds in order), each followed at once by its re-roll; then sorted ascending.
   No save dice at all when no save can succeed (Sv- or Sv - AP >= 7, and no InSv).
5. For each sorted save that lets damage through (stopping once the unit is destroyed):
   the damage roll (only for a random D; at once its re-roll, ``reroll_damage``; then a
   random [MELTA X]), then one Feel No Pain die per point of damage, until the model is
   destroyed.
6. [DEVASTATING WOUNDS] critical wounds, one after the other (after the batch, or after
   every batch when ``dw_timing="unit_end"``): the damage roll, then one Feel No Pain die
   per mortal wound, until the one model they are tied to is destroyed.

After every batch: one hazard roll per [HAZARDOUS] weapon (``count`` per line).
No die is rolled when its result cannot matter (a fixed D, FNP on a destroyed model,
attacks after the unit is destroyed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from mathhammer.core.dice import DiceExpr
from mathhammer.wh40k.profiles import (
    Ability,
    Modifiers,
    Rules,
    Situation,
    TargetProfile,
    Weapon,
)

Roll = Callable[[], int]
Batch = Weapon | Sequence[Weapon]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one resolution did: wounds the target lost, models destroyed, and the mortal
    wounds the attacking unit suffered from its hazard rolls."""

    wounds_lost: int
    models_destroyed: int
    hazard_mortal_wounds: int


@dataclass
class Trace:
    """Optional record of the resolution, for tests that check the order of events.

    ``events`` holds tuples such as ``("hit", raw, outcome)``, ``("save", raw, verdict)``
    where ``verdict`` is ``"damage"``, ``"armour"`` or ``"invulnerable"``.
    """

    events: list[tuple] = field(default_factory=list)

    def of(self, kind: str) -> list[tuple]:
        return [e[1:] for e in self.events if e[0] == kind]


# -- options ------------------------------------------------------------------------------
def split_options(**options: Any) -> tuple[Situation, Modifiers, Rules, bool]:
    """Keyword options named like the API's (``half_range=True``, ``fnp=5``...) to model
    objects; ``attacker_monster_vehicle`` comes back as the fourth item."""
    names = {cls: {f.name for f in fields(cls)} for cls in (Situation, Modifiers, Rules)}
    chosen: dict[type, dict[str, Any]] = {cls: {} for cls in names}
    monster_vehicle = bool(options.pop("attacker_monster_vehicle", False))
    for key, value in options.items():
        owner = [cls for cls, known in names.items() if key in known]
        if len(owner) != 1:
            raise TypeError(f"unknown option {key!r}")
        chosen[owner[0]][key] = value
    return (Situation(**chosen[Situation]), Modifiers(**chosen[Modifiers]),
            Rules(**chosen[Rules]), monster_vehicle)


# -- the target unit ----------------------------------------------------------------------
class _Unit:
    """Wounds left on each model of one group of identical models."""

    def __init__(self, target: TargetProfile, command: str = "none") -> None:
        self.max_wounds = target.wounds
        self.left = [target.wounds] * target.count
        self.start = target.count * target.wounds
        # The Command Re-roll still in hand for this resolution ("none" once spent): the
        # first such roll that fails (a Damage roll below average) and was not re-rolled.
        self.command = command

    def spend_command(self, kind: str) -> bool:
        if self.command != kind:
            return False
        self.command = "none"
        return True

    @property
    def destroyed(self) -> bool:
        return all(w <= 0 for w in self.left)

    def pick(self) -> int:
        """05.04 / 06.02: a model that has lost wounds if there is one, else any alive."""
        for i, w in enumerate(self.left):
            if 0 < w < self.max_wounds:
                return i
        for i, w in enumerate(self.left):
            if w > 0:
                return i
        raise AssertionError("no model left")

    def suffer(self, model: int, amount: int, fnp: int | None, roll: Roll) -> None:
        """``model`` would lose ``amount`` wounds, one at a time, each with a FNP roll;
        wounds beyond the model's last one are lost (no dice rolled for them)."""
        for _ in range(amount):
            if self.left[model] <= 0:
                return
            if fnp is not None and roll() >= fnp:
                continue
            self.left[model] -= 1

    def outcome(self, hazard: int) -> Outcome:
        lost = self.start - sum(max(w, 0) for w in self.left)
        return Outcome(lost, sum(1 for w in self.left if w <= 0), hazard)


# -- small rules helpers --------------------------------------------------------------------
def _roll_expr(expr: DiceExpr, roll: Roll) -> int:
    """2.1: sum of the dice (a D3 is a D6 halved, rounded up) plus the constant."""
    total = expr.constant
    for _ in range(expr.count):
        face = roll()
        total += (face + 1) // 2 if expr.sides == 3 else face
    return total


def _roll_characteristic(expr: DiceExpr, policy: str, roll: Roll) -> int:
    """A random characteristic (A or D) rolled, then re-rolled once under ``policy``:
    ``ones`` when every die shows a 1, ``low`` when the result is below the expression's
    average. The second result stands."""
    result = _roll_expr(expr, roll)
    if expr.count == 0:
        return result
    if policy == "ones" and result == expr.count + expr.constant:
        return _roll_expr(expr, roll)
    if policy == "low" and result < expr.mean:
        return _roll_expr(expr, roll)
    return result


def _keyword_ok(keyword: str, keywords: frozenset[str]) -> bool:
    if keyword.startswith("NON-"):
        return keyword[4:] not in keywords
    return keyword in keywords


def _instances(weapon: Weapon, name: str, keywords: frozenset[str]) -> list[Ability]:
    """8.1: instances of ``name`` whose keyword scope (and ANTI keyword) the target meets."""
    found = []
    for a in weapon.abilities:
        if a.name != name:
            continue
        if a.anti_keyword is not None and not _keyword_ok(a.anti_keyword, keywords):
            continue
        if a.scope and not any(_keyword_ok(k, keywords) for k in a.scope):
            continue
        found.append(a)
    return found


def _x(ability: Ability | None) -> DiceExpr:
    """X of an ability (1 when omitted, as in [BLAST])."""
    if ability is None:
        return DiceExpr.fixed(0)
    return ability.value if ability.value is not None else DiceExpr.fixed(1)


def _best_x(instances: list[Ability]) -> Ability | None:
    """24.02: duplicates never stack; use the instance with the largest (mean) X."""
    best = None
    for a in instances:
        if best is None or _x(a).mean > _x(best).mean:
            best = a
    return best


def _needed_to_wound(s: int, t: int) -> int:
    """The 05.02 table."""
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    if 2 * s > t:
        return 5
    return 6


def _capped(total: int, rules: Rules) -> int:
    """2.7: the net roll modifier is capped at +-1."""
    if not rules.roll_mod_cap:
        return total
    return min(1, max(-1, total))


def _wants_reroll(policy: str, raw: int, outcome: str) -> bool:
    """9.1 policies; ``outcome`` is "fail", "success"/"saved" or "critical"."""
    if policy == "ones":
        return raw == 1
    if policy == "failed":
        return outcome == "fail"
    if policy == "noncrit":
        return outcome != "critical"
    return policy == "all"


def modified_damage(raw: int, add: int, halve: bool, minus: int, edition: int = 11) -> int:
    """2.5 / 9.3: add, then divide, then subtract, then round any fraction up, then D >= 1.
    10th edition (Appendix A): divide, then add, then subtract, then round up.

    >>> modified_damage(5, 2, True, 1)   # Appendix C15
    3
    >>> modified_damage(5, 2, True, 1, edition=10)   # 5/2 + 2 - 1 = 3.5
    4
    """
    value = Fraction(raw)
    if edition == 10:
        if halve:
            value /= 2
        value += add
    else:
        value += add
        if halve:
            value /= 2
    value -= minus
    rounded = -(-value.numerator // value.denominator)
    return max(1, rounded)


# -- one batch ----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Profile:
    """Everything about a batch that does not depend on the dice."""

    weapons: tuple[Weapon, ...]
    ranged: bool
    auto_hit: bool
    overwatch: bool
    skill: int
    hit_mod: int
    crit_hit: int
    indirect_fail: int
    hit_reroll: str
    sustained: DiceExpr
    lethal: bool
    extra_crit: bool
    need: int
    wound_mod: int
    crit_wound: int
    wound_reroll: str
    twin_linked: bool
    save: int
    invuln: int | None
    ap: int
    armour_mod: int
    invuln_mod: int
    save_reroll: str
    damage: DiceExpr
    damage_add: int
    halve: bool
    minus: int
    mortal_halve: bool
    mortal_minus: int
    devastating: bool
    bonus_dice: int
    rapid_fire: DiceExpr
    hazardous: int
    edition: int
    damage_reroll: str = "none"
    attacks_reroll: str = "none"
    melta_dice: DiceExpr = DiceExpr.fixed(0)   # a random [MELTA X], rolled per attack
    blast_dice: DiceExpr = DiceExpr.fixed(0)   # a random [BLAST X] ...
    blast_rolls: int = 0                       # ... rolled this many times per weapon
    cleave_dice: DiceExpr = DiceExpr.fixed(0)  # a random [CLEAVE X], the same way
    psychic: bool = False                      # a psychic attack: FNP (psychic) applies
    command_one_die: bool = True               # a Command Re-roll takes one Damage die

    def damage_roll(self, roll: Roll) -> tuple[int, int]:
        """The Damage roll (re-rolled by policy), then a random [MELTA X] roll (0 if none)."""
        damage = _roll_characteristic(self.damage, self.damage_reroll, roll)
        return damage, _roll_expr(self.melta_dice, roll)

    def damage_roll_with_command(self, unit: _Unit, roll: Roll) -> tuple[int, int]:
        """:meth:`damage_roll`, with the Command Re-roll for Damage spent on a result below
        the average when it is in hand: the whole roll again, or (2.4, ``one_die``) the
        lowest of its dice only."""
        if unit.command != "damage" or not self.damage.count:
            return self.damage_roll(roll)
        dice = [_roll_expr(DiceExpr(1, self.damage.sides, 0), roll)
                for _ in range(self.damage.count)]
        damage = self.damage.constant + sum(dice)
        if damage < self.damage.mean and unit.spend_command("damage"):
            if self.command_one_die and len(dice) > 1:
                damage += _roll_expr(DiceExpr(1, self.damage.sides, 0), roll) - min(dice)
            else:
                damage = _roll_expr(self.damage, roll)
        return damage, _roll_expr(self.melta_dice, roll)


def _profile(batch: tuple[Weapon, ...], target: TargetProfile, sit: Situation,
             mods: Modifiers, rules: Rules) -> _Profile:
    w = batch[0]
    kw = target.keywords

    def has(name: str) -> bool:
        return bool(_instances(w, name, kw))

    ranged = not w.melee
    overwatch = sit.overwatch and ranged
    indirect = sit.indirect and ranged and bool(_instances(w, "INDIRECT FIRE", kw))
    psychic = has("PSYCHIC")
    torrent = has("TORRENT") or w.skill is None
    auto_hit = torrent and not (overwatch and not rules.torrent_in_snap)

    tenth = rules.edition == 10
    stealth = "STEALTH" in kw
    # 4.1 / 2.6 / 7.1: characteristic changes to BS, clamped, outside the cap. In 10th
    # edition (Appendix A) cover is a +1 to the armour save instead, and Stealth -1 to hit.
    if tenth:
        cover = ranged and (sit.cover or indirect) and not has("IGNORES COVER")
    else:
        cover = ranged and (sit.cover or stealth or indirect) and not has("IGNORES COVER")
    improve = mods.skill_mod
    worsen = 1 if cover and not tenth else 0
    roll_mods = mods.hit_mod
    if tenth and ranged:
        roll_mods -= (1 if stealth else 0) + (1 if indirect else 0)
    if psychic and not tenth:  # 24.29 / 2.8: drop the harmful modifiers, keep the helpful
        worsen = 0
        improve = max(improve, 0)
        roll_mods = max(roll_mods, 0)
    base = w.skill if w.skill is not None else 6
    skill = min(6, max(2, base - improve + worsen))
    heavy = has("HEAVY") and ranged and sit.stationary and not overwatch
    hit_mod = _capped(roll_mods + (1 if heavy else 0), rules)
    crit_hit = 6 if overwatch else mods.crit_hits
    if tenth and has("CONVERSION") and sit.beyond_12 and ranged and not overwatch:
        crit_hit = min(crit_hit, 4)
    if tenth:
        indirect_fail = 3 if indirect else 0
        hit_reroll = mods.reroll_hits
    else:
        indirect_fail = (3 if sit.stationary and sit.spotted else 5) if indirect else 0
        hit_reroll = "none" if (overwatch or indirect) else mods.reroll_hits

    sustained = _x(_best_x(_instances(w, "SUSTAINED HITS", kw)))
    lethal = has("LETHAL HITS") and not auto_hit
    if lethal and rules.lethal_policy == "never" and not tenth:
        lethal = False
    if lethal and rules.lethal_policy == "ev" and not tenth:
        raise NotImplementedError("the reference resolver does not implement lethal_policy='ev'")

    strength = max(1, w.strength + mods.strength_mod)
    lance = has("LANCE") and sit.charged
    crit_wound = mods.crit_wounds
    for anti in _instances(w, "ANTI", kw):
        crit_wound = min(crit_wound, anti.threshold)

    invuln = target.invuln
    if invuln is not None and target.invuln_scope not in ("all", "ranged" if ranged else "melee"):
        invuln = None
    ap = min(0, w.ap - mods.ap_mod)
    armour_mod = invuln_mod = mods.save_mod
    if tenth:  # cover: +1 armour save, not for Sv 3+ or better at AP 0; never above +1 total
        if cover and not (target.save <= 3 and ap == 0):
            armour_mod += 1
        armour_mod, invuln_mod = min(armour_mod, 1), min(invuln_mod, 1)

    melta_x = _x(_best_x(_instances(w, "MELTA", kw))) if (sit.half_range and ranged) \
        else DiceExpr.fixed(0)
    melta = 0 if melta_x.count else melta_x.constant
    melta_dice = melta_x if melta_x.count else DiceExpr.fixed(0)
    # 10e: a [DEVASTATING WOUNDS] attack is allocated, so "on allocation" rules apply too.
    defender_on_dw = (rules.defender_dmg_mods_vs_dw == "always"
                      or (rules.defender_dmg_mods_vs_dw == "by_trigger"
                          and (tenth or rules.damage_mod_trigger == "target")))
    bonus = 0
    random_x = {"BLAST": DiceExpr.fixed(0), "CLEAVE": DiceExpr.fixed(0)}
    for name in ("BLAST", "CLEAVE"):
        inst = _best_x(_instances(w, name, kw))
        if inst is not None and _x(inst).count:   # a random X: one roll per 5 models
            random_x[name] = _x(inst)
        elif inst is not None:
            bonus += _x(inst).constant * (target.count // 5)
    rapid = _x(_best_x(_instances(w, "RAPID FIRE", kw))) if (sit.half_range and ranged) \
        else DiceExpr.fixed(0)
    return _Profile(
        weapons=batch, ranged=ranged, auto_hit=auto_hit, overwatch=overwatch, skill=skill,
        hit_mod=hit_mod, crit_hit=crit_hit, indirect_fail=indirect_fail,
        hit_reroll=hit_reroll, sustained=sustained, lethal=lethal,
        extra_crit=rules.sustained_extra_are_crit,
        need=_needed_to_wound(strength, target.toughness),
        wound_mod=_capped(mods.wound_mod + (1 if lance else 0), rules), crit_wound=crit_wound,
        wound_reroll=mods.reroll_wounds, twin_linked=has("TWIN-LINKED"), save=target.save,
        invuln=invuln, ap=ap, armour_mod=armour_mod, invuln_mod=invuln_mod,
        save_reroll=mods.reroll_saves, damage=w.damage,
        damage_add=melta + mods.damage_plus, halve=mods.damage_halved,
        minus=mods.damage_minus, mortal_halve=mods.damage_halved and defender_on_dw,
        mortal_minus=mods.damage_minus if defender_on_dw else 0,
        devastating=has("DEVASTATING WOUNDS"), bonus_dice=bonus, rapid_fire=rapid,
        hazardous=sum(x.count for x in batch if x.has("HAZARDOUS")), edition=rules.edition,
        damage_reroll=mods.reroll_damage, attacks_reroll=mods.reroll_attacks,
        melta_dice=melta_dice, blast_dice=random_x["BLAST"], blast_rolls=target.count // 5,
        cleave_dice=random_x["CLEAVE"],
        psychic=psychic, command_one_die=rules.cmd_reroll_multi_dice == "one_die",
    )


def _hit_outcome(p: _Profile, raw: int, rules: Rules) -> str:
    """4.1: the first rule that matches."""
    if raw == 1:
        return "fail"
    if p.overwatch:  # 15.09: only an unmodified 6 hits, and it is a critical hit
        return "critical" if raw == 6 else "fail"
    if rules.indirect_fail_beats_crit and raw <= p.indirect_fail:
        return "fail"
    if raw >= p.crit_hit:
        return "critical"
    if raw <= p.indirect_fail:
        return "fail"
    return "success" if raw + p.hit_mod >= p.skill else "fail"


def _wound_outcome(p: _Profile, raw: int) -> str:
    """4.2: the first rule that matches."""
    if raw == 1:
        return "fail"
    if raw >= p.crit_wound:
        return "critical"
    return "success" if raw + p.wound_mod >= p.need else "fail"


def _save_verdict(p: _Profile, raw: int) -> str:
    """4.4 step 2: unmodified 1 always damages; InSv on the raw roll; AP on the armour save."""
    if raw == 1:
        return "damage"
    if p.invuln is not None and raw + p.invuln_mod >= p.invuln:
        return "invulnerable"
    if raw + p.ap + p.armour_mod >= p.save:
        return "armour"
    return "damage"


def _resolve_batch(p: _Profile, unit: _Unit, fnp: int | None, fnp_mortal: int | None,
                   rules: Rules, roll: Roll, trace: Trace | None) -> int:
    """Resolve one batch; return the [DEVASTATING WOUNDS] critical wounds left to resolve."""
    note = trace.events.append if trace is not None else None
    # 3.3: gather the attack dice, weapon by weapon.
    dice = 0
    for w in p.weapons:
        for _ in range(w.count):
            dice += _roll_characteristic(w.attacks, p.attacks_reroll, roll) + p.bonus_dice
            for bonus_dice in (p.blast_dice, p.cleave_dice):
                if bonus_dice.count:
                    for _ in range(p.blast_rolls):
                        dice += _roll_expr(bonus_dice, roll)
            dice += _roll_expr(p.rapid_fire, roll)
    if note:
        note(("dice", dice))

    # 4.1: hit rolls.
    hits = crits = extra = 0
    if p.auto_hit:
        hits = dice
    else:
        for _ in range(dice):
            raw = roll()
            outcome = _hit_outcome(p, raw, rules)
            if _wants_reroll(p.hit_reroll, raw, outcome) or (
                    outcome == "fail" and unit.spend_command("hit")):
                raw = roll()
                outcome = _hit_outcome(p, raw, rules)
            if note:
                note(("hit", raw, outcome))
            if outcome == "success":
                hits += 1
            elif outcome == "critical":
                crits += 1
                extra += _roll_expr(p.sustained, roll)
    auto_wounds = 0
    if p.lethal:
        auto_wounds, crits = crits, 0
        if p.extra_crit:
            auto_wounds, extra = auto_wounds + extra, 0

    # 4.2: wound rolls.
    wounds = dev = 0
    for _ in range(hits + extra + crits):
        raw = roll()
        outcome = _wound_outcome(p, raw)
        if _wants_reroll(p.wound_reroll, raw, outcome) or (p.twin_linked and outcome == "fail") \
                or (outcome == "fail" and unit.spend_command("wound")):
            raw = roll()
            outcome = _wound_outcome(p, raw)
        if note:
            note(("wound", raw, outcome))
        if outcome == "critical" and p.devastating:
            dev += 1  # 8.3: the sequence ends here for this attack
        elif outcome != "fail":
            wounds += 1

    # 4.3: save rolls, then sorted lowest first.
    saves = []
    savable = any(_save_verdict(p, raw) != "damage" for raw in range(2, 7))
    for _ in range(auto_wounds + wounds):
        if not savable:  # no save can succeed: no die to roll (recorded as a 1)
            saves.append(1)
            continue
        raw = roll()
        verdict = _save_verdict(p, raw)
        if _wants_reroll(p.save_reroll, raw, "fail" if verdict == "damage" else "saved") or (
                verdict == "damage" and unit.spend_command("save")):
            raw = roll()
        saves.append(raw)
    if note:
        note(("saves rolled", tuple(saves)))

    # 4.4: inflict damage.
    for raw in sorted(saves):
        if unit.destroyed:
            break
        model = unit.pick()
        verdict = _save_verdict(p, raw)
        if note:
            note(("save", raw, verdict))
        if verdict != "damage":
            continue
        damage, melta_roll = p.damage_roll_with_command(unit, roll)
        amount = modified_damage(damage, p.damage_add + melta_roll, p.halve, p.minus,
                                 p.edition)
        if note:
            note(("damage", amount))
        unit.suffer(model, amount, fnp, roll)

    # 8.3 / 5.1: [DEVASTATING WOUNDS] mortal wounds after the batch's normal damage.
    if _deferred(rules):
        return dev  # the caller resolves them after every batch
    for _ in range(dev):
        _devastate(p, unit, fnp_mortal, rules, roll, note)
    return 0


def _deferred(rules: Rules) -> bool:
    """[DEVASTATING WOUNDS] after all the unit's attacks: dw_timing="unit_end", or always
    under the 10th-edition final text (Appendix A)."""
    if rules.edition == 10 and rules.devastating_text == "final":
        return True
    return rules.dw_timing == "unit_end"


def _devastate(p: _Profile, unit: _Unit, fnp_mortal: int | None, rules: Rules, roll: Roll,
               note) -> None:
    """One critical wound's D mortal wounds, all on one model (8.3 item 4); under the
    10th-edition launch text they spill over, one at a time (06.02)."""
    if unit.destroyed:
        return
    damage, melta_roll = p.damage_roll_with_command(unit, roll)
    amount = modified_damage(damage, p.damage_add + melta_roll, p.mortal_halve,
                             p.mortal_minus, p.edition)
    if note:
        note(("mortal", amount))
    if rules.edition == 10 and rules.devastating_text == "launch":
        for _ in range(amount):
            if unit.destroyed:
                return
            unit.suffer(unit.pick(), 1, fnp_mortal, roll)
        return
    unit.suffer(unit.pick(), amount, fnp_mortal, roll)


def resolve(weapons: Sequence[Batch], target: TargetProfile,
            situation: Situation | None = None, modifiers: Modifiers | None = None,
            rules: Rules | None = None, *, roll: Roll, attacker_monster_vehicle: bool = False,
            trace: Trace | None = None) -> Outcome:
    """Resolve every batch against ``target`` with the dice ``roll`` hands out.

    Parameters
    ----------
    weapons
        Batches in order: a :class:`Weapon` (its ``count`` models fire together), or a tuple
        of weapons that make identical attacks and are gathered together (04.03.01).
    target
        One group of identical models.
    situation, modifiers, rules
        Model objects; ``lethal_policy="ev"`` is not supported here.
    roll
        Returns the next D6 face (1..6). See the module docstring for the order of the dice.
    attacker_monster_vehicle
        Every attacking model is a MONSTER or VEHICLE (3 mortal wounds per failed hazard).
    trace
        If given, receives the events of the resolution.

    Examples
    --------
    >>> faces = iter([4, 3])              # hit on 4 (BS3+), wound on 3 (S4 vs T3)
    >>> w = parse_weapon("A1 BS3+ S4 AP0 D1")
    >>> resolve([w], parse_target("T3 Sv- W1"), roll=lambda: next(faces))
    Outcome(wounds_lost=1, models_destroyed=1, hazard_mortal_wounds=0)
    """
    return Resolver(weapons, target, situation, modifiers, rules,
                    attacker_monster_vehicle=attacker_monster_vehicle)(roll, trace)


class Resolver:
    """:func:`resolve` with the dice-independent work done once (for enumeration).

    ``Resolver(weapons, target, ...)(roll)`` equals ``resolve(weapons, target, ...,
    roll=roll)``.
    """

    def __init__(self, weapons: Sequence[Batch], target: TargetProfile,
                 situation: Situation | None = None, modifiers: Modifiers | None = None,
                 rules: Rules | None = None, *, attacker_monster_vehicle: bool = False) -> None:
        situation = situation or Situation()
        modifiers = modifiers or Modifiers()
        rules = rules or Rules()
        fnp = modifiers.fnp if modifiers.fnp is not None else target.fnp
        mortal_only = (modifiers.fnp_mortal if modifiers.fnp_mortal is not None
                       else target.fnp_mortal)
        candidates = [x for x in (fnp, mortal_only) if x is not None]
        self.fnp = fnp
        self.fnp_mortal = min(candidates) if candidates else None  # 5.3: best instance
        self.command = modifiers.command_reroll
        self.fnp_psychic = (modifiers.fnp_psychic if modifiers.fnp_psychic is not None
                            else target.fnp_psychic)
        self.target = target
        self.rules = rules
        self.per_fail = 3 if attacker_monster_vehicle else 1
        self.profiles = [_profile(tuple(b) if not isinstance(b, Weapon) else (b,), target,
                                  situation, modifiers, rules) for b in weapons]

    def feel_no_pain(self, p: _Profile) -> tuple[int | None, int | None]:
        """The Feel No Pain against a batch's damage and its mortal wounds: a psychic attack
        also faces FNP (psychic); the best one that applies is rolled."""
        if not p.psychic or self.fnp_psychic is None:
            return self.fnp, self.fnp_mortal
        return tuple(min(x for x in (value, self.fnp_psychic) if x is not None)
                     for value in (self.fnp, self.fnp_mortal))

    def __call__(self, roll: Roll, trace: Trace | None = None) -> Outcome:
        unit = _Unit(self.target, self.command)
        deferred: list[_Profile] = []
        note = trace.events.append if trace is not None else None
        for p in self.profiles:
            if unit.destroyed:
                break
            fnp, fnp_mortal = self.feel_no_pain(p)
            dev = _resolve_batch(p, unit, fnp, fnp_mortal, self.rules, roll, trace)
            deferred.extend([p] * dev)
        for p in deferred:  # dw_timing="unit_end" or 10th edition
            _devastate(p, unit, self.feel_no_pain(p)[1], self.rules, roll, note)
        # 5.2: hazard rolls after all attacks, one per selected [HAZARDOUS] weapon. 10th
        # edition final text: a 1 fails, and the bearer takes 3 mortal wounds.
        tenth = self.rules.edition == 10
        hazard = 0
        for p in self.profiles:
            for _ in range(p.hazardous):
                if roll() <= (1 if tenth else 2):
                    hazard += 3 if tenth else self.per_fail
        return unit.outcome(hazard)


# -- brute force --------------------------------------------------------------------------
class _Replay:
    """Replays a dice prefix, then hands out 1s, recording how many dice were used."""

    def __init__(self, prefix: list[int]) -> None:
        self.faces = prefix
        self.used = 0

    def __call__(self) -> int:
        if self.used == len(self.faces):
            self.faces.append(1)
        face = self.faces[self.used]
        self.used += 1
        return face


def enumerate_outcomes(run: Callable[[Roll], Any], max_paths: int = 2_000_000
                       ) -> dict[Any, Fraction]:
    """Exact distribution of ``run(roll)`` over every sequence of D6 faces it can consume.

    Depth-first: run with a prefix of forced faces (1s beyond it), cut the path to the dice
    actually used, then advance it like an odometer (drop trailing 6s, add 1 to the last
    face). Each complete path has probability ``6 ** -len(path)``. ``run`` must be
    deterministic given its dice.

    Examples
    --------
    >>> pmf = enumerate_outcomes(lambda roll: roll() + roll() >= 11)
    >>> pmf[True]
    Fraction(1, 12)
    """
    by_depth: dict[int, Counter] = {}
    path: list[int] = []
    paths = 0
    while True:
        replay = _Replay(path)
        result = run(replay)
        path = replay.faces[: replay.used]
        by_depth.setdefault(len(path), Counter())[result] += 1
        paths += 1
        if paths > max_paths:
            raise RuntimeError(f"more than {max_paths} dice paths; use a smaller scenario")
        while path and path[-1] == 6:
            path.pop()
        if not path:
            break
        path[-1] += 1
    pmf: dict[Any, Fraction] = {}
    for depth, counts in by_depth.items():
        weight = Fraction(1, 6 ** depth)
        for result, n in counts.items():
            pmf[result] = pmf.get(result, Fraction(0)) + n * weight
    return pmf


def reference_pmfs(weapons: Sequence[Batch], target: TargetProfile, **options: Any
                   ) -> dict[str, dict[int, Fraction]]:
    """Exact pmfs of ``damage``, ``models_destroyed`` and ``attacker_mortal_wounds`` by
    enumerating every dice path of :func:`resolve` (tiny scenarios only)."""
    situation, modifiers, rules, mv = split_options(**options)
    joint = enumerate_outcomes(Resolver(weapons, target, situation, modifiers, rules,
                                        attacker_monster_vehicle=mv))
    out: dict[str, dict[int, Fraction]] = {"damage": {}, "models_destroyed": {},
                                           "attacker_mortal_wounds": {}}
    for outcome, p in joint.items():
        for name, value in (("damage", outcome.wounds_lost),
                            ("models_destroyed", outcome.models_destroyed),
                            ("attacker_mortal_wounds", outcome.hazard_mortal_wounds)):
            out[name][value] = out[name].get(value, Fraction(0)) + p
    return out
