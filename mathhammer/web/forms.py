"""The query string of a page, read and checked: lines, situation switches and engine.

Every field a page offers is listed here with its bounds, so a bookmarked or hand-edited URL
is refused in one line naming the field (``hit_mod: 'x' is not a whole number``), and the
work one request may ask for stays bounded: at most :data:`MAX_LINES` lines of at most
:data:`MAX_LINE_CHARS` characters per box, :data:`MAX_TRIALS` Monte Carlo trials per cell.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mathhammer.errors import OptionError
from mathhammer.web import words

#: Lines one text box may hold (attackers, targets).
MAX_LINES = 24
#: Characters of one line.
MAX_LINE_CHARS = 400
#: Characters of a scenario text.
MAX_SCENARIO_CHARS = 100_000
#: Monte Carlo trials per cell a page may ask for (the command line allows more).
MAX_TRIALS = 2_000_000
#: Monte Carlo trials a page question runs unless it asks for more (a quick first answer;
#: core.trials.DEFAULT_TRIALS is one `simulate`'s, DEFAULT_GRID_TRIALS a comparison cell's).
DEFAULT_PAGE_TRIALS = 100_000
#: Largest seed (64 bits, as on the command line).
MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class Switch:
    """A check box: a situation flag that is on or off."""

    name: str
    label: str
    help: str = ""


@dataclass(frozen=True)
class Number:
    """A whole-number field with bounds; ``None`` (empty) allowed when ``optional``."""

    name: str
    label: str
    low: int
    high: int
    default: int | None = 0
    optional: bool = False


@dataclass(frozen=True)
class Choice:
    """A drop-down of fixed values (the first is the default)."""

    name: str
    label: str
    values: tuple[str, ...]


Field = Switch | Number | Choice

#: 40k situation switches (the command line's flags of the same names).
WH40K_SWITCHES = (
    Switch("half_range", "Half range", "[RAPID FIRE], [MELTA]"),
    Switch("stationary", "Stationary", "[HEAVY]"),
    Switch("cover", "Cover", "benefit of cover"),
    Switch("charged", "Charged", "[LANCE]"),
    Switch("indirect", "Indirect", "[INDIRECT FIRE]"),
    Switch("spotted", "Spotted", "with indirect"),
    Switch("overwatch", "Overwatch", "hits on 6s"),
    Switch("advanced", "Advanced", "only [ASSAULT]"),
    Switch("damage_halved", "Damage halved", "defender"),
)
_REROLLS = ("none", "ones", "failed", "noncrit", "all")
#: 40k modifiers and rule choices.
WH40K_FIELDS = (
    Choice("edition", "Edition", ("11", "10")),
    Number("hit_mod", "Hit mod", -6, 6),
    Number("wound_mod", "Wound mod", -6, 6),
    Number("ap_mod", "AP mod", -6, 6),
    Number("save_mod", "Save mod", -6, 6),
    Number("damage_plus", "Damage +", 0, 20),
    Number("damage_minus", "Damage −", 0, 20),
    Number("crit_hits", "Crit hits on", 2, 6, 6),
    Number("crit_wounds", "Crit wounds on", 2, 6, 6),
    Number("fnp", "Feel No Pain", 2, 6, None, optional=True),
    Choice("reroll_hits", "Re-roll hits", _REROLLS),
    Choice("reroll_wounds", "Re-roll wounds", _REROLLS),
    Choice("reroll_saves", "Re-roll saves", ("none", "ones", "failed", "all")),
    Choice("reroll_damage", "Re-roll damage", ("none", "ones", "low", "best")),
    Choice("command_reroll", "Command Re-roll",
           ("none", "hit", "wound", "damage", "save", "damage_best")),
    Choice("reroll_goal", "Best re-roll for", ("models_destroyed", "damage", "unit_destroyed")),
    Choice("lethal_policy", "Lethal hits", ("always", "never", "ev")),
)
ENGINE = Choice("engine", "Engine", ("exact", "monte-carlo"))
#: Common named buffs the 40k page offers as check boxes: the label is the buff's name, the
#: help its text (read by :func:`mathhammer.wh40k.buffs.parse_buff` as ``LABEL: HELP``).
WH40K_BUFFS = (
    Switch("buff_oath", "Oath of Moment", "re-roll hits"),
    Switch("buff_hit", "+1 to hit", "+1 to hit"),
    Switch("buff_wound", "+1 to wound", "+1 to wound"),
    Switch("buff_hit_ones", "Re-roll hits of 1", "re-roll hits of 1"),
    Switch("buff_wounds", "Re-roll wounds", "re-roll wounds"),
    Switch("buff_lethal", "Lethal Hits", "[LETHAL HITS]"),
    Switch("buff_sustained", "Sustained Hits 1", "[SUSTAINED HITS 1]"),
    Switch("buff_devastating", "Devastating Wounds", "[DEVASTATING WOUNDS]"),
    Switch("buff_crits", "Crits on 5+", "critical hits on 5+"),
    Switch("buff_ap", "+1 AP", "+1 AP"),
    Switch("buff_cover", "Target in cover", "benefit of cover"),
    Switch("buff_fnp", "Target FNP 5+", "FNP 5+"),
    Switch("buff_minus", "Target -1 Damage", "-1 damage"),
)
#: The buff boxes that change the attacks (the battle page's: a scenario's target units carry
#: their own defences on their lines).
WH40K_ATTACK_BUFFS = tuple(s for s in WH40K_BUFFS
                           if s.name not in ("buff_cover", "buff_fnp", "buff_minus"))
#: Lines the page's own buff box may hold.
MAX_BUFF_LINES = 16
words.register(*WH40K_SWITCHES, *WH40K_FIELDS, *WH40K_BUFFS)  # refusals name these controls


def text_field(query: Mapping[str, str], name: str, limit: int = MAX_LINE_CHARS * MAX_LINES
               ) -> str:
    """A text field, refused past ``limit`` characters or with control characters."""
    value = query.get(name, "") or ""
    if len(value) > limit:
        raise OptionError(f"{name}: {len(value):,} characters is too long: at most "
                          f"{limit:,}")
    if "\x00" in value:
        raise OptionError(f"{name}: holds a NUL character; type plain text")
    return value


def lines_field(query: Mapping[str, str], name: str, what: str) -> list[str]:
    """The non-empty lines of a text box, at most :data:`MAX_LINES` of
    :data:`MAX_LINE_CHARS` characters each."""
    lines = [line.strip() for line in text_field(query, name).splitlines() if line.strip()]
    if len(lines) > MAX_LINES:
        raise OptionError(f"{name}: {len(lines)} {what} lines; at most {MAX_LINES} at once")
    for number, line in enumerate(lines, 1):
        if len(line) > MAX_LINE_CHARS:
            raise OptionError(f"{name} line {number}: {len(line):,} characters; a line may "
                              f"have at most {MAX_LINE_CHARS}")
    return lines


def whole_number(query: Mapping[str, str], name: str, low: int, high: int,
                 default: int | None) -> int | None:
    """A whole number from ``low`` to ``high`` (``default`` when the field is empty)."""
    text = (query.get(name) or "").strip().replace("−", "-")
    if not text:
        return default
    digits = text.lstrip("+-")
    if not digits.isascii() or not digits.isdigit() or len(digits) > len(str(high)) + 1:
        raise OptionError(f"{name}: '{text[:40]}' is not a whole number from {low:,} to "
                          f"{high:,}")
    value = int(text)
    if not low <= value <= high:
        raise OptionError(f"{name}: {value:,} is out of range: give a number from {low:,} "
                          f"to {high:,}")
    return value


def choice(query: Mapping[str, str], spec: Choice) -> str:
    value = (query.get(spec.name) or spec.values[0]).strip()
    if value not in spec.values:
        raise OptionError(f"{spec.name}: '{value[:40]}' is not one of "
                          f"{', '.join(spec.values)}")
    return value


_ON = ("on", "1", "true", "yes")
_OFF = ("", "off", "0", "false", "no")


def switched(query: Mapping[str, str], name: str) -> bool:
    """A check box: on for ``on``/``1``/``true``/``yes``, off when absent or
    ``off``/``0``/``false``/``no``; any other word (a hand-edited address) is refused rather
    than read as off."""
    value = (query.get(name) or "").strip().lower()
    if value not in _ON + _OFF:
        raise OptionError(f"{name}: '{value[:40]}' is not on or off (tick or untick the box)")
    return value in _ON


def ticked(query: Mapping[str, str], name: str) -> bool:
    """Whether a page shows the check box ticked (never refuses: the page's error line
    says what is wrong with the address)."""
    return (query.get(name) or "").strip().lower() in _ON


def read_fields(query: Mapping[str, str], fields: Sequence[Field]) -> dict[str, Any]:
    """The values of ``fields`` (switches as booleans, numbers as ints, choices as text)."""
    out: dict[str, Any] = {}
    for spec in fields:
        if isinstance(spec, Switch):
            out[spec.name] = switched(query, spec.name)
        elif isinstance(spec, Number):
            out[spec.name] = whole_number(query, spec.name, spec.low, spec.high, spec.default)
        else:
            out[spec.name] = choice(query, spec)
    return out


@dataclass(frozen=True)
class Engine:
    """Exact or Monte Carlo, with the trials and seed of the latter."""

    exact: bool
    trials: int
    seed: int

    @property
    def method(self) -> str:
        """The engine as the public functions' ``method`` keyword names it."""
        return "exact" if self.exact else "monte-carlo"

    def words(self, per: str = " per cell") -> str:
        return "exact" if self.exact else \
            f"Monte Carlo, {self.trials:,} trials{per}, seed {self.seed}"


