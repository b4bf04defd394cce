"""Warmachine MkIV value objects: attack lines, targets and rule switches.

Model layer: frozen dataclasses, standard library only. Text parsing lives in
:mod:`mathhammer.warmachine.parse` (which imports this module, never the reverse);
``str()`` gives the canonical line back, so ``parse_attack(str(a)) == a``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from mathhammer.core.inputs import real_number, switch
from mathhammer.core.limits import MAX_NUMBER
from mathhammer.errors import OptionError, ProfileError

#: Largest number of dice a single roll may use (the exact engine enumerates 6**n outcomes).
MAX_DICE = 8

#: Attack-roll reroll policies (section 4 of the rules reference).
REROLL_POLICIES = ("none", "on_miss", "on_miss_or_no_crit")

#: Attack-generating triggers (section 8.4).
GENERATE_TRIGGERS = ("none", "on_hit", "on_kill")

STAT_KINDS = ("MAT", "RAT", "AAT")

#: Damage grid and spiral: six lanes (columns, branches); a box is blank or a system letter.
N_LANES = 6
#: Warjack grid systems (rules section 7.2) and warbeast spiral aspects, by letter.
GRID_SYSTEMS = {"A": "arc node", "C": "cortex", "G": "field generator", "H": "head",
                "M": "movement", "F": "front weapon", "L": "left weapon", "R": "right weapon"}
SPIRAL_ASPECTS = {"B": "body", "M": "mind", "S": "spirit"}
#: Who receives damage transfers: every damaging attack, or only damage that would disable.
TRANSFER_POLICIES = ("always", "lethal")


#: An attacking model's systems that can be crippled (``Attack.crippled_<name>``).
CRIPPLED = ("weapon", "mind", "body", "spirit", "cortex")


def ceil_half(value: int) -> int:
    """Half of ``value`` rounded up (armour against [ARMOR-PIERCING], a blast's POW)."""
    return -(-value // 2)


#: The :class:`Rules` fields that are True or False.
_SWITCHES = ("all_ones_miss", "special_on_kept_dice", "roll_vs_auto_hit", "tough_allowed",
             "aoe_boost_all", "apply_crippling", "retarget_after_kill")


@dataclass(frozen=True, slots=True)
class Rules:
    """Engine switches for the points the MkIV text leaves open (UNCERTAIN in the reference).

    Parameters
    ----------
    all_ones_miss
        A roll whose kept dice all show 1 misses (default ``True``; older editions).
    special_on_kept_dice
        The all-1s and all-6s checks look at the kept dice only (default ``True``); ``False``
        looks at every rolled die, discarded ones included.
    roll_vs_auto_hit
        Roll anyway against an automatic hit to fish for a critical hit (default ``False``);
        the roll then replaces the automatic hit and can miss.
    stationary_base_def
        DEF of a knocked-down or stationary model (default 5).
    tough_allowed
        ``False`` forbids every Tough roll (default ``True``).
    aoe_boost_all
        A bought damage boost also boosts every blast damage roll of the AOE (default ``True``).
    aoe_miss_coverage
        Probability that a model listed under an AOE is still inside the area after the
        attack misses and deviates (default 0: geometry is not modelled).
    apply_crippling
        Apply the older-edition effects of an attacker's crippled systems (default ``False``:
        the MkIV effects are unverified, UNCERTAIN). With ``True`` a crippled weapon system
        rolls 1 fewer attack die and 1 fewer damage die, a crippled Mind 1 fewer attack die,
        a crippled Body 1 fewer damage die, and a crippled Spirit or Cortex cannot spend
        fury or focus (no boosts, no charge). ``CRIPPLED ...`` words on an attack line need
        it; P(system crippled) of a target with a grid or spiral is reported either way.
    retarget_after_kill
        Later attacks move on to the next model when their target is destroyed (default
        ``True``; ``False`` is not supported).
    transfer_policy
        When a target with damage transfer (a warlock) moves an attack's damage to its
        warbeast: ``"always"`` (default: every damaging attack while fury and the beast
        last) or ``"lethal"`` (only damage that would disable it). A controller's choice;
        the rules leave it open.
    """

    all_ones_miss: bool = True
    special_on_kept_dice: bool = True
    roll_vs_auto_hit: bool = False
    stationary_base_def: int = 5
    tough_allowed: bool = True
    aoe_boost_all: bool = True
    aoe_miss_coverage: float = 0.0
    apply_crippling: bool = False
    retarget_after_kill: bool = True
    transfer_policy: str = "always"

    def __post_init__(self) -> None:
        for name in _SWITCHES:   # bool("no") is True: only True or False reads right
            switch(getattr(self, name), name)
        real_number(self.aoe_miss_coverage, "aoe_miss_coverage (a probability)", 0.0, 1.0)
        if isinstance(self.stationary_base_def, bool) or \
                not isinstance(self.stationary_base_def, int) or \
                not 0 <= self.stationary_base_def <= MAX_NUMBER:
            raise OptionError(f"stationary_base_def {self.stationary_base_def!r} must be a "
                              f"whole number from 0 to {MAX_NUMBER:,} (a DEF, 5 by default)")
        if self.transfer_policy not in TRANSFER_POLICIES:
            raise OptionError(f"transfer_policy '{self.transfer_policy}' must be one of "
                              f"{', '.join(TRANSFER_POLICIES)}")

    def as_dict(self) -> dict[str, object]:
        """The switches as a plain dict (recorded in every result)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def changes(self) -> tuple[str, ...]:
        """Every switch that differs from its default, in words a reader understands.

        Chart and table captions print them, so a result computed under other rules says
        so. A switch without a phrase of its own is named with its value.

        Examples
        --------
        >>> Rules(tough_allowed=False, aoe_miss_coverage=0.5).changes()
        ('no Tough rolls', 'a missed AOE still covers a listed model 50% of the time')
        """
        default = Rules()
        return tuple(_rule_words(f.name, getattr(self, f.name)) for f in fields(self)
                     if getattr(self, f.name) != getattr(default, f.name))


def _rule_words(name: str, value: object) -> str:
    """One non-default :class:`Rules` switch in words."""
    phrases = {
        "all_ones_miss": "a roll of all 1s does not miss automatically",
        "special_on_kept_dice": "all-1s and all-6s checks count discarded dice",
        "roll_vs_auto_hit": "rolls against automatic hits to fish for criticals",
        "tough_allowed": "no Tough rolls",
        "aoe_boost_all": "a damage boost does not boost an AOE's blast damage",
        "apply_crippling": "crippled systems of the attacker apply older-edition penalties",
        "retarget_after_kill": "no retargeting after a kill",
    }
    if name == "stationary_base_def":
        return f"DEF {value} for knocked-down or stationary models (default 5)"
    if name == "aoe_miss_coverage":
        share = float(value) if isinstance(value, (int, float)) else float(str(value))
        return f"a missed AOE still covers a listed model {share * 100:.3g}% of the time"
    if name == "transfer_policy":
        return f"damage transfer: {value} (default always)" if value != "lethal" \
            else "a warlock transfers only damage that would disable it"
    return phrases.get(name, f"{name.replace('_', ' ')} {value}")


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack line: ``count`` attacks with one weapon, made one after another.

    Parameters
    ----------
    name
        Weapon name (free text).
    count
        Number of attacks on this line (``Nx``).
    stat_kind, stat
        ``"MAT"`` (melee), ``"RAT"`` (ranged) or ``"AAT"`` (arcane) and its value.
    pow
        Weapon POW (melee POW includes strength in MkIV).
    blast_pow
        Blast POW of an AOE weapon, or ``None`` for a weapon without an area.
    aoe
        The weapon has an area of effect. Without a printed blast POW, blast damage uses
        ``ceil(pow / 2)``.
    catches
        Further models of the target unit inside the area (AOE) besides the target.
    spray
        Number of models the spray covers (0 = not a spray); each gets its own attack roll.
    charge
        The first attack of the line is a charge attack: its damage roll is boosted on a hit.
    boosted_attack, boosted_damage
        Every attack / damage roll of the line is boosted.
    attack_boosts
        Attack rolls of the first ``attack_boosts`` attacks of the line are boosted (focus or
        fury spent before rolling; capped at ``count``).
    damage_boosts
        Damage boosts bought with focus or fury, spent on the first hits of the line whose
        damage is not already boosted (spent only on hits).
    attack_dice, damage_dice
        Additional dice (rules such as "roll an additional die").
    attack_drop, damage_drop
        Lowest dice discarded after rolling.
    attack_reduced, damage_reduced
        Dice removed (fewer dice).
    armor_piercing, crit_armor_piercing
        Halve the target's base ARM (rounded up), always or on a critical hit.
    crit_knockdown, crit_no_tough
        Critical effects applied before damage: knock the target down; no Tough roll.
    crit_damage_multiplier
        Damage beyond ARM is multiplied on a critical hit (1 = no effect).
    crit_damage_dice
        Extra damage dice on a critical hit.
    crit_continuous
        A critical hit applies a continuous effect (fire, corrosion). It adds no damage in a
        single activation; the engines report P(applied).
    auto_hit, auto_miss
        Automatic results (an automatic miss wins over an automatic hit).
    reroll_attack, attack_rerolls
        Reroll policy for the attack roll and how many rerolls each attack roll may use.
    reroll_damage_below, damage_rerolls
        Reroll a damage roll that deals fewer than this many boxes (``None`` = never).
    generate, max_generated
        Attack-generating rule (``"on_hit"``/``"on_kill"``) and its cap per line (``None``
        = no cap). Each attack generates at most one attack, which may chain.
    lane
        Damage lane (grid column or spiral branch, 1-6) the attacker chooses (Marksman,
        Precision Strike); ``None`` rolls a d6 for every damage roll.
    crippled_weapon, crippled_mind, crippled_body, crippled_spirit, crippled_cortex
        The attacking model's crippled systems (section 7.3; need
        ``Rules(apply_crippling=True)``, older-edition effects).
    """

    name: str = ""
    count: int = 1
    stat_kind: str = "MAT"
    stat: int = 0
    pow: int = 0
    blast_pow: int | None = None
    aoe: bool = False
    catches: int = 0
    spray: int = 0
    charge: bool = False
    boosted_attack: bool = False
    boosted_damage: bool = False
    damage_boosts: int = 0
    attack_boosts: int = 0
    attack_dice: int = 0
    damage_dice: int = 0
    attack_drop: int = 0
    damage_drop: int = 0
    attack_reduced: int = 0
    damage_reduced: int = 0
    armor_piercing: bool = False
    crit_armor_piercing: bool = False
    crit_knockdown: bool = False
    crit_no_tough: bool = False
    crit_damage_multiplier: int = 1
    crit_damage_dice: int = 0
    crit_continuous: bool = False
    auto_hit: bool = False
    auto_miss: bool = False
    reroll_attack: str = "none"
    attack_rerolls: int = 1
    reroll_damage_below: int | None = None
    damage_rerolls: int = 1
    generate: str = "none"
    max_generated: int | None = None
    lane: int | None = None
    crippled_weapon: bool = False
    crippled_mind: bool = False
    crippled_body: bool = False
    crippled_spirit: bool = False
    crippled_cortex: bool = False

    def __post_init__(self) -> None:
        _check_switches(self)
        _check_counts(self, ("count",), minimum=1)
        _check_counts(self, ("stat", "pow", "catches", "spray", "damage_boosts",
                             "attack_boosts", "attack_dice",
                             "damage_dice", "attack_drop", "damage_drop", "attack_reduced",
                             "damage_reduced", "crit_damage_dice"), minimum=0)
        # 0 rerolls would reroll nothing: [REROLL MISSES 0] read as 1, DAMAGE REROLLS 0 as none
        _check_counts(self, ("attack_rerolls", "damage_rerolls"), minimum=1)
        _check_counts(self, ("crit_damage_multiplier",), minimum=1)
        if self.stat_kind not in STAT_KINDS:
            raise ProfileError(f"attack stat '{self.stat_kind}' must be MAT, RAT or AAT",
                               token=self.stat_kind)
        if self.reroll_attack not in REROLL_POLICIES:
            raise ProfileError(f"reroll policy '{self.reroll_attack}' must be one of "
                               f"{', '.join(REROLL_POLICIES)}", token=self.reroll_attack)
        if self.generate not in GENERATE_TRIGGERS:
            raise ProfileError(f"attack-generating trigger '{self.generate}' must be one of "
                               f"{', '.join(GENERATE_TRIGGERS)}", token=self.generate)
        if self.blast_pow is not None and self.blast_pow < 0:
            raise ProfileError(f"BLAST POW {self.blast_pow} must not be negative")
        if self.max_generated is not None and self.max_generated < 1:
            raise ProfileError(f"the cap on generated attacks ({self.max_generated}) must be at "
                               "least 1 (0 generates none: leave out the generating rule)")
        if self.reroll_damage_below is not None and self.reroll_damage_below < 1:
            raise ProfileError("REROLL DAMAGE BELOW needs a threshold of at least 1")
        if self.charge and self.stat_kind != "MAT":
            raise ProfileError(f"CHARGE is a melee attack; use MAT, not {self.stat_kind}",
                               token="CHARGE")
        if self.spray and self.is_aoe:
            raise ProfileError("a weapon is either a SPRAY or an AOE, not both", token="SPRAY")
        if self.attack_boosts > self.count:
            raise ProfileError(f"ATTACK BOOSTS {self.attack_boosts} is more than the "
                               f"{self.count} attacks of the line", token="ATTACK BOOSTS")
        if self.boosted_attack and self.attack_boosts:
            raise ProfileError("BOOSTED ATTACK already boosts every attack roll; drop "
                               "ATTACK BOOSTS (a roll is boosted at most once)",
                               token="ATTACK BOOSTS")
        if self.catches and not self.is_aoe:
            raise ProfileError("CATCHES needs an AOE weapon; add AOE or BLAST POW n",
                               token="CATCHES")
        if self.lane is not None and not 1 <= self.lane <= N_LANES:
            raise ProfileError(f"LANE {self.lane} is not a damage lane; use 1 to {N_LANES}",
                               token=f"LANE {self.lane}")
        for what, total in (("attack", 2 + int(self.boosted_attack or self.attack_boosts > 0)
                             + self.attack_dice),
                            ("damage", 3 + self.damage_dice + self.crit_damage_dice)):
            if total > MAX_DICE:
                raise ProfileError(f"{total} {what} dice is more than the {MAX_DICE} one roll "
                                   "can use; remove additional dice")

    # -- derived ------------------------------------------------------------------------------
    @property
    def is_melee(self) -> bool:
        return self.stat_kind == "MAT"

    @property
    def is_aoe(self) -> bool:
        return self.aoe or self.blast_pow is not None

    @property
    def effective_blast_pow(self) -> int:
        """Printed blast POW, else ``ceil(POW / 2)`` (older-edition default, UNCERTAIN)."""
        return self.blast_pow if self.blast_pow is not None else ceil_half(self.pow)

    @property
    def attack_dice_rolled(self) -> int:
        return 2 + int(self.boosted_attack) + self.attack_dice - self.attack_reduced

    def with_count(self, count: int) -> Attack:
        return replace(self, count=count)

    def __str__(self) -> str:
        """Canonical attack line, as :func:`~mathhammer.warmachine.parse.parse_attack` reads it."""
        a = self
        words: list[str] = []
        flags = [("charge", "CHARGE"), ("armor_piercing", "ARMOR-PIERCING"),
                 ("crit_armor_piercing", "CRITICAL ARMOR-PIERCING"),
                 ("crit_knockdown", "CRITICAL KNOCKDOWN"),
                 ("crit_no_tough", "CRITICAL DECAPITATION"),
                 ("crit_continuous", "CRITICAL CONTINUOUS EFFECT"),
                 ("boosted_attack", "BOOSTED ATTACK"), ("boosted_damage", "BOOSTED DAMAGE"),
                 ("auto_hit", "AUTO HIT"), ("auto_miss", "AUTO MISS"), ("aoe", "AOE")]
        flags += [(f"crippled_{system}", f"CRIPPLED {system.upper()}") for system in CRIPPLED]
        words += [text for field_name, text in flags if getattr(a, field_name)]
        numbers = [("crit_damage_multiplier", "CRITICAL DAMAGE MULTIPLIER", 1),
                   ("crit_damage_dice", "CRITICAL DAMAGE DICE", 0),
                   ("damage_boosts", "DAMAGE BOOSTS", 0),
                   ("attack_boosts", "ATTACK BOOSTS", 0),
                   ("attack_dice", "ADDITIONAL ATTACK DICE", 0),
                   ("damage_dice", "ADDITIONAL DAMAGE DICE", 0),
                   ("attack_drop", "ATTACK DROP LOWEST", 0),
                   ("damage_drop", "DAMAGE DROP LOWEST", 0),
                   ("attack_reduced", "FEWER ATTACK DICE", 0),
                   ("damage_reduced", "FEWER DAMAGE DICE", 0),
                   ("catches", "CATCHES", 0), ("spray", "SPRAY", 0)]
        words += [f"{text} {getattr(a, name)}" for name, text, default in numbers
                  if getattr(a, name) != default]
        if a.blast_pow is not None:
            words.append(f"BLAST POW {a.blast_pow}")
        if a.reroll_attack == "on_miss":
            words.append(f"REROLL MISSES {a.attack_rerolls}")
        elif a.reroll_attack == "on_miss_or_no_crit":
            words.append(f"REROLL MISSES OR NO CRIT {a.attack_rerolls}")
        if a.reroll_damage_below is not None:
            words.append(f"REROLL DAMAGE BELOW {a.reroll_damage_below}")
        if a.damage_rerolls != 1:
            words.append(f"DAMAGE REROLLS {a.damage_rerolls}")
        if a.generate != "none":
            words.append("EXTRA ATTACK ON HIT" if a.generate == "on_hit"
                         else "EXTRA ATTACK ON KILL")
        if a.max_generated is not None:
            words.append(f"EXTRA ATTACKS MAX {a.max_generated}")
        if a.lane is not None:
            words.append(f"LANE {a.lane}")
        head = f"{a.count}x {a.name}: " if a.name else f"{a.count}x : "
        text = f"{head}{a.stat_kind}{a.stat} POW{a.pow}"
        return f"{text} [{', '.join(words)}]" if words else text


@dataclass(frozen=True, slots=True)
class Target:
    """A target unit of ``count`` identical models (or one model).

    Parameters
    ----------
    name
        Free text.
    count
        Number of models.
    defense, armor
        DEF and base ARM (after any modifiers the caller applies).
    boxes
        Damage boxes per model.
    damaged
        Boxes already marked on each model.
    tough, tough_threshold
        Tough, saving on a d6 roll of ``tough_threshold`` or more (default 5).
    knocked_down, stationary
        The models start knocked down / stationary (DEF ``stationary_base_def``, melee
        attacks hit automatically; knocked down also removes Tough).
    grid, spiral
        Damage grid (warjack) or, with ``spiral=True``, spiral (warbeast): six lanes of
        boxes from top (outermost) to bottom (innermost), each box ``"-"`` (blank) or a
        system letter (grid: A C G H M F L R; spiral: B M S). The boxes must add up to
        ``boxes``. Each damage roll picks a lane (d6, or the attack's ``lane``) and marks
        boxes from there on (section 7.2); the engines report P(each system crippled).
    transfers, transfer_boxes
        Damage transfer (a warlock): this many transfers (fury points), each moving one
        attack's damage to a warbeast with ``transfer_boxes`` unmarked boxes; damage beyond
        them comes back to the model. Single models only.
    """

    name: str = ""
    count: int = 1
    defense: int = 12
    armor: int = 12
    boxes: int = 1
    damaged: int = 0
    tough: bool = False
    tough_threshold: int = 5
    knocked_down: bool = False
    stationary: bool = False
    grid: tuple[str, ...] = ()
    spiral: bool = False
    transfers: int = 0
    transfer_boxes: int = 0

    def __post_init__(self) -> None:
        _check_switches(self)
        _check_counts(self, ("count", "boxes"), minimum=1)
        _check_counts(self, ("defense", "armor", "damaged", "transfers", "transfer_boxes"),
                      minimum=0)
        self._check_grid()
        if (self.transfers > 0) != (self.transfer_boxes > 0):
            raise ProfileError("damage transfer needs both TRANSFER n (transfers available) and "
                               "TRANSFER BOXES m (the warbeast's unmarked boxes)",
                               token="TRANSFER")
        if self.transfers and self.count != 1:
            raise ProfileError(f"TRANSFER is for a single model (a warlock), not {self.count}x",
                               token="TRANSFER")
        if self.damaged >= self.boxes:
            raise ProfileError(f"DAMAGED {self.damaged} marks every one of the {self.boxes} "
                               "boxes; a model needs an unmarked box", token="DAMAGED")
        if not 2 <= self.tough_threshold <= 6:
            raise ProfileError(f"TOUGH {self.tough_threshold}+ is not a d6 roll; use 2+ to 6+",
                               token="TOUGH")

    def _check_grid(self) -> None:
        if not self.grid:
            if self.spiral:
                raise ProfileError("SPIRAL needs its six branches", token="SPIRAL")
            return
        word = "SPIRAL" if self.spiral else "GRID"
        letters = SPIRAL_ASPECTS if self.spiral else GRID_SYSTEMS
        if len(self.grid) != N_LANES:
            raise ProfileError(f"{word} needs {N_LANES} lanes separated by '/', not "
                               f"{len(self.grid)}", token=word)
        for lane in self.grid:
            for box in lane:
                if box != "-" and box not in letters:
                    raise ProfileError(f"{word} box '{box}' is not blank ('-') or one of "
                                       f"{' '.join(letters)}", token=box)
        total = sum(len(lane) for lane in self.grid)
        if total != self.boxes:
            raise ProfileError(f"the {word} has {total} boxes but BOXES{self.boxes}; make them "
                               "agree", token=word)
        if self.damaged:
            raise ProfileError(f"DAMAGED with a {word} does not say which boxes are marked; "
                               "drop DAMAGED", token="DAMAGED")

    @property
    def boxes_left(self) -> int:
        return self.boxes - self.damaged

    @property
    def systems(self) -> dict[str, str]:
        """Letters of the systems (or aspects) on the grid or spiral, with their names."""
        names = SPIRAL_ASPECTS if self.spiral else GRID_SYSTEMS
        present = {box for lane in self.grid for box in lane if box != "-"}
        return {letter: names[letter] for letter in names if letter in present}

    def __str__(self) -> str:
        """Canonical target line, as :func:`~mathhammer.warmachine.parse.parse_target` reads it."""
        t = self
        words: list[str] = []
        if t.tough:
            words.append("TOUGH" if t.tough_threshold == 5 else f"TOUGH {t.tough_threshold}+")
        if t.knocked_down:
            words.append("KNOCKED DOWN")
        if t.stationary:
            words.append("STATIONARY")
        if t.damaged:
            words.append(f"DAMAGED {t.damaged}")
        if t.grid:
            words.append(f"{'SPIRAL' if t.spiral else 'GRID'} {'/'.join(t.grid)}")
        if t.transfers:
            words += [f"TRANSFER {t.transfers}", f"TRANSFER BOXES {t.transfer_boxes}"]
        head = f"{t.count}x {t.name}: " if t.name else f"{t.count}x : "
        text = f"{head}DEF{t.defense} ARM{t.armor} BOXES{t.boxes}"
        return f"{text} [{', '.join(words)}]" if words else text


def _check_switches(obj: Any) -> None:
    """Every True/False field of ``obj`` is True or False (``Attack(charge='no')`` was a
    charge: ``bool('no')`` is True)."""
    for field in fields(obj):
        if field.type == "bool":
            switch(getattr(obj, field.name), f"{type(obj).__name__} {field.name}")


def _check_counts(obj: object, names: tuple[str, ...], minimum: int) -> None:
    for name in names:
        value = getattr(obj, name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProfileError(f"{name} must be a whole number, not {value!r}", token=str(value))
        if value < minimum:
            raise ProfileError(f"{name} = {value} is impossible; it must be at least {minimum}",
                               token=str(value))