def read_engine(query: Mapping[str, str], max_trials: int = MAX_TRIALS) -> Engine:
    """The engine fields: ``engine``, ``trials`` (at most ``max_trials``) and ``seed``."""
    exact = choice(query, ENGINE) == "exact"
    trials = whole_number(query, "trials", 1, max_trials, DEFAULT_PAGE_TRIALS)
    seed = whole_number(query, "seed", 0, MAX_SEED, 1)
    return Engine(exact, int(trials or DEFAULT_PAGE_TRIALS), int(seed or 0))


def wh40k_options(query: Mapping[str, str]) -> dict[str, Any]:
    """The keyword options of :func:`mathhammer.compare` the 40k fields give."""
    options: dict[str, Any] = read_fields(query, WH40K_SWITCHES)
    options.update(read_fields(query, WH40K_FIELDS))
    options["edition"] = int(options["edition"])
    if options["fnp"] is None:
        del options["fnp"]
    return options


def buff_text(spec: Switch) -> str:
    """A buff check box's text as the buff reader reads it (``Oath of Moment: re-roll hits``).
    """
    return f"{spec.label}: {spec.help}"


def wh40k_buffs(query: Mapping[str, str]) -> list[str]:
    """The ticked buffs' texts, then the lines of the ``buffs`` box, each read now: a line
    that does not read is refused in one line naming its token and column, said at
    ``buffs line N``."""
    from mathhammer.errors import MathhammerError
    from mathhammer.wh40k.buffs import parse_buff

    ticked_boxes = [buff_text(spec) for spec in WH40K_BUFFS if switched(query, spec.name)]
    typed = lines_field(query, "buffs", "buff")
    if len(typed) > MAX_BUFF_LINES:
        raise OptionError(f"buffs: {len(typed)} buff lines; at most {MAX_BUFF_LINES} at once",
                          token="buffs")
    for number, line in enumerate(typed, 1):
        try:
            parse_buff(line)
        except MathhammerError as exc:
            raise exc.located(f"buffs line {number}") from None
    return ticked_boxes + typed
